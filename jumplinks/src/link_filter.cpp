// Walkable-link filter (link_filter.hpp): per link, straight walks from the start to both ends of
// the landing segment (a ray through the polygons it crosses); for the links these do not settle,
// one Dijkstra per distinct start point over the portal midpoints, bounded by the largest budget
// of the point's links, and for links still undecided the walk through the same portal edges at
// the crossings that shorten it most; then one verdict per link. Start polygons run in parallel
// into per-link flags; the kept links are joined in their order, so the result does not depend on
// the thread count.
#include "leapnav/jumplinks/link_filter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "leapnav/core/parallel.hpp"

namespace leapnav::jump {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kNoEdge = std::numeric_limits<std::size_t>::max();

struct P2 {
  double x = 0.0;
  double z = 0.0;
};

double dist(P2 a, P2 b) {
  return std::hypot(a.x - b.x, a.z - b.z);
}

P2 ground(Vec3 p) {
  return {p.x, p.z};
}

// The xz distance from p to the segment [a, b].
double segment_distance(P2 p, P2 a, P2 b) {
  return segment_distance_2d(p.x, p.z, a.x, a.z, b.x, b.z);
}

bool walkable(const mesh::NavMesh& navmesh, std::uint32_t poly) {
  return navmesh.poly_flags.empty() || navmesh.poly_flags[poly] == 0;
}

// Tolerances of the straight walk: a point within kOnEdge metres of a polygon's edge line counts
// as on it (welded vertices are float; 0.1 mm of walking is below anything the planner measures).
constexpr double kOnEdge = 1e-4;
// At most this many polygons on one straight walk (a guard; walks span a few dozen at most).
constexpr int kMaxRayPolygons = 4096;

// The part [t_in, t_out] of the segment from + t * d (t in [0, 1]) inside convex polygon `poly`
// (CCW in xz, edges widened by kOnEdge), and the edge (index into poly_neighbors) through which it
// leaves at t_out (none when t_out is 1). Empty when t_in > t_out.
struct Clip {
  double t_in = 0.0;
  double t_out = 1.0;
  std::size_t exit = std::numeric_limits<std::size_t>::max();
};

// Per edge (indexed like poly_vertices): its first vertex and direction in xz, and kOnEdge times
// its length (0 for a zero-length edge, which clip skips); computed once per mesh.
struct EdgeGeometry {
  double ax = 0.0;
  double az = 0.0;
  double ex = 0.0;
  double ez = 0.0;
  double tolerance = 0.0;
};

std::vector<EdgeGeometry> edge_geometry(const mesh::NavMesh& navmesh) {
  std::vector<EdgeGeometry> out(navmesh.poly_vertices.size());
  for (std::uint32_t p = 0; p < navmesh.polygon_count(); ++p) {
    const std::uint32_t first = navmesh.poly_first[p];
    const std::uint32_t end = navmesh.poly_first[p + 1];
    for (std::uint32_t e = first; e < end; ++e) {
      const std::uint32_t next = e + 1 == end ? first : e + 1;
      const Vec3 va = navmesh.vertices[navmesh.poly_vertices[e]];
      const Vec3 vb = navmesh.vertices[navmesh.poly_vertices[next]];
      EdgeGeometry& g = out[e];
      g.ax = va.x;
      g.az = va.z;
      g.ex = static_cast<double>(vb.x) - va.x;
      g.ez = static_cast<double>(vb.z) - va.z;
      g.tolerance = kOnEdge * std::hypot(g.ex, g.ez);
    }
  }
  return out;
}

Clip clip(const mesh::NavMesh& navmesh, std::span<const EdgeGeometry> edges, std::uint32_t poly,
          P2 from, P2 d) {
  Clip c;
  const std::uint32_t first = navmesh.poly_first[poly];
  const std::uint32_t end = navmesh.poly_first[poly + 1];
  for (std::uint32_t e = first; e < end; ++e) {
    const EdgeGeometry& g = edges[e];
    if (g.ex == 0.0 && g.ez == 0.0) continue;  // zero length
    // inside: cross(edge, p - va) >= -kOnEdge * len (CCW polygon, interior on the left)
    const double f0 = g.ex * (from.z - g.az) - g.ez * (from.x - g.ax) + g.tolerance;
    const double f1 = g.ex * d.z - g.ez * d.x;
    if (f1 == 0.0) {
      if (f0 < 0.0) c.t_in = kInf;  // parallel and outside
    } else if (f1 > 0.0) {
      c.t_in = std::max(c.t_in, -f0 / f1);
    } else if (-f0 / f1 < c.t_out) {
      c.t_out = -f0 / f1;
      c.exit = e;
    }
  }
  return c;
}

// True when the straight xz segment from `from` (in polygon from_poly) to `to` stays on the mesh:
// it runs through a chain of polygons, each entered through the portal edge the previous one is
// left by, none with flags except from_poly, and ends inside to_poly. Every piece is a straight
// line inside one convex polygon, so the segment is a real walk of its xz length. A ray through a
// vertex or along an edge may fail (the caller then uses the midpoint walk): false is never
// unsound.
bool straight_walk(const mesh::NavMesh& navmesh, std::span<const EdgeGeometry> edges, P2 from,
                   std::uint32_t from_poly, P2 to, std::uint32_t to_poly) {
  const P2 d{to.x - from.x, to.z - from.z};
  const double length = std::hypot(d.x, d.z);
  const double eps = length > 0.0 ? kOnEdge / length : 0.0;  // kOnEdge in units of t
  std::uint32_t poly = from_poly;
  double t = 0.0;
  for (int step = 0; step < kMaxRayPolygons; ++step) {
    const Clip c = clip(navmesh, edges, poly, from, d);
    // the segment must go on inside this polygon from where the previous one left it
    if (c.t_in > t + eps || c.t_out < t - eps) return false;
    if (c.exit == std::numeric_limits<std::size_t>::max()) return poly == to_poly;
    if (c.t_out <= t && step > 0) return false;  // no progress (through a vertex): give up
    const std::uint32_t next = navmesh.poly_neighbors[c.exit];
    if (next == mesh::kNoPoly || !walkable(navmesh, next)) return false;
    t = c.t_out;
    poly = next;
  }
  return false;
}

// An upper bound on walking from the start to the farthest point of [a, b] (length L) given walks
// of xa to a and xb to b: a point t of the segment is reached by walking to a and on along the
// segment inside the convex land polygon (xa + |a - t|), or likewise through b; the worse point
// is where the two meet.
double through_ends(double xa, double xb, double len) {
  if (std::abs(xa - xb) <= len) return 0.5 * (xa + xb + len);
  return std::min(xa, xb) + len;
}

// Per portal edge (indexed like poly_neighbors): its polygon and its midpoint (xz); computed once
// per mesh and shared read-only by the walkers.
struct EdgeTable {
  std::vector<std::uint32_t> owner;
  std::vector<P2> midpoint;

  explicit EdgeTable(const mesh::NavMesh& navmesh) {
    owner.resize(navmesh.poly_neighbors.size());
    midpoint.resize(navmesh.poly_neighbors.size());
    for (std::uint32_t p = 0; p < navmesh.polygon_count(); ++p) {
      const std::uint32_t first = navmesh.poly_first[p];
      const std::uint32_t end = navmesh.poly_first[p + 1];
      for (std::uint32_t e = first; e < end; ++e) {
        const std::uint32_t next = e + 1 == end ? first : e + 1;
        const Vec3 a = navmesh.vertices[navmesh.poly_vertices[e]];
        const Vec3 b = navmesh.vertices[navmesh.poly_vertices[next]];
        owner[e] = p;
        midpoint[e] = {0.5 * (static_cast<double>(a.x) + b.x),
                       0.5 * (static_cast<double>(a.z) + b.z)};
      }
    }
  }
};

// Distances from one start point to the midpoints of portal edges (indexed like poly_neighbors);
// a finite value is the length of an explicit walk, whether or not it was settled.
class Walker {
 public:
  Walker(const mesh::NavMesh& navmesh, const EdgeTable& edges) : navmesh_(navmesh), edges_(edges) {
    dist_.assign(navmesh.poly_neighbors.size(), kInf);
    parent_.assign(navmesh.poly_neighbors.size(), kNoEdge);
  }

  void run(P2 start, std::uint32_t start_poly, double bound) {
    for (const std::size_t e : touched_) dist_[e] = kInf;
    touched_.clear();
    heap_ = {};
    // note: the start polygon may always be left (a query may start in a flagged polygon)
    relax_polygon(start_poly, start, 0.0, kNoEdge);
    while (!heap_.empty()) {
      const auto [d, e] = heap_.top();
      heap_.pop();
      if (d > bound) break;
      if (d > dist_[e]) continue;
      const std::uint32_t other = navmesh_.poly_neighbors[e];
      const P2 m = edges_.midpoint[e];
      relax_polygon(edges_.owner[e], m, d, e);
      if (walkable(navmesh_, other)) relax_polygon(other, m, d, e);
    }
  }

  // The shortest found walk to the farther of a and b inside polygon `land` (+inf when none),
  // also given the straight walks xa to a and xb to b (+inf when none): the walk through one
  // midpoint m of land's edges to the farther end, or the walks to a and to b
  // (via the nearer midpoint or straight) joined along the segment (through_ends).
  [[nodiscard]] double to_segment(std::uint32_t land, P2 a, P2 b, double xa = kInf,
                                  double xb = kInf) const {
    double best = kInf;
    for (std::uint32_t e = navmesh_.poly_first[land]; e < navmesh_.poly_first[land + 1]; ++e) {
      if (dist_[e] == kInf) continue;
      const P2 m = edges_.midpoint[e];
      const double ma = dist(m, a);
      const double mb = dist(m, b);
      best = std::min(best, dist_[e] + std::max(ma, mb));
      xa = std::min(xa, dist_[e] + ma);
      xb = std::min(xb, dist_[e] + mb);
    }
    return std::min(best, through_ends(xa, xb, dist(a, b)));
  }

  // A walk from `start` to `target` (a point of polygon `land`) through the portal edges the
  // midpoint walk to land's nearest edge crossed, each crossed at the point that shortens the walk
  // most (a few rounds of coordinate descent from the midpoints): consecutive crossings lie on two
  // edges of one convex polygon (the one the midpoint walk went through), so every piece is a
  // real walk, wherever on the edges the crossings are. +inf when the search did not reach land.
  [[nodiscard]] double through_corridor(std::uint32_t land, P2 start, P2 target) {
    std::size_t last = kNoEdge;
    double best = kInf;
    for (std::uint32_t e = navmesh_.poly_first[land]; e < navmesh_.poly_first[land + 1]; ++e) {
      if (dist_[e] == kInf) continue;
      const double w = dist_[e] + dist(edges_.midpoint[e], target);
      if (w < best) {
        best = w;
        last = e;
      }
    }
    if (last == kNoEdge) return kInf;
    chain_.clear();
    for (std::size_t e = last; e != kNoEdge; e = parent_[e]) {
      if (chain_.size() > touched_.size()) return kInf;  // a guard: chains cannot be longer
      // a portal crossed from one side and left from the other is one segment: once
      if (!chain_.empty() && same_segment(chain_.back(), e)) continue;
      chain_.push_back(e);
    }
    std::reverse(chain_.begin(), chain_.end());
    const std::size_t n = chain_.size();
    cross_.resize(n);
    for (std::size_t i = 0; i < n; ++i) cross_[i] = edges_.midpoint[chain_[i]];
    // note: each step shortens the walk, so it converges; any crossings give a real walk
    constexpr int kMaxRounds = 64;
    for (int round = 0; round < kMaxRounds; ++round) {
      double moved = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        const P2 prev = i == 0 ? start : cross_[i - 1];
        const P2 next = i + 1 == n ? target : cross_[i + 1];
        const P2 x = best_crossing(prev, next, chain_[i]);
        moved = std::max(moved, dist(x, cross_[i]));
        cross_[i] = x;
      }
      if (moved < 1e-7) break;
    }
    double length = dist(start, cross_[0]) + dist(cross_[n - 1], target);
    for (std::size_t i = 0; i + 1 < n; ++i) length += dist(cross_[i], cross_[i + 1]);
    return length;
  }

 private:
  // The two vertices of edge e (indexed like poly_neighbors).
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> ends(std::size_t e) const {
    const std::uint32_t poly = edges_.owner[e];
    const std::size_t next =
        e + 1 == navmesh_.poly_first[poly + 1] ? std::size_t{navmesh_.poly_first[poly]} : e + 1;
    return {navmesh_.poly_vertices[e], navmesh_.poly_vertices[next]};
  }

  [[nodiscard]] bool same_segment(std::size_t e, std::size_t f) const {
    const auto [a, b] = ends(e);
    const auto [c, d] = ends(f);
    return (a == c && b == d) || (a == d && b == c);
  }

  // The point x of edge e (indexed like poly_neighbors) minimising |p - x| + |x - q|: where the
  // line from p to q (or to q mirrored across the edge's line, when both lie on one side) meets
  // the edge's line, clamped to the edge (the sum is convex along the line).
  [[nodiscard]] P2 best_crossing(P2 p, P2 q, std::size_t e) const {
    const auto [iu, iv] = ends(e);
    const P2 u = ground(navmesh_.vertices[iu]);
    const P2 v = ground(navmesh_.vertices[iv]);
    const double ex = v.x - u.x;
    const double ez = v.z - u.z;
    const double len2 = ex * ex + ez * ez;
    if (len2 == 0.0) return u;
    const double sp = ex * (p.z - u.z) - ez * (p.x - u.x);
    double sq = ex * (q.z - u.z) - ez * (q.x - u.x);
    if ((sp > 0.0) == (sq > 0.0) && sp != 0.0 && sq != 0.0) {
      // mirror q across the edge's line
      const double k = 2.0 * sq / len2;
      q = {q.x + k * ez, q.z - k * ex};
      sq = -sq;
    }
    double t = 0.0;
    if (sp == sq) {
      // p and q on the line itself: the nearer of the two projections
      t = ((p.x - u.x) * ex + (p.z - u.z) * ez) / len2;
    } else {
      const double w = sp / (sp - sq);  // where p + w (q - p) crosses the line
      const P2 x{p.x + w * (q.x - p.x), p.z + w * (q.z - p.z)};
      t = ((x.x - u.x) * ex + (x.z - u.z) * ez) / len2;
    }
    t = std::clamp(t, 0.0, 1.0);
    return {u.x + t * ex, u.z + t * ez};
  }

  // Walks from p (in or on the boundary of polygon `poly`, reached at cost d) to the midpoints of
  // poly's portal edges: straight lines inside a convex polygon.
  void relax_polygon(std::uint32_t poly, P2 p, double d, std::size_t from) {
    for (std::uint32_t e = navmesh_.poly_first[poly]; e < navmesh_.poly_first[poly + 1]; ++e) {
      if (navmesh_.poly_neighbors[e] == mesh::kNoPoly) continue;
      const double cand = d + dist(p, edges_.midpoint[e]);
      if (cand < dist_[e]) {
        if (dist_[e] == kInf) touched_.push_back(e);
        dist_[e] = cand;
        parent_[e] = from;
        heap_.emplace(cand, e);
      }
    }
  }

  const mesh::NavMesh& navmesh_;
  const EdgeTable& edges_;
  std::vector<double> dist_;
  std::vector<std::size_t> parent_;  // the edge whose midpoint an edge's walk came from
  std::vector<std::size_t> touched_;
  std::vector<std::size_t> chain_;
  std::vector<P2> cross_;
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
};

// A link the straight walks did not settle, with their lengths (+inf where none).
struct Open {
  std::size_t link = 0;
  double xa = kInf;
  double xb = kInf;
};

// A link's start point and index, sorted to group a polygon's links by start point.
struct StartKey {
  float x = 0.0F;
  float z = 0.0F;
  float y = 0.0F;
  std::size_t link = 0;
};

// A link's budget: its shortest jump (xz, start to the nearest landing point) plus the slack.
double budget(const JumpLink& link, double slack) {
  return segment_distance(ground(link.start), ground(link.land_a), ground(link.land_b)) + slack;
}

}  // namespace

Status validate(const LinkFilterOptions& options) {
  if (!std::isfinite(options.slack) || options.slack < 0.0F)
    return make_error(
        ErrorCode::InvalidArgument,
        "link filter: slack " + std::to_string(options.slack) + " must be finite and >= 0");
  return {};
}

double walk_bound(const mesh::NavMesh& navmesh, Vec3 start, std::uint32_t start_poly, Vec3 land_a,
                  Vec3 land_b, std::uint32_t land_poly, double bound) {
  if (start_poly >= navmesh.polygon_count() || land_poly >= navmesh.polygon_count()) return kInf;
  if (!walkable(navmesh, land_poly)) return kInf;
  const P2 s = ground(start);
  const P2 a = ground(land_a);
  const P2 b = ground(land_b);
  const std::vector<EdgeGeometry> geometry = edge_geometry(navmesh);
  const double xa =
      straight_walk(navmesh, geometry, s, start_poly, a, land_poly) ? dist(s, a) : kInf;
  const double xb =
      straight_walk(navmesh, geometry, s, start_poly, b, land_poly) ? dist(s, b) : kInf;
  const EdgeTable edges(navmesh);
  Walker walker(navmesh, edges);
  walker.run(s, start_poly, bound);
  double walk = walker.to_segment(land_poly, a, b, xa, xb);
  {
    const double ca = xa < kInf ? xa : walker.through_corridor(land_poly, s, a);
    const double cb = xb < kInf ? xb : walker.through_corridor(land_poly, s, b);
    walk = std::min(walk, through_ends(ca, cb, dist(a, b)));
  }
  return walk <= bound ? walk : kInf;
}

Result<LinkFilterStats> filter_walkable_links(JumpLinkSet& set, const mesh::NavMesh& navmesh,
                                              const LinkFilterOptions& options, BuildContext& ctx) {
  LEAPNAV_TRY(validate(options));
  auto timer = ctx.scoped_timer("jump_filter");
  LinkFilterStats stats;
  stats.links_in = set.links.size();
  if (!options.enabled || set.links.empty()) return stats;
  const std::size_t polys = navmesh.polygon_count();
  for (const JumpLink& link : set.links) {
    if (link.start_poly >= polys || link.land_poly >= polys)
      return make_error(ErrorCode::InvalidArgument,
                        "link filter: a link names polygon " +
                            std::to_string(std::max(link.start_poly, link.land_poly)) + " of " +
                            std::to_string(polys));
  }
  // the links' ranges per start polygon (the set is sorted by start polygon)
  std::vector<std::size_t> first(polys + 1, 0);
  for (const JumpLink& link : set.links) ++first[link.start_poly + 1];
  for (std::size_t p = 0; p < polys; ++p) first[p + 1] += first[p];
  const double slack = options.slack;
  std::vector<std::uint8_t> drop(set.links.size(), 0);
  const EdgeTable edges(navmesh);
  const std::vector<EdgeGeometry> geometry = edge_geometry(navmesh);
  std::vector<std::uint64_t> walks(polys, 0);
  constexpr std::size_t kGrain = 256;
  parallel_for(ctx.threads(), 0, polys, kGrain, [&](std::size_t b, std::size_t e) {
    if (ctx.cancelled()) return;
    thread_local std::vector<std::size_t> order;
    thread_local std::vector<StartKey> starts;
    thread_local std::vector<Open> open;
    // whole groups: the land polygons of p's groups already known to be kept (their other links
    // need no verdict: the group stays whatever they give)
    thread_local std::vector<std::uint32_t> kept;
    const auto settled = [&](std::uint32_t land) {
      return options.whole_groups && std::find(kept.begin(), kept.end(), land) != kept.end();
    };
    Walker walker(navmesh, edges);
    for (std::size_t p = b; p < e; ++p) {
      if (first[p] == first[p + 1]) continue;
      kept.clear();
      // the polygon's links grouped by start point (order within a group kept)
      const auto key = [&set](std::size_t k) {
        const Vec3 s = set.links[k].start;
        return std::tuple(s.x, s.z, s.y);
      };
      // note: sorted by (start, index): the order a stable sort by start gives, without its
      // indirect loads in every comparison
      starts.clear();
      for (std::size_t k = first[p]; k < first[p + 1]; ++k) {
        const Vec3 s = set.links[k].start;
        starts.push_back({s.x, s.z, s.y, k});
      }
      std::sort(starts.begin(), starts.end(), [](const StartKey& x, const StartKey& y) {
        return std::tie(x.x, x.z, x.y, x.link) < std::tie(y.x, y.z, y.y, y.link);
      });
      order.clear();
      for (const StartKey& k : starts) order.push_back(k.link);
      std::size_t g = 0;
      while (g < order.size()) {
        std::size_t h = g + 1;
        while (h < order.size() && key(order[h]) == key(order[g])) ++h;
        double bound = 0.0;
        bool any = false;
        for (std::size_t i = g; i < h; ++i) {
          const JumpLink& link = set.links[order[i]];
          if (!walkable(navmesh, link.land_poly)) continue;
          bound = std::max(bound, budget(link, slack));
          any = true;
        }
        if (any) {
          // straight walks first; the midpoint search only for the links they do not settle
          const JumpLink& head = set.links[order[g]];
          const P2 s = ground(head.start);
          open.clear();
          for (std::size_t i = g; i < h; ++i) {
            const JumpLink& link = set.links[order[i]];
            if (!walkable(navmesh, link.land_poly) || settled(link.land_poly)) continue;
            const P2 la = ground(link.land_a);
            const P2 lb = ground(link.land_b);
            const double xa =
                straight_walk(navmesh, geometry, s, link.start_poly, la, link.land_poly)
                    ? dist(s, la)
                    : kInf;
            const double xb =
                straight_walk(navmesh, geometry, s, link.start_poly, lb, link.land_poly)
                    ? dist(s, lb)
                    : kInf;
            if (through_ends(xa, xb, dist(la, lb)) <= budget(link, slack))
              drop[order[i]] = 1;
            else
              open.push_back({order[i], xa, xb});
          }
          bool searched = false;
          for (const Open& o : open) {
            const JumpLink& link = set.links[o.link];
            if (settled(link.land_poly)) continue;
            if (!searched) {
              walker.run(s, head.start_poly, bound);
              ++walks[p];
              searched = true;
            }
            const P2 la = ground(link.land_a);
            const P2 lb = ground(link.land_b);
            double walk = walker.to_segment(link.land_poly, la, lb, o.xa, o.xb);
            if (walk > budget(link, slack)) {
              // the midpoint walk's corridor, crossed where it is shortest
              const double ca = o.xa < kInf ? o.xa : walker.through_corridor(link.land_poly, s, la);
              const double cb = o.xb < kInf ? o.xb : walker.through_corridor(link.land_poly, s, lb);
              walk = std::min(walk, through_ends(ca, cb, dist(la, lb)));
            }
            if (walk <= budget(link, slack))
              drop[o.link] = 1;
            else if (options.whole_groups)
              kept.push_back(link.land_poly);
          }
        }
        g = h;
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("jump links: walkable-link filter"));
  // note: whole groups only: a group (start polygon, land polygon) with one link that saves
  // walking keeps all its links, so every group left is the group the unfiltered set has, with
  // the same links, the same refinement and the same representative jump in the planner
  for (std::size_t g = 0; options.whole_groups && g < set.links.size();) {
    std::size_t h = g + 1;
    while (h < set.links.size() && set.links[h].start_poly == set.links[g].start_poly &&
           set.links[h].land_poly == set.links[g].land_poly)
      ++h;
    const bool keep_group = std::any_of(drop.begin() + static_cast<std::ptrdiff_t>(g),
                                        drop.begin() + static_cast<std::ptrdiff_t>(h),
                                        [](std::uint8_t d) { return d == 0; });
    if (keep_group)
      std::fill(drop.begin() + static_cast<std::ptrdiff_t>(g),
                drop.begin() + static_cast<std::ptrdiff_t>(h), std::uint8_t{0});
    g = h;
  }
  std::size_t kept = 0;
  for (std::size_t k = 0; k < set.links.size(); ++k) {
    if (drop[k] != 0) continue;
    set.links[kept++] = set.links[k];
  }
  stats.links_dropped = set.links.size() - kept;
  set.links.resize(kept);
  for (const std::uint64_t w : walks) stats.walks += w;
  index_sorted_links(set, polys);
  return stats;
}

}  // namespace leapnav::jump
