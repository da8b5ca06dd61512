#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "leapnav/planning/funnel.hpp"
#include "leapnav/planning/graph.hpp"
#include "leapnav/planning/query.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;
using leapnav::mesh::PolyId;

namespace {

/// Three unit quads along x: [0,3] × [0,1].
mesh::NavMesh straight_corridor() {
  return test::grid_navmesh(3, 1, 1.0F, [](int, int) { return true; });
}

/// An L: cells (0,0) (1,0) (2,0) along x, then (2,1) (2,2) up z. Inner corner at (2, 1).
mesh::NavMesh l_corridor() {
  return test::grid_navmesh(3, 3, 1.0F, [](int i, int j) { return j == 0 || i == 2; });
}

/// A 3 × 3 room of unit cells with the centre cell removed (a pillar).
mesh::NavMesh pillar_room() {
  return test::grid_navmesh(3, 3, 1.0F, [](int i, int j) { return !(i == 1 && j == 1); });
}

plan::Path must_find(const mesh::NavMesh& nav, Vec3 start, Vec3 goal,
                     const plan::QueryOptions& options = {}) {
  auto path = plan::find_path(nav, start, goal, options);
  REQUIRE(path.ok());
  return std::move(path).value();
}

}  // namespace

TEST_SUITE("planning.graph") {
  TEST_CASE("the graph has a walk arc pair per shared edge") {
    const auto nav = pillar_room();
    REQUIRE(mesh::validate(nav).ok());
    const plan::NavGraph graph = plan::build_graph(nav);
    CHECK(plan::validate(graph, nav).ok());
    CHECK(graph.vertex_count() == 8);
    CHECK(graph.arc_count() == 16);  // a ring of 8 cells: 8 shared edges
    for (std::size_t a = 0; a < graph.arc_count(); ++a) {
      CHECK(graph.arc_kind[a] == plan::EdgeKind::Walk);
    }
  }
  TEST_CASE("a graph with a dangling arc fails validation") {
    const auto nav = straight_corridor();
    plan::NavGraph graph = plan::build_graph(nav);
    graph.arc_target[0] = 2;  // no longer the portal's neighbour
    CHECK_FALSE(plan::validate(graph, nav).ok());
  }
  TEST_CASE("islands are numbered by their lowest polygon") {
    const auto nav = test::grid_navmesh(5, 1, 1.0F, [](int i, int) { return i != 2; });
    const auto islands = plan::connected_components(plan::build_graph(nav));
    CHECK(islands == std::vector<std::uint32_t>{0, 0, 1, 1});
  }
}

TEST_SUITE("planning.funnel") {
  TEST_CASE("a straight corridor gives a two-point path") {
    const auto nav = straight_corridor();
    const auto path = must_find(nav, {0.2F, 0.0F, 0.5F}, {2.8F, 0.0F, 0.5F});
    CHECK(path.status == plan::PathStatus::Found);
    REQUIRE(path.points.size() == 2);
    CHECK(path.corridor.size() == 3);
    CHECK(path.length == doctest::Approx(2.6));
    REQUIRE(path.segments.size() == 1);
    CHECK(path.segments[0].kind == plan::SegmentKind::Walk);
    CHECK(path.segments[0].last == 1);
  }
  TEST_CASE("an L-shaped corridor gives exactly one corner, at the inner vertex") {
    const auto nav = l_corridor();
    const auto path = must_find(nav, {0.5F, 0.0F, 0.5F}, {2.5F, 0.0F, 2.5F});
    CHECK(path.status == plan::PathStatus::Found);
    REQUIRE(path.points.size() == 3);
    CHECK(path.points[1].x == doctest::Approx(2.0));
    CHECK(path.points[1].z == doctest::Approx(1.0));
    const double expected = 2.0 * std::sqrt(1.5 * 1.5 + 0.5 * 0.5);
    CHECK(path.length == doctest::Approx(expected));
  }
  TEST_CASE("a pillar is passed on the shorter side") {
    const auto nav = pillar_room();
    // from the west middle to the east middle, slightly south: the south side is shorter
    const auto south = must_find(nav, {0.5F, 0.0F, 1.4F}, {2.5F, 0.0F, 1.4F});
    REQUIRE(south.points.size() == 4);
    CHECK(south.points[1].z == doctest::Approx(1.0));
    CHECK(south.points[2].z == doctest::Approx(1.0));
    const auto north = must_find(nav, {0.5F, 0.0F, 1.6F}, {2.5F, 0.0F, 1.6F});
    REQUIRE(north.points.size() == 4);
    CHECK(north.points[1].z == doctest::Approx(2.0));
    CHECK(north.points[2].z == doctest::Approx(2.0));
    CHECK(north.length == doctest::Approx(south.length));
  }
  TEST_CASE("corners are lifted onto a sloped floor") {
    const auto nav = test::grid_navmesh(
        3, 3, 1.0F, [](int i, int j) { return j == 0 || i == 2; }, {},
        [](float x, float z) { return 0.5F * x + 0.25F * z; });
    const auto path = must_find(nav, {0.5F, 1.0F, 0.5F}, {2.5F, 2.0F, 2.5F});
    REQUIRE(path.points.size() == 3);
    CHECK(path.points[0].y == doctest::Approx(0.5 * 0.5 + 0.25 * 0.5));
    CHECK(path.points[1].y == doctest::Approx(0.5 * 2.0 + 0.25 * 1.0));
    CHECK(path.points[2].y == doctest::Approx(0.5 * 2.5 + 0.25 * 2.5));
    CHECK(path.length_3d > path.length);
  }
  TEST_CASE("the funnel on a portal-free corridor joins start and goal") {
    std::vector<plan::Corner> corners;
    plan::funnel({0.0F, 0.0F}, {1.0F, 1.0F}, {}, corners);
    REQUIRE(corners.size() == 2);
    CHECK(corners[1].point == Vec2{1.0F, 1.0F});
  }
  TEST_CASE("a zig-zag corridor's corners alternate sides") {
    // a staircase of cells: (0,0) (1,0) (1,1) (2,1) (2,2)
    const auto nav =
        test::grid_navmesh(3, 3, 1.0F, [](int i, int j) { return (i == j) || (i == j + 1); });
    const auto path = must_find(nav, {0.1F, 0.0F, 0.5F}, {2.5F, 0.0F, 2.9F});
    CHECK(path.status == plan::PathStatus::Found);
    CHECK(path.corridor.size() == 5);
    CHECK(path.points.size() >= 3);
  }
}

TEST_SUITE("planning.locate") {
  TEST_CASE("locate picks the storey nearest the point's height") {
    // two 2 × 2 floors at y = 0 and y = 3 over the same xz
    std::vector<Vec3> vertices{{0, 0, 0}, {2, 0, 0}, {2, 0, 2}, {0, 0, 2},
                               {0, 3, 0}, {2, 3, 0}, {2, 3, 2}, {0, 3, 2}};
    const auto nav = test::make_navmesh(vertices, {{0, 1, 2, 3}, {4, 5, 6, 7}});
    REQUIRE(mesh::validate(nav).ok());
    const auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    const Vec3 extent{1.0F, 4.0F, 1.0F};
    auto low = planner->locate({1.0F, 0.4F, 1.0F}, extent);
    REQUIRE(low.ok());
    REQUIRE(low->has_value());
    CHECK(mesh::index((*low)->poly) == 0);
    CHECK((*low)->inside);
    CHECK((*low)->point.y == doctest::Approx(0.0));
    auto high = planner->locate({1.0F, 2.0F, 1.0F}, extent);
    REQUIRE(high.ok());
    REQUIRE(high->has_value());
    CHECK(mesh::index((*high)->poly) == 1);
    // the two storeys are not connected
    const auto path = plan::find_path(nav, {0.5F, 0.0F, 0.5F}, {1.5F, 3.0F, 1.5F});
    REQUIRE(path.ok());
    CHECK(path->status == plan::PathStatus::NoPath);
  }
  TEST_CASE("a point beside the mesh snaps to the nearest surface point") {
    const auto nav = straight_corridor();
    auto loc = plan::locate(nav, {1.5F, 0.0F, -0.5F}, {1.0F, 1.0F, 1.0F});
    REQUIRE(loc.ok());
    REQUIRE(loc->has_value());
    CHECK_FALSE((*loc)->inside);
    CHECK((*loc)->point.x == doctest::Approx(1.5));
    CHECK((*loc)->point.z == doctest::Approx(0.0));
    CHECK((*loc)->distance == doctest::Approx(0.5));
    auto far = plan::locate(nav, {1.5F, 0.0F, -3.0F}, {1.0F, 1.0F, 1.0F});
    REQUIRE(far.ok());
    CHECK_FALSE(far->has_value());
  }
}

TEST_SUITE("planning.locate") {
  TEST_CASE("locate finds the nearest surface point of all polygons: brute force, stacked floors") {
    // two random grids with holes, the upper one sloped and shifted, over the same xz
    const auto low = test::random_grid_navmesh(8, 8, 0.3F, 3);
    const auto high = test::random_grid_navmesh(8, 8, 0.3F, 4);
    std::vector<Vec3> vertices = low.vertices;
    std::vector<std::vector<std::uint32_t>> polygons;
    for (const PolyId p : low.polygon_ids()) {
      const auto v = low.polygon(p);
      polygons.emplace_back(v.begin(), v.end());
    }
    const auto offset = static_cast<std::uint32_t>(vertices.size());
    for (const Vec3& v : high.vertices) vertices.push_back({v.x + 0.3F, 2.0F + 0.1F * v.x, v.z});
    for (const PolyId p : high.polygon_ids()) {
      std::vector<std::uint32_t> poly;
      for (const std::uint32_t i : high.polygon(p)) poly.push_back(i + offset);
      polygons.push_back(poly);
    }
    const auto nav = test::make_navmesh(vertices, polygons);
    REQUIRE(mesh::validate(nav).ok());
    const auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    // the brute force: every polygon's nearest point in xz, lifted to its surface
    const auto nearest = [&](PolyId p, Vec3 point) {
      const auto v = nav.polygon(p);
      const Vec2 x{point.x, point.z};
      bool inside = true;
      for (std::size_t k = 0; k < v.size(); ++k) {
        const Vec2 a = xz(nav.vertices[v[k]]);
        const Vec2 b = xz(nav.vertices[v[(k + 1) % v.size()]]);
        inside = inside && cross(b - a, x - a) >= 0.0F;
      }
      Vec2 best = x;
      if (!inside) {
        float best_d = std::numeric_limits<float>::max();
        for (std::size_t k = 0; k < v.size(); ++k) {
          const Vec2 a = xz(nav.vertices[v[k]]);
          const Vec2 ab = xz(nav.vertices[v[(k + 1) % v.size()]]) - a;
          const float t = std::clamp(dot(x - a, ab) / dot(ab, ab), 0.0F, 1.0F);
          const Vec2 q = a + ab * t;
          if (const float d = dot(x - q, x - q); d < best_d) {
            best_d = d;
            best = q;
          }
        }
      }
      return Vec3{best.x, mesh::height_at(nav, p, best.x, best.y), best.y};
    };
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> ux(-1.0F, 9.5F);
    std::uniform_real_distribution<float> uy(-1.0F, 4.0F);
    const Vec3 extent{1.0F, 1.5F, 1.0F};
    int located = 0;
    for (int i = 0; i < 3000; ++i) {
      const Vec3 point{ux(rng), uy(rng), ux(rng)};
      float best = std::numeric_limits<float>::infinity();
      for (const PolyId p : nav.polygon_ids()) {
        const Vec3 s = nearest(p, point);
        if (std::fabs(s.x - point.x) <= extent.x && std::fabs(s.y - point.y) <= extent.y &&
            std::fabs(s.z - point.z) <= extent.z) {
          best = std::min(best, distance(s, point));
        }
      }
      const auto loc = planner->locate(point, extent);
      REQUIRE(loc.ok());
      CAPTURE(i);
      REQUIRE(loc->has_value() == std::isfinite(best));
      if (!loc->has_value()) continue;
      ++located;
      CHECK((*loc)->distance == doctest::Approx(best).epsilon(1e-5).scale(1.0));
      CHECK(distance(nearest((*loc)->poly, point), point) ==
            doctest::Approx(best).epsilon(1e-5).scale(1.0));
    }
    CHECK(located > 1500);
  }
}

TEST_SUITE("planning.query") {
  TEST_CASE("off-mesh ends give StartNotOnMesh and GoalNotOnMesh") {
    const auto nav = straight_corridor();
    const auto a = must_find(nav, {1.0F, 0.0F, 10.0F}, {1.0F, 0.0F, 0.5F});
    CHECK(a.status == plan::PathStatus::StartNotOnMesh);
    CHECK(a.points.empty());
    const auto b = must_find(nav, {1.0F, 0.0F, 0.5F}, {1.0F, 9.0F, 0.5F});
    CHECK(b.status == plan::PathStatus::GoalNotOnMesh);
  }
  TEST_CASE(
      "a mesh or jump links failing their checks, or a walk_search that names no search, "
      "are InvalidArgument naming the check") {
    auto nav = straight_corridor();
    auto good = plan::Planner::create(nav);
    REQUIRE(good.ok());
    plan::QueryOptions options;
    options.walk_search = static_cast<plan::WalkSearch>(9);
    auto searched =
        plan::NavQuery(*good).find_path({1.0F, 0.0F, 0.5F}, {1.0F, 0.0F, 8.5F}, options);
    REQUIRE_FALSE(searched.ok());
    CHECK(searched.error().code == ErrorCode::InvalidArgument);
    CHECK(searched.error().message == "find_path: walk_search 9 is neither Exact nor Portals");
    // links gathered by hand without their per-polygon index name the function that makes it
    jump::JumpLinkSet unindexed;
    unindexed.configs.push_back({1.0F, 2.5F, 2.5F});
    unindexed.links.push_back(
        {{0.5F, 0.0F, 0.5F}, {2.5F, 0.0F, 0.5F}, {2.5F, 0.0F, 0.6F}, 0, 0, 2});
    auto links = plan::Planner::create(nav, &unindexed);
    REQUIRE_FALSE(links.ok());
    CHECK(links.error().code == ErrorCode::InvalidArgument);
    CHECK(links.error().message ==
          "Planner::create: the jump link set has 1 links but no per-polygon index "
          "(jump::index_links(set, polygon_count) makes it; builders and loaders return indexed "
          "sets)");
    jump::index_links(unindexed, nav.polygon_count());
    CHECK(plan::Planner::create(nav, &unindexed).ok());
    nav.poly_vertices[0] = 9999;
    auto broken = plan::Planner::create(nav);
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.error().code == ErrorCode::InvalidArgument);
    CHECK(broken.error().message ==
          "Planner::create: invalid mesh (navmesh: polygon 0 has a vertex index out of range)");
  }
  TEST_CASE("a default-constructed jump link set is no links: the paths of the mesh alone") {
    // it was refused as "invalid jump links (jump links: poly_first has the wrong size)"
    const auto nav = l_corridor();
    const jump::JumpLinkSet none;
    auto with_set = plan::Planner::create(nav, &none);
    INFO((with_set.ok() ? std::string() : with_set.error().message));
    REQUIRE(with_set.ok());
    auto without = plan::Planner::create(nav);
    REQUIRE(without.ok());
    const Vec3 start{0.5F, 0.0F, 0.5F};
    const Vec3 goal{2.5F, 0.0F, 2.5F};
    auto a = plan::NavQuery(*with_set).find_path(start, goal);
    auto b = plan::NavQuery(*without).find_path(start, goal);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->status == plan::PathStatus::Found);
    CHECK(a->points == b->points);
    CHECK(a->jump_count == 0);
  }
  TEST_CASE("a navmesh with no polygons makes a planner whose queries say 'not on the mesh'") {
    // note: an empty build is a result, not an error (no walkable area: an empty mesh and a
    // warning); the C API and the Python module answer the same (capi.errors, python/tests)
    const mesh::NavMesh empty = test::grid_navmesh(2, 2, 1.0F, [](int, int) { return false; });
    REQUIRE(empty.polygon_count() == 0);
    REQUIRE(mesh::validate(empty).ok());
    auto planner = plan::Planner::create(empty);
    REQUIRE(planner.ok());
    const jump::JumpLinkSet none;
    CHECK(plan::Planner::create(empty, &none).ok());
    auto path = plan::NavQuery(*planner).find_path({0.5F, 0.0F, 0.5F}, {1.5F, 0.0F, 1.5F});
    REQUIRE(path.ok());
    CHECK(path->status == plan::PathStatus::StartNotOnMesh);
    CHECK(path->points.empty());
    auto located = plan::locate(empty, {0.5F, 0.0F, 0.5F}, {2.0F, 4.0F, 2.0F});
    REQUIRE(located.ok());
    CHECK_FALSE(located->has_value());
  }
  TEST_CASE("invalid input is an error, not a status") {
    const auto nav = straight_corridor();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    auto r = plan::find_path(nav, {nan, 0.0F, 0.5F}, {1.0F, 0.0F, 0.5F});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::NonFinite);
    r = plan::find_path(nav, {0.5F, 0.0F, 0.5F}, {1.0F, inf, 0.5F});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::NonFinite);
    plan::QueryOptions options;
    options.search_extent.y = -1.0F;
    r = plan::find_path(nav, {0.5F, 0.0F, 0.5F}, {1.0F, 0.0F, 0.5F}, options);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::InvalidArgument);
    options = {};
    options.max_nodes = 0;
    r = plan::find_path(nav, {0.5F, 0.0F, 0.5F}, {1.0F, 0.0F, 0.5F}, options);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::InvalidArgument);
    auto l = plan::locate(nav, {0.5F, 0.0F, 0.5F}, {-1.0F, 1.0F, 1.0F});
    REQUIRE_FALSE(l.ok());
    CHECK(l.error().code == ErrorCode::InvalidArgument);
  }
  TEST_CASE("an invalid mesh is an error") {
    auto nav = straight_corridor();
    nav.poly_neighbors[1] = 2;  // a neighbour that does not share the edge back
    const auto r = plan::find_path(nav, {0.5F, 0.0F, 0.5F}, {2.5F, 0.0F, 0.5F});
    CHECK_FALSE(r.ok());
  }
  TEST_CASE("a node limit gives a Partial path that ends nearer the goal") {
    const auto nav = test::grid_navmesh(20, 1, 1.0F, [](int, int) { return true; });
    plan::QueryOptions options;
    options.max_nodes = 5;
    const auto path = must_find(nav, {0.5F, 0.0F, 0.5F}, {19.5F, 0.0F, 0.5F}, options);
    CHECK(path.status == plan::PathStatus::Partial);
    CHECK(path.nodes_expanded == 5);
    REQUIRE(path.points.size() >= 2);
    CHECK(path.corridor.size() > 1);
    CHECK(path.corridor.size() < 20);
    CHECK(path.points.back().x > 1.0F);
    CHECK(path.points.back().x < 19.0F);
  }
  TEST_CASE("a Partial path starts at the start also when searched from the higher polygon") {
    const auto nav = test::grid_navmesh(20, 1, 1.0F, [](int, int) { return true; });
    plan::QueryOptions options;
    options.max_nodes = 5;
    const auto path = must_find(nav, {19.5F, 0.0F, 0.5F}, {0.5F, 0.0F, 0.5F}, options);
    CHECK(path.status == plan::PathStatus::Partial);
    REQUIRE(path.points.size() >= 2);
    CHECK(path.points.front().x == doctest::Approx(19.5));
    CHECK(mesh::index(path.corridor.front()) == 19);
    CHECK(path.points.back().x < 19.0F);
    CHECK(path.points.back().x > 1.0F);
  }
  TEST_CASE("a path and its reverse have the same corners in opposite order") {
    const auto nav = pillar_room();
    const auto there = must_find(nav, {0.5F, 0.0F, 0.5F}, {2.5F, 0.0F, 2.5F});
    const auto back = must_find(nav, {2.5F, 0.0F, 2.5F}, {0.5F, 0.0F, 0.5F});
    REQUIRE(there.points.size() == back.points.size());
    for (std::size_t i = 0; i < there.points.size(); ++i) {
      CHECK(there.points[i] == back.points[back.points.size() - 1 - i]);
    }
  }
  TEST_CASE(
      "the closest-to-line crossing is where the line crosses the portal, else the nearest end") {
    const Vec2 a{1.0F, -1.0F};
    const Vec2 b{1.0F, 1.0F};
    const auto cross_at =
        plan::crossing_point(a, b, {0.0F, 0.5F}, {2.0F, 0.5F}, plan::CrossingPoint::ClosestToLine);
    CHECK(cross_at.x == doctest::Approx(1.0));
    CHECK(cross_at.y == doctest::Approx(0.5));
    const auto end =
        plan::crossing_point(a, b, {0.0F, 3.0F}, {2.0F, 3.0F}, plan::CrossingPoint::ClosestToLine);
    CHECK(end == b);
    const auto mid =
        plan::crossing_point(a, b, {0.0F, 3.0F}, {2.0F, 3.0F}, plan::CrossingPoint::Midpoint);
    CHECK(mid == Vec2{1.0F, 0.0F});
  }
  TEST_CASE("start and goal in one polygon give the straight segment") {
    const auto nav = straight_corridor();
    const auto path = must_find(nav, {0.1F, 0.0F, 0.1F}, {0.9F, 0.0F, 0.9F});
    CHECK(path.status == plan::PathStatus::Found);
    CHECK(path.points.size() == 2);
    CHECK(path.corridor.size() == 1);
    CHECK(path.nodes_expanded == 0);
  }
  TEST_CASE("different islands give NoPath") {
    const auto nav = test::grid_navmesh(5, 1, 1.0F, [](int i, int) { return i != 2; });
    const auto path = must_find(nav, {0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F});
    CHECK(path.status == plan::PathStatus::NoPath);
    CHECK(path.points.empty());
    CHECK(path.segments.empty());
  }
}
