// Invariant checks and content hashes of the voxel stage's data (pipeline.md §1). validate()
// checks the CSR layout, span order, area ids, connection symmetry and rules, and distances;
// content_hash() hashes field values, never padded structs.
#include "leapnav/voxel/heightfield.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "leapnav/core/hash.hpp"

namespace leapnav::voxel {
namespace {

constexpr int kOpenTop = 1 << 30;

Status invalid(const std::string& what) {
  return make_error(ErrorCode::Internal, what);
}

std::string where(const GridSpec& grid, std::size_t column) {
  const auto width = static_cast<std::size_t>(std::max(grid.width, 1));
  return "column (" + std::to_string(column % width) + ", " + std::to_string(column / width) + ")";
}

Status validate_layout(const char* kind, const GridSpec& grid,
                       const std::vector<std::uint32_t>& column_first, std::size_t span_count) {
  if (grid.width <= 0 || grid.depth <= 0 || grid.height <= 0 || grid.height > kMaxGridHeight)
    return invalid(std::string(kind) + ": grid dimensions are not positive or too large");
  const auto columns = static_cast<std::size_t>(grid.column_count());
  if (column_first.size() != columns + 1)
    return invalid(std::string(kind) + ": column_first has " + std::to_string(column_first.size()) +
                   " entries for " + std::to_string(columns) + " columns (+1)");
  if (column_first.front() != 0)
    return invalid(std::string(kind) + ": column_first does not start at 0");
  for (std::size_t c = 0; c < columns; ++c) {
    if (column_first[c + 1] < column_first[c])
      return invalid(std::string(kind) + ": column_first decreases at " + where(grid, c));
  }
  if (column_first.back() != span_count)
    return invalid(std::string(kind) + ": column_first ends at " +
                   std::to_string(column_first.back()) + " but there are " +
                   std::to_string(span_count) + " spans");
  return {};
}

int open_top(const CompactSpan& span) {
  return span.clearance == kUnboundedClearance ? kOpenTop : int{span.y} + int{span.clearance};
}

void hash_grid(ContentHasher& hasher, const GridSpec& grid) {
  hasher.add_pod(grid.origin.x);
  hasher.add_pod(grid.origin.y);
  hasher.add_pod(grid.origin.z);
  hasher.add_pod(grid.cell_size);
  hasher.add_pod(grid.cell_height);
  hasher.add_pod(static_cast<std::int32_t>(grid.width));
  hasher.add_pod(static_cast<std::int32_t>(grid.depth));
  hasher.add_pod(static_cast<std::int32_t>(grid.height));
}

}  // namespace

Status validate(const Heightfield& heightfield) {
  const GridSpec& grid = heightfield.grid;
  LEAPNAV_TRY(
      validate_layout("heightfield", grid, heightfield.column_first, heightfield.spans.size()));
  const auto columns = static_cast<std::size_t>(grid.column_count());
  for (std::size_t c = 0; c < columns; ++c) {
    const std::uint32_t end = heightfield.end(c);
    for (std::uint32_t i = heightfield.first(c); i < end; ++i) {
      const Span& span = heightfield.spans[i];
      if (span.min >= span.max)
        return invalid("heightfield: an empty span [" + std::to_string(span.min) + ", " +
                       std::to_string(span.max) + ") in " + where(grid, c));
      if (span.max > grid.height)
        return invalid("heightfield: a span above the grid top in " + where(grid, c));
      if (span.area > kWalkableArea)
        return invalid("heightfield: invalid area " + std::to_string(span.area) + " in " +
                       where(grid, c));
      if (i + 1 < end && heightfield.spans[i + 1].min <= span.max)
        return invalid("heightfield: spans overlap, touch or are unsorted in " + where(grid, c));
    }
  }
  return {};
}

Status validate(const CompactHeightfield& compact) {
  const GridSpec& grid = compact.grid;
  LEAPNAV_TRY(
      validate_layout("compact heightfield", grid, compact.column_first, compact.spans.size()));
  const std::size_t total = compact.spans.size();
  if (compact.areas.size() != total)
    return invalid("compact heightfield: " + std::to_string(compact.areas.size()) + " areas for " +
                   std::to_string(total) + " spans");
  if (!compact.distance.empty() && compact.distance.size() != total)
    return invalid("compact heightfield: " + std::to_string(compact.distance.size()) +
                   " distances for " + std::to_string(total) + " spans");
  if (compact.walkable_height < 1 || compact.walkable_climb < 0)
    return invalid("compact heightfield: walkable_height < 1 or walkable_climb < 0");
  std::uint16_t max_distance = 0;
  for (int z = 0; z < grid.depth; ++z) {
    for (int x = 0; x < grid.width; ++x) {
      const std::size_t c = grid.column_index(x, z);
      const std::uint32_t first = compact.first(c);
      const std::uint32_t end = compact.end(c);
      for (std::uint32_t i = first; i < end; ++i) {
        const CompactSpan& span = compact.spans[i];
        if (span.y > grid.height)
          return invalid("compact heightfield: a floor above the grid top in " + where(grid, c));
        if (i + 1 < end && open_top(span) >= int{compact.spans[i + 1].y})
          return invalid("compact heightfield: open spans overlap or are unsorted in " +
                         where(grid, c));
        if (!is_compact_area(compact.areas[i]))
          return invalid("compact heightfield: invalid area " + std::to_string(compact.areas[i]) +
                         " in " + where(grid, c));
        for (int dir = 0; dir < 4; ++dir) {
          const std::uint8_t link = span.neighbor[static_cast<std::size_t>(dir)];
          if (link == kNotConnected) continue;
          const int nx = x + dir_dx(dir);
          const int nz = z + dir_dz(dir);
          if (!grid.in_bounds(nx, nz))
            return invalid("compact heightfield: a connection leaves the grid at " +
                           where(grid, c));
          const std::size_t nc = grid.column_index(nx, nz);
          if (link >= compact.end(nc) - compact.first(nc))
            return invalid("compact heightfield: a connection index is out of range at " +
                           where(grid, c));
          const std::uint32_t j = compact.first(nc) + link;
          const CompactSpan& other = compact.spans[j];
          if (other.neighbor[static_cast<std::size_t>(opposite(dir))] != i - first)
            return invalid("compact heightfield: a connection is not symmetric at " +
                           where(grid, c));
          if (std::abs(int{other.y} - int{span.y}) > compact.walkable_climb)
            return invalid("compact heightfield: a connection exceeds the climb at " +
                           where(grid, c));
          if (std::min(open_top(span), open_top(other)) - std::max(int{span.y}, int{other.y}) <
              compact.walkable_height)
            return invalid("compact heightfield: a connection lacks clearance at " +
                           where(grid, c));
        }
        if (!compact.distance.empty()) {
          if (compact.areas[i] == kNullArea && compact.distance[i] != 0)
            return invalid("compact heightfield: an unwalkable span has a distance at " +
                           where(grid, c));
          max_distance = std::max(max_distance, compact.distance[i]);
        }
      }
    }
  }
  if (compact.max_distance != max_distance)
    return invalid("compact heightfield: max_distance " + std::to_string(compact.max_distance) +
                   " differs from the largest distance " + std::to_string(max_distance));
  return {};
}

std::uint64_t content_hash(const Heightfield& heightfield) {
  ContentHasher hasher;
  hasher.add_string("leapnav.voxel.Heightfield");
  hash_grid(hasher, heightfield.grid);
  hasher.add_vector(heightfield.column_first);
  hasher.add_pod(static_cast<std::uint64_t>(heightfield.spans.size()));
  for (const Span& span : heightfield.spans) {
    hasher.add_pod(std::uint64_t{span.min} | std::uint64_t{span.max} << 16 |
                   std::uint64_t{span.area} << 32);
  }
  return hasher.digest();
}

std::uint64_t content_hash(const CompactHeightfield& compact) {
  ContentHasher hasher;
  hasher.add_string("leapnav.voxel.CompactHeightfield");
  hash_grid(hasher, compact.grid);
  hasher.add_pod(static_cast<std::int32_t>(compact.walkable_height));
  hasher.add_pod(static_cast<std::int32_t>(compact.walkable_climb));
  hasher.add_vector(compact.column_first);
  hasher.add_pod(static_cast<std::uint64_t>(compact.spans.size()));
  for (const CompactSpan& span : compact.spans) {
    std::uint64_t word = std::uint64_t{span.y} | std::uint64_t{span.clearance} << 16;
    for (std::size_t d = 0; d < 4; ++d) word |= std::uint64_t{span.neighbor[d]} << (32 + 8 * d);
    hasher.add_pod(word);
  }
  hasher.add_vector(compact.areas);
  hasher.add_vector(compact.distance);
  hasher.add_pod(compact.max_distance);
  return hasher.digest();
}

}  // namespace leapnav::voxel
