// Authored ladders (Golodetz §5.2, seeds spec A9): each ladder, given by its bottom and top
// points, becomes two directed links (bottom -> top, top -> bottom) between the polygons its ends
// stand on, costing length / climb speed.
#pragma once

#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::ledge {

/// One ladder: where the agent stands to climb it and where it steps off at the top [units: m].
struct Ladder {
  Vec3 bottom;
  Vec3 top;
};

struct LadderOptions {
  /// Climbing speed relative to walking (a path's cost is walking metres): a ladder of length L
  /// costs L / climb_speed [range: > 0, finite].
  float climb_speed = 0.5F;
};

/// The two links of every ladder, in ladder order (bottom -> top first). An end is attached to
/// the polygon nearest to it among those within agent radius + one cell in xz and within
/// max(max_climb, 2 cell heights) of its height (ties: lower polygon id). Errors
/// (InvalidArgument) name the ladder index and the end: "ladder 2: top (1, 3, 4) is not on the
/// navmesh ...", also for non-finite points, both ends on one polygon, or a bad climb_speed.
[[nodiscard]] Result<std::vector<LedgeLink>> ladder_links(const mesh::NavMesh& navmesh,
                                                          const std::vector<Ladder>& ladders,
                                                          const LadderOptions& options);

}  // namespace leapnav::ledge
