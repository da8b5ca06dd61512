// Path queries' value types: the request, the options and the result. A path is a list of
// segments over one flat point array so that walk and jump segments alternate without
// per-segment allocations; consecutive segments share their joining point.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::plan {

/// The outcome of a path query with valid input. Invalid input (non-finite points, negative
/// extents, a zero node limit) is not a status: find_path returns an Error (ErrorCode::NonFinite
/// or ErrorCode::InvalidArgument) through Result instead, so a status is always about the mesh.
enum class PathStatus : std::uint8_t {
  Found,           ///< a path from the start to the goal
  Partial,         ///< the node limit was reached: a path to the reached polygon nearest the goal
  NoPath,          ///< the goal's polygon is not reachable from the start's (different islands)
  StartNotOnMesh,  ///< no polygon within the search extent of the start
  GoalNotOnMesh,   ///< no polygon within the search extent of the goal
};

/// A stable lower-case name ("no_path").
[[nodiscard]] std::string_view to_string(PathStatus status) noexcept;

enum class SegmentKind : std::uint8_t {
  Walk,  ///< a polyline on the mesh through the segment's corridor
  Jump,  ///< a ballistic jump from points[first] to points[first + 1] (last = first + 1)
  // ledge and ladder links (ledgelinks/): a straight crossing from points[first] to
  // points[first + 1] (last = first + 1); `link` names the planner's link as for a jump
  StepUp,    ///< up a step the walk mesh does not connect
  StepDown,  ///< down such a step
  JumpUp,    ///< up a ledge above the climb: rise, then step across
  Drop,      ///< down a ledge: step off, then fall
  Ladder,    ///< along an authored ladder
};

/// A stable lower-case name: "walk", "jump", "step_up", "step_down", "jump_up", "drop", "ladder".
[[nodiscard]] std::string_view to_string(SegmentKind kind) noexcept;

inline constexpr std::uint32_t kNoLink = 0xFFFFFFFFU;

/// How the agent moves along a walk segment.
enum class Posture : std::uint8_t {
  Stand,   ///< upright
  Crouch,  ///< crouching: the segment's polygons carry mesh::kPolyFlagCrouch
};

/// One piece of a path. Its points are Path::points[first .. last] (inclusive; last > first), its
/// polygons Path::corridor[corridor_first .. corridor_last] (inclusive).
struct PathSegment {
  SegmentKind kind = SegmentKind::Walk;
  std::uint32_t first = 0;
  std::uint32_t last = 0;
  std::uint32_t corridor_first = 0;
  std::uint32_t corridor_last = 0;
  /// Jump only: apex height above the start, h of the link's configuration [units: m].
  float jump_height = 0.0F;
  /// Jump only: the distance d' of the arc with height h through the start and the landing,
  /// jump::fit_distance(h, start, landing) (thesis §7.2) [units: m].
  float jump_distance = 0.0F;
  /// Jump only: the link's index in JumpLinkSet::links. Its corridor range is the pair (start
  /// polygon, land polygon).
  std::uint32_t link = kNoLink;
  /// Walk only: Crouch when the segment's polygons are crouch polygons. A walk that enters or
  /// leaves a crouch area is split where the path crosses the portal (the crouch transition), so
  /// each walk segment keeps one posture; two walk segments in a row share that point, and the
  /// second's corridor range starts at the polygon after the first's last. A polygon of the
  /// other posture that the path only touches at a point stays in the segment around it.
  Posture posture = Posture::Stand;
};

/// Where to search from and to.
struct PathRequest {
  Vec3 start;
  Vec3 goal;
};

/// Where A* places the crossing of a portal (the cost of a walk is the xz polyline through these
/// points; the heuristic, the straight xz distance to the goal, is admissible for both).
enum class CrossingPoint : std::uint8_t {
  Midpoint,       ///< the portal's midpoint, as Detour (default: faster, as short on real levels)
  ClosestToLine,  ///< the portal point closest to the segment start-goal
  /// The portal point closest to the segment from the crossing the search reaches the portal
  /// from (or the start) to the goal, fixed when the portal is first reached. Paths closest to
  /// the exact shortest ones (bench/RESULTS.md, "Walking path quality"); the A* cost is then
  /// optimal for the crossing points the search placed, not for a fixed arc graph.
  TowardGoal,
};

/// How a walking query searches the mesh.
enum class WalkSearch : std::uint8_t {
  /// The exact shortest path in xz (an any-angle search over the polygons, Polyanya), for
  /// queries it applies to: walking only (QueryOptions::jumps and ledge_links off, or no usable
  /// link) and every polygon the path may cross costing the same (equal area costs of the
  /// allowed areas; a crouch cost of 1 when crouch polygons may be entered). Other queries use
  /// Portals. `crossing` plays no part.
  Exact,
  /// A* over portal crossing points (`crossing`), then the funnel over the corridor found.
  Portals,
};

/// The default jump cost [units: m]: a jump is taken only when it saves more than 4 m of walking
/// (about the 1 s a take-off and a landing take at a 4 m/s run), so short detours around a gap or
/// down a ramp are walked and jumps are kept for real shortcuts.
inline constexpr float kDefaultJumpCost = 4.0F;

/// Area costs of 1 for every area id: walking costs its xz length everywhere.
[[nodiscard]] constexpr std::array<float, 256> unit_area_costs() {
  std::array<float, 256> costs{};
  for (float& c : costs) c = 1.0F;
  return costs;
}

struct QueryOptions {
  /// Half size of the box searched around the start and the goal for a polygon [units: m]
  /// [range: >= 0, finite].
  Vec3 search_extent{2.0F, 4.0F, 2.0F};
  /// Largest number of A* node expansions before returning a Partial path [range: >= 1]. For
  /// WalkSearch::Exact a node is an interval of a polygon edge seen from a root point, and an
  /// expansion projects it through the polygon beyond (its first straight walk toward the goal
  /// counts one expansion per edge crossed); a Partial path then ends in the polygon of the
  /// reached interval nearest the goal.
  std::uint32_t max_nodes = 65536;
  /// The search of walking queries (see WalkSearch).
  WalkSearch walk_search = WalkSearch::Portals;
  CrossingPoint crossing = CrossingPoint::Midpoint;
  /// Tighten the portal A*'s straight-line heuristic with the planner's landmark distances (ALT)
  /// where that is valid: walking-only searches with Midpoint crossings. The heuristic stays
  /// admissible and consistent, so the search cost is the same and far fewer nodes are expanded
  /// (bench/RESULTS.md, "Portal A* with landmarks"); false uses the straight line alone.
  bool landmarks = true;
  /// Plan over jump links when the Planner has them. Off (or no links, or no allowed link in
  /// the set) gives exactly the walk-only planner's paths.
  bool jumps = true;
  /// Added to a jump arc's A* cost (thesis §6.1 "jump cost") [units: m] [range: >= 0, finite].
  /// Not part of Path::length; Path::search_cost includes it.
  float jump_cost = kDefaultJumpCost;
  /// The jump configurations the agent can do: bit i allows JumpLinkSet::configs[i] (i < 63);
  /// bit 63 allows every configuration with index >= 63. A link group without an allowed link
  /// is not traversable, and an allowed group's jumps use allowed links only.
  std::uint64_t jump_configs = ~std::uint64_t{0};
  /// Plan over ledge and ladder links (ledgelinks/) when the Planner has them; independent of
  /// `jumps` and `jump_configs`. Each costs its link's cost instead of jump_cost.
  bool ledge_links = true;
  /// The filter. Walking across a polygon costs its xz length times area_costs[its area id]
  /// (mesh::NavMesh::poly_area); +infinity excludes the area like exclude_flags
  /// [range: > 0, or +infinity]. The A* heuristic is scaled by min(1, smallest cost), so it
  /// stays admissible and paths stay optimal for the costs.
  std::array<float, 256> area_costs = unit_area_costs();
  /// A polygon with flags (mesh::NavMesh::poly_flags != 0) is entered only when it shares a flag
  /// with include_flags; polygons without flags always pass this test.
  std::uint16_t include_flags = 0xFFFF;
  /// A polygon sharing a flag with exclude_flags is never entered.
  std::uint16_t exclude_flags = 0;
  /// Whether the agent may crouch: false never enters a polygon with mesh::kPolyFlagCrouch
  /// (that flag is not a user flag: include_flags ignores it).
  bool crouch = true;
  /// Multiplies the walking cost across crouch polygons (on top of their area cost)
  /// [range: > 0, finite].
  float crouch_cost = 1.0F;
  /// note: the start's polygon may always be left, even when the filter excludes it; a goal in a
  /// polygon the filter excludes has no path (PathStatus::NoPath). A jump link is taken only when
  /// its land polygon passes the filter.
};

/// Whether polygon p (an index into `nav`'s polygons) passes the filter of `options`: no flag of
/// exclude_flags, not a crouch polygon unless crouch is allowed, a user flag of include_flags when
/// it has user flags, and a finite cost for its area. Inline: the A* asks it of every polygon it
/// enters.
[[nodiscard]] inline bool passes_filter(const QueryOptions& options, const mesh::NavMesh& nav,
                                        std::uint32_t p) {
  const std::uint16_t flags = nav.poly_flags[p];
  if ((flags & options.exclude_flags) != 0) return false;
  if (!options.crouch && (flags & mesh::kPolyFlagCrouch) != 0) return false;
  const auto user_flags = static_cast<std::uint16_t>(flags & ~mesh::kPolyFlagCrouch);
  if (user_flags != 0 && (user_flags & options.include_flags) == 0) return false;
  return std::isfinite(options.area_costs[nav.poly_area[p]]);
}

/// No tile (Path::unloaded_tile, Planner::tile_of on a mesh without tiles).
inline constexpr std::uint32_t kNoTile = 0xFFFFFFFFU;

/// A path on the mesh. Empty (no points, no segments) unless the status is Found or Partial.
struct Path {
  PathStatus status = PathStatus::NoPath;
  /// Corners from start to end, lifted to 3-D with mesh::height_at [units: m]. The first point is
  /// the start located on the mesh, the last the goal located on the mesh (Partial: the point of
  /// the last corridor polygon nearest the goal).
  std::vector<Vec3> points;
  std::vector<PathSegment> segments;
  /// The polygons crossed, start polygon first.
  std::vector<mesh::PolyId> corridor;
  /// Length of the polyline through all points (walk corners and each jump's start -> landing
  /// chord) in the xz plane, the quantity the local planner minimises; jump costs are not included
  /// [units: m].
  double length = 0.0;
  /// Length of the polyline through the 3-D points, jumps as straight chords [units: m].
  double length_3d = 0.0;
  /// The A* cost of the global path (Found only): the crossing-point polyline in xz (each piece
  /// times its polygon's area cost) plus, per jump arc, the group's representative jump length
  /// and QueryOptions::jump_cost [units: m].
  double search_cost = 0.0;
  std::uint32_t nodes_expanded = 0;  ///< A* expansions this query used
  std::uint32_t jump_count = 0;      ///< number of Jump segments
  /// NoPath only, with tiles unloaded (Planner::unload_tile): true when the start's or the
  /// goal's polygon lies in an unloaded tile, or when the search was refused entry to a polygon of
  /// an unloaded tile and found no other way (with those tiles loaded a path may exist; the
  /// start and goal are in one island of the whole mesh).
  bool blocked_by_unloaded_tiles = false;
  /// NoPath only: the unloaded tile holding the start's polygon, or else the goal's; kNoTile
  /// when both lie in loaded tiles.
  std::uint32_t unloaded_tile = kNoTile;

  void clear() {
    status = PathStatus::NoPath;
    points.clear();
    segments.clear();
    corridor.clear();
    length = 0.0;
    length_3d = 0.0;
    search_cost = 0.0;
    nodes_expanded = 0;
    jump_count = 0;
    blocked_by_unloaded_tiles = false;
    unloaded_tile = kNoTile;
  }
};

}  // namespace leapnav::plan
