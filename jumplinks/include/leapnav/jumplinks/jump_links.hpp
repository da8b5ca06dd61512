// Jump links (thesis §5, §7.1): for sample points on the navmesh, the land segments reachable by
// valid jumps (Definition 4.5), found by the shadow-casting voxel search over the obstacle field
// and simplified with Zhao-Saalfeld. Stored per start polygon, grouped by land polygon.
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::jump {

/// One jump link: a start point and a land segment found by the voxel search. The search tested
/// arcs to land voxels (with their own d), and the segment joins simplified chains of them (it
/// may cut corners by up to epsilon): the generator alone does not guarantee that every point of
/// the segment is the landing of a collision-free jump with h kept and d' fitted. check_links
/// (link_check.hpp) decides that over the whole segment.
struct JumpLink {
  Vec3 start;   ///< sample point: south-west top corner of a walkable voxel [units: m]
  Vec3 land_a;  ///< land segment, first end (top-face centre of a land voxel) [units: m]
  Vec3 land_b;  ///< land segment, second end (equal to land_a for a lone land voxel) [units: m]
  std::uint16_t config = 0;      ///< index into JumpLinkSet::configs
  std::uint32_t start_poly = 0;  ///< polygon containing start
  std::uint32_t land_poly = 0;   ///< polygon containing the land segment (never start_poly)
  friend bool operator==(const JumpLink&, const JumpLink&) = default;
};

/// Counters of one build.
struct JumpLinkStats {
  std::uint64_t sample_points = 0;  ///< sample points kept (mapped to a polygon)
  std::uint64_t cells_visited = 0;  ///< grid cells scanned by the land-voxel search
  std::uint64_t land_voxels = 0;    ///< land voxels found (all configurations)
  std::uint64_t chains = 0;         ///< chains before simplification
  // refinement (link_refine.hpp), zero when not refined
  std::uint64_t surface_misses = 0;   ///< endpoints left at their voxel top (no triangle in reach)
  std::uint64_t links_failing = 0;    ///< links that failed the exact check on the surface
  std::uint64_t links_shortened = 0;  ///< failing links cut to their passing pieces
  std::uint64_t links_dropped = 0;    ///< failing links of which no piece passed
};

/// The link set. links are sorted by (start_poly, land_poly, config); within that, in generation
/// order (sample points by row then column, land segments counter-clockwise), which does not
/// depend on the thread count.
/// Start polygon p owns groups [poly_first[p], poly_first[p + 1]); group g lands in polygon
/// group_land_poly[g] and owns links [group_first[g], group_first[g + 1]).
struct JumpLinkSet {
  std::vector<JumpConfig> configs;
  std::vector<JumpLink> links;
  std::vector<std::uint32_t> poly_first;       ///< size polygon_count + 1 (empty when no polygons)
  std::vector<std::uint32_t> group_land_poly;  ///< per group
  std::vector<std::uint32_t> group_first;      ///< size group count + 1
  JumpLinkStats stats;
  /// 0: coordinates are plain floats. Otherwise a power of two: every coordinate is an exact
  /// multiple of it, and the file stores them as integers (link_compact.hpp) [units: m].
  float quantum = 0.0F;

  /// Bytes held by the link set's arrays (sizes, not capacities).
  [[nodiscard]] std::uint64_t memory_bytes() const;
};

/// Generates jump links for every configuration in options (thesis §5.2-5.5): obstacle field for
/// the agent's cylinder, sample points every `step` columns, shadow-casting land-voxel search per
/// quadrant, chains of neighbouring land voxels per polygon simplified with Zhao-Saalfeld.
/// `solid` and `open` are the voxel stage's output the navmesh was built from (same grid);
/// navmesh must carry its span -> polygon map aligned with `open`. Parallel over sample points;
/// the output is identical for any thread count. Timers: jump_obstacles, jump_samples,
/// jump_search, jump_segments. Cancellation (ctx.request_cancel) is seen before every sample
/// point and returns ErrorCode::Cancelled; progress "jump_search" is reported from the calling
/// thread after each block of 1024 sample points. Arrays are estimated against ctx.memory_limit()
/// before they are allocated, and the links found are counted against it during the search:
/// ErrorCode::MemoryLimit names what would not fit.
[[nodiscard]] Result<JumpLinkSet> build_jump_links(const voxel::Heightfield& solid,
                                                   const voxel::CompactHeightfield& open,
                                                   const mesh::NavMesh& navmesh,
                                                   const AgentConfig& agent,
                                                   const JumpLinkOptions& options,
                                                   BuildContext& ctx);

/// The columns build_jump_links takes sample points from: [x0, x1) x [z0, z1) of the heightfield's
/// grid (x1, z1 = -1: to the grid's end), and of those the columns with (x + phase_x) and
/// (z + phase_z) divisible by the step, so that a heightfield cut out of a larger grid samples the
/// larger grid's columns (phase = the cut-out's first column in the larger grid). The default is
/// every column of the grid, phase 0.
struct SampleWindow {
  int x0 = 0;
  int z0 = 0;
  int x1 = -1;
  int z1 = -1;
  int phase_x = 0;  ///< [range: >= 0]
  int phase_z = 0;  ///< [range: >= 0]
};

/// build_jump_links with sample points only in `window` (land voxels anywhere in the grid): what a
/// tiled build runs on the padded neighbourhood of one tile (tile_links.hpp).
[[nodiscard]] Result<JumpLinkSet> build_jump_links(const voxel::Heightfield& solid,
                                                   const voxel::CompactHeightfield& open,
                                                   const mesh::NavMesh& navmesh,
                                                   const AgentConfig& agent,
                                                   const JumpLinkOptions& options,
                                                   const SampleWindow& window, BuildContext& ctx);

struct ObstacleBits;

/// build_jump_links on a given obstacle field (what build_obstacle_bits(solid, agent, ctx,
/// BitsKept::ApproxOnly) gives, or a field assembled to equal it where the search reads: tiled
/// builds, tile_voxels.hpp). Errors as build_jump_links; InvalidArgument when its grid differs.
[[nodiscard]] Result<JumpLinkSet> build_jump_links(const voxel::Heightfield& solid,
                                                   const voxel::CompactHeightfield& open,
                                                   const mesh::NavMesh& navmesh,
                                                   const JumpLinkOptions& options,
                                                   const SampleWindow& window,
                                                   const ObstacleBits& field, BuildContext& ctx);

/// Invariants: sizes, sort order, CSR groups consistent with the links, polygons in range,
/// land_poly != start_poly, config indices in range, finite points.
[[nodiscard]] Status validate(const JumpLinkSet& links, const mesh::NavMesh& navmesh);

/// Hash over configs, links and the group arrays (stats excluded).
[[nodiscard]] std::uint64_t content_hash(const JumpLinkSet& links);

/// Stable-sorts `links` by (start_poly, land_poly, config) and builds the CSR group arrays over
/// `polygon_count` polygons. Used by build_jump_links and by loaders that read plain link vectors.
void index_links(JumpLinkSet& links, std::size_t polygon_count);

/// Builds the CSR group arrays of links already sorted by (start_poly, land_poly, config) (no
/// copy, unlike index_links); validate() tells whether they were.
void index_sorted_links(JumpLinkSet& links, std::size_t polygon_count);

}  // namespace leapnav::jump
