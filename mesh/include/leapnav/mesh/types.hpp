// The mesh stage's intermediate plain data: watershed regions and region contours.
// Regions are produced from a CompactHeightfield's distance field; contours are
// their simplified outlines in grid-corner coordinates, holes already bridged into the outline.
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/grid.hpp"

namespace leapnav::mesh {

/// Region id 0 means "no region" (unwalkable or filtered out); regions are numbered 1..count.
inline constexpr std::uint16_t kNoRegion = 0;

/// Watershed regions: one id per compact span (aligned with CompactHeightfield::spans).
/// Invariants: ids are 0 or in 1..region_count; every region is 4-connected; no region holds two
/// spans of the same column.
struct RegionField {
  std::vector<std::uint16_t> span_region;
  std::uint16_t region_count = 0;
};

/// A contour vertex at a grid corner: x in [0, width], z in [0, depth], y the corner's floor
/// height [units: cell heights].
struct ContourVertex {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t z = 0;
  /// The region on the other side of the edge that starts at this vertex (kNoRegion = border).
  std::uint16_t neighbor_region = kNoRegion;
  friend bool operator==(const ContourVertex&, const ContourVertex&) = default;
};

/// The outline of one region as a simple polygon, counter-clockwise in xz (positive shoelace
/// area sum x_i*z_{i+1} - x_{i+1}*z_i), holes bridged in; at least 3 vertices.
struct Contour {
  std::uint16_t region = kNoRegion;
  std::uint8_t area = 0;
  std::vector<ContourVertex> vertices;  ///< simplified
  std::vector<ContourVertex> raw;       ///< the unsimplified outline walk (for checks and pictures)
};

struct ContourSet {
  GridSpec grid;
  std::vector<Contour> contours;  ///< ordered by region id
};

}  // namespace leapnav::mesh
