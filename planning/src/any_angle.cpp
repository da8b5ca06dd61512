// Exact any-angle walking search (Polyanya; Cui, Harabor, Grastien, IJCAI 2017), see
// any_angle.hpp. Expanding node (root r, interval [L, R] on edge e of polygon Q): each other edge
// of Q is split by the lines r-R and r-L into the part right of r-R (hidden behind R: a successor
// rooted at R when R is the edge's vertex and a corner), the part inside the cone (observable:
// root r) and the part left of r-L (rooted at L likewise). A root that is not strictly outside
// Q's entry edge (it lies on that edge's line, e.g. a corner at one of its ends) sees all of Q
// when it projects onto the interval; otherwise the path must turn at the interval's nearer end.
// The heuristic is admissible (the straight distance via the interval, the goal mirrored when on
// the root's side) and a popped node in the goal polygon carries its exact cost, so the first one
// popped is optimal. Root-level pruning: a node whose root was reached more cheaply is dropped
// (a root's cheapest path followed by the node's straight continuation is shorter and valid).
#include "any_angle.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace leapnav::plan::detail {
namespace {

DPoint operator-(DPoint a, DPoint b) {
  return {a.x - b.x, a.z - b.z};
}
double cross(DPoint a, DPoint b) {
  return a.x * b.z - a.z * b.x;
}
double dot(DPoint a, DPoint b) {
  return a.x * b.x + a.z * b.z;
}
double dist(DPoint a, DPoint b) {
  const double dx = a.x - b.x;
  const double dz = a.z - b.z;
  return std::sqrt(dx * dx + dz * dz);
}
DPoint lerp(DPoint a, DPoint b, double t) {
  return {a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t};
}

/// The shortest length of root -> p -> goal over p on segment [a, b].
double via_segment(DPoint root, DPoint a, DPoint b, DPoint goal) {
  const DPoint ab = b - a;
  const double len2 = dot(ab, ab);
  if (len2 <= 0.0) return dist(root, a) + dist(a, goal);
  // note: distances from the line times |ab|; only their ratio matters
  const double dr = std::fabs(cross(ab, root - a));
  const double dg = std::fabs(cross(ab, goal - a));
  const double tr = dot(root - a, ab) / len2;
  const double tg = dot(goal - a, ab) / len2;
  const auto through = [&](double t) {
    const DPoint p = lerp(a, b, std::clamp(t, 0.0, 1.0));
    return dist(root, p) + dist(p, goal);
  };
  // note: with the goal mirrored onto the far side of the line when it is on the root's side,
  // the straight line root -> goal crosses the line at this parameter; the length along the
  // segment is convex, so its clamp is the minimum
  if (dr + dg > 0.0) return through(tr + (tg - tr) * dr / (dr + dg));
  return std::min({through(0.0), through(1.0), through(tr), through(tg)});
}

double distance_to_segment(DPoint p, DPoint a, DPoint b) {
  const DPoint ab = b - a;
  const double len2 = dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return dist(p, lerp(a, b, t));
}

/// A parameter range [lo, hi] on an edge; empty when lo > hi.
struct Range {
  double lo = 0.0;
  double hi = 1.0;
  [[nodiscard]] bool empty() const { return lo > hi; }
};
constexpr Range kEmpty{1.0, 0.0};
/// The start's key among roots (fans are numbered from 0).
constexpr std::uint32_t kStartKey = 0xFFFFFFFEU;

Range intersect(Range a, Range b) {
  return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
}
/// Where the linear function with values fa at t = 0 and fb at t = 1 is >= 0.
Range at_least_zero(double fa, double fb) {
  if (fa >= 0.0 && fb >= 0.0) return {};
  if (fa < 0.0 && fb < 0.0) return kEmpty;
  const double t = std::clamp(fa / (fa - fb), 0.0, 1.0);
  return fa >= 0.0 ? Range{0.0, t} : Range{t, 1.0};
}
/// Where it is < 0 (closed at the crossing: a boundary point belongs to both sides).
Range below_zero(double fa, double fb) {
  if (fa < 0.0 && fb < 0.0) return {};
  if (fa >= 0.0 && fb >= 0.0) return kEmpty;
  const double t = std::clamp(fa / (fa - fb), 0.0, 1.0);
  return fa < 0.0 ? Range{0.0, t} : Range{t, 1.0};
}

/// Slack for root-level pruning: equal paths summed in another order differ by rounding.
double prune_slack(double g) {
  return 1e-9 * (1.0 + g);
}

std::uint32_t find(std::vector<std::uint32_t>& parent, std::uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

/// The open list's order: f in whole micrometres first (paths that differ by less are equally
/// short), then the deeper node (larger g: every node on an optimal path has the same f, and
/// following it reaches the goal without expanding its equals), then creation order.
AnyAngleSearch::HeapEntry AnyAngleSearch::entry(std::uint32_t k) {
  // note: f is computed here, when the node goes on the heap (a handed-on node needs none)
  Node& node = nodes_[k];
  node.f = node.g + via_segment(node.root, node.left, node.right, goal_);
  return {static_cast<std::int64_t>(std::llround(node.f * 1e6)), node.g, k};
}

bool AnyAngleSearch::later(const HeapEntry& x, const HeapEntry& y) {
  if (x.key != y.key) return x.key > y.key;
  if (x.g != y.g) return x.g < y.g;
  return x.node > y.node;
}

AnyAngleMesh build_any_angle_mesh(const mesh::NavMesh& mesh, const NavGraph& graph) {
  AnyAngleMesh data;
  const std::size_t slots = mesh.poly_vertices.size();
  double lo_x = 0.0;
  double lo_z = 0.0;
  double hi_x = 0.0;
  double hi_z = 0.0;
  double magnitude = 0.0;
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    const double x = mesh.vertices[v].x;
    const double z = mesh.vertices[v].z;
    lo_x = v == 0 ? x : std::min(lo_x, x);
    hi_x = v == 0 ? x : std::max(hi_x, x);
    lo_z = v == 0 ? z : std::min(lo_z, z);
    hi_z = v == 0 ? z : std::max(hi_z, z);
    magnitude = std::max({magnitude, std::fabs(x), std::fabs(z)});
  }
  data.origin_x = 0.5 * (lo_x + hi_x);
  data.origin_z = 0.5 * (lo_z + hi_z);
  // note: float vertices far from the origin are off their exact positions by up to half a float
  // step, so points meant to lie on one line may miss it by that much
  data.tolerance = 1e-7 * std::hypot(hi_x - lo_x, hi_z - lo_z) + 4.0 * FLT_EPSILON * magnitude;
  data.vertices.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) {
    data.vertices.push_back({double{v.x} - data.origin_x, double{v.z} - data.origin_z});
  }
  data.slot_twin.assign(slots, kNoNode);
  data.slot_arc.assign(slots, kNoNode);
  for (std::uint32_t a = 0; a < graph.arc_count(); ++a) {
    if (graph.arc_kind[a] == EdgeKind::Walk) data.slot_arc[graph.arc_index[a]] = a;
  }
  const std::size_t polygons = mesh.polygon_count();
  std::vector<std::uint32_t> parent(slots);
  for (std::uint32_t s = 0; s < slots; ++s) parent[s] = s;
  std::vector<std::uint8_t> open(slots, 0);
  data.dead_end.assign(polygons, 0);
  for (std::uint32_t p = 0; p < polygons; ++p) {
    std::uint32_t neighbours = 0;
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      if (mesh.poly_neighbors[s] != mesh::kNoPoly) ++neighbours;
    }
    data.dead_end[p] = neighbours <= 1 ? 1 : 0;
  }
  for (std::uint32_t p = 0; p < polygons; ++p) {
    const std::uint32_t first = mesh.poly_first[p];
    const std::uint32_t count = mesh.poly_first[p + 1] - first;
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::uint32_t s = first + k;
      const std::uint32_t next = first + (k + 1) % count;
      const std::uint32_t q = mesh.poly_neighbors[s];
      if (q == mesh::kNoPoly) {
        open[s] = 1;
        open[next] = 1;
        continue;
      }
      // the same edge in q runs from our next vertex to our vertex s
      const std::uint32_t q_first = mesh.poly_first[q];
      const std::uint32_t q_count = mesh.poly_first[q + 1] - q_first;
      for (std::uint32_t m = 0; m < q_count; ++m) {
        const std::uint32_t t = q_first + m;
        const std::uint32_t t_next = q_first + (m + 1) % q_count;
        if (mesh.poly_vertices[t] == mesh.poly_vertices[next] &&
            mesh.poly_vertices[t_next] == mesh.poly_vertices[s]) {
          data.slot_twin[s] = t;
          // our vertex s is q's vertex t_next, and our next vertex is q's t: one fan each
          const std::uint32_t x = find(parent, s);
          const std::uint32_t y = find(parent, t_next);
          if (x != y) parent[std::max(x, y)] = std::min(x, y);
          const std::uint32_t u = find(parent, next);
          const std::uint32_t w = find(parent, t);
          if (u != w) parent[std::max(u, w)] = std::min(u, w);
          break;
        }
      }
    }
  }
  data.slot_fan.assign(slots, kNoNode);
  std::vector<std::uint32_t> fan_of_root(slots, kNoNode);
  for (std::uint32_t s = 0; s < slots; ++s) {
    const std::uint32_t r = find(parent, s);
    if (fan_of_root[r] == kNoNode) {
      fan_of_root[r] = static_cast<std::uint32_t>(data.fan_open.size());
      data.fan_open.push_back(0);
    }
    data.slot_fan[s] = fan_of_root[r];
    if (open[s] != 0) data.fan_open[fan_of_root[r]] = 1;
  }
  data.slot_point.reserve(slots);
  data.slot_corner.reserve(slots);
  for (std::uint32_t s = 0; s < slots; ++s) {
    data.slot_point.push_back(data.vertices[mesh.poly_vertices[s]]);
    data.slot_corner.push_back(data.fan_open[data.slot_fan[s]]);
  }
  return data;
}

void AnyAngleSearch::start(const mesh::NavMesh& nav, const AnyAngleMesh& data, const Filter& filter,
                           std::uint32_t src_poly, Vec2 src, std::uint32_t dst_poly, Vec2 dst,
                           bool every_vertex_a_corner, std::uint32_t max_nodes) {
  nav_ = &nav;
  data_ = &data;
  filter_ = &filter;
  nodes_.clear();
  heap_.clear();
  if (root_g_.size() != data.fan_count()) {
    root_g_.assign(data.fan_count(), 0.0);
    root_generation_.assign(data.fan_count(), 0);
    generation_ = 0;
  }
  if (whole_root_.size() != nav.polygon_count()) {
    whole_root_.assign(nav.polygon_count(), kNoNode);
    whole_g_.assign(nav.polygon_count(), 0.0);
    whole_generation_.assign(nav.polygon_count(), 0);
    generation_ = 0;
  }
  if (++generation_ == 0) {
    std::fill(root_generation_.begin(), root_generation_.end(), 0);
    std::fill(whole_generation_.begin(), whole_generation_.end(), 0);
    generation_ = 1;
  }
  goal_ = {double{dst.x} - data.origin_x, double{dst.y} - data.origin_z};
  dst_poly_ = dst_poly;
  max_nodes_ = max_nodes;
  expanded_ = 0;
  final_node_ = kNoNode;
  resume_ = kNoNode;
  length_ = 0.0;
  every_corner_ = every_vertex_a_corner;
  finished_ = false;
  reached_ = false;
  out_of_nodes_ = false;
  const DPoint start{double{src.x} - data.origin_x, double{src.y} - data.origin_z};
  const std::uint32_t count = nav.poly_first[src_poly + 1] - nav.poly_first[src_poly];
  expand_all(kNoNode, src_poly, count, start, kNoNode, 0.0);
  for (std::uint32_t k = 0; k < nodes_.size(); ++k) heap_.push_back(entry(k));
  std::make_heap(heap_.begin(), heap_.end(), later);
}

void AnyAngleSearch::push_successor(std::uint32_t parent, std::uint32_t slot, double lo, double hi,
                                    DPoint root, std::uint32_t root_id, double g) {
  if (lo > hi) return;
  const std::uint32_t next_poly = nav_->poly_neighbors[slot];
  if (next_poly == mesh::kNoPoly || !filter_->enterable(next_poly)) return;
  // note: a polygon whose only neighbour is the one left leads nowhere but to a goal in it
  if (data_->dead_end[next_poly] != 0 && next_poly != dst_poly_) return;
  // note: a successor keeping its parent's root and cost was checked with that parent
  const bool turned = parent == kNoNode || nodes_[parent].root_id != root_id;
  if (root_id != kNoNode && turned) {
    if (root_generation_[root_id] != generation_) {
      root_generation_[root_id] = generation_;
      root_g_[root_id] = g;
    } else if (g > root_g_[root_id] + prune_slack(g)) {
      return;
    } else {
      root_g_[root_id] = std::min(root_g_[root_id], g);
    }
  }
  const std::uint32_t twin = data_->slot_twin[slot];
  const DPoint a = vertex(slot);  // the edge's first vertex here, its second in next_poly
  const DPoint b = vertex(twin);
  Node node;
  node.root = root;
  node.left = hi >= 1.0 ? b : lerp(a, b, hi);
  node.right = lo <= 0.0 ? a : lerp(a, b, lo);
  node.ends =
      static_cast<std::uint8_t>((hi >= 1.0 ? kLeftVertex : 0) | (lo <= 0.0 ? kRightVertex : 0));
  node.g = g;
  node.root_id = root_id;
  node.poly = next_poly;
  node.edge = twin - nav_->poly_first[next_poly];
  node.arc = data_->slot_arc[slot];
  node.parent = parent;
  nodes_.push_back(node);
}

void AnyAngleSearch::expand_all(std::uint32_t parent, std::uint32_t poly, std::uint32_t skip,
                                DPoint root, std::uint32_t root_id, double g) {
  // note: the same root seeing all of the polygon again, no cheaper, adds nothing (it saw every
  // edge but the one it came through, which leads back to where it saw from)
  const std::uint32_t key = root_id == kNoNode ? kStartKey : root_id;
  if (whole_generation_[poly] == generation_ && whole_root_[poly] == key &&
      g >= whole_g_[poly] - prune_slack(g)) {
    return;
  }
  whole_generation_[poly] = generation_;
  whole_root_[poly] = key;
  whole_g_[poly] = g;
  const std::uint32_t first = nav_->poly_first[poly];
  const std::uint32_t count = nav_->poly_first[poly + 1] - first;
  for (std::uint32_t k = 0; k < count; ++k) {
    if (k != skip) push_successor(parent, first + k, 0.0, 1.0, root, root_id, g);
  }
}

void AnyAngleSearch::expand(std::uint32_t n) {
  const Node node = nodes_[n];  // note: a copy, successors grow nodes_
  const std::uint32_t q = node.poly;
  const std::uint32_t first = nav_->poly_first[q];
  const std::uint32_t count = nav_->poly_first[q + 1] - first;
  const std::uint32_t left_slot = first + node.edge;
  const std::uint32_t right_slot = slot_of(q, node.edge + 1);
  const DPoint a = vertex(left_slot);
  const DPoint b = vertex(right_slot);
  const DPoint r = node.root;
  const DPoint ab = b - a;
  const double len2 = dot(ab, ab);
  const double len = std::sqrt(len2);
  // q lies left of its edge a -> b; a root right of it by more than the tolerance sees q
  // through the interval as a proper cone
  const double side = len > 0.0 ? cross(ab, r - a) / len : 0.0;
  if (side > -data_->tolerance || len2 <= 0.0) {
    const double t_root = len2 > 0.0 ? dot(r - a, ab) / len2 : 0.0;
    const double t_left = len2 > 0.0 ? dot(node.left - a, ab) / len2 : 0.0;
    const double t_right = len2 > 0.0 ? dot(node.right - a, ab) / len2 : 1.0;
    const double slack = len > 0.0 ? data_->tolerance / len : 0.0;
    if (t_root >= t_left - slack && t_root <= t_right + slack) {
      expand_all(n, q, node.edge, r, node.root_id, node.g);
    } else if (t_root < t_left) {
      if ((node.ends & kLeftVertex) != 0 && corner(left_slot)) {
        expand_all(n, q, node.edge, a, data_->slot_fan[left_slot], node.g + dist(r, a));
      }
    } else if ((node.ends & kRightVertex) != 0 && corner(right_slot)) {
      expand_all(n, q, node.edge, b, data_->slot_fan[right_slot], node.g + dist(r, b));
    }
    return;
  }
  const double tolerance = data_->tolerance;
  // note: an interval that has shrunk to a corner vertex (a cone boundary through that corner)
  // goes on only by turning there; the corner on its edge sees all of q
  if (node.ends != 0 && dist(node.left, node.right) <= tolerance) {
    const std::uint32_t at = (node.ends & kLeftVertex) != 0 ? left_slot : right_slot;
    if (corner(at)) {
      expand_all(n, q, node.edge, vertex(at), data_->slot_fan[at], node.g + dist(r, vertex(at)));
      return;
    }
  }
  const DPoint to_right = node.right - r;
  const DPoint to_left = node.left - r;
  // note: a vertex within the tolerance of a cone boundary lies on it: rounding must not push a
  // corner that the boundary passes through out of the cone (the path would lose its turn there)
  const double right_limit = tolerance * std::sqrt(dot(to_right, to_right));
  const double left_limit = tolerance * std::sqrt(dot(to_left, to_left));
  const auto snap = [](double value, double limit) {
    return std::fabs(value) <= limit ? 0.0 : value;
  };
  const bool turn_right = (node.ends & kRightVertex) != 0 && corner(right_slot);
  const bool turn_left = (node.ends & kLeftVertex) != 0 && corner(left_slot);
  const double g_right = turn_right ? node.g + dist(r, b) : 0.0;
  const double g_left = turn_left ? node.g + dist(r, a) : 0.0;
  for (std::uint32_t j = 1; j < count; ++j) {
    const std::uint32_t k = (node.edge + j) % count;
    const std::uint32_t slot = first + k;
    const std::uint32_t beyond = nav_->poly_neighbors[slot];
    if (beyond == mesh::kNoPoly || (data_->dead_end[beyond] != 0 && beyond != dst_poly_)) continue;
    const DPoint u = vertex(slot);
    const DPoint w = vertex(slot_of(q, k + 1));
    // sides of the edge's ends against the lines r -> R (>= 0: left of it, inside) and
    // r -> L (<= 0: right of it, inside)
    const double right_u = snap(cross(to_right, u - r), right_limit);
    const double right_w = snap(cross(to_right, w - r), right_limit);
    const double left_u = snap(cross(to_left, u - r), left_limit);
    const double left_w = snap(cross(to_left, w - r), left_limit);
    const Range inside_right = at_least_zero(right_u, right_w);
    if (turn_right) {
      const Range hidden = below_zero(right_u, right_w);
      push_successor(n, slot, hidden.lo, hidden.hi, b, data_->slot_fan[right_slot], g_right);
    }
    const Range seen = intersect(inside_right, at_least_zero(-left_u, -left_w));
    push_successor(n, slot, seen.lo, seen.hi, r, node.root_id, node.g);
    if (turn_left) {
      const Range hidden = intersect(inside_right, below_zero(-left_u, -left_w));
      push_successor(n, slot, hidden.lo, hidden.hi, a, data_->slot_fan[left_slot], g_left);
    }
  }
}

std::uint32_t AnyAngleSearch::step(std::uint32_t budget) {
  std::uint32_t done = 0;
  if (finished_) return done;
  // note: a node with a single successor outside the goal polygon hands it straight on (no heap
  // round trip); a handed-on node is expanded before the next pop, also across sliced calls, so
  // every frontier node is on the heap whenever one is popped
  while (done < budget && (resume_ != kNoNode || !heap_.empty())) {
    std::uint32_t n = resume_;
    if (n != kNoNode) {
      resume_ = kNoNode;
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      n = heap_.back().node;
      heap_.pop_back();
      const Node& node = nodes_[n];
      if (node.root_id != kNoNode && root_generation_[node.root_id] == generation_ &&
          node.g > root_g_[node.root_id] + prune_slack(node.g)) {
        continue;
      }
      if (node.poly == dst_poly_) {
        reached_ = true;
        final_node_ = n;
        length_ = node.f;
        break;
      }
    }
    if (expanded_ == max_nodes_) {
      out_of_nodes_ = true;
      partial_node_ = n;
      break;
    }
    ++expanded_;
    ++done;
    const auto before = static_cast<std::uint32_t>(nodes_.size());
    expand(n);
    const auto after = static_cast<std::uint32_t>(nodes_.size());
    if (after == before + 1 && nodes_[before].poly != dst_poly_) {
      resume_ = before;
      continue;
    }
    for (std::uint32_t k = before; k < after; ++k) {
      heap_.push_back(entry(k));
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  if (!reached_ && !out_of_nodes_ && (resume_ != kNoNode || !heap_.empty())) return done;
  finished_ = true;
  if (out_of_nodes_) {
    // the reached interval nearest the goal (the first such node)
    double best = std::numeric_limits<double>::infinity();
    for (std::uint32_t k = 0; k < nodes_.size(); ++k) {
      const double d = distance_to_segment(goal_, nodes_[k].left, nodes_[k].right);
      if (d < best) {
        best = d;
        partial_node_ = k;
      }
    }
  }
  return done;
}

void AnyAngleSearch::path_arcs(std::vector<std::uint32_t>& arcs) const {
  const std::size_t from = arcs.size();
  std::uint32_t n = reached_ ? final_node_ : (out_of_nodes_ ? partial_node_ : kNoNode);
  while (n != kNoNode) {
    arcs.push_back(nodes_[n].arc);
    n = nodes_[n].parent;
  }
  std::reverse(arcs.begin() + static_cast<std::ptrdiff_t>(from), arcs.end());
}

}  // namespace leapnav::plan::detail
