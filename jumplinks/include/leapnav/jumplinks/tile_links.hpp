// Jump links on a tiled build (thesis §9 lists links across tile borders as future work): per
// tile, the voxel stage runs on the tile's padded neighbourhood (its columns widened by the
// search reach r(d) = the largest horizontal jump range of the configurations plus the agent
// radius, and by the tile border so the filters see what one big grid shows them), sample points
// are taken in the tile's own columns only, land voxels anywhere in the neighbourhood, and the
// spans are mapped to the polygons of the stitched mesh. Links are refined and checked exactly
// (and compacted) against the neighbourhood's triangles, which hold every triangle an arc of the
// tile can touch, so each link passes the same check as an untiled one. A link is stored with its
// start tile, once, whatever tile it lands in. Tiles run in parallel into per-tile slots joined
// in tile order: the set does not depend on the thread count or the order tiles finish in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_filter.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/tiles.hpp"

namespace leapnav::jump {

/// What a tiled link build makes.
struct TiledLinkOptions {
  JumpLinkOptions jumps;     ///< configurations, step, epsilon (as build_jump_links)
  LinkFilterOptions filter;  ///< drops links that save no walking, before refinement
  LinkRefineOptions refine;  ///< endpoints on the surface, exact check (link_refine.hpp)
  bool compact = true;       ///< write a compact set (link_compact.hpp) instead of every link
  LinkCompactOptions compact_options;
};

/// Checks the jump, refine and compact options; the message names the field.
[[nodiscard]] Status validate(const TiledLinkOptions& options);

/// The search reach in columns: ceil((max over configurations of search_range + agent radius) /
/// cell_size). A link starting in a column lands within this many columns of it, and its arc's
/// cylinder stays within it; so the links of a tile can reach (and depend on the geometry of) only
/// the tiles whose columns lie within reach + layout.border of the tile's own columns.
[[nodiscard]] int jump_reach_cells(const JumpLinkOptions& options, const AgentConfig& agent,
                                   float cell_size);

/// The farthest a link's landing segment may lie from its start point in xz: the largest search
/// range of the configurations (land voxels lie within it: land_search.cpp's circle) plus two
/// cells [units: m]. build_tile_jump_links fails (Internal) on a search link beyond it, so the
/// relink rule that rests on it (link_read_radius) cannot be silently wrong.
[[nodiscard]] double link_land_radius(const JumpLinkOptions& options, float cell_size);

/// How far from tile `tile`'s own columns the tile's link generation can read the stitched
/// polygons [units: m]: the span map, the search, the refinement's and compaction's checks read
/// only polygons that meet link_search_rect (+ 1 cell); the walkable-link filter's walks from a
/// start point s read only polygons holding a point within the walk's bound of s (a portal
/// midpoint reached at walking cost at most the bound, or a point of a straight walk to a landing
/// point), the bound being at most link_land_radius + the filter's slack. The larger of the two,
/// plus one cell. A polygon whose xz bounds stay farther than this (Chebyshev) from the tile's
/// interior is never read by that tile's links.
[[nodiscard]] double link_read_radius(const TiledLinkOptions& options,
                                      const mesh::TileLayout& layout, int reach_cells);

/// The padded neighbourhood tile `tile` is voxelized on for its links: its interior widened by
/// reach_cells + layout.border, clipped to the grid.
[[nodiscard]] mesh::TileRect link_search_rect(const mesh::TileLayout& layout, std::size_t tile,
                                              int reach_cells);

/// The tile of every polygon of a stitched mesh (the tile owning the column of its vertex
/// centroid; a tiled build's polygons lie inside their tile), and the polygons of each tile, CSR.
struct PolygonTiles {
  std::vector<std::uint32_t> poly_tile;   ///< per polygon
  std::vector<std::uint32_t> tile_first;  ///< size tile count + 1
  std::vector<std::uint32_t> tile_polys;  ///< polygon ids, ascending within a tile
};
[[nodiscard]] PolygonTiles polygon_tiles(const mesh::NavMesh& navmesh,
                                         const mesh::TileLayout& layout);

/// One tile's links and counters.
struct TileLinks {
  JumpLinkSet set;  ///< polygon ids of the stitched mesh; every start polygon lies in the tile
  LinkFilterStats filter;
  LinkRefineStats refine;
  LinkCompactStats compact;            ///< zero unless options.compact
  std::uint64_t search_columns = 0;    ///< columns of the padded neighbourhood
  std::uint64_t search_polygons = 0;   ///< polygons of the stitched mesh it holds
  std::uint64_t cross_tile_links = 0;  ///< links landing in another tile
};

/// The links starting in tile `tile`: `triangles` are the triangles of `mesh` whose xz bounds
/// (widened by one cell) overlap link_search_rect(layout, tile, reach) (mesh::tile_triangles of
/// the layout with border + reach gives them), `navmesh` the stitched mesh built with `layout`
/// (its config is the build's), `tiles` its polygon_tiles. A span of the neighbourhood maps to
/// the lowest-numbered polygon of its column's tile whose closed outline contains the column's
/// (min x, min z) corner and whose floor there is nearest to the span's, within max_climb + one
/// cell height. What an incremental rebuild calls for the tiles within reach of a change. Errors:
/// those of the stages; Internal when a link starts outside the tile.
[[nodiscard]] Result<TileLinks> build_tile_jump_links(
    const TriangleMesh& mesh, std::span<const std::uint32_t> triangles,
    const mesh::NavMesh& navmesh, const PolygonTiles& tiles, const mesh::TileLayout& layout,
    std::size_t tile, const TiledLinkOptions& options, BuildContext& ctx);

/// A tiled build's link set.
struct TiledLinks {
  JumpLinkSet set;  ///< indexed over the stitched mesh (index_links); quantum set when compact
  LinkFilterStats filter;                ///< summed over tiles
  LinkRefineStats refine;                ///< summed over tiles
  LinkCompactStats compact;              ///< summed over tiles (zero unless compact)
  std::uint64_t cross_tile_links = 0;    ///< links whose land polygon lies in another tile
  std::uint64_t max_search_columns = 0;  ///< the largest padded neighbourhood, in columns
  /// Tiles voxelized once as pieces the neighbourhoods were assembled from (tile_voxels.hpp);
  /// 0 when every neighbourhood was voxelized as a window of its own.
  std::uint64_t voxel_pieces = 0;
};

/// The links of every tile (build_tile_jump_links), tiles in parallel on ctx.threads() (each on
/// one thread), joined in tile order and indexed. Timers: "tile_links" (wall time) and the tiles'
/// stage timers summed as "tile_links:<stage>". Errors: the first tile's error in tile order;
/// Cancelled between tiles.
[[nodiscard]] Result<TiledLinks> build_tiled_jump_links(const TriangleMesh& mesh,
                                                        const mesh::NavMesh& navmesh,
                                                        const mesh::TileLayout& layout,
                                                        const TiledLinkOptions& options,
                                                        BuildContext& ctx);

/// build_tiled_jump_links for an incremental rebuild: `tile_links` has one entry per tile; an
/// engaged entry is taken as that tile's links (polygon ids of `navmesh`, as build_tile_jump_links
/// would give them), an empty one is built. On success every entry holds its tile's links, so the
/// caller can keep them for the next rebuild; the set, stats and timers are those of
/// build_tiled_jump_links when the reused entries equal what it would build. On error the entries
/// are unspecified. Errors: those of build_tiled_jump_links; InvalidArgument for a wrong entry
/// count.
[[nodiscard]] Result<TiledLinks> build_tiled_jump_links_reusing(
    const TriangleMesh& mesh, const mesh::NavMesh& navmesh, const mesh::TileLayout& layout,
    const TiledLinkOptions& options, std::vector<std::optional<TileLinks>>& tile_links,
    BuildContext& ctx);

}  // namespace leapnav::jump
