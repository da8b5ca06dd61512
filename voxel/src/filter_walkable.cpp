// The three walkability filters fused into one pass over the columns (pipeline.md §1). Exact:
// every rule reads only heights of neighbouring columns (which no filter changes) and areas of
// its own column, so applying low-hanging, then low clearance and ledges per column gives the
// same areas as three full passes in the specified order.
#include "filter_rules.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/filters.hpp"

namespace leapnav::voxel {

Result<Heightfield> filter_walkable(Heightfield heightfield, const VoxelParams& params,
                                    BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  const GridSpec& grid = heightfield.grid;
  if (heightfield.column_first.size() != static_cast<std::size_t>(grid.column_count()) + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "filter: the heightfield's column table does not match its grid");
  const int climb = params.walkable_climb;
  const int clearance = params.walkable_height;
  parallel_for(ctx.threads(), 0, static_cast<std::size_t>(grid.depth), 16,
               [&](std::size_t z0, std::size_t z1) {
                 if (ctx.cancelled()) return;
                 for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
                   for (int x = 0; x < grid.width; ++x) {
                     const std::size_t column = grid.column_index(x, z);
                     detail::lift_low_hanging(heightfield, column, climb);
                     const std::uint32_t end = heightfield.end(column);
                     for (std::uint32_t i = heightfield.first(column); i < end; ++i) {
                       Span& span = heightfield.spans[i];
                       if (span.area == kNullArea) continue;
                       if (detail::lacks_clearance(heightfield, i, end, clearance) ||
                           detail::is_ledge(heightfield, x, z, i, end, climb, clearance))
                         span.area = kNullArea;
                     }
                   }
                 }
               });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
