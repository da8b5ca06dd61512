// The exact walking search (plan::WalkSearch::Exact): path lengths equal the
// visibility-graph reference (plan::ExactReference) on closed-form scenes, random small meshes
// (grids with holes and diagonal splits, and jittered copies with no collinear vertices), stacked
// floors and the real levels; it keeps the Path contract (corridor, Partial, NoPath, heights) and
// falls back to the portal A* exactly where costs differ.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/reference.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/planning_checks.hpp"
#include "planning/scenes.hpp"
#include "planning/src/any_angle.hpp"  // internal: the dominance test, checked below
#include "support/shared_level.hpp"

using namespace leapnav;

namespace {

constexpr double kRelative = 1e-4;

/// Default options with the exact search (whatever the library's default is).
plan::QueryOptions exact_search() {
  plan::QueryOptions options;
  options.walk_search = plan::WalkSearch::Exact;
  return options;
}

/// A path's length against the reference's, for points sampled on the mesh.
struct Tally {
  int found = 0;
  int no_path = 0;
  double worst = 0.0;  ///< largest |length / exact - 1|
};

void compare_pairs(const mesh::NavMesh& nav, const std::vector<plan::MeshPoint>& points,
                   Tally& tally) {
  auto planner = plan::Planner::create(nav);
  REQUIRE(planner.ok());
  plan::NavQuery query(*planner);
  const plan::ExactReference reference(nav);
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    const auto& a = points[i];
    const auto& b = points[i + 1];
    plan::Path path;
    REQUIRE(query.find_path(a.point, b.point, exact_search(), path).ok());
    if (path.status == plan::PathStatus::NoPath) {
      CHECK_FALSE(reference.shortest_path(xz(a.point), a.poly, xz(b.point), b.poly));
      ++tally.no_path;
      continue;
    }
    REQUIRE(path.status == plan::PathStatus::Found);
    ++tally.found;
    CHECK(test::path_inside_corridor(nav, path, 1e-3F));
    const auto exact = reference.shortest_path(xz(path.points.front()), path.corridor.front(),
                                               xz(path.points.back()), path.corridor.back());
    REQUIRE(exact.has_value());
    CAPTURE(i);
    CHECK(path.length == doctest::Approx(exact->length).epsilon(kRelative).scale(1.0));
    CHECK(query.last_search_cost() == doctest::Approx(path.length).epsilon(kRelative).scale(1.0));
    if (exact->length > 1e-3) {
      tally.worst = std::max(tally.worst, std::fabs(path.length / exact->length - 1.0));
    }
  }
}

/// A grid navmesh whose inner vertices are moved by up to `amount` cells (no three collinear).
mesh::NavMesh jittered(mesh::NavMesh nav, float amount, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-amount, amount);
  float max_x = 0.0F;
  float max_z = 0.0F;
  for (const Vec3& v : nav.vertices) {
    max_x = std::max(max_x, v.x);
    max_z = std::max(max_z, v.z);
  }
  for (Vec3& v : nav.vertices) {
    const float dx = u(rng);
    const float dz = u(rng);
    if (v.x > 0.0F && v.x < max_x) v.x += dx;
    if (v.z > 0.0F && v.z < max_z) v.z += dz;
  }
  return nav;
}

/// The U of cells: columns 0 and 4 of rows 0-4 and row 0, in a 5 x 5 grid of 1 m cells.
bool in_u(int i, int j) {
  return i == 0 || i == 4 || j == 0;
}

plan::Path path_on(const mesh::NavMesh& nav, Vec3 a, Vec3 b,
                   const plan::QueryOptions& options = exact_search()) {
  auto path = plan::find_path(nav, a, b, options);
  REQUIRE(path.ok());
  return *path;
}

/// The polygons of `nav` with a vertex in [x0, x1] x [z0, z1], as a navmesh of their own
/// (adjacency from shared edges; the cut edges become walls). All vertices are kept, so the
/// search works relative to the same mesh centre (the same rounding).
mesh::NavMesh cut_out(const mesh::NavMesh& nav, float x0, float x1, float z0, float z1) {
  const auto inside = [&](std::uint32_t v) {
    const Vec3& p = nav.vertices[v];
    return p.x >= x0 && p.x <= x1 && p.z >= z0 && p.z <= z1;
  };
  std::vector<std::vector<std::uint32_t>> polygons;
  for (const mesh::PolyId p : nav.polygon_ids()) {
    const auto verts = nav.polygon(p);
    if (std::any_of(verts.begin(), verts.end(), inside))
      polygons.emplace_back(verts.begin(), verts.end());
  }
  mesh::NavMesh cut = test::make_navmesh(nav.vertices, polygons);
  cut.config.poly.max_verts_per_poly = nav.config.poly.max_verts_per_poly;
  return cut;
}

}  // namespace

TEST_SUITE("plan.exact") {
  TEST_CASE("a U-shaped corridor: the path turns at the two inner corners, of closed-form length") {
    for (const bool split : {false, true}) {
      CAPTURE(split);
      const auto nav = test::grid_navmesh(5, 5, 1.0F, in_u, [&](int, int) { return split; });
      REQUIRE(mesh::validate(nav).ok());
      const plan::Path path = path_on(nav, {0.5F, 0.0F, 4.5F}, {4.5F, 0.0F, 4.5F});
      REQUIRE(path.status == plan::PathStatus::Found);
      const double expected = 2.0 * std::sqrt(0.25 + 12.25) + 3.0;
      CHECK(path.length == doctest::Approx(expected).epsilon(1e-6));
      REQUIRE(path.points.size() == 4);
      CHECK(xz(path.points[1]) == Vec2{1.0F, 1.0F});
      CHECK(xz(path.points[2]) == Vec2{4.0F, 1.0F});
      const plan::ExactReference reference(nav);
      const auto exact = reference.shortest_path(xz(path.points.front()), path.corridor.front(),
                                                 xz(path.points.back()), path.corridor.back());
      REQUIRE(exact.has_value());
      CHECK(exact->length == doctest::Approx(expected).epsilon(1e-6));
    }
  }

  TEST_CASE("a room with four pillars: around a pillar row at the closed-form length") {
    const auto pillar = [](int i, int j) { return (i == 2 || i == 5) && (j == 2 || j == 5); };
    const auto nav = test::grid_navmesh(8, 8, 1.0F, [&](int i, int j) { return !pillar(i, j); });
    REQUIRE(mesh::validate(nav).ok());
    // along z = 2.5 both pillars of the row block the line: two corners of each are grazed
    const plan::Path path = path_on(nav, {0.5F, 0.0F, 2.5F}, {7.5F, 0.0F, 2.5F});
    REQUIRE(path.status == plan::PathStatus::Found);
    CHECK(path.length == doctest::Approx(2.0 * std::sqrt(2.5) + 4.0).epsilon(1e-6));
    // a slanted line between the pillar rows is straight
    const plan::Path diagonal = path_on(nav, {0.5F, 0.0F, 3.6F}, {7.5F, 0.0F, 4.3F});
    REQUIRE(diagonal.status == plan::PathStatus::Found);
    CHECK(diagonal.length == doctest::Approx(std::sqrt(49.49)).epsilon(1e-6));
    CHECK(diagonal.points.size() == 2);
    Tally tally;
    compare_pairs(nav, plan::random_points(nav, 200, 7), tally);
    CHECK(tally.found == 100);
  }

  TEST_CASE(
      "tree branches without the goal are never entered: teeth toward the goal cost nothing") {
    // a U of 1 m cells (9 x 7) with teeth: rows 2, 4 and 6 of the left column go on to x = 5, a
    // dead end pointing at the goal in the right column; without branch pruning the search
    // follows each tooth, since its cone points at the goal
    const auto u = [](int i, int j) { return i == 0 || i == 8 || j == 0; };
    const auto teeth = [&](int i, int j) {
      return u(i, j) || ((j == 2 || j == 4 || j == 6) && i < 6);
    };
    const auto plain = test::grid_navmesh(9, 7, 1.0F, u);
    const auto toothed = test::grid_navmesh(9, 7, 1.0F, teeth);
    REQUIRE(mesh::validate(toothed).ok());
    const Vec3 a{0.5F, 0.0F, 6.5F};
    const Vec3 b{8.5F, 0.0F, 6.5F};
    const plan::Path without = path_on(plain, a, b);
    const plan::Path with = path_on(toothed, a, b);
    REQUIRE(without.status == plan::PathStatus::Found);
    REQUIRE(with.status == plan::PathStatus::Found);
    // closed form: down the left column, along row 0, up the right column, turning at (1, 1)
    // and (8, 1)
    const double expected = 2.0 * std::sqrt(0.25 + 30.25) + 7.0;
    CHECK(with.length == doctest::Approx(expected).epsilon(1e-6));
    CHECK(with.points == without.points);
    // the teeth add nothing to the search: the same expansions as on the plain U
    CHECK(with.nodes_expanded == without.nodes_expanded);
    // a goal inside a tooth is still reached, at the reference length
    const plan::Path into = path_on(toothed, {8.5F, 0.0F, 6.5F}, {4.5F, 0.0F, 4.5F});
    REQUIRE(into.status == plan::PathStatus::Found);
    const plan::ExactReference reference(toothed);
    const auto exact = reference.shortest_path(xz(into.points.front()), into.corridor.front(),
                                               xz(into.points.back()), into.corridor.back());
    REQUIRE(exact.has_value());
    CHECK(into.length == doctest::Approx(exact->length).epsilon(1e-6));
    Tally tally;
    compare_pairs(toothed, plan::random_points(toothed, 200, 3), tally);
    CHECK(tally.found == 100);
  }

  TEST_CASE("a goal seen from the start: a straight walk, one expansion per edge crossed") {
    // a row of eight 1 m cells: the segment crosses the seven shared edges clear of their ends
    const auto row = test::grid_navmesh(8, 1, 1.0F, [](int, int) { return true; });
    const plan::Path straight = path_on(row, {0.5F, 0.0F, 0.5F}, {7.5F, 0.0F, 0.3F});
    REQUIRE(straight.status == plan::PathStatus::Found);
    CHECK(straight.points.size() == 2);
    CHECK(straight.corridor.size() == 8);
    CHECK(straight.nodes_expanded == 7);
    CHECK(straight.length == doctest::Approx(std::sqrt(49.04)).epsilon(1e-6));
    // the walk counts against max_nodes: three crossings are not enough, the search then ends
    // Partial as before
    plan::QueryOptions limited = exact_search();
    limited.max_nodes = 3;
    const plan::Path partial = path_on(row, {0.5F, 0.0F, 0.5F}, {7.5F, 0.0F, 0.3F}, limited);
    CHECK(partial.status == plan::PathStatus::Partial);
    CHECK(partial.nodes_expanded <= 3);
    // a diagonal through the grid's vertices proves nothing by walking (an edge crossed at its
    // end): the search finds the same straight line
    const auto square = test::grid_navmesh(4, 4, 1.0F, [](int, int) { return true; });
    const plan::Path diagonal = path_on(square, {0.5F, 0.0F, 0.5F}, {3.5F, 0.0F, 3.5F});
    REQUIRE(diagonal.status == plan::PathStatus::Found);
    for (const Vec3& p : diagonal.points) CHECK(p.x == doctest::Approx(p.z).epsilon(1e-6));
    CHECK(diagonal.length == doctest::Approx(std::sqrt(18.0)).epsilon(1e-6));
    // a wall in the way: the walk stops there and the search turns round it (the U)
    const auto nav = test::grid_navmesh(5, 5, 1.0F, in_u);
    const plan::Path around = path_on(nav, {0.5F, 0.0F, 4.5F}, {4.5F, 0.0F, 4.5F});
    CHECK(around.points.size() == 4);
  }

  TEST_CASE("a bridge over a floor: each floor's paths ignore the other floor's polygons") {
    // the U at y = 0 and, not connected to it, a bridge at y = 3 over its gap and bottom row
    const auto floor = test::grid_navmesh(5, 5, 1.0F, in_u);
    const auto bridge = test::grid_navmesh(
        1, 7, 1.0F, [](int, int) { return true; }, {}, [](float, float) { return 3.0F; }, 2.0F,
        -1.0F);
    const auto offset = static_cast<std::uint32_t>(floor.vertices.size());
    std::vector<Vec3> vertices = floor.vertices;
    vertices.insert(vertices.end(), bridge.vertices.begin(), bridge.vertices.end());
    std::vector<std::vector<std::uint32_t>> polygons;
    for (const mesh::NavMesh* part : {&floor, &bridge}) {
      const std::uint32_t shift = part == &floor ? 0 : offset;
      for (const mesh::PolyId p : part->polygon_ids()) {
        std::vector<std::uint32_t> poly;
        for (const std::uint32_t v : part->polygon(p)) poly.push_back(v + shift);
        polygons.push_back(poly);
      }
    }
    const auto nav = test::make_navmesh(vertices, polygons);
    REQUIRE(mesh::validate(nav).ok());
    const plan::Path u = path_on(nav, {0.5F, 0.0F, 4.5F}, {4.5F, 0.0F, 4.5F});
    REQUIRE(u.status == plan::PathStatus::Found);
    CHECK(u.length == doctest::Approx(2.0 * std::sqrt(12.5) + 3.0).epsilon(1e-6));
    for (const Vec3& p : u.points) CHECK(p.y == doctest::Approx(0.0F));
    const plan::Path over = path_on(nav, {2.5F, 3.0F, -0.5F}, {2.5F, 3.0F, 5.5F});
    REQUIRE(over.status == plan::PathStatus::Found);
    CHECK(over.length == doctest::Approx(6.0).epsilon(1e-6));
    CHECK(over.points.size() == 2);
    for (const Vec3& p : over.points) CHECK(p.y == doctest::Approx(3.0F));
    // from the floor to the bridge there is no way
    CHECK(path_on(nav, {0.5F, 0.0F, 0.5F}, {2.5F, 3.0F, 2.5F}).status == plan::PathStatus::NoPath);
    Tally tally;
    compare_pairs(nav, plan::random_points(nav, 300, 3), tally);
    CHECK(tally.found > 50);
    CHECK(tally.no_path > 20);
  }

  TEST_CASE("start and goal in one polygon, start == goal, and an unreachable goal") {
    const auto nav = test::grid_navmesh(6, 3, 1.0F, [](int i, int) { return i != 3; });
    const plan::Path same = path_on(nav, {0.2F, 0.0F, 0.2F}, {0.8F, 0.0F, 0.9F});
    REQUIRE(same.status == plan::PathStatus::Found);
    CHECK(same.points.size() == 2);
    CHECK(same.length == doctest::Approx(std::hypot(0.6, 0.7)).epsilon(1e-6));
    CHECK(same.corridor.size() == 1);
    const plan::Path zero = path_on(nav, {1.5F, 0.0F, 1.5F}, {1.5F, 0.0F, 1.5F});
    REQUIRE(zero.status == plan::PathStatus::Found);
    CHECK(zero.length == 0.0);
    // column 3 is missing: two islands
    const plan::Path none = path_on(nav, {0.5F, 0.0F, 0.5F}, {5.5F, 0.0F, 0.5F});
    CHECK(none.status == plan::PathStatus::NoPath);
    CHECK(none.points.empty());
    // one island, but an excluded area cuts it: no path, as the portal search says
    auto cut = test::grid_navmesh(6, 3, 1.0F, [](int, int) { return true; });
    for (const mesh::PolyId p : cut.polygon_ids()) {
      if (std::fabs(mesh::polygon_center(cut, p).x - 3.5F) < 0.1F)
        cut.poly_area[mesh::index(p)] = 2;
    }
    plan::QueryOptions options = exact_search();
    options.area_costs[2] = std::numeric_limits<float>::infinity();
    const plan::Path blocked = path_on(cut, {0.5F, 0.0F, 0.5F}, {5.5F, 0.0F, 0.5F}, options);
    CHECK(blocked.status == plan::PathStatus::NoPath);
  }

  TEST_CASE("an excluded area is a wall: the path turns at its corners, at the reference length") {
    // 7 x 5 cells; the block of columns 2-4, rows 1-3 excluded by area: around it, as if cut out
    auto nav = test::grid_navmesh(7, 5, 1.0F, [](int, int) { return true; });
    auto cut = test::grid_navmesh(
        7, 5, 1.0F, [](int i, int j) { return !(i >= 2 && i <= 4 && j >= 1 && j <= 3); });
    for (const mesh::PolyId p : nav.polygon_ids()) {
      const Vec3 c = mesh::polygon_center(nav, p);
      if (c.x > 2.0F && c.x < 5.0F && c.z > 1.0F && c.z < 4.0F) nav.poly_area[mesh::index(p)] = 2;
    }
    plan::QueryOptions options = exact_search();
    options.area_costs[2] = std::numeric_limits<float>::infinity();
    const plan::Path path = path_on(nav, {0.5F, 0.0F, 2.6F}, {6.5F, 0.0F, 2.4F}, options);
    REQUIRE(path.status == plan::PathStatus::Found);
    const plan::Path expected = path_on(cut, {0.5F, 0.0F, 2.6F}, {6.5F, 0.0F, 2.4F});
    REQUIRE(expected.status == plan::PathStatus::Found);
    const plan::ExactReference reference(cut);
    const auto exact =
        reference.shortest_path(xz(expected.points.front()), expected.corridor.front(),
                                xz(expected.points.back()), expected.corridor.back());
    REQUIRE(exact.has_value());
    CHECK(path.length == doctest::Approx(exact->length).epsilon(1e-6));
    CHECK(expected.length == doctest::Approx(exact->length).epsilon(1e-6));
  }

  TEST_CASE("random grids with holes and splits, plain and jittered: lengths equal brute force") {
    Tally tally;
    for (std::uint32_t seed = 1; seed <= 8; ++seed) {
      CAPTURE(seed);
      const auto grid = test::random_grid_navmesh(9, 9, 0.3F, seed);
      REQUIRE(mesh::validate(grid).ok());
      compare_pairs(grid, plan::random_points(grid, 60, seed), tally);
      const auto moved = jittered(grid, 0.2F, seed);
      REQUIRE(mesh::validate(moved).ok());
      compare_pairs(moved, plan::random_points(moved, 60, seed + 100), tally);
    }
    MESSAGE("random grids: " << tally.found << " found, " << tally.no_path
                             << " no path, worst relative difference " << tally.worst);
    CHECK(tally.found > 300);
  }

  TEST_CASE("a cone boundary through a corner keeps the turn there (terrain:6 thesis, cut out)") {
    // note: on this patch the cone of the root (125, 100) narrows so that its boundary passes
    // exactly through the corner (166.25, 70); rounding put that corner outside the cone, the
    // turn there was lost and the path came out 0.9 % longer (93.91 m against 93.00 m)
    auto terrain = io::builtin_scene("terrain:6");
    REQUIRE(terrain.ok());
    auto config = named_config("thesis");
    REQUIRE(config.ok());
    BuildContext ctx;
    const auto built = mesh::build_navmesh(*terrain, *config, ctx);
    REQUIRE(built.ok());
    const mesh::NavMesh nav = cut_out(built->navmesh, 112.0F, 190.0F, 40.0F, 108.0F);
    REQUIRE(mesh::validate(nav).ok());
    const Vec3 a{184.652F, 3.43F, 44.823F};
    const Vec3 b{118.536F, -0.07F, 103.822F};
    const plan::Path path = path_on(nav, a, b);
    REQUIRE(path.status == plan::PathStatus::Found);
    const plan::ExactReference reference(nav);
    const auto exact = reference.shortest_path(xz(path.points.front()), path.corridor.front(),
                                               xz(path.points.back()), path.corridor.back());
    REQUIRE(exact.has_value());
    CHECK(path.length == doctest::Approx(exact->length).epsilon(kRelative).scale(1.0));
    // and the whole patch: random pairs against the reference
    Tally tally;
    compare_pairs(nav, plan::random_points(nav, 160, 5), tally);
    MESSAGE("terrain:6 thesis patch: " << nav.polygon_count() << " polygons, " << tally.found
                                       << " found, worst relative difference " << tally.worst);
    CHECK(tally.found > 40);
  }

  TEST_CASE("the reference never passes between polygons through a lone shared vertex") {
    // two fans meet only at the vertex (0, 0): fan A covers directions 180-315 degrees, fan B
    // 0-135 (each 135 degrees, 270 together); no edge joins them, so there is no path from A to B
    const mesh::NavMesh nav = test::make_navmesh(
        {{0, 0, 0}, {-2, 0, 0}, {-2, 0, -2}, {2, 0, -2}, {2, 0, 0}, {2, 0, 2}, {-2, 0, 2}},
        {{0, 1, 2}, {0, 2, 3}, {0, 4, 5}, {0, 5, 6}});
    REQUIRE(mesh::validate(nav).ok());
    const plan::ExactReference reference(nav);
    CHECK(reference.reflex_vertex_count() == 0);  // neither fan is reflex on its own
    CHECK_FALSE(
        reference.shortest_path({-1.5F, -0.5F}, mesh::PolyId{0}, {0.5F, 1.5F}, mesh::PolyId{3}));
    CHECK(path_on(nav, {-1.5F, 0.0F, -0.5F}, {0.5F, 0.0F, 1.5F}).status ==
          plan::PathStatus::NoPath);
    plan::QueryOptions portals;
    portals.walk_search = plan::WalkSearch::Portals;
    CHECK(path_on(nav, {-1.5F, 0.0F, -0.5F}, {0.5F, 0.0F, 1.5F}, portals).status ==
          plan::PathStatus::NoPath);
    // within one fan the vertex is an ordinary point of the mesh
    const auto within =
        reference.shortest_path({-1.5F, -0.5F}, mesh::PolyId{0}, {1.0F, -1.5F}, mesh::PolyId{1});
    REQUIRE(within.has_value());
    CHECK(within->length == doctest::Approx(std::hypot(2.5, 1.0)));
    // a reflex fan at a pinch: fan A widened to 225 degrees by a third triangle (315-45), so
    // its corner at (0, 0) bends paths within A, and fan B (90-135) stays out of reach
    const mesh::NavMesh wide = test::make_navmesh(
        {{0, 0, 0}, {-2, 0, 0}, {-2, 0, -2}, {2, 0, -2}, {2, 0, 2}, {0, 0, 2}, {-2, 0, 2}},
        {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 5, 6}});
    REQUIRE(mesh::validate(wide).ok());
    const plan::ExactReference wide_reference(wide);
    CHECK(wide_reference.reflex_vertex_count() == 1);
    const auto bent = wide_reference.shortest_path({-1.5F, -0.5F}, mesh::PolyId{0}, {1.5F, 1.0F},
                                                   mesh::PolyId{2});
    REQUIRE(bent.has_value());
    CHECK(bent->length == doctest::Approx(std::hypot(1.5, 0.5) + std::hypot(1.5, 1.0)));
    CHECK_FALSE(wide_reference.shortest_path({-1.5F, -0.5F}, mesh::PolyId{0}, {-0.5F, 1.5F},
                                             mesh::PolyId{3}));
    const plan::Path exact_bent = path_on(wide, {-1.5F, 0.0F, -0.5F}, {1.5F, 0.0F, 1.0F});
    REQUIRE(exact_bent.status == plan::PathStatus::Found);
    CHECK(exact_bent.length == doctest::Approx(bent->length));
  }

  TEST_CASE("the real levels: lengths equal the exact reference in both configurations") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      for (const char* config : {"default", "thesis"}) {
        CAPTURE(std::string(file));
        CAPTURE(std::string(config));
        const auto nav = test::build_shared_navmesh(file, config);
        if (!nav) return;
        Tally tally;
        compare_pairs(*nav, plan::random_points(*nav, 240, 17), tally);
        MESSAGE(std::string(file) << " " << config << ": " << tally.found << " found, "
                                  << tally.no_path << " no path, worst relative difference "
                                  << tally.worst);
        CHECK(tally.found > 20);
      }
    }
  }

  TEST_CASE(
      "an arrival at a corner as cheap as an earlier one is still searched (nav_test thesis)") {
    // note: corners on one line (z = 5.95) reached two ways at equal cost; dropping the second
    // arrival lost the turn it needed and gave 39.62 m against the reference's 38.02 m (query
    // 853 of the benchmark's 1000 pairs on this level)
    const auto nav = test::build_shared_navmesh("nav_test.obj", "thesis");
    if (!nav) return;
    const auto points = plan::random_points(*nav, 2000, 12345);
    const plan::MeshPoint& a = points[2 * 853];
    const plan::MeshPoint& b = points[2 * 853 + 1];
    const plan::Path path = path_on(*nav, a.point, b.point);
    REQUIRE(path.status == plan::PathStatus::Found);
    const plan::ExactReference reference(*nav);
    const auto exact = reference.shortest_path(xz(path.points.front()), path.corridor.front(),
                                               xz(path.points.back()), path.corridor.back());
    REQUIRE(exact.has_value());
    CHECK(path.length == doctest::Approx(exact->length).epsilon(1e-6));
  }

  TEST_CASE("deterministic: repeated, reversed and batched queries agree") {
    const auto nav = jittered(test::random_grid_navmesh(10, 10, 0.25F, 5), 0.2F, 5);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const auto points = plan::random_points(nav, 120, 9);
    std::vector<plan::PathRequest> requests;
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      requests.push_back({points[i].point, points[i + 1].point});
      plan::Path first;
      plan::Path again;
      plan::Path back;
      REQUIRE(query.find_path(points[i].point, points[i + 1].point, exact_search(), first).ok());
      REQUIRE(query.find_path(points[i].point, points[i + 1].point, exact_search(), again).ok());
      REQUIRE(query.find_path(points[i + 1].point, points[i].point, exact_search(), back).ok());
      CHECK(first.points == again.points);
      CHECK(first.corridor == again.corridor);
      CHECK(back.status == first.status);
      CHECK(back.length == doctest::Approx(first.length).epsilon(1e-6));
    }
    const auto one = plan::find_paths(*planner, requests, exact_search(), 1);
    const auto two = plan::find_paths(*planner, requests, exact_search(), 2);
    for (std::size_t i = 0; i < one.size(); ++i) {
      REQUIRE(one[i].ok());
      REQUIRE(two[i].ok());
      CHECK(one[i]->points == two[i]->points);
    }
  }

  TEST_CASE("a node limit gives a Partial path from the start toward the goal") {
    const auto nav = test::random_grid_navmesh(12, 12, 0.2F, 4);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const auto points = plan::random_points(nav, 200, 21);
    int partial = 0;
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      plan::QueryOptions options = exact_search();
      options.max_nodes = 3;
      plan::Path path;
      REQUIRE(query.find_path(points[i].point, points[i + 1].point, options, path).ok());
      CHECK(path.nodes_expanded <= 3);
      if (path.status != plan::PathStatus::Partial) continue;
      ++partial;
      CHECK(path.corridor.front() == points[i].poly);
      CHECK(path.points.front() == points[i].point);
      CHECK(test::path_inside_corridor(nav, path, 1e-4F));
      CHECK(distance(xz(path.points.back()), xz(points[i + 1].point)) <=
            distance(xz(points[i].point), xz(points[i + 1].point)) + 1e-4F);
    }
    CHECK(partial > 10);
  }

  TEST_CASE("unequal costs fall back to the portal A*: the same path as WalkSearch::Portals") {
    auto nav = test::random_grid_navmesh(10, 10, 0.2F, 8);
    for (const mesh::PolyId p : nav.polygon_ids()) {
      if (mesh::index(p) % 5 == 0) nav.poly_area[mesh::index(p)] = 3;
      if (mesh::index(p) % 7 == 0) nav.poly_flags[mesh::index(p)] = mesh::kPolyFlagCrouch;
    }
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions area = exact_search();
    area.area_costs[3] = 2.5F;
    plan::QueryOptions crouch = exact_search();
    crouch.crouch_cost = 1.5F;
    plan::QueryOptions uniform = exact_search();
    uniform.area_costs.fill(2.0F);
    const auto points = plan::random_points(nav, 100, 2);
    int exact_shorter = 0;
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      const Vec3 a = points[i].point;
      const Vec3 b = points[i + 1].point;
      for (plan::QueryOptions options : {area, crouch}) {
        plan::Path fallback;
        plan::Path portals;
        REQUIRE(query.find_path(a, b, options, fallback).ok());
        options.walk_search = plan::WalkSearch::Portals;
        REQUIRE(query.find_path(a, b, options, portals).ok());
        CHECK(fallback.points == portals.points);
        CHECK(fallback.search_cost == portals.search_cost);
      }
      // equal costs everywhere: exact, its search cost the length times the cost
      plan::Path exact;
      REQUIRE(query.find_path(a, b, uniform, exact).ok());
      if (exact.status != plan::PathStatus::Found) continue;
      CHECK(exact.search_cost == doctest::Approx(2.0 * exact.length).epsilon(kRelative));
      plan::Path portals;
      plan::QueryOptions options = uniform;
      options.walk_search = plan::WalkSearch::Portals;
      REQUIRE(query.find_path(a, b, options, portals).ok());
      CHECK(exact.length <= portals.length + 1e-5);
      if (exact.length < portals.length - 1e-4) ++exact_shorter;
    }
    CHECK(exact_shorter > 0);
  }

  TEST_CASE("the dominance test: closed form where the largest gap is inside the interval") {
    using plan::detail::cheaper_through;
    using plan::detail::DPoint;
    // edge (-1, 0) -> (1, 0), node k's root (0, -2), the new root (0, -1): |r_k p| - |r p| is
    // sqrt(5) - sqrt(2) = 0.822 at both ends and 1 at p = (0, 0), where the roots are collinear
    const DPoint a{-1.0, 0.0};
    const DPoint b{1.0, 0.0};
    const DPoint root_k{0.0, -2.0};
    const DPoint root{0.0, -1.0};
    CHECK_FALSE(cheaper_through(root_k, 0.0, root, 0.9, a, b, 0.0, 1.0, 1e-9));  // ends only: yes
    CHECK(cheaper_through(root_k, 0.0, root, 1.1, a, b, 0.0, 1.0, 1e-9));
    // on half the edge the largest gap is at the end t = 0.5 (1), so 0.9 fails there too, and
    // on [0.75, 1] it is at t = 0.75 (sqrt(4.25) - sqrt(1.25) = 0.943)
    CHECK_FALSE(cheaper_through(root_k, 0.0, root, 0.9, a, b, 0.0, 0.5, 1e-9));
    CHECK(cheaper_through(root_k, 0.0, root, 0.95, a, b, 0.75, 1.0, 1e-9));
    CHECK_FALSE(cheaper_through(root_k, 0.0, root, 0.94, a, b, 0.75, 1.0, 1e-9));
    // swapped roots: the collinear point is the smallest gap, the ends decide
    CHECK(cheaper_through(root, 0.0, root_k, -0.8, a, b, 0.0, 1.0, 1e-9));
    CHECK_FALSE(cheaper_through(root, 0.0, root_k, -0.83, a, b, 0.0, 1.0, 1e-9));
    // a root on the edge's line, or the roots on opposite sides: never dominated
    CHECK_FALSE(cheaper_through(root_k, 0.0, {3.0, 0.0}, 100.0, a, b, 0.0, 1.0, 1e-9));
    CHECK_FALSE(cheaper_through(root_k, 0.0, {0.0, 1.0}, 100.0, a, b, 0.0, 1.0, 1e-9));
  }

  TEST_CASE("the dominance test agrees with a brute force over the interval's points") {
    using plan::detail::cheaper_through;
    using plan::detail::DPoint;
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> coordinate(-10.0, 10.0);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int dominated = 0;
    int not_dominated = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      CAPTURE(trial);
      const DPoint a{coordinate(rng), coordinate(rng)};
      const DPoint b{coordinate(rng), coordinate(rng)};
      const DPoint root_k{coordinate(rng), coordinate(rng)};
      const DPoint root{coordinate(rng), coordinate(rng)};
      const auto side = [&](DPoint r) {
        return (b.x - a.x) * (r.z - a.z) - (b.z - a.z) * (r.x - a.x);
      };
      if (side(root_k) * side(root) <= 0.0) continue;  // one side only (tested above)
      double lo = unit(rng);
      double hi = unit(rng);
      if (lo > hi) std::swap(lo, hi);
      const auto gap = [&](double t) {  // |root_k p| - |root p|
        const double x = a.x + (b.x - a.x) * t;
        const double z = a.z + (b.z - a.z) * t;
        return std::hypot(x - root_k.x, z - root_k.z) - std::hypot(x - root.x, z - root.z);
      };
      constexpr int kSamples = 4000;
      double largest = -std::numeric_limits<double>::infinity();
      for (int i = 0; i <= kSamples; ++i) {
        largest = std::max(largest, gap(lo + (hi - lo) * i / kSamples));
      }
      // g - g_k just above or below the sampled largest gap, or well away from it
      const double offset = (unit(rng) - 0.5) * (trial % 2 == 0 ? 0.02 : 4.0);
      const double g = 5.0 + largest + offset;
      const bool claimed = cheaper_through(root_k, 5.0, root, g, a, b, lo, hi, 1e-9);
      // a dominance claim holds at every sampled point; beyond the samples' resolution (the
      // gap is smooth: its largest value exceeds the sampled one by far less than 1e-3) a gap
      // clear of the limit is decided
      if (claimed) {
        CHECK(largest < g - 5.0);
        ++dominated;
      } else {
        CHECK(largest > g - 5.0 - 1e-3);
        ++not_dominated;
      }
    }
    MESSAGE("dominance brute force: " << dominated << " dominated, " << not_dominated << " not");
    CHECK(dominated > 500);
    CHECK(not_dominated > 500);
  }

  TEST_CASE("long searches with dominated intervals dropped: lengths equal the reference") {
    // note: 40 x 40 grids of 1 m cells with holes: searches of hundreds of expansions, where
    // earlier nodes' intervals dominate later ones (dropped from the 16th expansion on)
    Tally tally;
    for (std::uint32_t seed = 1; seed <= 2; ++seed) {
      CAPTURE(seed);
      const auto grid = jittered(test::random_grid_navmesh(40, 40, 0.2F, seed), 0.2F, seed);
      REQUIRE(mesh::validate(grid).ok());
      compare_pairs(grid, plan::random_points(grid, 120, seed + 50), tally);
    }
    MESSAGE("40 x 40 grids: " << tally.found << " found, worst relative difference "
                              << tally.worst);
    CHECK(tally.found > 80);
  }
}
