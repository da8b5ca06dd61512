// Distance field for the watershed (pipeline.md §1): the chamfer distance (2 per axis step, 3 per
// diagonal) from each walkable span to the nearest boundary (a span lacking one of its 4
// same-area neighbours), then a 3x3 box blur through connections that keeps values <= 2 as they
// are. Unwalkable spans hold 0; max_distance is the largest stored value.
#include "leapnav/voxel/distance_field.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include "chamfer.hpp"
#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {
namespace {

constexpr int kKeepBelowOrAt = 2;
// rows per chunk of the blur
constexpr std::size_t kBlurRows = 32;

}  // namespace

Result<CompactHeightfield> distance_field(CompactHeightfield compact, BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("distance_field"));
  const GridSpec& grid = compact.grid;
  const std::size_t total = compact.spans.size();
  LEAPNAV_TRY(ctx.check_memory("distance_field: distances", 2 * total * sizeof(std::uint16_t)));
  std::vector<std::uint16_t> raw(total, 0xFFFF);
  const int threads = ctx.threads();
  const std::size_t rows = static_cast<std::size_t>(grid.depth);

  // note: the per-span loops below read through local copies of the pointers and the width, so
  // that the stores to the distances do not force them to be reloaded per span
  const auto width = static_cast<std::ptrdiff_t>(grid.width);
  const std::uint32_t* const first = compact.column_first.data();
  const CompactSpan* const spans = compact.spans.data();
  const std::uint8_t* const areas = compact.areas.data();
  // column offset per direction (0 = -x, 1 = +z, 2 = +x, 3 = -z)
  const std::array<std::ptrdiff_t, 4> step{-1, width, 1, -width};

  // boundary spans
  parallel_for(threads, 0, rows, 32, [&](std::size_t z0, std::size_t z1) {
    std::uint16_t* const d = raw.data();
    for (std::ptrdiff_t c = static_cast<std::ptrdiff_t>(z0) * width;
         c < static_cast<std::ptrdiff_t>(z1) * width; ++c) {
      const std::uint32_t end = first[c + 1];
      for (std::uint32_t i = first[c]; i < end; ++i) {
        const std::uint8_t area = areas[i];
        if (area == kNullArea) {
          d[i] = 0;
          continue;
        }
        int same = 0;
        for (std::size_t dir = 0; dir < 4; ++dir) {
          const std::uint8_t link = spans[i].neighbor[dir];
          if (link == kNotConnected) continue;
          same += areas[first[c + step[dir]] + link] == area ? 1 : 0;
        }
        if (same != 4) d[i] = 0;
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("distance_field"));
  if (!detail::chamfer_transform(compact, raw, ctx, threads))
    LEAPNAV_TRY(ctx.check_cancel("distance_field"));
  LEAPNAV_TRY(ctx.check_cancel("distance_field"));

  // 3x3 blur through connections; small values stay
  compact.distance.assign(total, 0);
  // per fixed chunk of rows, its largest distance
  std::vector<std::uint16_t> chunk_max(chunk_count(0, rows, kBlurRows), 0);
  parallel_for(threads, 0, rows, kBlurRows, [&](std::size_t z0, std::size_t z1) {
    const std::uint16_t* const r = raw.data();
    std::uint16_t* const out = compact.distance.data();
    std::uint16_t largest = 0;
    for (std::ptrdiff_t c = static_cast<std::ptrdiff_t>(z0) * width;
         c < static_cast<std::ptrdiff_t>(z1) * width; ++c) {
      const std::uint32_t end = first[c + 1];
      for (std::uint32_t i = first[c]; i < end; ++i) {
        const int center = r[i];
        if (center <= kKeepBelowOrAt) {
          out[i] = static_cast<std::uint16_t>(center);
          largest = std::max(largest, static_cast<std::uint16_t>(center));
          continue;
        }
        int sum = center;
        for (std::size_t dir = 0; dir < 4; ++dir) {
          const std::uint8_t link = spans[i].neighbor[dir];
          if (link == kNotConnected) {
            sum += 2 * center;
            continue;
          }
          const std::ptrdiff_t ac = c + step[dir];
          const std::uint32_t a = first[ac] + link;
          sum += r[a];
          const std::size_t across = (dir + 1) & 3U;
          const std::uint8_t link2 = spans[a].neighbor[across];
          sum += link2 == kNotConnected ? center : int{r[first[ac + step[across]] + link2]};
        }
        const auto blurred = static_cast<std::uint16_t>((sum + 5) / 9);
        out[i] = blurred;
        largest = std::max(largest, blurred);
      }
    }
    chunk_max[z0 / kBlurRows] = largest;
  });
  compact.max_distance = 0;
  for (const std::uint16_t m : chunk_max) compact.max_distance = std::max(compact.max_distance, m);
  LEAPNAV_TRY(ctx.check_cancel("distance_field"));
  return compact;
}

}  // namespace leapnav::voxel
