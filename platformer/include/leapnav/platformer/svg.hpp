// Side-on SVG pictures of a platformer nav graph: tiles, nav points coloured by type, run links,
// fall links, jump arcs drawn from their simulated samples up to the landing, and a path.
#pragma once

#include <string>

#include "leapnav/platformer/nav_graph.hpp"
#include "leapnav/platformer/planner.hpp"

namespace leapnav::platformer {

struct SvgOptions {
  double tile_pixels = 24.0;             ///< [units: px per tile] [range: > 0]
  bool links = true;                     ///< draw every link (a path is drawn on top)
  const PlatformerPath* path = nullptr;  ///< drawn when not null and found
};

/// The picture as SVG text (row 0 at the bottom; y flipped for SVG).
[[nodiscard]] std::string render_svg(const TileMap& map, const NavGraph& graph,
                                     const PlatformerParams& params, const SvgOptions& options);

}  // namespace leapnav::platformer
