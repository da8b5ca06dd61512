// Distance field for the watershed (pipeline.md §1): the chamfer distance (2 per axis step, 3 per
// diagonal) from each walkable span to the nearest boundary (a span lacking one of its 4
// same-area neighbours), then a 3x3 box blur through connections that keeps values <= 2 as they
// are. Unwalkable spans hold 0; max_distance is the largest stored value.
#include "leapnav/voxel/distance_field.hpp"

#include <algorithm>

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

  // boundary spans
  parallel_for(threads, 0, rows, 32, [&](std::size_t z0, std::size_t z1) {
    for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
      for (int x = 0; x < grid.width; ++x) {
        const std::size_t c = grid.column_index(x, z);
        for (std::uint32_t i = compact.first(c); i < compact.end(c); ++i) {
          const std::uint8_t area = compact.areas[i];
          if (area == kNullArea) {
            raw[i] = 0;
            continue;
          }
          int same = 0;
          for (int dir = 0; dir < 4; ++dir) {
            if (compact.spans[i].neighbor[static_cast<std::size_t>(dir)] == kNotConnected) continue;
            same += compact.areas[compact.neighbor_index(x, z, i, dir)] == area;
          }
          if (same != 4) raw[i] = 0;
        }
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
    std::uint16_t largest = 0;
    for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
      for (int x = 0; x < grid.width; ++x) {
        const std::size_t c = grid.column_index(x, z);
        for (std::uint32_t i = compact.first(c); i < compact.end(c); ++i) {
          const int center = raw[i];
          if (center <= kKeepBelowOrAt) {
            compact.distance[i] = static_cast<std::uint16_t>(center);
            largest = std::max(largest, static_cast<std::uint16_t>(center));
            continue;
          }
          int sum = center;
          for (int dir = 0; dir < 4; ++dir) {
            if (compact.spans[i].neighbor[static_cast<std::size_t>(dir)] == kNotConnected) {
              sum += 2 * center;
              continue;
            }
            const std::uint32_t a = compact.neighbor_index(x, z, i, dir);
            sum += raw[a];
            const int across = (dir + 1) & 3;
            if (compact.spans[a].neighbor[static_cast<std::size_t>(across)] == kNotConnected) {
              sum += center;
            } else {
              sum += raw[compact.neighbor_index(x + dir_dx(dir), z + dir_dz(dir), a, across)];
            }
          }
          const auto blurred = static_cast<std::uint16_t>((sum + 5) / 9);
          compact.distance[i] = blurred;
          largest = std::max(largest, blurred);
        }
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
