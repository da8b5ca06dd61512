// Low-hanging obstacle filter (pipeline.md §1, filter 1): curbs and stair steps at most
// walkable_climb above walkable ground become walkable. Uses the walkability before the filter,
// so it never cascades over two stacked obstacles. Heights and layout are unchanged.
#include "filter_rules.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/filters.hpp"

namespace leapnav::voxel {

Result<Heightfield> filter_low_hanging_obstacles(Heightfield heightfield, const VoxelParams& params,
                                                 BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  const std::size_t columns =
      heightfield.column_first.empty() ? 0 : heightfield.column_first.size() - 1;
  parallel_for(ctx.threads(), 0, columns, 4096, [&](std::size_t c0, std::size_t c1) {
    if (ctx.cancelled()) return;
    for (std::size_t c = c0; c < c1; ++c)
      detail::lift_low_hanging(heightfield, c, params.walkable_climb);
  });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
