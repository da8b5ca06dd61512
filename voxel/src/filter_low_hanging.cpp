// Low-hanging obstacle filter (pipeline.md §1, filter 1): curbs and stair steps at most
// walkable_climb above walkable ground become walkable. Uses the walkability before the filter,
// so it never cascades over two stacked obstacles. Heights and layout are unchanged.
#include <atomic>
#include <cstdlib>

#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/filters.hpp"

namespace leapnav::voxel {

Result<Heightfield> filter_low_hanging_obstacles(Heightfield heightfield, const VoxelParams& params,
                                                 BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  const std::size_t columns =
      heightfield.column_first.empty() ? 0 : heightfield.column_first.size() - 1;
  const int climb = params.walkable_climb;
  std::atomic<bool> cancelled{false};
  parallel_for(ctx.threads(), 0, columns, 4096, [&](std::size_t c0, std::size_t c1) {
    if (ctx.cancelled()) {
      cancelled.store(true, std::memory_order_relaxed);
      return;
    }
    for (std::size_t c = c0; c < c1; ++c) {
      bool previous_walkable = false;
      std::uint8_t previous_area = kNullArea;
      int previous_top = 0;
      for (std::uint32_t i = heightfield.first(c); i < heightfield.end(c); ++i) {
        Span& span = heightfield.spans[i];
        const bool walkable = span.area != kNullArea;
        if (!walkable && previous_walkable && std::abs(int{span.max} - previous_top) <= climb)
          span.area = previous_area;
        previous_walkable = walkable;
        previous_area = span.area;
        previous_top = span.max;
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
