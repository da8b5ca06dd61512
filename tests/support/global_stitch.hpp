// The stitch of tile meshes as one global pass (weld, insert, pair, drop, split over the whole
// world): the oracle for mesh::stitch_tiles, which stitches tile by tile.
#pragma once

#include <span>

#include "leapnav/core/config.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/tiles.hpp"

namespace leapnav::test {

/// The navmesh and counts mesh::stitch_tiles must give, computed over the whole world at once.
[[nodiscard]] Result<mesh::NavMesh> stitch_tiles_global(std::span<const mesh::TileMesh> tiles,
                                                        const mesh::TileLayout& layout,
                                                        const BuildConfig& config,
                                                        mesh::StitchStats* stats = nullptr);

}  // namespace leapnav::test
