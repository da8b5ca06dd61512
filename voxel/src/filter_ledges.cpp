// Ledge filter (pipeline.md §1, filter 2): a walkable span next to a drop of more than
// walkable_climb, or whose reachable neighbour floors differ by more than walkable_climb (a steep
// slope), becomes unwalkable. Only neighbour gaps overlapping the span's open space by at least
// walkable_height count; the gap below a column's first span has its floor at minus infinity and
// the grid border is a drop. Reads heights only, so columns are independent.
#include <atomic>

#include "filter_rules.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/filters.hpp"

namespace leapnav::voxel {

Result<Heightfield> filter_ledges(Heightfield heightfield, const VoxelParams& params,
                                  BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  const GridSpec& grid = heightfield.grid;
  parallel_for(ctx.threads(), 0, static_cast<std::size_t>(grid.depth), 16,
               [&](std::size_t z0, std::size_t z1) {
                 if (ctx.cancelled()) return;
                 for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
                   for (int x = 0; x < grid.width; ++x) {
                     const std::size_t column = grid.column_index(x, z);
                     const std::uint32_t end = heightfield.end(column);
                     for (std::uint32_t i = heightfield.first(column); i < end; ++i) {
                       Span& span = heightfield.spans[i];
                       if (span.area != kNullArea &&
                           detail::is_ledge(heightfield, x, z, i, end, params.walkable_climb,
                                            params.walkable_height))
                         span.area = kNullArea;
                     }
                   }
                 }
               });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
