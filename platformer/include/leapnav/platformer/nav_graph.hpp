// The platformer nav graph (spec §B.1, B2-B8): nav points on walkable tiles grouped into
// platforms, and directed run, fall and jump links with time costs. Each stage is a free function
// (nav_points.cpp, run_fall_links.cpp, jump_links.cpp); build_nav_graph runs them in order.
// Invariants (validate): every nav-point type follows the run-length rule, platforms are numbered
// in scan order (rows bottom-up, then left to right) from 0, links join nav points, at most one
// jump link per (start nav point, destination platform) and none into the start's own platform.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/platformer/params.hpp"
#include "leapnav/platformer/tile_map.hpp"

namespace leapnav::platformer {

enum class PlatformId : std::uint32_t {};
enum class NavPointId : std::uint32_t {};
/// "No nav point on this tile".
inline constexpr NavPointId kNoNavPoint{0xFFFFFFFFU};

/// Pignole's five nav-point types (B2); only walkable tiles carry a type other than None.
enum class NavPointType : std::uint8_t { None, Platform, LeftEdge, RightEdge, Solo };
/// "none", "platform", "leftEdge", "rightEdge", "solo" (the article's spelling).
[[nodiscard]] std::string_view to_string(NavPointType type) noexcept;

/// A walkable tile: free, the tile below solid, and collider_h free tiles from it upwards.
struct NavPoint {
  Tile tile;
  PlatformId platform{};
  NavPointType type = NavPointType::None;
  friend bool operator==(const NavPoint&, const NavPoint&) = default;
};

enum class LinkKind : std::uint8_t { Run, Fall, Jump };
/// "run", "fall", "jump".
[[nodiscard]] std::string_view to_string(LinkKind kind) noexcept;

/// The trajectory a jump link was found with, stored for the controller (B2).
struct JumpValues {
  double height = 0;        ///< jump height h_max·i/h_div [units: tiles]
  double speed = 0;         ///< horizontal speed cap v_max·j/s_div [units: tiles/s]
  double base_speed = 0;    ///< v_b [units: tiles/s]
  double acceleration = 0;  ///< a [units: tiles/s²]
  int direction = 0;        ///< +1 right, -1 left
  int landing_sample = 0;   ///< k of the landing sample (t = k·dt)
  friend bool operator==(const JumpValues&, const JumpValues&) = default;
};

/// A directed link between nav points with its time cost (B8, leapnav's definition):
/// run = 1 / v_max; fall = sqrt(2·drop / g); jump = flight time until the feet, on the falling
/// branch of the trajectory, reach the destination floor. [units: s]
struct NavLink {
  LinkKind kind = LinkKind::Run;
  NavPointId from{};
  NavPointId to{};
  double cost = 0;
  JumpValues jump;  ///< zero unless kind == Jump
  friend bool operator==(const NavLink&, const NavLink&) = default;
};

/// Nav points and links of one tile map for one agent.
struct NavGraph {
  int width = 0;   ///< of the tile map [units: tiles]
  int height = 0;  ///< of the tile map [units: tiles]
  /// Walkable tiles in scan order: rows bottom-up, then left to right.
  std::vector<NavPoint> points;
  /// Per tile (index c + r * width), its nav point or kNoNavPoint.
  std::vector<NavPointId> point_at;
  std::uint32_t platform_count = 0;
  /// Sorted by (from, kind); links of one kind from one point keep generation order.
  std::vector<NavLink> links;
  /// CSR: the links of point p are [link_first[p], link_first[p + 1]). Size points.size() + 1.
  std::vector<std::uint32_t> link_first;

  [[nodiscard]] NavPointId point_of(Tile t) const {
    if (t.c < 0 || t.r < 0 || t.c >= width || t.r >= height) return kNoNavPoint;
    return point_at[static_cast<std::size_t>(t.c) +
                    static_cast<std::size_t>(t.r) * static_cast<std::size_t>(width)];
  }
  [[nodiscard]] const NavPoint& point(NavPointId id) const {
    return points[static_cast<std::size_t>(id)];
  }
};

/// Counts of a graph.
struct GraphCounts {
  std::size_t nav_points = 0, platforms = 0, run = 0, fall = 0, jump = 0;
};
[[nodiscard]] GraphCounts count(const NavGraph& graph);

/// B3: is tile (c, r) walkable (free, solid below, collider_h free tiles from r up)?
[[nodiscard]] bool is_walkable(const TileMap& map, int c, int r, const PlatformerParams& params);

/// B7's isEnoughSpace: the collider_w × collider_h box standing on tile t is free. The box covers
/// columns c - (w-1)/2 .. c + w/2 and rows r .. r + h - 1 (outside the map is solid).
[[nodiscard]] bool is_enough_space(const TileMap& map, Tile t, const PlatformerParams& params);

/// B3: nav points, types and platform numbers (links and link_first left empty).
[[nodiscard]] NavGraph find_nav_points(const TileMap& map, const PlatformerParams& params);

/// B4: run links between horizontally adjacent walkable tiles, both directions.
[[nodiscard]] std::vector<NavLink> run_links(const NavGraph& graph, const PlatformerParams& params);

/// B5: straight falls from edge and solo nav points into the side column(s), to the first
/// walkable tile below the free side tile, scanning down to row 0 and stopping at a solid tile.
[[nodiscard]] std::vector<NavLink> fall_links(const TileMap& map, const NavGraph& graph,
                                              const PlatformerParams& params);

/// B6-B7: jump links from every nav point by the h_div × s_div trajectory grid, each way, with
/// the six landing conditions; a trajectory stops at its landing, at a sample whose tile lacks
/// space for the collider, or after its last sample. At most one link per (start, destination
/// platform): the first in generation order (height ascending, speed ascending, right before
/// left). Runs over chunks of nav points on ctx.threads(); the output does not depend on it.
[[nodiscard]] Result<std::vector<NavLink>> jump_links(const TileMap& map, const NavGraph& graph,
                                                      const PlatformerParams& params,
                                                      BuildContext& ctx);

/// The whole graph: validates the map and the parameters, then nav points, run, fall and jump
/// links (timed as "platformer_points", "platformer_run_fall", "platformer_jump"), sorted and
/// indexed. Errors: InvalidArgument (parameters), the map's validate errors, MemoryLimit (the
/// per-tile index over ctx.memory_limit(), before allocating), Cancelled.
[[nodiscard]] Result<NavGraph> build_nav_graph(const TileMap& map, const PlatformerParams& params,
                                               BuildContext& ctx);

/// Checks the invariants of B.3 against the map and parameters: types and platforms by the
/// run-length rule and scan numbering, point_at consistent, run links between neighbours of one
/// platform, fall links from edge/solo points to the first walkable tile below the side tile,
/// jump links into other platforms with at most one per (start, platform), costs as documented,
/// links sorted and link_first consistent. The message names the first offending point or link.
[[nodiscard]] Status validate(const NavGraph& graph, const TileMap& map,
                              const PlatformerParams& params);

/// A content hash of every field.
[[nodiscard]] std::uint64_t content_hash(const NavGraph& graph);

}  // namespace leapnav::platformer
