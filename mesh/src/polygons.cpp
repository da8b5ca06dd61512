// Contours to convex polygons: ear clipping with exact integer diagonal tests (strict first, then
// loose tests that allow touching at repeated points, then a warned fallback), welding of grid
// corners across contours, greedy convex merging along the longest shared edge (O'Rourke,
// "Computational Geometry in C" §1 for the diagonal tests; the merge rule follows pipeline.md §2).
// A contour of at most 64 triangles also gets the exact fewest-polygon partition of its triangles
// (a tree dynamic program), kept when it has fewer polygons and the portal-midpoint paths through
// it are no longer (see keeps_midpoint_paths).
// Everything runs on integer grid coordinates, so the geometric predicates are exact.
#include "leapnav/mesh/polygons.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh {
namespace {

// Twice the signed area of triangle (a, b, c) in xz: > 0 when c is left of a->b (CCW turn).
std::int64_t area2(GridPoint a, GridPoint b, GridPoint c) {
  return (static_cast<std::int64_t>(b.x) - a.x) * (static_cast<std::int64_t>(c.z) - a.z) -
         (static_cast<std::int64_t>(c.x) - a.x) * (static_cast<std::int64_t>(b.z) - a.z);
}
bool left(GridPoint a, GridPoint b, GridPoint c) {
  return area2(a, b, c) > 0;
}
bool left_on(GridPoint a, GridPoint b, GridPoint c) {
  return area2(a, b, c) >= 0;
}
bool collinear(GridPoint a, GridPoint b, GridPoint c) {
  return area2(a, b, c) == 0;
}

// Proper intersection of segments ab and cd (crossing at a point interior to both).
bool intersect_prop(GridPoint a, GridPoint b, GridPoint c, GridPoint d) {
  if (collinear(a, b, c) || collinear(a, b, d) || collinear(c, d, a) || collinear(c, d, b)) {
    return false;
  }
  return (left(a, b, c) != left(a, b, d)) && (left(c, d, a) != left(c, d, b));
}

// c lies on the closed segment ab.
bool between(GridPoint a, GridPoint b, GridPoint c) {
  if (!collinear(a, b, c)) return false;
  if (a.x != b.x) return (a.x <= c.x && c.x <= b.x) || (a.x >= c.x && c.x >= b.x);
  return (a.z <= c.z && c.z <= b.z) || (a.z >= c.z && c.z >= b.z);
}

bool intersect(GridPoint a, GridPoint b, GridPoint c, GridPoint d) {
  return intersect_prop(a, b, c, d) || between(a, b, c) || between(a, b, d) || between(c, d, a) ||
         between(c, d, b);
}

// The corner a -> b -> c turns left, or goes straight on (a 180 degree corner keeps the polygon
// convex, e.g. where a neighbour's vertex lies on the edge).
bool convex_corner(GridPoint a, GridPoint b, GridPoint c) {
  const std::int64_t turn = area2(a, b, c);
  if (turn != 0) return turn > 0;
  const std::int64_t along = (std::int64_t{b.x} - a.x) * (std::int64_t{c.x} - b.x) +
                             (std::int64_t{b.z} - a.z) * (std::int64_t{c.z} - b.z);
  return along > 0;
}

std::int64_t length2(GridPoint a, GridPoint b) {
  const std::int64_t dx = static_cast<std::int64_t>(b.x) - a.x;
  const std::int64_t dz = static_cast<std::int64_t>(b.z) - a.z;
  return dx * dx + dz * dz;
}

// A doubly linked ring over the polygon's points, with the diagonal tests of ear clipping.
class EarRing {
 public:
  explicit EarRing(std::vector<GridPoint> pts) : p_(std::move(pts)) {
    const auto n = static_cast<std::uint32_t>(p_.size());
    next_.resize(n);
    prev_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      next_[i] = (i + 1) % n;
      prev_[i] = (i + n - 1) % n;
    }
    count_ = n;
  }

  // The ear at k (triangle prev(k), k, next(k)) is valid: non-degenerate and the diagonal
  // prev(k)-next(k) lies inside the remaining polygon.
  [[nodiscard]] bool is_ear(std::uint32_t k, bool loose) const {
    const std::uint32_t i = prev_[k];
    const std::uint32_t j = next_[k];
    if (!left(p_[i], p_[k], p_[j])) return false;
    return in_cone(i, j, loose) && diagonal_free(i, j, loose);
  }

  void remove(std::uint32_t k) {
    next_[prev_[k]] = next_[k];
    prev_[next_[k]] = prev_[k];
    --count_;
  }

  [[nodiscard]] std::uint32_t next(std::uint32_t k) const { return next_[k]; }
  [[nodiscard]] std::uint32_t prev(std::uint32_t k) const { return prev_[k]; }
  [[nodiscard]] std::uint32_t count() const { return count_; }
  [[nodiscard]] GridPoint point(std::uint32_t k) const { return p_[k]; }

 private:
  // The diagonal i-j starts into the interior cone at vertex i.
  [[nodiscard]] bool in_cone(std::uint32_t i, std::uint32_t j, bool loose) const {
    const GridPoint a = p_[i];
    const GridPoint b = p_[j];
    const GridPoint a0 = p_[prev_[i]];
    const GridPoint a1 = p_[next_[i]];
    if (left_on(a0, a, a1)) {
      if (loose) return left_on(a, b, a0) && left_on(b, a, a1);
      return left(a, b, a0) && left(b, a, a1);
    }
    return !(left_on(a, b, a1) && left_on(b, a, a0));
  }

  // No edge of the ring crosses or (strict mode) touches the diagonal i-j, except edges at points
  // equal to i or j (a bridge visits the same point twice).
  [[nodiscard]] bool diagonal_free(std::uint32_t i, std::uint32_t j, bool loose) const {
    const GridPoint d0 = p_[i];
    const GridPoint d1 = p_[j];
    std::uint32_t k = i;
    for (std::uint32_t step = 0; step < count_; ++step, k = next_[k]) {
      const std::uint32_t k1 = next_[k];
      if (k == i || k == j || k1 == i || k1 == j) continue;
      const GridPoint e0 = p_[k];
      const GridPoint e1 = p_[k1];
      if (e0 == d0 || e0 == d1 || e1 == d0 || e1 == d1) continue;
      if (loose ? intersect_prop(d0, d1, e0, e1) : intersect(d0, d1, e0, e1)) return false;
    }
    return true;
  }

  std::vector<GridPoint> p_;
  std::vector<std::uint32_t> next_;
  std::vector<std::uint32_t> prev_;
  std::uint32_t count_ = 0;
};

// A polygon under construction: global vertex indices, CCW.
using Poly = std::vector<std::uint32_t>;

struct MergeCandidate {
  std::int64_t value = -1;  // squared length of the shared edge, -1 = cannot merge
  std::size_t edge_a = 0;   // shared edge starts at a[edge_a]
  std::size_t edge_b = 0;   // and at b[edge_b] (reversed)
};

// Whether polygons a and b share an edge and their union is convex with at most max_verts.
MergeCandidate merge_value(const Poly& a, const Poly& b, const std::vector<GridPoint>& xz,
                           std::size_t max_verts) {
  MergeCandidate best;
  const std::size_t na = a.size();
  const std::size_t nb = b.size();
  if (na + nb - 2 > max_verts) return best;
  for (std::size_t i = 0; i < na; ++i) {
    const std::uint32_t va0 = a[i];
    const std::uint32_t va1 = a[(i + 1) % na];
    for (std::size_t j = 0; j < nb; ++j) {
      if (b[j] != va1 || b[(j + 1) % nb] != va0) continue;
      // junction at va0: previous in a, next after the shared edge in b
      const GridPoint p0 = xz[a[(i + na - 1) % na]];
      const GridPoint n0 = xz[b[(j + 2) % nb]];
      if (!convex_corner(p0, xz[va0], n0)) continue;
      const GridPoint p1 = xz[b[(j + nb - 1) % nb]];
      const GridPoint n1 = xz[a[(i + 2) % na]];
      if (!convex_corner(p1, xz[va1], n1)) continue;
      const std::int64_t value = length2(xz[va0], xz[va1]);
      if (value > best.value) best = {value, i, j};
    }
  }
  return best;
}

Poly merge_polys(const Poly& a, const Poly& b, const MergeCandidate& m) {
  const std::size_t na = a.size();
  const std::size_t nb = b.size();
  Poly out;
  out.reserve(na + nb - 2);
  for (std::size_t k = 0; k < na; ++k) out.push_back(a[(m.edge_a + 1 + k) % na]);
  for (std::size_t k = 0; k + 2 < nb; ++k) out.push_back(b[(m.edge_b + 2 + k) % nb]);
  return out;
}

std::uint64_t directed_key(std::uint32_t from, std::uint32_t to) {
  return (static_cast<std::uint64_t>(from) << 32) | to;
}

// Greedy merging of one contour's triangles: repeatedly join the pair sharing the longest edge
// whose union is convex (ties: the first pair in polygon order). Deterministic.
std::vector<Poly> merge_triangles(std::vector<Poly> polys, const std::vector<GridPoint>& xz,
                                  std::size_t max_verts) {
  if (max_verts <= 3 || polys.size() < 2) return polys;
  std::vector<bool> alive(polys.size(), true);
  // directed edge -> polygon owning it
  std::unordered_map<std::uint64_t, std::uint32_t> owner;
  owner.reserve(polys.size() * 4);
  const auto add_edges = [&](std::uint32_t p) {
    const Poly& poly = polys[p];
    for (std::size_t k = 0; k < poly.size(); ++k) {
      owner[directed_key(poly[k], poly[(k + 1) % poly.size()])] = p;
    }
  };
  const auto remove_edges = [&](std::uint32_t p) {
    const Poly& poly = polys[p];
    for (std::size_t k = 0; k < poly.size(); ++k) {
      const auto it = owner.find(directed_key(poly[k], poly[(k + 1) % poly.size()]));
      if (it != owner.end() && it->second == p) owner.erase(it);
    }
  };
  for (std::uint32_t p = 0; p < polys.size(); ++p) add_edges(p);
  // merge_value per polygon and edge, reused while neither polygon changes (a polygon's version
  // counts its merges; a merged polygon's slots are invalidated)
  struct Cached {
    std::uint32_t other = kNoPoly;
    std::uint32_t other_version = 0;
    MergeCandidate m;
  };
  std::vector<Cached> cache(polys.size() * max_verts);
  std::vector<std::uint32_t> version(polys.size(), 0);

  for (;;) {
    std::int64_t best_value = -1;
    std::uint32_t best_a = 0;
    std::uint32_t best_b = 0;
    MergeCandidate best_m;
    for (std::uint32_t pa = 0; pa < polys.size(); ++pa) {
      if (!alive[pa]) continue;
      const Poly& a = polys[pa];
      for (std::size_t k = 0; k < a.size(); ++k) {
        const auto it = owner.find(directed_key(a[(k + 1) % a.size()], a[k]));
        if (it == owner.end()) continue;
        const std::uint32_t pb = it->second;
        if (pb <= pa || !alive[pb]) continue;
        MergeCandidate m;
        if (k < max_verts) {
          Cached& slot = cache[pa * max_verts + k];
          if (slot.other != pb || slot.other_version != version[pb]) {
            slot = {pb, version[pb], merge_value(a, polys[pb], xz, max_verts)};
          }
          m = slot.m;
        } else {
          m = merge_value(a, polys[pb], xz, max_verts);
        }
        if (m.value > best_value) {
          best_value = m.value;
          best_a = pa;
          best_b = pb;
          best_m = m;
        }
      }
    }
    if (best_value < 0) break;
    remove_edges(best_a);
    remove_edges(best_b);
    polys[best_a] = merge_polys(polys[best_a], polys[best_b], best_m);
    ++version[best_a];
    std::fill_n(cache.begin() + static_cast<std::ptrdiff_t>(best_a * max_verts), max_verts,
                Cached{});
    alive[best_b] = false;
    polys[best_b].clear();
    add_edges(best_a);
  }
  std::vector<Poly> out;
  for (std::size_t p = 0; p < polys.size(); ++p) {
    if (alive[p]) out.push_back(std::move(polys[p]));
  }
  return out;
}

// The exhaustive partition and its check are quadratic in a contour's triangles; larger contours
// keep the greedy merge.
constexpr std::size_t kMaxPartitionTriangles = 64;

// Fewest convex polygons made of whole triangles of one contour: an exact tree dynamic program
// over a breadth-first spanning forest of the triangles' edge adjacency. A part is a set of at
// most max_verts - 2 triangles, connected in the forest, whose union is convex; each triangle adds
// one vertex, so any union within the vertex limit is a candidate. Among partitions with the
// fewest parts, the one whose removed forest edges are longest in total wins (as the greedy merge
// removes long edges first). A union of a connected set is built by merging its triangles one by
// one: every connected subset of a convex polygon's triangles is convex, so a part is convex
// exactly when every step is. Parts may not contain an adjacency outside the forest (a cycle
// round a hole). The greedy merge then joins parts across such adjacencies where it can.
std::vector<Poly> fewest_polygons(const std::vector<Poly>& triangles,
                                  const std::vector<GridPoint>& xz, std::size_t max_verts) {
  static_assert(kMaxPartitionTriangles <= 64, "sets are 64-bit masks");
  const auto n = static_cast<std::uint32_t>(triangles.size());
  std::unordered_map<std::uint64_t, std::uint32_t> owner;
  owner.reserve(static_cast<std::size_t>(n) * 3);
  for (std::uint32_t t = 0; t < n; ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      owner[directed_key(triangles[t][k], triangles[t][(k + 1) % 3])] = t;
    }
  }
  std::vector<std::array<std::uint32_t, 3>> across(n);  // neighbour across edge k, or kNoPoly
  for (std::uint32_t t = 0; t < n; ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      const auto it = owner.find(directed_key(triangles[t][(k + 1) % 3], triangles[t][k]));
      across[t][k] = (it == owner.end() || it->second == t) ? kNoPoly : it->second;
    }
  }
  // breadth-first spanning forest, roots in index order
  std::vector<std::uint32_t> parent(n, kNoPoly);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  std::vector<std::vector<std::uint32_t>> children(n);
  std::vector<bool> seen(n, false);
  std::size_t roots = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (seen[root]) continue;
    seen[root] = true;
    ++roots;
    std::size_t head = order.size();
    order.push_back(root);
    while (head < order.size()) {
      const std::uint32_t t = order[head++];
      for (const std::uint32_t u : across[t]) {
        if (u == kNoPoly || seen[u]) continue;
        seen[u] = true;
        parent[u] = t;
        children[t].push_back(u);
        order.push_back(u);
      }
    }
  }
  const auto bit = [](std::uint32_t t) { return std::uint64_t{1} << t; };
  const auto contains = [](const std::vector<std::uint32_t>& set, std::uint32_t t) {
    return std::find(set.begin(), set.end(), t) != set.end();
  };
  // the union of a connected set (set[0] first), empty when some step is not convex
  const auto union_of = [&](const std::vector<std::uint32_t>& set) {
    Poly joined = triangles[set[0]];
    std::vector<bool> in(set.size(), false);
    in[0] = true;
    for (std::size_t added = 1; added < set.size(); ++added) {
      bool progressed = false;
      for (std::size_t k = 1; k < set.size() && !progressed; ++k) {
        if (in[k]) continue;
        const MergeCandidate m = merge_value(joined, triangles[set[k]], xz, max_verts);
        if (m.value < 0) continue;
        joined = merge_polys(joined, triangles[set[k]], m);
        in[k] = true;
        progressed = true;
      }
      if (!progressed) return Poly{};
    }
    return joined;
  };
  const auto edge_length = [&](std::uint32_t a, std::uint32_t b) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (across[a][k] == b) {
        return std::sqrt(
            static_cast<double>(length2(xz[triangles[a][k]], xz[triangles[a][(k + 1) % 3]])));
      }
    }
    return 0.0;
  };
  const std::size_t max_part = max_verts - 2;
  std::vector<std::uint32_t> best_count(n, 0);
  std::vector<double> best_kept(n, 0.0);  // forest edges left between parts, total length
  std::vector<std::vector<std::uint32_t>> best_part(n);
  for (std::size_t i = order.size(); i-- > 0;) {
    const std::uint32_t v = order[i];
    // connected sets of v's subtree that contain v and form a part, by size, with their unions;
    // a set that closes a cycle or is not convex has no superset that is a part, so only parts
    // are grown (one merge step each)
    std::vector<std::vector<std::uint32_t>> sets{{v}};
    // the same sets as bit masks (at most 64 triangles): membership tests and equal sets (a set
    // is v, then its other triangles sorted, so equal masks are equal sets)
    std::vector<std::uint64_t> masks{bit(v)};
    std::vector<Poly> unions{triangles[v]};
    std::size_t level_begin = 0;
    for (std::size_t size = 2; size <= max_part; ++size) {
      const std::size_t level_end = sets.size();
      for (std::size_t s = level_begin; s < level_end; ++s) {
        for (std::size_t m = 0; m < sets[s].size(); ++m) {
          for (const std::uint32_t c : children[sets[s][m]]) {
            if ((masks[s] & bit(c)) != 0) continue;
            bool closes_cycle = false;
            for (const std::uint32_t b : across[c]) {
              closes_cycle = closes_cycle || (b != kNoPoly && b != sets[s][m] && parent[b] != c &&
                                              (masks[s] & bit(b)) != 0);
            }
            if (closes_cycle) continue;
            const std::uint64_t grown_mask = masks[s] | bit(c);
            if (std::find(masks.begin() + static_cast<std::ptrdiff_t>(level_end), masks.end(),
                          grown_mask) != masks.end()) {
              continue;
            }
            const MergeCandidate merge = merge_value(unions[s], triangles[c], xz, max_verts);
            if (merge.value < 0) continue;
            std::vector<std::uint32_t> grown = sets[s];
            grown.push_back(c);
            std::sort(grown.begin() + 1, grown.end());
            unions.push_back(merge_polys(unions[s], triangles[c], merge));
            sets.push_back(std::move(grown));
            masks.push_back(grown_mask);
          }
        }
      }
      if (sets.size() == level_end) break;
      level_begin = level_end;
    }
    bool have = false;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const std::vector<std::uint32_t>& set = sets[s];
      std::uint32_t count = 1;
      double kept = 0.0;
      for (const std::uint32_t a : set) {
        for (const std::uint32_t c : children[a]) {
          if ((masks[s] & bit(c)) != 0) continue;
          count += best_count[c];
          kept += best_kept[c] + edge_length(a, c);
        }
      }
      if (!have || count < best_count[v] || (count == best_count[v] && kept < best_kept[v])) {
        have = true;
        best_count[v] = count;
        best_kept[v] = kept;
        best_part[v] = set;
      }
    }
  }
  // the chosen parts, from the roots down
  std::vector<Poly> parts;
  std::vector<std::uint32_t> stack;
  for (std::uint32_t t = n; t-- > 0;) {
    if (parent[t] == kNoPoly) stack.push_back(t);
  }
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    const std::vector<std::uint32_t>& part = best_part[v];
    parts.push_back(union_of(part));
    std::vector<std::uint32_t> below;
    for (const std::uint32_t a : part) {
      for (const std::uint32_t c : children[a]) {
        if (!contains(part, c)) below.push_back(c);
      }
    }
    std::sort(below.begin(), below.end(), std::greater<>());
    stack.insert(stack.end(), below.begin(), below.end());
  }
  // note: without an adjacency outside the forest no two parts can merge (the program would
  // have found fewer parts)
  std::size_t adjacencies = 0;
  for (const auto& sides : across) {
    for (const std::uint32_t u : sides) adjacencies += u != kNoPoly;
  }
  if (adjacencies == 2 * (order.size() - roots)) return parts;
  return merge_triangles(std::move(parts), xz, max_verts);
}

// The portal-midpoint graph an A* with midpoint crossings searches inside one contour (portals:
// sorted directed edges): a node
// at the midpoint of each edge shared by two polygons and of each portal to another region
// (doubled coordinates), straight links between the nodes of a polygon, and the shortest
// distances between nodes (rows filled on demand by fill_distances).
struct MidpointGraph {
  std::vector<std::array<double, 2>> node;  // doubled grid coordinates
  std::vector<std::vector<std::uint32_t>> poly_nodes;
  std::vector<std::uint32_t> portal_node;  // per given portal, kNoPoly when missing
  std::vector<std::vector<std::pair<std::uint32_t, double>>> links;  // per node: (node, length)
  std::vector<double> dist;  // node x node, doubled, negative when unreachable or not yet filled
  std::vector<bool> filled;  // per node: its row of dist is computed
};

// Fills node source's row of g.dist: Dijkstra with a linear scan for the nearest open node (the
// graphs are small, so the scan is cheaper than a heap, and a node's distance is the same minimum
// over its settled neighbours either way).
void fill_distances(MidpointGraph& g, std::uint32_t source, std::vector<double>& tentative) {
  if (g.filled[source]) return;
  g.filled[source] = true;
  const std::size_t n = g.node.size();
  double* dist = g.dist.data() + static_cast<std::size_t>(source) * n;
  tentative.assign(n, -1.0);
  tentative[source] = 0.0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t k = 0; k < n; ++k) {
      if (tentative[k] >= 0.0 && dist[k] < 0.0 && (u == n || tentative[k] < tentative[u])) u = k;
    }
    if (u == n) break;
    const double d = tentative[u];
    dist[u] = d;
    for (const auto& [w, len] : g.links[u]) {
      if (dist[w] >= 0.0) continue;
      if (tentative[w] < 0.0 || d + len < tentative[w]) tentative[w] = d + len;
    }
  }
}

MidpointGraph midpoint_graph(const std::vector<Poly>& polys,
                             const std::vector<std::uint64_t>& portals,
                             const std::vector<GridPoint>& xz) {
  MidpointGraph g;
  std::unordered_map<std::uint64_t, std::uint32_t> edge_count;
  for (const Poly& p : polys) {
    for (std::size_t k = 0; k < p.size(); ++k) {
      ++edge_count[directed_key(p[k], p[(k + 1) % p.size()])];
    }
  }
  const auto undirected = [](std::uint32_t a, std::uint32_t b) {
    return directed_key(std::min(a, b), std::max(a, b));
  };
  std::unordered_map<std::uint64_t, std::uint32_t> node_at_edge;
  std::vector<std::vector<std::pair<std::uint32_t, double>>>& links = g.links;
  g.poly_nodes.resize(polys.size());
  for (std::size_t pi = 0; pi < polys.size(); ++pi) {
    const Poly& p = polys[pi];
    for (std::size_t k = 0; k < p.size(); ++k) {
      const std::uint32_t a = p[k];
      const std::uint32_t b = p[(k + 1) % p.size()];
      const bool internal = edge_count.count(directed_key(b, a)) != 0;
      const bool portal = std::binary_search(portals.begin(), portals.end(), directed_key(a, b));
      if (!internal && !portal) continue;
      const auto [it, fresh] = node_at_edge.try_emplace(undirected(a, b), 0U);
      if (fresh) {
        it->second = static_cast<std::uint32_t>(g.node.size());
        g.node.push_back(
            {static_cast<double>(xz[a].x) + xz[b].x, static_cast<double>(xz[a].z) + xz[b].z});
        links.emplace_back();
      }
      for (const std::uint32_t other : g.poly_nodes[pi]) {
        const double d = std::hypot(g.node[other][0] - g.node[it->second][0],
                                    g.node[other][1] - g.node[it->second][1]);
        links[other].emplace_back(it->second, d);
        links[it->second].emplace_back(other, d);
      }
      g.poly_nodes[pi].push_back(it->second);
    }
  }
  for (const std::uint64_t e : portals) {
    const auto it = node_at_edge.find(
        undirected(static_cast<std::uint32_t>(e >> 32), static_cast<std::uint32_t>(e)));
    g.portal_node.push_back(it == node_at_edge.end() ? kNoPoly : it->second);
  }
  const std::size_t n = g.node.size();
  g.dist.assign(n * n, -1.0);
  g.filled.assign(n, false);
  return g;
}

// Per sample point (tripled coordinates): its polygon, and its midpoint-path distance (doubled)
// to every node; a sample in no polygon gets kNoPoly.
struct SampleDistances {
  std::vector<std::uint32_t> poly;
  std::vector<double> to_node;  // sample x node, negative when unreachable
};

SampleDistances sample_distances(const MidpointGraph& g, const std::vector<Poly>& polys,
                                 const std::vector<GridPoint>& samples3,
                                 const std::vector<GridPoint>& xz) {
  SampleDistances out;
  const std::size_t n = g.node.size();
  out.poly.assign(samples3.size(), kNoPoly);
  out.to_node.assign(samples3.size() * n, -1.0);
  for (std::size_t si = 0; si < samples3.size(); ++si) {
    const GridPoint s = samples3[si];
    for (std::size_t pi = 0; pi < polys.size() && out.poly[si] == kNoPoly; ++pi) {
      const Poly& p = polys[pi];
      bool inside = true;
      for (std::size_t k = 0; k < p.size() && inside; ++k) {
        const GridPoint a{xz[p[k]].x * 3, xz[p[k]].z * 3};
        const GridPoint b{xz[p[(k + 1) % p.size()]].x * 3, xz[p[(k + 1) % p.size()]].z * 3};
        inside = left_on(a, b, s);
      }
      if (inside) out.poly[si] = static_cast<std::uint32_t>(pi);
    }
    if (out.poly[si] == kNoPoly) continue;
    double* row = out.to_node.data() + si * n;
    for (const std::uint32_t k : g.poly_nodes[out.poly[si]]) {
      const double first =
          std::hypot(s.x * (2.0 / 3.0) - g.node[k][0], s.z * (2.0 / 3.0) - g.node[k][1]);
      const double* from_k = g.dist.data() + static_cast<std::size_t>(k) * n;
      for (std::size_t l = 0; l < n; ++l) {
        if (from_k[l] < 0.0) continue;
        if (row[l] < 0.0 || first + from_k[l] < row[l]) row[l] = first + from_k[l];
      }
    }
  }
  return out;
}

// The total length (doubled) of the shortest midpoint paths between all pairs of terminals:
// portals, then samples. A sample is joined only to the midpoints of its polygon's edges, as a
// query's start is, so the path between two samples passes at least one midpoint even in one
// polygon. Pairs with no path count nothing.
double terminal_sum(const MidpointGraph& g, const SampleDistances& sd,
                    const std::vector<GridPoint>& samples3) {
  double total = 0.0;
  const std::size_t n = g.node.size();
  const std::size_t np = g.portal_node.size();
  const std::size_t ns = samples3.size();
  const auto add = [&](double d) {
    if (d >= 0.0) total += d;
  };
  for (std::size_t i = 0; i < np; ++i) {
    const std::uint32_t a = g.portal_node[i];
    if (a == kNoPoly) continue;
    for (std::size_t j = i + 1; j < np; ++j) {
      const std::uint32_t b = g.portal_node[j];
      if (b != kNoPoly) add(g.dist[a * n + b]);
    }
    for (std::size_t s = 0; s < ns; ++s) {
      if (sd.poly[s] != kNoPoly) add(sd.to_node[s * n + a]);
    }
  }
  for (std::size_t s = 0; s < ns; ++s) {
    if (sd.poly[s] == kNoPoly) continue;
    for (std::size_t t = s + 1; t < ns; ++t) {
      if (sd.poly[t] == kNoPoly) continue;
      const double tx = samples3[t].x * (2.0 / 3.0);
      const double tz = samples3[t].z * (2.0 / 3.0);
      double best = -1.0;
      for (const std::uint32_t l : g.poly_nodes[sd.poly[t]]) {
        const double via = sd.to_node[s * n + l];
        if (via < 0.0) continue;
        const double d = via + std::hypot(g.node[l][0] - tx, g.node[l][1] - tz);
        if (best < 0.0 || d < best) best = d;
      }
      add(best);
    }
  }
  return total;
}

// Fills every row of g.dist.
void fill_all_distances(MidpointGraph& g, std::vector<double>& tentative) {
  for (std::uint32_t source = 0; source < g.node.size(); ++source) {
    fill_distances(g, source, tentative);
  }
}

// The fewest-polygon partition replaces the greedy one only where it does not lengthen the paths
// a portal A* with midpoint crossings measures through the contour: no path between two of its
// portals to other regions is longer, and the paths between all pairs of portals and triangle
// centroids are no longer in total (bench/RESULTS.md, "Polygon economy: fewest polygons where
// the midpoint paths stay short").
bool keeps_midpoint_paths(const std::vector<Poly>& fewer, const std::vector<Poly>& greedy,
                          const std::vector<std::uint64_t>& portals,
                          const std::vector<GridPoint>& samples3,
                          const std::vector<GridPoint>& xz) {
  MidpointGraph a = midpoint_graph(fewer, portals, xz);
  MidpointGraph b = midpoint_graph(greedy, portals, xz);
  const std::size_t np = portals.size();
  // the portal pairs need only the portals' rows, and often refuse the change already
  std::vector<double> tentative;
  for (std::size_t i = 0; i < np; ++i) {
    if (a.portal_node[i] != kNoPoly) fill_distances(a, a.portal_node[i], tentative);
    if (b.portal_node[i] != kNoPoly) fill_distances(b, b.portal_node[i], tentative);
  }
  for (std::size_t i = 0; i < np; ++i) {
    for (std::size_t j = i + 1; j < np; ++j) {
      const auto pair = [&](const MidpointGraph& g) {
        const std::uint32_t u = g.portal_node[i];
        const std::uint32_t v = g.portal_node[j];
        return (u == kNoPoly || v == kNoPoly) ? -1.0 : g.dist[u * g.node.size() + v];
      };
      const double da = pair(a);
      const double db = pair(b);
      if ((da < 0.0) != (db < 0.0) || da > db + 1e-9) return false;
    }
  }
  fill_all_distances(a, tentative);
  fill_all_distances(b, tentative);
  return terminal_sum(a, sample_distances(a, fewer, samples3, xz), samples3) <=
         terminal_sum(b, sample_distances(b, greedy, samples3, xz), samples3);
}

struct ContourPolys {
  std::vector<Poly> polys;
  bool fell_back = false;
};

}  // namespace

Triangulation triangulate_polygon(std::span<const GridPoint> points) {
  Triangulation out;
  // skip consecutive repeated points (including the wrap-around)
  std::vector<GridPoint> pts;
  std::vector<std::uint32_t> original;
  pts.reserve(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!pts.empty() && pts.back() == points[i]) continue;
    pts.push_back(points[i]);
    original.push_back(static_cast<std::uint32_t>(i));
  }
  while (pts.size() > 1 && pts.back() == pts.front()) {
    pts.pop_back();
    original.pop_back();
  }
  const auto n = static_cast<std::uint32_t>(pts.size());
  if (n < 3) return out;
  out.triangles.reserve(n - 2);

  EarRing ring(std::move(pts));
  std::vector<bool> ear(n);
  for (std::uint32_t k = 0; k < n; ++k) ear[k] = ring.is_ear(k, false);

  std::uint32_t head = 0;
  while (ring.count() > 3) {
    // the valid ear with the shortest diagonal
    std::uint32_t best = n;
    std::int64_t best_len = 0;
    for (int pass = 0; pass < 2 && best == n; ++pass) {
      const bool loose = pass == 1;
      std::uint32_t k = head;
      for (std::uint32_t step = 0; step < ring.count(); ++step, k = ring.next(k)) {
        if (loose ? !ring.is_ear(k, true) : !ear[k]) continue;
        const std::int64_t len = length2(ring.point(ring.prev(k)), ring.point(ring.next(k)));
        if (best == n || len < best_len) {
          best = k;
          best_len = len;
        }
      }
    }
    if (best == n) {
      // fallback: cut the convex vertex with the largest triangle, without diagonal tests
      std::int64_t best_area = 0;
      std::uint32_t k = head;
      for (std::uint32_t step = 0; step < ring.count(); ++step, k = ring.next(k)) {
        const std::int64_t a =
            area2(ring.point(ring.prev(k)), ring.point(k), ring.point(ring.next(k)));
        if (a > best_area) {
          best_area = a;
          best = k;
        }
      }
      if (best == n) return out;  // only zero-area spikes and collinear runs remain
      out.fell_back = true;
    }
    const std::uint32_t i = ring.prev(best);
    const std::uint32_t j = ring.next(best);
    out.triangles.push_back({original[i], original[best], original[j]});
    ring.remove(best);
    if (head == best) head = j;
    ear[i] = ring.is_ear(i, false);
    ear[j] = ring.is_ear(j, false);
  }
  const std::uint32_t a = head;
  const std::uint32_t b = ring.next(a);
  const std::uint32_t c = ring.next(b);
  if (left(ring.point(a), ring.point(b), ring.point(c))) {
    out.triangles.push_back({original[a], original[b], original[c]});
  }
  return out;
}

Result<NavMesh> build_polygons(const ContourSet& contours, const VoxelParams& params,
                               BuildContext& ctx) {
  const GridSpec& grid = contours.grid;
  const int max_verts = params.max_verts_per_poly;
  if (max_verts < 3 || max_verts > kMaxVertsPerPolyLimit) {
    return make_error(ErrorCode::InvalidArgument,
                      "polygons: max_verts_per_poly " + std::to_string(max_verts) +
                          " out of range 3.." + std::to_string(kMaxVertsPerPolyLimit));
  }
  LEAPNAV_TRY(ctx.check_cancel("polygons"));
  // weld contour vertices in contour order
  std::vector<GridPoint> xz;
  std::vector<std::int32_t> heights;
  std::vector<std::vector<std::uint32_t>> contour_ids(contours.contours.size());
  {
    std::unordered_map<std::uint64_t, std::uint32_t> first_at;  // corner -> first vertex there
    std::vector<std::uint32_t> next_at;                         // chain of vertices per corner
    for (std::size_t c = 0; c < contours.contours.size(); ++c) {
      const Contour& contour = contours.contours[c];
      contour_ids[c].reserve(contour.vertices.size());
      for (const ContourVertex& v : contour.vertices) {
        if (v.x < 0 || v.z < 0 || v.x > grid.width || v.z > grid.depth) {
          return make_error(ErrorCode::Internal,
                            "polygons: contour of region " + std::to_string(contour.region) +
                                " has a vertex outside the grid (" + std::to_string(v.x) + ", " +
                                std::to_string(v.z) + ")");
        }
        const std::uint64_t key =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(v.x)) << 32) |
            static_cast<std::uint32_t>(v.z);
        std::uint32_t found = kNoPoly;
        const auto it = first_at.find(key);
        if (it != first_at.end()) {
          for (std::uint32_t w = it->second; w != kNoPoly; w = next_at[w]) {
            if (std::abs(heights[w] - v.y) <= kWeldHeightCells) {
              found = w;
              break;
            }
          }
        }
        if (found == kNoPoly) {
          found = static_cast<std::uint32_t>(xz.size());
          xz.push_back({v.x, v.z});
          heights.push_back(v.y);
          if (it == first_at.end()) {
            next_at.push_back(kNoPoly);
            first_at.emplace(key, found);
          } else {
            // append at the chain's end so earlier vertices are matched first
            std::uint32_t w = it->second;
            while (next_at[w] != kNoPoly) w = next_at[w];
            next_at[w] = found;
            next_at.push_back(kNoPoly);
          }
        }
        contour_ids[c].push_back(found);
      }
    }
  }

  LEAPNAV_TRY(ctx.check_cancel("polygons"));
  // triangulate and merge each contour
  std::vector<ContourPolys> per_contour(contours.contours.size());
  parallel_for(ctx.threads(), 0, contours.contours.size(), 4, [&](std::size_t c0, std::size_t c1) {
    std::vector<GridPoint> pts;
    std::vector<GridPoint> samples3;
    std::vector<std::uint64_t> portals;
    for (std::size_t c = c0; c < c1; ++c) {
      const Contour& contour = contours.contours[c];
      pts.clear();
      for (const ContourVertex& v : contour.vertices) pts.push_back({v.x, v.z});
      const Triangulation tri = triangulate_polygon(pts);
      std::vector<Poly> polys;
      polys.reserve(tri.triangles.size());
      for (const auto& t : tri.triangles) {
        Poly p{contour_ids[c][t[0]], contour_ids[c][t[1]], contour_ids[c][t[2]]};
        if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2]) continue;
        polys.push_back(std::move(p));
      }
      const auto limit = static_cast<std::size_t>(max_verts);
      const bool try_fewer =
          limit > 3 && polys.size() > 2 && polys.size() <= kMaxPartitionTriangles && !tri.fell_back;
      std::vector<Poly> triangles;
      if (try_fewer) triangles = polys;
      per_contour[c].polys = merge_triangles(std::move(polys), xz, limit);
      // note: a part holds at most limit - 2 triangles, so no partition has fewer polygons than
      // this bound; the greedy merge often reaches it
      const std::size_t least = (triangles.size() + limit - 3) / (limit - 2);
      std::vector<Poly> fewer;
      if (try_fewer && per_contour[c].polys.size() > least) {
        fewer = fewest_polygons(triangles, xz, limit);
        // the triangle centroids, in tripled coordinates
        samples3.clear();
        for (const Poly& t : triangles) {
          samples3.push_back(
              {xz[t[0]].x + xz[t[1]].x + xz[t[2]].x, xz[t[0]].z + xz[t[1]].z + xz[t[2]].z});
        }
      }
      if (!fewer.empty() && fewer.size() < per_contour[c].polys.size()) {
        portals.clear();
        const std::vector<std::uint32_t>& ids = contour_ids[c];
        for (std::size_t i = 0; i < ids.size(); ++i) {
          const std::uint16_t across = contour.vertices[i].neighbor_region;
          const std::uint32_t next = ids[(i + 1) % ids.size()];
          if (across != kNoRegion && across != contour.region && ids[i] != next) {
            portals.push_back(directed_key(ids[i], next));
          }
        }
        std::sort(portals.begin(), portals.end());
        if (keeps_midpoint_paths(fewer, per_contour[c].polys, portals, samples3, xz)) {
          per_contour[c].polys = std::move(fewer);
        }
      }
      per_contour[c].fell_back = tri.fell_back;
    }
  });

  NavMesh mesh;
  mesh.grid = grid;
  mesh.config.poly.max_verts_per_poly = max_verts;
  mesh.vertices.reserve(xz.size());
  for (std::size_t v = 0; v < xz.size(); ++v) {
    // note: the one conversion from grid to world coordinates (in double, rounded once)
    mesh.vertices.push_back(grid.corner_to_world(xz[v].x, heights[v], xz[v].z));
  }
  mesh.poly_first.push_back(0);
  for (std::size_t c = 0; c < per_contour.size(); ++c) {
    if (per_contour[c].fell_back) {
      ctx.warn("polygons: contour of region " + std::to_string(contours.contours[c].region) +
               " could not be ear-clipped cleanly; some triangles were cut without the diagonal "
               "test");
    }
    for (const Poly& p : per_contour[c].polys) {
      AABB bounds;
      for (const std::uint32_t v : p) {
        mesh.poly_vertices.push_back(v);
        bounds.extend(mesh.vertices[v]);
      }
      mesh.poly_first.push_back(static_cast<std::uint32_t>(mesh.poly_vertices.size()));
      mesh.poly_region.push_back(contours.contours[c].region);
      // note: crouch regions carry their ground area id and the crouch flag
      const std::uint8_t area = contours.contours[c].area;
      mesh.poly_area.push_back(static_cast<std::uint8_t>(area & ~voxel::kCrouchAreaBit));
      mesh.poly_flags.push_back((area & voxel::kCrouchAreaBit) != 0 ? kPolyFlagCrouch
                                                                    : std::uint16_t{0});
      mesh.poly_bounds.push_back(bounds);
    }
  }

  LEAPNAV_TRY(ctx.check_cancel("polygons"));
  // adjacency: pair each edge with the reversed edge of another polygon
  struct EdgeRef {
    std::uint32_t lo, hi, poly, slot;
    bool forward;  // lo -> hi
  };
  std::vector<EdgeRef> edges;
  edges.reserve(mesh.poly_vertices.size());
  const std::size_t poly_count = mesh.polygon_count();
  for (std::uint32_t p = 0; p < poly_count; ++p) {
    const std::uint32_t f = mesh.poly_first[p];
    const std::uint32_t n = mesh.poly_first[p + 1] - f;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t a = mesh.poly_vertices[f + k];
      const std::uint32_t b = mesh.poly_vertices[f + (k + 1) % n];
      edges.push_back({std::min(a, b), std::max(a, b), p, f + k, a < b});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const EdgeRef& x, const EdgeRef& y) {
    if (x.lo != y.lo) return x.lo < y.lo;
    if (x.hi != y.hi) return x.hi < y.hi;
    return x.slot < y.slot;
  });
  mesh.poly_neighbors.assign(mesh.poly_vertices.size(), kNoPoly);
  for (std::size_t e = 0; e < edges.size();) {
    std::size_t end = e + 1;
    while (end < edges.size() && edges[end].lo == edges[e].lo && edges[end].hi == edges[e].hi) {
      ++end;
    }
    // pair the first forward edge with the first backward edge of another polygon
    std::size_t fwd = end;
    std::size_t bwd = end;
    for (std::size_t k = e; k < end; ++k) {
      if (edges[k].forward && fwd == end) fwd = k;
      if (!edges[k].forward && bwd == end) bwd = k;
    }
    if (fwd != end && bwd != end && edges[fwd].poly != edges[bwd].poly) {
      mesh.poly_neighbors[edges[fwd].slot] = edges[bwd].poly;
      mesh.poly_neighbors[edges[bwd].slot] = edges[fwd].poly;
    }
    e = end;
  }
  return mesh;
}

}  // namespace leapnav::mesh
