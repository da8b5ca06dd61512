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

/// Whether two layouts are the same: grids equal bit for bit (same_grid_bits), same tile size,
/// border and tile counts.
[[nodiscard]] bool same_layout(const TileLayout& a, const TileLayout& b);

/// The layout of `tiles` over `grid` (validated with `config`; border -1 resolved).
[[nodiscard]] Result<TileLayout> make_tile_layout(const GridSpec& grid, const TileConfig& tiles,
                                                  const BuildConfig& config);

/// The tiles tile_triangles lists triangle `triangle` for, ascending, appended to `out`.
void triangle_tiles(const TriangleMesh& mesh, const TileLayout& layout, std::size_t triangle,
                    std::vector<std::uint32_t>& out);

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

/// The tiles of the 3 x 3 block around `tile` that exist (itself included), ascending.
[[nodiscard]] std::vector<std::size_t> tile_block(const TileLayout& layout, std::size_t tile);

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
  friend bool operator==(const StitchStats&, const StitchStats&) = default;
};

/// Joins tile meshes (one per tile of `layout`, in tile order) into one NavMesh on the world
/// grid. On every line between two tiles, vertices of the two sides at the same corner whose
/// heights differ by at most agent.max_climb (in cell heights, + 1) are welded (never two vertices
/// of one tile), then each border edge gets the other side's vertices that lie inside it within
/// that tolerance of its height; edges that then share both vertices become portals (adjacency as
/// in build_polygons). Inserted vertices not needed by a portal are dropped again; a polygon left
/// with more than poly.max_verts_per_poly vertices is cut along diagonals into convex pieces that
/// share its height patch. Polygons stay in tile order. Computed tile by tile (stitch_piece,
/// link_piece, splice_pieces; tiles in parallel on `threads`, the same bytes for any count).
/// Errors: InvalidArgument when the tile meshes do not match the layout; Internal when the
/// result fails validate().
[[nodiscard]] Result<NavMesh> stitch_tiles(std::span<const TileMesh> tiles,
                                           const TileLayout& layout, const BuildConfig& config,
                                           StitchStats* stats = nullptr, int threads = 1);

/// One tile's share of the stitched navmesh. Stitching is local: what happens at a tile line
/// involves only the tiles that meet there, so a tile's piece is a function of its own tile mesh
/// and those of its 8 neighbours (stitch_piece), the ids it refers to in neighbouring pieces
/// are resolved from the 4 edge neighbours' and 8 neighbours' pieces (link_piece), and the
/// navmesh is the pieces concatenated in tile order with id offsets (splice_pieces). A rebuild
/// recomputes the pieces of the changed tiles and their neighbours, links those and their
/// neighbours, and splices: the same functions as a full stitch, so the same bytes. Plain data.
struct StitchPiece {
  /// Per vertex of the tile mesh: its index among the tile's kept vertices, or kNoPoly when it
  /// was welded to a vertex of an earlier tile (or is unused). Kept vertices keep their order.
  std::vector<std::uint32_t> vertex_rank;
  std::vector<std::uint32_t> kept;  ///< the kept vertices (tile mesh indices), ascending
  /// The tile's stitched polygons, CSR; a split polygon's pieces in place.
  std::vector<std::uint32_t> poly_first;
  /// Per polygon corner: the tile owning the vertex and the vertex's index in that tile's mesh.
  std::vector<std::uint32_t> vertex_tile;
  std::vector<std::uint32_t> vertex_local;
  /// Per polygon edge: the polygon of this piece across it, kNoPoly on a boundary, kCrossTile
  /// when it is a polygon of another tile (see `cross`).
  std::vector<std::uint32_t> neighbor_local;
  std::vector<std::uint32_t> source_poly;  ///< per polygon: the tile mesh polygon it comes from
  std::vector<AABB> bounds;                ///< per polygon
  /// Portal edges to other tiles: the edge (index into neighbor_local), the tile across and the
  /// edge's two vertices as tile << 32 | vertex, smaller first.
  struct Cross {
    std::uint32_t edge = 0;
    std::uint32_t tile = 0;
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    friend bool operator==(const Cross&, const Cross&) = default;
  };
  std::vector<Cross> cross;
  /// This tile's share of the counts: welds into sets whose kept vertex is this tile's,
  /// insertions and splits of its polygons, and its portal edges (each pair counted by both
  /// sides; splice_pieces halves the sum).
  StitchStats stats;
  /// Filled by link_piece, per polygon corner / edge: the vertex as (tile, kept index) and the
  /// neighbour as (tile, polygon of that tile's piece); kNoPoly tile on a boundary.
  std::vector<std::uint32_t> vertex_rank_ref;
  std::vector<std::uint32_t> neighbor_tile;
  std::vector<std::uint32_t> neighbor_poly;
  static constexpr std::uint32_t kCrossTile = kNoPoly - 1;
  friend bool operator==(const StitchPiece&, const StitchPiece&) = default;
};

/// The stitched piece of tile `tile` (see StitchPiece): welds, corner insertions, portals and
/// splits of stitch_tiles for this tile's polygons, from the tile meshes of the tile and its 8
/// neighbours only. Errors: InvalidArgument when the tile's mesh is not on the layout's grid;
/// Internal when a polygon cannot be cut to max_verts_per_poly.
[[nodiscard]] Result<StitchPiece> stitch_piece(std::span<const TileMesh> tiles,
                                               const TileLayout& layout, const BuildConfig& config,
                                               std::size_t tile);

/// Resolves piece `tile`'s references into its neighbours' pieces (their stitch_piece results,
/// all present in `pieces`). Internal error when a portal has no partner across.
[[nodiscard]] Status link_piece(std::span<StitchPiece> pieces, const TileLayout& layout,
                                std::size_t tile);

/// The navmesh of linked pieces (one per tile, in tile order) and their tile meshes; the counts
/// summed. Does not run validate(NavMesh) (stitch_tiles does). Errors: InvalidArgument when
/// sizes do not match or some tiles have height patches and others not.
[[nodiscard]] Result<NavMesh> splice_pieces(std::span<const TileMesh> tiles,
                                            std::span<const StitchPiece> pieces,
                                            const TileLayout& layout, const BuildConfig& config,
                                            StitchStats* stats = nullptr);

/// One tile's part of a spliced navmesh: its kept vertices, polygons, corners and height samples.
struct PieceSizes {
  std::uint32_t vertices = 0;
  std::uint32_t polygons = 0;
  std::uint32_t corners = 0;
  std::uint32_t samples = 0;
  friend bool operator==(const PieceSizes&, const PieceSizes&) = default;
};

/// splice_pieces into `nav`, the navmesh splice_pieces made of this layout's pieces before the
/// pieces of the tiles in `changed` were made or linked again; `before` holds every tile's
/// sizes then. The result is splice_pieces's bit for bit, in less work: tiles before the first
/// tile whose sizes changed keep their place (rewritten only when in `changed`); the tiles from
/// one row past the last such tile on are moved as a block, their ids shifted by the size
/// change (a tile's ids point into its 3 x 3 block); the tiles between, and every tile in
/// `changed`, are written from their pieces. When no size changed, only the `changed` tiles are
/// written. Errors (nav untouched): InvalidArgument when `nav`'s sizes, tile ranges or grid do
/// not match `before` and the layout, and those of splice_pieces.
[[nodiscard]] Status splice_pieces_in_place(NavMesh& nav, std::span<const TileMesh> tiles,
                                            std::span<const StitchPiece> pieces,
                                            const TileLayout& layout, const BuildConfig& config,
                                            std::span<const PieceSizes> before,
                                            std::span<const std::size_t> changed,
                                            StitchStats* stats = nullptr);

/// What a tiled build hands on.
struct TiledBuildOutput {
  TileLayout layout;
  NavMesh navmesh;  ///< config = the build's config; no span map when tiled
  MeshStats stats;  ///< regions summed over tiles (a region cut by a tile edge counts per tile)
  StitchStats stitch;
};

/// The xz area of tile `tile`'s polygons of a tiled navmesh (tile_poly_first), summed in order.
[[nodiscard]] double tile_polygon_area(const NavMesh& mesh, std::size_t tile);

/// A tiled navmesh's polygon area as MeshStats::navmesh_area of a tiled build gives it: the
/// tiles' tile_polygon_area summed in tile order (so a rebuild adds the cached sums of the tiles
/// that did not change). Without tile_poly_first, the polygons' areas summed in order.
[[nodiscard]] double tiled_navmesh_area(const NavMesh& mesh);

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
