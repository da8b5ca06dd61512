// Internal: the per-span rules of the three walkability filters (pipeline.md §1), shared by the
// single-filter stages and the fused pass. Each rule reads span heights of the span's own and
// neighbouring columns and areas of its own column only, so columns can be filtered in parallel.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel::detail {

/// Ceiling of the top span of a column: open to the sky.
inline constexpr int kOpenTop = 1 << 30;

/// Low-hanging obstacles in one column (its spans [first, end)): an unwalkable span whose top is
/// within climb of the top of the span below, walkable before this rule ran, takes that span's
/// area.
inline void lift_low_hanging(Span* spans, std::uint32_t first, std::uint32_t end, int climb) {
  bool previous_walkable = false;
  std::uint8_t previous_area = kNullArea;
  int previous_top = 0;
  for (std::uint32_t i = first; i < end; ++i) {
    Span& span = spans[i];
    const bool walkable = span.area != kNullArea;
    if (!walkable && previous_walkable && std::abs(int{span.max} - previous_top) <= climb)
      span.area = previous_area;
    previous_walkable = walkable;
    previous_area = span.area;
    previous_top = span.max;
  }
}

/// lift_low_hanging on one column of a heightfield.
inline void lift_low_hanging(Heightfield& hf, std::size_t column, int climb) {
  lift_low_hanging(hf.spans.data(), hf.first(column), hf.end(column), climb);
}

/// Low clearance: span i (in a column ending at `end`) has less than `clearance` open space.
inline bool lacks_clearance(const Span* spans, std::uint32_t i, std::uint32_t end, int clearance) {
  return i + 1 < end && int{spans[i + 1].min} - int{spans[i].max} < clearance;
}

/// lacks_clearance on a heightfield's span i.
inline bool lacks_clearance(const Heightfield& hf, std::uint32_t i, std::uint32_t end,
                            int clearance) {
  return lacks_clearance(hf.spans.data(), i, end, clearance);
}

/// The span ranges [first[dir], end[dir]) of the 4 neighbour columns of a column inside the grid.
struct NeighborColumns {
  std::array<std::uint32_t, 4> first;
  std::array<std::uint32_t, 4> end;
};

/// Ledge rule of is_ledge() for a column inside the grid (its neighbours `n`): span i (of a
/// column ending at `end`) has a neighbour floor more than climb below it (the gap under a
/// column's first span has its floor at minus infinity), or its reachable neighbour floors within
/// climb span more than climb. Only neighbour gaps that overlap the span's open space by at least
/// `clearance` count.
inline bool is_ledge_among(const Span* spans, const NeighborColumns& n, std::uint32_t i,
                           std::uint32_t end, int climb, int clearance) {
  const int floor = spans[i].max;
  const int ceiling = i + 1 < end ? int{spans[i + 1].min} : kOpenTop;
  int lowest = floor;
  int highest = floor;
  for (std::size_t dir = 0; dir < 4; ++dir) {
    const std::uint32_t n_first = n.first[dir];
    const std::uint32_t n_end = n.end[dir];
    const int below_top = n_first < n_end ? int{spans[n_first].min} : kOpenTop;
    if (std::min(ceiling, below_top) - floor >= clearance) return true;
    for (std::uint32_t j = n_first; j < n_end; ++j) {
      const int n_floor = spans[j].max;
      const int n_ceiling = j + 1 < n_end ? int{spans[j + 1].min} : kOpenTop;
      if (std::min(ceiling, n_ceiling) - std::max(floor, n_floor) < clearance) continue;
      const int diff = n_floor - floor;
      if (diff < -climb) return true;
      if (diff <= climb) {
        lowest = std::min(lowest, n_floor);
        highest = std::max(highest, n_floor);
      }
    }
  }
  return highest - lowest > climb;
}

/// The neighbour columns of column (x, z), or false when one lies outside the grid.
inline bool neighbor_columns(const Heightfield& hf, int x, int z, NeighborColumns& n) {
  const GridSpec& grid = hf.grid;
  for (int dir = 0; dir < 4; ++dir) {
    const int nx = x + dir_dx(dir);
    const int nz = z + dir_dz(dir);
    if (!grid.in_bounds(nx, nz)) return false;
    const std::size_t neighbor = grid.column_index(nx, nz);
    n.first[static_cast<std::size_t>(dir)] = hf.first(neighbor);
    n.end[static_cast<std::size_t>(dir)] = hf.end(neighbor);
  }
  return true;
}

/// Ledge: span i of column (x, z) (ending at `end`) is a ledge by is_ledge_among(), or its
/// column lies on the grid border (a drop).
inline bool is_ledge(const Heightfield& hf, int x, int z, std::uint32_t i, std::uint32_t end,
                     int climb, int clearance) {
  NeighborColumns n{};
  if (!neighbor_columns(hf, x, z, n)) return true;
  return is_ledge_among(hf.spans.data(), n, i, end, climb, clearance);
}

}  // namespace leapnav::voxel::detail
