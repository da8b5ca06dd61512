// The portal A*'s landmark (ALT) heuristic: with QueryOptions::landmarks on and off the search
// finds the same cost (the straight-line A* is the oracle; it is itself checked against Dijkstra
// in planning.properties), under filters that raise, lower and remove polygon costs and with
// tiles unloaded, while expanding fewer nodes; where it does not apply (other crossing models)
// the search is the straight-line one step for step.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/planning_checks.hpp"
#include "planning/scenes.hpp"
#include "support/tiled_scene.hpp"

using namespace leapnav;

namespace {

// city:2 (roofs, courtyards, stairs; many islands) in 32-cell tiles.
const mesh::NavMesh& tiled_city() {
  static const mesh::NavMesh mesh = test::tiled_builtin_navmesh("city:2", 32);
  return mesh;
}

struct Comparison {
  int found = 0;
  int same_corridor = 0;
  std::uint64_t expanded_landmarks = 0;
  std::uint64_t expanded_straight = 0;
  double length_landmarks = 0.0;
  double length_straight = 0.0;
};

// Queries random pairs with landmarks on and off; both must agree on the status and the cost.
Comparison compare(const plan::Planner& planner, const plan::QueryOptions& options,
                   std::size_t pairs, std::uint32_t seed) {
  plan::NavQuery query(planner);
  plan::QueryOptions with = options;
  with.landmarks = true;
  plan::QueryOptions without = options;
  without.landmarks = false;
  const auto points = plan::random_points(planner.mesh(), 2 * pairs, seed);
  Comparison c;
  plan::Path a;
  plan::Path b;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    REQUIRE(query.find_path(points[i].point, points[i + 1].point, with, a).ok());
    REQUIRE(query.find_path(points[i].point, points[i + 1].point, without, b).ok());
    CHECK(a.status == b.status);
    if (a.status != plan::PathStatus::Found || b.status != plan::PathStatus::Found) continue;
    ++c.found;
    CHECK(a.search_cost == doctest::Approx(b.search_cost).epsilon(1e-5));
    // note: corridors of equal cost may differ (ties, e.g. around a square block either way);
    // through the same corridor the funnel gives the same path
    if (a.corridor == b.corridor) {
      ++c.same_corridor;
      CHECK(a.length == b.length);
    }
    c.length_landmarks += a.length;
    c.length_straight += b.length;
    c.expanded_landmarks += a.nodes_expanded;
    c.expanded_straight += b.nodes_expanded;
  }
  return c;
}

}  // namespace

TEST_SUITE("planning.landmarks") {
  TEST_CASE(
      "on a tiled city the landmark A* finds the straight-line costs with half the "
      "expansions") {
    auto planner = plan::Planner::create(tiled_city());
    REQUIRE(planner.ok());
    plan::QueryOptions options;
    options.walk_search = plan::WalkSearch::Portals;
    const Comparison c = compare(*planner, options, 600, 3);
    MESSAGE("city:2: " << c.found << " found, " << c.same_corridor << " same corridor, expansions "
                       << c.expanded_landmarks << " with landmarks, " << c.expanded_straight
                       << " without");
    CHECK(c.found > 150);
    // note: equal costs; a different corridor only between paths of equal cost up to rounding
    CHECK(c.same_corridor >= c.found * 95 / 100);
    CHECK(c.length_landmarks == doctest::Approx(c.length_straight).epsilon(1e-3));
    CHECK(10 * c.expanded_landmarks < 6 * c.expanded_straight);
  }

  TEST_CASE("the landmark A*'s cost is the arc graph's Dijkstra cost on random grids") {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      const auto nav = test::random_grid_navmesh(14, 14, 0.3F, seed);
      auto planner = plan::Planner::create(nav);
      REQUIRE(planner.ok());
      plan::NavQuery query(*planner);
      plan::QueryOptions options;
      options.walk_search = plan::WalkSearch::Portals;
      const auto points = plan::random_points(nav, 60, seed);
      int found = 0;
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        plan::Path path;
        REQUIRE(query.find_path(points[i].point, points[i + 1].point, options, path).ok());
        if (path.status != plan::PathStatus::Found) continue;
        ++found;
        const double dijkstra =
            test::arc_graph_dijkstra(nav, planner->graph(), path, plan::CrossingPoint::Midpoint);
        CHECK(query.last_search_cost() == doctest::Approx(dijkstra).epsilon(1e-5));
      }
      CHECK(found > 5);
    }
  }

  TEST_CASE("area costs above and below 1 and excluded areas keep the straight-line costs") {
    auto nav = test::random_grid_navmesh(16, 16, 0.25F, 7);
    for (std::size_t p = 0; p < nav.polygon_count(); ++p)
      nav.poly_area[p] = static_cast<std::uint8_t>(1 + p % 4);
    REQUIRE(mesh::validate(nav).ok());
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::QueryOptions options;
    options.walk_search = plan::WalkSearch::Portals;
    options.area_costs[1] = 1.0F;
    options.area_costs[2] = 3.0F;
    options.area_costs[3] = 0.4F;  // below 1: the heuristic's scale drops to 0.4
    SUBCASE("costs") {
      const Comparison c = compare(*planner, options, 150, 11);
      CHECK(c.found > 60);
    }
    SUBCASE("an excluded area") {
      options.area_costs[4] = std::numeric_limits<float>::infinity();
      const Comparison c = compare(*planner, options, 400, 12);
      CHECK(c.found > 20);
    }
  }

  TEST_CASE("with tiles unloaded the landmark A* finds the straight-line costs") {
    auto planner = plan::Planner::create(tiled_city());
    REQUIRE(planner.ok());
    REQUIRE(planner->tile_count() > 8);
    for (std::uint32_t t = 1; t < planner->tile_count(); t += 3)
      REQUIRE(planner->unload_tile(t).ok());
    plan::QueryOptions options;
    options.walk_search = plan::WalkSearch::Portals;
    const Comparison c = compare(*planner, options, 800, 5);
    CHECK(c.found > 30);
  }

  TEST_CASE("with closest-to-line crossings landmarks play no part") {
    auto planner = plan::Planner::create(tiled_city());
    REQUIRE(planner.ok());
    plan::QueryOptions options;
    options.walk_search = plan::WalkSearch::Portals;
    options.crossing = plan::CrossingPoint::ClosestToLine;
    const Comparison c = compare(*planner, options, 100, 9);
    CHECK(c.found > 20);
    CHECK(c.same_corridor == c.found);
    CHECK(c.expanded_landmarks == c.expanded_straight);
  }
}
