// Jump links in incremental tiled rebuilds (the mesh side is mesh/tile_cache.hpp): a tiled link
// build keeps, per tile, the tile's links (polygon ids of the stitched mesh they were built on),
// that mesh's polygon-to-tile map, a hash of each tile's stitched polygons and, per polygon, a
// read hash and an xz box. After the tiles R an edit touches are rebuilt and stitched again, the
// links of every tile whose link search rectangle (link_search_rect) overlaps a tile of R, or
// whose read radius (link_read_radius) reaches a stitched polygon that changed (stitching can
// change a neighbour of R), are built again; the other tiles keep theirs, with polygon ids mapped
// to the new numbering (polygons are numbered in tile order; in a tile whose polygons changed,
// the unchanged ones are matched in order). The join is build_tiled_jump_links', so the set
// equals a full tiled link build on the new mesh bit for bit
// (tests/jumplinks/tile_links_rebuild_test.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/tiles.hpp"

namespace leapnav::jump {

/// Border hashes per tile: one per neighbouring tile (dx, dz in -1..1, not both 0; row by row
/// from dz = -1, so index (dz + 1) * 3 + (dx + 1), minus 1 past the centre).
inline constexpr std::size_t kBorderDirections = 8;

/// The link working data of a tiled build. Plain data.
struct TileLinksCache {
  TiledLinkOptions options;  ///< the options every tile's links were built with
  mesh::TileLayout layout;   ///< the layout they were built on
  PolygonTiles polygons;     ///< polygon_tiles of the stitched mesh the links refer to
  /// Per tile, tile_polygon_hash of that mesh.
  std::vector<std::uint64_t> polygon_hashes;
  /// Per tile, kBorderDirections hashes of that mesh: for each neighbouring tile, the edges of the
  /// tile's polygons into it (polygon rank, edge, neighbour's rank in its tile).
  std::vector<std::uint64_t> border_hashes;
  /// Per polygon of that mesh, polygon_read_hash.
  std::vector<std::uint64_t> polygon_reads;
  /// Per polygon of that mesh, the xz bounds of its vertices: min x, min z, max x, max z.
  std::vector<std::array<float, 4>> polygon_boxes;
  /// That mesh's adjacency (NavMesh::poly_first, poly_neighbors): which polygon lies across each
  /// edge, so that a polygon kept by its read hash whose neighbours changed counts as changed.
  std::vector<std::uint32_t> neighbor_first;
  std::vector<std::uint32_t> neighbors;
  /// Per tile, build_tile_jump_links' output (ids of that mesh).
  std::vector<TileLinks> tiles;
};

/// A hash of what the links of a tile can read of polygon `poly` itself: vertex positions, which
/// edges have a neighbour, area, flags, bounds and height patch (not its id, region or
/// neighbours' ids). Two polygons with equal hashes read the same to the link generation.
[[nodiscard]] std::uint64_t polygon_read_hash(const mesh::NavMesh& navmesh, std::uint32_t poly);

/// A hash of what the links of other tiles read of tile `tile`'s stitched polygons: their count
/// and, in order, vertex positions, neighbours within the tile (as their rank in it, so a
/// renumbering elsewhere leaves it alone; an edge into another tile hashes as a boundary edge, its
/// neighbour is in TileLinksCache::border_hashes), region, area, flags, bounds and height patch.
[[nodiscard]] std::uint64_t tile_polygon_hash(const mesh::NavMesh& navmesh,
                                              const PolygonTiles& tiles, std::size_t tile);

/// Sizes match the layout, every link starts in its tile and refers to polygons of `polygons`,
/// the options are valid. The message names the first offender.
[[nodiscard]] Status validate(const TileLinksCache& cache);

/// A tiled link build and the cache that rebuilds it.
struct CachedTiledLinks {
  TiledLinks links;
  TileLinksCache cache;
};

/// build_tiled_jump_links (same set, stats and timers) that also returns the cache.
[[nodiscard]] Result<CachedTiledLinks> build_tiled_jump_links_cached(
    const TriangleMesh& mesh, const mesh::NavMesh& navmesh, const mesh::TileLayout& layout,
    const TiledLinkOptions& options, BuildContext& ctx);

/// The cache of a tiled link set read back from a file: `set` is the joined set
/// build_tiled_jump_links made on `navmesh` with `layout` and `options` (a .lnav keeps its links
/// and configurations exactly); its links are split by start tile. The per-tile counters are
/// zero (a file does not keep them), so a rebuild from this cache gives the full build's links and
/// index, and counters of the relinked tiles only. Errors: InvalidArgument when the set's
/// configurations differ from the options' or a link refers to a polygon `navmesh` lacks.
[[nodiscard]] Result<TileLinksCache> tile_links_cache_from_set(const mesh::NavMesh& navmesh,
                                                               const mesh::TileLayout& layout,
                                                               const JumpLinkSet& set,
                                                               const TiledLinkOptions& options);

/// One relinked tile: why, what it cost, whether its links changed.
struct RelinkedTile {
  std::size_t tile = 0;
  /// Why: its search rectangle overlaps a rebuilt tile (its triangles may differ), or a changed
  /// polygon lies within link_read_radius of its interior (every tile when the layout changed
  /// counts as "polygons").
  enum class Reason : std::uint8_t { rebuilt, polygons } reason = Reason::rebuilt;
  double cpu_ms = 0.0;  ///< processor time of the thread that built its links
  double wall_ms = 0.0;
  bool links_changed = false;  ///< its new links differ from the cached ones (ids mapped)
  std::uint64_t links = 0;     ///< its new links
  /// Its stage timers (build_tile_jump_links' ctx), in the order they were recorded.
  std::vector<std::pair<std::string, double>> stages;
};

/// What a link rebuild did.
struct LinkRebuildStats {
  std::uint64_t tiles = 0;
  std::uint64_t tiles_relinked = 0;  ///< tiles whose links were built again
  std::uint64_t tiles_reused = 0;    ///< tiles whose links were remapped
  /// Tiles whose stitched polygons changed (own or border hash).
  std::uint64_t tiles_polygons_changed = 0;
  /// Of the relinked tiles, those whose new links differ from their cached ones (polygon ids
  /// mapped to the new mesh): the others were relinked to the same links.
  std::uint64_t tiles_links_changed = 0;
  bool layout_changed = false;         ///< another layout: every tile relinked
  double links_ms = 0.0;               ///< the whole call
  std::vector<RelinkedTile> relinked;  ///< per relinked tile, ascending
};

/// The links of `navmesh` (the stitched mesh of a rebuild with `layout`, on the new geometry
/// `mesh`) after the tiles `rebuilt` (ascending or not; mesh::RebuildStats lists what
/// rebuild_tiled_navmesh rebuilt: the touched tiles and those whose fingerprint changed) were
/// built again: tiles whose link search rectangle overlaps a rebuilt tile, or whose interior
/// grown by link_read_radius meets the xz box of a changed polygon (old or new; in the tiles
/// whose own or border hash changed, the polygons left over after matching the old and new read
/// hashes in order by a longest common subsequence, and those whose neighbour across some edge
/// is not the match of the old one), get new links (from their own triangle
/// lists only), the others keep the cached ones, remapped in the cache in place. Equals
/// build_tiled_jump_links(mesh, navmesh, layout, cache.options) bit for bit provided `rebuilt`
/// holds every tile whose triangles changed. On success the cache describes the new mesh; on
/// error it is unchanged. `restitched`, when given, lists the tiles whose stitched polygons may
/// differ from the cached mesh's (mesh::RebuildStats::tiles_restitched): only those are hashed
/// again, the others keep their cached hashes (builds with assertions check that). Errors:
/// InvalidArgument for a bad cache (validate) or a tile number out of range, Internal when a kept
/// link refers to a tile whose polygons changed, those of build_tile_jump_links.
[[nodiscard]] Result<TiledLinks> rebuild_tiled_jump_links(
    const TriangleMesh& mesh, const mesh::NavMesh& navmesh, const mesh::TileLayout& layout,
    std::span<const std::size_t> rebuilt, TileLinksCache& cache, BuildContext& ctx,
    LinkRebuildStats* stats = nullptr, const std::vector<std::size_t>* restitched = nullptr);

}  // namespace leapnav::jump
