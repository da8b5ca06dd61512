// The platformer nav graph end to end (spec §B.1): nav points, run and fall links, jump links;
// links sorted by (start, kind) with a stable sort, so each kind keeps generation order, then
// indexed per nav point (CSR).
#include <algorithm>
#include <string>

#include "leapnav/core/hash.hpp"
#include "leapnav/platformer/nav_graph.hpp"

namespace leapnav::platformer {

Result<NavGraph> build_nav_graph(const TileMap& map, const PlatformerParams& params,
                                 BuildContext& ctx) {
  LEAPNAV_TRY(validate(map));
  LEAPNAV_TRY(validate(params, "params"));
  LEAPNAV_TRY(ctx.check_cancel("platformer"));
  // note: the per-tile index dominates before the links are known; checked before allocating
  LEAPNAV_TRY(ctx.check_memory("platformer: the nav-point index of " + std::to_string(map.width) +
                                   " x " + std::to_string(map.height) + " tiles",
                               static_cast<std::uint64_t>(map.solid.size()) * sizeof(NavPointId)));
  NavGraph graph;
  {
    auto timer = ctx.scoped_timer("platformer_points");
    graph = find_nav_points(map, params);
  }
  std::vector<NavLink> links;
  {
    auto timer = ctx.scoped_timer("platformer_run_fall");
    links = run_links(graph, params);
    std::vector<NavLink> falls = fall_links(map, graph, params);
    links.insert(links.end(), falls.begin(), falls.end());
  }
  {
    auto timer = ctx.scoped_timer("platformer_jump");
    LEAPNAV_TRY_ASSIGN(std::vector<NavLink> jumps, jump_links(map, graph, params, ctx));
    links.insert(links.end(), jumps.begin(), jumps.end());
  }
  std::stable_sort(links.begin(), links.end(), [](const NavLink& a, const NavLink& b) {
    if (a.from != b.from) return a.from < b.from;
    return a.kind < b.kind;
  });
  graph.links = std::move(links);
  graph.link_first.assign(graph.points.size() + 1, 0);
  for (const NavLink& link : graph.links)
    ++graph.link_first[static_cast<std::size_t>(link.from) + 1];
  for (std::size_t p = 0; p < graph.points.size(); ++p)
    graph.link_first[p + 1] += graph.link_first[p];
  return graph;
}

std::uint64_t content_hash(const NavGraph& graph) {
  ContentHasher hasher;
  hasher.add_pod(graph.width);
  hasher.add_pod(graph.height);
  hasher.add_pod(graph.platform_count);
  for (const NavPoint& p : graph.points) {
    hasher.add_pod(p.tile.c);
    hasher.add_pod(p.tile.r);
    hasher.add_pod(static_cast<std::uint32_t>(p.platform));
    hasher.add_pod(static_cast<std::uint8_t>(p.type));
  }
  for (const NavPointId id : graph.point_at) hasher.add_pod(static_cast<std::uint32_t>(id));
  for (const NavLink& l : graph.links) {
    hasher.add_pod(static_cast<std::uint8_t>(l.kind));
    hasher.add_pod(static_cast<std::uint32_t>(l.from));
    hasher.add_pod(static_cast<std::uint32_t>(l.to));
    hasher.add_pod(l.cost);
    hasher.add_pod(l.jump.height);
    hasher.add_pod(l.jump.speed);
    hasher.add_pod(l.jump.base_speed);
    hasher.add_pod(l.jump.acceleration);
    hasher.add_pod(l.jump.direction);
    hasher.add_pod(l.jump.landing_sample);
  }
  hasher.add_vector(graph.link_first);
  return hasher.digest();
}

}  // namespace leapnav::platformer
