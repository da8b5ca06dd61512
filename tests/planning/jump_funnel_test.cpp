// The modified funnel (thesis §6.2.1): one hand-computed example per case with its exact corners,
// and Theorem 6.1 as a property against a brute force over the land segment.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "leapnav/planning/jump_funnel.hpp"

using namespace leapnav;
using plan::Corner;
using plan::JumpFunnelCase;
using plan::Portal;

namespace {

void check_corners(const std::vector<Corner>& corners, const std::vector<Vec2>& expected) {
  REQUIRE(corners.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(corners[i].point.x - expected[i].x) <= 1e-5F);
    CHECK(std::fabs(corners[i].point.y - expected[i].y) <= 1e-5F);
  }
}

double via_total(Vec2 s, Vec2 v, Vec2 t) {
  const double a = std::hypot(static_cast<double>(v.x) - s.x, static_cast<double>(v.y) - s.y);
  const double b = std::hypot(static_cast<double>(t.x) - v.x, static_cast<double>(t.y) - v.y);
  return a + b;
}

}  // namespace

TEST_SUITE("planning.jump_funnel") {
  // Cases 1: start j = (0, 0), land segment x = 2, z in [-1, 1]; the corridor after the jump is
  // one polygon, so there are no portals.
  const Vec2 j{0.0F, 0.0F};
  const Vec2 la{2.0F, -1.0F};
  const Vec2 lb{2.0F, 1.0F};

  TEST_CASE("case 1a: a target on the land segment is the landing") {
    std::vector<Corner> corners;
    const Vec2 t{2.0F, 0.5F};
    CHECK(plan::jump_funnel(j, la, lb, {}, t, corners) == JumpFunnelCase::Case1a);
    check_corners(corners, {j, t, t});
  }
  TEST_CASE("case 1b: beyond the segment, the landing is the cut of start -> target") {
    std::vector<Corner> corners;
    CHECK(plan::jump_funnel(j, la, lb, {}, {4.0F, 1.0F}, corners) == JumpFunnelCase::Case1b);
    check_corners(corners, {j, {2.0F, 0.5F}, {4.0F, 1.0F}});
    // outside the funnel on the left: the funnel restarts at the land segment's end
    CHECK(plan::jump_funnel(j, la, lb, {}, {4.0F, 5.0F}, corners) == JumpFunnelCase::Case1b);
    check_corners(corners, {j, {2.0F, 1.0F}, {4.0F, 5.0F}});
  }
  TEST_CASE("case 1c: on the start's side, the apex is mirrored and the cut taken from it") {
    std::vector<Corner> corners;
    // mirrored apex (4, 0); (4, 0) -> (1, 1) cuts x = 2 at z = 2/3
    CHECK(plan::jump_funnel(j, la, lb, {}, {1.0F, 1.0F}, corners) == JumpFunnelCase::Case1c);
    check_corners(corners, {j, {2.0F, 2.0F / 3.0F}, {1.0F, 1.0F}});
    // (4, 0) -> (1, 3) cuts x = 2 at z = 2, beyond the end (2, 1): restart there
    CHECK(plan::jump_funnel(j, la, lb, {}, {1.0F, 3.0F}, corners) == JumpFunnelCase::Case1c);
    check_corners(corners, {j, {2.0F, 1.0F}, {1.0F, 3.0F}});
  }
  TEST_CASE("case 2a: a first portal beyond the line keeps the apex at the start") {
    // walking +x through x = 4 (left end +z); the right end tightens, the target (5, 4.5) lies
    // left of the funnel, so (4, 1.5) is a corner and the landing is the cut of j -> (4, 1.5)
    const std::vector<Portal> portals{{{4.0F, 1.5F}, {4.0F, -0.5F}}};
    std::vector<Corner> corners;
    CHECK(plan::jump_funnel(j, la, lb, portals, {5.0F, 4.5F}, corners) == JumpFunnelCase::Case2a);
    check_corners(corners, {j, {2.0F, 0.75F}, {4.0F, 1.5F}, {5.0F, 4.5F}});
    CHECK(corners[2].corridor_index == 0);
    CHECK(corners[3].corridor_index == 1);
  }
  TEST_CASE("case 2b: a first portal on the start's side mirrors the apex") {
    // walking +z through z = 2, x in [-2, -0.5] (left end -x); mirrored apex (4, 0); the target
    // (1, 4) lies right of the funnel, so (-0.5, 2) is a corner; (4, 0) -> (-0.5, 2) cuts x = 2
    // at z = 8/9
    const std::vector<Portal> portals{{{-2.0F, 2.0F}, {-0.5F, 2.0F}}};
    std::vector<Corner> corners;
    CHECK(plan::jump_funnel(j, la, lb, portals, {1.0F, 4.0F}, corners) == JumpFunnelCase::Case2b);
    check_corners(corners, {j, {2.0F, 8.0F / 9.0F}, {-0.5F, 2.0F}, {1.0F, 4.0F}});
  }
  TEST_CASE("case 2c: a straddling portal keeps both funnels until the mirrored one collapses") {
    // land segment z = 2, x in [-1, 1]; mirrored apex (0, 4). Portal 1 (walking +x, x = 1.2)
    // straddles z = 2: its left end (1.2, 3.2) tightens the direct funnel, its right end
    // (1.2, 1.4) the mirrored one. Portal 2 (walking +z, z = 5) collapses the mirrored funnel and
    // tightens the direct one. The target (0, 6) lies left of it: corners (1.2, 3.2) with the
    // landing on j -> (1.2, 3.2) at (0.75, 2), then (1.5, 5).
    const Vec2 a{-1.0F, 2.0F};
    const Vec2 b{1.0F, 2.0F};
    const std::vector<Portal> portals{{{1.2F, 3.2F}, {1.2F, 1.4F}}, {{1.5F, 5.0F}, {2.2F, 5.0F}}};
    std::vector<Corner> corners;
    CHECK(plan::jump_funnel(j, a, b, portals, {0.0F, 6.0F}, corners) == JumpFunnelCase::Case2c);
    check_corners(corners, {j, {0.75F, 2.0F}, {1.2F, 3.2F}, {1.5F, 5.0F}, {0.0F, 6.0F}});
    // a target on the start's side beyond portal 2 is reached through the mirrored funnel when
    // the direct one collapses first: both must still give a vertex on the land segment
    CHECK(plan::jump_funnel(j, a, b, portals, {2.0F, 6.0F}, corners) == JumpFunnelCase::Case2c);
    REQUIRE(corners.size() >= 3);
    CHECK(std::fabs(corners[1].point.y - 2.0F) <= 1e-5F);
    CHECK(corners[1].point.x >= -1.0F - 1e-5F);
    CHECK(corners[1].point.x <= 1.0F + 1e-5F);
  }

  TEST_CASE("theorem 6.1: the case 1 landing is the shortest vertex on the segment") {
    // Tolerance: |computed - brute| <= 1e-6 * max(1, brute) (relative for lengths above 1 m);
    // the brute force takes 10,001 evenly spaced points of the segment (ends included).
    std::mt19937 rng(61);
    std::uniform_real_distribution<float> u(-5.0F, 5.0F);
    int cases[3] = {0, 0, 0};
    for (int trial = 0; trial < 300; ++trial) {
      const Vec2 s{u(rng), u(rng)};
      const Vec2 a{u(rng), u(rng)};
      const Vec2 b{u(rng), u(rng)};
      const Vec2 t{u(rng), u(rng)};
      if (distance(a, b) < 1e-3F) continue;
      std::vector<Corner> corners;
      const JumpFunnelCase c = plan::jump_funnel(s, a, b, {}, t, corners);
      REQUIRE(corners.size() == 3);
      ++cases[static_cast<int>(c) <= 2 ? static_cast<int>(c) : 0];
      const Vec2 v = corners[1].point;
      const double computed = via_total(s, v, t);
      double brute = 1e300;
      for (int k = 0; k <= 10000; ++k) {
        const double f = k / 10000.0;
        const Vec2 w{static_cast<float>(a.x + f * (static_cast<double>(b.x) - a.x)),
                     static_cast<float>(a.y + f * (static_cast<double>(b.y) - a.y))};
        brute = std::min(brute, via_total(s, w, t));
      }
      CAPTURE(trial);
      const double tol = 1e-6 * std::max(1.0, brute);
      CHECK(computed <= brute + tol);
      CHECK(std::fabs(computed - brute) <= tol);
      CHECK(plan::shortest_via_segment(s, a, b, t) == v);
    }
    CHECK(cases[1] > 50);  // 1b
    CHECK(cases[2] > 50);  // 1c
  }
}
