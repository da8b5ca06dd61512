// Build-time areas: per-triangle area ids and area volumes reach poly_area, polygons never mix
// areas, and query filters then avoid or exclude them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"

using namespace leapnav;

namespace {

/// A 24 x 8 m floor at y = 0 as two quads split at x = 12 (left: triangles 0-1, right: 2-3).
TriangleMesh split_floor() {
  TriangleMesh floor;
  floor.name = "split-floor";
  floor.vertices = {{0, 0, 0}, {12, 0, 0}, {12, 0, 8}, {0, 0, 8}, {24, 0, 0}, {24, 0, 8}};
  floor.triangles = {{0, 2, 1}, {0, 3, 2}, {1, 2, 5}, {1, 5, 4}};
  return floor;
}

mesh::NavMesh build(const TriangleMesh& input) {
  BuildContext ctx;
  auto built = mesh::build_navmesh(input, *named_config("default"), ctx);
  REQUIRE_MESSAGE(built.ok(), (built.ok() ? "" : built.error().message));
  return std::move(built->navmesh);
}

float centroid_x(const mesh::NavMesh& nav, std::uint32_t p) {
  const auto verts = nav.polygon(mesh::PolyId{p});
  float x = 0.0F;
  for (const auto v : verts) x += nav.vertices[v].x;
  return x / static_cast<float>(verts.size());
}

}  // namespace

TEST_SUITE("mesh.areas") {
  TEST_CASE("per-triangle areas reach poly_area and no polygon spans two areas") {
    TriangleMesh input = split_floor();
    input.areas = {5, 5, 63, 63};
    const mesh::NavMesh nav = build(input);
    std::set<std::uint8_t> seen;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      seen.insert(nav.poly_area[p]);
      for (const auto v : nav.polygon(mesh::PolyId{p})) {
        // every corner of an area-5 polygon lies left of (or on) the split, and vice versa
        if (nav.poly_area[p] == 5) CHECK(nav.vertices[v].x <= 12.0F + 0.31F);
        if (nav.poly_area[p] == 63) CHECK(nav.vertices[v].x >= 12.0F - 0.31F);
      }
      CHECK((nav.poly_area[p] == 5) == (centroid_x(nav, p) < 12.0F));
    }
    CHECK(seen == std::set<std::uint8_t>{5, 63});

    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.area_costs[5] = std::numeric_limits<float>::infinity();
    auto blocked = query.find_path({20.0F, 0.0F, 4.0F}, {4.0F, 0.0F, 4.0F}, options);
    REQUIRE(blocked.ok());
    CHECK(blocked->status == plan::PathStatus::NoPath);
    auto open = query.find_path({20.0F, 0.0F, 4.0F}, {14.0F, 0.0F, 2.0F}, options);
    REQUIRE(open.ok());
    CHECK(open->status == plan::PathStatus::Found);
  }

  TEST_CASE("an area volume marks a strip that polygons respect") {
    TriangleMesh input = split_floor();
    // a 4 m strip across the floor at x in [6, 10]
    input.area_volumes.push_back(
        {{{6.0F, -1.0F}, {10.0F, -1.0F}, {10.0F, 9.0F}, {6.0F, 9.0F}}, -1.0F, 1.0F, 9});
    const mesh::NavMesh nav = build(input);
    int strip = 0;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const float x = centroid_x(nav, p);
      if (nav.poly_area[p] == 9) {
        ++strip;
        CHECK(x > 6.0F);
        CHECK(x < 10.0F);
      } else {
        CHECK(nav.poly_area[p] == 63);
        CHECK((x < 6.0F || x > 10.0F));
      }
    }
    CHECK(strip > 0);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.area_costs[9] = 10.0F;
    auto costly = query.find_path({2.0F, 0.0F, 4.0F}, {20.0F, 0.0F, 4.0F}, options);
    REQUIRE(costly.ok());
    CHECK(costly->status == plan::PathStatus::Found);  // the strip is the only way across
    // 18 m straight, 4 m of it in the strip at 10x: at least 14 + 40 minus the crossing slack
    CHECK(costly->search_cost > 50.0);
    options.area_costs[9] = std::numeric_limits<float>::infinity();
    auto blocked = query.find_path({2.0F, 0.0F, 4.0F}, {20.0F, 0.0F, 4.0F}, options);
    REQUIRE(blocked.ok());
    CHECK(blocked->status == plan::PathStatus::NoPath);
  }

  TEST_CASE("a volume far outside the level marks nothing") {
    TriangleMesh input = split_floor();
    input.area_volumes.push_back(
        {{{1e20F, 1e20F}, {2e20F, 1e20F}, {2e20F, 2e20F}}, -1e30F, 1e30F, 9});
    const mesh::NavMesh nav = build(input);
    CHECK(std::count(nav.poly_area.begin(), nav.poly_area.end(), 9) == 0);
    CHECK(nav.polygon_count() > 0);
  }

  TEST_CASE("malformed areas and volumes are InvalidArgument errors naming the input") {
    BuildContext ctx;
    const BuildConfig config = *named_config("default");
    TriangleMesh wrong_count = split_floor();
    wrong_count.areas = {5, 5};
    auto a = mesh::build_navmesh(wrong_count, config, ctx);
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().code == ErrorCode::InvalidArgument);
    CHECK(a.error().message == "split-floor: 2 areas for 4 triangles");
    TriangleMesh too_high = split_floor();
    too_high.areas = {5, 64, 5, 5};
    auto b = mesh::build_navmesh(too_high, config, ctx);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message == "split-floor: triangle 1 has area 64 (> 63)");
    TriangleMesh bad_volume = split_floor();
    bad_volume.area_volumes.push_back({{{0, 0}, {1, 0}, {1, 1}}, 2.0F, 1.0F, 3});
    auto c = mesh::build_navmesh(bad_volume, config, ctx);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message == "split-floor: area volume 0 has min_y > max_y");
  }
}
