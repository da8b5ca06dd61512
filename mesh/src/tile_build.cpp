// One tile of a tiled build, and the tiled build end to end. A tile is voxelized on its bordered
// rectangle (so erosion and the filters see what one big grid would show them), small walkable
// islands that lie wholly inside that rectangle are removed as the untiled region stage would,
// the compact field is cropped to the tile's own columns (distances kept: the watershed near the
// edge sees the border, as in Recast), and regions, contours, polygons and heights run on it. The
// tiles run in parallel, one per task, each on one thread; results go to per-tile slots and are
// stitched in tile order, so the output does not depend on the thread count or the order tiles
// finish in.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "leapnav/core/parallel.hpp"
#include "leapnav/mesh/heights.hpp"
#include "leapnav/mesh/polygons.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/voxel/voxelize.hpp"
#include "span_graph.hpp"

namespace leapnav::mesh {

namespace {

// Sets a span list to area kNullArea, distance 0.
void clear_spans(voxel::CompactHeightfield& field, std::span<const std::uint32_t> spans) {
  for (const std::uint32_t s : spans) {
    field.areas[s] = voxel::kNullArea;
    if (!field.distance.empty()) field.distance[s] = 0;
  }
}

// The column of every span of `field`.
std::vector<std::uint32_t> span_columns(const voxel::CompactHeightfield& field) {
  std::vector<std::uint32_t> out(field.spans.size());
  for (std::size_t c = 0; c + 1 < field.column_first.size(); ++c) {
    for (std::uint32_t s = field.first(c); s < field.end(c); ++s)
      out[s] = static_cast<std::uint32_t>(c);
  }
  return out;
}

// Removes the connected walkable areas of one area id with fewer than min_cells spans that come
// within `margin` columns of no open edge of the field: an edge of the bordered rectangle that is
// not an edge of the world grid, beyond which the area may go on. The margin is needed because
// the field's own edge eats into the floor: an edge span misses its outer neighbour (the ledge
// filter drops it, erosion then takes the agent radius), so a floor that goes on past an open
// edge can end up to radius + 1 columns short of it here. Returns the areas of fewer than
// min_cells spans that do come that close and have a span in `inner` (field coordinates): their
// size cannot be told here (each as its span list, the first span in `inner`).
std::vector<std::vector<std::uint32_t>> remove_closed_islands(voxel::CompactHeightfield& field,
                                                              const TileRect& outer,
                                                              const TileRect& inner,
                                                              const GridSpec& world, int min_cells,
                                                              int margin) {
  std::vector<std::vector<std::uint32_t>> open_small;
  if (min_cells <= 0) return open_small;
  const GridSpec& grid = field.grid;
  const int last_x = grid.width - 1 - margin;
  const int last_z = grid.depth - 1 - margin;
  const bool open_x0 = outer.x0 > 0;
  const bool open_z0 = outer.z0 > 0;
  const bool open_x1 = outer.x1 < world.width;
  const bool open_z1 = outer.z1 < world.depth;
  const std::size_t span_count = field.spans.size();
  const std::vector<std::uint32_t> span_column = span_columns(field);
  std::vector<char> seen(span_count, 0);
  std::vector<std::uint32_t> group;
  for (std::size_t start = 0; start < span_count; ++start) {
    if (seen[start] != 0 || field.areas[start] == voxel::kNullArea) continue;
    seen[start] = 1;
    group.assign(1, static_cast<std::uint32_t>(start));
    bool open = false;
    std::size_t first_inner = span_count;
    for (std::size_t k = 0; k < group.size(); ++k) {
      const std::uint32_t s = group[k];
      const int x = static_cast<int>(span_column[s] % static_cast<std::uint32_t>(grid.width));
      const int z = static_cast<int>(span_column[s] / static_cast<std::uint32_t>(grid.width));
      open = open || (open_x0 && x <= margin) || (open_z0 && z <= margin) ||
             (open_x1 && x >= last_x) || (open_z1 && z >= last_z);
      if (first_inner == span_count && x >= inner.x0 && x < inner.x1 && z >= inner.z0 &&
          z < inner.z1)
        first_inner = k;
      for (int dir = 0; dir < 4; ++dir) {
        if (field.spans[s].neighbor[static_cast<std::size_t>(dir)] == voxel::kNotConnected)
          continue;
        const std::uint32_t n = field.neighbor_index(x, z, s, dir);
        if (seen[n] != 0 || field.areas[n] != field.areas[start]) continue;
        seen[n] = 1;
        group.push_back(n);
      }
    }
    if (group.size() >= static_cast<std::size_t>(min_cells)) continue;
    if (!open) {
      clear_spans(field, group);
    } else if (first_inner != span_count) {
      std::swap(group[0], group[first_inner]);
      open_small.push_back(group);
    }
  }
  return open_small;
}

// The spans of the area of one area id connected to span `start` of `field`, up to `limit` of
// them, visiting only columns inside `exact` (field coordinates); nullopt when the area reaches a
// column outside it before `limit` spans. `mark` (one entry per span of `field`, all 0) is left
// all 0.
std::optional<std::vector<std::uint32_t>> area_up_to(const voxel::CompactHeightfield& field,
                                                     const std::vector<std::uint32_t>& span_column,
                                                     std::uint32_t start, std::size_t limit,
                                                     const TileRect& exact,
                                                     std::vector<char>& mark) {
  std::vector<std::uint32_t> visited{start};
  mark[start] = 1;
  const auto width = static_cast<std::uint32_t>(field.grid.width);
  bool left = false;
  for (std::size_t k = 0; k < visited.size() && visited.size() < limit && !left; ++k) {
    const std::uint32_t s = visited[k];
    const int x = static_cast<int>(span_column[s] % width);
    const int z = static_cast<int>(span_column[s] / width);
    for (int dir = 0; dir < 4 && !left; ++dir) {
      if (field.spans[s].neighbor[static_cast<std::size_t>(dir)] == voxel::kNotConnected) continue;
      const std::uint32_t n = field.neighbor_index(x, z, s, dir);
      if (field.areas[n] != field.areas[start] || mark[n] != 0) continue;
      const int nx = x + voxel::dir_dx(dir);
      const int nz = z + voxel::dir_dz(dir);
      left = nx < exact.x0 || nz < exact.z0 || nx >= exact.x1 || nz >= exact.z1;
      if (left) continue;
      mark[n] = 1;
      visited.push_back(n);
    }
  }
  for (const std::uint32_t v : visited) mark[v] = 0;
  if (left) return std::nullopt;
  return visited;
}

// `rect` widened by `by` columns on every side, clipped to the grid.
TileRect widen(const TileRect& rect, int by, const GridSpec& grid) {
  return {std::max(0, rect.x0 - by), std::max(0, rect.z0 - by), std::min(grid.width, rect.x1 + by),
          std::min(grid.depth, rect.z1 + by)};
}

// The triangles of every tile whose interior overlaps `rect` whose bounds, widened by one cell,
// overlap `rect` (as tile_triangles lists them), ascending, without repeats: every triangle that
// reaches a column of `rect` is listed by the tile owning that column.
std::vector<std::uint32_t> triangles_over(const TriangleMesh& mesh,
                                          std::span<const std::vector<std::uint32_t>> lists,
                                          const TileLayout& layout, const TileRect& rect) {
  std::vector<std::uint32_t> out;
  const int ts = layout.tile_size;
  const GridSpec& g = layout.grid;
  const double cs = g.cell_size;
  const double x0 = g.origin.x + (rect.x0 - 1) * cs;
  const double x1 = g.origin.x + (rect.x1 + 1) * cs;
  const double z0 = g.origin.z + (rect.z0 - 1) * cs;
  const double z1 = g.origin.z + (rect.z1 + 1) * cs;
  for (int tz = rect.z0 / ts; tz <= (rect.z1 - 1) / ts && tz < layout.tiles_z; ++tz) {
    for (int tx = rect.x0 / ts; tx <= (rect.x1 - 1) / ts && tx < layout.tiles_x; ++tx) {
      const auto& list =
          lists[static_cast<std::size_t>(tx) +
                static_cast<std::size_t>(tz) * static_cast<std::size_t>(layout.tiles_x)];
      for (const std::uint32_t t : list) {
        // note: a coarse test with a cell of slack each way; a triangle kept too many is
        // clipped away by the rasterizer
        double lo_x = std::numeric_limits<double>::max();
        double hi_x = std::numeric_limits<double>::lowest();
        double lo_z = lo_x;
        double hi_z = hi_x;
        for (const std::uint32_t v : mesh.triangles[t]) {
          lo_x = std::min(lo_x, double{mesh.vertices[v].x});
          hi_x = std::max(hi_x, double{mesh.vertices[v].x});
          lo_z = std::min(lo_z, double{mesh.vertices[v].z});
          hi_z = std::max(hi_z, double{mesh.vertices[v].z});
        }
        if (hi_x < x0 || lo_x > x1 || hi_z < z0 || lo_z > z1) continue;
        out.push_back(t);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The reaches (columns around the undecided areas) of the island windows before the full one,
// each window around the areas the one before left undecided: most areas are decided a few
// columns from where they are (a piece of a large floor, or a small one near the rectangle's
// edge). Any reaches give the same decisions (an area is decided only once its measurement stayed
// inside exact columns); these sum to the fewest window columns of the lists tried on city:25 and
// terrain:25 at 64-cell tiles (2.05 M against 2.60 M for one reach of 12).
constexpr std::array<int, 3> kIslandReaches{2, 6, 12};

// The voxel stage of `window` (world columns), from the triangles over it, without the distance
// field (the islands are measured on spans, areas and connections only).
Result<voxel::CompactHeightfield> voxelize_columns(
    const TriangleMesh& mesh, std::span<const std::vector<std::uint32_t>> tile_triangles,
    const TileLayout& layout, std::size_t tile, const TileRect& window, const BuildConfig& config,
    BuildContext& ctx) {
  const TriangleMesh part =
      triangle_subset(mesh, triangles_over(mesh, tile_triangles, layout, window),
                      mesh.name + " " + tile_name(layout, tile) + " islands");
  LEAPNAV_TRY_ASSIGN(voxel::VoxelOutput voxels,
                     voxel::voxelize_window(part,
                                            voxel::GridWindow{layout.grid, window.x0, window.z0,
                                                              window.width(), window.depth()},
                                            config, ctx, voxel::DistanceField::skip));
  return std::move(voxels.compact);
}

// Decides the areas remove_closed_islands could not: each is measured (up to min_cells spans) on
// the voxel stage of a window around it, whose columns at least the border inside its open edges
// are the untiled ones, and removed from `field` when it has fewer than min_cells spans, as the
// untiled region stage removes it. First on a small window around all of them (most are a few
// columns from the rectangle's edge, or part of a large floor); an area that leaves its exact
// columns before it is decided is measured again on island_window, which holds any area of fewer
// than min_cells spans. Returns the columns the outcome depends on: those the measurements
// visited, widened by the border and one column (the voxel stage of a column depends on the
// triangles within the border of it), clipped to the grid. Either outcome holds while they keep
// their triangles: min_cells connected spans stay connected, and an area that was measured whole
// gains no neighbour.
Result<TileRect> decide_open_islands(voxel::CompactHeightfield& field, const TileRect& outer,
                                     const std::vector<std::vector<std::uint32_t>>& open_small,
                                     const TriangleMesh& mesh,
                                     std::span<const std::vector<std::uint32_t>> tile_triangles,
                                     const TileLayout& layout, std::size_t tile,
                                     const BuildConfig& config, BuildContext& ctx) {
  const VoxelParams params = derive_voxel_params(config);
  const auto limit = static_cast<std::size_t>(params.min_region_cells);
  const std::vector<std::uint32_t> field_column = span_columns(field);
  const auto width = static_cast<std::uint32_t>(field.grid.width);
  // the columns of the areas in `areas`, world coordinates
  const auto around = [&](const std::vector<const std::vector<std::uint32_t>*>& areas) {
    TileRect out{layout.grid.width, layout.grid.depth, 0, 0};
    for (const std::vector<std::uint32_t>* area : areas) {
      for (const std::uint32_t s : *area) {
        const int x = static_cast<int>(field_column[s] % width) + outer.x0;
        const int z = static_cast<int>(field_column[s] / width) + outer.z0;
        out = {std::min(out.x0, x), std::min(out.z0, z), std::max(out.x1, x + 1),
               std::max(out.z1, z + 1)};
      }
    }
    return out;
  };
  const int full_reach = std::max(0, params.min_region_cells - 1);
  TileRect reads{layout.grid.width, layout.grid.depth, 0, 0};
  std::vector<const std::vector<std::uint32_t>*> pending;
  pending.reserve(open_small.size());
  for (const std::vector<std::uint32_t>& area : open_small) pending.push_back(&area);
  for (std::size_t pass = 0; pass <= kIslandReaches.size(); ++pass) {
    if (pending.empty()) break;
    const bool last = pass == kIslandReaches.size();
    if (!last && kIslandReaches[pass] >= full_reach) continue;
    // note: the exact columns: the window less the border on the sides that are not the grid's
    const TileRect exact = last ? widen(layout.interior(tile), full_reach, layout.grid)
                                : widen(around(pending), kIslandReaches[pass], layout.grid);
    const TileRect window = widen(exact, layout.border, layout.grid);
    LEAPNAV_TRY_ASSIGN(const voxel::CompactHeightfield w,
                       voxelize_columns(mesh, tile_triangles, layout, tile, window, config, ctx));
    const std::vector<std::uint32_t> wide_column = span_columns(w);
    std::vector<char> mark(w.spans.size(), 0);
    const auto wide_width = static_cast<std::uint32_t>(w.grid.width);
    const TileRect local{exact.x0 - window.x0, exact.z0 - window.z0, exact.x1 - window.x0,
                         exact.z1 - window.z0};
    std::vector<const std::vector<std::uint32_t>*> undecided;
    for (const std::vector<std::uint32_t>* area : pending) {
      // the area's first span lies in the tile's interior, where both fields are the untiled one
      const std::uint32_t s = area->front();
      const int x = static_cast<int>(field_column[s] % width) + outer.x0;
      const int z = static_cast<int>(field_column[s] / width) + outer.z0;
      const std::size_t c = field.grid.column_index(x - outer.x0, z - outer.z0);
      const std::size_t wc = w.grid.column_index(x - window.x0, z - window.z0);
      const std::uint32_t layer = s - field.first(c);
      const std::uint32_t ws = w.first(wc) + layer;
      if (ws >= w.end(wc) || !(w.spans[ws] == field.spans[s]) || w.areas[ws] != field.areas[s]) {
        return make_error(ErrorCode::Internal, tile_name(layout, tile) +
                                                   ": the island window's column (" +
                                                   std::to_string(x) + ", " + std::to_string(z) +
                                                   ") differs from the tile's");
      }
      const std::optional<std::vector<std::uint32_t>> measured =
          area_up_to(w, wide_column, ws, limit, local, mark);
      if (!measured) {
        if (last) {
          return make_error(ErrorCode::Internal, tile_name(layout, tile) +
                                                     ": an area under min_region_area left the "
                                                     "island window");
        }
        undecided.push_back(area);
        continue;
      }
      if (measured->size() < limit) clear_spans(field, *area);
      for (const std::uint32_t m : *measured) {
        const int mx = static_cast<int>(wide_column[m] % wide_width) + window.x0;
        const int mz = static_cast<int>(wide_column[m] / wide_width) + window.z0;
        reads = {std::min(reads.x0, mx), std::min(reads.z0, mz), std::max(reads.x1, mx + 1),
                 std::max(reads.z1, mz + 1)};
      }
    }
    pending = std::move(undecided);
  }
  return widen(reads, layout.border + 1, layout.grid);
}

// The columns `inner` (in `field`'s grid coordinates) of `field` on grid `inner_grid`: whole
// columns copied, connections leaving the rectangle cut, distances kept.
voxel::CompactHeightfield crop(const voxel::CompactHeightfield& field, const TileRect& inner,
                               const GridSpec& inner_grid) {
  voxel::CompactHeightfield out;
  out.grid = inner_grid;
  out.walkable_height = field.walkable_height;
  out.walkable_climb = field.walkable_climb;
  out.column_first.reserve(static_cast<std::size_t>(inner_grid.column_count()) + 1);
  out.column_first.push_back(0);
  for (int z = inner.z0; z < inner.z1; ++z) {
    for (int x = inner.x0; x < inner.x1; ++x) {
      const std::size_t c = field.grid.column_index(x, z);
      for (std::uint32_t s = field.first(c); s < field.end(c); ++s) {
        voxel::CompactSpan span = field.spans[s];
        for (int dir = 0; dir < 4; ++dir) {
          const int nx = x + voxel::dir_dx(dir);
          const int nz = z + voxel::dir_dz(dir);
          if (nx < inner.x0 || nz < inner.z0 || nx >= inner.x1 || nz >= inner.z1)
            span.neighbor[static_cast<std::size_t>(dir)] = voxel::kNotConnected;
        }
        out.spans.push_back(span);
        out.areas.push_back(field.areas[s]);
        if (!field.distance.empty()) {
          out.distance.push_back(field.distance[s]);
          out.max_distance = std::max(out.max_distance, field.distance[s]);
        }
      }
      out.column_first.push_back(static_cast<std::uint32_t>(out.spans.size()));
    }
  }
  return out;
}

// Moves a mesh built on the tile grid `inner_grid` onto the world grid: vertices recomputed from
// world grid corners (so tiles agree on shared corners to the bit), height patches shifted to
// world columns, xz bounds recomputed from the moved vertices.
void move_to_world(NavMesh& nav, const GridSpec& inner_grid, const TileRect& inner,
                   const GridSpec& world) {
  const double cs = inner_grid.cell_size;
  const double ch = inner_grid.cell_height;
  for (Vec3& v : nav.vertices) {
    const double x = std::round((double{v.x} - double{inner_grid.origin.x}) / cs);
    const double y = std::round((double{v.y} - double{inner_grid.origin.y}) / ch);
    const double z = std::round((double{v.z} - double{inner_grid.origin.z}) / cs);
    v = world.corner_to_world(x + inner.x0, y, z + inner.z0);
  }
  for (HeightPatch& patch : nav.height_patches) {
    patch.x0 += inner.x0;
    patch.z0 += inner.z0;
  }
  for (std::size_t p = 0; p < nav.polygon_count(); ++p) {
    AABB& bounds = nav.poly_bounds[p];
    bounds.min.x = bounds.min.z = std::numeric_limits<float>::max();
    bounds.max.x = bounds.max.z = std::numeric_limits<float>::lowest();
    for (const std::uint32_t v : nav.polygon(PolyId{static_cast<std::uint32_t>(p)})) {
      const Vec3& pos = nav.vertices[v];
      bounds.min.x = std::min(bounds.min.x, pos.x);
      bounds.min.z = std::min(bounds.min.z, pos.z);
      bounds.max.x = std::max(bounds.max.x, pos.x);
      bounds.max.z = std::max(bounds.max.z, pos.z);
    }
  }
  nav.grid = world;
}

// Widens each polygon's y bounds over its height samples (NaN samples leave them alone).
void widen_bounds(NavMesh& nav) {
  for (std::size_t p = 0; p < nav.height_patches.size(); ++p) {
    const HeightPatch& patch = nav.height_patches[p];
    const std::size_t n = std::size_t{patch.width} * patch.depth;
    for (std::size_t k = 0; k < n; ++k) {
      const float y = nav.height_samples[patch.first + k];
      if (std::isnan(y)) continue;
      nav.poly_bounds[p].min.y = std::min(nav.poly_bounds[p].min.y, y);
      nav.poly_bounds[p].max.y = std::max(nav.poly_bounds[p].max.y, y);
    }
  }
}

}  // namespace

Result<TileMesh> build_tile(const TriangleMesh& mesh,
                            std::span<const std::vector<std::uint32_t>> tile_triangles,
                            const TileLayout& layout, std::size_t tile, const BuildConfig& config,
                            BuildContext& ctx) {
  if (tile >= layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "tiles: tile " + std::to_string(tile) + " out of range (" +
                          std::to_string(layout.tile_count()) + " tiles)");
  if (tile_triangles.size() != layout.tile_count()) {
    return make_error(ErrorCode::InvalidArgument,
                      "tiles: " + std::to_string(tile_triangles.size()) + " triangle lists for " +
                          std::to_string(layout.tile_count()) + " tiles");
  }
  const std::span<const std::uint32_t> triangles = tile_triangles[tile];
  const VoxelParams params = derive_voxel_params(config);
  TileMesh out;
  out.mesh.config = config;
  out.mesh.grid = layout.grid;
  if (triangles.empty()) return out;
  const TileRect outer = layout.bordered(tile);
  const TileRect inner = layout.interior(tile);
  voxel::CompactHeightfield field;
  {
    const TriangleMesh part =
        triangle_subset(mesh, triangles, mesh.name + " " + tile_name(layout, tile));
    LEAPNAV_TRY_ASSIGN(
        voxel::VoxelOutput voxels,
        voxel::voxelize_window(
            part, voxel::GridWindow{layout.grid, outer.x0, outer.z0, outer.width(), outer.depth()},
            config, ctx));
    voxels.solid = {};
    // note: the untiled build's walkable area is the voxel stage's walkable spans, before the
    // region stage removes small islands; counted the same way here, on the tile's own columns
    // (the voxel stage gives them the untiled spans, cell for cell), so tiled and untiled agree
    const voxel::CompactHeightfield& all = voxels.compact;
    std::uint64_t voxel_walkable = 0;
    for (int z = inner.z0 - outer.z0; z < inner.z1 - outer.z0; ++z) {
      for (int x = inner.x0 - outer.x0; x < inner.x1 - outer.x0; ++x) {
        const std::size_t c = all.grid.column_index(x, z);
        for (std::uint32_t s = all.first(c); s < all.end(c); ++s)
          voxel_walkable += all.areas[s] != voxel::kNullArea ? 1 : 0;
      }
    }
    out.stats.walkable_area =
        static_cast<double>(voxel_walkable) * layout.grid.cell_size * layout.grid.cell_size;
    // note: one column more than the radius + 1 the edge can take; keeping a closed island
    // the one-tile build would remove costs a few cells of floor, removing an open one cuts a
    // floor in two at the tile edge
    const TileRect local{inner.x0 - outer.x0, inner.z0 - outer.z0, inner.x1 - outer.x0,
                         inner.z1 - outer.z0};
    const std::vector<std::vector<std::uint32_t>> open_small =
        remove_closed_islands(voxels.compact, outer, local, layout.grid, params.min_region_cells,
                              params.walkable_radius + 2);
    if (!open_small.empty()) {
      auto timer = ctx.scoped_timer("island_window");
      LEAPNAV_TRY_ASSIGN(out.island_reads,
                         decide_open_islands(voxels.compact, outer, open_small, mesh,
                                             tile_triangles, layout, tile, config, ctx));
    }
    field = crop(voxels.compact, local, layout.rect_grid(inner));
  }
  if (std::none_of(field.areas.begin(), field.areas.end(),
                   [](std::uint8_t area) { return area != voxel::kNullArea; }))
    return out;

  // note: islands were judged on the bordered field above; the cropped field cuts areas that
  // go on into the next tile, which must not count as islands here
  VoxelParams tile_params = params;
  tile_params.min_region_cells = 0;
  LEAPNAV_TRY(ctx.check_cancel("regions"));
  RegionField regions;
  ContourSet contours;
  {
    LEAPNAV_TRY(detail::check_heightfield_arrays(field, "regions", true));
    LEAPNAV_TRY_ASSIGN(const detail::SpanGraph graph,
                       detail::make_checked_span_graph(field, "regions", 1));
    {
      auto timer = ctx.scoped_timer("regions");
      LEAPNAV_TRY_ASSIGN(regions, detail::build_regions_on(field, graph, tile_params, ctx));
    }
    auto timer = ctx.scoped_timer("contours");
    LEAPNAV_TRY_ASSIGN(contours,
                       detail::build_contours_on(field, graph, regions, params, ctx, true));
  }
  NavMesh nav;
  {
    auto timer = ctx.scoped_timer("polygons");
    LEAPNAV_TRY_ASSIGN(nav, build_polygons(contours, params, ctx));
  }
  nav.config = config;
  {
    auto timer = ctx.scoped_timer("heights");
    LEAPNAV_TRY_ASSIGN(HeightDetail detail, build_heights(nav, field, regions, params, ctx));
    nav.height_patches = std::move(detail.patches);
    nav.height_samples = std::move(detail.samples);
  }
  widen_bounds(nav);
  // note: after the bounds, which cover every sample; the runtime mesh keeps one per flat floor
  compact_flat_patches(nav);
  move_to_world(nav, field.grid, inner, layout.grid);
  if (Status status = validate(nav); !status.ok()) {
    return make_error(ErrorCode::Internal,
                      tile_name(layout, tile) + ": " + std::move(status).error().message);
  }
  out.stats.regions = regions.region_count;
  out.stats.polygons = nav.polygon_count();
  out.stats.vertices = nav.vertices.size();
  for (std::uint32_t p = 0; p < nav.polygon_count(); ++p)
    out.stats.navmesh_area += polygon_area(nav, PolyId{p});
  out.mesh = std::move(nav);
  return out;
}

Result<TiledBuildOutput> build_tiled_navmesh(const TriangleMesh& mesh, const BuildConfig& config,
                                             const TileConfig& tiles, BuildContext& ctx) {
  LEAPNAV_TRY(validate(tiles, config));
  TiledBuildOutput out;
  if (tiles.tile_size == 0) {
    LEAPNAV_TRY_ASSIGN(BuildOutput built, build_navmesh(mesh, config, ctx));
    out.layout.grid = built.navmesh.grid;
    out.layout.tiles_x = out.layout.tiles_z = 1;
    out.navmesh = std::move(built.navmesh);
    out.stats = built.stats;
    return out;
  }
  LEAPNAV_TRY(validate(mesh));
  if (mesh.triangles.empty())
    return make_error(ErrorCode::EmptyInput, mesh.label() + ": the mesh has no triangles");
  const VoxelParams params = derive_voxel_params(config);
  LEAPNAV_TRY_ASSIGN(const GridSpec grid,
                     make_grid(mesh.bounds(), params.cell_size, params.cell_height));
  LEAPNAV_TRY_ASSIGN(out.layout, make_tile_layout(grid, tiles, config));
  const TileLayout& layout = out.layout;
  const std::size_t tile_count = layout.tile_count();

  using Slot = TaskSlot<TileMesh>;
  std::vector<Slot> slots(tile_count);
  {
    auto timer = ctx.scoped_timer("tiles");
    const std::vector<std::vector<std::uint32_t>> triangles = tile_triangles(mesh, layout);
    parallel_for(ctx.threads(), 0, tile_count, 1, [&](std::size_t t0, std::size_t t1) {
      for (std::size_t t = t0; t < t1; ++t) {
        Slot& slot = slots[t];
        if (ctx.cancelled()) {
          slot.result.emplace(
              make_error(ErrorCode::Cancelled, "cancelled before " + tile_name(layout, t)));
          continue;
        }
        BuildContext tile_ctx;
        init_task_context(tile_ctx, ctx);
        // note: the lists stay until every tile is built: a tile's island window reads those
        // of its neighbours
        slot.result.emplace(build_tile(mesh, triangles, layout, t, config, tile_ctx));
        slot.keep_log(tile_ctx);
      }
    });
  }
  std::vector<TileMesh> built;
  built.reserve(tile_count);
  for (std::size_t t = 0; t < tile_count; ++t) {
    Slot& slot = slots[t];
    for (std::string& warning : slot.warnings) ctx.warn(tile_name(layout, t) + ": " + warning);
    for (const auto& [stage, ms] : slot.timings) ctx.add_time("tile:" + stage, ms);
    if (!slot.result->ok()) return std::move(*slot.result).error();
    TileMesh& tile = slot.result->value();
    out.stats.regions += tile.stats.regions;
    out.stats.walkable_area += tile.stats.walkable_area;
    built.push_back(std::move(tile));
    slot = {};
  }
  LEAPNAV_TRY(ctx.check_cancel("stitch"));
  {
    auto timer = ctx.scoped_timer("stitch");
    LEAPNAV_TRY_ASSIGN(out.navmesh,
                       stitch_tiles(built, layout, config, &out.stitch, ctx.threads()));
  }
  built = {};
  const NavMesh& nav = out.navmesh;
  out.stats.polygons = nav.polygon_count();
  out.stats.vertices = nav.vertices.size();
  out.stats.navmesh_area = tiled_navmesh_area(nav);
  if (nav.polygon_count() == 0) ctx.warn("navmesh: no polygons (no walkable area)");
  return out;
}

double tile_polygon_area(const NavMesh& mesh, std::size_t tile) {
  double sum = 0.0;
  for (std::uint32_t p = mesh.tile_poly_first[tile]; p < mesh.tile_poly_first[tile + 1]; ++p)
    sum += polygon_area(mesh, PolyId{p});
  return sum;
}

double tiled_navmesh_area(const NavMesh& mesh) {
  if (mesh.tile_poly_first.empty()) {
    double sum = 0.0;
    for (std::uint32_t p = 0; p < mesh.polygon_count(); ++p) sum += polygon_area(mesh, PolyId{p});
    return sum;
  }
  double sum = 0.0;
  for (std::size_t t = 0; t + 1 < mesh.tile_poly_first.size(); ++t)
    sum += tile_polygon_area(mesh, t);
  return sum;
}

}  // namespace leapnav::mesh
