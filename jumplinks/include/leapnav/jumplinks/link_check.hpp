// An exact soundness check of jump links against the original triangles, independent of the
// voxel search: for every point of each land segment, the arc from the link's start keeping h and
// fitting d' (trajectory.hpp fit_distance) is swept with the agent's cylinder and tested against
// every nearby triangle over the whole continuum of (land point, position on the arc), by branch
// and bound with conservative bounds (no fixed-spacing samples); the land segment must lie on its
// land polygon, on the way down, within max_fall of the apex.
//
// The agent. A cylinder of the agent's radius r and height H with a foot zone: a walkable
// triangle (slope beta <= max_slope, the voxel stage's test) counts from r tan(beta) above the
// feet, every other triangle from the feet. An agent standing on a plane of slope beta through its
// feet touches it exactly at the rim of that zone, so standing on a walkable floor or slope is no
// contact, and on a flat floor (beta = 0) the check is the plain cylinder's.
//
// The continuum. A land segment A-B gives land points L(u) = A + u (B - A), u in [0, 1]. With
// s in [0, 1] the fraction of the horizontal distance flown, the axis is at
// P(u, s) = S + s (L(u) - S) in xz and, with c(u) = (1 + sqrt(1 - dy(u) / h)) / 2 and
// dy(u) = L(u).y - S.y, the feet are at S.y + 4h (c s - c² s²) (the fitted arc in closed form:
// d' = len / c). The cylinder at (u, s) shrunk by delta is radius r - delta, heights
// feet + delta (+ the foot zone) .. feet + H - delta; its depth against a triangle is the largest
// delta for which the shrunk cylinder still meets the triangle.
//
// The bound (proof). Over a box U x V of (u, s), P is bilinear, so every P(u, s) lies in the convex
// hull of the four corner positions, hence within rho = max corner distance of the box centre's
// P_c. c is monotone in u (dy is linear) and x = c s lies in [c_min s0, c_max s1]; x - x² is
// concave, so the feet interval [y_lo, y_hi] is exact from the ends of x and the vertex 1/2. So if
// a triangle meets the cylinder at some (u, s) in the box shrunk by delta, the meeting point is
// within r - delta + rho of P_c in xz and between y_lo + delta and y_hi + H - delta: a triangle
// that misses that enlarged cylinder (an exact clip-and-distance test) cannot reach depth delta
// anywhere in the box. Boxes are split until they are decided or smaller than `resolution`
// (rho and y_hi - y_lo both below it); an undecided smallest box has depth at most
// delta + 2 resolution everywhere. Rounding (double arithmetic on float inputs) is below 1e-9 m
// and is absorbed by inflating rho and the feet interval by 1e-9 m.
//
// The verdict. A link fails its collision check iff some (u, s) has depth > tolerance (a witness
// cylinder position is found); a passing link has depth <= tolerance + 2 resolution everywhere.
// worst_penetration is the maximum depth over the continuum to within 1 mm + 2 resolution (branch
// and bound maximisation on failing links, pruning boxes that cannot beat the best by 1 mm).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::jump {

/// What the check forgives and how finely it decides.
struct LinkCheckOptions {
  /// Penetration up to this depth is forgiven (touching contacts, float rounding of inputs)
  /// [units: m] [range: >= 0].
  float tolerance = 1e-4F;
  /// Smallest region of (land point, arc position) the branch and bound splits: the verdict is
  /// exact up to 2 * resolution [units: m] [range: > 0].
  float resolution = 1e-5F;
  /// Threads for parallel_for (0 = all, 1 = sequential).
  int threads = 0;
  /// Also drop a triangle from a region when its plane stays below the bottom of the shrunk
  /// cylinder over the whole region (the arc rises off, or falls onto, a floor faster than the
  /// floor slopes: the standing contacts at the arc's ends). A valid bound, so verdicts are the
  /// same with it off; only the regions examined differ (off: for tests and measurement).
  bool plane_bound = true;
};

/// The verdict on one link.
struct LinkVerdict {
  bool collision = false;  ///< the swept cylinder penetrates a triangle deeper than the tolerance
  bool landing = false;    ///< a land point off its polygon, too low, or not on the way down
  double depth = 0.0;      ///< deepest penetration (0 unless collision) [units: m]
  std::uint64_t regions = 0;  ///< (u, s) boxes examined
  [[nodiscard]] bool failed() const { return collision || landing; }
};

/// The result of a check.
struct LinkCheckReport {
  std::uint64_t links_checked = 0;
  std::uint64_t links_failed = 0;        ///< links with a collision or a landing failure
  std::uint64_t regions_examined = 0;    ///< (u, s) boxes of the branch and bound, all links
  std::uint64_t collision_failures = 0;  ///< links whose swept cylinder penetrates a triangle
  std::uint64_t landing_failures = 0;    ///< links with a land point off its polygon or too low
  /// Deepest penetration over every failing link's continuum, to within 1 mm + 2 resolution
  /// [units: m];
  /// 0 when no link penetrates deeper than the tolerance.
  float worst_penetration = 0.0F;
  std::vector<std::uint32_t> failed_links;  ///< indices of failing links (all of them, ascending)
};

/// The triangles binned for checking, with the agent and navmesh a check needs. Build once, then
/// check links from any number of threads (check() is const; each thread passes its own scratch).
class LinkChecker {
 public:
  /// Per-thread scratch space.
  struct Scratch {
    std::vector<std::uint32_t> stamp;
    std::uint32_t generation = 0;
    std::vector<std::uint32_t> candidates;
  };

  LinkChecker(const TriangleMesh& triangles, const mesh::NavMesh& navmesh, const AgentConfig& agent,
              const LinkCheckOptions& options);
  ~LinkChecker();
  LinkChecker(const LinkChecker&) = delete;
  LinkChecker& operator=(const LinkChecker&) = delete;

  /// The verdict on a link of `config`; `want_depth` computes the deepest penetration of a
  /// colliding link (otherwise depth is a lower bound found at the first witness).
  [[nodiscard]] LinkVerdict check(const JumpLink& link, const JumpConfig& config, bool want_depth,
                                  Scratch& scratch) const;

  /// Whether the agent standing with its feet at `feet` penetrates some triangle deeper than
  /// tolerance + 2 resolution (+ 1e-6 m): the cylinder shrunk by that depth (with the foot zone)
  /// meets a triangle. When it does, every link whose start is `feet`, or whose land segment has
  /// `feet` as an end, fails check(): that pose is the arc's point (u, s = 0) or (u, 1) for every
  /// u, resp. u = 0 or 1, and the branch and bound's boxes around it, kept by every enclosure down
  /// to the smallest (rho and feet interval <= resolution), find a witness there. A cheap test
  /// (one cylinder against the triangles of its bins) that decides failing links without the
  /// branch and bound; false says nothing.
  [[nodiscard]] bool standing_fails(Vec3 feet) const;

  /// The highest point at (x, z) of a triangle that is not vertical and whose height there lies
  /// in [y_lo, y_hi] (the triangle's plane interpolated exactly in double precision, inclusive
  /// edges); NaN when there is none [units: m].
  [[nodiscard]] double surface_height(double x, double z, double y_lo, double y_hi) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Checks every link (in parallel, one verdict per link slot; the report does not depend on the
/// thread count).
[[nodiscard]] LinkCheckReport check_links(const JumpLinkSet& links, const TriangleMesh& triangles,
                                          const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                          const LinkCheckOptions& options = {});

}  // namespace leapnav::jump
