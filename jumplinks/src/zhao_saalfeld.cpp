// Zhao-Saalfeld sleeve fitting (thesis §5.5, Figure 25). From the anchor (the second-to-last kept
// vertex) each skipped vertex p allows directions within asin(eps / |p - anchor|) of its own
// direction; the sector is the intersection of these. A new vertex extends the current segment
// when its direction lies in the sector (and it is not closer to the anchor than a skipped vertex),
// otherwise the current end becomes the new anchor. Angles are kept relative to a reference
// direction of the sector, so no wrap-around arises (every constraint is at most pi/2 wide).
#include "leapnav/jumplinks/zhao_saalfeld.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "leapnav/core/assert.hpp"

namespace leapnav::jump {

namespace {

double wrap_angle(double a) {
  while (a > std::numbers::pi) a -= 2.0 * std::numbers::pi;
  while (a <= -std::numbers::pi) a += 2.0 * std::numbers::pi;
  return a;
}

struct Sleeve {
  Vec2 anchor;
  bool constrained = false;
  double reference = 0.0;  // absolute angle the bounds are relative to
  double low = 0.0;
  double high = 0.0;
  double farthest = 0.0;  // largest distance of a covered vertex from the anchor

  void reset(Vec2 a) {
    anchor = a;
    constrained = false;
    farthest = 0.0;
  }
  // Whether the segment anchor -> p keeps every covered vertex within epsilon.
  [[nodiscard]] bool admits(Vec2 p) const {
    const double dx = static_cast<double>(p.x) - anchor.x;
    const double dy = static_cast<double>(p.y) - anchor.y;
    const double dist = std::sqrt(dx * dx + dy * dy);
    if (dist + 1e-9 < farthest) return false;
    if (!constrained) return true;
    if (dist == 0.0) return false;
    const double rel = wrap_angle(std::atan2(dy, dx) - reference);
    return rel >= low && rel <= high;
  }
  // Narrows the sector to directions passing within epsilon of p.
  void cover(Vec2 p, double epsilon) {
    const double dx = static_cast<double>(p.x) - anchor.x;
    const double dy = static_cast<double>(p.y) - anchor.y;
    const double dist = std::sqrt(dx * dx + dy * dy);
    if (dist <= epsilon) return;
    farthest = std::max(farthest, dist);
    const double angle = std::atan2(dy, dx);
    const double half = std::asin(epsilon / dist);
    if (!constrained) {
      constrained = true;
      reference = angle;
      low = -half;
      high = half;
      return;
    }
    const double rel = wrap_angle(angle - reference);
    low = std::max(low, rel - half);
    high = std::min(high, rel + half);
  }
};

}  // namespace

std::vector<std::uint32_t> zhao_saalfeld(std::span<const Vec2> points, float epsilon,
                                         std::uint64_t* operations) {
  LEAPNAV_ASSERT(epsilon > 0.0F, "zhao_saalfeld needs epsilon > 0");
  std::vector<std::uint32_t> kept;
  std::uint64_t steps = 0;
  const auto n = static_cast<std::uint32_t>(points.size());
  if (n == 0) {
    if (operations != nullptr) *operations = 0;
    return kept;
  }
  kept.push_back(0);
  if (n == 1) {
    if (operations != nullptr) *operations = 1;
    return kept;
  }
  const double eps = epsilon;
  Sleeve sleeve;
  sleeve.reset(points[0]);
  kept.push_back(1);
  sleeve.cover(points[1], eps);
  for (std::uint32_t j = 2; j < n; ++j) {
    ++steps;
    if (sleeve.admits(points[j])) {
      kept.back() = j;
    } else {
      sleeve.reset(points[kept.back()]);
      kept.push_back(j);
    }
    sleeve.cover(points[j], eps);
  }
  if (operations != nullptr) *operations = steps + 2;
  return kept;
}

}  // namespace leapnav::jump
