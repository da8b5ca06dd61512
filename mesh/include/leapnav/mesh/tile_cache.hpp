// Incremental tiled builds: a tiled build keeps, per tile, the tile's mesh before stitching and a
// fingerprint of the tile's input (its bordered rectangle, its triangles and the area volumes).
// A rebuild after an edit rebuilds the tiles whose bordered rectangle touches the changed box
// (and any other tile whose fingerprint changed), reuses the others and stitches them again.
// Tiles are built and stitched by the same functions as build_tiled_navmesh, so the result is
// bit-identical to a full tiled build of the new geometry (tests/mesh/tile_rebuild_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/tiles.hpp"

namespace leapnav::mesh {

/// The working data an incremental rebuild needs (io/tile_cache_file.hpp saves it). Plain data.
struct TileCache {
  BuildConfig config;  ///< the configuration every tile was built with
  TileLayout layout;   ///< border resolved (never -1)
  /// Per tile, tile_fingerprint of the input it was built from.
  std::vector<std::uint64_t> fingerprints;
  /// Per tile, in tile order: build_tile's output, before stitching.
  std::vector<TileMesh> tiles;
  /// content_hash of the navmesh stitch_tiles makes of `tiles`.
  std::uint64_t navmesh_hash = 0;
  /// Per tile, its linked stitch piece (stitch_piece + link_piece of `tiles`), or empty: derived
  /// data (saved with the cache; prepare_stitch_pieces makes them when missing).
  std::vector<StitchPiece> pieces;
  /// Per tile, tile_hash_part of the tile's slices of the stitched navmesh (navmesh_hash is
  /// content_hash_of_parts of them), or empty: derived data, saved only with nav_file_checksum
  /// (prepare_tile_hashes makes them from the stitched navmesh). A rebuild recomputes only the
  /// parts of the tiles whose slices changed.
  std::vector<TileHashPart> hash_parts;
  /// Per tile, tile_polygon_area in the stitched navmesh, or empty: derived data, saved as
  /// hash_parts are (a rebuild sums them for MeshStats::navmesh_area, recomputing those of the
  /// tiles whose pieces were linked again; prepare_tile_hashes makes them from the stitched
  /// navmesh).
  std::vector<double> tile_areas;
  /// The trailing checksum of the .lnav file written beside the cache from the navmesh of
  /// navmesh_hash, or 0 (none: a rebuild leaves 0, the writer of the file sets it). With it the
  /// cache file keeps hash_parts and tile_areas, and a reader whose .lnav ends in the same
  /// checksum takes them instead of hashing the navmesh again.
  std::uint64_t nav_file_checksum = 0;
};

/// When cache.pieces is not empty: one piece per tile, and every id in them in range and
/// consistent (kept vertices, ranks and references against the tiles' meshes and the pieces
/// they point into, CSR offsets, portals), so splice_pieces reads only valid indices. The
/// message names the tile. Linear in the pieces' size.
[[nodiscard]] Status check_stitch_pieces(const TileCache& cache);

/// Fills cache.pieces from cache.tiles when they are missing (a cache read from a file): one
/// stitch_piece and link_piece per tile, tiles in parallel on ctx.threads(). Errors: those of
/// stitch_piece and link_piece; the cache is unchanged on error.
[[nodiscard]] Status prepare_stitch_pieces(TileCache& cache, BuildContext& ctx);

/// Fills cache.hash_parts from `stitched`, the navmesh the cache stitches to (a cache read from a
/// file has none; its pieces must be there: prepare_stitch_pieces), tiles in parallel on
/// ctx.threads(), and returns content_hash_of_parts of them: content_hash(stitched) when the
/// pieces' slices fit its arrays. The parts are kept only when that equals cache.navmesh_hash
/// (otherwise `stitched` is another navmesh, which the caller reports); then cache.tile_areas
/// are filled too when missing. O(navmesh), once per load. InvalidArgument when the cache has no
/// pieces.
[[nodiscard]] Result<std::uint64_t> prepare_tile_hashes(TileCache& cache, const NavMesh& stitched,
                                                        BuildContext& ctx);

/// Sizes match the layout (fingerprints and tiles one per tile), the layout is one that
/// make_tile_layout gives for its grid, and every tile mesh lies on layout.grid, carries
/// `config` and passes validate(NavMesh). The message names the first offender.
[[nodiscard]] Status validate(const TileCache& cache);

/// A hash of what build_tile reads for tile `tile`: its bordered rectangle, the listed triangles
/// in order (three vertices and the area id each) and the mesh's area volumes. Equal
/// fingerprints (with equal layout and configuration) mean equal tile meshes.
[[nodiscard]] std::uint64_t tile_fingerprint(const TriangleMesh& mesh,
                                             std::span<const std::uint32_t> triangles,
                                             const TileLayout& layout, std::size_t tile);

/// The tiles whose bordered rectangle, widened by the one cell of slack tile_triangles gives
/// each triangle, touches `changed` in xz (closed intervals; y is ignored: a tile is every
/// height), ascending.
[[nodiscard]] std::vector<std::size_t> tiles_touching(const TileLayout& layout,
                                                      const AABB& changed);

/// A tiled build and the cache that rebuilds it.
struct CachedTiledBuild {
  TiledBuildOutput output;
  TileCache cache;
};

/// build_tiled_navmesh (same navmesh, stats and timers) that also returns the cache. Errors:
/// those of build_tiled_navmesh, and InvalidArgument for tile_size 0 (an untiled build has no
/// tiles to reuse).
[[nodiscard]] Result<CachedTiledBuild> build_tiled_navmesh_cached(const TriangleMesh& mesh,
                                                                  const BuildConfig& config,
                                                                  const TileConfig& tiles,
                                                                  BuildContext& ctx);

/// What a rebuild did.
struct RebuildStats {
  std::uint64_t tiles = 0;          ///< tiles in the layout
  std::uint64_t tiles_rebuilt = 0;  ///< built again (every tile when the layout changed)
  std::uint64_t tiles_reused = 0;   ///< taken from the cache
  /// Rebuilt although outside the changed box: their fingerprint differed (the box missed part
  /// of the edit). Each also gets a warning.
  std::uint64_t tiles_outside_changed = 0;
  /// The new geometry's bounds give another world grid (a different origin, size or height), so
  /// every tile was rebuilt.
  bool layout_changed = false;
  /// Tiles whose triangle list was gathered: the rebuilt tiles and those whose list they read
  /// (island windows), each checked against its cached fingerprint; every tile when the layout
  /// changed or RebuildOptions::check_outside is set.
  std::uint64_t tiles_listed = 0;
  double assign_ms = 0.0;  ///< checking the mesh, its layout, triangle lists and fingerprints
  /// Of assign_ms: the scene check and the world bounds (every vertex, triangle and area id).
  double check_ms = 0.0;
  /// Of assign_ms: the passes over the triangles that gather the listed tiles' triangle lists.
  double scan_ms = 0.0;
  /// Of assign_ms, the pass that hashes every tile's input (layout change or check_outside; 0
  /// otherwise).
  double fingerprint_ms = 0.0;
  double tiles_ms = 0.0;   ///< wall time of the tile builds
  double stitch_ms = 0.0;  ///< stitching: pieces, links, splice and checks (below)
  /// Of stitch_ms: the pieces made again (the rebuilt tiles and their neighbours; every tile
  /// when the cache had none), linked again (those and their neighbours), the splice of all
  /// pieces into the navmesh, validate(NavMesh) of the result.
  std::uint64_t pieces_stitched = 0;
  std::uint64_t pieces_linked = 0;
  double pieces_ms = 0.0;
  double splice_ms = 0.0;
  bool spliced_in_place = false;  ///< RebuildOptions::previous was updated in place
  double validate_ms = 0.0;
  double hash_ms = 0.0;  ///< the new navmesh's content hash (from the tiles' parts)
  /// Tiles whose hash part was computed again (their slices changed or moved relative to the
  /// slices their ids point into; every tile when the cache had no parts).
  std::uint64_t tiles_rehashed = 0;
  double tile_stage_ms = 0.0;  ///< the rebuilt tiles' stage times, summed (thread time)
  /// The tiles whose stitch pieces were linked again, ascending (every tile when the layout
  /// changed or the cache had no pieces): every other tile's stitched polygons are those of the
  /// previous navmesh, only renumbered (a link rebuild hashes only these).
  std::vector<std::size_t> tiles_restitched;
};

/// How a rebuild finds what changed.
struct RebuildOptions {
  /// Hash every tile's triangles (one pass over the whole new geometry, O(world)) and rebuild
  /// every tile whose fingerprint differs from the cached one, wherever it lies. Off (the
  /// default), the changed box is the contract: triangles and area volumes outside it are those
  /// the cache was built from; only the triangles near the rebuilt tiles are gathered, and only
  /// the tiles whose lists are gathered are checked against their fingerprints, so an edit more
  /// than a tile's reach beyond the box goes unnoticed and the cache keeps the stale tiles.
  bool check_outside = false;
  /// The navmesh the cache stitches to (the output of the build or rebuild that made the cache,
  /// unchanged since), or null. When given, the result is spliced into its arrays
  /// (splice_pieces_in_place: the tiles before the change keep their place, those after it move
  /// as a block) and moved into the returned output, so *previous is left empty; when its sizes
  /// do not fit the cache (another navmesh) or the layout changed, the result is spliced whole
  /// and *previous is untouched. Either way the result is the same bit for bit. On an error
  /// after the splice (the result failing validation) *previous is left empty too.
  NavMesh* previous = nullptr;
};

/// Rebuilds after an edit inside `changed` (world units; finite, min <= max): with the cache's
/// configuration and tile size, tiles_touching(changed) are built from `mesh` (the new
/// geometry), plus every checked tile whose fingerprint differs from the cached one (a warning
/// names it; which tiles are checked: RebuildOptions) and the tiles whose island filter read
/// columns of those; the rest come from the cache; all are stitched in tile order. When the
/// edit keeps to the box (or check_outside is set), the navmesh, stats and stitch counts equal
/// build_tiled_navmesh's on `mesh` bit for bit. On success the cache holds the new tiles,
/// fingerprints and hash; on error it is unchanged. Timers as
/// build_tiled_navmesh ("tiles", "tile:<stage>" of the rebuilt tiles, "stitch"). Errors:
/// InvalidArgument for a bad box or cache (validate), those of build_tile and stitch_tiles.
[[nodiscard]] Result<TiledBuildOutput> rebuild_tiled_navmesh(const TriangleMesh& mesh,
                                                             TileCache& cache, const AABB& changed,
                                                             BuildContext& ctx,
                                                             RebuildStats* stats = nullptr,
                                                             const RebuildOptions& options = {});

}  // namespace leapnav::mesh
