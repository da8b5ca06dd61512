// An exact soundness check of jump links against the original triangles, independent of the
// voxel search: for points along each land segment, the arc from the link's start keeping h and
// fitting d' (trajectory.hpp fit_distance) is swept with the agent's cylinder and tested against
// every nearby triangle; the land point must lie on its land polygon, on the way down, within
// max_fall of the apex.
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::jump {

/// How finely the check samples and what it forgives.
struct LinkCheckOptions {
  /// Largest 3-D distance the cylinder's feet move between two tested positions [units: m].
  float sample_spacing = 0.02F;
  /// Largest distance between tested land points along a land segment [units: m].
  float segment_spacing = 0.1F;
  /// Penetration up to this depth is forgiven (float rounding of touching contacts) [units: m].
  float tolerance = 0.005F;
  /// Threads for parallel_for (0 = all, 1 = sequential).
  int threads = 0;
};

/// The result of a check.
struct LinkCheckReport {
  std::uint64_t links_checked = 0;
  std::uint64_t links_failed = 0;  ///< links with any failing trajectory or landing
  std::uint64_t trajectories_checked = 0;
  std::uint64_t collision_failures = 0;  ///< links whose swept cylinder penetrates a triangle
  std::uint64_t landing_failures = 0;    ///< links with a land point off its polygon or too low
  /// Deepest penetration found at a tested position: the largest delta such that a triangle meets
  /// the cylinder shrunk by delta radially and vertically (radius - delta, feet + delta to
  /// head - delta), to 1e-6 m by bisection [units: m]; 0 when no tested position penetrates
  /// deeper than the tolerance.
  float worst_penetration = 0.0F;
  std::vector<std::uint32_t> failed_links;  ///< indices of failing links (all of them, ascending)
};

/// Checks every link. Method: for land points at most segment_spacing apart along the segment
/// (ends included), the arc with the link's h and fitted d' is cut into feet positions at most
/// sample_spacing apart (3-D); at each, every triangle near the arc is clipped to the cylinder's
/// height slab and its xz distance to the axis computed exactly (convex polygon distance); the
/// penetration depth comes from bisection on the shrunk cylinder. A position between two tested
/// ones lies within sample_spacing / 2 of one of them, so the continuous sweep can penetrate at
/// most tolerance + sample_spacing / 2 deeper than reported without being reported.
[[nodiscard]] LinkCheckReport check_links(const JumpLinkSet& links, const TriangleMesh& triangles,
                                          const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                          const LinkCheckOptions& options = {});

}  // namespace leapnav::jump
