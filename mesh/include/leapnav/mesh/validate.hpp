// Checks of a NavMesh against the heightfield it was built from (pipeline.md §2 "Checks"): no two
// polygons of the same level overlap in xz, every polygon centre lies over a walkable span, and
// the navmesh covers the eroded walkable area within a few percent.
#pragma once

#include "leapnav/core/config.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh {

/// Relative tolerance of the area check: |navmesh area - walkable span area| / walkable area.
inline constexpr double kAreaTolerance = 0.03;

/// Checks, with config in world units:
/// - no two polygons overlap in xz with positive area (more than 1e-3 cell areas) where their
///   heights (height_at at the overlap's centroid) are within agent.max_climb of each other;
/// - every polygon centre (polygon_center) lies over a span with area != kNullArea whose floor is
///   within agent.max_climb of the centre's height, in its column or, because simplified contours
///   stray up to poly.max_edge_error from the raster, in a column at most
///   ceil(max_edge_error / cell_size) columns away;
/// - the summed polygon area is within kAreaTolerance of (spans with area != kNullArea) * cs²,
///   leaving out connected groups of one area id smaller than the config's min_region_area where
///   the span map gives no span a polygon (the region stage removes such islands).
/// Also runs validate(mesh). The message names the first failing polygon(s).
[[nodiscard]] Status validate_against(const NavMesh& mesh, const voxel::CompactHeightfield& field,
                                      const BuildConfig& config);

}  // namespace leapnav::mesh
