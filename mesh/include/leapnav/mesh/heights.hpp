// Height detail (pipeline.md §2 "Heights"): per polygon, a patch of the rasterized floor sampled
// at every grid column over the polygon's xz bounds, read from the compact heightfield. Replaces
// Recast's Delaunay detail mesh: one pass over the spans under each polygon, no triangulation.
// Invariant: one patch per polygon; a column's sample is its span of the polygon's region when
// there is one (regions are height fields, so there is at most one).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <utility>
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

/// Compacts the height detail of `mesh` without changing height_at anywhere: the patch of a
/// polygon whose finite samples are all the same float (a flat floor) becomes a 1 x 1 patch at
/// its (x0, z0) holding that value (height_at clamps into the patch, so it returns the same value
/// everywhere, as before). Samples no patch uses any more are dropped; order is kept. Returns the
/// number of patches made flat. Used by tiled builds for the runtime file.
std::size_t compact_flat_patches(NavMesh& mesh);

/// The integer grid-corner coordinates (x, z) of every NavMesh vertex (rounded from world units).
[[nodiscard]] std::vector<std::array<std::int32_t, 2>> vertex_grid_corners(const NavMesh& mesh);

/// The columns x of row z, within [x0, x1], whose corner (x, z) lies in the closed convex polygon
/// `poly` (CCW, vertex ids into `corners`): the interval [first, second], empty when first >
/// second. Exact in integers.
[[nodiscard]] std::pair<std::int64_t, std::int64_t> polygon_row_columns(
    std::span<const std::array<std::int32_t, 2>> corners, std::span<const std::uint32_t> poly,
    std::int64_t z, std::int64_t x0, std::int64_t x1);

}  // namespace leapnav::mesh
