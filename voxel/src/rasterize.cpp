// Triangle rasterization into solid spans (pipeline.md §1, thesis §3.1). Exact convex-polygon
// clipping against axis-aligned planes: a triangle is cut into row slabs, each row into column
// slabs. Rows are processed in fixed bands (independent of the thread count); each band gathers
// its fragments, orders them by (column, min, max, area) and merges them, so the spans do not
// depend on triangle order or scheduling. Invariant: spans sorted, disjoint, not touching.
#include "leapnav/voxel/rasterize.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {
namespace {

// note: a fixed band height keeps clipping (which restarts at each band) and therefore the
// output independent of the thread count.
constexpr int kBandRows = 8;
// A triangle clipped by at most four planes has at most 7 vertices.
constexpr int kMaxPolyVerts = 12;

struct Poly {
  float v[kMaxPolyVerts][3];
  int count = 0;
};

// Splits `in` by the plane coord[axis] == plane into the part below (<=) and above (>=); vertices
// on the plane go to both parts.
void split_poly(const Poly& in, Poly& below, Poly& above, float plane, int axis) {
  below.count = 0;
  above.count = 0;
  if (in.count == 0) return;
  const float* a = in.v[in.count - 1];
  float da = a[axis] - plane;
  for (int i = 0; i < in.count; ++i) {
    const float* b = in.v[i];
    const float db = b[axis] - plane;
    if ((da < 0.0F && db > 0.0F) || (da > 0.0F && db < 0.0F)) {
      const float t = da / (da - db);
      float* p = below.v[below.count++];
      p[0] = a[0] + (b[0] - a[0]) * t;
      p[1] = a[1] + (b[1] - a[1]) * t;
      p[2] = a[2] + (b[2] - a[2]) * t;
      p[axis] = plane;
      float* q = above.v[above.count++];
      q[0] = p[0];
      q[1] = p[1];
      q[2] = p[2];
    }
    if (db <= 0.0F) {
      float* p = below.v[below.count++];
      p[0] = b[0];
      p[1] = b[1];
      p[2] = b[2];
    }
    if (db >= 0.0F) {
      float* p = above.v[above.count++];
      p[0] = b[0];
      p[1] = b[1];
      p[2] = b[2];
    }
    a = b;
    da = db;
  }
}

// Fragment key: local column (20 bits) | min (16) | max (16) | area (8).
constexpr int kColumnShift = 40;
constexpr std::uint64_t kSpanMask = (std::uint64_t{1} << kColumnShift) - 1;

struct Band {
  std::vector<std::uint32_t> counts;  // spans per local column
  std::vector<Span> spans;
};

struct TriangleRows {
  int first = 0;  // first row touched (may be < 0)
  int last = -1;  // last row touched (may be >= depth); last < first: skip
};

}  // namespace

Result<Heightfield> rasterize(const TriangleMesh& mesh, const TriangleAreas& areas,
                              const GridSpec& grid, const VoxelParams& params, BuildContext& ctx) {
  if (areas.area.size() != mesh.triangles.size())
    return make_error(ErrorCode::InvalidArgument,
                      "rasterize: " + std::to_string(areas.area.size()) + " triangle areas for " +
                          std::to_string(mesh.triangles.size()) + " triangles");
  if (grid.width <= 0 || grid.depth <= 0 || grid.height <= 0 || grid.height > kMaxGridHeight ||
      !(grid.cell_size > 0.0F) || !(grid.cell_height > 0.0F))
    return make_error(ErrorCode::InvalidArgument, "rasterize: the grid is empty or invalid");
  for (const auto& tri : mesh.triangles) {
    for (const std::uint32_t index : tri) {
      if (index >= mesh.vertices.size())
        return make_error(ErrorCode::IndexOutOfRange,
                          "rasterize: " + mesh.name + ": a triangle uses a missing vertex");
    }
  }

  const std::size_t columns = static_cast<std::size_t>(grid.column_count());
  const std::size_t band_count =
      (static_cast<std::size_t>(grid.depth) + kBandRows - 1) / static_cast<std::size_t>(kBandRows);
  LEAPNAV_TRY(ctx.check_memory(
      "rasterize: column tables",
      (columns + 1) * sizeof(std::uint32_t) * 2 + mesh.triangles.size() * sizeof(TriangleRows)));

  const float cs = grid.cell_size;
  const float ch = grid.cell_height;
  const Vec3 origin = grid.origin;
  const int width = grid.width;
  const int depth = grid.depth;
  const int height = grid.height;
  const float top_world = static_cast<float>(height) * ch;
  const int climb = params.walkable_climb;
  const int threads = ctx.threads();
  std::atomic<bool> cancelled{false};

  // per triangle: the rows it touches, or none when it misses the grid
  std::vector<TriangleRows> rows(mesh.triangles.size());
  parallel_for(threads, 0, mesh.triangles.size(), 4096, [&](std::size_t begin, std::size_t end) {
    for (std::size_t t = begin; t < end; ++t) {
      if (areas.area[t] == kDroppedTriangle) continue;
      const auto& tri = mesh.triangles[t];
      AABB box;
      for (const std::uint32_t index : tri) box.extend(mesh.vertices[index]);
      const float x0 = (box.min.x - origin.x) / cs;
      const float x1 = (box.max.x - origin.x) / cs;
      const float z0 = (box.min.z - origin.z) / cs;
      const float z1 = (box.max.z - origin.z) / cs;
      const float y0 = box.min.y - origin.y;
      const float y1 = box.max.y - origin.y;
      if (x1 < 0.0F || z1 < 0.0F || x0 >= static_cast<float>(width) ||
          z0 >= static_cast<float>(depth) || y1 < 0.0F || y0 > top_world)
        continue;
      rows[t].first = static_cast<int>(std::max(-1.0F, std::floor(z0)));
      rows[t].last = static_cast<int>(std::min(static_cast<float>(depth - 1), std::floor(z1)));
    }
  });

  std::vector<Band> bands(band_count);
  parallel_for(threads, 0, band_count, 1, [&](std::size_t b0, std::size_t b1) {
    std::vector<std::uint64_t> fragments;
    std::vector<std::uint64_t> sorted;
    std::vector<std::uint32_t> starts;
    for (std::size_t b = b0; b < b1; ++b) {
      if (cancelled.load(std::memory_order_relaxed) || ctx.cancelled()) {
        cancelled.store(true, std::memory_order_relaxed);
        return;
      }
      const int band_first = static_cast<int>(b) * kBandRows;
      const int band_last = std::min(depth, band_first + kBandRows) - 1;
      const std::size_t local_columns =
          static_cast<std::size_t>(band_last - band_first + 1) * static_cast<std::size_t>(width);
      fragments.clear();

      // clip every triangle touching the band into row and column cells
      for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const TriangleRows range = rows[t];
        if (range.last < band_first || range.first > band_last) continue;
        const auto& tri = mesh.triangles[t];
        const std::uint64_t area = areas.area[t];
        Poly poly;
        Poly row;
        Poly rest;
        Poly cell;
        poly.count = 3;
        for (int i = 0; i < 3; ++i) {
          const Vec3 p = mesh.vertices[tri[static_cast<std::size_t>(i)]];
          poly.v[i][0] = p.x;
          poly.v[i][1] = p.y;
          poly.v[i][2] = p.z;
        }
        int r = range.first;
        if (r < band_first) {
          split_poly(poly, row, rest, origin.z + static_cast<float>(band_first) * cs, 2);
          poly = rest;
          r = band_first;
        }
        const int r_last = std::min(range.last, band_last);
        for (; r <= r_last && poly.count >= 3; ++r) {
          split_poly(poly, row, rest, origin.z + static_cast<float>(r + 1) * cs, 2);
          poly = rest;
          if (row.count < 3) continue;
          float min_x = row.v[0][0];
          float max_x = row.v[0][0];
          for (int i = 1; i < row.count; ++i) {
            min_x = std::min(min_x, row.v[i][0]);
            max_x = std::max(max_x, row.v[i][0]);
          }
          int c = static_cast<int>(std::floor((min_x - origin.x) / cs));
          int c_last = static_cast<int>(std::floor((max_x - origin.x) / cs));
          if (c_last < 0 || c >= width) continue;
          if (c < 0) {
            split_poly(row, cell, rest, origin.x, 0);
            row = rest;
            c = 0;
          }
          c_last = std::min(c_last, width - 1);
          const std::size_t row_base =
              static_cast<std::size_t>(r - band_first) * static_cast<std::size_t>(width);
          for (; c <= c_last && row.count >= 3; ++c) {
            split_poly(row, cell, rest, origin.x + static_cast<float>(c + 1) * cs, 0);
            row = rest;
            if (cell.count < 3) continue;
            float min_y = cell.v[0][1];
            float max_y = cell.v[0][1];
            for (int i = 1; i < cell.count; ++i) {
              min_y = std::min(min_y, cell.v[i][1]);
              max_y = std::max(max_y, cell.v[i][1]);
            }
            const float low = min_y - origin.y;
            const float high = max_y - origin.y;
            if (high < 0.0F || low > top_world) continue;
            const int bottom = std::clamp(static_cast<int>(std::floor(low / ch)), 0, height - 1);
            const int top = std::clamp(static_cast<int>(std::ceil(high / ch)), bottom + 1, height);
            const std::uint64_t column = row_base + static_cast<std::size_t>(c);
            fragments.push_back(column << kColumnShift | std::uint64_t(bottom) << 24 |
                                std::uint64_t(top) << 8 | area);
          }
        }
      }

      // order fragments by column (counting sort), then by (min, max, area) within a column
      starts.assign(local_columns + 1, 0);
      for (const std::uint64_t f : fragments) ++starts[(f >> kColumnShift) + 1];
      for (std::size_t i = 0; i < local_columns; ++i) starts[i + 1] += starts[i];
      sorted.resize(fragments.size());
      {
        std::vector<std::uint32_t> fill(starts.begin(), starts.end() - 1);
        for (const std::uint64_t f : fragments) sorted[fill[f >> kColumnShift]++] = f & kSpanMask;
      }

      // merge
      Band& band = bands[b];
      band.counts.assign(local_columns, 0);
      band.spans.clear();
      band.spans.reserve(fragments.size());
      for (std::size_t col = 0; col < local_columns; ++col) {
        const auto first = sorted.begin() + starts[col];
        const auto last = sorted.begin() + starts[col + 1];
        if (first == last) continue;
        if (last - first > 1) std::sort(first, last);
        const std::size_t before = band.spans.size();
        Span cur{static_cast<std::uint16_t>(*first >> 24), static_cast<std::uint16_t>(*first >> 8),
                 static_cast<std::uint8_t>(*first)};
        for (auto it = first + 1; it != last; ++it) {
          const Span next{static_cast<std::uint16_t>(*it >> 24),
                          static_cast<std::uint16_t>(*it >> 8), static_cast<std::uint8_t>(*it)};
          if (next.min > cur.max) {
            band.spans.push_back(cur);
            cur = next;
            continue;
          }
          if (std::abs(int{next.max} - int{cur.max}) <= climb) {
            cur.area = std::max(cur.area, next.area);
          } else if (next.max > cur.max) {
            cur.area = next.area;
          }
          cur.max = std::max(cur.max, next.max);
        }
        band.spans.push_back(cur);
        band.counts[col] = static_cast<std::uint32_t>(band.spans.size() - before);
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("rasterize"));

  // assemble the CSR columns band by band
  std::uint64_t total = 0;
  for (const Band& band : bands) total += band.spans.size();
  LEAPNAV_TRY(ctx.check_memory("rasterize: spans",
                               total * sizeof(Span) + (columns + 1) * sizeof(std::uint32_t)));
  if (total > 0xFFFFFFFFULL)
    return make_error(ErrorCode::MemoryLimit, "rasterize: more than 2^32 spans");
  Heightfield out;
  out.grid = grid;
  out.column_first.resize(columns + 1);
  out.spans.resize(total);
  std::vector<std::uint32_t> band_first_span(band_count + 1, 0);
  {
    std::uint32_t running = 0;
    std::size_t column = 0;
    for (std::size_t b = 0; b < band_count; ++b) {
      band_first_span[b] = running;
      for (const std::uint32_t count : bands[b].counts) {
        out.column_first[column++] = running;
        running += count;
      }
    }
    band_first_span[band_count] = running;
    out.column_first[column] = running;
  }
  parallel_for(threads, 0, band_count, 1, [&](std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
      std::copy(bands[b].spans.begin(), bands[b].spans.end(),
                out.spans.begin() + band_first_span[b]);
    }
  });
  return out;
}

}  // namespace leapnav::voxel
