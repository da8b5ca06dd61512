// The navigation graph (thesis §6.1): one vertex per navmesh polygon, one directed arc per way out
// of a polygon. A walk arc exists for every shared polygon edge (the portal), once in each
// direction, so the undirected walk edge is the arc pair; a directed jump arc exists for every
// JumpLinkSet group (start polygon -> land polygon with at least one link). CSR layout: the arcs
// out of polygon p are [arc_first[p], arc_first[p + 1]), walk arcs in the order of p's edges, then
// jump arcs in group order. boost_graph.hpp adapts it to Boost.Graph.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::plan {

/// How an arc is traversed.
enum class EdgeKind : std::uint8_t {
  Walk,  ///< through a portal; arc_index is the portal's slot in NavMesh::poly_vertices
  Jump,  ///< along one of a JumpLinkSet group's links; arc_index is the group id
};

/// An arc index into NavGraph's arc arrays.
enum class ArcId : std::uint32_t {};
inline constexpr std::uint32_t kNoArc = 0xFFFFFFFFU;
[[nodiscard]] constexpr std::uint32_t index(ArcId id) {
  return static_cast<std::uint32_t>(id);
}

struct NavGraph {
  /// Arcs out of polygon p: [arc_first[p], arc_first[p + 1]); size polygon count + 1.
  std::vector<std::uint32_t> arc_first;
  std::vector<std::uint32_t> arc_source;  ///< the polygon an arc leaves
  std::vector<std::uint32_t> arc_target;  ///< the polygon an arc enters
  std::vector<EdgeKind> arc_kind;
  /// Walk: slot s of the portal in NavMesh::poly_vertices (the edge from vertex s to the next
  /// vertex of the source polygon, wrapping); Jump: the group id in JumpLinkSet (its links are
  /// [group_first[g], group_first[g + 1])).
  std::vector<std::uint32_t> arc_index;

  [[nodiscard]] std::size_t vertex_count() const {
    return arc_first.empty() ? 0 : arc_first.size() - 1;
  }
  [[nodiscard]] std::size_t arc_count() const { return arc_target.size(); }
  /// The first and one-past-last arc out of polygon p.
  [[nodiscard]] std::uint32_t out_begin(std::uint32_t p) const { return arc_first[p]; }
  [[nodiscard]] std::uint32_t out_end(std::uint32_t p) const { return arc_first[p + 1]; }
};

/// The walk graph of a navmesh: a walk arc for every polygon edge with a neighbour, in slot order.
/// The mesh must satisfy mesh::validate (symmetric adjacency); this is not re-checked here.
[[nodiscard]] NavGraph build_graph(const mesh::NavMesh& mesh);

/// The walk graph plus one jump arc per group of `links` (after the walk arcs of the group's start
/// polygon, in group order). `links` may be null (the walk graph); otherwise it must satisfy
/// jump::validate against the mesh (not re-checked here).
[[nodiscard]] NavGraph build_graph(const mesh::NavMesh& mesh, const jump::JumpLinkSet* links);

/// Invariants against the mesh: CSR sizes, sources and targets in range and matching arc_first,
/// walk arcs naming a slot of their source polygon whose neighbour is their target, every walk
/// arc having its reverse, walk arcs before jump arcs, and (with `links`) jump arcs naming a group
/// of their source polygon whose land polygon is their target, one arc per group. Without `links`
/// any jump arc is an error.
[[nodiscard]] Status validate(const NavGraph& graph, const mesh::NavMesh& mesh,
                              const jump::JumpLinkSet* links = nullptr);

/// Connected components of the graph with arcs taken as undirected: component id per polygon,
/// numbered 0, 1, ... in order of the lowest polygon id they contain.
[[nodiscard]] std::vector<std::uint32_t> connected_components(const NavGraph& graph);

/// Strongly connected components of the directed arcs (Tarjan's algorithm, iterative, roots in
/// polygon order): `component` gets the id per polygon, numbered in order of completion, which is
/// a reverse topological order of the condensation (a component completes after every component
/// it reaches). Returns the component count. The planner's and the tile world's reach tables are
/// built on this numbering.
std::uint32_t strong_components(const NavGraph& graph, std::vector<std::uint32_t>& component);

}  // namespace leapnav::plan
