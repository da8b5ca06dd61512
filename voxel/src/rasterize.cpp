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
#include <limits>
#include <string>
#include <vector>

#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {
namespace {

// note: a fixed band height keeps clipping (which restarts at each band) and therefore the
// output independent of the thread count.
constexpr int kBandRows = 16;
// A triangle clipped by at most four planes has at most 7 vertices.
constexpr int kMaxPolyVerts = 12;

// A convex polygon with D coordinates per vertex: (x, y, z) for row clipping, (x, y) after.
template <int D>
struct Poly {
  float v[kMaxPolyVerts][D];
  int count = 0;
};

// Splits `in` by the plane coord[Axis] == plane into the part below (<=) and above (>=);
// vertices on the plane go to both parts. `Below` receives each vertex of the part below (its
// first two coordinates, the crossing points with coord[Axis] set to the plane).
template <int D, int Axis, class Below>
inline void split_poly(const Poly<D>& in, Below&& below, Poly<D>& above, float plane) {
  // note: the vertex counts are kept in locals: `in` and `above` are distinct, but the compiler
  // cannot know it and would otherwise store and reload both counts at every vertex
  const int n = in.count;
  int m = 0;
  if (n == 0) {
    above.count = 0;
    return;
  }
  const float* a = in.v[n - 1];
  float da = a[Axis] - plane;
  for (int i = 0; i < n; ++i) {
    const float* b = in.v[i];
    const float db = b[Axis] - plane;
    if ((da < 0.0F && db > 0.0F) || (da > 0.0F && db < 0.0F)) {
      const float t = da / (da - db);
      float* q = above.v[m++];
      for (int k = 0; k < D; ++k) q[k] = a[k] + (b[k] - a[k]) * t;
      q[Axis] = plane;
      below(q[0], q[1]);
    }
    if (db <= 0.0F) below(b[0], b[1]);
    if (db >= 0.0F) {
      float* p = above.v[m++];
      for (int k = 0; k < D; ++k) p[k] = b[k];
    }
    a = b;
    da = db;
  }
  above.count = m;
}

// The (x, y) outline of a row polygon and its x range, filled vertex by vertex.
struct RowOutline {
  Poly<2>* line;
  float min_x;
  float max_x;
  void operator()(float x, float y) {
    float* p = line->v[line->count++];
    p[0] = x;
    p[1] = y;
    min_x = std::min(min_x, x);
    max_x = std::max(max_x, x);
  }
};

// The vertex count and y range of a cell polygon, filled vertex by vertex.
struct CellRange {
  int count;
  float min_y;
  float max_y;
  void operator()(float /*x*/, float y) {
    ++count;
    min_y = std::min(min_y, y);
    max_y = std::max(max_y, y);
  }
};

constexpr float kHuge = std::numeric_limits<float>::max();

// Whether cutting the (x, y) polygon `poly` at the column planes before some plane P one by one
// (to reach P by the whole grid's float steps) leaves what one cut at P leaves; `before` is the
// plane just before P. A cut sets a crossing's x to the plane and interpolates its y between the
// ends of the edge it cuts, so along an edge whose ends have the same y every crossing, the last
// one included, has exactly that y; an edge whose ends differ in y must meet no plane before P.
// The planes' own edges (both ends on one plane) lie below the next plane and are dropped.
bool one_cut_reaches(const Poly<2>& poly, float before) {
  for (int i = 0, j = poly.count - 1; i < poly.count; j = i++) {
    const float* a = poly.v[j];
    const float* b = poly.v[i];
    if (a[1] != b[1] && std::min(a[0], b[0]) < before) return false;
  }
  return true;
}

// floor(v) clamped to [lo, hi], without converting out-of-range floats.
int floor_clamped(float v, int lo, int hi) {
  if (!(v > static_cast<float>(lo))) return lo;
  if (v >= static_cast<float>(hi)) return hi;
  const int i = static_cast<int>(v);
  return v < static_cast<float>(i) ? i - 1 : i;
}

// ceil(v) clamped to [lo, hi].
int ceil_clamped(float v, int lo, int hi) {
  if (!(v > static_cast<float>(lo))) return lo;
  if (v >= static_cast<float>(hi)) return hi;
  const int i = static_cast<int>(v);
  return v > static_cast<float>(i) ? i + 1 : i;
}

// Fragment key: local column (24 bits) | min (16) | max (16) | area (8).
constexpr int kColumnShift = 40;
constexpr std::uint64_t kSpanMask = (std::uint64_t{1} << kColumnShift) - 1;

struct Band {
  std::vector<std::uint32_t> counts;  // spans per local column
  std::vector<Span> spans;
};

// Triangles per chunk (at least) when listing the triangles of each band.
constexpr std::size_t kTriangleChunk = 4096;

// Columns with more fragments are sorted with std::sort, shorter ones by insertion.
constexpr std::ptrdiff_t kInsertionSortMax = 16;

// Puts the smaller of a and b first, without a branch.
inline void order_pair(std::uint64_t& a, std::uint64_t& b) {
  const std::uint64_t low = std::min(a, b);
  const std::uint64_t high = std::max(a, b);
  a = low;
  b = high;
}

// floor(a / b) for b > 0.
int floor_div(int a, int b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The world cells a triangle's bounding box touches: one before the window's first row or
// column (or before world row or column 0 when the window starts after it) marks "starts
// before", the window's end "ends after it"; last_row < first_row: the triangle misses the window.
struct TriangleCells {
  int first_row = 0;
  int last_row = -1;
  int first_column = 0;
  int last_column = -1;
};

}  // namespace

GridSpec GridWindow::grid() const {
  GridSpec out = world;
  out.origin = world.corner_to_world(x0, 0.0, z0);
  out.width = width;
  out.depth = depth;
  return out;
}

Result<Heightfield> rasterize(const TriangleMesh& mesh, const TriangleAreas& areas,
                              const GridSpec& grid, const VoxelParams& params, BuildContext& ctx) {
  return rasterize_window(mesh, areas, GridWindow{grid, 0, 0, grid.width, grid.depth}, params, ctx);
}

Result<Heightfield> rasterize_window(const TriangleMesh& mesh, const TriangleAreas& areas,
                                     const GridWindow& window, const VoxelParams& params,
                                     BuildContext& ctx) {
  if (areas.area.size() != mesh.triangles.size())
    return make_error(ErrorCode::InvalidArgument,
                      "rasterize: " + std::to_string(areas.area.size()) + " triangle areas for " +
                          std::to_string(mesh.triangles.size()) + " triangles");
  const GridSpec& world = window.world;
  if (window.width <= 0 || window.depth <= 0 || world.height <= 0 ||
      world.height > kMaxGridHeight || !(world.cell_size > 0.0F) || !(world.cell_height > 0.0F))
    return make_error(ErrorCode::InvalidArgument, "rasterize: the grid is empty or invalid");
  const GridSpec grid = window.grid();
  for (const auto& tri : mesh.triangles) {
    for (const std::uint32_t index : tri) {
      if (index >= mesh.vertices.size())
        return make_error(ErrorCode::IndexOutOfRange,
                          "rasterize: " + mesh.label() + ": a triangle uses a missing vertex");
    }
  }

  if (mesh.triangles.size() > 0xFFFFFFFFULL)
    return make_error(ErrorCode::InvalidArgument, "rasterize: more than 2^32 triangles");
  const std::size_t columns = static_cast<std::size_t>(grid.column_count());
  const int window_bands =
      floor_div(window.z0 + grid.depth - 1, kBandRows) - floor_div(window.z0, kBandRows) + 1;
  const auto band_count = static_cast<std::size_t>(window_bands);
  LEAPNAV_TRY(ctx.check_memory(
      "rasterize: column tables",
      (columns + 1) * sizeof(std::uint32_t) * 2 +
          mesh.triangles.size() * (sizeof(TriangleCells) + 2 * sizeof(std::uint32_t))));

  const float cs = grid.cell_size;
  const float ch = grid.cell_height;
  const Vec3 origin = world.origin;
  // note: triangles are clipped in world-grid coordinates (vertex minus the world grid's origin,
  // taken in double and rounded once), so the cell planes r * cs are as exact far from the world
  // origin as near it, and a window (a tile) clips at the very planes of the whole grid
  const auto relative = [&origin](Vec3 v) {
    return Vec3{static_cast<float>(double{v.x} - double{origin.x}),
                static_cast<float>(double{v.y} - double{origin.y}),
                static_cast<float>(double{v.z} - double{origin.z})};
  };
  const int width = grid.width;
  const int depth = grid.depth;
  const int height = grid.height;
  // the window in world columns and rows: [wx0, wx1) x [wz0, wz1)
  const int wx0 = window.x0;
  const int wz0 = window.z0;
  const int wx1 = wx0 + width;
  const int wz1 = wz0 + depth;
  // note: the whole grid clips columns from column 0 (or the triangle's first column) on, and
  // rows from the first row of each fixed band of kBandRows world rows; a window starts its
  // clipping at the same planes and drops the cells before it, so each cell's clipped polygon is
  // computed by the same float operations as in the whole grid. Cells at negative world columns
  // or rows (a window over the grid's edge) restart at the window's own first column.
  const int column_lo = std::min(wx0, 0);
  const int row_lo = std::min(wz0, 0);
  const int first_band_index = floor_div(wz0, kBandRows);
  const float top_world = static_cast<float>(height) * ch;
  const float inverse_cs = 1.0F / cs;
  const int climb = params.walkable_climb;
  const int threads = ctx.threads();
  std::atomic<bool> cancelled{false};

  // per triangle: the cells its bounding box touches, or none when it misses the grid
  std::vector<TriangleCells> cells(mesh.triangles.size());
  parallel_for(threads, 0, mesh.triangles.size(), 4096, [&](std::size_t begin, std::size_t end) {
    for (std::size_t t = begin; t < end; ++t) {
      if (areas.area[t] == kDroppedTriangle) continue;
      const auto& tri = mesh.triangles[t];
      AABB box;
      for (const std::uint32_t index : tri) box.extend(relative(mesh.vertices[index]));
      const float x0 = box.min.x / cs;
      const float x1 = box.max.x / cs;
      const float z0 = box.min.z / cs;
      const float z1 = box.max.z / cs;
      const float y0 = box.min.y;
      const float y1 = box.max.y;
      // note: one column of margin: the box divides by cs, the clipping multiplies by 1 / cs,
      // and a wall on the window's first plane may fall on either side by one rounding
      if (!(x1 >= static_cast<float>(wx0 - 1) && z1 >= static_cast<float>(wz0) &&
            x0 < static_cast<float>(wx1 + 1) && z0 < static_cast<float>(wz1) && y1 >= 0.0F &&
            y0 <= top_world))
        continue;
      cells[t] = {floor_clamped(z0, row_lo - 1, wz1 - 1), floor_clamped(z1, row_lo - 1, wz1),
                  floor_clamped(x0, column_lo - 1, wx1 - 1), floor_clamped(x1, column_lo - 1, wx1)};
    }
  });

  // triangles per band, in input order: counted per fixed chunk of triangles and band, then
  // placed chunk by chunk
  const std::size_t triangle_chunk = std::max<std::size_t>(kTriangleChunk, cells.size() / 64 + 1);
  const std::size_t triangle_chunks = chunk_count(0, cells.size(), triangle_chunk);
  const auto for_bands = [&](const TriangleCells& c, auto&& visit) {
    if (c.last_row < c.first_row) return;
    for (int b = floor_div(std::max(c.first_row, wz0), kBandRows) - first_band_index;
         b <= floor_div(std::min(c.last_row, wz1 - 1), kBandRows) - first_band_index; ++b)
      visit(static_cast<std::size_t>(b));
  };
  // band b: world rows [first, last], clipping restarts at world row `restart`
  struct BandRows {
    int restart;
    int first;
    int last;
  };
  const auto band_rows = [&](std::size_t b) {
    const int restart = (first_band_index + static_cast<int>(b)) * kBandRows;
    return BandRows{restart, std::max(restart, wz0), std::min(restart + kBandRows, wz1) - 1};
  };
  LEAPNAV_TRY(ctx.check_memory("rasterize: triangle counts per band",
                               triangle_chunks * band_count * sizeof(std::size_t)));
  std::vector<std::size_t> chunk_band(triangle_chunks * band_count, 0);
  parallel_for(threads, 0, cells.size(), triangle_chunk, [&](std::size_t t0, std::size_t t1) {
    std::size_t* counts = chunk_band.data() + (t0 / triangle_chunk) * band_count;
    for (std::size_t t = t0; t < t1; ++t) for_bands(cells[t], [&](std::size_t b) { ++counts[b]; });
  });
  std::vector<std::size_t> band_start(band_count + 1, 0);
  for (std::size_t b = 0; b < band_count; ++b) {
    std::size_t running = band_start[b];
    for (std::size_t c = 0; c < triangle_chunks; ++c) {
      const std::size_t n = chunk_band[c * band_count + b];
      chunk_band[c * band_count + b] = running;
      running += n;
    }
    band_start[b + 1] = running;
  }
  LEAPNAV_TRY(ctx.check_memory("rasterize: triangle lists per band",
                               band_start[band_count] * sizeof(std::uint32_t)));
  std::vector<std::uint32_t> band_triangles(band_start[band_count]);
  parallel_for(threads, 0, cells.size(), triangle_chunk, [&](std::size_t t0, std::size_t t1) {
    std::size_t* fill = chunk_band.data() + (t0 / triangle_chunk) * band_count;
    for (std::size_t t = t0; t < t1; ++t) {
      for_bands(cells[t],
                [&](std::size_t b) { band_triangles[fill[b]++] = static_cast<std::uint32_t>(t); });
    }
  });

  // at most one fragment per bounding-box cell: check the peak working memory before starting
  std::vector<std::size_t> band_estimate(band_count, 0);
  std::size_t largest_estimate = 0;
  for (std::size_t b = 0; b < band_count; ++b) {
    const BandRows rows = band_rows(b);
    const int band_first = rows.first;
    const int band_last = rows.last;
    std::size_t estimate = 0;
    for (std::size_t k = band_start[b]; k < band_start[b + 1]; ++k) {
      const TriangleCells& range = cells[band_triangles[k]];
      const int rows_in_band =
          std::min(range.last_row, band_last) - std::max(range.first_row, band_first) + 1;
      const int columns_in_grid =
          std::min(range.last_column, wx1 - 1) - std::max(range.first_column, wx0) + 1;
      estimate += static_cast<std::size_t>(std::max(rows_in_band, 0)) *
                  static_cast<std::size_t>(std::max(columns_in_grid, 0));
    }
    band_estimate[b] = estimate;
    largest_estimate = std::max(largest_estimate, estimate);
  }
  const std::size_t concurrent_bands = std::min<std::size_t>(
      band_count, static_cast<std::size_t>(threads <= 0 ? hardware_threads() : threads));
  LEAPNAV_TRY(ctx.check_memory("rasterize: span fragments",
                               largest_estimate * 2 * sizeof(std::uint64_t) * concurrent_bands));
  // note: the bands' spans are only known band by band; what the finished bands hold (and their
  // share of the assembled array) is added up as they finish, and the loop stops once the tables
  // above plus that would pass the limit, so peak memory stays within it (city:128 under a 4 GiB
  // limit once reached 5.4 GB before the check after the loop refused it)
  const std::uint64_t table_bytes =
      (columns + 1) * sizeof(std::uint32_t) * 2 +
      mesh.triangles.size() * (sizeof(TriangleCells) + 2 * sizeof(std::uint32_t)) +
      largest_estimate * 2 * sizeof(std::uint64_t) * concurrent_bands;
  std::atomic<std::uint64_t> band_bytes{0};
  std::atomic<bool> over_limit{false};

  std::vector<Band> bands(band_count);
  parallel_for(threads, 0, band_count, 1, [&](std::size_t b0, std::size_t b1) {
    std::vector<std::uint64_t> fragments;
    std::vector<std::uint64_t> sorted;
    std::vector<std::uint32_t> starts;
    std::vector<std::uint32_t> fill;
    Poly<3> row_buffers[2];
    Poly<2> cell_buffers[2];
    Poly<2> outside_buffers[2];
    for (std::size_t b = b0; b < b1; ++b) {
      if (cancelled.load(std::memory_order_relaxed) || ctx.cancelled()) {
        cancelled.store(true, std::memory_order_relaxed);
        return;
      }
      if (over_limit.load(std::memory_order_relaxed)) return;
      const BandRows rows = band_rows(b);
      const int band_first = rows.first;
      const int band_last = rows.last;
      const std::size_t local_columns =
          static_cast<std::size_t>(band_last - band_first + 1) * static_cast<std::size_t>(width);
      fragments.clear();
      fragments.reserve(band_estimate[b]);
      const auto emit = [&](int r, int c, float min_y, float max_y, std::uint64_t area) {
        const float low = min_y;
        const float high = max_y;
        if (high < 0.0F || low > top_world || c < wx0 || c >= wx1) return;
        const int bottom = floor_clamped(low / ch, 0, height - 1);
        const int top = ceil_clamped(high / ch, bottom + 1, height);
        const std::uint64_t column =
            static_cast<std::uint64_t>(r - band_first) * static_cast<std::uint64_t>(width) +
            static_cast<std::uint64_t>(c - wx0);
        fragments.push_back(column << kColumnShift | std::uint64_t(bottom) << 24 |
                            std::uint64_t(top) << 8 | area);
      };

      // clip every triangle touching the band into row and column cells
      for (std::size_t k = band_start[b]; k < band_start[b + 1]; ++k) {
        const std::uint32_t t = band_triangles[k];
        const TriangleCells range = cells[t];
        const auto& tri = mesh.triangles[t];
        const std::uint64_t area = areas.area[t];
        const Vec3 p0v = relative(mesh.vertices[tri[0]]);
        const Vec3 p1v = relative(mesh.vertices[tri[1]]);
        const Vec3 p2v = relative(mesh.vertices[tri[2]]);
        if (range.first_row == range.last_row && range.first_column == range.last_column &&
            range.first_row >= row_lo && range.first_column >= column_lo) {
          // note: inside one cell, clipping would return the triangle itself
          emit(range.first_row, range.first_column, std::min({p0v.y, p1v.y, p2v.y}),
               std::max({p0v.y, p1v.y, p2v.y}), area);
          continue;
        }
        Poly<3>* poly = &row_buffers[0];
        Poly<3>* rest = &row_buffers[1];
        poly->count = 3;
        const Vec3 corners[3] = {p0v, p1v, p2v};
        for (int i = 0; i < 3; ++i) {
          poly->v[i][0] = corners[i].x;
          poly->v[i][1] = corners[i].y;
          poly->v[i][2] = corners[i].z;
        }
        int r = range.first_row;
        if (r < rows.restart) {
          split_poly<3, 2>(
              *poly, [](float, float) {}, *rest, static_cast<float>(rows.restart) * cs);
          std::swap(poly, rest);
          r = rows.restart;
        }
        const int r_last = std::min(range.last_row, band_last);
        for (; r <= r_last && poly->count >= 3; ++r) {
          Poly<2>* line = &cell_buffers[0];
          Poly<2>* line_rest = &cell_buffers[1];
          line->count = 0;
          RowOutline outline{line, kHuge, -kHuge};
          if (r == range.last_row) {
            // note: the bounding box ends in this row, nothing lies beyond the next plane
            for (int i = 0; i < poly->count; ++i) outline(poly->v[i][0], poly->v[i][1]);
            poly->count = 0;
          } else {
            split_poly<3, 2>(*poly, outline, *rest, static_cast<float>(r + 1) * cs);
            std::swap(poly, rest);
          }
          // note: rows before the window are clipped only to reach its rows by the same steps
          if (line->count < 3 || r < band_first) continue;
          // note: the column range only bounds the loop; the planes decide what goes where
          const float c0 = outline.min_x * inverse_cs;
          const float c1 = outline.max_x * inverse_cs;
          if (c1 < static_cast<float>(wx0) || c0 >= static_cast<float>(wx1)) continue;
          // clips `cells` into the columns [lo, hi), from the plane lo on (or from its first
          // column), and emits the cells inside the window
          const auto clip_columns = [&](Poly<2>* cells_left, Poly<2>* cells_rest, int lo, int hi) {
            int c = floor_clamped(c0, lo - 1, hi - 1);
            const int c_end = floor_clamped(c1, lo - 1, hi);
            const int c_last = std::min(c_end, hi - 1);
            if (c < wx0 && wx0 > lo &&
                one_cut_reaches(*cells_left, static_cast<float>(wx0 - 1) * cs)) {
              // note: the cells before the window would be clipped only to be dropped; one cut
              // at its first plane gives the same polygon there (up to where its vertex list
              // starts, which no later step depends on)
              if (c_end < wx0) return;
              split_poly<2, 0>(
                  *cells_left, [](float, float) {}, *cells_rest, static_cast<float>(wx0) * cs);
              std::swap(cells_left, cells_rest);
              c = wx0;
            }
            if (c < lo) {
              split_poly<2, 0>(
                  *cells_left, [](float, float) {}, *cells_rest, static_cast<float>(lo) * cs);
              std::swap(cells_left, cells_rest);
              c = lo;
            }
            for (; c <= c_last && cells_left->count >= 3; ++c) {
              CellRange cell{0, kHuge, -kHuge};
              if (c == c_end) {
                for (int i = 0; i < cells_left->count; ++i)
                  cell(cells_left->v[i][0], cells_left->v[i][1]);
                cells_left->count = 0;
              } else {
                split_poly<2, 0>(*cells_left, cell, *cells_rest, static_cast<float>(c + 1) * cs);
                std::swap(cells_left, cells_rest);
              }
              if (cell.count < 3 || c < wx0) continue;
              emit(r, c, cell.min_y, cell.max_y, area);
            }
          };
          if (wx0 < 0 && c0 < 0.0F) {
            outside_buffers[0] = *line;
            clip_columns(&outside_buffers[0], &outside_buffers[1], wx0, std::min(wx1, 0));
          }
          if (c1 >= 0.0F && wx1 > 0) clip_columns(line, line_rest, 0, wx1);
        }
      }

      // order fragments by column (counting sort), then by (min, max, area) within a column
      starts.assign(local_columns + 1, 0);
      for (const std::uint64_t f : fragments) ++starts[(f >> kColumnShift) + 1];
      for (std::size_t i = 0; i < local_columns; ++i) starts[i + 1] += starts[i];
      sorted.resize(fragments.size());
      fill.assign(starts.begin(), starts.end() - 1);
      for (const std::uint64_t f : fragments) sorted[fill[f >> kColumnShift]++] = f & kSpanMask;
      const std::size_t fragment_count = fragments.size();

      // merge
      Band& band = bands[b];
      band.counts.assign(local_columns, 0);
      band.spans.clear();
      band.spans.reserve(fragment_count);
      for (std::size_t col = 0; col < local_columns; ++col) {
        const auto first = sorted.begin() + starts[col];
        const auto last = sorted.begin() + starts[col + 1];
        if (first == last) continue;
        const std::ptrdiff_t n = last - first;
        if (n > kInsertionSortMax) {
          std::sort(first, last);
        } else if (n <= 4) {
          // note: most columns hold 1-4 fragments; a sorting network of branch-free
          // compare-exchanges avoids the mispredicted branches of the insertion loop
          std::uint64_t* f = &*first;
          if (n == 2) {
            order_pair(f[0], f[1]);
          } else if (n == 3) {
            order_pair(f[0], f[1]);
            order_pair(f[1], f[2]);
            order_pair(f[0], f[1]);
          } else if (n == 4) {
            order_pair(f[0], f[1]);
            order_pair(f[2], f[3]);
            order_pair(f[0], f[2]);
            order_pair(f[1], f[3]);
            order_pair(f[1], f[2]);
          }
        } else {
          for (auto it = first + 1; it < last; ++it) {
            const std::uint64_t key = *it;
            auto hole = it;
            for (; hole != first && *(hole - 1) > key; --hole) *hole = *(hole - 1);
            *hole = key;
          }
        }
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
      // note: the band's spans and their copy in the assembled array (the reserve beyond the
      // size is never touched, so never resident; the counts are in the column tables above)
      const std::uint64_t held = 2 * band.spans.size() * sizeof(Span);
      if (table_bytes + band_bytes.fetch_add(held, std::memory_order_relaxed) + held >
          ctx.memory_limit()) {
        over_limit.store(true, std::memory_order_relaxed);
        return;
      }
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("rasterize"));
  if (over_limit.load()) {
    return make_error(ErrorCode::MemoryLimit,
                      "rasterize: spans would need more than the memory limit of " +
                          std::to_string(ctx.memory_limit() >> 20U) +
                          " MiB (refused while rasterizing, before assembling them)");
  }

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
  std::vector<std::uint32_t> band_first_span(band_count + 1, 0);
  for (std::size_t b = 0; b < band_count; ++b) {
    band_first_span[b + 1] = band_first_span[b] + static_cast<std::uint32_t>(bands[b].spans.size());
  }
  out.column_first[columns] = band_first_span[band_count];
  // note: the spans are appended band by band (a copy); sizing the vector first and copying in
  // parallel was slower, as resize() constructs every span one by one before the copy
  out.spans.reserve(total);
  for (const Band& band : bands)
    out.spans.insert(out.spans.end(), band.spans.begin(), band.spans.end());
  parallel_for(threads, 0, band_count, 1, [&](std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
      std::uint32_t running = band_first_span[b];
      std::size_t column =
          static_cast<std::size_t>(band_rows(b).first - wz0) * static_cast<std::size_t>(width);
      for (const std::uint32_t count : bands[b].counts) {
        out.column_first[column++] = running;
        running += count;
      }
      bands[b] = {};
    }
  });
  return out;
}

}  // namespace leapnav::voxel
