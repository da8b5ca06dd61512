// Walkable nav points and platforms (spec §B3), the intent of Pignole's pseudo-code without its
// three bugs: a walkable tile needs a solid tile below (not a free one), every tile of a platform
// shares one index, and a platform continues while the next tile to the right is walkable.
// Platforms are maximal runs of walkable tiles in a row, numbered in scan order from 0.
#include <algorithm>

#include "leapnav/platformer/nav_graph.hpp"

namespace leapnav::platformer {

std::string_view to_string(NavPointType type) noexcept {
  switch (type) {
    case NavPointType::None:
      return "none";
    case NavPointType::Platform:
      return "platform";
    case NavPointType::LeftEdge:
      return "leftEdge";
    case NavPointType::RightEdge:
      return "rightEdge";
    case NavPointType::Solo:
      return "solo";
  }
  return "none";
}

std::string_view to_string(LinkKind kind) noexcept {
  switch (kind) {
    case LinkKind::Run:
      return "run";
    case LinkKind::Fall:
      return "fall";
    case LinkKind::Jump:
      return "jump";
  }
  return "run";
}

bool is_walkable(const TileMap& map, int c, int r, const PlatformerParams& params) {
  if (!map.in_bounds(c, r) || !map.is_solid(c, r - 1)) return false;
  for (int k = 0; k < params.collider_h; ++k) {
    if (map.is_solid(c, r + k)) return false;
  }
  return true;
}

bool is_enough_space(const TileMap& map, Tile t, const PlatformerParams& params) {
  const int c0 = t.c - (params.collider_w - 1) / 2;
  const int c1 = t.c + params.collider_w / 2;
  for (int r = t.r; r < t.r + params.collider_h; ++r) {
    for (int c = c0; c <= c1; ++c) {
      if (map.is_solid(c, r)) return false;
    }
  }
  return true;
}

NavGraph find_nav_points(const TileMap& map, const PlatformerParams& params) {
  NavGraph graph;
  graph.width = map.width;
  graph.height = map.height;
  graph.point_at.assign(map.solid.size(), kNoNavPoint);
  std::uint32_t platform = 0;
  for (int r = 0; r < map.height; ++r) {
    int c = 0;
    while (c < map.width) {
      if (!is_walkable(map, c, r, params)) {
        ++c;
        continue;
      }
      int end = c + 1;
      while (end < map.width && is_walkable(map, end, r, params)) ++end;
      for (int k = c; k < end; ++k) {
        NavPointType type = NavPointType::Platform;
        if (end - c == 1) {
          type = NavPointType::Solo;
        } else if (k == c) {
          type = NavPointType::LeftEdge;
        } else if (k == end - 1) {
          type = NavPointType::RightEdge;
        }
        graph.point_at[map.index(k, r)] =
            NavPointId{static_cast<std::uint32_t>(graph.points.size())};
        graph.points.push_back({Tile{k, r}, PlatformId{platform}, type});
      }
      ++platform;
      c = end;
    }
  }
  graph.platform_count = platform;
  return graph;
}

GraphCounts count(const NavGraph& graph) {
  GraphCounts counts;
  counts.nav_points = graph.points.size();
  counts.platforms = graph.platform_count;
  for (const NavLink& link : graph.links) {
    if (link.kind == LinkKind::Run) ++counts.run;
    if (link.kind == LinkKind::Fall) ++counts.fall;
    if (link.kind == LinkKind::Jump) ++counts.jump;
  }
  return counts;
}

}  // namespace leapnav::platformer
