// Watershed partition of a compact heightfield into regions (pipeline.md §2): flood the distance
// field from its highest values down, two levels at a time, then drop small islands, merge small
// regions into their smallest neighbour, split regions that hold two spans of one column, and
// renumber. Every region is 4-connected and a height field over xz.
#pragma once

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh {

/// Partitions the walkable spans (area != voxel::kNullArea) of `chf` into watershed regions.
/// Uses chf.distance (must be computed), params.min_region_cells (a connected group of regions
/// with fewer spans in total is removed: its spans get kNoRegion) and params.merge_region_cells
/// (a region with fewer spans merges into its smallest neighbour when the union stays a height
/// field). A region never mixes area ids. Deterministic: the output does not depend on
/// ctx.threads(). Errors: InvalidArgument when the heightfield's arrays are inconsistent or the
/// distance field is missing, or when more than 65535 regions remain; Cancelled.
[[nodiscard]] Result<RegionField> build_regions(const voxel::CompactHeightfield& chf,
                                                const VoxelParams& params, BuildContext& ctx);

/// Checks the RegionField invariants against the heightfield it was built from: one id per span,
/// ids in 0..region_count with every id in 1..region_count used, unwalkable spans in kNoRegion,
/// every region 4-connected through the span connections, one area id per region, and no region
/// holding two spans of the same column. The message names the first offending span or region.
[[nodiscard]] Status validate(const RegionField& regions, const voxel::CompactHeightfield& chf);

/// A content hash of the region ids and count.
[[nodiscard]] std::uint64_t content_hash(const RegionField& regions);

}  // namespace leapnav::mesh
