// The tile layout of a tiled build: square tiles of tile_size columns over the world grid, each
// voxelized with a border of columns around it (Recast's tile border: agent radius + 3 cells, so
// that erosion and the filters see the same neighbourhood as one big grid), and the assignment
// of triangles to the tiles whose bordered rectangle their xz bounds overlap, and a tile's input
// mesh (those triangles with only the vertices they use).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/mesh/tiles.hpp"

namespace leapnav::mesh {

namespace {

constexpr int kMinTileSize = 16;
constexpr int kMaxTileBorder = 1024;
constexpr int kAutoBorderExtra = 3;

Status out_of_range(const std::string& field, int value, const std::string& range) {
  return make_error(ErrorCode::InvalidArgument, "tiles: " + field + " = " + std::to_string(value) +
                                                    " is out of range (" + range + ")");
}

// floor(a / b) for b > 0.
int floor_div(int a, int b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The column of world coordinate `value` along an axis, clamped into [-2^30, 2^30].
int column_of(double value, double origin, double cell_size) {
  constexpr double kLimit = 1 << 30;
  return static_cast<int>(std::clamp(std::floor((value - origin) / cell_size), -kLimit, kLimit));
}

}  // namespace

Status validate(const TileConfig& tiles, const BuildConfig& config) {
  if (tiles.tile_size != 0 && (tiles.tile_size < kMinTileSize || tiles.tile_size > kMaxGridSide))
    return out_of_range(
        "tile_size", tiles.tile_size,
        "0, or " + std::to_string(kMinTileSize) + ".." + std::to_string(kMaxGridSide) + " cells");
  LEAPNAV_TRY(validate(config));
  const int radius = derive_voxel_params(config).walkable_radius;
  if (tiles.border != -1 && (tiles.border < radius || tiles.border > kMaxTileBorder))
    return out_of_range("border", tiles.border,
                        "-1, or the agent radius in cells (" + std::to_string(radius) + ").." +
                            std::to_string(kMaxTileBorder) + " cells");
  return {};
}

TileRect TileLayout::interior(std::size_t tile) const {
  const int tx = static_cast<int>(tile % static_cast<std::size_t>(tiles_x));
  const int tz = static_cast<int>(tile / static_cast<std::size_t>(tiles_x));
  return {tx * tile_size, tz * tile_size, std::min(grid.width, (tx + 1) * tile_size),
          std::min(grid.depth, (tz + 1) * tile_size)};
}

TileRect TileLayout::bordered(std::size_t tile) const {
  const TileRect r = interior(tile);
  return {std::max(0, r.x0 - border), std::max(0, r.z0 - border),
          std::min(grid.width, r.x1 + border), std::min(grid.depth, r.z1 + border)};
}

GridSpec TileLayout::rect_grid(const TileRect& rect) const {
  GridSpec out = grid;
  out.origin = grid.corner_to_world(rect.x0, 0.0, rect.z0);
  out.width = rect.width();
  out.depth = rect.depth();
  return out;
}

bool same_layout(const TileLayout& a, const TileLayout& b) {
  return same_grid_bits(a.grid, b.grid) && a.tile_size == b.tile_size && a.border == b.border &&
         a.tiles_x == b.tiles_x && a.tiles_z == b.tiles_z;
}

Result<TileLayout> make_tile_layout(const GridSpec& grid, const TileConfig& tiles,
                                    const BuildConfig& config) {
  LEAPNAV_TRY(validate(tiles, config));
  if (tiles.tile_size == 0)
    return make_error(ErrorCode::InvalidArgument, "tiles: tile_size 0 has no tile layout");
  if (grid.width <= 0 || grid.depth <= 0)
    return make_error(ErrorCode::InvalidArgument, "tiles: the grid has no columns");
  TileLayout layout;
  layout.grid = grid;
  layout.tile_size = tiles.tile_size;
  layout.border = tiles.border >= 0
                      ? tiles.border
                      : derive_voxel_params(config).walkable_radius + kAutoBorderExtra;
  layout.tiles_x = (grid.width + tiles.tile_size - 1) / tiles.tile_size;
  layout.tiles_z = (grid.depth + tiles.tile_size - 1) / tiles.tile_size;
  return layout;
}

void triangle_tiles(const TriangleMesh& mesh, const TileLayout& layout, std::size_t triangle,
                    std::vector<std::uint32_t>& out) {
  const GridSpec& grid = layout.grid;
  const double cs = grid.cell_size;
  const int ts = layout.tile_size;
  const int b = layout.border;
  const auto& tri = mesh.triangles[triangle];
  const Vec3& a = mesh.vertices[tri[0]];
  const Vec3& v1 = mesh.vertices[tri[1]];
  const Vec3& v2 = mesh.vertices[tri[2]];
  // note: one cell of slack on each side; the rasterizer skips what lies outside a tile
  const int cx0 = column_of(std::min({a.x, v1.x, v2.x}), grid.origin.x, cs) - 1;
  const int cx1 = column_of(std::max({a.x, v1.x, v2.x}), grid.origin.x, cs) + 1;
  const int cz0 = column_of(std::min({a.z, v1.z, v2.z}), grid.origin.z, cs) - 1;
  const int cz1 = column_of(std::max({a.z, v1.z, v2.z}), grid.origin.z, cs) + 1;
  // tile tx's bordered columns are [tx ts - b, (tx + 1) ts + b)
  const int tx0 = std::max(0, floor_div(cx0 - b, ts) - 1);
  const int tx1 = std::min(layout.tiles_x - 1, floor_div(cx1 + b, ts));
  const int tz0 = std::max(0, floor_div(cz0 - b, ts) - 1);
  const int tz1 = std::min(layout.tiles_z - 1, floor_div(cz1 + b, ts));
  // note: a bordered rectangle is a product of column and row ranges, so each axis is tested on
  // its own (as TileLayout::bordered computes them)
  const auto overlaps = [&](int t, int c0, int c1, int extent) {
    const int r0 = std::max(0, t * ts - b);
    const int r1 = std::min(extent, std::min(extent, (t + 1) * ts) + b);
    return !(c1 < r0 || c0 >= r1);
  };
  for (int tz = tz0; tz <= tz1; ++tz) {
    if (!overlaps(tz, cz0, cz1, grid.depth)) continue;
    for (int tx = tx0; tx <= tx1; ++tx) {
      if (!overlaps(tx, cx0, cx1, grid.width)) continue;
      out.push_back(static_cast<std::uint32_t>(static_cast<std::size_t>(tx) +
                                               static_cast<std::size_t>(tz) *
                                                   static_cast<std::size_t>(layout.tiles_x)));
    }
  }
}

std::vector<std::vector<std::uint32_t>> tile_triangles(const TriangleMesh& mesh,
                                                       const TileLayout& layout) {
  std::vector<std::vector<std::uint32_t>> out(layout.tile_count());
  std::vector<std::uint32_t> tiles;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    tiles.clear();
    triangle_tiles(mesh, layout, t, tiles);
    for (const std::uint32_t tile : tiles) out[tile].push_back(static_cast<std::uint32_t>(t));
  }
  return out;
}

TileRect island_window(const TileLayout& layout, std::size_t tile, const BuildConfig& config) {
  const VoxelParams params = derive_voxel_params(config);
  // note: no window is wider than the grid, so a huge min_region_area cannot overflow
  const int reach = std::min(layout.grid.width + layout.grid.depth,
                             layout.border + std::max(0, params.min_region_cells - 1));
  const TileRect r = layout.interior(tile);
  return {std::max(0, r.x0 - reach), std::max(0, r.z0 - reach),
          std::min(layout.grid.width, r.x1 + reach), std::min(layout.grid.depth, r.z1 + reach)};
}

std::string tile_name(const TileLayout& layout, std::size_t tile) {
  const std::size_t tiles_x = static_cast<std::size_t>(layout.tiles_x);
  return "tile (" + std::to_string(tile % tiles_x) + ", " + std::to_string(tile / tiles_x) + ")";
}

std::vector<std::size_t> tile_block(const TileLayout& layout, std::size_t tile) {
  const auto nx = static_cast<std::size_t>(layout.tiles_x);
  const auto nz = static_cast<std::size_t>(layout.tiles_z);
  const std::size_t tx = tile % nx;
  const std::size_t tz = tile / nx;
  std::vector<std::size_t> out;
  for (std::size_t z = tz == 0 ? 0 : tz - 1; z <= tz + 1 && z < nz; ++z) {
    for (std::size_t x = tx == 0 ? 0 : tx - 1; x <= tx + 1 && x < nx; ++x)
      out.push_back(z * nx + x);
  }
  return out;
}

TriangleMesh triangle_subset(const TriangleMesh& mesh, std::span<const std::uint32_t> triangles,
                             std::string name) {
  TriangleMesh out;
  out.name = std::move(name);
  out.area_volumes = mesh.area_volumes;
  std::vector<std::uint32_t> used;
  used.reserve(triangles.size() * 3);
  for (const std::uint32_t t : triangles) {
    for (const std::uint32_t v : mesh.triangles[t]) used.push_back(v);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  out.vertices.reserve(used.size());
  for (const std::uint32_t v : used) out.vertices.push_back(mesh.vertices[v]);
  out.triangles.reserve(triangles.size());
  if (!mesh.areas.empty()) out.areas.reserve(triangles.size());
  for (const std::uint32_t t : triangles) {
    std::array<std::uint32_t, 3> tri{};
    for (std::size_t k = 0; k < 3; ++k) {
      const auto it = std::lower_bound(used.begin(), used.end(), mesh.triangles[t][k]);
      tri[k] = static_cast<std::uint32_t>(it - used.begin());
    }
    out.triangles.push_back(tri);
    if (!mesh.areas.empty()) out.areas.push_back(mesh.areas[t]);
  }
  return out;
}

}  // namespace leapnav::mesh
