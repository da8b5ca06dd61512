// A* over a platformer nav graph (spec §B8). Costs are the links' times. The heuristic is
// |Δc| · k with k the smallest time per column any link of the graph achieves (1 / v_max for a
// run, cost / |Δc| for falls and jumps that change column), so it never overestimates: every link
// costs at least k per column it crosses. The spec's |Δx| / v_max is not admissible in general (a
// fall of one tile under strong gravity, or a jump whose landing sample lies just past a column
// boundary, crosses a column in less than 1 / v_max); tests/platformer shows both.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/platformer/nav_graph.hpp"

namespace leapnav::platformer {

/// The outcome of a query; names as `leapnav path` prints them.
enum class PathStatus : std::uint8_t {
  Found,           ///< a path from the start to the goal
  NoPath,          ///< the goal's nav point is not reachable from the start's
  StartNotOnMesh,  ///< the start tile is not walkable (no nav point)
  GoalNotOnMesh,   ///< the goal tile is not walkable
};
/// "found", "no_path", "start_not_on_mesh", "goal_not_on_mesh".
[[nodiscard]] std::string_view to_string(PathStatus status) noexcept;

/// One link of a path.
struct PathStep {
  LinkKind kind = LinkKind::Run;
  Tile from;
  Tile to;
  std::uint32_t link = 0;  ///< index into NavGraph::links
  double cost = 0;         ///< [units: s]
};

struct PlatformerPath {
  PathStatus status = PathStatus::NoPath;
  double cost = 0;  ///< sum of the steps' costs [units: s]
  std::vector<PathStep> steps;
  std::uint32_t expanded = 0;  ///< nodes taken from the open list
};

/// The time per column the heuristic charges (see the file comment) [units: s/tile].
[[nodiscard]] double heuristic_rate(const NavGraph& graph);

/// The cheapest path from tile `from` to tile `to` by A* (ties broken by nav-point id, so the
/// answer is deterministic). from == to (walkable) is Found with no steps. Errors:
/// InvalidArgument when a tile lies outside the map (the message names it and the map's size).
[[nodiscard]] Result<PlatformerPath> find_path(const NavGraph& graph, Tile from, Tile to);

/// Dijkstra's costs from `from` to every nav point (infinity where unreachable); the oracle A*
/// is tested against.
[[nodiscard]] std::vector<double> dijkstra_costs(const NavGraph& graph, NavPointId from);

}  // namespace leapnav::platformer
