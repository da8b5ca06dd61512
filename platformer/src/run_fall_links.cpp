// Run and fall links (spec §B4, B5). Run links join horizontally adjacent walkable tiles both
// ways (the pseudo-code adds only the right one). Fall links are straight drops from an edge or
// solo nav point into the side column: the scan starts one row below the free side tile, goes
// down to row 0 inclusive (the pseudo-code's "WHILE targetRow > 0" never reaches it) and stops at
// the first walkable tile or at a solid tile (the pseudo-code links through floors).
#include <cmath>

#include "leapnav/platformer/nav_graph.hpp"

namespace leapnav::platformer {

std::vector<NavLink> run_links(const NavGraph& graph, const PlatformerParams& params) {
  std::vector<NavLink> links;
  const double cost = 1.0 / params.v_max;
  for (std::size_t i = 0; i < graph.points.size(); ++i) {
    const NavPoint& p = graph.points[i];
    const NavPointId from{static_cast<std::uint32_t>(i)};
    for (const int dc : {-1, 1}) {
      const NavPointId to = graph.point_of({p.tile.c + dc, p.tile.r});
      if (to != kNoNavPoint) links.push_back({LinkKind::Run, from, to, cost, {}});
    }
  }
  return links;
}

std::vector<NavLink> fall_links(const TileMap& map, const NavGraph& graph,
                                const PlatformerParams& params) {
  std::vector<NavLink> links;
  for (std::size_t i = 0; i < graph.points.size(); ++i) {
    const NavPoint& p = graph.points[i];
    const bool left = p.type == NavPointType::LeftEdge || p.type == NavPointType::Solo;
    const bool right = p.type == NavPointType::RightEdge || p.type == NavPointType::Solo;
    for (const int dc : {-1, 1}) {
      if ((dc < 0 && !left) || (dc > 0 && !right)) continue;
      const int side = p.tile.c + dc;
      if (map.is_solid(side, p.tile.r)) continue;
      for (int row = p.tile.r - 1; row >= 0; --row) {
        if (map.is_solid(side, row)) break;
        const NavPointId to = graph.point_of({side, row});
        if (to == kNoNavPoint) continue;
        const double drop = p.tile.r - row;
        links.push_back({LinkKind::Fall,
                         NavPointId{static_cast<std::uint32_t>(i)},
                         to,
                         std::sqrt(2.0 * drop / params.g),
                         {}});
        break;
      }
    }
  }
  return links;
}

}  // namespace leapnav::platformer
