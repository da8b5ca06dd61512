// Landmark distances for the walking A*'s heuristic (ALT: A*, landmarks and the triangle
// inequality; Goldberg and Harrelson, "Computing the shortest path: A* search meets graph
// theory", SODA 2005). Per island of the walk graph with enough arcs, kSlots landmark arcs are
// picked by farthest-point selection in the plane, and a Dijkstra from each gives every arc of the
// island its unit-cost distance along portal midpoints. The metric is the walk arc graph in which
// an arc may also step back through its own portal (cost 0), i.e. the undirected graph of portal
// midpoints; the A* graph is a subgraph of it with costs >= filter scale times these, so for any
// landmark L |d(L, goal) - d(L, n)| <= d(n, goal) bounds the A* cost from n below, consistently.
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/planning/graph.hpp"

namespace leapnav::plan::detail {

struct Landmarks {
  /// Landmarks per island (unused slots of a smaller or skipped island hold distance 0).
  static constexpr std::uint32_t kSlots = 8;
  /// Islands with fewer walk arcs get no landmarks (the straight-line heuristic is enough).
  static constexpr std::uint32_t kMinIslandArcs = 64;
  /// Per arc, kSlots distances [units: m]: arc * kSlots + k is the unit-cost graph distance from
  /// landmark k of the arc's island to the arc's portal midpoint (0 for jump arcs and unused
  /// slots).
  std::vector<float> distance;
  /// Per island: its landmark arcs (kSlots per island, kNoArc when unused).
  std::vector<std::uint32_t> landmark_arc;
  /// Per island: an upper bound on the rounding error of a difference of two of its distances
  /// [units: m]; the heuristic subtracts it so float rounding cannot make it overestimate.
  std::vector<float> slack;

  [[nodiscard]] bool empty() const { return distance.empty(); }
};

/// Landmarks of the walk arcs of `graph` whose portal midpoints are `arc_mid`, per island
/// (`island`: per polygon, walk arcs only, numbered 0 .. islands - 1). The Dijkstras run on all
/// hardware threads; the result does not depend on their number (ties in the farthest-point
/// selection go to the lower arc id).
[[nodiscard]] Landmarks build_landmarks(const NavGraph& graph, const std::vector<Vec2>& arc_mid,
                                        const std::vector<std::uint32_t>& island);

}  // namespace leapnav::plan::detail
