// The compact (open-space) heightfield (pipeline.md §1): the open space above every walkable
// solid span, in CSR columns, with 4-neighbour connections obeying the climb and clearance rules.
#pragma once

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel {

/// Builds the open spans above the walkable spans of `solid`: y = the solid span's max, clearance
/// = next span's min - y (kUnboundedClearance for the top span), area = the solid span's area.
/// Span a connects to the lowest span b of a neighbour column with |a.y - b.y| <=
/// params.walkable_climb and an open-interval overlap of at least params.walkable_height; links
/// that are not mutual, and links to an index >= kNotConnected, are dropped (a warning counts the
/// latter), so connections are always symmetric. distance is left empty.
/// Errors: MemoryLimit (checked before allocating); Cancelled.
[[nodiscard]] Result<CompactHeightfield> build_compact(const Heightfield& solid,
                                                       const VoxelParams& params,
                                                       BuildContext& ctx);

}  // namespace leapnav::voxel
