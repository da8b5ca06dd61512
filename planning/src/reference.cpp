// Exact shortest walking paths for reference: a visibility graph over reflex boundary corners
// plus start and goal, Dijkstra on it. A corner is a fan of a vertex (the polygons around it joined
// across the edges they share there) that meets the boundary with an interior angle above 180
// degrees: a vertex two polygons share without a shared edge (a pinch) is one corner per fan, and
// a path never passes from one fan to the other through it, as the mesh's adjacency does not.
// Visibility of a segment: clip it against the current convex polygon (Cyrus-Beck, with a
// tolerance), and where it leaves, continue into the neighbour across the edge it leaves by (at a
// vertex, around the vertex across shared edges); it is visible when it ends in an accepted
// polygon.
#include "leapnav/planning/reference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <queue>

namespace leapnav::plan {
namespace {

struct Clip {
  double t_in;
  double t_out;
};

double dist2(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(a.x) - b.x;
  const double dy = static_cast<double>(a.y) - b.y;
  return dx * dx + dy * dy;
}

double point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const double abx = static_cast<double>(b.x) - a.x;
  const double aby = static_cast<double>(b.y) - a.y;
  const double len2 = abx * abx + aby * aby;
  double t = len2 > 0.0 ? ((p.x - a.x) * abx + (p.y - a.y) * aby) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const double dx = p.x - (a.x + t * abx);
  const double dy = p.y - (a.y + t * aby);
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

ExactReference::ExactReference(const mesh::NavMesh& mesh, float tolerance)
    : mesh_(&mesh), tolerance_(tolerance) {
  const std::size_t vertex_count = mesh.vertices.size();
  const std::size_t polygons = mesh.polygon_count();
  // incidences (vertex, polygon) grouped by vertex: the polygon, the vertex's position in it
  std::vector<std::uint32_t> first(vertex_count + 1, 0);
  for (const std::uint32_t v : mesh.poly_vertices) ++first[v + 1];
  for (std::size_t v = 0; v < vertex_count; ++v) first[v + 1] += first[v];
  std::vector<std::uint32_t> slot(mesh.poly_vertices.size());
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::uint32_t p = 0; p < polygons; ++p) {
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      slot[fill[mesh.poly_vertices[s]]++] = s;
    }
  }
  std::vector<std::uint32_t> slot_poly(mesh.poly_vertices.size());
  for (std::uint32_t p = 0; p < polygons; ++p) {
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) slot_poly[s] = p;
  }
  // fans: the polygons around a vertex joined across the edges they share at it (a path passes
  // between polygons only across a shared edge, never through a lone shared vertex)
  std::vector<std::uint32_t> parent;
  const auto find = [&parent](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<std::uint32_t> members;
  for (std::uint32_t v = 0; v < vertex_count; ++v) {
    const std::uint32_t n = first[v + 1] - first[v];
    if (n == 0) continue;
    parent.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) parent[i] = i;
    const auto local = [&](std::uint32_t p) {
      for (std::uint32_t i = 0; i < n; ++i) {
        if (slot_poly[slot[first[v] + i]] == p) return i;
      }
      return n;
    };
    std::vector<double> angle(n, 0.0);
    std::vector<std::uint8_t> boundary(n, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t s = slot[first[v] + i];
      const std::uint32_t p = slot_poly[s];
      const std::uint32_t pf = mesh.poly_first[p];
      const std::uint32_t count = mesh.poly_first[p + 1] - pf;
      const std::uint32_t k = s - pf;
      const std::uint32_t prev_slot = pf + (k + count - 1) % count;
      const Vec3 prev = mesh.vertices[mesh.poly_vertices[prev_slot]];
      const Vec3 here = mesh.vertices[v];
      const Vec3 next = mesh.vertices[mesh.poly_vertices[pf + (k + 1) % count]];
      const double ax = static_cast<double>(prev.x) - here.x;
      const double az = static_cast<double>(prev.z) - here.z;
      const double bx = static_cast<double>(next.x) - here.x;
      const double bz = static_cast<double>(next.z) - here.z;
      angle[i] = std::atan2(std::fabs(ax * bz - az * bx), ax * bx + az * bz);
      // the two edges at v: from v (slot s) and into v (slot prev_slot)
      for (const std::uint32_t e : {s, prev_slot}) {
        const std::uint32_t q = mesh.poly_neighbors[e];
        if (q == mesh::kNoPoly) {
          boundary[i] = 1;
          continue;
        }
        const std::uint32_t j = local(q);
        if (j < n && find(i) != find(j)) parent[find(i)] = find(j);
      }
    }
    for (std::uint32_t root = 0; root < n; ++root) {
      if (find(root) != root) continue;
      double fan_angle = 0.0;
      bool open = false;
      members.clear();
      for (std::uint32_t i = 0; i < n; ++i) {
        if (find(i) != root) continue;
        fan_angle += angle[i];
        open = open || boundary[i] != 0;
        members.push_back(slot_poly[slot[first[v] + i]]);
      }
      if (!open || fan_angle <= std::numbers::pi + 1e-6) continue;
      reflex_.push_back(v);
      node_polys_.insert(node_polys_.end(), members.begin(), members.end());
      node_poly_first_.push_back(static_cast<std::uint32_t>(node_polys_.size()));
    }
  }

  // visibility between reflex vertices (symmetric: computed once per pair)
  const std::size_t r = reflex_.size();
  std::vector<std::vector<std::pair<std::uint32_t, double>>> adjacency(r);
  std::vector<std::uint32_t> targets;
  for (std::uint32_t i = 0; i < r; ++i) {
    for (std::uint32_t j = i + 1; j < r; ++j) {
      const std::uint32_t vj = reflex_[j];
      targets.assign(node_polys_.begin() + node_poly_first_[j],
                     node_polys_.begin() + node_poly_first_[j + 1]);
      if (!visible_from_node(i, xz(mesh.vertices[vj]), targets)) continue;
      const double length = std::sqrt(dist2(xz(mesh.vertices[reflex_[i]]), xz(mesh.vertices[vj])));
      adjacency[i].emplace_back(j, length);
      adjacency[j].emplace_back(i, length);
    }
  }
  edge_first_.assign(r + 1, 0);
  for (std::size_t i = 0; i < r; ++i) {
    edge_first_[i + 1] = edge_first_[i] + static_cast<std::uint32_t>(adjacency[i].size());
    for (const auto& [j, length] : adjacency[i]) {
      edge_target_.push_back(j);
      edge_length_.push_back(length);
    }
  }
}

template <class Accept>
bool ExactReference::walk(Vec2 a, std::uint32_t from, Vec2 b, const Accept& accept) const {
  const mesh::NavMesh& mesh = *mesh_;
  const double dx = static_cast<double>(b.x) - a.x;
  const double dy = static_cast<double>(b.y) - a.y;
  const double len = std::sqrt(dx * dx + dy * dy);
  const double eps = tolerance_;
  const double t_eps = len > 0.0 ? eps / len : 1.0;

  const auto clip = [&](std::uint32_t p, double t0) -> std::optional<Clip> {
    double t_in = t0;
    double t_out = 1.0;
    const std::uint32_t first = mesh.poly_first[p];
    const std::uint32_t last = mesh.poly_first[p + 1];
    for (std::uint32_t s = first; s < last; ++s) {
      const Vec3 u3 = mesh.vertices[mesh.poly_vertices[s]];
      const Vec3 v3 = mesh.vertices[mesh.poly_vertices[s + 1 == last ? first : s + 1]];
      const double ex = static_cast<double>(v3.x) - u3.x;
      const double ey = static_cast<double>(v3.z) - u3.z;
      const double elen = std::sqrt(ex * ex + ey * ey);
      if (elen == 0.0) continue;
      // inside: cross(e, p(t) - u) / |e| >= -eps, linear in t
      const double c0 = (ex * (a.y - u3.z) - ey * (a.x - u3.x)) / elen + eps;
      const double c1 = (ex * dy - ey * dx) / elen;
      if (c1 == 0.0) {
        if (c0 < 0.0) return std::nullopt;
        continue;
      }
      const double t = -c0 / c1;
      if (c1 > 0.0) {
        t_in = std::max(t_in, t);
      } else {
        t_out = std::min(t_out, t);
      }
    }
    if (t_in > t_out) return std::nullopt;
    return Clip{t_in, t_out};
  };

  std::vector<std::uint32_t> visited{from};
  std::vector<std::pair<std::uint32_t, double>> stack{{from, 0.0}};
  while (!stack.empty()) {
    const auto [p, t] = stack.back();
    stack.pop_back();
    // note: the tolerance bands of neighbouring polygons differ at a vertex, so a polygon is
    // clipped from slightly before the point where the walk entered it.
    const auto range = clip(p, std::max(0.0, t - 4.0 * t_eps));
    if (!range || range->t_in > t + t_eps) continue;
    const double t_out = range->t_out;
    if (t_out >= 1.0 - t_eps && accept(p)) return true;
    const Vec2 e{static_cast<float>(a.x + t_out * dx), static_cast<float>(a.y + t_out * dy)};
    const double t_back = std::max(0.0, t_out - 4.0 * t_eps);
    const auto try_candidate = [&](std::uint32_t c) {
      if (std::find(visited.begin(), visited.end(), c) != visited.end()) return;
      const auto next = clip(c, t_back);
      if (!next || next->t_in > t_out + t_eps) return;
      visited.push_back(c);
      stack.emplace_back(c, t_out);
    };
    const std::uint32_t first = mesh.poly_first[p];
    const std::uint32_t last = mesh.poly_first[p + 1];
    for (std::uint32_t s = first; s < last; ++s) {
      // note: at a vertex both incident edges qualify, and the neighbours found there continue
      // around the vertex in turn; polygons touching only at the vertex are never entered.
      const Vec2 u = xz(mesh.vertices[mesh.poly_vertices[s]]);
      const Vec2 w = xz(mesh.vertices[mesh.poly_vertices[s + 1 == last ? first : s + 1]]);
      if (mesh.poly_neighbors[s] != mesh::kNoPoly && point_segment_distance(e, u, w) <= 4.0 * eps) {
        try_candidate(mesh.poly_neighbors[s]);
      }
    }
  }
  return false;
}

bool ExactReference::visible_from_node(std::uint32_t node, Vec2 b,
                                       const std::vector<std::uint32_t>& targets) const {
  const Vec2 a = xz(mesh_->vertices[reflex_[node]]);
  const auto accept = [&](std::uint32_t p) {
    return std::find(targets.begin(), targets.end(), p) != targets.end();
  };
  for (std::uint32_t k = node_poly_first_[node]; k < node_poly_first_[node + 1]; ++k) {
    if (walk(a, node_polys_[k], b, accept)) return true;
  }
  return false;
}

bool ExactReference::segment_on_mesh(Vec2 a, mesh::PolyId from, Vec2 b,
                                     std::optional<mesh::PolyId> to) const {
  return walk(a, mesh::index(from), b,
              [&](std::uint32_t p) { return !to.has_value() || p == mesh::index(*to); });
}

std::optional<ExactReference::ShortestPath> ExactReference::shortest_path(
    Vec2 start, mesh::PolyId start_poly, Vec2 goal, mesh::PolyId goal_poly) const {
  const mesh::NavMesh& mesh = *mesh_;
  const std::uint32_t sp = mesh::index(start_poly);
  const std::uint32_t gp = mesh::index(goal_poly);
  const auto accept_goal = [gp](std::uint32_t p) { return p == gp; };
  if (walk(start, sp, goal, accept_goal)) {
    return ShortestPath{std::sqrt(dist2(start, goal)), {start, goal}};
  }
  const auto r = static_cast<std::uint32_t>(reflex_.size());
  const std::uint32_t source = r;
  const std::uint32_t sink = r + 1;
  std::vector<double> best(r + 2, std::numeric_limits<double>::infinity());
  std::vector<std::uint32_t> parent(r + 2, source);
  std::vector<std::uint8_t> to_goal(r, 0);
  const std::vector<std::uint32_t> goal_targets{gp};
  for (std::uint32_t i = 0; i < r; ++i) {
    to_goal[i] = visible_from_node(i, goal, goal_targets) ? 1 : 0;
  }
  using Entry = std::pair<double, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  for (std::uint32_t i = 0; i < r; ++i) {
    const std::uint32_t v = reflex_[i];
    const Vec2 pv = xz(mesh.vertices[v]);
    const auto accept_vertex = [&](std::uint32_t p) {
      for (std::uint32_t k = node_poly_first_[i]; k < node_poly_first_[i + 1]; ++k) {
        if (node_polys_[k] == p) return true;
      }
      return false;
    };
    if (walk(start, sp, pv, accept_vertex)) {
      best[i] = std::sqrt(dist2(start, pv));
      open.emplace(best[i], i);
    }
  }
  while (!open.empty()) {
    const auto [d, n] = open.top();
    open.pop();
    if (d > best[n]) continue;
    if (n == sink) break;
    const Vec2 pn = xz(mesh.vertices[reflex_[n]]);
    if (to_goal[n] != 0) {
      const double g = d + std::sqrt(dist2(pn, goal));
      if (g < best[sink]) {
        best[sink] = g;
        parent[sink] = n;
        open.emplace(g, sink);
      }
    }
    for (std::uint32_t e = edge_first_[n]; e < edge_first_[n + 1]; ++e) {
      const std::uint32_t m = edge_target_[e];
      const double g = d + edge_length_[e];
      if (g < best[m]) {
        best[m] = g;
        parent[m] = n;
        open.emplace(g, m);
      }
    }
  }
  if (!std::isfinite(best[sink])) return std::nullopt;
  ShortestPath path;
  path.length = best[sink];
  path.points.push_back(goal);
  for (std::uint32_t n = parent[sink]; n != source; n = parent[n]) {
    path.points.push_back(xz(mesh.vertices[reflex_[n]]));
  }
  path.points.push_back(start);
  std::reverse(path.points.begin(), path.points.end());
  return path;
}

}  // namespace leapnav::plan
