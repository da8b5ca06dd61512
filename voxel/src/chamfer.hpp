// Internal: the two-pass chamfer distance transform (2 per axis step, 3 per diagonal) over the
// connections of a compact heightfield, shared by erosion and the distance field. Diagonal steps
// go through a connected axis neighbour (first along the pass's axis step, then across).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel::detail {

/// Lowers dist (pre-set: 0 on boundary spans, 0xFFFF elsewhere) to chamfer distances. Returns
/// false (dist half done) when ctx is cancelled; checked every kCancelCheckRows rows.
inline bool chamfer_transform(const CompactHeightfield& compact, std::vector<std::uint16_t>& dist,
                              const BuildContext& ctx) {
  constexpr int kCancelCheckRows = 64;
  const GridSpec& grid = compact.grid;
  const auto relax = [&](std::uint32_t i, std::uint32_t from, int cost) {
    const int candidate = std::min(int{dist[from]} + cost, 0xFFFF);
    if (candidate < dist[i]) dist[i] = static_cast<std::uint16_t>(candidate);
  };
  const auto linked = [&](std::uint32_t i, int dir) {
    return compact.spans[i].neighbor[static_cast<std::size_t>(dir)] != kNotConnected;
  };
  // forward: from (-x) and (-z), diagonals (-x,-z) and (+x,-z)
  for (int z = 0; z < grid.depth; ++z) {
    if (z % kCancelCheckRows == 0 && ctx.cancelled()) return false;
    for (int x = 0; x < grid.width; ++x) {
      const std::size_t c = grid.column_index(x, z);
      for (std::uint32_t i = compact.first(c); i < compact.end(c); ++i) {
        if (dist[i] == 0) continue;
        if (linked(i, 0)) {
          const std::uint32_t a = compact.neighbor_index(x, z, i, 0);
          relax(i, a, 2);
          if (linked(a, 3)) relax(i, compact.neighbor_index(x - 1, z, a, 3), 3);
        }
        if (linked(i, 3)) {
          const std::uint32_t a = compact.neighbor_index(x, z, i, 3);
          relax(i, a, 2);
          if (linked(a, 2)) relax(i, compact.neighbor_index(x, z - 1, a, 2), 3);
        }
      }
    }
  }
  // backward: from (+x) and (+z), diagonals (+x,+z) and (-x,+z)
  for (int z = grid.depth - 1; z >= 0; --z) {
    if (z % kCancelCheckRows == 0 && ctx.cancelled()) return false;
    for (int x = grid.width - 1; x >= 0; --x) {
      const std::size_t c = grid.column_index(x, z);
      for (std::uint32_t i = compact.first(c); i < compact.end(c); ++i) {
        if (dist[i] == 0) continue;
        if (linked(i, 2)) {
          const std::uint32_t a = compact.neighbor_index(x, z, i, 2);
          relax(i, a, 2);
          if (linked(a, 1)) relax(i, compact.neighbor_index(x + 1, z, a, 1), 3);
        }
        if (linked(i, 1)) {
          const std::uint32_t a = compact.neighbor_index(x, z, i, 1);
          relax(i, a, 2);
          if (linked(a, 0)) relax(i, compact.neighbor_index(x, z + 1, a, 0), 3);
        }
      }
    }
  }
  return true;
}

}  // namespace leapnav::voxel::detail
