// Walkable-link filter (link_filter.hpp): per distinct start point, a Dijkstra over the portal
// midpoints bounded by the largest budget of the point's links, then one verdict per link. Start
// polygons run in parallel into per-link flags; the kept links are joined in their order, so the
// result does not depend on the thread count.
#include "leapnav/jumplinks/link_filter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "leapnav/core/parallel.hpp"

namespace leapnav::jump {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

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
  const double dx = b.x - a.x;
  const double dz = b.z - a.z;
  const double len2 = dx * dx + dz * dz;
  double t = 0.0;
  if (len2 > 0.0) t = std::clamp(((p.x - a.x) * dx + (p.z - a.z) * dz) / len2, 0.0, 1.0);
  return dist(p, {a.x + t * dx, a.z + t * dz});
}

bool walkable(const mesh::NavMesh& navmesh, std::uint32_t poly) {
  return navmesh.poly_flags.empty() || navmesh.poly_flags[poly] == 0;
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
  }

  void run(P2 start, std::uint32_t start_poly, double bound) {
    for (const std::size_t e : touched_) dist_[e] = kInf;
    touched_.clear();
    heap_ = {};
    // note: the start polygon may always be left (a query may start in a flagged polygon)
    relax_polygon(start_poly, start, 0.0);
    while (!heap_.empty()) {
      const auto [d, e] = heap_.top();
      heap_.pop();
      if (d > bound) break;
      if (d > dist_[e]) continue;
      const std::uint32_t other = navmesh_.poly_neighbors[e];
      const P2 m = edges_.midpoint[e];
      relax_polygon(edges_.owner[e], m, d);
      if (walkable(navmesh_, other)) relax_polygon(other, m, d);
    }
  }

  // The shortest found walk to the farther of a and b inside polygon `land` (+inf when none).
  [[nodiscard]] double to_segment(std::uint32_t land, P2 a, P2 b) const {
    double best = kInf;
    for (std::uint32_t e = navmesh_.poly_first[land]; e < navmesh_.poly_first[land + 1]; ++e) {
      if (dist_[e] == kInf) continue;
      const P2 m = edges_.midpoint[e];
      best = std::min(best, dist_[e] + std::max(dist(m, a), dist(m, b)));
    }
    return best;
  }

 private:
  // Walks from p (in or on the boundary of polygon `poly`, reached at cost d) to the midpoints of
  // poly's portal edges: straight lines inside a convex polygon.
  void relax_polygon(std::uint32_t poly, P2 p, double d) {
    for (std::uint32_t e = navmesh_.poly_first[poly]; e < navmesh_.poly_first[poly + 1]; ++e) {
      if (navmesh_.poly_neighbors[e] == mesh::kNoPoly) continue;
      const double cand = d + dist(p, edges_.midpoint[e]);
      if (cand < dist_[e]) {
        if (dist_[e] == kInf) touched_.push_back(e);
        dist_[e] = cand;
        heap_.emplace(cand, e);
      }
    }
  }

  const mesh::NavMesh& navmesh_;
  const EdgeTable& edges_;
  std::vector<double> dist_;
  std::vector<std::size_t> touched_;
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
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
  const EdgeTable edges(navmesh);
  Walker walker(navmesh, edges);
  walker.run(ground(start), start_poly, bound);
  return walker.to_segment(land_poly, ground(land_a), ground(land_b));
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
  std::vector<std::uint64_t> walks(polys, 0);
  constexpr std::size_t kGrain = 256;
  parallel_for(ctx.threads(), 0, polys, kGrain, [&](std::size_t b, std::size_t e) {
    if (ctx.cancelled()) return;
    thread_local std::vector<std::size_t> order;
    Walker walker(navmesh, edges);
    for (std::size_t p = b; p < e; ++p) {
      if (first[p] == first[p + 1]) continue;
      // the polygon's links grouped by start point (order within a group kept)
      order.clear();
      for (std::size_t k = first[p]; k < first[p + 1]; ++k) order.push_back(k);
      const auto key = [&set](std::size_t k) {
        const Vec3 s = set.links[k].start;
        return std::tuple(s.x, s.z, s.y);
      };
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
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
          const JumpLink& head = set.links[order[g]];
          walker.run(ground(head.start), head.start_poly, bound);
          ++walks[p];
          for (std::size_t i = g; i < h; ++i) {
            const JumpLink& link = set.links[order[i]];
            if (!walkable(navmesh, link.land_poly)) continue;
            const double walk =
                walker.to_segment(link.land_poly, ground(link.land_a), ground(link.land_b));
            if (walk <= budget(link, slack)) drop[order[i]] = 1;
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
