// The three walkability filters over a solid heightfield (pipeline.md §1), applied in this order:
// low-hanging obstacles, ledges, low clearance. Each one only changes span areas; heights and the
// column layout are kept. Each reads the input state only, so it runs per column in parallel.
#pragma once

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel {

/// Low-hanging obstacles: an unwalkable span whose top is at most params.walkable_climb above
/// the top of the walkable span directly below it (the previous span in the column, walkable
/// before this filter ran) takes that span's area. It does not cascade over two obstacles.
/// Errors: Cancelled.
[[nodiscard]] Result<Heightfield> filter_low_hanging_obstacles(Heightfield heightfield,
                                                               const VoxelParams& params,
                                                               BuildContext& ctx);

/// Ledges: for a walkable span with floor f (its top) and ceiling c (next span's min, or
/// unbounded), look at the open gaps of the 4 neighbour columns (the gap below a column's first
/// span has its floor at minus infinity) that overlap [f, c) by at least params.walkable_height.
/// The span becomes unwalkable when any such neighbour floor lies more than walkable_climb below
/// f (a drop-off; a grid border counts as one), or when the neighbour floors within walkable_climb
/// of f (and f itself) span more than walkable_climb (too steep). Errors: Cancelled.
[[nodiscard]] Result<Heightfield> filter_ledges(Heightfield heightfield, const VoxelParams& params,
                                                BuildContext& ctx);

/// Low clearance: a walkable span whose open space (up to the next span's min; unbounded for the
/// top span: the sky above the grid is open) is shorter than params.walkable_height becomes
/// unwalkable. Errors: Cancelled.
[[nodiscard]] Result<Heightfield> filter_low_clearance(Heightfield heightfield,
                                                       const VoxelParams& params,
                                                       BuildContext& ctx);

/// The three filters above in their order (low-hanging obstacles, ledges, low clearance), fused
/// into one pass over the columns; the result equals calling them in turn. Errors:
/// InvalidArgument (column table does not match the grid); Cancelled.
[[nodiscard]] Result<Heightfield> filter_walkable(Heightfield heightfield,
                                                  const VoxelParams& params, BuildContext& ctx);

}  // namespace leapnav::voxel
