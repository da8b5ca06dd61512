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
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel::detail {

/// One row of a chamfer pass over a compact heightfield's connections: forward rows relax each
/// span from (-x) and (-z) and the diagonals (-x,-z) and (+x,-z), backward rows from (+x) and
/// (+z) and the diagonals (+x,+z) and (-x,+z); a diagonal goes through a connected axis
/// neighbour, first along the pass's axis step, then across. Returns whether a value went down.
struct RowKernel {
  std::uint16_t* dist;
  const std::uint32_t* first;
  const CompactSpan* spans;
  std::ptrdiff_t width;
  int diagonal;

  /// Forward row z; `above` = read row z - 1.
  [[nodiscard]] bool forward(int z, bool above) const {
    std::uint16_t* const d = dist;
    const std::uint32_t* const f = first;
    const CompactSpan* const s = spans;
    const std::ptrdiff_t w = width;
    const int diag = diagonal;
    bool changed = false;
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(z) * w;
    for (std::ptrdiff_t c = row; c < row + w; ++c) {
      const std::uint32_t end = f[c + 1];
      for (std::uint32_t i = f[c]; i < end; ++i) {
        const int before = d[i];
        if (before == 0) continue;
        int best = before;
        const std::array<std::uint8_t, 4> link = s[i].neighbor;
        if (link[0] != kNotConnected) {
          const std::uint32_t a = f[c - 1] + link[0];
          best = std::min(best, int{d[a]} + 2);
          if (above) {
            const std::uint8_t link2 = s[a].neighbor[3];
            if (link2 != kNotConnected) best = std::min(best, int{d[f[c - 1 - w] + link2]} + diag);
          }
        }
        if (above && link[3] != kNotConnected) {
          const std::uint32_t a = f[c - w] + link[3];
          best = std::min(best, int{d[a]} + 2);
          const std::uint8_t link2 = s[a].neighbor[2];
          if (link2 != kNotConnected) best = std::min(best, int{d[f[c - w + 1] + link2]} + diag);
        }
        if (best < before) {
          d[i] = static_cast<std::uint16_t>(best);
          changed = true;
        }
      }
    }
    return changed;
  }

  /// Backward row z; `below` = read row z + 1.
  [[nodiscard]] bool backward(int z, bool below) const {
    std::uint16_t* const d = dist;
    const std::uint32_t* const f = first;
    const CompactSpan* const s = spans;
    const std::ptrdiff_t w = width;
    const int diag = diagonal;
    bool changed = false;
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(z) * w;
    for (std::ptrdiff_t c = row + w - 1; c >= row; --c) {
      const std::uint32_t end = f[c + 1];
      for (std::uint32_t i = f[c]; i < end; ++i) {
        const int before = d[i];
        if (before == 0) continue;
        int best = before;
        const std::array<std::uint8_t, 4> link = s[i].neighbor;
        if (link[2] != kNotConnected) {
          const std::uint32_t a = f[c + 1] + link[2];
          best = std::min(best, int{d[a]} + 2);
          if (below) {
            const std::uint8_t link2 = s[a].neighbor[1];
            if (link2 != kNotConnected) best = std::min(best, int{d[f[c + 1 + w] + link2]} + diag);
          }
        }
        if (below && link[1] != kNotConnected) {
          const std::uint32_t a = f[c + w] + link[1];
          best = std::min(best, int{d[a]} + 2);
          const std::uint8_t link2 = s[a].neighbor[0];
          if (link2 != kNotConnected) best = std::min(best, int{d[f[c + w - 1] + link2]} + diag);
        }
        if (best < before) {
          d[i] = static_cast<std::uint16_t>(best);
          changed = true;
        }
      }
    }
    return changed;
  }
};

/// Lowers dist (pre-set: 0 on boundary spans, 0xFFFF elsewhere) to chamfer distances, on
/// `threads` workers (0 = all); a diagonal step costs `diagonal` (3, or 2 for Chebyshev). Returns
/// false (dist half done) when ctx is cancelled; checked every kCancelCheckRows rows.
inline bool chamfer_transform(const CompactHeightfield& compact, std::vector<std::uint16_t>& dist,
                              const BuildContext& ctx, int threads, int diagonal = 3) {
  constexpr int kCancelCheckRows = 64;
  const GridSpec& grid = compact.grid;
  const int depth = grid.depth;
  if (depth <= 0 || grid.width <= 0) return !ctx.cancelled();
  // note: the row kernels work on local copies of the pointers and sizes (plain values, not
  // references into this frame), so that the compiler keeps them in registers across the stores
  // to the distances instead of reloading them per span
  const RowKernel rows{dist.data(), compact.column_first.data(), compact.spans.data(),
                       static_cast<std::ptrdiff_t>(grid.width), diagonal};
  const auto forward_row = [&rows](int z, bool above) { return rows.forward(z, above); };
  const auto backward_row = [&rows](int z, bool below) { return rows.backward(z, below); };
  const auto* first = compact.column_first.data();
  const auto width = static_cast<std::ptrdiff_t>(grid.width);

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
