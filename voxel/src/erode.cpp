// Erosion by the agent radius (pipeline.md §1): chamfer distance (2 per axis step, 3 per
// diagonal) to the nearest boundary span, where a boundary span is unwalkable or lacks one of its
// 4 walkable neighbours; spans with distance < 2 * walkable_radius become kNullArea.
#include "leapnav/voxel/erode.hpp"

#include <algorithm>
#include <atomic>

#include "chamfer.hpp"
#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {

Result<CompactHeightfield> erode(CompactHeightfield compact, const VoxelParams& params,
                                 BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("erode"));
  compact.distance.clear();
  compact.max_distance = 0;
  if (params.walkable_radius <= 0) return compact;
  const GridSpec& grid = compact.grid;
  const std::size_t total = compact.spans.size();
  LEAPNAV_TRY(ctx.check_memory("erode: distances", total * sizeof(std::uint16_t)));
  // note: only dist < threshold matters, and the chamfer relaxation commutes with min(., T), so
  // starting from T instead of "infinite" gives min(distance, T) exactly; the capped values stop
  // changing a few rows past each strip border, which keeps the sequential strip fix-up short
  const int threshold = 2 * params.walkable_radius;
  const auto cap = static_cast<std::uint16_t>(std::min(threshold, 0xFFFF));
  std::vector<std::uint16_t> dist(total, cap);

  // boundary spans
  parallel_for(
      ctx.threads(), 0, static_cast<std::size_t>(grid.depth), 32,
      [&](std::size_t z0, std::size_t z1) {
        for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
          for (int x = 0; x < grid.width; ++x) {
            const std::size_t c = grid.column_index(x, z);
            for (std::uint32_t i = compact.first(c); i < compact.end(c); ++i) {
              if (compact.areas[i] == kNullArea) {
                dist[i] = 0;
                continue;
              }
              int walkable_neighbors = 0;
              for (int dir = 0; dir < 4; ++dir) {
                if (compact.spans[i].neighbor[static_cast<std::size_t>(dir)] == kNotConnected)
                  continue;
                walkable_neighbors +=
                    compact.areas[compact.neighbor_index(x, z, i, dir)] != kNullArea;
              }
              if (walkable_neighbors != 4) dist[i] = 0;
            }
          }
        }
      });
  LEAPNAV_TRY(ctx.check_cancel("erode"));
  if (!detail::chamfer_transform(compact, dist, ctx, ctx.threads()))
    LEAPNAV_TRY(ctx.check_cancel("erode"));
  LEAPNAV_TRY(ctx.check_cancel("erode"));

  // note: branch-free over local copies (a byte store may alias anything reached through the
  // captured references), so that it vectorises
  parallel_for(ctx.threads(), 0, total, 16384, [&](std::size_t b, std::size_t e) {
    std::uint8_t* areas = compact.areas.data();
    const std::uint16_t* d = dist.data();
    const int limit = threshold;
    for (std::size_t i = b; i < e; ++i) areas[i] = int{d[i]} < limit ? kNullArea : areas[i];
  });
  return compact;
}

}  // namespace leapnav::voxel
