// Walkable-link filter (our addition, run between the voxel search and the refinement): drops the
// candidate links that save no walking. A link from start point s (polygon P) landing anywhere on
// the segment [a, b] (polygon Q) is dropped when a walk on the navmesh reaches every point of
// [a, b] from s within the jump's own xz length plus `slack`. The walk is explicit: straight
// lines from s to a and to b where they stay on the mesh (a ray through the chain of polygons it
// crosses, through portal edges only, ending in Q), else s -> portal midpoints (a bounded Dijkstra
// over the midpoints of the portal edges, through polygons without flags) -> the landing point,
// or through the same portal edges crossed where the walk is shortest (the midpoint walk's
// corridor);
// every piece lies in one convex polygon, so it is a real walk and its xz length an upper bound
// on walking's cost. A point t of [a, b] is reached through a (walk to a, then along the segment
// inside Q) or through b, or from one midpoint straight to t. A dropped link is
// therefore replaceable by walking of no greater cost for any query whose jump cost is at least
// `slack` (docs/jump_links.md, "Walkable-link filter"); walking connectivity is never lost, since
// Q is reachable from P on foot. Each link's verdict depends on the link and the mesh only, so
// the output is identical for any thread count and the same in untiled and tiled builds (a tile's
// neighbourhood mesh is a subset of the stitched mesh, and its walks are walks of the whole mesh).
#pragma once

#include <cstdint>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::jump {

/// The default slack: the planner's default jump cost (plan::kDefaultJumpCost) [units: m].
inline constexpr float kDefaultWalkSlack = 4.0F;

/// Filter options.
struct LinkFilterOptions {
  bool enabled = true;  ///< false keeps every link (the CLI's --keep-walkable-links)
  /// A link is dropped when walking to each of its landing points is at most the jump's xz
  /// length plus this [units: m] [range: >= 0, finite].
  float slack = kDefaultWalkSlack;
  /// true: a link is dropped only with its whole group (same start and land polygon), so every
  /// group left is unchanged and the planner's paths are the unfiltered set's (see the docs);
  /// false: each link on its own (far smaller sets; a path may grow by up to `slack` per jump
  /// it no longer takes, and the planner's representative jumps change).
  bool whole_groups = true;
};

/// Checks the options; the message names the field.
[[nodiscard]] Status validate(const LinkFilterOptions& options);

/// Counters of one filter run.
struct LinkFilterStats {
  std::uint64_t links_in = 0;       ///< links given
  std::uint64_t links_dropped = 0;  ///< links replaced by walking
  std::uint64_t walks = 0;  ///< bounded Dijkstra runs (per start point not settled straight)
};

/// An upper bound on the xz length of walking from `start` (in polygon start_poly) to the farthest
/// point of [land_a, land_b] (in land_poly): straight lines to the ends where they stay on the
/// mesh, else through portal midpoints of polygons without flags or through the same portal edges
/// at the crossings that shorten the walk most (the search reaches only walks up to `bound`);
/// +infinity when the bound found exceeds `bound`. For tests and for the docs' argument;
/// filter_walkable_links makes the same walks (one midpoint search per start point, run only for
/// the links the straight walks do not settle).
[[nodiscard]] double walk_bound(const mesh::NavMesh& navmesh, Vec3 start, std::uint32_t start_poly,
                                Vec3 land_a, Vec3 land_b, std::uint32_t land_poly, double bound);

/// Drops the links of `links` that save no walking (see above) and re-indexes the set (order
/// kept). Parallel over start polygons. Timer: jump_filter. Cancellation is seen between blocks
/// of start polygons (ErrorCode::Cancelled).
[[nodiscard]] Result<LinkFilterStats> filter_walkable_links(JumpLinkSet& links,
                                                            const mesh::NavMesh& navmesh,
                                                            const LinkFilterOptions& options,
                                                            BuildContext& ctx);

}  // namespace leapnav::jump
