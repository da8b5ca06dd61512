// Ledge links (Golodetz, "Automatic Navigation Mesh Generation in Configuration Space", Listings 2
// and 4, with the generalisation of ../shared/docs/seeds-002-004.md A6/A10): boundary edges of the
// navmesh (no neighbour polygon) are grouped by vertical plane, edges facing each other across the
// eroded gap (about 2 r: the voxel stage erodes both floors of a ledge by the agent radius) are
// paired, and the height difference along their overlap, measured on the navmesh's surface (its
// height detail) beside each edge, classifies each piece as a walk, step-up / step-down, jump-up
// or drop link; a link's ends lie on the edges at the surface's height. Each link is directed,
// made once per direction, and kept only where the agent's swept cylinder passes the
// conservative check of ledge_check.hpp.
// Authored ladders (ladders.hpp) use the same link type.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::ledge {

/// How a ledge link is traversed.
enum class LedgeKind : std::uint8_t {
  Walk,      ///< across a gap with |rise| <= walk_epsilon (T-junctions, seams)
  StepUp,    ///< up by walk_epsilon < rise <= agent.max_climb
  StepDown,  ///< down by walk_epsilon < drop <= agent.max_climb
  JumpUp,    ///< up by agent.max_climb < rise <= agent.max_jump_up (climb, then step across)
  Drop,      ///< down by agent.max_climb < drop <= agent.max_drop (step across, then fall)
  Ladder,    ///< an authored ladder, bottom to top or top to bottom
};
inline constexpr int kLedgeKindCount = 6;

/// A stable lower-case name: "walk", "step_up", "step_down", "jump_up", "drop", "ladder".
[[nodiscard]] std::string_view to_string(LedgeKind kind) noexcept;

/// One directed link. The agent crosses from source segment point source_a + t (source_b -
/// source_a) to dest_a + t (dest_b - dest_a), for any t in [0, 1] (for a ladder both segments are
/// single points: the ladder's ends).
struct LedgeLink {
  LedgeKind kind = LedgeKind::Walk;
  std::uint32_t source_poly = 0;
  std::uint32_t dest_poly = 0;
  Vec3 source_a;  ///< on the source polygon's boundary edge [units: m]
  Vec3 source_b;
  Vec3 dest_a;  ///< on the destination polygon's boundary edge, facing source_a [units: m]
  Vec3 dest_b;
  /// The traversal's cost beyond its horizontal length, added by the planner [units: m of walking].
  float cost = 0.0F;
  friend bool operator==(const LedgeLink&, const LedgeLink&) = default;
};

/// Counters of one pass.
struct LedgeStats {
  std::uint64_t boundary_edges = 0;    ///< navmesh edges without a neighbour polygon
  std::uint64_t plane_groups = 0;      ///< distinct snapped vertical planes among them
  std::uint64_t facing_pairs = 0;      ///< edge pairs facing each other across at most max_gap
  std::uint64_t candidates = 0;        ///< directed link pieces before the soundness check
  std::uint64_t links_failing = 0;     ///< candidates of which some part failed the check
  std::uint64_t links_dropped = 0;     ///< candidates of which no piece passed
  std::uint64_t triangles_tested = 0;  ///< triangle tests of the soundness check
};

/// The links, sorted by (source_poly, dest_poly, kind, source_a, source_b); no duplicates.
struct LedgeLinkSet {
  std::vector<LedgeLink> links;
  LedgeStats stats;
};

/// Options of the pass. Thresholds come from the navmesh's agent (max_climb, max_jump_up,
/// max_drop, radius, height, max_slope_deg) and grid.
struct LedgeOptions {
  /// Largest horizontal gap between paired edges; 0 = derived from the build: 2 x the eroded
  /// radius (whole cells) + 2 cells + poly.max_edge_error [units: m] [range: >= 0].
  float max_gap = 0.0F;
  /// Largest angle between the two edges' lines [units: deg] [range: 0..10].
  float max_angle_deg = 2.0F;
  /// Rises up to this are walk links [units: m] [range: >= 0].
  float walk_epsilon = 0.01F;
  /// Pieces shorter than this are dropped; 0 = half a cell [units: m] [range: >= 0].
  float min_length = 0.0F;
  /// Added A* cost per kind [units: m of walking] [range: >= 0, finite].
  float step_cost = 0.5F;
  float jump_up_cost = 2.0F;
  float drop_cost = 1.0F;
  /// Check every link against the triangles (needs them); off only for configuration-space tests
  /// on hand-made meshes.
  bool check = true;
  /// The navmesh is a tiled build's stitched mesh: tile borders pin outline vertices, so its
  /// outlines are simplified into other, shorter edges than the untiled build's, and two facing
  /// edges of one ledge can meet at a few degrees more than max_angle_deg (nav_test.obj, 16- and
  /// 32-cell tiles: 3.2 degrees, a drop of the untiled build lost). When on, a pair's angle may
  /// also reach max_angle_deg + atan(poly.max_edge_error / the shorter edge's length), at most
  /// max_tiled_angle_deg: an outline vertex lies within max_edge_error of the boundary it
  /// simplifies. Off: the untiled pass, unchanged.
  bool tiled_outlines = false;
  /// Cap of the widened angle [units: deg] [range: 0..20].
  float max_tiled_angle_deg = 10.0F;
};

/// The options of the pass on a tiled build's stitched mesh (`leapnav build --tile-size N
/// --ledge-links` and `leapnav rebuild`): the defaults with tiled_outlines on. Untiled builds keep
/// the defaults.
[[nodiscard]] LedgeOptions tiled_ledge_options();

/// Checks the options' ranges; the message names the field.
[[nodiscard]] Status validate(const LedgeOptions& options);

/// The edge-plane link pass over `navmesh`. `triangles` are the level the navmesh was built from
/// (the soundness check; may be null only when options.check is false). Deterministic: the set
/// does not depend on polygon or triangle order or thread count. Timer: "ledge_links".
[[nodiscard]] Result<LedgeLinkSet> build_ledge_links(const mesh::NavMesh& navmesh,
                                                     const TriangleMesh* triangles,
                                                     const LedgeOptions& options,
                                                     BuildContext& ctx);

/// Invariants: polygons in range and distinct, finite points, sorted without duplicates, costs
/// finite and >= 0.
[[nodiscard]] Status validate(const LedgeLinkSet& links, const mesh::NavMesh& navmesh);

/// Hash over the links (stats excluded).
[[nodiscard]] std::uint64_t content_hash(const LedgeLinkSet& links);

/// Sorts by (source_poly, dest_poly, kind, source_a, source_b) and removes exact duplicates.
void sort_links(std::vector<LedgeLink>& links);

/// How many of `a`'s crossings `b` also makes, for comparing two builds of one level (tiled
/// against untiled): each link of `a` is sampled at 11 evenly spaced points of its source segment
/// (with the matching points of its destination segment), and a sample counts when a link of `b`
/// has a source segment point within 0.3 m (xz) of it whose destination point lies within 0.3 m
/// of the sample's, with a rise within 0.1 m of the sample's.
[[nodiscard]] std::size_t crossings_made(const LedgeLinkSet& a, const LedgeLinkSet& b);

}  // namespace leapnav::ledge
