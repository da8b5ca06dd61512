// The simple stupid funnel algorithm (Mononen 2010; thesis §3.2.2): the shortest path from start to
// goal inside a corridor of convex polygons, given the portals between consecutive polygons as
// (left, right) seen when walking from the start. Keeps an apex and two legs; a portal end inside
// the funnel tightens its leg; an end crossing the other leg makes that leg's end a corner and
// restarts the funnel there. Works in the xz plane (Vec2 holds x, z).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/geometry.hpp"

namespace leapnav::plan {

/// A portal between corridor polygons i and i + 1: its ends on the left-hand and right-hand side
/// when walking from polygon i into polygon i + 1 (left is counter-clockwise from right as seen
/// from polygon i, with xz read as a right-handed (x, y) plane).
struct Portal {
  Vec2 left;
  Vec2 right;
};

/// A corner of the funnel path and the corridor polygon it is lifted with: 0 for the start,
/// portals.size() for the goal, i for an end of portal i (shared by polygons i and i + 1).
struct Corner {
  Vec2 point;
  std::uint32_t corridor_index = 0;
};

/// Writes the shortest path's corners to `corners` (cleared first): the start, the corners at
/// portal ends, the goal; always at least the start and the goal, even when they are equal.
void funnel(Vec2 start, Vec2 goal, std::span<const Portal> portals, std::vector<Corner>& corners);

}  // namespace leapnav::plan
