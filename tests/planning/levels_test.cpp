#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "leapnav/planning/query.hpp"
#include "leapnav/planning/reference.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/planning_checks.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;

namespace {

void check_level(const char* file, std::uint64_t seed) {
  const auto nav = test::build_shared_navmesh(file, "default");
  if (!nav) return;
  REQUIRE(mesh::validate(*nav).ok());
  auto planner_result = plan::Planner::create(*nav);
  REQUIRE(planner_result.ok());
  const plan::Planner& planner = *planner_result;
  REQUIRE(plan::validate(planner.graph(), *nav).ok());
  const plan::ExactReference reference(*nav);
  plan::NavQuery query(planner);
  const auto points = plan::random_points(*nav, 600, seed);
  REQUIRE(points.size() == 600);
  // note: the portal A*'s own invariants (any_angle_test.cpp checks the default, exact search)
  plan::QueryOptions portals;
  portals.walk_search = plan::WalkSearch::Portals;
  int found = 0;
  int no_path = 0;
  double excess_sum = 0.0;
  double excess_max = 0.0;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    const auto& a = points[i];
    const auto& b = points[i + 1];
    plan::Path path;
    REQUIRE(query.find_path(a.point, b.point, portals, path).ok());
    // a sampled point lies on its polygon, but an overlapping polygon may be as near
    REQUIRE(path.status != plan::PathStatus::StartNotOnMesh);
    REQUIRE(path.status != plan::PathStatus::GoalNotOnMesh);
    const bool same_island =
        planner.island(path.corridor.empty() ? a.poly : path.corridor.front()) ==
        planner.island(path.corridor.empty() ? b.poly : path.corridor.back());
    if (path.status == plan::PathStatus::NoPath) {
      ++no_path;
      continue;
    }
    REQUIRE(path.status == plan::PathStatus::Found);
    CHECK(same_island);
    ++found;
    CHECK(test::path_inside_corridor(*nav, path, 1e-3F));
    CHECK(path.length <= test::midpoint_length(*nav, planner.graph(), path) + 1e-4);
    const double dijkstra =
        test::arc_graph_dijkstra(*nav, planner.graph(), path, plan::QueryOptions{}.crossing);
    CHECK(query.last_search_cost() == doctest::Approx(dijkstra).epsilon(1e-5));
    plan::Path back;
    REQUIRE(query.find_path(b.point, a.point, portals, back).ok());
    REQUIRE(back.status == plan::PathStatus::Found);
    CHECK(back.length == doctest::Approx(path.length).epsilon(1e-4));
    const auto exact = reference.shortest_path(xz(path.points.front()), path.corridor.front(),
                                               xz(path.points.back()), path.corridor.back());
    REQUIRE(exact.has_value());
    CHECK(path.length >= exact->length - 1e-3);
    if (exact->length > 1e-6) {
      const double excess = path.length / exact->length - 1.0;
      excess_sum += excess;
      excess_max = std::max(excess_max, excess);
    }
  }
  CHECK(found > 50);
  MESSAGE(std::string(file) << ": " << nav->polygon_count() << " polygons, " << found << " found, "
                            << no_path << " no path; excess over exact mean "
                            << 100.0 * excess_sum / found << " %, max " << 100.0 * excess_max
                            << " %");
  CHECK(excess_sum / found < 0.01);

  // the batch API answers the same on 1 and 2 threads
  std::vector<plan::PathRequest> requests;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    requests.push_back({points[i].point, points[i + 1].point});
  }
  const auto one = plan::find_paths(planner, requests, portals, 1);
  const auto two = plan::find_paths(planner, requests, portals, 2);
  REQUIRE(one.size() == two.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    REQUIRE(one[i].ok());
    REQUIRE(two[i].ok());
    CHECK(one[i]->points == two[i]->points);
  }
}

}  // namespace

TEST_SUITE("planning.levels") {
  TEST_CASE("paths on dungeon.obj stay on the mesh and are near-optimal") {
    check_level("dungeon.obj", 1);
  }
  TEST_CASE("paths on nav_test.obj stay on the mesh and are near-optimal") {
    check_level("nav_test.obj", 2);
  }
}
