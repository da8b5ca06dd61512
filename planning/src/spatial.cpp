// Spatial queries: candidates from the Planner's R-tree of polygon bounds, then exact xz distances
// (point to convex polygon); random points by area-weighted polygon choice, a fan triangle by
// area and the square-root warp. The circle query samples the polygons clipped to the disc's
// bounding square and rejects points outside the disc.
#include "leapnav/planning/spatial.hpp"

#include <algorithm>
#include <boost/iterator/function_output_iterator.hpp>
#include <cmath>
#include <random>
#include <string>

#include "planner_impl.hpp"

namespace leapnav::plan {
namespace {

double uniform(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/// Sutherland-Hodgman clip of a convex polygon (CCW in xz) to the square c +- r.
std::vector<Vec2> clip_to_square(std::vector<Vec2> poly, Vec2 c, float r) {
  // each half-plane as (axis, sign, bound): keep points with sign * coord <= sign * bound
  const struct {
    bool x;
    float sign;
    float bound;
  } planes[4] = {{true, 1.0F, c.x + r},
                 {true, -1.0F, c.x - r},
                 {false, 1.0F, c.y + r},
                 {false, -1.0F, c.y - r}};
  for (const auto& plane : planes) {
    std::vector<Vec2> out;
    const auto side = [&](Vec2 p) { return plane.sign * ((plane.x ? p.x : p.y) - plane.bound); };
    for (std::size_t k = 0; k < poly.size(); ++k) {
      const Vec2 a = poly[k];
      const Vec2 b = poly[(k + 1) % poly.size()];
      const float sa = side(a);
      const float sb = side(b);
      if (sa <= 0.0F) out.push_back(a);
      if ((sa < 0.0F && sb > 0.0F) || (sa > 0.0F && sb < 0.0F)) {
        out.push_back(a + (b - a) * (sa / (sa - sb)));
      }
    }
    poly = std::move(out);
    if (poly.size() < 3) return {};
  }
  return poly;
}

double fan_triangle_area(Vec2 a, Vec2 b, Vec2 c) {
  return std::max(0.0, 0.5 * ((static_cast<double>(b.x) - a.x) * (static_cast<double>(c.y) - a.y) -
                              (static_cast<double>(c.x) - a.x) * (static_cast<double>(b.y) - a.y)));
}

double convex_area(const std::vector<Vec2>& poly) {
  double area = 0.0;
  for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
    area += fan_triangle_area(poly[0], poly[k], poly[k + 1]);
  }
  return area;
}

/// The point of a convex polygon at area offset `within` of its fan, warped by (u, v).
Vec2 point_in_convex(const std::vector<Vec2>& poly, double within, double u, double v) {
  std::size_t k = 1;
  for (; k + 2 < poly.size(); ++k) {
    const double t = fan_triangle_area(poly[0], poly[k], poly[k + 1]);
    if (within < t) break;
    within -= t;
  }
  const double su = std::sqrt(u);
  const double wa = 1.0 - su;
  const double wb = su * (1.0 - v);
  const double wc = su * v;
  return {static_cast<float>(wa * poly[0].x + wb * poly[k].x + wc * poly[k + 1].x),
          static_cast<float>(wa * poly[0].y + wb * poly[k].y + wc * poly[k + 1].y)};
}

Status check(Vec3 center, float radius, const char* what) {
  if (!is_finite(center)) {
    return make_error(ErrorCode::NonFinite, std::string(what) + ": centre is not finite");
  }
  if (!std::isfinite(radius)) {
    return make_error(ErrorCode::NonFinite,
                      std::string(what) + ": radius " + std::to_string(radius) + " is not finite");
  }
  if (radius < 0.0F) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(what) + ": radius " + std::to_string(radius) + " is negative");
  }
  return {};
}

/// Polygons within radius in xz whose bounds meet the y range, unsorted.
std::vector<std::uint32_t> within(const Planner::Impl& impl, Vec3 center, float radius,
                                  float height) {
  const RtreeBox box(RtreePoint(center.x - radius, center.y - height, center.z - radius),
                     RtreePoint(center.x + radius, center.y + height, center.z + radius));
  std::vector<std::uint32_t> out;
  const Vec2 c = xz(center);
  impl.rtree.query(bgi::intersects(box),
                   boost::make_function_output_iterator([&](const RtreeValue& value) {
                     bool inside = false;
                     const Vec2 q = impl.closest_point(value.second, c, inside);
                     if (inside || dot(q - c, q - c) <= radius * radius) {
                       out.push_back(value.second);
                     }
                   }));
  return out;
}

}  // namespace

Result<std::vector<mesh::PolyId>> polygons_within_radius(const Planner& planner, Vec3 center,
                                                         float radius, float height) {
  LEAPNAV_TRY(check(center, radius, "polygons_within_radius"));
  if (!std::isfinite(height) || height < 0.0F) {
    return make_error(ErrorCode::InvalidArgument,
                      "polygons_within_radius: height must be finite and >= 0");
  }
  std::vector<std::uint32_t> found = within(PlannerAccess::impl(planner), center, radius, height);
  std::sort(found.begin(), found.end());
  std::vector<mesh::PolyId> out;
  out.reserve(found.size());
  for (const std::uint32_t p : found) out.push_back(mesh::PolyId{p});
  return out;
}

Result<std::optional<MeshPoint>> random_point_in_circle(const Planner& planner, Vec3 center,
                                                        float radius, std::uint64_t seed,
                                                        Vec3 search_extent) {
  LEAPNAV_TRY(check(center, radius, "random_point_in_circle"));
  LEAPNAV_TRY_ASSIGN(const std::optional<Location> at, planner.locate(center, search_extent));
  if (!at) return std::optional<MeshPoint>{};
  const Planner::Impl& impl = PlannerAccess::impl(planner);
  const mesh::NavMesh& nav = *impl.mesh;
  const Vec2 c = xz(at->point);
  // polygons within the radius connected to the centre's through such polygons (breadth first)
  std::vector<std::uint32_t> region{mesh::index(at->poly)};
  std::vector<std::uint8_t> seen(nav.polygon_count(), 0);
  seen[region[0]] = 1;
  for (std::size_t i = 0; i < region.size(); ++i) {
    for (const std::uint32_t n : nav.neighbors(mesh::PolyId{region[i]})) {
      if (n == mesh::kNoPoly || seen[n] != 0) continue;
      seen[n] = 1;
      bool inside = false;
      const Vec2 q = impl.closest_point(n, c, inside);
      if (inside || dot(q - c, q - c) <= radius * radius) region.push_back(n);
    }
  }
  std::sort(region.begin(), region.end());
  // note: rejection from whole polygons fails when a small disc lies in a large polygon, so each
  // polygon is first clipped to the disc's bounding square (convex stays convex); a uniform point
  // of the clipped pieces, kept when inside the disc, is uniform over the disc's part of them
  std::vector<std::vector<Vec2>> pieces;
  std::vector<std::uint32_t> piece_poly;
  std::vector<double> cumulative;
  double sum = 0.0;
  for (const std::uint32_t p : region) {
    std::vector<Vec2> piece;
    for (const std::uint32_t v : nav.polygon(mesh::PolyId{p})) piece.push_back(xz(nav.vertices[v]));
    piece = clip_to_square(piece, c, radius);
    const double area = convex_area(piece);
    if (area <= 0.0) continue;
    sum += area;
    pieces.push_back(std::move(piece));
    piece_poly.push_back(p);
    cumulative.push_back(sum);
  }
  if (pieces.empty()) return std::optional<MeshPoint>{};
  std::mt19937_64 rng(seed);
  constexpr int kTries = 256;
  for (int t = 0; t < kTries; ++t) {
    const double pick = uniform(rng) * sum;
    const double u = uniform(rng);
    const double v = uniform(rng);
    auto it = std::upper_bound(cumulative.begin(), cumulative.end(), pick);
    if (it == cumulative.end()) --it;
    const auto i = static_cast<std::size_t>(it - cumulative.begin());
    const Vec2 q = point_in_convex(pieces[i], pick - (i == 0 ? 0.0 : cumulative[i - 1]), u, v);
    const Vec2 d = q - c;
    if (dot(d, d) > radius * radius) continue;
    const mesh::PolyId poly{piece_poly[i]};
    return std::optional<MeshPoint>{
        MeshPoint{poly, {q.x, mesh::height_at(nav, poly, q.x, q.y), q.y}}};
  }
  return std::optional<MeshPoint>{};
}

Result<std::optional<WallDistance>> distance_to_wall(const Planner& planner, Vec3 center,
                                                     float max_radius, Vec3 search_extent) {
  LEAPNAV_TRY(check(center, max_radius, "distance_to_wall"));
  LEAPNAV_TRY_ASSIGN(const std::optional<Location> at, planner.locate(center, search_extent));
  if (!at) return std::optional<WallDistance>{};
  const mesh::NavMesh& nav = planner.mesh();
  const Vec2 c = xz(at->point);
  WallDistance out;
  out.distance = max_radius;
  float best2 = max_radius * max_radius;
  std::vector<std::uint32_t> queue{mesh::index(at->poly)};
  std::vector<std::uint8_t> seen(nav.polygon_count(), 0);
  seen[queue[0]] = 1;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const std::uint32_t p = queue[i];
    const std::uint32_t first = nav.poly_first[p];
    const std::uint32_t last = nav.poly_first[p + 1];
    for (std::uint32_t s = first; s < last; ++s) {
      const Vec2 v0 = xz(nav.vertices[nav.poly_vertices[s]]);
      const Vec2 v1 = xz(nav.vertices[nav.poly_vertices[s + 1 == last ? first : s + 1]]);
      const Vec2 e = v1 - v0;
      const float len2 = dot(e, e);
      const float t = len2 > 0.0F ? std::clamp(dot(c - v0, e) / len2, 0.0F, 1.0F) : 0.0F;
      const Vec2 q = v0 + e * t;
      const float d2 = dot(c - q, c - q);
      const std::uint32_t n = nav.poly_neighbors[s];
      if (n == mesh::kNoPoly) {
        if (d2 < best2 || (!out.found && d2 <= best2)) {
          best2 = d2;
          out.found = true;
          out.point = {q.x, at->point.y, q.y};
          const float len = std::sqrt(len2);
          out.normal = len > 0.0F ? Vec2{-e.y / len, e.x / len} : Vec2{};
        }
        continue;
      }
      // note: a neighbour matters only when its shared edge is nearer than the best wall so far
      if (seen[n] != 0 || d2 > best2) continue;
      seen[n] = 1;
      queue.push_back(n);
    }
  }
  if (out.found) out.distance = std::sqrt(best2);
  return std::optional<WallDistance>{out};
}

Result<std::optional<MeshPoint>> random_point_reachable(const Planner& planner, mesh::PolyId from,
                                                        std::uint64_t seed) {
  const Planner::Impl& impl = PlannerAccess::impl(planner);
  const mesh::NavMesh& nav = *impl.mesh;
  if (mesh::index(from) >= nav.polygon_count()) {
    return make_error(ErrorCode::IndexOutOfRange,
                      "random_point_reachable: polygon " + std::to_string(mesh::index(from)) +
                          " out of range (" + std::to_string(nav.polygon_count()) + " polygons)");
  }
  const std::uint32_t island = impl.island[mesh::index(from)];
  std::vector<mesh::PolyId> polys;
  for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
    if (impl.island[p] == island) polys.push_back(mesh::PolyId{p});
  }
  const PointSampler sampler(nav, std::move(polys));
  if (sampler.empty()) return std::optional<MeshPoint>{};
  std::mt19937_64 rng(seed);
  return std::optional<MeshPoint>{sampler.sample(rng)};
}

}  // namespace leapnav::plan
