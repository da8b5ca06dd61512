// Area volumes (Recast's rcMarkConvexPolyArea): after erosion, every walkable compact span whose
// column centre lies inside a volume's convex xz polygon and whose floor lies in its y range takes
// the volume's area id. Volumes apply in order, so a later one wins where they overlap; area 0
// removes the spans from the walkable surface.
#pragma once

#include <span>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel {

/// Marks the spans of `compact` inside each volume. Errors: those of validate_areas (a volume
/// with fewer than 3 corners, non-finite values, min_y > max_y, an area above 63); Cancelled.
[[nodiscard]] Result<CompactHeightfield> mark_area_volumes(CompactHeightfield compact,
                                                           std::span<const AreaVolume> volumes,
                                                           BuildContext& ctx);

}  // namespace leapnav::voxel
