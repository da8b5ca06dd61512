// Tile blocks: a tiled NavMesh (and its jump, ledge and ladder links) cut into one self-contained
// block per tile, and the inverse, a NavMesh assembled from any subset of the blocks. A tiled build
// keeps its arrays in tile order (NavMesh::tile_poly_first; each tile's vertices, polygons, corners
// and height samples are contiguous), so a block is its tile's slices with every id kept as the id
// of the whole world's fixed numbering (the world layout says which tile holds which id range).
// Assembling every block gives the original mesh and link set exactly; a subset gives the
// original with the other tiles' polygons removed: edges into them become boundary edges, links
// landing in them are dropped, and the vertices of removed tiles that kept polygons share (the
// stitch welds a corner to the earliest tile's vertex) stay, copied into the blocks that use them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/geometry.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::stream {

/// No tile (a point outside the world's tiles).
inline constexpr std::uint32_t kNoTile = 0xFFFFFFFFU;
/// The most strongly connected components whose reachability a layout stores (as the planner).
inline constexpr std::uint32_t kMaxReachComponents = 4096;

/// What every block shares: the world's grid and tile grid, and where each tile's slices lie in
/// the whole world's arrays (the fixed numbering the blocks' ids use). O(tiles).
struct WorldLayout {
  BuildConfig config;
  GridSpec grid;
  std::int32_t tile_size = 0;  ///< [units: cells]
  std::int32_t tiles_x = 0;
  std::int32_t tiles_z = 0;
  /// CSR over the tiles of the world's polygons, vertices and height samples (size tiles + 1).
  std::vector<std::uint32_t> tile_poly_first;
  std::vector<std::uint32_t> tile_vertex_first;
  std::vector<std::uint32_t> tile_sample_first;
  bool height_patches = false;  ///< the mesh had height patches (one per polygon)
  bool links = false;           ///< the world has a jump link set (maybe empty)
  std::vector<jump::JumpConfig> link_configs;
  float link_quantum = 0.0F;
  /// Bits (plan::QueryOptions::jump_configs) of the configurations of the world's links.
  std::uint64_t link_config_bits = 0;
  bool ledges = false;  ///< the world has a ledge link set (ledge and ladder links, maybe empty)
  /// Bit k set when the world has a ledge link of ledge::LedgeKind k (0 without ledge links).
  std::uint8_t ledge_kind_bits = 0;
  /// Directed reachability in the whole world over walk and link arcs (every configuration; jump,
  /// ledge and ladder links), as plan::Planner (plan::create_planner with the ledge links) keeps
  /// it: per strongly connected component (TileBlock::reach_component) a row of reach_words() words
  /// whose bit d says component d is reachable. Empty without links or with more than
  /// kMaxReachComponents components (then every pair counts as reachable).
  std::uint32_t reach_components = 0;
  std::vector<std::uint64_t> reach;
  [[nodiscard]] std::size_t reach_words() const {
    return (std::size_t{reach_components} + 63) / 64;
  }
  /// Whether component d may be reached from c (true without the table).
  [[nodiscard]] bool may_reach(std::uint32_t c, std::uint32_t d) const {
    if (reach.empty()) return true;
    return ((reach[std::size_t{c} * reach_words() + d / 64] >> (d % 64)) & 1U) != 0;
  }

  [[nodiscard]] std::uint32_t tile_count() const {
    return static_cast<std::uint32_t>(static_cast<std::int64_t>(tiles_x) * tiles_z);
  }
  /// The tile whose columns hold (x, z), kNoTile outside the tiles (or for NaN).
  [[nodiscard]] std::uint32_t tile_at(float x, float z) const;
  /// The tile holding world polygon (vertex) id `id`; kNoTile when out of range.
  [[nodiscard]] std::uint32_t tile_of_poly(std::uint32_t id) const;
  [[nodiscard]] std::uint32_t tile_of_vertex(std::uint32_t id) const;
  [[nodiscard]] std::uint64_t memory_bytes() const;
};

/// One tile's share of the world. Ids are the world's: poly_vertices name world vertices (the
/// tile's own, [layout.tile_vertex_first[tile], + vertices.size()), or foreign ones, whose
/// positions are copied in foreign_vertices), poly_neighbors and the links' polygons world
/// polygons; height patches' `first` counts from the block's first sample.
struct TileBlock {
  std::uint32_t tile = 0;
  std::vector<Vec3> vertices;                 ///< the tile's own vertex slice
  std::vector<std::uint32_t> poly_first;      ///< corners, from 0; size polygons + 1
  std::vector<std::uint32_t> poly_vertices;   ///< world vertex ids
  std::vector<std::uint32_t> poly_neighbors;  ///< world polygon ids, kNoPoly on a boundary
  std::vector<std::uint16_t> poly_region;
  std::vector<std::uint8_t> poly_area;
  std::vector<std::uint16_t> poly_flags;
  std::vector<AABB> poly_bounds;
  std::vector<mesh::HeightPatch> height_patches;  ///< `first` relative to the block's samples
  std::vector<float> height_samples;
  /// Vertices of other tiles that this tile's polygons use: world ids ascending, positions.
  std::vector<std::uint32_t> foreign_vertex_ids;
  std::vector<Vec3> foreign_vertices;
  /// The jump links starting in this tile, in the world set's order (world polygon ids).
  std::vector<jump::JumpLink> links;
  /// The ledge and ladder links whose source polygon lies in this tile, in the world set's order
  /// (world polygon ids; the destination may lie in another tile).
  std::vector<ledge::LedgeLink> ledges;
  /// Per polygon: its island in the whole world, walking (the walk graph's component) and with
  /// the links (jump, ledge and ladder) taken as undirected edges (equal to island without
  /// links).
  std::vector<std::uint32_t> island;
  std::vector<std::uint32_t> link_island;
  /// Per polygon, its strongly connected component in the whole world (walk and link arcs);
  /// empty when the layout has no reach table.
  std::vector<std::uint32_t> reach_component;

  [[nodiscard]] std::uint32_t polygon_count() const {
    return poly_first.empty() ? 0 : static_cast<std::uint32_t>(poly_first.size() - 1);
  }
  /// Bytes held by the block's arrays (sizes, not capacities).
  [[nodiscard]] std::uint64_t memory_bytes() const;
  friend bool operator==(const TileBlock&, const TileBlock&) = default;
};

/// A tiled world cut into blocks, blocks[t].tile == t.
struct TileBlocks {
  WorldLayout layout;
  std::vector<TileBlock> blocks;
};

/// The tile size (cells) of a tiled mesh, inferred from its grid, tile count and polygons: the
/// smallest N whose tile grid (ceil(width / N) x ceil(depth / N)) has the mesh's tile count and
/// holds every polygon of tile t within t's columns. InvalidArgument for an untiled mesh or when
/// no N fits.
[[nodiscard]] Result<std::int32_t> infer_tile_size(const mesh::NavMesh& mesh);

/// Cuts a tiled mesh (NavMesh::tile_poly_first set; mesh::validate holds; no span map) and its
/// links (null: none; jump::validate holds) into blocks. tile_size 0 infers it
/// (infer_tile_size). InvalidArgument for an untiled mesh, a span map, a tile size that does not
/// give the mesh's tile count, a mesh whose vertices or height samples are not in tile order
/// (a tile's polygons must use its own samples). O(mesh + links).
[[nodiscard]] Result<TileBlocks> split_tiles(const mesh::NavMesh& mesh,
                                             const jump::JumpLinkSet* links,
                                             std::int32_t tile_size = 0);
/// The same with ledge and ladder links (null: none; ledge::validate holds): each block holds
/// those whose source polygon is its tile's, and the world's islands and reach table count them
/// as plan::create_planner(mesh, links, ledges) does (its merged link set's arcs).
[[nodiscard]] Result<TileBlocks> split_tiles(const mesh::NavMesh& mesh,
                                             const jump::JumpLinkSet* links,
                                             const ledge::LedgeLinkSet* ledges,
                                             std::int32_t tile_size = 0);

/// A navmesh assembled from blocks, with its links and per-polygon world islands.
struct AssembledTiles {
  /// The loaded tiles' polygons in tile order (each block's in its order); its
  /// tile_poly_first spans every tile of the layout (an absent tile holds no polygon), so
  /// polygon `local` of tile t is tile_poly_first[t] + local.
  mesh::NavMesh mesh;
  std::optional<jump::JumpLinkSet> links;      ///< when the layout has links (stats zero)
  std::optional<ledge::LedgeLinkSet> ledges;   ///< when the layout has ledges (stats zero)
  std::vector<std::uint32_t> island;           ///< per polygon, TileBlock::island
  std::vector<std::uint32_t> link_island;      ///< per polygon, TileBlock::link_island
  std::vector<std::uint32_t> reach_component;  ///< per polygon, TileBlock::reach_component
};

/// Assembles the blocks (any order; the layout they were split with) into one navmesh: ids
/// renumbered in tile order, neighbours in absent tiles become boundary edges (kNoPoly), links
/// (jump, ledge, ladder) landing in absent tiles are dropped, foreign vertices of absent tiles are
/// kept (in world id order among the others). InvalidArgument for a block of a tile outside the
/// layout, a tile given twice, or a block whose ids do not fit the layout. O(the blocks + tiles).
[[nodiscard]] Result<AssembledTiles> assemble_tiles(const WorldLayout& layout,
                                                    std::span<const TileBlock* const> blocks);

/// Invariants of a block against its layout: sizes, ids in range, own vertices and samples in
/// range, foreign vertex ids ascending and outside the tile, links starting in the tile, ledge
/// links starting in the tile, sorted as ledge::sort_links sorts them, with finite points and
/// costs.
[[nodiscard]] Status validate(const TileBlock& block, const WorldLayout& layout);

/// Invariants of a layout: tile grid sizes and CSR arrays.
[[nodiscard]] Status validate(const WorldLayout& layout);

}  // namespace leapnav::stream
