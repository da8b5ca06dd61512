// Independent checks on planned paths: corridor containment by sampling, the portal-midpoint
// polyline's length, and Boost's Dijkstra over the A* search graph (arcs as nodes) built through
// the Boost.Graph interface of NavGraph.
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/boost_graph.hpp"
#include "leapnav/planning/path.hpp"
#include "leapnav/planning/query.hpp"

namespace leapnav::test {

/// Whether xz point p lies in polygon `poly` within `tolerance` (by edge distances).
inline bool in_polygon(const mesh::NavMesh& nav, mesh::PolyId poly, Vec2 p, float tolerance) {
  const auto verts = nav.polygon(poly);
  for (std::size_t k = 0; k < verts.size(); ++k) {
    const Vec2 a = xz(nav.vertices[verts[k]]);
    const Vec2 b = xz(nav.vertices[verts[(k + 1) % verts.size()]]);
    const Vec2 e = b - a;
    if (cross(e, p - a) / length(e) < -tolerance) return false;
  }
  return true;
}

/// Every segment of the path, sampled finely, lies in the union of its corridor's polygons.
inline bool path_inside_corridor(const mesh::NavMesh& nav, const plan::Path& path,
                                 float tolerance) {
  for (std::size_t i = 0; i + 1 < path.points.size(); ++i) {
    const Vec2 a = xz(path.points[i]);
    const Vec2 b = xz(path.points[i + 1]);
    const int steps = 64;
    for (int k = 0; k <= steps; ++k) {
      const float t = static_cast<float>(k) / steps;
      const Vec2 p = a + (b - a) * t;
      bool inside = false;
      for (const mesh::PolyId poly : path.corridor) {
        if (in_polygon(nav, poly, p, tolerance)) {
          inside = true;
          break;
        }
      }
      if (!inside) return false;
    }
  }
  return true;
}

/// The portal ends of walk arc a (right, left as seen from its source).
inline std::pair<Vec2, Vec2> arc_portal(const mesh::NavMesh& nav, const plan::NavGraph& graph,
                                        std::uint32_t a) {
  const std::uint32_t slot = graph.arc_index[a];
  const std::uint32_t p = graph.arc_source[a];
  const std::uint32_t next = slot + 1 == nav.poly_first[p + 1] ? nav.poly_first[p] : slot + 1;
  return {xz(nav.vertices[nav.poly_vertices[slot]]), xz(nav.vertices[nav.poly_vertices[next]])};
}

/// Length of start -> portal midpoints of the corridor -> end.
inline double midpoint_length(const mesh::NavMesh& nav, const plan::NavGraph& graph,
                              const plan::Path& path) {
  Vec2 previous = xz(path.points.front());
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < path.corridor.size(); ++i) {
    const std::uint32_t p = mesh::index(path.corridor[i]);
    const std::uint32_t q = mesh::index(path.corridor[i + 1]);
    for (std::uint32_t a = graph.out_begin(p); a < graph.out_end(p); ++a) {
      if (graph.arc_target[a] != q) continue;
      const auto [r, l] = arc_portal(nav, graph, a);
      const Vec2 mid{0.5F * (r.x + l.x), 0.5F * (r.y + l.y)};
      total += distance(previous, mid);
      previous = mid;
      break;
    }
  }
  return total + distance(previous, xz(path.points.back()));
}

/// The shortest start-to-goal cost in A*'s search graph (nodes: arcs, a start and a goal node;
/// costs: xz distances between crossing points), by Boost's dijkstra_shortest_paths. The graph
/// is enumerated through NavGraph's Boost.Graph interface.
inline double arc_graph_dijkstra(const mesh::NavMesh& nav, const plan::NavGraph& graph,
                                 const plan::Path& path, plan::CrossingPoint model) {
  const Vec2 s = xz(path.points.front());
  const Vec2 g = xz(path.points.back());
  const std::uint32_t start_poly = mesh::index(path.corridor.front());
  const std::uint32_t goal_poly = mesh::index(path.corridor.back());
  if (start_poly == goal_poly) return distance(s, g);
  const auto arcs = static_cast<std::uint32_t>(num_edges(graph));
  const std::uint32_t start_node = arcs;
  const std::uint32_t goal_node = arcs + 1;
  std::vector<Vec2> pos(arcs);
  auto [e, e_end] = edges(graph);
  for (; e != e_end; ++e) {
    const auto [r, l] = arc_portal(nav, graph, plan::index(*e));
    pos[plan::index(*e)] = plan::crossing_point(r, l, s, g, model);
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  std::vector<double> weights;
  const auto add = [&](std::uint32_t from, std::uint32_t to, double w) {
    links.emplace_back(from, to);
    weights.push_back(w);
  };
  auto [out, out_end] = out_edges(start_poly, graph);
  for (; out != out_end; ++out)
    add(start_node, plan::index(*out), distance(s, pos[plan::index(*out)]));
  for (std::uint32_t a = 0; a < arcs; ++a) {
    const std::uint32_t q = target(plan::ArcId{a}, graph);
    if (q == goal_poly) add(a, goal_node, distance(pos[a], g));
    auto [next, next_end] = out_edges(q, graph);
    for (; next != next_end; ++next) {
      add(a, plan::index(*next), distance(pos[a], pos[plan::index(*next)]));
    }
  }
  // note: edges_are_unsorted_multi_pass reorders edges; weights travel as edge properties.
  struct Weight {
    double w;
  };
  std::vector<Weight> props;
  props.reserve(weights.size());
  for (const double w : weights) props.push_back({w});
  using Csr = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, Weight>;
  const Csr csr(boost::edges_are_unsorted_multi_pass, links.begin(), links.end(), props.begin(),
                arcs + 2);
  std::vector<double> dist(arcs + 2);
  boost::dijkstra_shortest_paths(csr, start_node,
                                 boost::weight_map(boost::get(&Weight::w, csr))
                                     .distance_map(boost::make_iterator_property_map(
                                         dist.begin(), boost::get(boost::vertex_index, csr))));
  return dist[goal_node];
}

}  // namespace leapnav::test
