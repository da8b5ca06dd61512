// Link regeneration for incremental tiled rebuilds (see tile_links_rebuild.hpp): which tiles get
// new links (link search rectangle overlapping a rebuilt tile or a tile whose stitched polygons
// changed), the old-to-new polygon map of the unchanged tiles (rank within the tile kept), and the
// kept links remapped; the join is build_tiled_jump_links_reusing's.
#include "leapnav/jumplinks/tile_links_rebuild.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "leapnav/core/hash.hpp"

namespace leapnav::jump {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool same_layout(const mesh::TileLayout& a, const mesh::TileLayout& b) {
  return a.grid == b.grid && a.tile_size == b.tile_size && a.border == b.border &&
         a.tiles_x == b.tiles_x && a.tiles_z == b.tiles_z;
}

bool overlaps(const mesh::TileRect& a, const mesh::TileRect& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.z0 < b.z1 && b.z0 < a.z1;
}

// Rank of polygon p within its tile's list.
std::uint32_t rank_in_tile(const PolygonTiles& tiles, std::uint32_t p) {
  const std::uint32_t t = tiles.poly_tile[p];
  const auto first = tiles.tile_polys.begin() + tiles.tile_first[t];
  const auto last = tiles.tile_polys.begin() + tiles.tile_first[t + 1];
  return static_cast<std::uint32_t>(std::lower_bound(first, last, p) - first);
}

}  // namespace

std::uint64_t tile_polygon_hash(const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                                std::size_t tile) {
  ContentHasher h;
  const std::uint32_t begin = tiles.tile_first[tile];
  const std::uint32_t end = tiles.tile_first[tile + 1];
  h.add_pod(static_cast<std::uint64_t>(end - begin));
  const bool patches = !navmesh.height_patches.empty();
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t p = tiles.tile_polys[i];
    const mesh::PolyId id{p};
    const auto verts = navmesh.polygon(id);
    const auto neighbors = navmesh.neighbors(id);
    h.add_pod(static_cast<std::uint64_t>(verts.size()));
    for (std::size_t k = 0; k < verts.size(); ++k) {
      const Vec3 v = navmesh.vertices[verts[k]];
      h.add_pod(v.x);
      h.add_pod(v.y);
      h.add_pod(v.z);
      const std::uint32_t n = neighbors[k];
      if (n == mesh::kNoPoly) {
        h.add_pod(std::uint64_t{0xFFFFFFFFFFFFFFFFULL});
      } else {
        h.add_pod((static_cast<std::uint64_t>(tiles.poly_tile[n]) << 32U) | rank_in_tile(tiles, n));
      }
    }
    h.add_pod(static_cast<std::uint32_t>(navmesh.poly_region[p]));
    h.add_pod(static_cast<std::uint32_t>(navmesh.poly_area[p]));
    h.add_pod(static_cast<std::uint32_t>(navmesh.poly_flags.empty() ? 0 : navmesh.poly_flags[p]));
    const AABB& b = navmesh.poly_bounds[p];
    for (const float f : {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z}) h.add_pod(f);
    if (patches) {
      const mesh::HeightPatch& patch = navmesh.height_patches[p];
      h.add_pod(static_cast<std::int64_t>(patch.x0));
      h.add_pod(static_cast<std::int64_t>(patch.z0));
      h.add_pod((std::uint32_t{patch.width} << 16U) | patch.depth);
      const std::size_t n = std::size_t{patch.width} * patch.depth;
      h.add_span(std::span<const float>(navmesh.height_samples.data() + patch.first, n));
    }
  }
  return h.digest();
}

Status validate(const TileLinksCache& cache) {
  LEAPNAV_TRY(validate(cache.options));
  const std::size_t count = cache.layout.tile_count();
  if (count == 0)
    return make_error(ErrorCode::InvalidArgument, "link cache: the layout has no tiles");
  if (cache.tiles.size() != count || cache.polygon_hashes.size() != count ||
      cache.polygons.tile_first.size() != count + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "link cache: " + std::to_string(cache.tiles.size()) + " tile link sets, " +
                          std::to_string(cache.polygon_hashes.size()) + " polygon hashes and " +
                          std::to_string(cache.polygons.tile_first.size()) + " tile offsets for " +
                          std::to_string(count) + " tiles");
  const std::size_t polys = cache.polygons.poly_tile.size();
  if (cache.polygons.tile_first.back() != cache.polygons.tile_polys.size() ||
      cache.polygons.tile_polys.size() != polys)
    return make_error(ErrorCode::InvalidArgument, "link cache: the polygon-to-tile map is damaged");
  for (std::size_t t = 0; t < count; ++t) {
    for (const JumpLink& link : cache.tiles[t].set.links) {
      if (link.start_poly >= polys || link.land_poly >= polys ||
          cache.polygons.poly_tile[link.start_poly] != t ||
          link.config >= cache.options.jumps.jumps.size())
        return make_error(ErrorCode::InvalidArgument,
                          "link cache: tile " + std::to_string(t) +
                              " holds a link outside the tile or the cached mesh (start polygon " +
                              std::to_string(link.start_poly) + ", land polygon " +
                              std::to_string(link.land_poly) + ")");
    }
  }
  return {};
}

Result<CachedTiledLinks> build_tiled_jump_links_cached(const TriangleMesh& mesh,
                                                       const mesh::NavMesh& navmesh,
                                                       const mesh::TileLayout& layout,
                                                       const TiledLinkOptions& options,
                                                       BuildContext& ctx) {
  std::vector<std::optional<TileLinks>> tiles(layout.tile_count());
  LEAPNAV_TRY_ASSIGN(TiledLinks links,
                     build_tiled_jump_links_reusing(mesh, navmesh, layout, options, tiles, ctx));
  CachedTiledLinks out;
  out.links = std::move(links);
  out.cache.options = options;
  out.cache.layout = layout;
  out.cache.polygons = polygon_tiles(navmesh, layout);
  out.cache.polygon_hashes.resize(tiles.size());
  out.cache.tiles.reserve(tiles.size());
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    out.cache.polygon_hashes[t] = tile_polygon_hash(navmesh, out.cache.polygons, t);
    out.cache.tiles.push_back(std::move(*tiles[t]));
  }
  return out;
}

Result<TileLinksCache> tile_links_cache_from_set(const mesh::NavMesh& navmesh,
                                                 const mesh::TileLayout& layout,
                                                 const JumpLinkSet& set,
                                                 const TiledLinkOptions& options) {
  LEAPNAV_TRY(validate(options));
  if (!(set.configs == options.jumps.jumps))
    return make_error(ErrorCode::InvalidArgument,
                      "link cache: the link set's jump configurations differ from the options'");
  TileLinksCache cache;
  cache.options = options;
  cache.layout = layout;
  cache.polygons = polygon_tiles(navmesh, layout);
  const std::size_t count = layout.tile_count();
  cache.polygon_hashes.resize(count);
  cache.tiles.resize(count);
  for (std::size_t t = 0; t < count; ++t)
    cache.polygon_hashes[t] = tile_polygon_hash(navmesh, cache.polygons, t);
  for (const JumpLink& link : set.links) {
    if (link.start_poly >= navmesh.polygon_count() || link.land_poly >= navmesh.polygon_count())
      return make_error(ErrorCode::InvalidArgument,
                        "link cache: a link refers to polygon " +
                            std::to_string(std::max(link.start_poly, link.land_poly)) + " of " +
                            std::to_string(navmesh.polygon_count()));
    cache.tiles[cache.polygons.poly_tile[link.start_poly]].set.links.push_back(link);
  }
  for (TileLinks& tile : cache.tiles) {
    tile.set.quantum = set.quantum;
    for (const JumpLink& link : tile.set.links) {
      if (cache.polygons.poly_tile[link.land_poly] != cache.polygons.poly_tile[link.start_poly])
        ++tile.cross_tile_links;
    }
  }
  return cache;
}

Result<TiledLinks> rebuild_tiled_jump_links(const TriangleMesh& mesh, const mesh::NavMesh& navmesh,
                                            const mesh::TileLayout& layout,
                                            std::span<const std::size_t> rebuilt,
                                            TileLinksCache& cache, BuildContext& ctx,
                                            LinkRebuildStats* stats) {
  const auto t_start = Clock::now();
  LEAPNAV_TRY(validate(cache));
  const std::size_t count = layout.tile_count();
  for (const std::size_t t : rebuilt) {
    if (t >= count)
      return make_error(ErrorCode::InvalidArgument, "link rebuild: rebuilt tile " +
                                                        std::to_string(t) + " of " +
                                                        std::to_string(count) + " tiles");
  }
  const bool layout_changed = !same_layout(layout, cache.layout);
  PolygonTiles polygons = polygon_tiles(navmesh, layout);
  std::vector<std::uint64_t> hashes(count);
  for (std::size_t t = 0; t < count; ++t) hashes[t] = tile_polygon_hash(navmesh, polygons, t);

  // the tiles whose content changed: rebuilt ones and those whose stitched polygons differ
  std::vector<bool> changed(count, layout_changed);
  std::uint64_t polygons_changed = 0;
  if (!layout_changed) {
    for (const std::size_t t : rebuilt) changed[t] = true;
    for (std::size_t t = 0; t < count; ++t) {
      if (hashes[t] != cache.polygon_hashes[t]) {
        changed[t] = true;
        ++polygons_changed;
      }
    }
  }
  const int reach =
      jump_reach_cells(cache.options.jumps, navmesh.config.agent, layout.grid.cell_size);
  std::vector<std::optional<TileLinks>> tiles(count);
  std::uint64_t relinked = 0;
  if (!layout_changed) {
    std::vector<mesh::TileRect> changed_rects;
    for (std::size_t t = 0; t < count; ++t) {
      if (changed[t]) changed_rects.push_back(layout.interior(t));
    }
    // old id -> new id for the polygons of unchanged tiles (same count, same order)
    constexpr std::uint32_t kUnmapped = 0xFFFFFFFFU;
    std::vector<std::uint32_t> remap(cache.polygons.poly_tile.size(), kUnmapped);
    for (std::size_t t = 0; t < count; ++t) {
      if (changed[t]) continue;
      const std::uint32_t old_first = cache.polygons.tile_first[t];
      const std::uint32_t old_n = cache.polygons.tile_first[t + 1] - old_first;
      const std::uint32_t new_first = polygons.tile_first[t];
      const std::uint32_t new_n = polygons.tile_first[t + 1] - new_first;
      if (old_n != new_n) continue;  // cannot happen with equal hashes; the link check below
      for (std::uint32_t k = 0; k < old_n; ++k)
        remap[cache.polygons.tile_polys[old_first + k]] = polygons.tile_polys[new_first + k];
    }
    for (std::size_t t = 0; t < count; ++t) {
      const mesh::TileRect rect = link_search_rect(layout, t, reach);
      const bool relink = std::any_of(changed_rects.begin(), changed_rects.end(),
                                      [&](const mesh::TileRect& r) { return overlaps(rect, r); });
      if (relink) {
        ++relinked;
        continue;
      }
      TileLinks kept = cache.tiles[t];
      for (JumpLink& link : kept.set.links) {
        link.start_poly = remap[link.start_poly];
        link.land_poly = remap[link.land_poly];
        if (link.start_poly == kUnmapped || link.land_poly == kUnmapped)
          return make_error(ErrorCode::Internal, "link rebuild: a kept link of tile " +
                                                     std::to_string(t) +
                                                     " refers to a tile whose polygons changed");
      }
      for (std::uint32_t& land : kept.set.group_land_poly) land = remap[land];
      tiles[t].emplace(std::move(kept));
    }
  } else {
    relinked = count;
  }
  LEAPNAV_TRY_ASSIGN(TiledLinks out, build_tiled_jump_links_reusing(mesh, navmesh, layout,
                                                                    cache.options, tiles, ctx));
  cache.layout = layout;
  cache.polygons = std::move(polygons);
  cache.polygon_hashes = std::move(hashes);
  cache.tiles.clear();
  cache.tiles.reserve(count);
  for (std::optional<TileLinks>& t : tiles) cache.tiles.push_back(std::move(*t));
  if (stats != nullptr) {
    stats->tiles = count;
    stats->tiles_relinked = relinked;
    stats->tiles_reused = count - relinked;
    stats->tiles_polygons_changed = polygons_changed;
    stats->layout_changed = layout_changed;
    stats->links_ms = ms_since(t_start);
  }
  return out;
}

}  // namespace leapnav::jump
