// The modified funnel algorithm of thesis §6.2.1: the local path from a jump link's start to a
// target through the corridor after the jump, whose second vertex (the landing) must lie on the
// link's land segment. The land segment is the funnel's first portal, seen either from the start
// (the path crosses the segment's line) or from the start mirrored in that line with the portal
// ends swapped (the path comes back to the start's side); Theorem 6.1 makes this exact for a
// one-polygon corridor. Works in the xz plane (Vec2 holds x, z), like funnel.hpp.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/planning/funnel.hpp"

namespace leapnav::plan {

/// Which case of thesis §6.2.1 a jump corridor falls in. Case 1: the corridor after the jump is
/// one polygon (no portals); L is the line through the land segment's ends.
enum class JumpFunnelCase : std::uint8_t {
  Case1a,  ///< the target lies on the land segment: straight to it
  Case1b,  ///< the target lies on L (off the segment) or beyond it: funnel with apex at the start
  Case1c,  ///< the target lies on the start's side: apex mirrored in L, portal ends swapped
  Case2a,  ///< the first portal's ends lie on L or beyond it: funnel with apex at the start
  Case2b,  ///< the first portal's ends lie on the start's side (or one on L): mirrored funnel
  Case2c,  ///< the first portal straddles L: both funnels until one collapses
};

/// The point v of segment [a, b] minimising |s - v| + |v - t| (Theorem 6.1): t is mirrored in the
/// segment's line when s and t lie on the same side, then the line s -> t is cut with the segment's
/// line and the cut clamped to the segment. Exact up to rounding; a degenerate segment gives a.
[[nodiscard]] Vec2 shortest_via_segment(Vec2 s, Vec2 a, Vec2 b, Vec2 t);

/// The shortest local path from a jump's start `start` to `target` whose second vertex lies on the
/// land segment [land_a, land_b], through `portals` (the walk portals of the corridor after the
/// jump, as in funnel(); empty for a one-polygon corridor). Writes its corners to `corners`
/// (cleared first): corners[0] is the start, corners[1] the landing on the land segment (its
/// corridor_index 0), then the walk corners, then the target (corridor_index portals.size()); the
/// landing and the target are kept even when equal. Returns the case that applied.
JumpFunnelCase jump_funnel(Vec2 start, Vec2 land_a, Vec2 land_b, std::span<const Portal> portals,
                           Vec2 target, std::vector<Corner>& corners);

}  // namespace leapnav::plan
