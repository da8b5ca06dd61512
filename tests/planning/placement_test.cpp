// Any placement for queries: on a level moved 100 km away from the world origin, the path between
// two moved points is the moved path (same corridor, the same polyline to within a float step).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;

namespace {

// Multiples of 1/128 m stay exact in float under a translation by a multiple of 1/128 m within
// ±131072 m.
float snap(double v) {
  return static_cast<float>(std::round(v * 128.0) / 128.0);
}

Vec3 moved(Vec3 v, Vec3 d) {
  return {static_cast<float>(double{v.x} + d.x), static_cast<float>(double{v.y} + d.y),
          static_cast<float>(double{v.z} + d.z)};
}

// The xz distance from p to the polyline through `points`.
double distance_to_polyline(Vec3 p, const std::vector<Vec3>& points) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k + 1 < points.size() || k == 0; ++k) {
    const Vec3 a = points[k];
    const Vec3 b = points[std::min(k + 1, points.size() - 1)];
    const double abx = double{b.x} - a.x, abz = double{b.z} - a.z;
    double dx = double{p.x} - a.x, dz = double{p.z} - a.z;
    const double len2 = abx * abx + abz * abz;
    if (len2 > 0.0) {
      const double t = std::clamp((dx * abx + dz * abz) / len2, 0.0, 1.0);
      dx -= t * abx;
      dz -= t * abz;
    }
    best = std::min(best, std::sqrt(dx * dx + dz * dz));
  }
  return best;
}

mesh::NavMesh build(const TriangleMesh& level) {
  BuildContext ctx;
  ctx.set_threads(1);
  auto built = mesh::build_navmesh(level, *named_config("default"), ctx);
  if (!built.ok()) FAIL(built.error().message);
  return std::move(built->navmesh);
}

void check_moved_paths(TriangleMesh level, Vec3 offset, std::uint64_t seed) {
  for (Vec3& v : level.vertices) v = {snap(v.x), snap(v.y), snap(v.z)};
  TriangleMesh far = level;
  for (Vec3& v : far.vertices) v = moved(v, offset);
  const mesh::NavMesh base_mesh = build(level);
  const mesh::NavMesh far_mesh = build(far);
  REQUIRE(mesh::grid_space_hash(base_mesh) == mesh::grid_space_hash(far_mesh));
  auto base_planner = plan::Planner::create(base_mesh);
  auto far_planner = plan::Planner::create(far_mesh);
  REQUIRE(base_planner.ok());
  REQUIRE(far_planner.ok());
  plan::NavQuery base_query(*base_planner);
  plan::NavQuery far_query(*far_planner);
  const plan::PointSampler sampler(base_mesh);
  REQUIRE(!sampler.empty());
  std::mt19937_64 rng(seed);
  int found = 0;
  int same_corridor = 0;
  for (int q = 0; q < 100; ++q) {
    const Vec3 a = sampler.sample(rng).point;
    const Vec3 b = sampler.sample(rng).point;
    const Vec3 start{snap(a.x), snap(a.y), snap(a.z)};
    const Vec3 goal{snap(b.x), snap(b.y), snap(b.z)};
    auto near = base_query.find_path(start, goal);
    auto far_path = far_query.find_path(moved(start, offset), moved(goal, offset));
    REQUIRE(near.ok());
    REQUIRE(far_path.ok());
    CAPTURE(q);
    REQUIRE(near->status == far_path->status);
    if (near->status != plan::PathStatus::Found) continue;
    ++found;
    // note: A* compares float costs between portal midpoints, which 100 km out are rounded to
    // the float step, so a tie between two equally long corridors may break the other way
    same_corridor += near->corridor == far_path->corridor ? 1 : 0;
    // note: grid corners are stored as floats, which 100 km out are 1/128 m apart, so the far
    // corners are the near ones moved to within half that step; a corner where the near path runs
    // straight may appear or vanish. The moved path must lie on the near one, and back.
    const double step = 1.0 / 128.0;
    std::vector<Vec3> back;
    for (const Vec3& p : far_path->points) {
      back.push_back({static_cast<float>(double{p.x} - offset.x),
                      static_cast<float>(double{p.y} - offset.y),
                      static_cast<float>(double{p.z} - offset.z)});
    }
    for (const Vec3& p : back) CHECK(distance_to_polyline(p, near->points) <= step);
    for (const Vec3& p : near->points) CHECK(distance_to_polyline(p, back) <= step);
    CHECK(std::abs(far_path->length - near->length) <=
          step * static_cast<double>(near->points.size()));
  }
  CHECK(found > 25);
  CHECK(same_corridor >= found * 9 / 10);
}

}  // namespace

TEST_SUITE("planning.placement") {
  TEST_CASE("a path between points moved 100 km is the moved path") {
    auto terrain = io::builtin_scene("terrain:2");
    REQUIRE(terrain.ok());
    check_moved_paths(*terrain, {100000.0F, 10000.0F, -100000.0F}, 5);
    const auto path = test::shared_mesh("nav_test.obj");
    if (!path) return;
    auto level = io::load_obj(*path);
    REQUIRE(level.ok());
    check_moved_paths(*level, {-99999.5F, -5000.0F, 99999.75F}, 9);
  }
}
