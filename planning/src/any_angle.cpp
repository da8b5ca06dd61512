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
// Interval dominance (on long searches): a new node on an edge is dropped when an earlier node
// on the same edge, whose interval contains the new one, reaches every point of it more cheaply
// (see cheaper_through); such a node carries no shortest path.
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
  // note: kept unnormalised: dr, dg are the distances from the line times |ab|, pr, pg the
  // parameters along it times |ab|^2
  const double dr = std::fabs(cross(ab, root - a));
  const double dg = std::fabs(cross(ab, goal - a));
  const double pr = dot(root - a, ab);
  const double pg = dot(goal - a, ab);
  const double across = dr + dg;
  if (across > 0.0) {
    // note: with the goal mirrored onto the far side of the line when it is on the root's side,
    // the straight line root -> goal crosses the line at parameter (pr dg + pg dr) / (|ab|^2
    // (dr + dg)); the length along the segment is convex, so beyond an end that end is best
    const double crossing = pr * dg + pg * dr;
    if (crossing <= 0.0) return dist(root, a) + dist(a, goal);
    if (crossing >= len2 * across) return dist(root, b) + dist(b, goal);
    // the straight line to the mirrored goal: (pg - pr) / |ab| along the line, (dr + dg) / |ab|
    // across it
    const double along = pg - pr;
    return std::sqrt((along * along + across * across) / len2);
  }
  const auto through = [&](double t) {
    const DPoint p = lerp(a, b, std::clamp(t, 0.0, 1.0));
    return dist(root, p) + dist(p, goal);
  };
  return std::min({through(0.0), through(1.0), through(pr / len2), through(pg / len2)});
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

/// AnyAngleMesh::branch_order and the slots' branch ranges: peel polygons with at most one
/// remaining neighbour (edges counted, so two polygons sharing two edges form a cycle); a peeled
/// polygon's parent is the neighbour left when it was peeled (none for the last polygon of a
/// tree-shaped island). Branches are numbered depth-first from their tops.
void build_branches(const mesh::NavMesh& mesh, AnyAngleMesh& data) {
  const auto polygons = static_cast<std::uint32_t>(mesh.polygon_count());
  constexpr std::uint32_t kOnCycle = kNoNode - 1;
  std::vector<std::uint32_t> degree(polygons, 0);
  for (std::uint32_t p = 0; p < polygons; ++p) {
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      if (mesh.poly_neighbors[s] != mesh::kNoPoly) ++degree[p];
    }
  }
  std::vector<std::uint8_t> peeled(polygons, 0);
  std::vector<std::uint32_t> parent(polygons, kNoNode);
  std::vector<std::uint32_t> order;  // peeling order
  std::vector<std::uint32_t> queue;
  for (std::uint32_t p = 0; p < polygons; ++p) {
    if (degree[p] <= 1) queue.push_back(p);
  }
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const std::uint32_t p = queue[i];
    if (peeled[p] != 0) continue;
    peeled[p] = 1;
    order.push_back(p);
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      const std::uint32_t q = mesh.poly_neighbors[s];
      if (q == mesh::kNoPoly || peeled[q] != 0) continue;
      parent[p] = q;
      if (--degree[q] <= 1) queue.push_back(q);
    }
  }
  // children lists (CSR) and a depth-first numbering from each branch's top
  std::vector<std::uint32_t> child_first(polygons + 1, 0);
  for (const std::uint32_t p : order) {
    if (parent[p] != kNoNode && peeled[parent[p]] != 0) ++child_first[parent[p] + 1];
  }
  for (std::uint32_t p = 0; p < polygons; ++p) child_first[p + 1] += child_first[p];
  std::vector<std::uint32_t> children(child_first[polygons]);
  std::vector<std::uint32_t> fill(child_first.begin(), child_first.end() - 1);
  for (const std::uint32_t p : order) {
    if (parent[p] != kNoNode && peeled[parent[p]] != 0) children[fill[parent[p]]++] = p;
  }
  data.branch_order.assign(polygons, kOnCycle);
  std::vector<std::uint32_t> branch_end(polygons, 0);
  std::uint32_t next = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;  // (polygon, next child)
  for (const std::uint32_t top : order) {
    if (parent[top] != kNoNode && peeled[parent[top]] != 0) continue;
    stack.emplace_back(top, child_first[top]);
    data.branch_order[top] = next++;
    while (!stack.empty()) {
      const auto [p, c] = stack.back();
      if (c == child_first[p + 1]) {
        branch_end[p] = next;
        stack.pop_back();
        continue;
      }
      stack.back().second = c + 1;
      const std::uint32_t child = children[c];
      data.branch_order[child] = next++;
      stack.emplace_back(child, child_first[child]);
    }
  }
  for (std::uint32_t p = 0; p < polygons; ++p) {
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      const std::uint32_t q = mesh.poly_neighbors[s];
      if (q != mesh::kNoPoly && peeled[q] != 0 && parent[q] == p) {
        data.slots[s].branch_first = data.branch_order[q];
        data.slots[s].branch_end = branch_end[q];
      }
    }
  }
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
  data.slots.resize(slots);
  for (std::uint32_t s = 0; s < slots; ++s) {
    const Vec3& v = mesh.vertices[mesh.poly_vertices[s]];
    data.slots[s].point = {double{v.x} - data.origin_x, double{v.z} - data.origin_z};
  }
  for (std::uint32_t a = 0; a < graph.arc_count(); ++a) {
    if (graph.arc_kind[a] == EdgeKind::Walk) data.slots[graph.arc_index[a]].arc = a;
  }
  const std::size_t polygons = mesh.polygon_count();
  std::vector<std::uint32_t> parent(slots);
  for (std::uint32_t s = 0; s < slots; ++s) parent[s] = s;
  std::vector<std::uint8_t> open(slots, 0);
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
          data.slots[s].twin = t;
          data.slots[s].next = q;
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
  std::vector<std::uint32_t> fan_of_root(slots, kNoNode);
  for (std::uint32_t s = 0; s < slots; ++s) {
    const std::uint32_t r = find(parent, s);
    if (fan_of_root[r] == kNoNode) {
      fan_of_root[r] = static_cast<std::uint32_t>(data.fan_open.size());
      data.fan_open.push_back(0);
    }
    data.slots[s].fan = fan_of_root[r];
    if (open[s] != 0) data.fan_open[fan_of_root[r]] = 1;
  }
  for (AnySlot& slot : data.slots) slot.corner = data.fan_open[slot.fan];
  data.link_first.assign(polygons + 1, 0);
  for (std::uint32_t p = 0; p < polygons; ++p) {
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      if (data.slots[s].next != kNoNode) data.links.push_back(s);
    }
    data.link_first[p + 1] = static_cast<std::uint32_t>(data.links.size());
  }
  build_branches(mesh, data);
  return data;
}

void AnyAngleSearch::start(const mesh::NavMesh& nav, const AnyAngleMesh& data, const Filter& filter,
                           std::uint32_t src_poly, Vec2 src, std::uint32_t dst_poly, Vec2 dst,
                           bool every_vertex_a_corner, bool filtered, std::uint32_t max_nodes) {
  nav_ = &nav;
  data_ = &data;
  filter_ = &filter;
  nodes_.clear();
  spans_.clear();
  first_listed_ = kNoNode;
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
  if (slot_newest_.size() != data.slots.size()) {
    slot_newest_.assign(data.slots.size(), kNoNode);
    slot_generation_.assign(data.slots.size(), 0);
    generation_ = 0;
  }
  if (++generation_ == 0) {
    std::fill(root_generation_.begin(), root_generation_.end(), 0);
    std::fill(slot_generation_.begin(), slot_generation_.end(), 0);
    std::fill(whole_generation_.begin(), whole_generation_.end(), 0);
    generation_ = 1;
  }
  goal_ = {double{dst.x} - data.origin_x, double{dst.y} - data.origin_z};
  dst_poly_ = dst_poly;
  goal_order_ = data.branch_order[dst_poly];
  max_nodes_ = max_nodes;
  expanded_ = 0;
  final_node_ = kNoNode;
  resume_ = kNoNode;
  next_ = kNoNode;
  length_ = 0.0;
  every_corner_ = every_vertex_a_corner;
  filtered_ = filtered;
  finished_ = false;
  reached_ = false;
  out_of_nodes_ = false;
  const DPoint start{double{src.x} - data.origin_x, double{src.y} - data.origin_z};
  start_ = start;
  src_poly_ = src_poly;
  straight_arcs_.clear();
  straight_ = false;
  walking_ = true;
  walk_poly_ = src_poly;
  walk_entry_ = kNoNode;
}

void AnyAngleSearch::begin_search() {
  walking_ = false;
  straight_arcs_.clear();
  expanded_ = 0;
  const std::uint32_t count = nav_->poly_first[src_poly_ + 1] - nav_->poly_first[src_poly_];
  expand_all(kNoNode, kNoNode, src_poly_, count, start_, kNoNode, 0.0);
  for (std::uint32_t k = 0; k < nodes_.size(); ++k) heap_.push_back(entry(k));
  std::make_heap(heap_.begin(), heap_.end(), Later{});
}

int AnyAngleSearch::walk_step() {
  // note: the segment start -> goal walked across shared edges; it must cross each edge clear of
  // its ends (by the tolerance), so that it lies in the union of the polygons it visits
  if (expanded_ == max_nodes_) return -1;
  const DPoint d = goal_ - start_;
  const double limit = data_->tolerance * std::sqrt(dot(d, d));
  const std::uint32_t first = nav_->poly_first[walk_poly_];
  const std::uint32_t end = nav_->poly_first[walk_poly_ + 1];
  std::uint32_t exit_slot = kNoNode;
  for (std::uint32_t slot = first; slot < end; ++slot) {
    if (slot == walk_entry_) continue;
    const std::uint32_t slot_next = slot + 1 == end ? first : slot + 1;
    const double side_u = cross(d, data_->slots[slot].point - start_);
    const double side_w = cross(d, data_->slots[slot_next].point - start_);
    // the segment leaves a convex CCW polygon through the edge from its right to its left
    if (side_u < 0.0 && side_w > 0.0) {
      if (-side_u <= limit || side_w <= limit) return -1;  // too close to an end
      exit_slot = slot;
      break;
    }
  }
  if (exit_slot == kNoNode) return -1;
  const AnySlot& edge = data_->slots[exit_slot];
  const std::uint32_t exit_next = exit_slot + 1 == end ? first : exit_slot + 1;
  const DPoint e = data_->slots[exit_next].point - edge.point;
  // the goal before the edge: it lies in this polygon, which is not the goal's polygon (another
  // floor, or on its boundary), so the walk proves nothing
  if (cross(edge.point - start_, e) >= cross(d, e)) return -1;
  if (edge.next == kNoNode || (filtered_ && !filter_->enterable(edge.next))) return -1;
  straight_arcs_.push_back(edge.arc);
  ++expanded_;
  walk_entry_ = edge.twin;
  walk_poly_ = edge.next;
  return walk_poly_ == dst_poly_ ? 1 : 0;
}

void AnyAngleSearch::push_successor(std::uint32_t parent, std::uint32_t parent_root,
                                    std::uint32_t slot, double lo, double hi, DPoint root,
                                    std::uint32_t root_id, double g) {
  if (lo > hi) return;
  // note: a successor keeping its parent's root and cost was checked with that parent
  // note: an arrival at a root as cheap as the best one is kept: the successors of a turn are
  // the parts of the arriving polygon's edges hidden behind the corner, which differ between
  // arrivals (dropping equal-cost arrivals lost a 4 % shorter path on nav_test thesis)
  if (root_id != kNoNode && (parent == kNoNode || parent_root != root_id)) {
    if (root_generation_[root_id] != generation_) {
      root_generation_[root_id] = generation_;
      root_g_[root_id] = g;
    } else if (g > root_g_[root_id] + prune_slack(g)) {
      return;
    } else {
      root_g_[root_id] = std::min(root_g_[root_id], g);
    }
  }
  const AnySlot& edge = data_->slots[slot];
  const DPoint a = edge.point;  // the edge's first vertex here, its second in the next polygon
  const DPoint b = data_->slots[edge.twin].point;
  // note: the dominance rule from the kDominanceAfter-th expansion on; short searches (most on
  // small levels) would pay for the lists without gaining. Nodes from first_listed_ on have a
  // span and are listed
  if (expanded_ >= kDominanceAfter) {
    const auto k = static_cast<std::uint32_t>(nodes_.size());
    if (first_listed_ == kNoNode) first_listed_ = k;
    if (dominated(slot, lo, hi, root, g)) return;
    const bool listed = slot_generation_[slot] == generation_;
    spans_.push_back({lo, hi, listed ? slot_newest_[slot] : kNoNode});
    slot_generation_[slot] = generation_;
    slot_newest_[slot] = k;
  }
  Node& node = nodes_.emplace_back();
  node.root = root;
  node.left = hi >= 1.0 ? b : lerp(a, b, hi);
  node.right = lo <= 0.0 ? a : lerp(a, b, lo);
  node.ends =
      static_cast<std::uint8_t>((hi >= 1.0 ? kLeftVertex : 0) | (lo <= 0.0 ? kRightVertex : 0));
  node.g = g;
  node.root_id = root_id;
  node.poly = edge.next;
  node.edge = edge.twin - nav_->poly_first[edge.next];
  node.arc = edge.arc;
  node.parent = parent;
}

bool cheaper_through(DPoint root_k, double g_k, DPoint root, double g, DPoint a, DPoint b,
                     double lo, double hi, double clear) {
  // note: psi(p) = |root_k p| - |root p| along the line: with both roots strictly on one side
  // of it, psi' = 0 only where p, root_k and root are collinear (the directions from p to the
  // two roots make the same angle with the line only when they are parallel, p beyond both
  // roots), so its maximum over [lo, hi] is at an end or at that point
  const double limit = g - g_k - prune_slack(g);
  const DPoint ab = b - a;
  const double length = std::sqrt(dot(ab, ab));
  const double side_k = cross(ab, root_k - a);
  const double side = cross(ab, root - a);
  const double off = clear * length;
  if (!(side_k > off && side > off) && !(side_k < -off && side < -off)) return false;
  const auto psi = [&](double t) {
    const DPoint p = lerp(a, b, t);
    return dist(root_k, p) - dist(root, p);
  };
  if (!(psi(lo) < limit) || !(psi(hi) < limit)) return false;
  const DPoint d = root - root_k;
  const double across = cross(ab, d);
  if (across != 0.0) {
    const double t = cross(root_k - a, d) / across;
    if (t > lo && t < hi && !(psi(t) < limit)) return false;
  }
  return true;
}

bool AnyAngleSearch::dominated_by(std::uint32_t k, DPoint a, DPoint b, double lo, double hi,
                                  DPoint root, double g) const {
  // note: for p in node k's interval, the path to node k's root and on straight to p is a real
  // path of length g_k + |r_k p|; if that is shorter than g + |root p| for every p of [lo, hi],
  // any path through [lo, hi] from `root` is beaten by swapping its start up to p for that path
  // (kinked at p, so longer than the shortest path there): the interval carries no shortest
  // path, and dropping it loses none, whatever else is dropped
  const Span& span = spans_[k - first_listed_];
  if (lo < span.lo || hi > span.hi) return false;
  const Node& other = nodes_[k];
  // note: from the same root the two paths to any p differ by g - g_k alone
  if (other.root.x == root.x && other.root.z == root.z) return other.g < g - prune_slack(g);
  return cheaper_through(other.root, other.g, root, g, a, b, lo, hi, data_->tolerance);
}

bool AnyAngleSearch::dominated(std::uint32_t slot, double lo, double hi, DPoint root,
                               double g) const {
  if (slot_generation_[slot] != generation_) return false;
  const AnySlot& edge = data_->slots[slot];
  const DPoint a = edge.point;
  const DPoint b = data_->slots[edge.twin].point;
  for (std::uint32_t k = slot_newest_[slot]; k != kNoNode; k = spans_[k - first_listed_].earlier) {
    if (dominated_by(k, a, b, lo, hi, root, g)) return true;
  }
  return false;
}

void AnyAngleSearch::expand_all(std::uint32_t parent, std::uint32_t parent_root, std::uint32_t poly,
                                std::uint32_t skip, DPoint root, std::uint32_t root_id, double g) {
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
  const std::uint32_t skip_slot = nav_->poly_first[poly] + skip;
  for (std::uint32_t i = data_->link_first[poly]; i < data_->link_first[poly + 1]; ++i) {
    const std::uint32_t slot = data_->links[i];
    if (slot != skip_slot && leads_on(data_->slots[slot])) {
      push_successor(parent, parent_root, slot, 0.0, 1.0, root, root_id, g);
    }
  }
}

void AnyAngleSearch::expand(std::uint32_t n) {
  const Node node = nodes_[n];  // note: a copy, successors grow nodes_
  const std::uint32_t q = node.poly;
  const std::uint32_t first = nav_->poly_first[q];
  const std::uint32_t count = nav_->poly_first[q + 1] - first;
  const std::uint32_t left_slot = first + node.edge;
  const std::uint32_t right_slot = node.edge + 1 == count ? first : left_slot + 1;
  const DPoint a = data_->slots[left_slot].point;
  const DPoint b = data_->slots[right_slot].point;
  const DPoint r = node.root;
  const DPoint ab = b - a;
  const double len2 = dot(ab, ab);
  const double tolerance = data_->tolerance;
  // q lies left of its edge a -> b; a root right of it by more than the tolerance sees q
  // through the interval as a proper cone
  // note: squared comparisons (no square root on this path): the root's side times |ab|
  const double side_scaled = cross(ab, r - a);
  const double tolerance2 = tolerance * tolerance;
  if (len2 <= 0.0 || side_scaled >= 0.0 || side_scaled * side_scaled < tolerance2 * len2) {
    const double t_root = len2 > 0.0 ? dot(r - a, ab) / len2 : 0.0;
    const double t_left = len2 > 0.0 ? dot(node.left - a, ab) / len2 : 0.0;
    const double t_right = len2 > 0.0 ? dot(node.right - a, ab) / len2 : 1.0;
    const double slack = len2 > 0.0 ? tolerance / std::sqrt(len2) : 0.0;
    if (t_root >= t_left - slack && t_root <= t_right + slack) {
      expand_all(n, node.root_id, q, node.edge, r, node.root_id, node.g);
    } else if (t_root < t_left) {
      if ((node.ends & kLeftVertex) != 0 && corner(left_slot)) {
        expand_all(n, node.root_id, q, node.edge, a, data_->slots[left_slot].fan,
                   node.g + dist(r, a));
      }
    } else if ((node.ends & kRightVertex) != 0 && corner(right_slot)) {
      expand_all(n, node.root_id, q, node.edge, b, data_->slots[right_slot].fan,
                 node.g + dist(r, b));
    }
    return;
  }
  // note: an interval that has shrunk to a corner vertex (a cone boundary through that corner)
  // goes on only by turning there; the corner on its edge sees all of q
  const DPoint span = node.left - node.right;
  if (node.ends != 0 && dot(span, span) <= tolerance2) {
    const std::uint32_t at = (node.ends & kLeftVertex) != 0 ? left_slot : right_slot;
    if (corner(at)) {
      expand_all(n, node.root_id, q, node.edge, vertex(at), data_->slots[at].fan,
                 node.g + dist(r, vertex(at)));
      return;
    }
  }
  const DPoint to_right = node.right - r;
  const DPoint to_left = node.left - r;
  // note: a vertex within the tolerance of a cone boundary lies on it: rounding must not push a
  // corner that the boundary passes through out of the cone (the path would lose its turn there)
  const double right_limit = tolerance2 * dot(to_right, to_right);
  const double left_limit = tolerance2 * dot(to_left, to_left);
  const auto snap = [](double value, double limit2) {
    return value * value <= limit2 ? 0.0 : value;
  };
  const bool turn_right = (node.ends & kRightVertex) != 0 && corner(right_slot);
  const bool turn_left = (node.ends & kLeftVertex) != 0 && corner(left_slot);
  // note: the costs of turning at an end, computed when a hidden part first needs them
  double g_right = -1.0;
  double g_left = -1.0;
  const std::uint32_t right_fan = data_->slots[right_slot].fan;
  const std::uint32_t left_fan = data_->slots[left_slot].fan;
  // note: the sides of an edge's ends against the lines r -> R (>= 0: left of it, inside) and
  // r -> L (<= 0: right of it, inside), for the edges with a neighbour only; an edge's second
  // vertex is the next edge's first, so consecutive edges share one computation
  const std::uint32_t end = first + count;
  std::uint32_t shared = kNoNode;  // the slot whose vertex's sides are right_u, left_u
  double right_u = 0.0;
  double left_u = 0.0;
  const std::uint32_t* links = data_->links.data();
  for (std::uint32_t i = data_->link_first[q]; i < data_->link_first[q + 1]; ++i) {
    const std::uint32_t slot = links[i];
    if (slot == left_slot || !leads_on(data_->slots[slot])) continue;
    const std::uint32_t slot_next = slot + 1 == end ? first : slot + 1;
    if (shared != slot) {
      const DPoint u = data_->slots[slot].point;
      right_u = snap(cross(to_right, u - r), right_limit);
      left_u = snap(cross(to_left, u - r), left_limit);
    }
    const DPoint w = data_->slots[slot_next].point;
    const double right_w = snap(cross(to_right, w - r), right_limit);
    const double left_w = snap(cross(to_left, w - r), left_limit);
    const Range inside_right = at_least_zero(right_u, right_w);
    if (turn_right) {
      const Range hidden = below_zero(right_u, right_w);
      if (!hidden.empty()) {
        if (g_right < 0.0) g_right = node.g + dist(r, b);
        push_successor(n, node.root_id, slot, hidden.lo, hidden.hi, b, right_fan, g_right);
      }
    }
    const Range seen = intersect(inside_right, at_least_zero(-left_u, -left_w));
    if (!seen.empty())
      push_successor(n, node.root_id, slot, seen.lo, seen.hi, r, node.root_id, node.g);
    if (turn_left) {
      const Range hidden = intersect(inside_right, below_zero(-left_u, -left_w));
      if (!hidden.empty()) {
        if (g_left < 0.0) g_left = node.g + dist(r, a);
        push_successor(n, node.root_id, slot, hidden.lo, hidden.hi, a, left_fan, g_left);
      }
    }
    shared = slot_next;
    right_u = right_w;
    left_u = left_w;
  }
}

std::uint32_t AnyAngleSearch::step(std::uint32_t budget) {
  std::uint32_t done = 0;
  if (finished_) return done;
  // note: first the straight walk to the goal, one crossed edge per expansion; when it fails
  // the search proper starts (its expansions counted from zero)
  while (walking_ && done < budget) {
    const int walked = walk_step();
    if (walked < 0) {
      begin_search();
      break;
    }
    ++done;
    if (walked > 0) {
      walking_ = false;
      straight_ = true;
      finished_ = true;
      reached_ = true;
      length_ = dist(start_, goal_);
      return done;
    }
  }
  if (walking_) return done;
  // note: a node with a single successor outside the goal polygon hands it straight on (no heap
  // round trip); a handed-on node is expanded before the next pop, also across sliced calls, so
  // every frontier node is on the heap whenever one is popped
  while (done < budget && (resume_ != kNoNode || next_ != kNoNode || !heap_.empty())) {
    std::uint32_t n = resume_;
    if (n != kNoNode) {
      resume_ = kNoNode;
    } else {
      n = next_;
      if (n != kNoNode) {
        next_ = kNoNode;
      } else {
        std::pop_heap(heap_.begin(), heap_.end(), Later{});
        n = heap_.back().node;
        heap_.pop_back();
      }
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
    if (after == before) continue;
    // note: the best new successor is the next pop when it comes before the heap's top (the
    // order is total): it skips the heap, the pops stay the same
    HeapEntry best = entry(before);
    for (std::uint32_t k = before + 1; k < after; ++k) {
      HeapEntry e = entry(k);
      if (Later{}(best, e)) std::swap(best, e);
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), Later{});
    }
    if (heap_.empty() || Later{}(heap_.front(), best)) {
      next_ = best.node;
    } else {
      heap_.push_back(best);
      std::push_heap(heap_.begin(), heap_.end(), Later{});
    }
  }
  if (!reached_ && !out_of_nodes_ && (resume_ != kNoNode || next_ != kNoNode || !heap_.empty())) {
    return done;
  }
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
  if (straight_) {
    arcs.insert(arcs.end(), straight_arcs_.begin(), straight_arcs_.end());
    return;
  }
  const std::size_t from = arcs.size();
  std::uint32_t n = reached_ ? final_node_ : (out_of_nodes_ ? partial_node_ : kNoNode);
  while (n != kNoNode) {
    arcs.push_back(nodes_[n].arc);
    n = nodes_[n].parent;
  }
  std::reverse(arcs.begin() + static_cast<std::ptrdiff_t>(from), arcs.end());
}

}  // namespace leapnav::plan::detail
