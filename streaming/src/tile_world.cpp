// The streaming world (tile_world.hpp): blocks of loaded tiles, and an immutable snapshot (the
// assembled navmesh and its planner) swapped under a short lock on every change. Changes are
// serialised by a second lock, so a slow load never blocks queries, which only copy the
// snapshot pointer.

#include "leapnav/streaming/tile_world.hpp"

#include <algorithm>
#include <limits>
#include <mutex>
#include <string>

#include "leapnav/planning/ledge_planner.hpp"

namespace leapnav::stream {

namespace {

template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return std::uint64_t{v.size()} * sizeof(T);
}

std::uint64_t navmesh_bytes(const mesh::NavMesh& m) {
  return sizeof(mesh::NavMesh) + bytes_of(m.vertices) + bytes_of(m.poly_first) +
         bytes_of(m.poly_vertices) + bytes_of(m.poly_neighbors) + bytes_of(m.poly_region) +
         bytes_of(m.poly_area) + bytes_of(m.poly_flags) + bytes_of(m.poly_bounds) +
         bytes_of(m.height_patches) + bytes_of(m.height_samples) + bytes_of(m.span_column_first) +
         bytes_of(m.span_y) + bytes_of(m.span_poly) + bytes_of(m.tile_poly_first) +
         m.config.name.size();
}

// Whether a query with `options` plans over the world's links, as plan::Planner decides it for
// the whole world's planner (plan::create_planner): the link set's configurations are the jump
// configurations, then with ledge links one per ledge::LedgeKind; jumps select the former (masked
// by jump_configs), ledge_links the latter.
bool plans_with_links(const WorldLayout& layout, const plan::QueryOptions& options) {
  const auto bit = [](std::size_t c) { return std::uint64_t{1} << (c < 63 ? c : 63); };
  const std::size_t jumps = layout.link_configs.size();
  std::uint64_t present = layout.link_config_bits;
  std::uint64_t jump_mask = ~std::uint64_t{0};
  std::uint64_t ledge_mask = 0;
  if (layout.ledge_kind_bits != 0) {
    // note: without ledge links the planner has no link extras, and every configuration is a jump
    jump_mask = 0;
    for (std::size_t c = 0; c < jumps; ++c) jump_mask |= bit(c);
    for (std::size_t k = 0; k < static_cast<std::size_t>(ledge::kLedgeKindCount); ++k) {
      ledge_mask |= bit(jumps + k);
      if (((layout.ledge_kind_bits >> k) & 1U) != 0) present |= bit(jumps + k);
    }
  }
  const std::uint64_t allowed = (options.jumps ? options.jump_configs & jump_mask : 0) |
                                (options.ledge_links ? ledge_mask : 0);
  return (layout.links || layout.ledge_kind_bits != 0) && (present & allowed) != 0;
}

Error tile_out_of_range(const char* call, std::uint32_t tile, std::uint32_t count) {
  return make_error(ErrorCode::InvalidArgument, std::string(call) + ": tile " +
                                                    std::to_string(tile) + " out of range (" +
                                                    std::to_string(count) + " tiles)");
}

}  // namespace

Result<TileBlock> MemoryTileSource::read(std::uint32_t tile) const {
  if (tile >= blocks_.blocks.size())
    return tile_out_of_range("read", tile, static_cast<std::uint32_t>(blocks_.blocks.size()));
  return blocks_.blocks[tile];
}

std::uint64_t MemoryTileSource::memory_bytes() const {
  std::uint64_t bytes = blocks_.layout.memory_bytes();
  for (const TileBlock& b : blocks_.blocks) bytes += b.memory_bytes();
  return bytes;
}

std::uint32_t WorldSnapshot::loaded_count() const {
  return static_cast<std::uint32_t>(std::count(loaded_.begin(), loaded_.end(), char{1}));
}

std::optional<mesh::PolyId> WorldSnapshot::tile_polygon(std::uint32_t tile,
                                                        std::uint32_t local) const {
  if (!planner_ || !tile_loaded(tile)) return std::nullopt;
  const std::vector<std::uint32_t>& first = planner_->mesh().tile_poly_first;
  if (local >= first[tile + 1] - first[tile]) return std::nullopt;
  return mesh::PolyId{first[tile] + local};
}

std::pair<std::uint32_t, std::uint32_t> WorldSnapshot::polygon_tile(mesh::PolyId p) const {
  if (!planner_ || mesh::index(p) >= planner_->mesh().polygon_count()) return {kNoTile, 0};
  const std::uint32_t tile = planner_->tile_of(p);
  return {tile, mesh::index(p) - planner_->mesh().tile_poly_first[tile]};
}

Result<plan::Path> WorldSnapshot::find_path(Vec3 start, Vec3 goal,
                                            const plan::QueryOptions& options) const {
  if (!is_finite(start)) return make_error(ErrorCode::NonFinite, "find_path: start is not finite");
  if (!is_finite(goal)) return make_error(ErrorCode::NonFinite, "find_path: goal is not finite");
  plan::Path out;
  const auto unloaded_end = [&]() -> std::uint32_t {
    for (const Vec3 end : {start, goal}) {
      const std::uint32_t t = layout_->tile_at(end.x, end.z);
      if (t != kNoTile && !tile_loaded(t)) return t;
    }
    return kNoTile;
  };
  if (!planner_) {
    const Vec3 e = options.search_extent;
    if (!is_finite(e) || e.x < 0.0F || e.y < 0.0F || e.z < 0.0F)
      return make_error(ErrorCode::InvalidArgument,
                        "find_path: search extent must be finite and >= 0");
    out.unloaded_tile = unloaded_end();
    out.status =
        out.unloaded_tile != kNoTile ? plan::PathStatus::NoPath : plan::PathStatus::StartNotOnMesh;
    out.blocked_by_unloaded_tiles = out.unloaded_tile != kNoTile;
    return out;
  }
  plan::NavQuery query(*planner_);
  // note: begin_path checks the input as find_path does and locates both ends, before any search
  LEAPNAV_TRY(query.begin_path(start, goal, options));
  if (const std::uint32_t t = unloaded_end(); t != kNoTile) {
    out.status = plan::PathStatus::NoPath;
    out.unloaded_tile = t;
    out.blocked_by_unloaded_tiles = true;
    return out;
  }
  LEAPNAV_TRY(query.update_path(std::numeric_limits<std::uint32_t>::max()));
  LEAPNAV_TRY(query.finish_path(out));
  if (out.status != plan::PathStatus::NoPath) return out;

  // no path over the loaded tiles: blocked when the whole world connects start and goal
  LEAPNAV_TRY_ASSIGN(const auto from, planner_->locate(start, options.search_extent));
  LEAPNAV_TRY_ASSIGN(const auto to, planner_->locate(goal, options.search_extent));
  if (!from || !to) return out;
  const std::uint32_t s = mesh::index(from->poly);
  const std::uint32_t g = mesh::index(to->poly);
  if (!plan::passes_filter(options, planner_->mesh(), g)) return out;
  const bool links = plans_with_links(*layout_, options);
  const std::vector<std::uint32_t>& islands = links ? link_island_ : island_;
  const bool reach = !links || reach_component_.empty() ||
                     layout_->may_reach(reach_component_[s], reach_component_[g]);
  out.blocked_by_unloaded_tiles =
      islands[s] == islands[g] && reach && loaded_count() < loaded_.size();
  return out;
}

struct TileWorld::State {
  std::shared_ptr<const TileSource> source;
  std::shared_ptr<const WorldLayout> layout;
  std::mutex change;  ///< serialises load_tile, unload_tile, set_loaded
  std::vector<std::shared_ptr<const TileBlock>> blocks;  ///< per tile, null when unloaded
  mutable std::mutex publish;                            ///< guards `current`
  std::shared_ptr<const WorldSnapshot> current;

  // The snapshot of `next` (per tile, its block or null).
  Result<std::shared_ptr<const WorldSnapshot>> make_snapshot(
      const std::vector<std::shared_ptr<const TileBlock>>& next) const {
    auto snap = std::make_shared<WorldSnapshot>();
    snap->layout_ = layout;
    snap->loaded_.assign(next.size(), 0);
    std::vector<const TileBlock*> present;
    for (std::size_t t = 0; t < next.size(); ++t) {
      if (next[t] == nullptr) continue;
      snap->loaded_[t] = 1;
      present.push_back(next[t].get());
    }
    if (!present.empty()) {
      LEAPNAV_TRY_ASSIGN(AssembledTiles assembled, assemble_tiles(*layout, present));
      if (assembled.mesh.polygon_count() != 0) {
        auto mesh = std::make_shared<const mesh::NavMesh>(std::move(assembled.mesh));
        std::shared_ptr<const jump::JumpLinkSet> links;
        if (assembled.links)
          links = std::make_shared<const jump::JumpLinkSet>(std::move(*assembled.links));
        std::optional<plan::Planner> planner;
        if (assembled.ledges && !assembled.ledges->links.empty()) {
          // note: the planner merges the ledge links into a link set of its own
          LEAPNAV_TRY_ASSIGN(planner, plan::create_planner(mesh, links.get(), &*assembled.ledges));
        } else {
          LEAPNAV_TRY_ASSIGN(planner, plan::Planner::create(mesh, links));
        }
        const jump::JumpLinkSet* planned = planner->links();
        snap->bytes_ = navmesh_bytes(*mesh) + (planned != nullptr ? planned->memory_bytes() : 0) +
                       planner->memory_bytes();
        snap->planner_ = std::move(planner);
      }
      snap->island_ = std::move(assembled.island);
      snap->link_island_ = std::move(assembled.link_island);
      snap->reach_component_ = std::move(assembled.reach_component);
    }
    snap->bytes_ += sizeof(WorldSnapshot) + bytes_of(snap->loaded_) + bytes_of(snap->island_) +
                    bytes_of(snap->link_island_) + bytes_of(snap->reach_component_);
    return std::shared_ptr<const WorldSnapshot>(std::move(snap));
  }

  void publish_snapshot(std::shared_ptr<const WorldSnapshot> snap) {
    std::shared_ptr<const WorldSnapshot> old;
    {
      const std::lock_guard lock(publish);
      old = std::exchange(current, std::move(snap));
    }
    // note: the old snapshot is released here, outside the lock (it may be the last owner)
  }
};

Result<TileWorld> TileWorld::create(std::shared_ptr<const TileSource> source) {
  if (!source) return make_error(ErrorCode::InvalidArgument, "TileWorld::create: no source");
  LEAPNAV_TRY(validate(source->layout()));
  auto state = std::make_unique<State>();
  // note: the layout stays the source's (an aliasing pointer keeps the source alive), not a copy
  state->layout = std::shared_ptr<const WorldLayout>(source, &source->layout());
  state->source = std::move(source);
  state->blocks.resize(state->layout->tile_count());
  LEAPNAV_TRY_ASSIGN(auto snap, state->make_snapshot(state->blocks));
  state->current = std::move(snap);
  return TileWorld(std::move(state));
}

TileWorld::TileWorld(std::unique_ptr<State> state) : state_(std::move(state)) {}
TileWorld::TileWorld(TileWorld&&) noexcept = default;
TileWorld& TileWorld::operator=(TileWorld&&) noexcept = default;
TileWorld::~TileWorld() = default;

const WorldLayout& TileWorld::layout() const {
  return *state_->layout;
}

std::shared_ptr<const WorldSnapshot> TileWorld::snapshot() const {
  const std::lock_guard lock(state_->publish);
  return state_->current;
}

bool TileWorld::tile_loaded(std::uint32_t tile) const {
  return snapshot()->tile_loaded(tile);
}

Status TileWorld::load_tile(std::uint32_t tile) {
  State& s = *state_;
  if (tile >= tile_count()) return tile_out_of_range("load_tile", tile, tile_count());
  const std::lock_guard lock(s.change);
  if (s.blocks[tile] != nullptr) return {};
  LEAPNAV_TRY_ASSIGN(TileBlock block, s.source->read(tile));
  if (block.tile != tile)
    return make_error(ErrorCode::Internal, "load_tile: the source gave tile " +
                                               std::to_string(block.tile) + " for tile " +
                                               std::to_string(tile));
  LEAPNAV_TRY(validate(block, *s.layout));
  std::vector<std::shared_ptr<const TileBlock>> next = s.blocks;
  next[tile] = std::make_shared<const TileBlock>(std::move(block));
  LEAPNAV_TRY_ASSIGN(auto snap, s.make_snapshot(next));
  s.blocks = std::move(next);
  s.publish_snapshot(std::move(snap));
  return {};
}

Status TileWorld::unload_tile(std::uint32_t tile) {
  State& s = *state_;
  if (tile >= tile_count()) return tile_out_of_range("unload_tile", tile, tile_count());
  const std::lock_guard lock(s.change);
  if (s.blocks[tile] == nullptr) return {};
  std::vector<std::shared_ptr<const TileBlock>> next = s.blocks;
  next[tile] = nullptr;
  LEAPNAV_TRY_ASSIGN(auto snap, s.make_snapshot(next));
  s.blocks = std::move(next);
  s.publish_snapshot(std::move(snap));
  return {};
}

Status TileWorld::set_loaded(std::span<const std::uint32_t> tiles) {
  State& s = *state_;
  for (const std::uint32_t t : tiles) {
    if (t >= tile_count()) return tile_out_of_range("set_loaded", t, tile_count());
  }
  const std::lock_guard lock(s.change);
  std::vector<std::shared_ptr<const TileBlock>> next(s.blocks.size());
  for (const std::uint32_t t : tiles) {
    if (next[t] != nullptr) continue;
    if (s.blocks[t] != nullptr) {
      next[t] = s.blocks[t];
      continue;
    }
    LEAPNAV_TRY_ASSIGN(TileBlock block, s.source->read(t));
    if (block.tile != t)
      return make_error(ErrorCode::Internal, "set_loaded: the source gave tile " +
                                                 std::to_string(block.tile) + " for tile " +
                                                 std::to_string(t));
    LEAPNAV_TRY(validate(block, *s.layout));
    next[t] = std::make_shared<const TileBlock>(std::move(block));
  }
  LEAPNAV_TRY_ASSIGN(auto snap, s.make_snapshot(next));
  s.blocks = std::move(next);
  s.publish_snapshot(std::move(snap));
  return {};
}

Result<plan::Path> TileWorld::find_path(Vec3 start, Vec3 goal,
                                        const plan::QueryOptions& options) const {
  return snapshot()->find_path(start, goal, options);
}

std::uint64_t TileWorld::block_bytes() const {
  const std::lock_guard lock(state_->change);
  std::uint64_t bytes = 0;
  for (const auto& b : state_->blocks) bytes += b ? b->memory_bytes() : 0;
  return bytes;
}

std::uint64_t TileWorld::resident_bytes() const {
  const std::uint64_t blocks = block_bytes();
  return blocks + sizeof(State) + state_->source->memory_bytes() +
         std::uint64_t{state_->blocks.size()} * 16 + snapshot()->memory_bytes();
}

}  // namespace leapnav::stream
