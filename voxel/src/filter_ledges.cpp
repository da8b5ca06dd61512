// Ledge filter (pipeline.md §1, filter 2): a walkable span next to a drop of more than
// walkable_climb, or whose reachable neighbour floors differ by more than walkable_climb (a steep
// slope), becomes unwalkable. Only neighbour gaps overlapping the span's open space by at least
// walkable_height count; the gap below a column's first span has its floor at minus infinity and
// the grid border is a drop. Reads heights only, so columns are independent.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <limits>

#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/filters.hpp"

namespace leapnav::voxel {
namespace {

constexpr int kOpenTop = 1 << 30;

}  // namespace

Result<Heightfield> filter_ledges(Heightfield heightfield, const VoxelParams& params,
                                  BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  const GridSpec& grid = heightfield.grid;
  const int climb = params.walkable_climb;
  const int clearance = params.walkable_height;
  std::atomic<bool> cancelled{false};
  parallel_for(ctx.threads(), 0, static_cast<std::size_t>(grid.depth), 16,
               [&](std::size_t z0, std::size_t z1) {
                 if (ctx.cancelled()) {
                   cancelled.store(true, std::memory_order_relaxed);
                   return;
                 }
                 for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
                   for (int x = 0; x < grid.width; ++x) {
                     const std::size_t column = grid.column_index(x, z);
                     const std::uint32_t end = heightfield.end(column);
                     for (std::uint32_t i = heightfield.first(column); i < end; ++i) {
                       Span& span = heightfield.spans[i];
                       if (span.area == kNullArea) continue;
                       const int floor = span.max;
                       const int ceiling =
                           i + 1 < end ? int{heightfield.spans[i + 1].min} : kOpenTop;
                       bool drop = false;
                       int lowest = floor;
                       int highest = floor;
                       for (int dir = 0; dir < 4 && !drop; ++dir) {
                         const int nx = x + dir_dx(dir);
                         const int nz = z + dir_dz(dir);
                         if (!grid.in_bounds(nx, nz)) {
                           drop = true;
                           break;
                         }
                         const std::size_t neighbor = grid.column_index(nx, nz);
                         const std::uint32_t n_first = heightfield.first(neighbor);
                         const std::uint32_t n_end = heightfield.end(neighbor);
                         const int below_top =
                             n_first < n_end ? int{heightfield.spans[n_first].min} : kOpenTop;
                         if (std::min(ceiling, below_top) - floor >= clearance) {
                           drop = true;
                           break;
                         }
                         for (std::uint32_t j = n_first; j < n_end; ++j) {
                           const int n_floor = heightfield.spans[j].max;
                           const int n_ceiling =
                               j + 1 < n_end ? int{heightfield.spans[j + 1].min} : kOpenTop;
                           if (std::min(ceiling, n_ceiling) - std::max(floor, n_floor) < clearance)
                             continue;
                           const int diff = n_floor - floor;
                           if (diff < -climb) {
                             drop = true;
                             break;
                           }
                           if (diff <= climb) {
                             lowest = std::min(lowest, n_floor);
                             highest = std::max(highest, n_floor);
                           }
                         }
                       }
                       if (drop || highest - lowest > climb) span.area = kNullArea;
                     }
                   }
                 }
               });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
