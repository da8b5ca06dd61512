// A conservative soundness check of ledge links against the level's triangles. The jump links'
// exact checker (jumplinks/link_check.hpp) decides ballistic arcs from a point to a segment; a
// ledge link is a family of straight crossings between two segments, so it gets its own check of
// a stated motion instead.
//
// The motion. Let L(t) be the link's lower segment and U(t) its upper one (t in [0, 1]; for a
// jump-up or step-up the source is lower, for a drop or step-down the destination). For every t
// the agent (a cylinder of radius r and height H) (1) rises vertically at L(t) from its feet at
// L(t).y to top = max_t U(t).y + clearance, (2) moves horizontally at that height from L(t) to
// U(t), and (3) settles onto U(t) (at most `clearance`). A drop is the same motion backwards (step
// off, then fall), so one check serves both directions.
//
// The check. The union over t of the swept cylinders lies in two prisms whose test is exact:
// (1) the points within r of segment L(0)-L(1) in xz, heights [min L.y, top + H]; (2) the points
// within r of the quadrilateral L(0) L(1) U(1) U(0) in xz, heights [top, top + H]. A triangle is
// clipped to the prism's height range shrunk by the tolerance, projected to xz, and its distance
// to the segment or quadrilateral is compared with r - tolerance (exact convex-polygon distance,
// in double). Walkable triangles (slope beta <= max_slope) count in prism (1) only from
// max L.y + clearance + r tan(beta) up: the floor the agent stands on, up to the link's own height
// spread plus one cell height, is not an obstacle (a stated slack; links whose lower segment
// rises more than one cell height are checked in pieces, see check_ledge_link). The link passes
// when no triangle meets either prism deeper than the tolerance. Because the prisms contain every
// swept position, a passing link is collision free for the motion above; a failing one may still
// be traversable (the check is conservative, not exact).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"

namespace leapnav::ledge {

/// The triangles binned in xz for checking. check() is const and thread-safe given its own
/// scratch.
class LedgeChecker {
 public:
  struct Scratch {
    std::vector<std::uint32_t> stamp;
    std::uint32_t generation = 0;
    std::vector<std::uint32_t> candidates;
    std::uint64_t tested = 0;
  };

  /// `clearance` is the height the agent rises above the upper segment before crossing
  /// [units: m]; `tolerance` the penetration forgiven [units: m].
  LedgeChecker(const TriangleMesh& triangles, const AgentConfig& agent, float clearance,
               float tolerance = 1e-4F);
  ~LedgeChecker();
  LedgeChecker(const LedgeChecker&) = delete;
  LedgeChecker& operator=(const LedgeChecker&) = delete;

  /// True when the motion between the lower segment la-lb and the upper segment ua-ub (ua facing
  /// la) is free of the triangles (the two prisms above).
  [[nodiscard]] bool passes(Vec3 la, Vec3 lb, Vec3 ua, Vec3 ub, Scratch& scratch) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The pieces of `link` that pass: the link is checked whole; a failing link is split in halves
/// down to `min_length` (source segment length) and the passing pieces are kept, contiguous ones
/// merged. A piece whose lower segment rises more than `max_spread` is split before it is
/// checked. Ladders are returned unchanged (authored, not checked).
[[nodiscard]] std::vector<LedgeLink> check_ledge_link(const LedgeChecker& checker,
                                                      const LedgeLink& link, float min_length,
                                                      float max_spread,
                                                      LedgeChecker::Scratch& scratch);

}  // namespace leapnav::ledge
