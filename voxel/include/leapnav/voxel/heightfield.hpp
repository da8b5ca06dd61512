// The voxel stage's plain data: the solid span heightfield and the compact (open-space)
// heightfield with 4-neighbour links, erosion and distance field. Both carry
// their grid and store columns CSR-style: column c = x + z * width owns the flat range
// [column_first[c], column_first[c + 1]) of the span arrays, spans sorted bottom to top.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::voxel {

/// Area ids: 0 = not walkable; kWalkableArea = walkable ground. Other values are reserved for
/// user area types (the merge rule "more walkable wins" compares them numerically).
inline constexpr std::uint8_t kNullArea = 0;
inline constexpr std::uint8_t kWalkableArea = 63;
/// Set on the area id of a compact span (from erosion on) where the agent must crouch: its
/// clearance, or the standing clearance within its erosion radius, is below the agent height.
/// Regions never mix area ids, so crouch areas get their own regions and polygons; polygons store
/// the id without this bit and carry mesh::kPolyFlagCrouch instead.
inline constexpr std::uint8_t kCrouchAreaBit = 0x40;
/// A walkable area id of a compact span: 1..63, optionally with kCrouchAreaBit.
[[nodiscard]] constexpr bool is_compact_area(std::uint8_t area) {
  const auto ground = static_cast<std::uint8_t>(area & ~kCrouchAreaBit);
  return area == kNullArea || (ground >= 1 && ground <= kWalkableArea && area < 0x80);
}

/// A solid span [min, max) in cell-height units within one column.
struct Span {
  std::uint16_t min = 0;
  std::uint16_t max = 0;
  std::uint8_t area = kNullArea;
  friend bool operator==(const Span&, const Span&) = default;
};

/// Solid voxels: per column, the merged solid spans (sorted by min, disjoint, not touching).
struct Heightfield {
  GridSpec grid;
  std::vector<std::uint32_t> column_first;  ///< size column_count() + 1
  std::vector<Span> spans;
  [[nodiscard]] std::uint32_t first(std::size_t column) const { return column_first[column]; }
  [[nodiscard]] std::uint32_t end(std::size_t column) const { return column_first[column + 1]; }
};

/// Neighbour directions: 0 = -x, 1 = +z, 2 = +x, 3 = -z.
[[nodiscard]] constexpr int dir_dx(int dir) {
  return dir == 0 ? -1 : (dir == 2 ? 1 : 0);
}
[[nodiscard]] constexpr int dir_dz(int dir) {
  return dir == 1 ? 1 : (dir == 3 ? -1 : 0);
}
[[nodiscard]] constexpr int opposite(int dir) {
  return (dir + 2) & 3;
}

/// "No neighbour in this direction".
inline constexpr std::uint8_t kNotConnected = 0xFF;
/// Clearance of an open span with no solid above it inside the grid.
inline constexpr std::uint16_t kUnboundedClearance = 0xFFFF;

/// An open (walkable) span: the space above a walkable solid span.
struct CompactSpan {
  std::uint16_t y = 0;          ///< floor height (the solid span's top) [units: cell heights]
  std::uint16_t clearance = 0;  ///< open height up to the next solid span [units: cell heights]
  /// Per direction, the index of the connected span within the neighbour column, or kNotConnected.
  std::array<std::uint8_t, 4> neighbor{kNotConnected, kNotConnected, kNotConnected, kNotConnected};
  friend bool operator==(const CompactSpan&, const CompactSpan&) = default;
};

/// Open space above walkable spans, with connections, areas and (after distance_field) distances.
struct CompactHeightfield {
  GridSpec grid;
  int walkable_height = 0;  ///< the clearance rule it was built with [units: cell heights]
  int walkable_climb = 0;   ///< the step rule it was built with [units: cell heights]
  std::vector<std::uint32_t> column_first;  ///< size column_count() + 1
  std::vector<CompactSpan> spans;
  std::vector<std::uint8_t> areas;      ///< per span; kNullArea after erosion removes it
  std::vector<std::uint16_t> distance;  ///< per span, to the nearest boundary; empty until computed
  std::uint16_t max_distance = 0;

  [[nodiscard]] std::uint32_t first(std::size_t column) const { return column_first[column]; }
  [[nodiscard]] std::uint32_t end(std::size_t column) const { return column_first[column + 1]; }
  /// The flat index of the span connected to span `index` (in column (x, z)) in direction dir.
  [[nodiscard]] std::uint32_t neighbor_index(int x, int z, std::uint32_t index, int dir) const {
    const int nx = x + dir_dx(dir);
    const int nz = z + dir_dz(dir);
    return column_first[grid.column_index(nx, nz)] +
           spans[index].neighbor[static_cast<std::size_t>(dir)];
  }
};

/// Checks a solid heightfield: column_first has column_count() + 1 entries, starts at 0, is
/// non-decreasing and ends at spans.size(); per column spans are sorted, disjoint and not touching
/// (min < max, next.min > max), and lie within [0, grid.height]. The message names the column.
[[nodiscard]] Status validate(const Heightfield& heightfield);

/// Checks a compact heightfield: CSR layout as for Heightfield, spans sorted with open intervals
/// that do not overlap, per-span arrays sized like spans (distance empty or sized), connections in
/// range, symmetric and obeying the climb and clearance rules, areas kNullArea or a walkable id,
/// distances 0 on unwalkable spans and max_distance equal to their maximum when present.
[[nodiscard]] Status validate(const CompactHeightfield& compact);

/// A content hash of every field (grid, columns, spans), independent of struct padding.
[[nodiscard]] std::uint64_t content_hash(const Heightfield& heightfield);
/// A content hash of every field (grid, rules, columns, spans, areas, distances).
[[nodiscard]] std::uint64_t content_hash(const CompactHeightfield& compact);

}  // namespace leapnav::voxel
