// Height detail (pipeline.md §2 "Heights"): per polygon, a patch of the rasterized floor sampled
// at every grid column over the polygon's xz bounds, read from the compact heightfield. Replaces
// Recast's Delaunay detail mesh: one pass over the spans under each polygon, no triangulation.
// Invariant: one patch per polygon; a column's sample is its span of the polygon's region when
// there is one (regions are height fields, so there is at most one).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh {

/// The height detail of a NavMesh (moved into NavMesh::height_patches / height_samples).
struct HeightDetail {
  std::vector<HeightPatch> patches;  ///< one per polygon
  std::vector<float> samples;        ///< world y [units: m], NaN where there is no floor
};

/// Samples the floor under every polygon of `polygons` (see HeightPatch for the rule). Columns
/// without a span of the polygon's region take the span nearest (within params.walkable_climb)
/// to the polygon's vertex-fan height. Errors when the field does not match the mesh's grid or
/// the regions do not match the field.
[[nodiscard]] Result<HeightDetail> build_heights(const NavMesh& polygons,
                                                 const voxel::CompactHeightfield& field,
                                                 const RegionField& regions,
                                                 const VoxelParams& params, BuildContext& ctx);

/// The integer grid-corner coordinates (x, z) of every NavMesh vertex (rounded from world units).
[[nodiscard]] std::vector<std::array<std::int32_t, 2>> vertex_grid_corners(const NavMesh& mesh);

}  // namespace leapnav::mesh
