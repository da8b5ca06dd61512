// The three walkability filters fused into one pass over the columns (pipeline.md §1). Exact:
// every rule reads only heights of neighbouring columns (which no filter changes) and areas of
// its own column, so applying low-hanging, then low clearance and ledges per column gives the
// same areas as three full passes in the specified order.
#include <cstddef>

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
  // note: local copies of the pointers and sizes (a byte store to an area may alias anything
  // reached through references, which would be reloaded per span); a column on the grid border
  // loses every walkable span (the border is a drop), an inner one looks its 4 neighbour columns
  // up once for all its spans
  const std::ptrdiff_t width = grid.width;
  const int depth = grid.depth;
  const std::uint32_t* const first = heightfield.column_first.data();
  Span* const spans = heightfield.spans.data();
  parallel_for(
      ctx.threads(), 0, static_cast<std::size_t>(depth), 16, [&](std::size_t z0, std::size_t z1) {
        if (ctx.cancelled()) return;
        for (auto z = static_cast<std::ptrdiff_t>(z0); z < static_cast<std::ptrdiff_t>(z1); ++z) {
          const bool border_row = z == 0 || z == depth - 1;
          for (std::ptrdiff_t x = 0; x < width; ++x) {
            const std::ptrdiff_t c = z * width + x;
            const std::uint32_t begin = first[c];
            const std::uint32_t end = first[c + 1];
            if (begin == end) continue;
            detail::lift_low_hanging(spans, begin, end, climb);
            if (border_row || x == 0 || x == width - 1) {
              for (std::uint32_t i = begin; i < end; ++i) spans[i].area = kNullArea;
              continue;
            }
            const detail::NeighborColumns n{
                {first[c - 1], first[c + width], first[c + 1], first[c - width]},
                {first[c], first[c + width + 1], first[c + 2], first[c - width + 1]}};
            for (std::uint32_t i = begin; i < end; ++i) {
              Span& span = spans[i];
              if (span.area == kNullArea) continue;
              if (detail::lacks_clearance(spans, i, end, clearance) ||
                  detail::is_ledge_among(spans, n, i, end, climb, clearance))
                span.area = kNullArea;
            }
          }
        }
      });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
