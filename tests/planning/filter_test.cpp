// Query filters: area costs trade a costly shortcut against a detour exactly at the closed-form
// break-even cost; excluded polygons (flags or an infinite area cost) are never entered and a path
// exists exactly when a brute-force search over the passable polygons reaches the goal; a jump
// link landing in an excluded polygon is not taken.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;

namespace {

constexpr float kExcluded = std::numeric_limits<float>::infinity();

std::uint32_t poly_at(const plan::Planner& planner, float x, float z) {
  const auto at = planner.locate({x, 0.0F, z}, {0.01F, 1.0F, 0.01F});
  REQUIRE(at.ok());
  REQUIRE(at->has_value());
  return mesh::index((*at)->poly);
}

bool passes(const mesh::NavMesh& nav, const plan::QueryOptions& o, std::uint32_t p) {
  const auto flags = nav.poly_flags[p];
  return (flags & o.exclude_flags) == 0 && (flags == 0 || (flags & o.include_flags) != 0) &&
         std::isfinite(o.area_costs[nav.poly_area[p]]);
}

}  // namespace

TEST_SUITE("plan.filter") {
  TEST_CASE("a costly strip is crossed exactly while it is cheaper than the detour") {
    // 5 x 4 cells of 1 m without rows 1-2 of columns 1-3: a bottom strip and a top detour.
    // Start (0.5, 0.5), goal (4.5, 0.5). Midpoint crossings: through the strip (cells 1-3 of
    // row 0, area 2 at cost c) costs 0.5 + 3c + 0.5; the detour 7 + 2 (0.5) + 2 sqrt(0.5).
    auto nav = test::grid_navmesh(
        5, 4, 1.0F, [](int i, int j) { return !(i >= 1 && i <= 3 && (j == 1 || j == 2)); });
    auto planner0 = plan::Planner::create(nav);
    REQUIRE(planner0.ok());
    std::vector<std::uint32_t> strip;
    for (const float x : {1.5F, 2.5F, 3.5F}) strip.push_back(poly_at(*planner0, x, 0.5F));
    for (const std::uint32_t p : strip) nav.poly_area[p] = 2;
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const double detour = 8.0 + 2.0 * std::sqrt(0.5);
    const double break_even = (detour - 1.0) / 3.0;  // 2.4714
    for (const float c : {0.5F, 1.0F, 2.0F, 2.4F, 2.55F, 3.0F, 10.0F, kExcluded}) {
      CAPTURE(c);
      plan::QueryOptions options;
      options.area_costs[2] = c;
      // note: the costs above are the portal A*'s (with c excluded the exact search applies)
      options.walk_search = plan::WalkSearch::Portals;
      auto path = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
      REQUIRE(path.ok());
      REQUIRE(path->status == plan::PathStatus::Found);
      const bool crossed = std::any_of(path->corridor.begin(), path->corridor.end(), [&](auto p) {
        return std::find(strip.begin(), strip.end(), mesh::index(p)) != strip.end();
      });
      CHECK(crossed == (c < break_even));
      const double expected = c < break_even ? 1.0 + 3.0 * double(c) : detour;
      CHECK(path->search_cost == doctest::Approx(expected).epsilon(1e-5));
      CHECK(path->length <= (crossed ? 4.0 : detour) + 1e-4);
    }
  }

  TEST_CASE(
      "excluded polygons are never entered and paths exist exactly when brute force finds "
      "one") {
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      auto nav = test::random_grid_navmesh(16, 16, 0.15F, seed);
      std::mt19937 rng(seed);
      std::uniform_int_distribution<int> pick(0, 9);
      for (std::size_t p = 0; p < nav.polygon_count(); ++p) {
        const int r = pick(rng);
        if (r == 0) nav.poly_flags[p] = 2;  // excluded by flag
        if (r == 1) nav.poly_area[p] = 7;   // excluded by area
        if (r == 2) nav.poly_area[p] = 3;   // costly
      }
      auto planner = plan::Planner::create(nav);
      REQUIRE(planner.ok());
      plan::QueryOptions options;
      options.exclude_flags = 2;
      options.area_costs[7] = kExcluded;
      options.area_costs[3] = 5.0F;
      plan::NavQuery query(*planner);
      const auto points = plan::random_points(nav, 400, seed);
      int found = 0;
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        auto path = query.find_path(points[i].point, points[i + 1].point, options);
        REQUIRE(path.ok());
        if (path->status == plan::PathStatus::StartNotOnMesh ||
            path->status == plan::PathStatus::GoalNotOnMesh)
          continue;
        const auto start = planner->locate(points[i].point, options.search_extent);
        const auto goal = planner->locate(points[i + 1].point, options.search_extent);
        const std::uint32_t s = mesh::index((*start)->poly);
        const std::uint32_t g = mesh::index((*goal)->poly);
        // brute force: breadth first over passable polygons (the start may always be left)
        std::vector<std::uint8_t> seen(nav.polygon_count(), 0);
        std::vector<std::uint32_t> queue{s};
        seen[s] = 1;
        for (std::size_t k = 0; k < queue.size(); ++k) {
          for (const std::uint32_t n : nav.neighbors(mesh::PolyId{queue[k]})) {
            if (n == mesh::kNoPoly || seen[n] != 0 || !passes(nav, options, n)) continue;
            seen[n] = 1;
            queue.push_back(n);
          }
        }
        const bool reachable = seen[g] != 0 && passes(nav, options, g);
        CHECK((path->status == plan::PathStatus::Found) == reachable);
        if (path->status != plan::PathStatus::Found) continue;
        ++found;
        for (std::size_t k = 1; k < path->corridor.size(); ++k) {
          CHECK(passes(nav, options, mesh::index(path->corridor[k])));
        }
      }
      CHECK(found > 20);
    }
  }

  TEST_CASE("a jump link landing in an excluded polygon is not taken") {
    // platform [0,4]x[0,4]; across a 2 m gap two polygons [6,8] and [8,10]; C2 links land in the
    // first of them only
    auto nav = test::make_navmesh({{0, 0, 0},
                                   {4, 0, 0},
                                   {4, 0, 4},
                                   {0, 0, 4},
                                   {6, 0, 0},
                                   {8, 0, 0},
                                   {8, 0, 4},
                                   {6, 0, 4},
                                   {10, 0, 0},
                                   {10, 0, 4}},
                                  {{0, 1, 2, 3}, {4, 5, 6, 7}, {5, 8, 9, 6}});
    jump::JumpLinkSet links;
    links.configs = {jump::kJumpC2};
    links.links.push_back({{3.75F, 0.0F, 2.0F}, {6.25F, 0.0F, 1.0F}, {6.25F, 0.0F, 3.0F}, 0, 0, 1});
    jump::index_links(links, nav.polygon_count());
    nav.poly_flags[1] = 4;
    auto planner = plan::Planner::create(nav, &links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    auto open = query.find_path({1.0F, 0.0F, 2.0F}, {9.0F, 0.0F, 2.0F}, options);
    REQUIRE(open.ok());
    CHECK(open->status == plan::PathStatus::Found);
    CHECK(open->jump_count == 1);
    options.exclude_flags = 4;
    auto blocked = query.find_path({1.0F, 0.0F, 2.0F}, {9.0F, 0.0F, 2.0F}, options);
    REQUIRE(blocked.ok());
    CHECK(blocked->status == plan::PathStatus::NoPath);
    options.exclude_flags = 0;
    options.include_flags = 1;  // polygon 1 carries flag 4 only: not included
    auto not_included = query.find_path({1.0F, 0.0F, 2.0F}, {9.0F, 0.0F, 2.0F}, options);
    REQUIRE(not_included.ok());
    CHECK(not_included->status == plan::PathStatus::NoPath);
  }

  TEST_CASE("a non-positive or NaN area cost is an InvalidArgument error") {
    const auto nav = test::grid_navmesh(2, 2, 1.0F, [](int, int) { return true; });
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.area_costs[9] = 0.0F;
    auto bad = query.find_path({0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 1.5F}, options);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::InvalidArgument);
    CHECK(bad.error().message.find("area cost 9") != std::string::npos);
    // note: the check reads the costs' bits; every kind of bad value, at either end of the table
    for (const float value :
         {-0.0F, -1.0F, -std::numeric_limits<float>::infinity(),
          std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN()}) {
      for (const std::size_t at : {std::size_t{0}, options.area_costs.size() - 1}) {
        plan::QueryOptions worse;
        worse.area_costs[at] = value;
        auto refused = query.find_path({0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 1.5F}, worse);
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.error().message.find("area cost " + std::to_string(at)) != std::string::npos);
      }
    }
    // the smallest positive (denormal) cost and +infinity are valid
    plan::QueryOptions fine;
    fine.area_costs[7] = std::numeric_limits<float>::denorm_min();
    fine.area_costs[8] = std::numeric_limits<float>::infinity();
    auto ok = query.find_path({0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 1.5F}, fine);
    REQUIRE(ok.ok());
    CHECK(ok->status == plan::PathStatus::Found);
  }
}
