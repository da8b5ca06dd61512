// Raycast along the mesh: exact answers on closed-form scenes, and on the real levels a brute-force
// oracle over the visited polygons: the hit is the first crossing of any of their boundary edges,
// every point before it lies in one of them, and consecutive visited polygons are neighbours.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "leapnav/planning/query.hpp"
#include "leapnav/planning/raycast.hpp"
#include "leapnav/planning/sample.hpp"
#include "leapnav/planning/spatial.hpp"
#include "planning/scenes.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;

namespace {

bool inside_xz(const mesh::NavMesh& nav, mesh::PolyId p, Vec2 q, float eps) {
  const auto verts = nav.polygon(p);
  for (std::size_t k = 0; k < verts.size(); ++k) {
    const Vec2 a = xz(nav.vertices[verts[k]]);
    const Vec2 b = xz(nav.vertices[verts[(k + 1) % verts.size()]]);
    const Vec2 e = b - a;
    if (cross(e, q - a) < -eps * length(e)) return false;
  }
  return true;
}

/// The smallest t in [0, 1] where segment a + t d crosses a boundary edge of one of `polys`
/// heading out of its polygon; infinity when none.
float first_wall(const mesh::NavMesh& nav, const std::vector<mesh::PolyId>& polys, Vec2 a, Vec2 d) {
  float best = std::numeric_limits<float>::infinity();
  for (const mesh::PolyId p : polys) {
    const auto verts = nav.polygon(p);
    const auto neighbors = nav.neighbors(p);
    for (std::size_t k = 0; k < verts.size(); ++k) {
      if (neighbors[k] != mesh::kNoPoly) continue;
      const Vec2 v0 = xz(nav.vertices[verts[k]]);
      const Vec2 v1 = xz(nav.vertices[verts[(k + 1) % verts.size()]]);
      const Vec2 e = v1 - v0;
      const float den = cross(d, e);
      if (cross(e, d) >= 0.0F || std::fabs(den) < 1e-12F) continue;
      // a + t d = v0 + s e
      const float t = cross(v0 - a, e) / den;
      const float s = cross(v0 - a, d) / den;
      if (t >= -1e-4F && t <= 1.0F && s >= -1e-4F && s <= 1.0F + 1e-4F) best = std::min(best, t);
    }
  }
  return best;
}

void check_against_brute_force(const mesh::NavMesh& nav, int casts, std::uint64_t seed) {
  auto planner = plan::Planner::create(nav);
  REQUIRE(planner.ok());
  const auto points = plan::random_points(nav, static_cast<std::size_t>(casts), seed);
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  std::uniform_real_distribution<float> angle(0.0F, 6.2831853F);
  std::uniform_real_distribution<float> reach(0.5F, 30.0F);
  int hits = 0;
  for (const auto& start : points) {
    const float phi = angle(rng);
    const float r = reach(rng);
    const Vec3 end{start.point.x + r * std::cos(phi), start.point.y,
                   start.point.z + r * std::sin(phi)};
    const Vec3 extent{0.01F, 0.5F, 0.01F};
    const auto cast = plan::raycast(*planner, start.point, end, extent);
    REQUIRE(cast.ok());
    REQUIRE(cast->has_value());
    const plan::RaycastHit& h = **cast;
    REQUIRE_FALSE(h.visited.empty());
    // note: the cast starts from the located point (an overlapping polygon may be as near)
    const auto located = planner->locate(start.point, extent);
    REQUIRE(located.ok());
    REQUIRE(located->has_value());
    CHECK((*located)->poly == h.visited.front());
    const Vec2 a = xz((*located)->point);
    const Vec2 d = xz(end) - a;
    // consecutive visited polygons share an edge
    for (std::size_t k = 1; k < h.visited.size(); ++k) {
      const auto nb = nav.neighbors(h.visited[k - 1]);
      CHECK(std::find(nb.begin(), nb.end(), mesh::index(h.visited[k])) != nb.end());
    }
    // every sampled point before t lies in a visited polygon
    for (int s = 0; s <= 64; ++s) {
      const float u = h.t * static_cast<float>(s) / 64.0F;
      const Vec2 q = a + d * u;
      const bool covered = std::any_of(h.visited.begin(), h.visited.end(),
                                       [&](mesh::PolyId p) { return inside_xz(nav, p, q, 1e-3F); });
      CHECK(covered);
    }
    const float wall = first_wall(nav, h.visited, a, d);
    if (h.hit) {
      ++hits;
      CHECK(h.t < 1.0F);
      CHECK_MESSAGE(std::fabs(wall - h.t) * length(d) < 1e-3F,
                    "t " << h.t << " visited " << h.visited.size() << " len " << length(d) << " a "
                         << a.x << "," << a.y);
      CHECK(std::fabs(length(h.normal) - 1.0F) < 1e-4F);
      CHECK(dot(h.normal, d) < 0.0F);  // the wall faces the ray
    } else {
      CHECK(h.t == 1.0F);
      CHECK((wall > 1.0F || wall * length(d) > length(d) - 1e-3F));
    }
  }
  MESSAGE(casts << " casts, " << hits << " hit a wall");
  CHECK(hits > 0);
  CHECK(hits < casts);
}

}  // namespace

TEST_SUITE("plan.raycast") {
  TEST_CASE("a ray across an L-shaped floor stops at the inner wall with its exact normal") {
    // 2 x 2 grid of 1 m cells without cell (1, 1): an L
    const auto nav =
        test::grid_navmesh(2, 2, 1.0F, [](int i, int j) { return !(i == 1 && j == 1); });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    // from (0.5, 0.5) towards (1.5, 1.5): leaves cell (0,0) into (1,0) or (0,1) at the corner,
    // then the wall x = 1 or z = 1 at t = 0.5
    auto cast = plan::raycast(*planner, {0.25F, 0.0F, 0.5F}, {1.75F, 0.0F, 1.5F});
    REQUIRE(cast.ok());
    REQUIRE(cast->has_value());
    CHECK((*cast)->hit);
    // leaves cell (0,0) at x = 1 (t = 0.5, z = 1.0): enters (1,0) at its top-left corner, the
    // wall z = 1 of cell (1,0) bounds it there
    CHECK((*cast)->t == doctest::Approx(0.5F).epsilon(1e-5));
    CHECK((*cast)->point.x == doctest::Approx(1.0F));
    CHECK((*cast)->point.z == doctest::Approx(1.0F));

    auto open = plan::raycast(*planner, {0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 0.5F});
    REQUIRE(open.ok());
    CHECK_FALSE((*open)->hit);
    CHECK((*open)->t == 1.0F);
    CHECK((*open)->visited.size() == 2);

    auto wall = plan::raycast(*planner, {0.5F, 0.0F, 0.5F}, {0.5F, 0.0F, -3.0F});
    REQUIRE(wall.ok());
    CHECK((*wall)->hit);
    CHECK((*wall)->t == doctest::Approx(0.5F / 3.5F));
    CHECK((*wall)->normal.x == doctest::Approx(0.0F));
    CHECK((*wall)->normal.y == doctest::Approx(1.0F));  // into the mesh: +z
  }

  TEST_CASE("a start off the mesh gives nullopt, a non-finite end an error") {
    const auto nav = test::grid_navmesh(2, 2, 1.0F, [](int, int) { return true; });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    auto off = plan::raycast(*planner, {10.0F, 0.0F, 10.0F}, {0.0F, 0.0F, 0.0F});
    REQUIRE(off.ok());
    CHECK_FALSE(off->has_value());
    auto bad = plan::raycast(*planner, {0.5F, 0.0F, 0.5F}, {NAN, 0.0F, 0.0F});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::NonFinite);
  }

  TEST_CASE(
      "bad input to raycast, move_along_surface, closest_point and distance_to_wall is an "
      "error that names the call and the input") {
    const auto nav = test::grid_navmesh(2, 2, 1.0F, [](int, int) { return true; });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    const Vec3 in{0.5F, 0.0F, 0.5F};
    const Vec3 nan{NAN, 0.0F, 0.0F};
    const auto expect = [](const auto& result, ErrorCode code, const std::string& message) {
      REQUIRE_FALSE(result.ok());
      CHECK(result.error().code == code);
      CHECK(result.error().message == message);
    };
    expect(plan::raycast(*planner, nan, in), ErrorCode::NonFinite, "raycast: start is not finite");
    expect(plan::raycast(*planner, in, nan), ErrorCode::NonFinite, "raycast: end is not finite");
    expect(plan::raycast(*planner, in, in, {-1.0F, 1.0F, 1.0F}), ErrorCode::InvalidArgument,
           "raycast: search extent has a negative component");
    expect(plan::move_along_surface(*planner, in, nan), ErrorCode::NonFinite,
           "move_along_surface: target is not finite");
    expect(plan::move_along_surface(*planner, in, in, nan), ErrorCode::NonFinite,
           "move_along_surface: search extent is not finite");
    expect(plan::closest_point(*planner, in, {1.0F, -1.0F, 1.0F}), ErrorCode::InvalidArgument,
           "locate: search extent has a negative component");
    expect(plan::distance_to_wall(*planner, nan, 1.0F), ErrorCode::NonFinite,
           "distance_to_wall: centre is not finite");
    expect(plan::distance_to_wall(*planner, in, INFINITY), ErrorCode::NonFinite,
           "distance_to_wall: radius inf is not finite");
    expect(plan::distance_to_wall(*planner, in, -2.0F), ErrorCode::InvalidArgument,
           "distance_to_wall: radius -2.000000 is negative");
  }

  TEST_CASE("a move along the surface slides to the nearest wall point or reaches the target") {
    const auto nav =
        test::grid_navmesh(2, 2, 1.0F, [](int i, int j) { return !(i == 1 && j == 1); });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    auto slide = plan::move_along_surface(*planner, {0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 1.2F});
    REQUIRE(slide.ok());
    REQUIRE(slide->has_value());
    CHECK_FALSE((*slide)->reached);
    CHECK((*slide)->point.x == doctest::Approx(1.5F));
    CHECK((*slide)->point.z == doctest::Approx(1.0F));
    CHECK((*slide)->visited.size() == 2);
    auto reach = plan::move_along_surface(*planner, {0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 0.25F});
    REQUIRE(reach.ok());
    CHECK((*reach)->reached);
    CHECK((*reach)->point.x == doctest::Approx(1.5F));
    CHECK((*reach)->point.z == doctest::Approx(0.25F));
  }

  TEST_CASE(
      "moves on random grids reach every target a raycast reaches and otherwise stop on a "
      "wall") {
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      const auto nav = test::random_grid_navmesh(20, 20, 0.3F, seed);
      auto planner = plan::Planner::create(nav);
      REQUIRE(planner.ok());
      const auto points = plan::random_points(nav, 300, seed);
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> offset(-4.0F, 4.0F);
      int reached = 0;
      for (const auto& start : points) {
        const Vec3 target{start.point.x + offset(rng), start.point.y, start.point.z + offset(rng)};
        const Vec3 extent{0.01F, 0.5F, 0.01F};
        const auto move = plan::move_along_surface(*planner, start.point, target, extent);
        const auto cast = plan::raycast(*planner, start.point, target, extent);
        REQUIRE(move.ok());
        REQUIRE(cast.ok());
        REQUIRE(move->has_value());
        const plan::SurfaceMove& m = **move;
        if (!(*cast)->hit) CHECK(m.reached);
        if (m.reached) {
          ++reached;
          CHECK(m.point.x == target.x);
          CHECK(m.point.z == target.z);
          CHECK(inside_xz(nav, m.visited.back(), xz(target), 1e-4F));
        } else {
          // on a boundary edge of the last visited polygon
          const auto verts = nav.polygon(m.visited.back());
          const auto nb = nav.neighbors(m.visited.back());
          float best = 1e9F;
          for (std::size_t k = 0; k < verts.size(); ++k) {
            if (nb[k] != mesh::kNoPoly) continue;
            const Vec2 v0 = xz(nav.vertices[verts[k]]);
            const Vec2 e = xz(nav.vertices[verts[(k + 1) % verts.size()]]) - v0;
            const float t = std::clamp(dot(xz(m.point) - v0, e) / dot(e, e), 0.0F, 1.0F);
            best = std::min(best, length(xz(m.point) - (v0 + e * t)));
          }
          CHECK(best < 1e-4F);
        }
        for (std::size_t k = 1; k < m.visited.size(); ++k) {
          const auto n = nav.neighbors(m.visited[k - 1]);
          CHECK(std::find(n.begin(), n.end(), mesh::index(m.visited[k])) != n.end());
        }
      }
      CHECK(reached > 50);
    }
  }

  TEST_CASE("raycasts on random grids agree with the brute-force first wall") {
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      check_against_brute_force(test::random_grid_navmesh(20, 20, 0.3F, seed), 300, seed);
    }
  }

  TEST_CASE("raycasts on the real levels agree with the brute-force first wall") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto nav = test::build_shared_navmesh(file, "default");
      if (!nav) continue;
      check_against_brute_force(*nav, 400, 7);
    }
  }
}
