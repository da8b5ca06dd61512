// A* on platformer graphs: exact paths on the fixtures, the statuses, and why the heuristic is
// the smallest cost per column rather than the spec's |Δx| / v_max.
#include <doctest/doctest.h>

#include <cmath>

#include "fixtures.hpp"
#include "leapnav/platformer/planner.hpp"
#include "leapnav/platformer/svg.hpp"

using namespace leapnav;
using namespace leapnav::platformer;
using namespace leapnav::platformer::test;

TEST_SUITE("platformer.planner") {
  TEST_CASE("across the P6 pit the cheapest path runs to the edge and takes the 2.2-high jump") {
    const NavGraph graph = build_checked(fixture_map(kP6));
    auto path = find_path(graph, {1, 1}, {10, 1});
    REQUIRE(path.ok());
    REQUIRE(path->status == PathStatus::Found);
    REQUIRE(path->steps.size() == 5);
    const PathStep& jump = path->steps[2];
    CHECK(jump.kind == LinkKind::Jump);
    CHECK(jump.from == Tile{3, 1});
    CHECK(jump.to == Tile{8, 1});
    // flight time of the 2.2-high jump from row 1 back to row 1: 2·sqrt(2·g·h)/g
    const double flight = 2.0 * std::sqrt(2.0 * 19.3 * 2.2) / 19.3;
    CHECK(jump.cost == doctest::Approx(flight).epsilon(1e-12));
    CHECK(path->cost == doctest::Approx(4.0 / 6.3 + flight).epsilon(1e-12));
  }

  TEST_CASE("into the pit the path falls: sqrt(2 drop / g)") {
    const NavGraph graph = build_checked(fixture_map(kP6));
    auto path = find_path(graph, {3, 1}, {4, 0});
    REQUIRE(path.ok());
    REQUIRE(path->steps.size() == 1);
    CHECK(path->steps[0].kind == LinkKind::Fall);
    CHECK(path->cost == doctest::Approx(std::sqrt(2.0 / 19.3)).epsilon(1e-12));
  }

  TEST_CASE("statuses: same tile, unreachable goal, start or goal not walkable, outside the map") {
    const NavGraph graph = build_checked(fixture_map(kP4));
    auto same = find_path(graph, {1, 1}, {1, 1});
    REQUIRE(same.ok());
    CHECK(same->status == PathStatus::Found);
    CHECK(same->steps.empty());
    auto up = find_path(graph, {1, 1}, {5, 5});  // the step is above h_max: no way up
    REQUIRE(up.ok());
    CHECK(up->status == PathStatus::NoPath);
    CHECK(to_string(up->status) == "no_path");
    CHECK(find_path(graph, {1, 2}, {1, 1})->status == PathStatus::StartNotOnMesh);
    CHECK(find_path(graph, {1, 1}, {0, 0})->status == PathStatus::GoalNotOnMesh);
    auto outside = find_path(graph, {7, 1}, {1, 1});
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().code == ErrorCode::InvalidArgument);
    CHECK(outside.error().message == "find_path: start tile (7, 1) is outside the 7 x 8 map");
  }

  TEST_CASE("|dx| / v_max is not admissible: a fall and a low jump cross a column faster") {
    // strong gravity, fast take-off: from the ledge (0,2) a 1-tile fall takes sqrt(2/1000) s and
    // a 0.3-tile-high jump lands on (1,1) after 0.075 s, both under 1 / v_max = 0.1 s per column
    const TileMap map = fixture_map("platformer 6 4\n......\n......\n#.#...\n######\n");
    PlatformerParams params;
    params.g = 1000;
    params.h_max = 0.3;
    params.v_max = 10;
    params.v_b = 10;
    params.dt = 0.002;
    params.T = 1;
    params.s_div = 1;
    const NavGraph graph = build_checked(map, params);
    bool fast_jump = false;
    for (const NavLink& l : graph.links) {
      const int dc = std::abs(graph.point(l.to).tile.c - graph.point(l.from).tile.c);
      if (l.kind == LinkKind::Jump && dc == 1 && l.cost < 1.0 / params.v_max) fast_jump = true;
    }
    CHECK(fast_jump);
    auto path = find_path(graph, {0, 2}, {1, 1});
    REQUIRE(path.ok());
    REQUIRE(path->status == PathStatus::Found);
    CHECK(path->cost == doctest::Approx(std::sqrt(2.0 / 1000)).epsilon(1e-12));
    CHECK(1.0 / params.v_max > path->cost);  // the spec's estimate exceeds the true cost
    CHECK(heuristic_rate(graph) <= path->cost);
  }
}

TEST_SUITE("platformer.svg") {
  TEST_CASE("the picture has one dot per nav point and one line per run pair, fall and jump") {
    const TileMap map = fixture_map(kP6);
    const PlatformerParams params;
    const NavGraph graph = build_checked(map, params);
    auto path = find_path(graph, {1, 1}, {10, 1});
    REQUIRE(path.ok());
    SvgOptions options;
    options.path = &*path;
    const std::string svg = render_svg(map, graph, params, options);
    const auto occurrences = [&](const std::string& what) {
      std::size_t n = 0;
      for (std::size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1))
        ++n;
      return n;
    };
    CHECK(svg.rfind("<svg", 0) == 0);
    CHECK(svg.find("</svg>") != std::string::npos);
    CHECK(occurrences("<circle") == graph.points.size());
    const GraphCounts counts = count(graph);
    CHECK(occurrences("<polyline") == counts.run / 2 + counts.fall + counts.jump + 5);
    CHECK(occurrences("stroke=\"#d50000\"") == 5);
    // the picture is (W + 2) x (H + 2) tiles of 24 px
    CHECK(svg.find("width=\"336.00\" height=\"144.00\"") != std::string::npos);
  }
}

TEST_SUITE("platformer.build") {
  TEST_CASE("a cancelled context and a memory limit below the tile index are refused") {
    const TileMap map = fixture_map(kP6);
    BuildContext cancelled;
    cancelled.request_cancel();
    auto a = build_nav_graph(map, {}, cancelled);
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().code == ErrorCode::Cancelled);
    BuildContext tight;
    tight.set_memory_limit(100);  // 48 tiles need 192 bytes of index
    auto b = build_nav_graph(map, {}, tight);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().code == ErrorCode::MemoryLimit);
    CHECK(b.error().message.find("platformer: the nav-point index of 12 x 4 tiles") == 0);
  }

  TEST_CASE("invalid parameters and maps are refused before any work") {
    PlatformerParams params;
    params.h_div = 0;
    BuildContext ctx;
    auto a = build_nav_graph(fixture_map(kP1), params, ctx);
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().code == ErrorCode::InvalidArgument);
    CHECK(a.error().message == "params: 'h_div' = 0 is out of range (1..64)");
    TileMap broken = fixture_map(kP1);
    broken.solid.pop_back();
    auto b = build_nav_graph(broken, {}, ctx);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().code == ErrorCode::InvalidArgument);
  }
}
