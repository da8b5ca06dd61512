// The invariants of a platformer nav graph (spec §B.3), checked against the map and parameters it
// was built from; tests run this on every graph they build.
#include <cmath>
#include <set>
#include <string>

#include "leapnav/platformer/nav_graph.hpp"
#include "leapnav/platformer/trajectory.hpp"

namespace leapnav::platformer {
namespace {

std::string tile_text(Tile t) {
  return "(" + std::to_string(t.c) + ", " + std::to_string(t.r) + ")";
}

Error invalid(const std::string& message) {
  return make_error(ErrorCode::Internal, "platformer graph: " + message);
}

std::string link_text(const NavGraph& graph, std::size_t i) {
  const NavLink& l = graph.links[i];
  return std::string(to_string(l.kind)) + " link " + std::to_string(i) + " " +
         tile_text(graph.point(l.from).tile) + " -> " + tile_text(graph.point(l.to).tile);
}

bool close(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

Status check_points(const NavGraph& graph, const TileMap& map, const PlatformerParams& params) {
  if (graph.width != map.width || graph.height != map.height ||
      graph.point_at.size() != map.solid.size()) {
    return invalid("size differs from the map's");
  }
  std::size_t next = 0;
  std::uint32_t started = 0;
  std::uint32_t platform = 0;
  for (int r = 0; r < map.height; ++r) {
    for (int c = 0; c < map.width; ++c) {
      const bool walkable = is_walkable(map, c, r, params);
      const NavPointId id = graph.point_at[map.index(c, r)];
      if (!walkable) {
        if (id != kNoNavPoint) return invalid("tile " + tile_text({c, r}) + " is not walkable");
        continue;
      }
      if (id != NavPointId{static_cast<std::uint32_t>(next)} || next >= graph.points.size()) {
        return invalid("walkable tile " + tile_text({c, r}) + " is not nav point " +
                       std::to_string(next) + " of the scan order");
      }
      const NavPoint& p = graph.points[next++];
      const bool left = is_walkable(map, c - 1, r, params);
      const bool right = is_walkable(map, c + 1, r, params);
      const NavPointType expected = !left && !right ? NavPointType::Solo
                                    : !left         ? NavPointType::LeftEdge
                                    : !right        ? NavPointType::RightEdge
                                                    : NavPointType::Platform;
      if (!left) platform = started++;  // a run starts: the next number in scan order
      if (p.tile != Tile{c, r} || p.type != expected || p.platform != PlatformId{platform}) {
        return invalid("nav point " + tile_text({c, r}) + " has type " +
                       std::string(to_string(p.type)) + " and platform " +
                       std::to_string(static_cast<std::uint32_t>(p.platform)) + ", expected " +
                       std::string(to_string(expected)) + " and " + std::to_string(platform));
      }
    }
  }
  if (next != graph.points.size()) return invalid("more nav points than walkable tiles");
  if (graph.platform_count != started) {
    return invalid("platform_count " + std::to_string(graph.platform_count) + ", expected " +
                   std::to_string(started));
  }
  return {};
}

Status check_fall(const NavGraph& graph, const TileMap& map, const PlatformerParams& params,
                  std::size_t i) {
  const NavLink& l = graph.links[i];
  const NavPoint& from = graph.point(l.from);
  const NavPoint& to = graph.point(l.to);
  const int dc = to.tile.c - from.tile.c;
  const bool left_ok = from.type == NavPointType::LeftEdge || from.type == NavPointType::Solo;
  const bool right_ok = from.type == NavPointType::RightEdge || from.type == NavPointType::Solo;
  if (!((dc == -1 && left_ok) || (dc == 1 && right_ok)) || to.tile.r >= from.tile.r ||
      map.is_solid(to.tile.c, from.tile.r)) {
    return invalid(link_text(graph, i) + " is not a fall from an edge past a free side tile");
  }
  for (int row = from.tile.r - 1; row > to.tile.r; --row) {
    if (map.is_solid(to.tile.c, row) || is_walkable(map, to.tile.c, row, params)) {
      return invalid(link_text(graph, i) + " passes tile " + tile_text({to.tile.c, row}) +
                     " (solid or walkable): not the first walkable tile below");
    }
  }
  if (!close(l.cost, std::sqrt(2.0 * (from.tile.r - to.tile.r) / params.g))) {
    return invalid(link_text(graph, i) + " has cost " + std::to_string(l.cost));
  }
  return {};
}

Status check_jump(const NavGraph& graph, const TileMap& map, const PlatformerParams& params,
                  std::size_t i) {
  const NavLink& l = graph.links[i];
  const NavPoint& from = graph.point(l.from);
  const NavPoint& to = graph.point(l.to);
  if (to.platform == from.platform) return invalid(link_text(graph, i) + " into its own platform");
  if ((l.jump.direction != 1 && l.jump.direction != -1) || l.jump.landing_sample < 1 ||
      l.jump.landing_sample > sample_count(params)) {
    return invalid(link_text(graph, i) + " has a bad direction or landing sample");
  }
  const JumpShape shape{l.jump.height, l.jump.speed, l.jump.direction};
  const TrajectorySample landing =
      jump_position(from.tile, shape, params, l.jump.landing_sample * params.dt);
  if (sample_tile(landing) != to.tile || !is_enough_space(map, to.tile, params)) {
    return invalid(link_text(graph, i) + ": its landing sample is not on the destination");
  }
  if (!close(l.cost, landing_time(from.tile, shape, params, to.tile.r))) {
    return invalid(link_text(graph, i) + " has cost " + std::to_string(l.cost));
  }
  return {};
}

}  // namespace

Status validate(const NavGraph& graph, const TileMap& map, const PlatformerParams& params) {
  LEAPNAV_TRY(check_points(graph, map, params));
  const std::size_t n = graph.points.size();
  if (graph.link_first.size() != n + 1 || graph.link_first.front() != 0 ||
      graph.link_first.back() != graph.links.size()) {
    return invalid("link_first does not index the links");
  }
  std::set<std::pair<std::uint32_t, std::uint32_t>> jump_pairs;
  std::size_t runs = 0;
  for (std::size_t i = 0; i < graph.links.size(); ++i) {
    const NavLink& l = graph.links[i];
    if (static_cast<std::size_t>(l.from) >= n || static_cast<std::size_t>(l.to) >= n) {
      return invalid("link " + std::to_string(i) + " refers to a missing nav point");
    }
    const std::size_t from = static_cast<std::size_t>(l.from);
    if (i < graph.link_first[from] || i >= graph.link_first[from + 1]) {
      return invalid(link_text(graph, i) + " lies outside its start's link range");
    }
    if (i > 0 && graph.links[i - 1].from == l.from && graph.links[i - 1].kind > l.kind) {
      return invalid(link_text(graph, i) + " is out of (start, kind) order");
    }
    const NavPoint& a = graph.point(l.from);
    const NavPoint& b = graph.point(l.to);
    switch (l.kind) {
      case LinkKind::Run:
        if (a.tile.r != b.tile.r || std::abs(a.tile.c - b.tile.c) != 1 ||
            a.platform != b.platform || !close(l.cost, 1.0 / params.v_max)) {
          return invalid(link_text(graph, i) + " does not join neighbours of one platform");
        }
        ++runs;
        break;
      case LinkKind::Fall:
        LEAPNAV_TRY(check_fall(graph, map, params, i));
        break;
      case LinkKind::Jump:
        LEAPNAV_TRY(check_jump(graph, map, params, i));
        if (!jump_pairs
                 .insert(
                     {static_cast<std::uint32_t>(l.from), static_cast<std::uint32_t>(b.platform)})
                 .second) {
          return invalid(link_text(graph, i) + " is a second jump from its start to platform " +
                         std::to_string(static_cast<std::uint32_t>(b.platform)));
        }
        break;
    }
  }
  // every adjacent walkable pair has its two run links
  std::size_t pairs = 0;
  for (std::size_t p = 0; p + 1 < n; ++p) {
    if (graph.points[p + 1].platform == graph.points[p].platform) ++pairs;
  }
  if (runs != 2 * pairs) {
    return invalid(std::to_string(runs) + " run links, expected " + std::to_string(2 * pairs));
  }
  return {};
}

}  // namespace leapnav::platformer
