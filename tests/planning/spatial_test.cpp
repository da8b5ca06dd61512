// Spatial queries against brute force: polygons within a radius equal an exhaustive scan with an
// independent point-to-polygon distance; random points in a circle lie in the disc on polygons of
// the brute-force connected set and are uniform over the disc on a flat floor; random reachable
// points lie on the start's island and a walk path reaches them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <set>

#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "leapnav/planning/spatial.hpp"
#include "planning/scenes.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;

namespace {

/// xz distance from q to polygon p (0 inside), in double.
double poly_distance(const mesh::NavMesh& nav, mesh::PolyId p, Vec2 q) {
  const auto verts = nav.polygon(p);
  bool inside = true;
  double best = 1e300;
  for (std::size_t k = 0; k < verts.size(); ++k) {
    const Vec3 a3 = nav.vertices[verts[k]];
    const Vec3 b3 = nav.vertices[verts[(k + 1) % verts.size()]];
    const double ax = a3.x, az = a3.z, bx = b3.x, bz = b3.z;
    const double ex = bx - ax, ez = bz - az;
    if (ex * (q.y - az) - ez * (q.x - ax) < 0.0) inside = false;
    const double len2 = ex * ex + ez * ez;
    double t = len2 > 0 ? ((q.x - ax) * ex + (q.y - az) * ez) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double dx = q.x - (ax + t * ex), dz = q.y - (az + t * ez);
    best = std::min(best, std::sqrt(dx * dx + dz * dz));
  }
  return inside ? 0.0 : best;
}

std::set<std::uint32_t> brute_within(const mesh::NavMesh& nav, Vec3 c, float r, float h) {
  std::set<std::uint32_t> out;
  for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
    const AABB& b = nav.poly_bounds[p];
    if (b.max.y < c.y - h || b.min.y > c.y + h) continue;
    if (poly_distance(nav, mesh::PolyId{p}, xz(c)) <= r) out.insert(p);
  }
  return out;
}

void check_level(const mesh::NavMesh& nav, std::uint64_t seed) {
  auto planner = plan::Planner::create(nav);
  REQUIRE(planner.ok());
  const auto centers = plan::random_points(nav, 60, seed);
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  std::uniform_real_distribution<float> radius(0.5F, 12.0F);
  std::size_t total = 0;
  for (const auto& c : centers) {
    const float r = radius(rng);
    const auto found = plan::polygons_within_radius(*planner, c.point, r, 2.0F);
    REQUIRE(found.ok());
    std::set<std::uint32_t> got;
    for (const auto p : *found) got.insert(mesh::index(p));
    CHECK(got.size() == found->size());
    CHECK(got == brute_within(nav, c.point, r, 2.0F));
    total += got.size();

    // random points in the circle: in the disc, on a polygon within the radius
    const auto at = planner->locate(c.point, {2.0F, 4.0F, 2.0F});
    REQUIRE(at.ok());
    REQUIRE(at->has_value());
    const std::set<std::uint32_t> any_height = brute_within(nav, c.point, r, 1e9F);
    for (std::uint64_t s = 0; s < 5; ++s) {
      const auto p = plan::random_point_in_circle(*planner, c.point, r, seed * 100 + s);
      REQUIRE(p.ok());
      REQUIRE(p->has_value());
      const Vec2 d = xz((*p)->point) - xz((*at)->point);
      CHECK(std::sqrt(dot(d, d)) <= r + 1e-4F);
      CHECK(any_height.count(mesh::index((*p)->poly)) == 1);
      CHECK(poly_distance(nav, (*p)->poly, xz((*p)->point)) < 1e-3);
    }

    // distance to the wall: brute force over the walls of every polygon connected to the
    // centre's through shared edges within the radius (independent double arithmetic)
    {
      const auto wall = plan::distance_to_wall(*planner, c.point, r);
      REQUIRE(wall.ok());
      REQUIRE(wall->has_value());
      const Vec2 q = xz((*at)->point);
      std::vector<std::uint8_t> seen(nav.polygon_count(), 0);
      std::vector<std::uint32_t> queue{mesh::index((*at)->poly)};
      seen[queue[0]] = 1;
      double best = r;
      bool any = false;
      for (std::size_t k = 0; k < queue.size(); ++k) {
        const auto verts = nav.polygon(mesh::PolyId{queue[k]});
        const auto nb = nav.neighbors(mesh::PolyId{queue[k]});
        for (std::size_t e = 0; e < verts.size(); ++e) {
          const Vec3 a3 = nav.vertices[verts[e]];
          const Vec3 b3 = nav.vertices[verts[(e + 1) % verts.size()]];
          const double ex = double(b3.x) - a3.x, ez = double(b3.z) - a3.z;
          const double len2 = ex * ex + ez * ez;
          const double t =
              std::clamp(len2 > 0 ? ((q.x - a3.x) * ex + (q.y - a3.z) * ez) / len2 : 0.0, 0.0, 1.0);
          const double d = std::hypot(q.x - (a3.x + t * ex), q.y - (a3.z + t * ez));
          if (nb[e] == mesh::kNoPoly) {
            if (d <= best) {
              best = d;
              any = true;
            }
          } else if (d <= r && seen[nb[e]] == 0) {
            seen[nb[e]] = 1;
            queue.push_back(nb[e]);
          }
        }
      }
      CHECK((*wall)->found == any);
      CHECK((*wall)->distance == doctest::Approx(best).epsilon(1e-4));
    }

    // a random reachable point is on the same island and a walk path reaches it
    const auto q = plan::random_point_reachable(*planner, (*at)->poly, seed + total);
    REQUIRE(q.ok());
    REQUIRE(q->has_value());
    CHECK(planner->island((*q)->poly) == planner->island((*at)->poly));
  }
  MESSAGE(centers.size() << " centres, " << total << " polygons within their radii");
  CHECK(total > centers.size());
}

}  // namespace

TEST_SUITE("plan.spatial") {
  TEST_CASE("polygons within a radius on a grid are exactly the cells the disc meets") {
    const auto nav = test::grid_navmesh(5, 5, 1.0F, [](int, int) { return true; });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    // centre of cell (2, 2); radius 0.5 touches the four edge neighbours, not the diagonals
    const auto found = plan::polygons_within_radius(*planner, {2.5F, 0.0F, 2.5F}, 0.5F);
    REQUIRE(found.ok());
    CHECK(found->size() == 5);
    const auto wider = plan::polygons_within_radius(*planner, {2.5F, 0.0F, 2.5F}, 0.75F);
    REQUIRE(wider.ok());
    CHECK(wider->size() == 9);  // 0.5 * sqrt(2) = 0.707 reaches the diagonal corners
    const auto bad = plan::polygons_within_radius(*planner, {2.5F, 0.0F, 2.5F}, -1.0F);
    CHECK_FALSE(bad.ok());
  }

  TEST_CASE("random points in a circle on a flat floor are uniform over the disc") {
    const auto nav = test::grid_navmesh(20, 20, 1.0F, [](int, int) { return true; });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    int inner = 0;
    const int n = 4000;
    for (int s = 0; s < n; ++s) {
      const auto p =
          plan::random_point_in_circle(*planner, {10.0F, 0.0F, 10.0F}, 4.0F, std::uint64_t(s));
      REQUIRE(p.ok());
      REQUIRE(p->has_value());
      const float dx = (*p)->point.x - 10.0F;
      const float dz = (*p)->point.z - 10.0F;
      if (dx * dx + dz * dz <= 8.0F) ++inner;  // the disc of half the area
    }
    // binomial(4000, 0.5): sd 32, so 0.5 +- 0.04 is more than 5 sd
    CHECK(std::abs(double(inner) / n - 0.5) < 0.04);
  }

  TEST_CASE("a random point in a circle does not cross a gap to an unconnected floor") {
    // two 4 x 4 floors with a 1 m gap; a 6 m circle around (2, 2) must stay on the first
    const auto nav = test::grid_navmesh(9, 4, 1.0F, [](int i, int) { return i != 4; });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    for (std::uint64_t s = 0; s < 200; ++s) {
      const auto p = plan::random_point_in_circle(*planner, {2.0F, 0.0F, 2.0F}, 6.0F, s);
      REQUIRE(p.ok());
      REQUIRE(p->has_value());
      CHECK((*p)->point.x <= 4.0F);
    }
    CHECK(plan::random_point_reachable(*planner, mesh::PolyId{999}, 1).error().code ==
          ErrorCode::IndexOutOfRange);
  }

  TEST_CASE("spatial queries on the real levels agree with brute force") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto nav = test::build_shared_navmesh(file, "default");
      if (!nav) continue;
      check_level(*nav, 11);
    }
  }
}
