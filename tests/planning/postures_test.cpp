// Crouching in queries: a crouch strip against a standing detour is taken exactly while
// crouch_cost times its length is cheaper (closed-form break-even, the same rule as area costs, on
// top of them); crouch = false never enters a crouch polygon, and include_flags does not treat the
// crouch flag as a user flag; walk segments are cut at each crouch transition.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "leapnav/planning/query.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;

namespace {

std::uint32_t poly_at(const plan::Planner& planner, float x, float z) {
  const auto at = planner.locate({x, 0.0F, z}, {0.01F, 1.0F, 0.01F});
  REQUIRE(at.ok());
  REQUIRE(at->has_value());
  return mesh::index((*at)->poly);
}

/// The filter test's grid: 5 x 4 cells of 1 m without rows 1-2 of columns 1-3, the cells 1-3 of
/// row 0 (the strip) flagged crouch.
struct Strip {
  mesh::NavMesh nav;
  std::vector<std::uint32_t> strip;
};

Strip crouch_strip() {
  Strip out;
  out.nav = test::grid_navmesh(
      5, 4, 1.0F, [](int i, int j) { return !(i >= 1 && i <= 3 && (j == 1 || j == 2)); });
  auto planner = plan::Planner::create(out.nav);
  REQUIRE(planner.ok());
  for (const float x : {1.5F, 2.5F, 3.5F}) out.strip.push_back(poly_at(*planner, x, 0.5F));
  for (const std::uint32_t p : out.strip) out.nav.poly_flags[p] = mesh::kPolyFlagCrouch;
  return out;
}

bool crosses(const plan::Path& path, const std::vector<std::uint32_t>& polys) {
  return std::any_of(path.corridor.begin(), path.corridor.end(), [&](auto p) {
    return std::find(polys.begin(), polys.end(), mesh::index(p)) != polys.end();
  });
}

}  // namespace

TEST_SUITE("plan.postures") {
  TEST_CASE("a crouch strip is crossed exactly while crouch cost x area cost beats the detour") {
    // start (0.5, 0.5), goal (4.5, 0.5): through the strip 0.5 + 3 c a + 0.5 (c the crouch cost,
    // a the area cost), the detour 7 + 2 (0.5) + 2 sqrt(0.5)
    const Strip s = crouch_strip();
    auto planner = plan::Planner::create(s.nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const double detour = 8.0 + 2.0 * std::sqrt(0.5);
    const double break_even = (detour - 1.0) / 3.0;  // 2.4714
    for (const float area : {1.0F, 2.0F}) {
      for (const float c : {0.5F, 1.0F, 1.2F, 1.3F, 2.4F, 2.55F, 10.0F}) {
        CAPTURE(area);
        CAPTURE(c);
        plan::QueryOptions options;
        options.crouch_cost = c;
        options.area_costs[s.nav.poly_area[s.strip[0]]] = area;
        auto path = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
        REQUIRE(path.ok());
        REQUIRE(path->status == plan::PathStatus::Found);
        // note: the area cost also applies to every other polygon of the grid (one area id)
        const double through = area * (1.0 + 3.0 * c);
        const double around = area * detour;
        const bool crossed = crosses(*path, s.strip);
        CHECK(crossed == (c < break_even));
        CHECK(path->search_cost == doctest::Approx(std::min(through, around)).epsilon(1e-5));
        if (crossed) {
          // stand, crouch, stand, cut on the strip's borders x = 1 and x = 4
          REQUIRE(path->segments.size() == 3);
          CHECK(path->segments[1].posture == plan::Posture::Crouch);
          CHECK(path->points[path->segments[1].first].x == doctest::Approx(1.0));
          CHECK(path->points[path->segments[1].last].x == doctest::Approx(4.0));
          CHECK(path->length == doctest::Approx(4.0));
        } else {
          REQUIRE(path->segments.size() == 1);
          CHECK(path->segments[0].posture == plan::Posture::Stand);
        }
      }
    }
  }

  TEST_CASE("crouch = false never enters a crouch polygon; include_flags ignores the crouch flag") {
    const Strip s = crouch_strip();
    auto planner = plan::Planner::create(s.nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.crouch_cost = 0.1F;  // the strip would be far cheaper
    options.include_flags = 0x0001;
    auto with = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
    REQUIRE(with.ok());
    CHECK(crosses(*with, s.strip));
    options.crouch = false;
    auto without = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
    REQUIRE(without.ok());
    REQUIRE(without->status == plan::PathStatus::Found);
    CHECK_FALSE(crosses(*without, s.strip));
    // a goal in a crouch polygon has no path when crouching is forbidden
    auto goal = query.find_path({0.5F, 0.0F, 3.5F}, {2.5F, 0.0F, 0.5F}, options);
    REQUIRE(goal.ok());
    CHECK(goal->status == plan::PathStatus::NoPath);
    // bad crouch costs are invalid input
    for (const float bad : {0.0F, -1.0F, std::nanf(""), INFINITY}) {
      options.crouch_cost = bad;
      CHECK_FALSE(query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options).ok());
    }
  }
}
