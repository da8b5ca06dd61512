// Erosion of the walkable area by the agent radius (pipeline.md §1): a chamfer (2 per axis step,
// 3 per diagonal) distance to the nearest boundary span; spans closer than 2 * radius become
// kNullArea, so the walkable area describes where the agent's centre may stand.
#pragma once

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel {

/// Marks kNullArea every walkable span whose chamfer distance to a boundary span is less than
/// 2 * params.walkable_radius. A boundary span is unwalkable, or has fewer than 4 connections to
/// walkable spans (distance 0). Diagonal steps go through a connected axis neighbour. Nothing
/// changes when walkable_radius is 0. A box agent (params.shape) uses diagonal steps of 2: the
/// Chebyshev distance, so the walkable area shrinks by a square of half-width radius.
/// Postures: when params.standing_height > params.walkable_height (the agent crouches), every
/// span left walkable whose distance, measured the same way, to the spans a standing agent cannot
/// use (clearance below standing_height, or a step whose open intervals overlap less) is below
/// 2 * walkable_radius, or that itself lacks the standing clearance, gets kCrouchAreaBit.
/// Any existing distance field is cleared (it would be stale). Errors: Cancelled.
[[nodiscard]] Result<CompactHeightfield> erode(CompactHeightfield compact,
                                               const VoxelParams& params, BuildContext& ctx);

}  // namespace leapnav::voxel
