#include <doctest/doctest.h>

#include <boost/concept/assert.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "leapnav/planning/boost_graph.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/reference.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/planning_checks.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;

BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<plan::NavGraph>));
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<plan::NavGraph>));
BOOST_CONCEPT_ASSERT((boost::EdgeListGraphConcept<plan::NavGraph>));

TEST_SUITE("planning.properties") {
  TEST_CASE("Boost's Dijkstra on the polygon graph reaches exactly the start's island") {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      const auto nav = test::random_grid_navmesh(10, 10, 0.3F, seed);
      REQUIRE(mesh::validate(nav).ok());
      const plan::NavGraph graph = plan::build_graph(nav);
      REQUIRE(plan::validate(graph, nav).ok());
      const auto islands = plan::connected_components(graph);
      std::vector<double> weight(graph.arc_count());
      for (std::size_t a = 0; a < graph.arc_count(); ++a) {
        weight[a] = distance(mesh::polygon_center(nav, mesh::PolyId{graph.arc_source[a]}),
                             mesh::polygon_center(nav, mesh::PolyId{graph.arc_target[a]}));
      }
      std::vector<double> dist(graph.vertex_count());
      std::vector<std::uint32_t> pred(graph.vertex_count());
      boost::dijkstra_shortest_paths(
          graph, 0U,
          boost::weight_map(
              boost::make_iterator_property_map(weight.begin(), get(boost::edge_index, graph)))
              .distance_map(
                  boost::make_iterator_property_map(dist.begin(), get(boost::vertex_index, graph)))
              .predecessor_map(boost::make_iterator_property_map(pred.begin(),
                                                                 get(boost::vertex_index, graph))));
      for (std::uint32_t p = 0; p < graph.vertex_count(); ++p) {
        CHECK((dist[p] < std::numeric_limits<double>::max()) == (islands[p] == islands[0]));
      }
    }
  }

  TEST_CASE("random pairs on random grids: paths are valid, optimal in their model, symmetric") {
    int pairs = 0;
    int found = 0;
    int no_path = 0;
    double excess_sum = 0.0;
    double excess_max = 0.0;
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
      const auto nav = test::random_grid_navmesh(12, 12, 0.28F, seed);
      REQUIRE(mesh::validate(nav).ok());
      auto planner_result = plan::Planner::create(nav);
      REQUIRE(planner_result.ok());
      const plan::Planner& planner = *planner_result;
      plan::NavQuery query(planner);
      const plan::ExactReference reference(nav);
      const auto points = plan::random_points(nav, 80, seed);
      REQUIRE(points.size() == 80);
      plan::QueryOptions portals;
      portals.walk_search = plan::WalkSearch::Portals;
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        const auto& a = points[i];
        const auto& b = points[i + 1];
        ++pairs;
        plan::Path path;
        REQUIRE(query.find_path(a.point, b.point, portals, path).ok());
        const bool same_island = planner.island(a.poly) == planner.island(b.poly);
        if (!same_island) {
          CHECK(path.status == plan::PathStatus::NoPath);
          CHECK_FALSE(reference.shortest_path(xz(a.point), a.poly, xz(b.point), b.poly));
          ++no_path;
          continue;
        }
        REQUIRE(path.status == plan::PathStatus::Found);
        ++found;
        CHECK(path.corridor.front() == a.poly);
        CHECK(path.corridor.back() == b.poly);
        CHECK(test::path_inside_corridor(nav, path, 1e-4F));
        CHECK(path.length <= test::midpoint_length(nav, planner.graph(), path) + 1e-5);
        const double dijkstra =
            test::arc_graph_dijkstra(nav, planner.graph(), path, plan::QueryOptions{}.crossing);
        CHECK(query.last_search_cost() == doctest::Approx(dijkstra).epsilon(1e-5));
        // reversed
        plan::Path back;
        REQUIRE(query.find_path(b.point, a.point, portals, back).ok());
        REQUIRE(back.status == plan::PathStatus::Found);
        CHECK(back.length == doctest::Approx(path.length).epsilon(1e-4));
        // exact reference: never shorter than the true shortest path
        const auto exact = reference.shortest_path(xz(a.point), a.poly, xz(b.point), b.poly);
        REQUIRE(exact.has_value());
        CHECK(path.length >= exact->length - 1e-4);
        if (exact->length > 1e-6) {
          const double excess = path.length / exact->length - 1.0;
          excess_sum += excess;
          excess_max = std::max(excess_max, excess);
        }
      }
    }
    CHECK(found > 100);
    CHECK(no_path > 0);
    MESSAGE("random grids: " << pairs << " pairs, " << found << " found, " << no_path
                             << " no path; excess over exact mean " << 100.0 * excess_sum / found
                             << " %, max " << 100.0 * excess_max << " %");
  }

  TEST_CASE("closest-to-line crossings are also optimal in their own model") {
    const auto nav = test::random_grid_navmesh(10, 10, 0.25F, 11);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.crossing = plan::CrossingPoint::ClosestToLine;
    options.walk_search = plan::WalkSearch::Portals;
    const auto points = plan::random_points(nav, 60, 5);
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      plan::Path path;
      REQUIRE(query.find_path(points[i].point, points[i + 1].point, options, path).ok());
      if (path.status != plan::PathStatus::Found) continue;
      const double dijkstra =
          test::arc_graph_dijkstra(nav, planner->graph(), path, plan::CrossingPoint::ClosestToLine);
      CHECK(query.last_search_cost() == doctest::Approx(dijkstra).epsilon(1e-5));
      CHECK(test::path_inside_corridor(nav, path, 1e-4F));
    }
  }

  TEST_CASE("toward-goal crossings: same reach, inside the corridor, shorter than midpoints") {
    double excess_mid = 0.0;
    double excess_toward = 0.0;
    int found = 0;
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      const auto nav = test::random_grid_navmesh(12, 12, 0.28F, seed);
      auto planner = plan::Planner::create(nav);
      REQUIRE(planner.ok());
      plan::NavQuery query(*planner);
      const plan::ExactReference reference(nav);
      plan::QueryOptions midpoints;
      midpoints.walk_search = plan::WalkSearch::Portals;
      plan::QueryOptions toward = midpoints;
      toward.crossing = plan::CrossingPoint::TowardGoal;
      const auto points = plan::random_points(nav, 80, seed + 40);
      for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
        const auto& a = points[i];
        const auto& b = points[i + 1];
        plan::Path mid;
        plan::Path path;
        REQUIRE(query.find_path(a.point, b.point, midpoints, mid).ok());
        REQUIRE(query.find_path(a.point, b.point, toward, path).ok());
        CHECK(path.status == mid.status);
        if (path.status != plan::PathStatus::Found) continue;
        CHECK(path.corridor.front() == a.poly);
        CHECK(path.corridor.back() == b.poly);
        CHECK(test::path_inside_corridor(nav, path, 1e-4F));
        // the search's cost is the length of the crossing polyline it placed, which the funnel
        // never exceeds
        CHECK(path.length <= query.last_search_cost() + 1e-4);
        const auto exact = reference.shortest_path(xz(a.point), a.poly, xz(b.point), b.poly);
        REQUIRE(exact.has_value());
        CHECK(path.length >= exact->length - 1e-4);
        if (exact->length <= 1e-6) continue;
        ++found;
        excess_mid += mid.length / exact->length - 1.0;
        excess_toward += path.length / exact->length - 1.0;
      }
    }
    CHECK(found > 60);
    CHECK(excess_toward < excess_mid);
    MESSAGE("toward-goal: " << found << " paths, mean excess " << 100.0 * excess_toward / found
                            << " % against midpoints' " << 100.0 * excess_mid / found << " %");
  }

  TEST_CASE("points off the mesh give the matching status") {
    const auto nav = test::random_grid_navmesh(8, 8, 0.2F, 3);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const auto points = plan::random_points(nav, 10, 9);
    for (const auto& p : points) {
      plan::Path path;
      const Vec3 above = p.point + Vec3{0.0F, 50.0F, 0.0F};
      const Vec3 outside{-20.0F, 0.0F, p.point.z};
      REQUIRE(query.find_path(above, p.point, {}, path).ok());
      CHECK(path.status == plan::PathStatus::StartNotOnMesh);
      REQUIRE(query.find_path(p.point, outside, {}, path).ok());
      CHECK(path.status == plan::PathStatus::GoalNotOnMesh);
    }
  }

  TEST_CASE("batch queries give the same paths on 1 and 2 threads") {
    const auto nav = test::random_grid_navmesh(12, 12, 0.25F, 21);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    const auto points = plan::random_points(nav, 400, 77);
    std::vector<plan::PathRequest> requests;
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      requests.push_back({points[i].point, points[i + 1].point});
    }
    requests.push_back({{std::nanf(""), 0.0F, 0.0F}, points[0].point});
    const auto one = plan::find_paths(*planner, requests, {}, 1);
    const auto two = plan::find_paths(*planner, requests, {}, 2);
    REQUIRE(one.size() == requests.size());
    REQUIRE(two.size() == requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i) {
      REQUIRE(one[i].ok() == two[i].ok());
      if (!one[i].ok()) continue;
      CHECK(one[i]->status == two[i]->status);
      CHECK(one[i]->points == two[i]->points);
      CHECK(one[i]->corridor == two[i]->corridor);
    }
    CHECK_FALSE(one.back().ok());
  }

  TEST_CASE("random points are area-weighted, on the mesh and reproducible") {
    const auto nav = test::grid_navmesh(
        2, 1, 1.0F, [](int, int) { return true; }, [](int i, int) { return i == 1; });
    // polygons: one unit quad (area 1) and two triangles (area 0.5 each)
    const auto points = plan::random_points(nav, 4000, 123);
    REQUIRE(points.size() == 4000);
    std::size_t in_quad = 0;
    for (const auto& p : points) {
      if (mesh::index(p.poly) == 0) ++in_quad;
      CHECK(p.point.x >= (mesh::index(p.poly) == 0 ? 0.0F : 1.0F));
      CHECK(p.point.x <= (mesh::index(p.poly) == 0 ? 1.0F : 2.0F));
    }
    CHECK(in_quad > 1800);
    CHECK(in_quad < 2200);
    const auto again = plan::random_points(nav, 4000, 123);
    CHECK(again.back().point == points.back().point);
  }
}
