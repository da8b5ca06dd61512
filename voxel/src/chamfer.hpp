// Internal: the two-pass chamfer distance transform (2 per axis step, 3 per diagonal) over the
// connections of a compact heightfield, shared by erosion and the distance field. With a diagonal
// weight of 2 it is the exact Chebyshev (square) distance, times 2, that box agents erode by.
// Diagonal steps go through a connected axis neighbour (first along the pass's axis step, then
// across). Parallel and exact: each pass runs on strips of rows at once, every strip ignoring the
// rows before it (in pass order); then, strip after strip, rows are relaxed again from the finished
// strip before until a row does not change. Relaxation only lowers values and is monotone, so
// this gives the values of the sequential pass for any number of strips.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel::detail {

/// Lowers dist (pre-set: 0 on boundary spans, 0xFFFF elsewhere) to chamfer distances, on
/// `threads` workers (0 = all); a diagonal step costs `diagonal` (3, or 2 for Chebyshev). Returns
/// false (dist half done) when ctx is cancelled; checked every kCancelCheckRows rows.
inline bool chamfer_transform(const CompactHeightfield& compact, std::vector<std::uint16_t>& dist,
                              const BuildContext& ctx, int threads, int diagonal = 3) {
  constexpr int kCancelCheckRows = 64;
  const GridSpec& grid = compact.grid;
  const int depth = grid.depth;
  if (depth <= 0 || grid.width <= 0) return !ctx.cancelled();
  std::uint16_t* d = dist.data();
  // note: column offsets instead of neighbor_index() keep the index arithmetic out of the loop
  const auto width = static_cast<std::ptrdiff_t>(grid.width);
  const std::ptrdiff_t column_step[4] = {-1, width, 1, -width};
  const auto* first = compact.column_first.data();
  const auto* spans = compact.spans.data();
  // lowers span i (column c) from its neighbour in dir and, when `across_too`, from that one's
  // neighbour in across; true when the value went down
  const auto relax_from = [&](std::uint32_t i, std::ptrdiff_t c, int dir, int across,
                              bool via_too) {
    const std::uint8_t link = spans[i].neighbor[static_cast<std::size_t>(dir)];
    if (link == kNotConnected) return;
    const std::ptrdiff_t ac = c + column_step[dir];
    const std::uint32_t a = first[ac] + link;
    int best = std::min(int{d[a]} + 2, 0xFFFF);
    if (via_too) {
      const std::uint8_t link2 = spans[a].neighbor[static_cast<std::size_t>(across)];
      if (link2 != kNotConnected)
        best = std::min(best, int{d[first[ac + column_step[across]] + link2]} + diagonal);
    }
    if (best < d[i]) d[i] = static_cast<std::uint16_t>(best);
  };
  // forward row: from (-x) and (-z), diagonals (-x,-z) and (+x,-z); `above` = read row z - 1
  const auto forward_row = [&](int z, bool above) {
    bool changed = false;
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(z) * width;
    for (std::ptrdiff_t c = row; c < row + width; ++c) {
      for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
        const std::uint16_t before = d[i];
        if (before == 0) continue;
        relax_from(i, c, 0, 3, above);
        if (above) relax_from(i, c, 3, 2, true);
        changed = changed || d[i] != before;
      }
    }
    return changed;
  };
  // backward row: from (+x) and (+z), diagonals (+x,+z) and (-x,+z); `below` = read row z + 1
  const auto backward_row = [&](int z, bool below) {
    bool changed = false;
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(z) * width;
    for (std::ptrdiff_t c = row + width - 1; c >= row; --c) {
      for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
        const std::uint16_t before = d[i];
        if (before == 0) continue;
        relax_from(i, c, 2, 1, below);
        if (below) relax_from(i, c, 1, 0, true);
        changed = changed || d[i] != before;
      }
    }
    return changed;
  };

  const int workers = threads <= 0 ? hardware_threads() : threads;
  const int strips = std::clamp(workers, 1, depth);
  // note: strips hold about equal numbers of spans (not rows), so that levels whose floors fill
  // part of the grid still split the work evenly; any row split gives the same values
  std::vector<int> strip_rows(static_cast<std::size_t>(strips) + 1, depth);
  strip_rows[0] = 0;
  {
    const std::uint64_t span_total = first[static_cast<std::ptrdiff_t>(depth) * width];
    int row = 0;
    for (int k = 1; k < strips; ++k) {
      const std::uint64_t target =
          span_total * static_cast<std::uint64_t>(k) / static_cast<std::uint64_t>(strips);
      row = std::max(row, strip_rows[static_cast<std::size_t>(k) - 1]);
      while (row < depth && first[static_cast<std::ptrdiff_t>(row) * width] < target) ++row;
      strip_rows[static_cast<std::size_t>(k)] = row;
    }
  }
  const auto strip_first = [&](int k) { return strip_rows[static_cast<std::size_t>(k)]; };
  std::atomic<bool> stopped{false};
  const auto stop_at = [&](int z) {
    if (z % kCancelCheckRows != 0) return false;
    if (ctx.cancelled()) stopped.store(true, std::memory_order_relaxed);
    return stopped.load(std::memory_order_relaxed);
  };

  parallel_for(threads, 0, static_cast<std::size_t>(strips), 1,
               [&](std::size_t k0, std::size_t k1) {
                 for (int k = static_cast<int>(k0); k < static_cast<int>(k1); ++k) {
                   for (int z = strip_first(k); z < strip_first(k + 1); ++z) {
                     if (stop_at(z)) return;
                     forward_row(z, z > strip_first(k));
                   }
                 }
               });
  for (int k = 1; k < strips; ++k) {
    for (int z = strip_first(k); z < strip_first(k + 1); ++z) {
      if (stop_at(z)) return false;
      if (!forward_row(z, true)) break;
    }
  }
  if (stopped.load()) return false;

  parallel_for(threads, 0, static_cast<std::size_t>(strips), 1,
               [&](std::size_t k0, std::size_t k1) {
                 for (int k = static_cast<int>(k0); k < static_cast<int>(k1); ++k) {
                   for (int z = strip_first(k + 1) - 1; z >= strip_first(k); --z) {
                     if (stop_at(z)) return;
                     backward_row(z, z < strip_first(k + 1) - 1);
                   }
                 }
               });
  for (int k = strips - 2; k >= 0; --k) {
    for (int z = strip_first(k + 1) - 1; z >= strip_first(k); --z) {
      if (stop_at(z)) return false;
      if (!backward_row(z, true)) break;
    }
  }
  return !stopped.load();
}

}  // namespace leapnav::voxel::detail
