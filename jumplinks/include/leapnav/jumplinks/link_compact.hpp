// Compact link sets (our addition to thesis §5.5, judged by the §8.2 usefulness experiment): a
// refined link set is reduced, per group (start polygon, land polygon, configuration), to a greedy
// cover under a detour bound, and its coordinates are put on a power-of-two lattice that the file
// stores as small integers (io "jlkq" chunk). Invariants of the output: every group of the input
// keeps at least one link (so every polygon-to-polygon jump of the full set survives), every link
// lies on the lattice and passes the exact check (link_check.hpp) as stored, and the output does
// not depend on the thread count.
//
// The cover. Link K covers link L of the same group when |S_L - S_K| + max(dist(A_L, A_K B_K),
// dist(B_L, A_K B_K)) <= detour (xz distances; the distance to a segment is convex along L's
// segment, so its ends bound every land point). A path that takes off at S_L and lands at X on
// L's segment can instead walk S_L -> S_K inside the (convex) start polygon, jump to the nearest
// point X' of K's segment and walk X' -> X inside the (convex) land polygon: by the triangle
// inequality it grows by at most 2 * detour. Greedy set cover: repeatedly keep the link covering
// the most links not yet covered (ties: the lowest index), so a dominated link (detour 0: same
// start, segment inside another's) is never kept beside its dominator.
//
// The lattice. A kept link's x and z are rounded to a multiple of quantum towards the centre of
// its polygon's bounds (so an agent standing its radius from a wall does not round into it), its
// heights are lifted to the triangles' surface at the rounded xz and then rounded up, so
// endpoints move at most one quantum per axis and lie at most one quantum above the surface. The
// lattice value k * quantum is exact in float for |k| < 2^24, so the file's integers decode to the
// very floats that were checked. A kept link whose lattice version fails the exact check is
// replaced: the group's cover is recomputed without it (a group where no link survives the lattice
// is counted in groups_lost).
//
// Runs. A city's kerbs and roof edges are long and straight, so the kept links of a group along
// such an edge are near-translates of each other (same land segment shape, starts one sample
// spacing apart), off by a quantum where the sample spacing is not a multiple of it. Per group the
// kept links are chained along x or along z (whichever gives fewer chains): a link follows the
// previous one when its start is further along the axis by the chain's spacing and every other
// coordinate difference is within 4 quanta. A chain becomes a run: its first link B, a lattice
// translation T (the chain's mean step, rounded) and members B + i T, each of which replaces the
// kept link it stands for only when it moves no coordinate by more than run_tolerance, keeps its
// heights 0..2 quanta above the surface, lies no further outside its polygons than the link it
// replaces (+ 1 quantum), and passes the exact check; otherwise the run ends there and a new one
// starts from that kept link. So every link is still checked exactly as stored. Each endpoint
// moves at most sqrt(2) x run_tolerance in xz, so a link's cover detour (start distance plus land
// distance) grows by at most 2 sqrt(2) x run_tolerance and the path bound (twice the detour) by
// 4 sqrt(2) x run_tolerance (11 cm at 2 cm). The file stores a run as B, T and a count (io
// "jlkr").
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::jump {

/// Compaction options.
struct LinkCompactOptions {
  /// Cover radius: start distance plus land-segment distance a kept link may differ from a
  /// dropped one by; a path through a dropped link grows by at most twice this [units: m]
  /// [range: >= 0].
  float detour = 0.75F;
  /// Lattice exponent: coordinates are multiples of 2^-quantum_shift m (9: 1.95 mm), which
  /// limits coordinates to |x| < 2^(24 - quantum_shift) m [range: 0..16].
  int quantum_shift = 9;
  /// Arrange the kept links of a group into runs (see the file comment, "Runs") so the file
  /// stores each run as one link, a translation and a count.
  bool runs = true;
  /// The most a run member may move from the kept link it replaces, per coordinate [units: m]
  /// [range: >= 0].
  float run_tolerance = 0.02F;
  LinkCheckOptions check;  ///< the exact check every kept link passes on the lattice
};

/// Counters of one compaction.
struct LinkCompactStats {
  std::uint64_t links_in = 0;
  std::uint64_t links_out = 0;
  std::uint64_t groups = 0;           ///< groups of the input (and of the output, unless lost)
  std::uint64_t lattice_failing = 0;  ///< links whose lattice version failed the exact check
  std::uint64_t groups_lost = 0;      ///< groups of which no link passed on the lattice
  std::uint64_t links_checked = 0;    ///< exact checks run on lattice versions
  std::uint64_t runs = 0;             ///< runs of two or more translated links formed
  std::uint64_t run_links = 0;        ///< links in those runs (bases included)
  std::uint64_t run_refused = 0;      ///< translated members refused (check, surface, polygon)
};

/// A compact set and its counters.
struct CompactLinks {
  JumpLinkSet set;  ///< quantum set to 2^-quantum_shift; configs and sample stats copied
  LinkCompactStats stats;
};

/// Checks the option ranges; the message names the field and the value.
[[nodiscard]] Status validate(const LinkCompactOptions& options);

/// The lattice spacing 2^-shift [units: m].
[[nodiscard]] float lattice_quantum(int shift);

/// The lattice index of v (nearest multiple of quantum), or nullopt when |v| / quantum >= 2^24
/// or v is not finite.
/// (Inline: the compactor and the file writer call it nine times per link, and an out-of-line
/// call returned the optional through the stack.)
[[nodiscard]] inline std::optional<std::int32_t> lattice_index(float v, float quantum) {
  // note: rint rounds like nearbyint (the current mode, to nearest even) without saving and
  // restoring the floating-point environment
  const double k = std::rint(static_cast<double>(v) / static_cast<double>(quantum));
  if (!std::isfinite(k) || std::abs(k) >= 16777216.0) return std::nullopt;
  return static_cast<std::int32_t>(k);
}

/// Compacts a refined link set (see the file comment). `full` must be indexed (index_links);
/// triangles, navmesh and agent are the ones the set was refined against. Parallel over groups
/// into per-group slots. Timer: jump_compact. Errors: InvalidArgument for bad options or a link
/// naming a missing configuration or a coordinate beyond the lattice, Cancelled.
[[nodiscard]] Result<CompactLinks> compact_links(
    const JumpLinkSet& full, const TriangleMesh& triangles, const mesh::NavMesh& navmesh,
    const AgentConfig& agent, const LinkCompactOptions& options, BuildContext& ctx);

/// Invariants of a compact set: validate(set, navmesh), a quantum that is a power of two in
/// [2^-16, 1], and every coordinate an exact multiple of it within the lattice range.
[[nodiscard]] Status validate_compact(const JumpLinkSet& set, const mesh::NavMesh& navmesh);

}  // namespace leapnav::jump
