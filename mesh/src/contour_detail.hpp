// Internal to mesh/: the pieces of the contour stage shared between contours.cpp (walk and
// simplification), contour_portals.cpp (straight portals) and contour_holes.cpp (hole bridging).
// Coordinates are integer grid corners; every geometric predicate here is exact (64-bit integer
// arithmetic).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/mesh/types.hpp"

namespace leapnav::mesh::detail {

/// Twice the signed area of a closed polygon in xz (x_i*z_{i+1} - x_{i+1}*z_i summed).
[[nodiscard]] std::int64_t doubled_area(const std::vector<ContourVertex>& polygon);

/// > 0 when c is left of the directed line a -> b in (x, z), 0 when collinear.
[[nodiscard]] std::int64_t orient(const ContourVertex& a, const ContourVertex& b,
                                  const ContourVertex& c);

[[nodiscard]] inline bool same_xz(const ContourVertex& a, const ContourVertex& b) {
  return a.x == b.x && a.z == b.z;
}

/// Whether c lies on the closed segment a-b in (x, z).
[[nodiscard]] bool on_segment(const ContourVertex& a, const ContourVertex& b,
                              const ContourVertex& c);

/// Whether the closed segments a-b and c-d share at least one point in (x, z).
[[nodiscard]] bool segments_touch(const ContourVertex& a, const ContourVertex& b,
                                  const ContourVertex& c, const ContourVertex& d);

/// Whether (x, z) lies inside or on the boundary of the closed polygon.
[[nodiscard]] bool contains_or_touches(const std::vector<ContourVertex>& polygon,
                                       const ContourVertex& point);

/// Whether the simplified portal chain `chain` (its vertices from one end to the other, at least
/// three) may be replaced by its chord, the segment between its ends: the chord touches no edge
/// of `loops` (the simplified loops of both regions of the portal, before hole bridging) other
/// than the chain's own edges, except at its ends, and no such edge lies inside or on the
/// boundary of the pocket between the chain and the chord. A predicate of the sets of edges only,
/// so both regions of the portal, which see the chain in opposite directions, get the same answer.
[[nodiscard]] bool chord_is_clear(const std::vector<ContourVertex>& chain,
                                  const std::vector<const std::vector<ContourVertex>*>& loops);

/// Merges `holes` (clockwise loops inside the counter-clockwise `outer`) into `outer` through
/// bridges; bridge edges get neighbor_region = `region`. Holes that find no visible vertex are
/// left out and described in `warnings`.
void bridge_holes(std::vector<ContourVertex>& outer, std::vector<std::vector<ContourVertex>> holes,
                  std::uint16_t region, std::vector<std::string>& warnings);

}  // namespace leapnav::mesh::detail
