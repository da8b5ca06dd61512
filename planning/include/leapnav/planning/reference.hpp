// The exact reference for walking paths: Euclidean shortest paths in the xz plane over the union
// of the navmesh's polygons, by Dijkstra over a visibility graph whose nodes are the start, the
// goal and the mesh's reflex boundary corners (the only places a shortest path bends), one per fan
// of polygons joined across shared edges around a vertex. Visibility
// walks the segment through the polygons it crosses (clipping against each convex polygon and
// stepping across portals or around shared vertices), so overlapping levels are kept apart.
// Slow (quadratic in the reflex vertices at construction); for tests and the benchmark's
// optimality gap, not for agents.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::plan {

class ExactReference {
 public:
  /// Builds the vertex-to-vertex visibility graph. The mesh must pass mesh::validate and outlive
  /// this object. `tolerance` is how far a segment may stray outside the polygons [units: m].
  explicit ExactReference(const mesh::NavMesh& mesh, float tolerance = 1e-4F);

  struct ShortestPath {
    double length = 0.0;       ///< in xz [units: m]
    std::vector<Vec2> points;  ///< start, reflex vertices, goal (xz)
  };

  /// The shortest path from `start` (xz inside polygon start_poly) to `goal` (inside goal_poly),
  /// or nullopt when none exists.
  [[nodiscard]] std::optional<ShortestPath> shortest_path(Vec2 start, mesh::PolyId start_poly,
                                                          Vec2 goal, mesh::PolyId goal_poly) const;

  /// Whether the segment from `a` (inside polygon `from`) to `b` stays within the mesh, ending in
  /// polygon `to` (or in any polygon when `to` is nullopt).
  [[nodiscard]] bool segment_on_mesh(Vec2 a, mesh::PolyId from, Vec2 b,
                                     std::optional<mesh::PolyId> to = std::nullopt) const;

  /// Number of reflex boundary corners (visibility graph nodes besides start and goal; a pinch
  /// vertex may count once per fan).
  [[nodiscard]] std::size_t reflex_vertex_count() const { return reflex_.size(); }

 private:
  template <class Accept>
  bool walk(Vec2 a, std::uint32_t from, Vec2 b, const Accept& accept) const;
  /// Whether `b` is seen from reflex node `node` within its fan's polygons, ending in `targets`.
  [[nodiscard]] bool visible_from_node(std::uint32_t node, Vec2 b,
                                       const std::vector<std::uint32_t>& targets) const;

  const mesh::NavMesh* mesh_;
  float tolerance_;
  std::vector<std::uint32_t> reflex_;  ///< mesh vertex index per reflex node (a vertex's fan)
  /// The polygons of each reflex node's fan, CSR.
  std::vector<std::uint32_t> node_poly_first_{0};
  std::vector<std::uint32_t> node_polys_;
  /// Visibility between reflex nodes, CSR with lengths.
  std::vector<std::uint32_t> edge_first_;
  std::vector<std::uint32_t> edge_target_;
  std::vector<double> edge_length_;
};

}  // namespace leapnav::plan
