// A streaming world: tiles are read from a source (a tile pack file, or blocks in memory) when
// loaded and freed when unloaded; queries run on a planner over the loaded tiles only. Each
// load or unload assembles the loaded blocks into a navmesh (assemble_tiles) and builds a new
// plan::Planner on it, published as an immutable snapshot: queries hold the snapshot they started
// with, so loads and unloads may run while queries run, and memory follows the loaded tiles.
// Cost of a change: O(loaded tiles) (assembly and planner build), not O(changed tile) as Detour's
// addTile/removeTile; fine for a window of tiles around a player (bench/RESULTS.md, "Streaming
// tile packs").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/streaming/tile_blocks.hpp"

namespace leapnav::stream {

/// Where a world's blocks come from. read() is called from the thread that loads a tile, one
/// call at a time per world (the world serialises its loads); an implementation used by several
/// worlds must be safe to call concurrently.
class TileSource {
 public:
  TileSource() = default;
  TileSource(const TileSource&) = delete;
  TileSource& operator=(const TileSource&) = delete;
  TileSource(TileSource&&) = delete;
  TileSource& operator=(TileSource&&) = delete;
  virtual ~TileSource() = default;
  [[nodiscard]] virtual const WorldLayout& layout() const = 0;
  /// The block of tile `tile` (validate(block, layout()) holds for a block it returns).
  [[nodiscard]] virtual Result<TileBlock> read(std::uint32_t tile) const = 0;
  /// Bytes the source itself keeps in memory (a pack's table; all blocks for a memory source).
  [[nodiscard]] virtual std::uint64_t memory_bytes() const = 0;
};

/// Blocks kept in memory (tests, tools); read() copies a block.
class MemoryTileSource final : public TileSource {
 public:
  explicit MemoryTileSource(TileBlocks blocks) : blocks_(std::move(blocks)) {}
  [[nodiscard]] const WorldLayout& layout() const override { return blocks_.layout; }
  [[nodiscard]] Result<TileBlock> read(std::uint32_t tile) const override;
  [[nodiscard]] std::uint64_t memory_bytes() const override;

 private:
  TileBlocks blocks_;
};

/// One immutable state of a world: which tiles were loaded, the navmesh assembled from them and
/// its planner. Polygon ids in its paths are this snapshot's (polygons of the loaded tiles in tile
/// order); tile_polygon / polygon_tile map them to (tile, polygon within the tile), which stays
/// the same across snapshots.
class WorldSnapshot {
 public:
  /// A path as plan::NavQuery::find_path gives it on the loaded tiles' navmesh, with these
  /// statuses for unloaded tiles (as plan::Planner::unload_tile's, see docs/tiles.md):
  /// - the start's (else the goal's) xz lies in a tile that is not loaded: NoPath,
  ///   Path::unloaded_tile that tile, blocked_by_unloaded_tiles;
  /// - no path over the loaded tiles, the goal's polygon passes the filter and start and goal
  ///   lie in one island of the whole world (walking; with the links the query may use, one
  ///   island with the links taken both ways and the goal reachable from the start over the
  ///   world's walk and link arcs when the layout has its reach table): NoPath,
  ///   blocked_by_unloaded_tiles (with those tiles loaded a path may exist).
  /// An end located on no loaded polygon: StartNotOnMesh / GoalNotOnMesh. Errors as find_path's.
  /// Thread-safe (a NavQuery per call).
  [[nodiscard]] Result<plan::Path> find_path(Vec3 start, Vec3 goal,
                                             const plan::QueryOptions& options = {}) const;

  [[nodiscard]] const WorldLayout& layout() const { return *layout_; }
  [[nodiscard]] bool tile_loaded(std::uint32_t tile) const {
    return tile < loaded_.size() && loaded_[tile] != 0;
  }
  [[nodiscard]] std::uint32_t loaded_count() const;
  /// The planner over the loaded tiles (none when no tile is loaded).
  [[nodiscard]] const plan::Planner* planner() const { return planner_ ? &*planner_ : nullptr; }
  /// The snapshot id of polygon `local` of a loaded tile (nullopt when the tile is not loaded or
  /// has fewer polygons); O(1).
  [[nodiscard]] std::optional<mesh::PolyId> tile_polygon(std::uint32_t tile,
                                                         std::uint32_t local) const;
  /// (tile, polygon within the tile) of a snapshot polygon id; O(log tiles).
  [[nodiscard]] std::pair<std::uint32_t, std::uint32_t> polygon_tile(mesh::PolyId p) const;
  /// Bytes of the assembled navmesh, its links, the world islands and the planner's data.
  [[nodiscard]] std::uint64_t memory_bytes() const { return bytes_; }

 private:
  friend class TileWorld;
  std::shared_ptr<const WorldLayout> layout_;
  std::vector<char> loaded_;
  std::optional<plan::Planner> planner_;
  std::vector<std::uint32_t> island_;
  std::vector<std::uint32_t> link_island_;
  std::vector<std::uint32_t> reach_component_;
  std::uint64_t bytes_ = 0;
};

/// A world streamed from a TileSource. All tiles start unloaded. load_tile / unload_tile (and the
/// batch set_loaded) may be called from any thread, concurrently with queries and with each other
/// (changes are serialised; each publishes a new snapshot). Not copyable; movable.
class TileWorld {
 public:
  /// A world over `source` (not null) with no tile loaded; checks the source's layout.
  [[nodiscard]] static Result<TileWorld> create(std::shared_ptr<const TileSource> source);

  TileWorld(TileWorld&&) noexcept;
  TileWorld& operator=(TileWorld&&) noexcept;
  TileWorld(const TileWorld&) = delete;
  TileWorld& operator=(const TileWorld&) = delete;
  ~TileWorld();

  [[nodiscard]] const WorldLayout& layout() const;
  [[nodiscard]] std::uint32_t tile_count() const { return layout().tile_count(); }
  /// Reads the tile's block and keeps it; publishes a snapshot with it. Loading a loaded tile
  /// does nothing. InvalidArgument for an index >= tile_count(); the source's error (a damaged
  /// pack names the file and the tile) leaves the world as it was.
  [[nodiscard]] Status load_tile(std::uint32_t tile);
  /// Frees the tile's block; publishes a snapshot without it. Unloading an unloaded tile does
  /// nothing. InvalidArgument for an index >= tile_count().
  [[nodiscard]] Status unload_tile(std::uint32_t tile);
  /// Makes exactly `tiles` loaded (reading the newly loaded, freeing the others) with one new
  /// snapshot: what a streaming window calls when the player moves. On an error nothing changes.
  [[nodiscard]] Status set_loaded(std::span<const std::uint32_t> tiles);
  [[nodiscard]] bool tile_loaded(std::uint32_t tile) const;

  /// The current snapshot (never null); it stays valid, unchanged, while held.
  [[nodiscard]] std::shared_ptr<const WorldSnapshot> snapshot() const;
  /// snapshot()->find_path(...).
  [[nodiscard]] Result<plan::Path> find_path(Vec3 start, Vec3 goal,
                                             const plan::QueryOptions& options = {}) const;

  /// Bytes the world holds: the source's own memory (with the layout), the loaded blocks and
  /// the current snapshot (a snapshot still held by a running query is not counted).
  [[nodiscard]] std::uint64_t resident_bytes() const;
  /// Bytes of the loaded blocks alone.
  [[nodiscard]] std::uint64_t block_bytes() const;

  struct State;

 private:
  explicit TileWorld(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace leapnav::stream
