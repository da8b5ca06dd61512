// Planning over ledge and ladder links (ledgelinks/) through the jump-link machinery: every ledge
// link becomes a run of point-to-point links sampled along its source segment (each crossing
// straight to the facing point of the destination segment, the motion its check covered), under
// one extra configuration per link kind; a ladder becomes one link from end to end. The planner's
// A*, link choice and funnel then treat them as jumps with their own kinds and costs.
#pragma once

#include <memory>

#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/query.hpp"

namespace leapnav::plan {

/// The link set a planner plans over: `jumps` (may be null) with its configurations first, then
/// one configuration per ledge kind (height, distance and max_fall of 1 m: placeholders, never
/// used to fly an arc) and the sampled ledge links, at most every `spacing` metres along each
/// source segment (both ends included, at most 17 samples) [units: m] [range: > 0].
struct MergedLinks {
  jump::JumpLinkSet links;
  Planner::LinkExtras extras;
};
[[nodiscard]] MergedLinks merge_links(const jump::JumpLinkSet* jumps,
                                      const ledge::LedgeLinkSet& ledges, std::size_t polygon_count,
                                      float spacing);

/// A planner over `mesh` with jump links and ledge links (either may be null). Without ledge
/// links this is Planner::create(mesh, jumps). Errors as Planner::create, and ledge::validate.
[[nodiscard]] Result<Planner> create_planner(std::shared_ptr<const mesh::NavMesh> mesh,
                                             const jump::JumpLinkSet* jumps,
                                             const ledge::LedgeLinkSet* ledges);

/// The SegmentKind of a ledge link kind (LedgeKind::Walk crosses as a Walk segment).
[[nodiscard]] SegmentKind segment_kind(ledge::LedgeKind kind);

}  // namespace leapnav::plan
