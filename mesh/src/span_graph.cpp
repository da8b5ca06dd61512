// Internal to mesh/: input checks for CompactHeightfield and the flat span connection table used
// by regions.cpp and contours.cpp. Built per column in parallel into per-span slots.
#include "span_graph.hpp"

#include <string>

#include "array_checks.hpp"
#include "leapnav/core/parallel.hpp"

namespace leapnav::mesh::detail {

namespace {

Error bad_input(std::string_view stage, const std::string& what) {
  return make_error(ErrorCode::InvalidArgument,
                    std::string(stage) + ": compact heightfield " + what);
}

}  // namespace

Status check_heightfield_arrays(const voxel::CompactHeightfield& chf, std::string_view stage,
                                bool need_distance) {
  const GridSpec& grid = chf.grid;
  if (grid.width < 0 || grid.depth < 0 || grid.width >= kMaxGridSide ||
      grid.depth >= kMaxGridSide) {
    return bad_input(stage, "has an invalid grid size " + std::to_string(grid.width) + " x " +
                                std::to_string(grid.depth));
  }
  const auto columns = static_cast<std::size_t>(grid.column_count());
  if (chf.column_first.size() != columns + 1) {
    return bad_input(stage, "has " + std::to_string(chf.column_first.size()) +
                                " column offsets for " + std::to_string(columns) + " columns");
  }
  if (chf.column_first.front() != 0 || chf.column_first.back() != chf.spans.size()) {
    return bad_input(
        stage, "column offsets do not cover the " + std::to_string(chf.spans.size()) + " spans");
  }
  if (any_decrease(chf.column_first.data(), chf.column_first.size())) {
    for (std::size_t c = 0; c < columns; ++c) {
      if (chf.column_first[c] > chf.column_first[c + 1]) {
        return bad_input(stage, "column offsets decrease at column " + std::to_string(c));
      }
    }
  }
  if (chf.areas.size() != chf.spans.size()) {
    return bad_input(stage, "has " + std::to_string(chf.areas.size()) + " areas for " +
                                std::to_string(chf.spans.size()) + " spans");
  }
  if (need_distance && chf.distance.size() != chf.spans.size()) {
    return bad_input(stage, "has " + std::to_string(chf.distance.size()) + " distances for " +
                                std::to_string(chf.spans.size()) +
                                " spans (distance field not computed)");
  }
  return {};
}

Status check_heightfield(const voxel::CompactHeightfield& chf, std::string_view stage,
                         bool need_distance) {
  LEAPNAV_TRY(check_heightfield_arrays(chf, stage, need_distance));
  const GridSpec& grid = chf.grid;
  const auto width = static_cast<std::size_t>(grid.width);
  for (int z = 0; z < grid.depth; ++z) {
    const std::size_t row = static_cast<std::size_t>(z) * width;
    for (int x = 0; x < grid.width; ++x) {
      const std::size_t c = row + static_cast<std::size_t>(x);
      for (std::uint32_t i = chf.column_first[c]; i < chf.column_first[c + 1]; ++i) {
        const auto& links = chf.spans[i].neighbor;
        for (int dir = 0; dir < 4; ++dir) {
          const std::uint8_t link = links[static_cast<std::size_t>(dir)];
          if (link == voxel::kNotConnected) continue;
          const int nx = x + voxel::dir_dx(dir);
          const int nz = z + voxel::dir_dz(dir);
          if (!grid.in_bounds(nx, nz)) {
            return bad_input(stage, "span " + std::to_string(i) + " links out of the grid");
          }
          const std::size_t nc = grid.column_index(nx, nz);
          if (link >= chf.column_first[nc + 1] - chf.column_first[nc]) {
            return bad_input(stage, "span " + std::to_string(i) + " links to a missing span");
          }
        }
      }
    }
  }
  return {};
}

SpanGraph make_span_graph(const voxel::CompactHeightfield& chf, int threads) {
  SpanGraph graph;
  graph.width = chf.grid.width;
  graph.depth = chf.grid.depth;
  graph.column.resize(chf.spans.size());
  graph.links.resize(chf.spans.size() * 4);
  const auto depth = static_cast<std::size_t>(chf.grid.depth);
  const auto width = static_cast<std::size_t>(chf.grid.width);
  // column offsets of the four directions (0 = -x, 1 = +z, 2 = +x, 3 = -z)
  const std::ptrdiff_t step[4] = {-1, static_cast<std::ptrdiff_t>(width), 1,
                                  -static_cast<std::ptrdiff_t>(width)};
  const std::uint32_t* column_first = chf.column_first.data();
  parallel_for(threads, 0, depth, 16, [&](std::size_t z0, std::size_t z1) {
    for (std::size_t c = z0 * width; c < z1 * width; ++c) {
      for (std::uint32_t i = column_first[c]; i < column_first[c + 1]; ++i) {
        graph.column[i] = static_cast<std::uint32_t>(c);
        const auto& links = chf.spans[i].neighbor;
        std::uint32_t* out = graph.links.data() + static_cast<std::size_t>(i) * 4;
        for (std::size_t dir = 0; dir < 4; ++dir) {
          const std::uint8_t link = links[dir];
          out[dir] = link == voxel::kNotConnected
                         ? kNoSpan
                         : column_first[static_cast<std::ptrdiff_t>(c) + step[dir]] + link;
        }
      }
    }
  });
  return graph;
}

Result<SpanGraph> make_checked_span_graph(const voxel::CompactHeightfield& chf,
                                          std::string_view stage, int threads) {
  const GridSpec& grid = chf.grid;
  SpanGraph graph;
  graph.width = grid.width;
  graph.depth = grid.depth;
  graph.column.resize(chf.spans.size());
  graph.links.resize(chf.spans.size() * 4);
  const auto depth = static_cast<std::size_t>(grid.depth);
  const auto width = static_cast<std::size_t>(grid.width);
  const std::ptrdiff_t step[4] = {-1, static_cast<std::ptrdiff_t>(width), 1,
                                  -static_cast<std::ptrdiff_t>(width)};
  const std::uint32_t* column_first = chf.column_first.data();
  constexpr std::size_t kRows = 16;
  // per chunk of rows, the first bad span in scan order (z, x, span) and whether it links out of
  // the grid; the first failing chunk names the same span as a sequential scan
  struct Failure {
    std::uint32_t span = kNoSpan;
    bool out_of_grid = false;
  };
  std::vector<Failure> failures(chunk_count(0, depth, kRows));
  parallel_for(threads, 0, depth, kRows, [&](std::size_t z0, std::size_t z1) {
    for (std::size_t zz = z0; zz < z1; ++zz) {
      const int z = static_cast<int>(zz);
      for (int x = 0; x < grid.width; ++x) {
        const std::size_t c = zz * width + static_cast<std::size_t>(x);
        const bool border = x == 0 || z == 0 || x + 1 == grid.width || z + 1 == grid.depth;
        for (std::uint32_t i = column_first[c]; i < column_first[c + 1]; ++i) {
          graph.column[i] = static_cast<std::uint32_t>(c);
          const auto& links = chf.spans[i].neighbor;
          std::uint32_t* out = graph.links.data() + static_cast<std::size_t>(i) * 4;
          for (int dir = 0; dir < 4; ++dir) {
            const std::uint8_t link = links[static_cast<std::size_t>(dir)];
            if (link == voxel::kNotConnected) {
              out[dir] = kNoSpan;
              continue;
            }
            const bool inside =
                !border || grid.in_bounds(x + voxel::dir_dx(dir), z + voxel::dir_dz(dir));
            const auto nc = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(c) + step[dir]);
            if (!inside || link >= column_first[nc + 1] - column_first[nc]) {
              failures[z0 / kRows] = {i, !inside};
              return;
            }
            out[dir] = column_first[nc] + link;
          }
        }
      }
    }
  });
  for (const Failure& failure : failures) {
    if (failure.span == kNoSpan) continue;
    return bad_input(
        stage, "span " + std::to_string(failure.span) +
                   (failure.out_of_grid ? " links out of the grid" : " links to a missing span"));
  }
  return graph;
}

}  // namespace leapnav::mesh::detail
