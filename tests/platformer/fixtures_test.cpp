// The spec's fixtures P1-P6 (seeds-002-004.md §B.3) with their exact answers: nav points and types,
// platforms, run, fall and jump links with each jump's height, speed cap and direction.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "fixtures.hpp"
#include "leapnav/platformer/trajectory.hpp"

using namespace leapnav;
using namespace leapnav::platformer;
using namespace leapnav::platformer::test;

namespace {

struct ExpectedJump {
  Tile from, to;
  double h, speed;
  int direction;
};

// The jump links of `graph` equal `expected` (as sets; heights and speeds to 1e-12).
void check_jumps(const NavGraph& graph, const std::vector<ExpectedJump>& expected) {
  const std::vector<LinkView> jumps = links_of(graph, LinkKind::Jump);
  INFO("jump links:\n" << describe(jumps));
  REQUIRE(jumps.size() == expected.size());
  for (const ExpectedJump& e : expected) {
    const bool found = std::any_of(jumps.begin(), jumps.end(), [&](const LinkView& j) {
      return j.from == e.from && j.to == e.to && std::abs(j.h - e.h) < 1e-12 &&
             std::abs(j.speed - e.speed) < 1e-12 && j.direction == e.direction;
    });
    CHECK_MESSAGE(found, "missing jump (" << e.from.c << "," << e.from.r << ")->(" << e.to.c << ","
                                          << e.to.r << ")");
  }
}

std::vector<std::pair<Tile, Tile>> pairs_of(const NavGraph& graph, LinkKind kind) {
  std::vector<std::pair<Tile, Tile>> out;
  for (const LinkView& l : links_of(graph, kind)) out.emplace_back(l.from, l.to);
  return out;
}

}  // namespace

TEST_SUITE("platformer.fixtures") {
  TEST_CASE("P1 flat room: one platform of four nav points, six run links and no jump") {
    const TileMap map = fixture_map(kP1);
    const NavGraph graph = build_checked(map);
    REQUIRE(graph.points.size() == 4);
    const std::vector<NavPoint> expected{{{1, 1}, PlatformId{0}, NavPointType::LeftEdge},
                                         {{2, 1}, PlatformId{0}, NavPointType::Platform},
                                         {{3, 1}, PlatformId{0}, NavPointType::Platform},
                                         {{4, 1}, PlatformId{0}, NavPointType::RightEdge}};
    CHECK(graph.points == expected);
    const GraphCounts counts = count(graph);
    CHECK(counts.platforms == 1);
    CHECK(counts.run == 6);
    CHECK(counts.fall == 0);
    CHECK(counts.jump == 0);
  }

  TEST_CASE("P2 pillar: three solo platforms, two falls off the pillar and two jumps onto it") {
    const TileMap map = fixture_map(kP2);
    const NavGraph graph = build_checked(map);
    const std::vector<NavPoint> expected{{{1, 1}, PlatformId{0}, NavPointType::Solo},
                                         {{3, 1}, PlatformId{1}, NavPointType::Solo},
                                         {{2, 2}, PlatformId{2}, NavPointType::Solo}};
    CHECK(graph.points == expected);
    CHECK(count(graph).run == 0);
    const auto falls = pairs_of(graph, LinkKind::Fall);
    REQUIRE(falls.size() == 2);
    CHECK(falls[0] == std::pair{Tile{2, 2}, Tile{1, 1}});
    CHECK(falls[1] == std::pair{Tile{2, 2}, Tile{3, 1}});
    check_jumps(graph, {{{1, 1}, {2, 2}, 1.1, 2.1, 1}, {{3, 1}, {2, 2}, 1.1, 2.1, -1}});
  }

  TEST_CASE("P3 step of two tiles: six runs, one fall and five jumps, the lowest then slowest") {
    const TileMap map = fixture_map(kP3);
    const NavGraph graph = build_checked(map);
    REQUIRE(graph.platform_count == 2);
    CHECK(graph.points.size() == 5);
    CHECK(graph.point(graph.point_of({1, 1})).platform == PlatformId{0});
    CHECK(graph.point(graph.point_of({3, 1})).platform == PlatformId{0});
    CHECK(graph.point(graph.point_of({4, 3})).platform == PlatformId{1});
    CHECK(graph.point(graph.point_of({5, 3})).platform == PlatformId{1});
    CHECK(count(graph).run == 6);
    const auto falls = pairs_of(graph, LinkKind::Fall);
    REQUIRE(falls.size() == 1);
    CHECK(falls[0] == std::pair{Tile{4, 3}, Tile{3, 1}});
    check_jumps(graph, {{{1, 1}, {4, 3}, 2.2, 6.3, 1},
                        {{2, 1}, {4, 3}, 2.2, 4.2, 1},
                        {{3, 1}, {5, 3}, 3.3, 2.1, 1},
                        {{4, 3}, {2, 1}, 1.1, 2.1, -1},
                        {{5, 3}, {2, 1}, 1.1, 4.2, -1}});
  }

  TEST_CASE("P4 step of four tiles, above h_max: only the two downward jumps") {
    const TileMap map = fixture_map(kP4);
    const NavGraph graph = build_checked(map);
    CHECK(graph.platform_count == 2);
    check_jumps(graph, {{{4, 5}, {2, 1}, 1.1, 2.1, -1}, {{5, 5}, {1, 1}, 1.1, 4.2, -1}});
  }

  TEST_CASE("P5 ceiling at row 4: the 3.3-tile jump and both downward jumps disappear") {
    const TileMap map = fixture_map(kP5);
    const NavGraph graph = build_checked(map);
    CHECK(graph.platform_count == 2);
    check_jumps(graph, {{{1, 1}, {4, 3}, 2.2, 6.3, 1}, {{2, 1}, {4, 3}, 2.2, 4.2, 1}});
  }

  TEST_CASE("P6 pit: the pit floor on row 0 is walkable; 14 runs, 2 falls into the pit, 16 jumps") {
    const TileMap map = fixture_map(kP6);
    const NavGraph graph = build_checked(map);
    const GraphCounts counts = count(graph);
    CHECK(counts.platforms == 3);
    CHECK(graph.point(graph.point_of({4, 0})).platform == PlatformId{0});
    CHECK(graph.point(graph.point_of({1, 1})).platform == PlatformId{1});
    CHECK(graph.point(graph.point_of({8, 1})).platform == PlatformId{2});
    CHECK(counts.run == 14);
    const auto falls = pairs_of(graph, LinkKind::Fall);
    REQUIRE(falls.size() == 2);
    CHECK(falls[0] == std::pair{Tile{3, 1}, Tile{4, 0}});
    CHECK(falls[1] == std::pair{Tile{8, 1}, Tile{7, 0}});
    CHECK(counts.jump == 16);
  }

  TEST_CASE("the fixtures' samples are never within 1.1e-3 of a tile boundary, as the spec says") {
    const PlatformerParams params;
    CHECK(sample_count(params) == 48);
    double nearest = 1.0;
    for (const JumpTrajectory& t : jump_trajectories({0, 0}, params)) {
      REQUIRE(t.samples.size() == 48);
      for (const TrajectorySample& s : t.samples) {
        for (const double v : {s.x, s.y}) {
          nearest = std::min(nearest, std::abs(v - std::round(v)));
        }
      }
    }
    CHECK(nearest >= 1.1e-3);
  }
}
