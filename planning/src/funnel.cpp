// The simple stupid funnel algorithm (Mononen 2010; thesis §3.2.2, its four events). Portals are
// indexed 1..n with the start as portal 0 and the goal as portal n + 1 (both degenerate). A leg
// whose end coincides with the apex counts as open, so portals sharing the apex vertex never emit
// the apex twice; every restart moves the apex to a strictly later portal, so the loop ends.
#include "leapnav/planning/funnel.hpp"

#include "local_funnel.hpp"

namespace leapnav::plan {

using detail::orient;

void funnel(Vec2 start, Vec2 goal, std::span<const Portal> portals, std::vector<Corner>& corners) {
  corners.clear();
  corners.push_back({start, 0});
  const std::size_t n = portals.size();
  const std::size_t end = n + 2;
  const auto left_of = [&](std::size_t i) {
    return i == 0 ? start : (i <= n ? portals[i - 1].left : goal);
  };
  const auto right_of = [&](std::size_t i) {
    return i == 0 ? start : (i <= n ? portals[i - 1].right : goal);
  };
  // note: a corner at portal i (between polygons i - 1 and i) is lifted with polygon i - 1.
  const auto emit = [&](Vec2 p, std::size_t i) {
    if (!(corners.back().point == p)) {
      corners.push_back({p, static_cast<std::uint32_t>(i == 0 ? 0 : i - 1)});
    }
  };

  Vec2 apex = start;
  Vec2 left = start;
  Vec2 right = start;
  std::size_t left_index = 0;
  std::size_t right_index = 0;
  for (std::size_t i = 1; i < end; ++i) {
    const Vec2 l = left_of(i);
    const Vec2 r = right_of(i);

    // right leg: tighten when r is on or left of it
    if (orient(apex, right, r) >= 0.0) {
      if (apex == right || apex == left || orient(apex, left, r) < 0.0) {
        right = r;
        right_index = i;
      } else {
        // r crossed the left leg: the left end is a corner
        emit(left, left_index);
        apex = left;
        right = apex;
        right_index = left_index;
        i = left_index;
        continue;
      }
    }
    // left leg: tighten when l is on or right of it
    if (orient(apex, left, l) <= 0.0) {
      if (apex == left || apex == right || orient(apex, right, l) > 0.0) {
        left = l;
        left_index = i;
      } else {
        // l crossed the right leg: the right end is a corner
        emit(right, right_index);
        apex = right;
        left = apex;
        left_index = right_index;
        i = right_index;
        continue;
      }
    }
  }
  corners.push_back({goal, static_cast<std::uint32_t>(n)});
  if (corners.size() > 2 && corners[corners.size() - 2].point == goal) {
    corners.erase(corners.end() - 2);
  }
}

}  // namespace leapnav::plan
