// The obstacle field (thesis §5.2) for a cylinder of the agent's radius and height: each solid
// span [min, max) blocks, in its own column and in every column within the radius, the feet
// heights [min - ceil(height / ch), max). Per column the blocked intervals are sorted and merged;
// a merged run's top is a walkable voxel when it is the floor of an open span. Rows run in
// parallel into per-row buffers joined in row order, so the output is thread-count independent.
#include "leapnav/jumplinks/obstacle_field.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "leapnav/core/parallel.hpp"

namespace leapnav::jump {

namespace {

struct Offset {
  int dx = 0;
  int dz = 0;
};

std::vector<Offset> blocking_offsets(float radius, float cell_size, int& reach) {
  reach = 0;
  std::vector<Offset> offsets;
  const double r = radius;
  const double cs = cell_size;
  const int limit = static_cast<int>(std::ceil(r / cs)) + 1;
  for (int dz = -limit; dz <= limit; ++dz) {
    for (int dx = -limit; dx <= limit; ++dx) {
      const double gx = std::max(std::abs(dx) - 1, 0) * cs;
      const double gz = std::max(std::abs(dz) - 1, 0) * cs;
      const bool self = dx == 0 && dz == 0;
      if (self || gx * gx + gz * gz < r * r) {
        offsets.push_back({dx, dz});
        reach = std::max(reach, std::max(std::abs(dx), std::abs(dz)));
      }
    }
  }
  return offsets;
}

}  // namespace

Result<ObstacleField> build_obstacle_field(const voxel::Heightfield& solid,
                                           const voxel::CompactHeightfield& open,
                                           const AgentConfig& agent, BuildContext& ctx) {
  auto timer = ctx.scoped_timer("jump_obstacles");
  const GridSpec& grid = solid.grid;
  if (!(grid == open.grid))
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: solid and compact heightfields have different grids");
  if (!(agent.height > 0.0F) || !(agent.radius >= 0.0F) || !std::isfinite(agent.height) ||
      !std::isfinite(agent.radius))
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: agent height must be > 0 and radius >= 0");
  const auto columns = static_cast<std::size_t>(grid.column_count());
  if (solid.column_first.size() != columns + 1 || open.column_first.size() != columns + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: heightfield column arrays do not match the grid");

  ObstacleField field;
  field.grid = grid;
  field.grow_down =
      static_cast<int>(std::ceil(static_cast<double>(agent.height) / grid.cell_height));
  const std::vector<Offset> offsets = blocking_offsets(agent.radius, grid.cell_size, field.reach);
  LEAPNAV_TRY(ctx.check_memory("obstacle field", static_cast<std::uint64_t>(solid.spans.size()) *
                                                     offsets.size() * sizeof(ObstacleSpan)));

  const auto width = static_cast<std::size_t>(grid.width);
  const auto depth = static_cast<std::size_t>(grid.depth);
  std::vector<std::vector<ObstacleSpan>> row_spans(depth);
  std::vector<std::uint32_t> counts(columns, 0);
  const int grow = field.grow_down;
  parallel_for(ctx.threads(), 0, depth, 4, [&](std::size_t z0, std::size_t z1) {
    std::vector<std::pair<int, int>> intervals;
    for (std::size_t zs = z0; zs < z1; ++zs) {
      const int z = static_cast<int>(zs);
      std::vector<ObstacleSpan>& out = row_spans[zs];
      for (std::size_t xs = 0; xs < width; ++xs) {
        const int x = static_cast<int>(xs);
        intervals.clear();
        for (const Offset& o : offsets) {
          const int nx = x + o.dx;
          const int nz = z + o.dz;
          if (!grid.in_bounds(nx, nz)) continue;
          const std::size_t c = grid.column_index(nx, nz);
          for (std::uint32_t s = solid.first(c); s < solid.end(c); ++s) {
            const voxel::Span& span = solid.spans[s];
            intervals.emplace_back(std::max(0, static_cast<int>(span.min) - grow),
                                   static_cast<int>(span.max));
          }
        }
        std::sort(intervals.begin(), intervals.end());
        const std::size_t column = grid.column_index(x, z);
        const std::size_t before = out.size();
        for (const auto& [lo, hi] : intervals) {
          if (hi <= lo) continue;
          if (out.size() > before && lo <= static_cast<int>(out.back().max)) {
            out.back().max =
                static_cast<std::uint16_t>(std::max(static_cast<int>(out.back().max), hi));
          } else {
            out.push_back(
                {static_cast<std::uint16_t>(lo), static_cast<std::uint16_t>(hi), kNoWalkableSpan});
          }
        }
        // a merged run's top is walkable when an open span's floor sits exactly there
        std::size_t k = before;
        for (std::uint32_t s = open.first(column); s < open.end(column); ++s) {
          const std::uint16_t y = open.spans[s].y;
          while (k < out.size() && out[k].max < y) ++k;
          if (k < out.size() && out[k].max == y) out[k].walkable_span = s;
        }
        counts[column] = static_cast<std::uint32_t>(out.size() - before);
      }
    }
  });

  field.column_first.assign(columns + 1, 0);
  for (std::size_t c = 0; c < columns; ++c)
    field.column_first[c + 1] = field.column_first[c] + counts[c];
  field.spans.reserve(field.column_first[columns]);
  for (auto& row : row_spans) {
    field.spans.insert(field.spans.end(), row.begin(), row.end());
    std::vector<ObstacleSpan>().swap(row);
  }
  return field;
}

Status validate(const ObstacleField& field, const voxel::CompactHeightfield& open) {
  const auto columns = static_cast<std::size_t>(field.grid.column_count());
  if (field.column_first.size() != columns + 1 || field.column_first.front() != 0 ||
      field.column_first.back() != field.spans.size())
    return make_error(ErrorCode::Internal, "obstacle field: column_first does not match spans");
  for (std::size_t c = 0; c < columns; ++c) {
    if (field.column_first[c] > field.column_first[c + 1])
      return make_error(ErrorCode::Internal, "obstacle field: column_first not monotone");
    for (std::uint32_t s = field.first(c); s < field.end(c); ++s) {
      const ObstacleSpan& span = field.spans[s];
      if (span.min >= span.max)
        return make_error(ErrorCode::Internal,
                          "obstacle field: empty span in column " + std::to_string(c));
      if (s > field.first(c) && field.spans[s - 1].max >= span.min)
        return make_error(ErrorCode::Internal,
                          "obstacle field: spans overlap or touch in column " + std::to_string(c));
      if (span.walkable_span != kNoWalkableSpan) {
        if (span.walkable_span < open.first(c) || span.walkable_span >= open.end(c) ||
            open.spans[span.walkable_span].y != span.max)
          return make_error(
              ErrorCode::Internal,
              "obstacle field: walkable span does not sit on its run's top in column " +
                  std::to_string(c));
      }
    }
  }
  return {};
}

}  // namespace leapnav::jump
