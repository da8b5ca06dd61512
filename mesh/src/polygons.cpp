// Contours to convex polygons: ear clipping with exact integer diagonal tests (strict first, then
// loose tests that allow touching at repeated points, then a warned fallback), welding of grid
// corners across contours, greedy convex merging along the longest shared edge (O'Rourke,
// "Computational Geometry in C" §1 for the diagonal tests; the merge rule follows pipeline.md §2).
// Everything runs on integer grid coordinates, so the geometric predicates are exact.
#include "leapnav/mesh/polygons.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
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
        const MergeCandidate m = merge_value(a, polys[pb], xz, max_verts);
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
      per_contour[c].polys =
          merge_triangles(std::move(polys), xz, static_cast<std::size_t>(max_verts));
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
