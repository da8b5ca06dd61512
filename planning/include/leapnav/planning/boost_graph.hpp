// Boost.Graph adaptation of NavGraph: it models VertexListGraph, IncidenceGraph and EdgeListGraph
// (directed; each undirected walk edge is an arc pair). Vertex descriptors are polygon indices,
// edge descriptors ArcIds; vertex_index and edge_index are identity maps, so property maps over
// std::vectors indexed by polygon or arc work directly. Include only where Boost is wanted: the
// rest of the planning API does not depend on Boost.
#pragma once

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/function_property_map.hpp>
#include <boost/property_map/property_map.hpp>
#include <cstdint>
#include <iterator>
#include <utility>

#include "leapnav/planning/graph.hpp"

namespace leapnav::plan {

/// Iterates ArcIds over a contiguous range of arcs.
class ArcIterator
    : public boost::iterator_facade<ArcIterator, ArcId, std::random_access_iterator_tag, ArcId> {
 public:
  ArcIterator() = default;
  explicit ArcIterator(std::uint32_t arc) : arc_(arc) {}

 private:
  friend class boost::iterator_core_access;
  [[nodiscard]] ArcId dereference() const { return ArcId{arc_}; }
  [[nodiscard]] bool equal(const ArcIterator& other) const { return arc_ == other.arc_; }
  void increment() { ++arc_; }
  void decrement() { --arc_; }
  void advance(std::ptrdiff_t n) { arc_ = static_cast<std::uint32_t>(arc_ + n); }
  [[nodiscard]] std::ptrdiff_t distance_to(const ArcIterator& other) const {
    return static_cast<std::ptrdiff_t>(other.arc_) - static_cast<std::ptrdiff_t>(arc_);
  }
  std::uint32_t arc_ = 0;
};

/// The identity map ArcId -> arc index (Boost's edge_index).
struct ArcIndexMap {
  using key_type = ArcId;
  using value_type = std::uint32_t;
  using reference = std::uint32_t;
  using category = boost::readable_property_map_tag;
  friend std::uint32_t get(ArcIndexMap, ArcId arc) { return index(arc); }
};

struct NavGraphTraversalTag : virtual boost::incidence_graph_tag,
                              virtual boost::vertex_list_graph_tag,
                              virtual boost::edge_list_graph_tag {};

}  // namespace leapnav::plan

namespace boost {

template <>
struct graph_traits<leapnav::plan::NavGraph> {
  using vertex_descriptor = std::uint32_t;
  using edge_descriptor = leapnav::plan::ArcId;
  using directed_category = directed_tag;
  using edge_parallel_category = allow_parallel_edge_tag;
  using traversal_category = leapnav::plan::NavGraphTraversalTag;
  using out_edge_iterator = leapnav::plan::ArcIterator;
  using edge_iterator = leapnav::plan::ArcIterator;
  using vertex_iterator = counting_iterator<std::uint32_t>;
  using degree_size_type = std::uint32_t;
  using vertices_size_type = std::uint32_t;
  using edges_size_type = std::uint32_t;
  using adjacency_iterator = void;
  using in_edge_iterator = void;
  static vertex_descriptor null_vertex() { return leapnav::mesh::kNoPoly; }
};

template <>
struct property_map<leapnav::plan::NavGraph, vertex_index_t> {
  using type = typed_identity_property_map<std::uint32_t>;
  using const_type = type;
};

template <>
struct property_map<leapnav::plan::NavGraph, edge_index_t> {
  using type = leapnav::plan::ArcIndexMap;
  using const_type = type;
};

}  // namespace boost

namespace leapnav::plan {

inline std::pair<ArcIterator, ArcIterator> out_edges(std::uint32_t v, const NavGraph& g) {
  return {ArcIterator(g.out_begin(v)), ArcIterator(g.out_end(v))};
}
inline std::uint32_t out_degree(std::uint32_t v, const NavGraph& g) {
  return g.out_end(v) - g.out_begin(v);
}
inline std::uint32_t source(ArcId e, const NavGraph& g) {
  return g.arc_source[index(e)];
}
inline std::uint32_t target(ArcId e, const NavGraph& g) {
  return g.arc_target[index(e)];
}
inline std::pair<boost::counting_iterator<std::uint32_t>, boost::counting_iterator<std::uint32_t>>
vertices(const NavGraph& g) {
  return {boost::counting_iterator<std::uint32_t>(0),
          boost::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(g.vertex_count()))};
}
inline std::uint32_t num_vertices(const NavGraph& g) {
  return static_cast<std::uint32_t>(g.vertex_count());
}
inline std::pair<ArcIterator, ArcIterator> edges(const NavGraph& g) {
  return {ArcIterator(0), ArcIterator(static_cast<std::uint32_t>(g.arc_count()))};
}
inline std::uint32_t num_edges(const NavGraph& g) {
  return static_cast<std::uint32_t>(g.arc_count());
}
inline boost::typed_identity_property_map<std::uint32_t> get(boost::vertex_index_t,
                                                             const NavGraph&) {
  return {};
}
inline ArcIndexMap get(boost::edge_index_t, const NavGraph&) {
  return {};
}

}  // namespace leapnav::plan
