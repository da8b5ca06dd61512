// The compact (open-space) heightfield (pipeline.md §1): one open span above every walkable solid
// span, in CSR columns, with 4-neighbour connections. A connection needs |dy| <= walkable_climb
// and an open-interval overlap of at least walkable_height; the lowest such neighbour is taken,
// and only mutual links are kept, so connections are symmetric by construction.
#include "leapnav/voxel/compact.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <string>

#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {
namespace {

constexpr int kOpenTop = 1 << 30;

int open_top(const CompactSpan& span) {
  return span.clearance == kUnboundedClearance ? kOpenTop : int{span.y} + int{span.clearance};
}

}  // namespace

Result<CompactHeightfield> build_compact(const Heightfield& solid, const VoxelParams& params,
                                         BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("compact"));
  const GridSpec& grid = solid.grid;
  const std::size_t columns = static_cast<std::size_t>(grid.column_count());
  if (solid.column_first.size() != columns + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "build_compact: the heightfield's column table does not match its grid");
  const int threads = ctx.threads();
  std::atomic<bool> cancelled{false};

  CompactHeightfield out;
  out.grid = grid;
  out.walkable_height = params.walkable_height;
  out.walkable_climb = params.walkable_climb;
  LEAPNAV_TRY(ctx.check_memory("compact: column table", (columns + 1) * sizeof(std::uint32_t)));
  out.column_first.assign(columns + 1, 0);

  // count walkable spans per column and per fixed chunk of columns, then prefix sums: over the
  // chunks, then inside each chunk in parallel
  constexpr std::size_t kColumnChunk = 4096;
  std::vector<std::uint64_t> chunk_start(chunk_count(0, columns, kColumnChunk) + 1, 0);
  parallel_for(threads, 0, columns, kColumnChunk, [&](std::size_t c0, std::size_t c1) {
    std::uint64_t in_chunk = 0;
    for (std::size_t c = c0; c < c1; ++c) {
      std::uint32_t count = 0;
      for (std::uint32_t i = solid.first(c); i < solid.end(c); ++i)
        count += solid.spans[i].area != kNullArea ? 1U : 0U;
      out.column_first[c + 1] = count;
      in_chunk += count;
    }
    chunk_start[c0 / kColumnChunk + 1] = in_chunk;
  });
  for (std::size_t k = 1; k < chunk_start.size(); ++k) chunk_start[k] += chunk_start[k - 1];
  // note: at most the solid span count, which 32-bit column offsets bound
  const std::size_t total = chunk_start.back();
  parallel_for(threads, 0, columns, kColumnChunk, [&](std::size_t c0, std::size_t c1) {
    auto running = static_cast<std::uint32_t>(chunk_start[c0 / kColumnChunk]);
    for (std::size_t c = c0; c < c1; ++c) {
      running += out.column_first[c + 1];
      out.column_first[c + 1] = running;
    }
  });
  LEAPNAV_TRY(
      ctx.check_memory("compact: spans", total * (sizeof(CompactSpan) + sizeof(std::uint8_t))));
  out.spans.resize(total);
  out.areas.resize(total);

  parallel_for(threads, 0, columns, 4096, [&](std::size_t c0, std::size_t c1) {
    for (std::size_t c = c0; c < c1; ++c) {
      std::uint32_t k = out.column_first[c];
      const std::uint32_t end = solid.end(c);
      for (std::uint32_t i = solid.first(c); i < end; ++i) {
        const Span& span = solid.spans[i];
        if (span.area == kNullArea) continue;
        CompactSpan& open = out.spans[k];
        open.y = span.max;
        open.clearance = i + 1 < end ? static_cast<std::uint16_t>(solid.spans[i + 1].min - span.max)
                                     : kUnboundedClearance;
        out.areas[k] = span.area;
        ++k;
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("compact"));

  // connections: the lowest neighbour span that satisfies the climb and clearance rules
  const int climb = params.walkable_climb;
  const int clearance = params.walkable_height;
  std::atomic<std::uint64_t> too_deep{0};
  // note: local copies of the pointers and sizes (the byte stores of the links may alias anything
  // reached through references, which would then be reloaded per span); the neighbour columns
  // are looked up once per column, an empty range outside the grid
  const std::ptrdiff_t width = grid.width;
  const std::ptrdiff_t depth = grid.depth;
  const std::uint32_t* const column_first = out.column_first.data();
  CompactSpan* const spans = out.spans.data();
  parallel_for(
      threads, 0, static_cast<std::size_t>(grid.depth), 16, [&](std::size_t z0, std::size_t z1) {
        if (ctx.cancelled()) {
          cancelled.store(true, std::memory_order_relaxed);
          return;
        }
        std::uint64_t local_too_deep = 0;
        for (auto z = static_cast<std::ptrdiff_t>(z0); z < static_cast<std::ptrdiff_t>(z1); ++z) {
          for (std::ptrdiff_t x = 0; x < width; ++x) {
            const std::ptrdiff_t c = z * width + x;
            const std::uint32_t begin = column_first[c];
            const std::uint32_t end = column_first[c + 1];
            if (begin == end) continue;
            // per direction (0 = -x, 1 = +z, 2 = +x, 3 = -z) the neighbour column's spans
            const std::array<bool, 4> inside{x > 0, z + 1 < depth, x + 1 < width, z > 0};
            const std::array<std::ptrdiff_t, 4> neighbor{c - 1, c + width, c + 1, c - width};
            std::array<std::uint32_t, 4> n_first{};
            std::array<std::uint32_t, 4> n_end{};
            for (std::size_t dir = 0; dir < 4; ++dir) {
              if (!inside[dir]) continue;
              n_first[dir] = column_first[neighbor[dir]];
              n_end[dir] = column_first[neighbor[dir] + 1];
            }
            for (std::uint32_t i = begin; i < end; ++i) {
              CompactSpan& span = spans[i];
              const int y = span.y;
              const int top = open_top(span);
              for (std::size_t dir = 0; dir < 4; ++dir) {
                for (std::uint32_t j = n_first[dir]; j < n_end[dir]; ++j) {
                  const CompactSpan& other = spans[j];
                  if (std::abs(int{other.y} - y) > climb) continue;
                  if (std::min(top, open_top(other)) - std::max(y, int{other.y}) < clearance)
                    continue;
                  if (j - n_first[dir] >= kNotConnected) {
                    ++local_too_deep;
                  } else {
                    span.neighbor[dir] = static_cast<std::uint8_t>(j - n_first[dir]);
                  }
                  break;
                }
              }
            }
          }
        }
        too_deep.fetch_add(local_too_deep, std::memory_order_relaxed);
      });
  LEAPNAV_TRY(ctx.check_cancel("compact"));

  // keep mutual links only (decided from the links above, then applied)
  // note: a one-way link a -> b means b links to a lower span a' of a's column first; a' must
  // reach b.y + walkable_height while a.y > a'.top and a.y <= b.y + climb, which needs climb >
  // walkable_height. Below that only a link dropped for its index can be one-way.
  if (climb > clearance || too_deep.load() > 0) {
    std::vector<std::array<std::uint8_t, 4>> mutual(total);
    parallel_for(threads, 0, static_cast<std::size_t>(grid.depth), 16,
                 [&](std::size_t z0, std::size_t z1) {
                   for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z) {
                     for (int x = 0; x < grid.width; ++x) {
                       const std::size_t c = grid.column_index(x, z);
                       for (std::uint32_t i = out.first(c); i < out.end(c); ++i) {
                         auto links = out.spans[i].neighbor;
                         for (int dir = 0; dir < 4; ++dir) {
                           const auto d = static_cast<std::size_t>(dir);
                           if (links[d] == kNotConnected) continue;
                           const std::uint32_t j = out.neighbor_index(x, z, i, dir);
                           const std::uint8_t back =
                               out.spans[j].neighbor[static_cast<std::size_t>(opposite(dir))];
                           if (back == kNotConnected || back != i - out.first(c))
                             links[d] = kNotConnected;
                         }
                         mutual[i] = links;
                       }
                     }
                   }
                 });
    for (std::size_t i = 0; i < total; ++i) out.spans[i].neighbor = mutual[i];
  }

  if (too_deep.load() > 0) {
    ctx.warn("compact: " + std::to_string(too_deep.load()) +
             " connection(s) dropped: a neighbour column holds more than 254 open spans");
  }
  LEAPNAV_TRY(ctx.check_cancel("compact"));
  return out;
}

}  // namespace leapnav::voxel
