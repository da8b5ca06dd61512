#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "leapnav/jumplinks/zhao_saalfeld.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

double point_segment(Vec2 p, Vec2 a, Vec2 b) {
  const double ex = b.x - a.x;
  const double ez = b.y - a.y;
  const double len2 = ex * ex + ez * ez;
  double t = 0.0;
  if (len2 > 0.0) t = std::clamp(((p.x - a.x) * ex + (p.y - a.y) * ez) / len2, 0.0, 1.0);
  return std::hypot(a.x + ex * t - p.x, a.y + ez * t - p.y);
}

// Largest distance of an input point from the output segment spanning it.
double worst_error(const std::vector<Vec2>& points, const std::vector<std::uint32_t>& kept) {
  double worst = 0.0;
  for (std::size_t s = 0; s + 1 < kept.size(); ++s)
    for (std::uint32_t k = kept[s]; k <= kept[s + 1]; ++k)
      worst = std::max(worst, point_segment(points[k], points[kept[s]], points[kept[s + 1]]));
  return worst;
}

}  // namespace

TEST_SUITE("jumplinks.zhao_saalfeld") {
  TEST_CASE("collinear points collapse to their two ends") {
    std::vector<Vec2> points;
    for (int k = 0; k < 10; ++k) points.push_back({static_cast<float>(k), 2.0F});
    const auto kept = zhao_saalfeld(points, 0.1F);
    REQUIRE(kept.size() == 2);
    CHECK(kept[0] == 0);
    CHECK(kept[1] == 9);
  }

  TEST_CASE("a right angle keeps its corner") {
    const std::vector<Vec2> points{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {3, 2}, {3, 3}};
    const auto kept = zhao_saalfeld(points, 0.25F);
    CHECK(kept == std::vector<std::uint32_t>{0, 3, 6});
  }

  TEST_CASE("one and two points are kept as they are") {
    CHECK(zhao_saalfeld(std::vector<Vec2>{{1, 1}}, 0.5F) == std::vector<std::uint32_t>{0});
    CHECK(zhao_saalfeld(std::vector<Vec2>{{1, 1}, {2, 2}}, 0.5F) ==
          std::vector<std::uint32_t>{0, 1});
    CHECK(zhao_saalfeld(std::vector<Vec2>{}, 0.5F).empty());
  }

  TEST_CASE("a point that turns back is not swallowed by the ray") {
    // within epsilon of the ray from the anchor through the last point, but beyond it
    const std::vector<Vec2> points{{0, 0}, {4, 0}, {2, 0.05F}};
    const auto kept = zhao_saalfeld(points, 0.25F);
    CHECK(kept.size() == 3);
    CHECK(worst_error(points, kept) <= 0.25 + 1e-6);
  }

  TEST_CASE("every input point stays within epsilon of the output on random walks and arcs") {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0F, 1.0F);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<Vec2> points;
      const int n = 2 + trial * 3;
      if (trial % 2 == 0) {
        Vec2 p{0, 0};
        for (int k = 0; k < n; ++k) {
          p = p + Vec2{0.3F + 0.3F * u(rng), 0.4F * u(rng)};
          points.push_back(p);
        }
      } else {
        const float radius = 2.0F + 4.0F * (u(rng) + 1.0F);
        for (int k = 0; k < n; ++k) {
          const double a = 2.0 * std::numbers::pi * k / (n + 3);
          points.push_back(
              {static_cast<float>(radius * std::cos(a)), static_cast<float>(radius * std::sin(a))});
        }
      }
      const float eps = 0.05F + 0.3F * (u(rng) + 1.0F);
      const auto kept = zhao_saalfeld(points, eps);
      REQUIRE(kept.front() == 0);
      REQUIRE(kept.back() == points.size() - 1);
      for (std::size_t k = 1; k < kept.size(); ++k) REQUIRE(kept[k - 1] < kept[k]);
      CHECK(worst_error(points, kept) <= eps * (1.0 + 1e-5) + 1e-6);
    }
  }

  TEST_CASE("the work grows linearly with the chain length") {
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(-1.0F, 1.0F);
    for (const int n : {10, 100, 1000, 100000}) {
      std::vector<Vec2> points;
      Vec2 p{0, 0};
      for (int k = 0; k < n; ++k) {
        p = p + Vec2{0.25F, 0.25F * u(rng)};
        points.push_back(p);
      }
      std::uint64_t ops = 0;
      const auto kept = zhao_saalfeld(points, 0.25F, &ops);
      CHECK(ops <= static_cast<std::uint64_t>(n) + 1);
      CHECK(kept.size() >= 2);
    }
  }
}
