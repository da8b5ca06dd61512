// Internal: the two-pass chamfer distance transform (2 per axis step, 3 per diagonal) over the
// connections of a compact heightfield, shared by erosion and the distance field. Diagonal steps
// go through a connected axis neighbour (first along the pass's axis step, then across).
#pragma once

#include <algorithm>
#include <cstddef>
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
  // note: column offsets instead of neighbor_index() keep the index arithmetic out of the loop
  const auto width = static_cast<std::ptrdiff_t>(grid.width);
  const std::ptrdiff_t column_step[4] = {-1, width, 1, -width};
  const auto* first = compact.column_first.data();
  const auto* spans = compact.spans.data();
  // relaxes span i (column c) from its neighbour in dir, and from that one's neighbour in across
  const auto relax_from = [&](std::uint32_t i, std::ptrdiff_t c, int dir, int across) {
    const std::uint8_t link = spans[i].neighbor[static_cast<std::size_t>(dir)];
    if (link == kNotConnected) return;
    const std::ptrdiff_t ac = c + column_step[dir];
    const std::uint32_t a = first[ac] + link;
    relax(i, a, 2);
    const std::uint8_t link2 = spans[a].neighbor[static_cast<std::size_t>(across)];
    if (link2 == kNotConnected) return;
    relax(i, first[ac + column_step[across]] + link2, 3);
  };
  // forward: from (-x) and (-z), diagonals (-x,-z) and (+x,-z)
  for (int z = 0; z < grid.depth; ++z) {
    if (z % kCancelCheckRows == 0 && ctx.cancelled()) return false;
    for (int x = 0; x < grid.width; ++x) {
      const auto c = static_cast<std::ptrdiff_t>(grid.column_index(x, z));
      for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
        if (dist[i] == 0) continue;
        relax_from(i, c, 0, 3);
        relax_from(i, c, 3, 2);
      }
    }
  }
  // backward: from (+x) and (+z), diagonals (+x,+z) and (-x,+z)
  for (int z = grid.depth - 1; z >= 0; --z) {
    if (z % kCancelCheckRows == 0 && ctx.cancelled()) return false;
    for (int x = grid.width - 1; x >= 0; --x) {
      const auto c = static_cast<std::ptrdiff_t>(grid.column_index(x, z));
      for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
        if (dist[i] == 0) continue;
        relax_from(i, c, 2, 1);
        relax_from(i, c, 1, 0);
      }
    }
  }
  return true;
}

}  // namespace leapnav::voxel::detail
