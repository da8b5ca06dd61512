// The voxels of a tile's padded link neighbourhood assembled from per-tile pieces (our addition
// for tiled builds). A tiled link build needs, for every tile, the solid and compact heightfields
// of the tile widened by its border and the jump reach (144 x 144 columns for a 64-column tile of
// the default configuration); voxelized window by window, every column is rasterized, filtered,
// compacted and eroded about five times. Instead each tile's own columns are voxelized once (on
// the tile widened by the agent radius + 3 cells, the border that makes a tile's own columns equal
// to the untiled build's, cell for cell: mesh.tiles "every tile's voxel stage gives its columns
// the untiled compact spans") and a neighbourhood is assembled from the pieces of the tiles it
// overlaps. Every column of the assembly is the untiled build's column; a window voxelized on its
// own agrees with it wherever it is exact, i.e. everywhere but a ring of `layout.border` columns
// at its edge, which the link search never reads (it reads within the jump reach of the tile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/voxel/voxelize.hpp"

namespace leapnav::jump {

/// The voxel stage's output for the own columns of one tile (its interior), in the columns'
/// row-major order: solid spans (filtered) and compact spans with their areas (eroded), CSR.
/// A compact span's connections are those of the untiled build (indices into neighbour columns).
struct TileVoxelPiece {
  mesh::TileRect rect;                     ///< the tile's interior columns (world grid)
  std::vector<std::uint32_t> solid_first;  ///< size columns + 1
  std::vector<voxel::Span> solid;          ///< after the walkability filters
  std::vector<std::uint32_t> open_first;   ///< size columns + 1
  std::vector<voxel::CompactSpan> open;    ///< after erosion (no distance field)
  std::vector<std::uint8_t> areas;         ///< per open span
  /// The obstacle field's columns (build_obstacle_bits on the bordered tile, cut to its own
  /// columns: their blocking neighbourhoods lie inside the border)
  ObstacleColumns obstacles;
  [[nodiscard]] std::uint64_t bytes() const;
};

/// Invariants of a piece: both CSR column tables sized columns + 1, starting at 0, non-decreasing
/// and ending at their span counts; areas sized like the open spans; the obstacle columns on the
/// same rectangle with both plane arrays, the approx flags and bit offsets sized by its columns,
/// and every approximate column's bits inside `bits`. The message names the field.
[[nodiscard]] Status validate(const TileVoxelPiece& piece);

/// The border a piece is voxelized with: the agent radius + 3 cells [units: cells].
[[nodiscard]] int tile_piece_border(const BuildConfig& config);

/// The tiles whose pieces tile_piece_triangles lists triangles for: layout with
/// border = tile_piece_border(config) (so mesh::tile_triangles of it gives each piece's input).
[[nodiscard]] mesh::TileLayout tile_piece_layout(const mesh::TileLayout& layout,
                                                 const BuildConfig& config);

/// The piece of tile `tile`: `triangles` (indices into mesh) must hold every triangle
/// mesh::tile_triangles(mesh, tile_piece_layout(layout, config)) lists for the tile. Timers: those
/// of voxelize_window ("rasterize", "filter", "compact", "erode") and "jump_obstacles" in ctx.
/// Errors: those of voxelize_window (never EmptyInput: a tile without triangles gives an empty
/// piece).
[[nodiscard]] Result<TileVoxelPiece> build_tile_voxel_piece(
    const TriangleMesh& mesh, std::span<const std::uint32_t> triangles,
    const mesh::TileLayout& layout, std::size_t tile, const BuildConfig& config, BuildContext& ctx);

/// The solid and compact heightfields of columns `rect` of the world grid (grid
/// layout.rect_grid(rect)), column by column from `pieces` (indexed by tile; every tile `rect`
/// overlaps must be given, others may be null). Connections leaving `rect` are cut (as a window
/// voxelized on its own has them). No distance field; stats count spans.
[[nodiscard]] Result<voxel::VoxelOutput> assemble_tile_voxels(
    const mesh::TileLayout& layout, const mesh::TileRect& rect,
    std::span<const TileVoxelPiece* const> pieces, const BuildConfig& config);

/// assemble_tile_voxels into `out`, reusing its arrays' storage (a caller assembling many
/// neighbourhoods keeps one output per thread). Every field of `out` is overwritten.
[[nodiscard]] Status assemble_tile_voxels_into(const mesh::TileLayout& layout,
                                               const mesh::TileRect& rect,
                                               std::span<const TileVoxelPiece* const> pieces,
                                               const BuildConfig& config, voxel::VoxelOutput& out);

}  // namespace leapnav::jump
