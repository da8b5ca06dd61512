// One test per bug of Pignole's pseudo-code (spec §B.1 B3-B7), each on a map where the literal
// reading gives a different answer, showing that leapnav implements the stated intent instead.
#include <doctest/doctest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "leapnav/platformer/trajectory.hpp"
#include "oracle.hpp"

using namespace leapnav;
using namespace leapnav::platformer;
using namespace leapnav::platformer::test;

TEST_SUITE("platformer.pseudo_code_bugs") {
  TEST_CASE(
      "B3 bug 1: a free tile above a free tile is not walkable (the test needs a collision)") {
    // literally "IF target tile is free AND lower one is" would make (1,2) above the free (1,1)
    // a leftEdge; the intent is a free tile above a solid one
    const TileMap map = fixture_map(kP3);
    const NavGraph graph = build_checked(map);
    CHECK(graph.point_of({1, 2}) == kNoNavPoint);
    CHECK(graph.point_of({1, 4}) == kNoNavPoint);
    CHECK(graph.point_of({1, 1}) != kNoNavPoint);
    for (const NavPoint& p : graph.points) CHECK(map.is_solid(p.tile.c, p.tile.r - 1));
  }

  TEST_CASE("B3 bug 2: every tile of a platform shares one index and platforms count up by one") {
    // the pseudo-code gives the left edge actualPlatformIndex, then increments, so the rest of
    // the platform (and the next platform's left edge) get the next index: 0 1 1 | 1 2 2
    const TileMap map = fixture_map("platformer 9 3\n#########\n#...#...#\n#########\n");
    const NavGraph graph = build_checked(map);
    REQUIRE(graph.points.size() == 6);
    const std::vector<std::uint32_t> expected{0, 0, 0, 1, 1, 1};
    for (std::size_t i = 0; i < 6; ++i) {
      CHECK(static_cast<std::uint32_t>(graph.points[i].platform) == expected[i]);
    }
    CHECK(graph.platform_count == 2);
  }

  TEST_CASE("B3 bug 3: a platform continues while the next tile is walkable, ending in rightEdge") {
    // evaluating "lower right is a collision AND right is free AND type is not leftEdge" as a
    // property of the current tile; the intent: leftEdge, platform..., rightEdge along the run,
    // and solo for a run of one
    const TileMap map = fixture_map("platformer 8 3\n########\n#....#.#\n########\n");
    const NavGraph graph = build_checked(map);
    REQUIRE(graph.points.size() == 5);
    CHECK(graph.points[0].type == NavPointType::LeftEdge);
    CHECK(graph.points[1].type == NavPointType::Platform);
    CHECK(graph.points[2].type == NavPointType::Platform);
    CHECK(graph.points[3].type == NavPointType::RightEdge);
    CHECK(graph.points[4].type == NavPointType::Solo);
    CHECK(graph.points[4].tile == Tile{6, 1});
  }

  TEST_CASE("B4: run links go both ways, not only to the right neighbour") {
    const NavGraph graph = build_checked(fixture_map(kP1));
    const auto runs = links_of(graph, LinkKind::Run);
    REQUIRE(runs.size() == 6);
    int left = 0;
    int right = 0;
    for (const LinkView& l : runs) (l.to.c < l.from.c ? left : right) += 1;
    CHECK(left == 3);
    CHECK(right == 3);
  }

  TEST_CASE("B5: a fall stops at the first walkable tile below, never links through a floor") {
    // the ledge (1,6) is solo; its right side column holds shelves (2,3) and (2,1) with a floor
    // at row 2 between them. The pseudo-code (no BREAK) links the ledge to both shelves.
    const TileMap map =
        fixture_map("platformer 4 8\n#..#\n#..#\n##.#\n##.#\n##.#\n####\n##.#\n####\n");
    const NavGraph graph = build_checked(map);
    REQUIRE(graph.point_of({1, 6}) != kNoNavPoint);
    REQUIRE(graph.point_of({2, 3}) != kNoNavPoint);
    REQUIRE(graph.point_of({2, 1}) != kNoNavPoint);
    const auto falls = links_of(graph, LinkKind::Fall);
    INFO(describe(falls));
    REQUIRE(falls.size() == 1);
    CHECK(falls[0].from == Tile{1, 6});
    CHECK(falls[0].to == Tile{2, 3});
  }

  TEST_CASE(
      "B5: the fall scan reaches row 0, which the pseudo-code's 'WHILE targetRow > 0' skips") {
    const NavGraph graph = build_checked(fixture_map(kP6));
    const auto falls = links_of(graph, LinkKind::Fall);
    REQUIRE(falls.size() == 2);
    CHECK(falls[0].to.r == 0);
    CHECK(falls[1].to.r == 0);
  }

  TEST_CASE("B6: every nav point validates its own 2 x h_div x s_div trajectories, in order") {
    // the pseudo-code adds them to jumpTrajectories instead of navpointTrajectories
    PlatformerParams params;
    params.h_div = 2;
    params.s_div = 4;
    const std::vector<JumpTrajectory> trajectories = jump_trajectories({3, 1}, params);
    REQUIRE(trajectories.size() == 16);
    for (std::size_t n = 0; n < trajectories.size(); ++n) {
      const JumpShape& s = trajectories[n].shape;
      CHECK(trajectories[n].samples.size() == 48);
      CHECK(s.height == doctest::Approx(params.h_max * static_cast<double>(n / 8 + 1) / 2));
      CHECK(s.speed == doctest::Approx(params.v_max * static_cast<double>((n / 2) % 4 + 1) / 4));
      CHECK(s.direction == (n % 2 == 0 ? 1 : -1));
    }
  }

  TEST_CASE("B7: a trajectory ends at its landing; the printed loop walks on and adds two links") {
    // (1,1) and (3,1) are solos on pillars; row 0 holds three solos. The 1.1-high, 4.2-capped
    // jump from (1,1) lands on (3,1); the literal loop continues to (4,0), a platform no other
    // trajectory from (1,1) reaches. Symmetrically (3,1) -> (0,0).
    const TileMap map = fixture_map("platformer 5 4\n.....\n.....\n.....\n.#.#.\n");
    const PlatformerParams params;
    const Oracle oracle(map, params);
    const std::vector<OracleJump> literal = oracle.jumps(false);
    const std::vector<OracleJump> intended = oracle.jumps(true);
    const OracleJump extra1{1, 1, 4, 0, 1, 2, 1};
    const OracleJump extra2{3, 1, 0, 0, 1, 2, -1};
    CHECK(std::count(literal.begin(), literal.end(), extra1) == 1);
    CHECK(std::count(literal.begin(), literal.end(), extra2) == 1);
    CHECK(literal.size() == intended.size() + 2);
    const NavGraph graph = build_checked(map, params);
    const auto jumps = links_of(graph, LinkKind::Jump);
    INFO(describe(jumps));
    CHECK(jumps.size() == intended.size());
    for (const LinkView& j : jumps) {
      CHECK_FALSE((j.from == Tile{1, 1} && j.to == Tile{4, 0}));
      CHECK_FALSE((j.from == Tile{3, 1} && j.to == Tile{0, 0}));
    }
    // the link to (3,1) is that same trajectory, stopped at its landing
    const bool lands = std::any_of(jumps.begin(), jumps.end(), [](const LinkView& j) {
      return j.from == Tile{1, 1} && j.to == Tile{3, 1} && j.direction == 1 &&
             std::abs(j.h - 1.1) < 1e-12 && std::abs(j.speed - 4.2) < 1e-12;
    });
    CHECK(lands);
  }

  TEST_CASE("B7: at most one jump per (start, platform): the lowest, then the slowest") {
    // from (1,1) in P3 the 2.2-high jumps at caps 6.3 reach (4,3); lower jumps do not, and
    // of the 2.2-high ones the slower caps do not land on the step
    const NavGraph graph = build_checked(fixture_map(kP3));
    for (const LinkView& j : links_of(graph, LinkKind::Jump)) {
      if (j.from == Tile{1, 1}) {
        CHECK(j.h == doctest::Approx(2.2));
        CHECK(j.speed == doctest::Approx(6.3));
      }
    }
  }
}
