// Tiled builds (the scheme of Recast's tiled navmesh, written from its description): the world
// grid is cut into square tiles of tile_size columns; each tile is voxelized with a border of
// extra columns around it so that filters and erosion see the same neighbourhood as in one big
// grid, cropped back to its own columns, and run through regions, contours, polygons and heights
// on its own. The tile meshes are then stitched into one NavMesh: vertices that meet on a shared
// tile edge within the height tolerance are welded, each border edge gets the other side's
// vertices inserted (T-junctions, straight corners), so portals are shared edges and the planner
// sees an ordinary mesh. Output is bit-identical for any thread count and tile build order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::mesh {

/// How a build is cut into tiles.
struct TileConfig {
  /// Columns per tile side; 0 = one tile, the untiled build [units: cells] [range: 0 or 16..65536]
  int tile_size = 0;
  /// Columns voxelized around each tile; -1 = agent radius + 3 cells, as Recast does; must be
  /// at least the agent radius in cells for tiles to meet exactly [units: cells]
  /// [range: -1 or walkable_radius..1024]
  int border = -1;
  friend bool operator==(const TileConfig&, const TileConfig&) = default;
};

/// Checks tile_size and border against their ranges (border against the config's agent radius);
/// the message names the field.
[[nodiscard]] Status validate(const TileConfig& tiles, const BuildConfig& config);

/// Columns [x0, x1) x [z0, z1) of the world grid.
struct TileRect {
  int x0 = 0;
  int z0 = 0;
  int x1 = 0;
  int z1 = 0;
  [[nodiscard]] int width() const { return x1 - x0; }
  [[nodiscard]] int depth() const { return z1 - z0; }
  friend bool operator==(const TileRect&, const TileRect&) = default;
};

/// The tiles of a world grid, numbered row by row: tile t is (t % tiles_x, t / tiles_x).
struct TileLayout {
  GridSpec grid;      ///< the world grid (make_grid over the mesh bounds, as untiled)
  int tile_size = 0;  ///< [units: cells]
  int border = 0;     ///< [units: cells]
  int tiles_x = 0;
  int tiles_z = 0;

  [[nodiscard]] std::size_t tile_count() const {
    return static_cast<std::size_t>(tiles_x) * static_cast<std::size_t>(tiles_z);
  }
  /// The columns tile t owns; the tiles partition the grid (the last row and column may be
  /// narrower).
  [[nodiscard]] TileRect interior(std::size_t tile) const;
  /// The columns tile t is voxelized on: interior widened by `border`, clipped to the grid.
  [[nodiscard]] TileRect bordered(std::size_t tile) const;
  /// The grid of a rectangle of columns: same cell sizes and height, origin at its (x0, z0)
  /// corner (GridSpec::corner_to_world of the world grid, so tiles share corners exactly).
  [[nodiscard]] GridSpec rect_grid(const TileRect& rect) const;
};

/// The layout of `tiles` over `grid` (validated with `config`; border -1 resolved).
[[nodiscard]] Result<TileLayout> make_tile_layout(const GridSpec& grid, const TileConfig& tiles,
                                                  const BuildConfig& config);

/// For each tile, the indices of the triangles whose xz bounds (widened by one cell) overlap its
/// bordered rectangle, ascending.
[[nodiscard]] std::vector<std::vector<std::uint32_t>> tile_triangles(const TriangleMesh& mesh,
                                                                     const TileLayout& layout);

/// The listed triangles of `mesh` (with their area ids and the mesh's area volumes) and only the
/// vertices they use, renumbered in ascending index order, named `name`. A tile's input: the
/// lookup is a sorted list, not a table over all the world's vertices, so a tile costs what its
/// own triangles cost.
[[nodiscard]] TriangleMesh triangle_subset(const TriangleMesh& mesh,
                                           std::span<const std::uint32_t> triangles,
                                           std::string name);

/// "tile (x, z)": a tile's position for messages.
[[nodiscard]] std::string tile_name(const TileLayout& layout, std::size_t tile);

/// One tile's part of the navmesh, in the world grid: vertices at world grid corners
/// (GridSpec::corner_to_world of layout.grid), height patches in world columns, grid = the
/// world grid, no span map. Adjacency is the tile's own; its border edges are boundary edges.
struct TileMesh {
  NavMesh mesh;
  MeshStats stats;  ///< regions, polygons, vertices and areas of this tile alone
  /// The columns beyond the bordered rectangle the mesh depends on (world grid columns; empty,
  /// width 0, when none): where an area smaller than region.min_region_area crosses the bordered
  /// rectangle's edge, the island filter measures it on island_window, and the outcome holds
  /// while the columns it visited, widened by the border and one column, keep their triangles (a
  /// rebuild redoes the tile when a tile owning one of these columns changes).
  TileRect island_reads;
};

/// The columns a tile's island filter may read: its interior widened by the border plus
/// region.min_region_area in cells less one (an area of fewer spans reaches no further), clipped
/// to the grid. With min_region_area 0, the bordered rectangle.
[[nodiscard]] TileRect island_window(const TileLayout& layout, std::size_t tile,
                                     const BuildConfig& config);

/// Builds tile `tile` of `layout` on ctx.threads(); `tile_triangles` holds every tile's triangle
/// list (tile_triangles(mesh, layout)). The voxel stage runs on the bordered rectangle;
/// connected walkable areas smaller than region.min_region_area are removed exactly as the
/// untiled region stage removes them: one that lies inside the rectangle is measured there, one
/// that crosses its open edge is measured on the voxel stage of island_window (from the
/// triangles of the tiles it overlaps; TileMesh::island_reads). The field is cropped to
/// the interior; regions, contours, polygons and heights run on it. A tile without triangles or
/// walkable area gives an empty mesh. Errors: those of the stages, InvalidArgument when
/// `tile_triangles` does not have one list per tile, and Internal when the tile's mesh fails
/// validate().
[[nodiscard]] Result<TileMesh> build_tile(
    const TriangleMesh& mesh, std::span<const std::vector<std::uint32_t>> tile_triangles,
    const TileLayout& layout, std::size_t tile, const BuildConfig& config, BuildContext& ctx);

/// Counts of a stitch.
struct StitchStats {
  std::uint64_t welded_vertices = 0;   ///< vertices merged into a vertex of another tile
  std::uint64_t inserted_corners = 0;  ///< vertices inserted into border edges and kept
  std::uint64_t portal_edges = 0;      ///< edge pairs connecting polygons of different tiles
  std::uint64_t split_polygons = 0;    ///< polygons split because insertions passed max vertices
};

/// Joins tile meshes (one per tile of `layout`, in tile order) into one NavMesh on the world
/// grid. On every line between two tiles, vertices of the two sides at the same corner whose
/// heights differ by at most agent.max_climb (in cell heights, + 1) are welded (never two vertices
/// of one tile), then each border edge gets the other side's vertices that lie inside it within
/// that tolerance of its height; edges that then share both vertices become portals (adjacency as
/// in build_polygons). Inserted vertices not needed by a portal are dropped again; a polygon left
/// with more than poly.max_verts_per_poly vertices is cut along diagonals into convex pieces that
/// share its height patch. Polygons stay in tile order. Errors: InvalidArgument when the tile
/// meshes do not match the layout; Internal when the result fails validate().
[[nodiscard]] Result<NavMesh> stitch_tiles(std::span<const TileMesh> tiles,
                                           const TileLayout& layout, const BuildConfig& config,
                                           StitchStats* stats = nullptr);

/// What a tiled build hands on.
struct TiledBuildOutput {
  TileLayout layout;
  NavMesh navmesh;  ///< config = the build's config; no span map when tiled
  MeshStats stats;  ///< regions summed over tiles (a region cut by a tile edge counts per tile)
  StitchStats stitch;
};

/// Builds the navmesh of `mesh` tile by tile: tiles.tile_size 0 is build_navmesh (bit-identical
/// navmesh and stats, span map included); otherwise tiles run in parallel on ctx.threads(), each
/// on one thread, holding only the tiles in flight, and are stitched in tile order. Timers:
/// "tiles" (wall time of the tile builds), the per-tile stage timers summed over tiles (thread
/// time), "stitch". Warnings of a tile are prefixed with its position. Errors: those of
/// build_tile (the first in tile order) and stitch_tiles; Cancelled between tiles.
[[nodiscard]] Result<TiledBuildOutput> build_tiled_navmesh(const TriangleMesh& mesh,
                                                           const BuildConfig& config,
                                                           const TileConfig& tiles,
                                                           BuildContext& ctx);

}  // namespace leapnav::mesh
