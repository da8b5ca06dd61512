// Low-clearance filter (pipeline.md §1, filter 3): a walkable span whose open space up to the
// next solid span is shorter than walkable_height becomes unwalkable. The top span of a column
// is open to the sky (the grid's top is not a ceiling), as kUnboundedClearance says.
#include "filter_rules.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/voxel/filters.hpp"

namespace leapnav::voxel {

Result<Heightfield> filter_low_clearance(Heightfield heightfield, const VoxelParams& params,
                                         BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  const std::size_t columns =
      heightfield.column_first.empty() ? 0 : heightfield.column_first.size() - 1;
  parallel_for(ctx.threads(), 0, columns, 4096, [&](std::size_t c0, std::size_t c1) {
    if (ctx.cancelled()) return;
    for (std::size_t c = c0; c < c1; ++c) {
      const std::uint32_t end = heightfield.end(c);
      for (std::uint32_t i = heightfield.first(c); i < end; ++i) {
        Span& span = heightfield.spans[i];
        if (span.area != kNullArea &&
            detail::lacks_clearance(heightfield, i, end, params.walkable_height))
          span.area = kNullArea;
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("filter"));
  return heightfield;
}

}  // namespace leapnav::voxel
