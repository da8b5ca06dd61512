// Link refinement against the original triangles (our addition to thesis §7.2), run after the
// voxel search: every endpoint is lifted from its voxel top to the walkable surface (the highest
// triangle point at that xz within the voxel's reach), then each link is decided by the exact
// check (link_check.hpp); a failing link's land segment is bisected and only the pieces that pass
// are kept (a piece shorter than min_piece that still fails is dropped). Every emitted link
// passes the exact check. Invariant: links keep their order (pieces in segment order), so the
// output is identical for any thread count.
#pragma once

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::jump {

/// Refinement options.
struct LinkRefineOptions {
  LinkCheckOptions check;  ///< the exact check every emitted link passes
  /// Failing land segments are bisected down to pieces of this length; shorter failing pieces
  /// are dropped [units: m] [range: >= 0].
  float min_piece = 0.05F;
};

/// Counters of one refinement.
struct LinkRefineStats {
  std::uint64_t links_in = 0;         ///< links given
  std::uint64_t surface_misses = 0;   ///< endpoints with no triangle in reach (voxel top kept)
  std::uint64_t links_failing = 0;    ///< links that failed the exact check on the surface
  std::uint64_t links_shortened = 0;  ///< failing links of which some pieces were kept
  std::uint64_t links_dropped = 0;    ///< failing links of which nothing was kept
  std::uint64_t links_out = 0;        ///< links emitted (pieces count one each)
};

/// The surface height for a point whose voxel-top height lies in [voxel_lo, voxel_hi]: the
/// highest triangle point at (x, z) in [voxel_lo - cell_height - cell_size * sqrt(2) *
/// tan(max_slope) - 1 mm, voxel_hi + 1 mm] (a column's top is the highest surface over its cell,
/// rounded up to a cell height); NaN when there is none.
[[nodiscard]] double surface_height(const LinkChecker& checker, const mesh::NavMesh& navmesh,
                                    double x, double z, double voxel_lo, double voxel_hi);

/// Lifts endpoints to the surface, checks every link exactly, shortens or drops the failing ones
/// and re-indexes the set (index_links). Parallel over links into per-link slots. Timer:
/// jump_refine. Cancellation is seen between blocks of links (ErrorCode::Cancelled).
[[nodiscard]] Result<LinkRefineStats> refine_links(
    JumpLinkSet& links, const TriangleMesh& triangles, const mesh::NavMesh& navmesh,
    const AgentConfig& agent, const LinkRefineOptions& options, BuildContext& ctx);

}  // namespace leapnav::jump
