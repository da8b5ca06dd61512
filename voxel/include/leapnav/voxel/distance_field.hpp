// The distance field for the watershed (pipeline.md §1): the chamfer distance (2 per axis step,
// 3 per diagonal) from each walkable span to the nearest boundary span, then a 3x3 box blur that
// leaves values <= 2 unchanged so thin corridors keep their shape.
#pragma once

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel {

/// Fills compact.distance (one value per span, [units: chamfer steps, 2 per cell]) and
/// compact.max_distance (the largest stored value). Unwalkable spans get 0; a walkable span is a
/// boundary (0) when it has fewer than 4 connections to spans of the same area. The blur replaces
/// a value d > 2 by the rounded mean of the 3x3 neighbourhood reached through connections
/// (missing neighbours count as d). Errors: Cancelled.
[[nodiscard]] Result<CompactHeightfield> distance_field(CompactHeightfield compact,
                                                        BuildContext& ctx);

}  // namespace leapnav::voxel
