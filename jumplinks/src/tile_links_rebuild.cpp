// Link regeneration for incremental tiled rebuilds (see tile_links_rebuild.hpp): which tiles get
// new links (link search rectangle overlapping a rebuilt tile, or a changed polygon within the
// read radius), the old-to-new polygon map (rank within the tile in unchanged tiles, a longest
// common subsequence of read hashes in changed ones), the relinked tiles built from their own
// triangle lists only, and the kept links remapped in the cache in place; the join is
// build_tiled_jump_links_reusing's with every tile given. What runs over the whole world per call:
// the polygon-to-tile map, the per-polygon read hashes and boxes copied (O(polygons)), one bounds
// test per triangle, and passes over the kept links (validation, remap, join, index).
#include "leapnav/jumplinks/tile_links_rebuild.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "leapnav/core/assert.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/core/parallel.hpp"

namespace leapnav::jump {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Processor time of the calling thread [units: ms].
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

// Rank of polygon p within its tile's list.
std::uint32_t rank_in_tile(const PolygonTiles& tiles, std::uint32_t p) {
  const std::uint32_t t = tiles.poly_tile[p];
  const auto first = tiles.tile_polys.begin() + tiles.tile_first[t];
  const auto last = tiles.tile_polys.begin() + tiles.tile_first[t + 1];
  return static_cast<std::uint32_t>(std::lower_bound(first, last, p) - first);
}

// For each tile of `todo` (ascending), the triangles mesh::tile_triangles lists for it with the
// padded layout (border widened by `reach`): the same lists, from one pass over the triangles
// that skips those outside every listed tile's rectangle before asking which tiles they touch.
std::vector<std::vector<std::uint32_t>> padded_tile_triangles(const TriangleMesh& mesh,
                                                              const mesh::TileLayout& layout,
                                                              int reach,
                                                              std::span<const std::size_t> todo) {
  std::vector<std::vector<std::uint32_t>> out(todo.size());
  if (todo.empty()) return out;
  mesh::TileLayout padded = layout;
  padded.border = layout.border + reach;
  std::vector<std::uint32_t> slot(layout.tile_count(), 0xFFFFFFFFU);
  mesh::TileRect all{layout.grid.width, layout.grid.depth, 0, 0};
  for (std::size_t i = 0; i < todo.size(); ++i) {
    slot[todo[i]] = static_cast<std::uint32_t>(i);
    const mesh::TileRect r = padded.bordered(todo[i]);
    all = {std::min(all.x0, r.x0), std::min(all.z0, r.z0), std::max(all.x1, r.x1),
           std::max(all.z1, r.z1)};
  }
  // the union rectangle in world units, widened by two cells: a triangle whose xz bounds miss
  // it cannot overlap a listed rectangle with tile_triangles' one cell of slack
  const GridSpec& grid = layout.grid;
  const double cs = grid.cell_size;
  const double lo_x = double{grid.origin.x} + (all.x0 - 2) * cs;
  const double hi_x = double{grid.origin.x} + (all.x1 + 2) * cs;
  const double lo_z = double{grid.origin.z} + (all.z0 - 2) * cs;
  const double hi_z = double{grid.origin.z} + (all.z1 + 2) * cs;
  std::vector<std::uint32_t> tiles;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3& a = mesh.vertices[tri[0]];
    const Vec3& b = mesh.vertices[tri[1]];
    const Vec3& c = mesh.vertices[tri[2]];
    if (double{std::max({a.x, b.x, c.x})} < lo_x || double{std::min({a.x, b.x, c.x})} > hi_x ||
        double{std::max({a.z, b.z, c.z})} < lo_z || double{std::min({a.z, b.z, c.z})} > hi_z)
      continue;
    tiles.clear();
    mesh::triangle_tiles(mesh, padded, t, tiles);
    for (const std::uint32_t tile : tiles) {
      if (slot[tile] != 0xFFFFFFFFU) out[slot[tile]].push_back(static_cast<std::uint32_t>(t));
    }
  }
  return out;
}

// Whether `made` equals `old` (ids of the cached mesh) with its polygon ids mapped by `remap`; a
// link of a polygon that has no new id (its tile changed) makes them differ.
bool same_links_remapped(const std::vector<JumpLink>& old, const std::vector<JumpLink>& made,
                         const std::vector<std::uint32_t>& remap) {
  if (old.size() != made.size()) return false;
  for (std::size_t k = 0; k < old.size(); ++k) {
    JumpLink link = old[k];
    link.start_poly = remap[link.start_poly];
    link.land_poly = remap[link.land_poly];
    if (!(link == made[k])) return false;
  }
  return true;
}

// Direction index 0..7 of tile (tx + dx, tz + dz) seen from tile (tx, tz), dx and dz in -1..1 and
// not both 0 (row by row from dz = -1); -1 for any other tile.
int border_direction(const mesh::TileLayout& layout, std::uint32_t from, std::uint32_t to) {
  const auto nx = static_cast<std::int64_t>(layout.tiles_x);
  const std::int64_t dx = static_cast<std::int64_t>(to % nx) - static_cast<std::int64_t>(from % nx);
  const std::int64_t dz = static_cast<std::int64_t>(to / nx) - static_cast<std::int64_t>(from / nx);
  if (dx < -1 || dx > 1 || dz < -1 || dz > 1 || (dx == 0 && dz == 0)) return -1;
  const auto d = static_cast<int>((dz + 1) * 3 + (dx + 1));
  return d > 4 ? d - 1 : d;
}

// What both hashes of a polygon take besides its vertices and edges: area, flags, bounds and
// height patch (samples included) of polygon p.
void add_polygon_surface(ContentHasher& h, const mesh::NavMesh& navmesh, std::uint32_t p) {
  h.add_pod(static_cast<std::uint32_t>(navmesh.poly_area[p]));
  h.add_pod(static_cast<std::uint32_t>(navmesh.poly_flags.empty() ? 0 : navmesh.poly_flags[p]));
  const AABB& b = navmesh.poly_bounds[p];
  h.add_point(b.min);
  h.add_point(b.max);
  if (!navmesh.height_patches.empty()) {
    const mesh::HeightPatch& patch = navmesh.height_patches[p];
    h.add_pod(static_cast<std::int64_t>(patch.x0));
    h.add_pod(static_cast<std::int64_t>(patch.z0));
    h.add_pod((std::uint32_t{patch.width} << 16U) | patch.depth);
    const std::size_t n = std::size_t{patch.width} * patch.depth;
    h.add_span(std::span<const float>(navmesh.height_samples.data() + patch.first, n));
  }
}

// The hashes of tile `tile` (TileLinksCache::polygon_hashes and border_hashes) into `own` and
// `border` (8 entries), with the rank of a polygon within its tile given by `rank`.
template <class Rank>
void hash_tile(const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
               const mesh::TileLayout* layout, std::size_t tile, const Rank& rank,
               std::uint64_t& own, std::uint64_t* border) {
  ContentHasher h;
  std::array<ContentHasher, kBorderDirections> sides;
  const std::uint32_t begin = tiles.tile_first[tile];
  const std::uint32_t end = tiles.tile_first[tile + 1];
  h.add_pod(static_cast<std::uint64_t>(end - begin));
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t p = tiles.tile_polys[i];
    const mesh::PolyId id{p};
    const auto verts = navmesh.polygon(id);
    const auto neighbors = navmesh.neighbors(id);
    h.add_pod(static_cast<std::uint64_t>(verts.size()));
    for (std::size_t k = 0; k < verts.size(); ++k) {
      h.add_point(navmesh.vertices[verts[k]]);
      const std::uint32_t n = neighbors[k];
      const std::uint32_t n_tile = n == mesh::kNoPoly ? 0 : tiles.poly_tile[n];
      // note: an edge into a neighbouring tile hashes like a boundary edge here and in full in
      // that direction's border hash: a tile's links see it only when both tiles lie in their
      // neighbourhood (outside it, polygon_subset makes it a boundary edge)
      const int d = n == mesh::kNoPoly || n_tile == tile || layout == nullptr
                        ? -1
                        : border_direction(*layout, static_cast<std::uint32_t>(tile), n_tile);
      if (n == mesh::kNoPoly || d >= 0) {
        h.add_pod(std::uint64_t{0xFFFFFFFFFFFFFFFFULL});
      } else {
        h.add_pod((static_cast<std::uint64_t>(n_tile) << 32U) | rank(n));
      }
      if (d >= 0) {
        ContentHasher& side = sides[static_cast<std::size_t>(d)];
        side.add_pod((static_cast<std::uint64_t>(i - begin) << 32U) | k);
        side.add_pod(static_cast<std::uint64_t>(rank(n)));
      }
    }
    h.add_pod(static_cast<std::uint32_t>(navmesh.poly_region[p]));
    add_polygon_surface(h, navmesh, p);
  }
  own = h.digest();
  if (border != nullptr) {
    for (std::size_t d = 0; d < kBorderDirections; ++d) border[d] = sides[d].digest();
  }
}

struct TileHashes {
  std::vector<std::uint64_t> own;     // per tile
  std::vector<std::uint64_t> border;  // per tile, kBorderDirections
};

// The hashes of every tile, with the ranks looked up once.
TileHashes tile_hashes(const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                       const mesh::TileLayout& layout) {
  std::vector<std::uint32_t> ranks(tiles.poly_tile.size(), 0);
  const std::size_t count = tiles.tile_first.size() - 1;
  for (std::size_t t = 0; t < count; ++t) {
    for (std::uint32_t i = tiles.tile_first[t]; i < tiles.tile_first[t + 1]; ++i)
      ranks[tiles.tile_polys[i]] = i - tiles.tile_first[t];
  }
  TileHashes out;
  out.own.resize(count);
  out.border.resize(count * kBorderDirections);
  for (std::size_t t = 0; t < count; ++t) {
    hash_tile(
        navmesh, tiles, &layout, t, [&](std::uint32_t p) { return ranks[p]; }, out.own[t],
        out.border.data() + t * kBorderDirections);
  }
  return out;
}

// The hashes of the tiles `listed` (any order); every other tile's are taken from `cache`.
TileHashes tile_hashes(const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                       const mesh::TileLayout& layout, const std::vector<std::size_t>& listed,
                       const TileLinksCache& cache) {
  TileHashes out;
  out.own = cache.polygon_hashes;
  out.border = cache.border_hashes;
  for (const std::size_t t : listed) {
    hash_tile(
        navmesh, tiles, &layout, t, [&](std::uint32_t p) { return rank_in_tile(tiles, p); },
        out.own[t], out.border.data() + t * kBorderDirections);
  }
  return out;
}

// The tiles whose links must be built again, ascending: those whose link search rectangle
// overlaps the interior of a tile of `rebuilt` (its triangles may have changed) and those whose
// interior, grown by `radius` (link_read_radius) on every side, meets the xz box of a changed
// polygon (`changed`: the old and the new versions). A tile's links read the triangles of its
// rectangle and, of the stitched polygons, only those within link_read_radius of its interior
// (tile_links.hpp), whose ids they keep in the same order (polygon_subset, ascending ids).
std::vector<std::size_t> tiles_to_relink(const mesh::TileLayout& layout,
                                         const std::vector<bool>& rebuilt,
                                         const std::vector<std::array<float, 4>>& changed,
                                         double radius, int reach,
                                         std::vector<RelinkedTile::Reason>& reasons) {
  const std::size_t count = layout.tile_count();
  const int ts = layout.tile_size;
  const GridSpec& grid = layout.grid;
  const double cs = grid.cell_size;
  const auto nx = static_cast<std::size_t>(layout.tiles_x);
  const auto nz = static_cast<std::size_t>(layout.tiles_z);
  // the tiles near a changed polygon: for each box, the tiles whose grown interior meets it
  std::vector<bool> near(count, false);
  const double tile_m = static_cast<double>(ts) * cs;
  const auto clamp_tile = [](double v, std::size_t n) {
    if (!(v >= 0.0)) return std::size_t{0};
    return std::min(static_cast<std::size_t>(v), n - 1);
  };
  for (const std::array<float, 4>& b : changed) {
    const double x0 = double{b[0]} - double{grid.origin.x} - radius;
    const double z0 = double{b[1]} - double{grid.origin.z} - radius;
    const double x1 = double{b[2]} - double{grid.origin.x} + radius;
    const double z1 = double{b[3]} - double{grid.origin.z} + radius;
    if (x1 < 0.0 || z1 < 0.0) continue;
    // note: one tile more on each side of the estimate; the exact test below decides
    const std::size_t tx0 = clamp_tile(std::floor(x0 / tile_m) - 1.0, nx);
    const std::size_t tx1 = clamp_tile(std::floor(x1 / tile_m) + 1.0, nx);
    const std::size_t tz0 = clamp_tile(std::floor(z0 / tile_m) - 1.0, nz);
    const std::size_t tz1 = clamp_tile(std::floor(z1 / tile_m) + 1.0, nz);
    for (std::size_t tz = tz0; tz <= tz1; ++tz) {
      for (std::size_t tx = tx0; tx <= tx1; ++tx) {
        const std::size_t t = tx + tz * nx;
        const mesh::TileRect in = layout.interior(t);
        // the interior's closed xz rectangle grown by radius against the closed box
        if (static_cast<double>(in.x0) * cs <= x1 && x0 <= static_cast<double>(in.x1) * cs &&
            static_cast<double>(in.z0) * cs <= z1 && z0 <= static_cast<double>(in.z1) * cs)
          near[t] = true;
      }
    }
  }
  std::vector<std::size_t> out;
  reasons.clear();
  for (std::size_t t = 0; t < count; ++t) {
    const mesh::TileRect rect = link_search_rect(layout, t, reach);
    bool any_rebuilt = false;
    for (int tz = rect.z0 / ts; tz <= (rect.z1 - 1) / ts && !any_rebuilt; ++tz) {
      for (int tx = rect.x0 / ts; tx <= (rect.x1 - 1) / ts; ++tx) {
        if (rebuilt[static_cast<std::size_t>(tx) + static_cast<std::size_t>(tz) * nx]) {
          any_rebuilt = true;
          break;
        }
      }
    }
    if (any_rebuilt || near[t]) {
      out.push_back(t);
      reasons.push_back(any_rebuilt ? RelinkedTile::Reason::rebuilt
                                    : RelinkedTile::Reason::polygons);
    }
  }
  return out;
}

// The xz box of polygon p's vertices.
std::array<float, 4> polygon_box(const mesh::NavMesh& navmesh, std::uint32_t p) {
  std::array<float, 4> b{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                         std::numeric_limits<float>::lowest(),
                         std::numeric_limits<float>::lowest()};
  for (const std::uint32_t v : navmesh.polygon(mesh::PolyId{p})) {
    const Vec3 x = navmesh.vertices[v];
    b = {std::min(b[0], x.x), std::min(b[1], x.z), std::max(b[2], x.x), std::max(b[3], x.z)};
  }
  return b;
}

// The read hash and box of every polygon into `cache`.
void fill_polygon_reads(const mesh::NavMesh& navmesh, TileLinksCache& cache) {
  const auto polys = static_cast<std::uint32_t>(navmesh.polygon_count());
  cache.polygon_reads.resize(polys);
  cache.polygon_boxes.resize(polys);
  for (std::uint32_t p = 0; p < polys; ++p) {
    cache.polygon_reads[p] = polygon_read_hash(navmesh, p);
    cache.polygon_boxes[p] = polygon_box(navmesh, p);
  }
  cache.neighbor_first = navmesh.poly_first;
  cache.neighbors = navmesh.poly_neighbors;
}

// The pairs (i, j) of a longest common subsequence of `a` and `b` (ascending in both); none when
// the table would exceed `max_cells` entries.
std::vector<std::pair<std::uint32_t, std::uint32_t>> common_subsequence(
    std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, std::size_t max_cells) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  if (n == 0 || m == 0 || (n + 1) * (m + 1) > max_cells) return out;
  // note: suffix lengths, so the walk below goes forward
  std::vector<std::uint32_t> len((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& {
    return len[i * (m + 1) + j];
  };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n && j < m) {
    if (a[i] == b[j]) {
      out.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j));
      ++i;
      ++j;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

}  // namespace

std::uint64_t polygon_read_hash(const mesh::NavMesh& navmesh, std::uint32_t poly) {
  ContentHasher h;
  const mesh::PolyId id{poly};
  const auto verts = navmesh.polygon(id);
  const auto neighbors = navmesh.neighbors(id);
  h.add_pod(static_cast<std::uint64_t>(verts.size()));
  for (std::size_t k = 0; k < verts.size(); ++k) {
    h.add_point(navmesh.vertices[verts[k]]);
    h.add_pod(static_cast<std::uint8_t>(neighbors[k] == mesh::kNoPoly ? 0 : 1));
  }
  add_polygon_surface(h, navmesh, poly);
  return h.digest();
}

std::uint64_t tile_polygon_hash(const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                                std::size_t tile) {
  std::uint64_t own = 0;
  hash_tile(
      navmesh, tiles, nullptr, tile, [&](std::uint32_t p) { return rank_in_tile(tiles, p); }, own,
      nullptr);
  return own;
}

namespace {

// validate(TileLinksCache) but for the links.
Status validate_shape(const TileLinksCache& cache) {
  LEAPNAV_TRY(validate(cache.options));
  const std::size_t count = cache.layout.tile_count();
  if (count == 0)
    return make_error(ErrorCode::InvalidArgument, "link cache: the layout has no tiles");
  if (cache.tiles.size() != count || cache.polygon_hashes.size() != count ||
      cache.border_hashes.size() != count * kBorderDirections ||
      cache.polygons.tile_first.size() != count + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "link cache: " + std::to_string(cache.tiles.size()) + " tile link sets, " +
                          std::to_string(cache.polygon_hashes.size()) + " polygon hashes, " +
                          std::to_string(cache.border_hashes.size()) + " border hashes and " +
                          std::to_string(cache.polygons.tile_first.size()) + " tile offsets for " +
                          std::to_string(count) + " tiles");
  const std::size_t polys = cache.polygons.poly_tile.size();
  if (cache.polygons.tile_first.back() != cache.polygons.tile_polys.size() ||
      cache.polygons.tile_polys.size() != polys)
    return make_error(ErrorCode::InvalidArgument, "link cache: the polygon-to-tile map is damaged");
  if (cache.polygon_reads.size() != polys || cache.polygon_boxes.size() != polys)
    return make_error(ErrorCode::InvalidArgument,
                      "link cache: " + std::to_string(cache.polygon_reads.size()) +
                          " polygon read hashes and " + std::to_string(cache.polygon_boxes.size()) +
                          " boxes for " + std::to_string(polys) + " polygons");
  if (cache.neighbor_first.size() != polys + 1 ||
      cache.neighbor_first.back() != cache.neighbors.size())
    return make_error(ErrorCode::InvalidArgument, "link cache: the polygon adjacency is damaged");
  for (const std::uint32_t n : cache.neighbors) {
    if (n != mesh::kNoPoly && n >= polys)
      return make_error(ErrorCode::InvalidArgument, "link cache: the adjacency names polygon " +
                                                        std::to_string(n) + " of " +
                                                        std::to_string(polys));
  }
  return {};
}

// validate(TileLinksCache)'s check of tile t's links (and of its groups' land polygons).
Status validate_tile_links(const TileLinksCache& cache, std::size_t t) {
  const std::size_t polys = cache.polygons.poly_tile.size();
  const JumpLinkSet& set = cache.tiles[t].set;
  for (const JumpLink& link : set.links) {
    if (link.start_poly >= polys || link.land_poly >= polys ||
        cache.polygons.poly_tile[link.start_poly] != t ||
        link.config >= cache.options.jumps.jumps.size())
      return make_error(ErrorCode::InvalidArgument,
                        "link cache: tile " + std::to_string(t) +
                            " holds a link outside the tile or the cached mesh (start polygon " +
                            std::to_string(link.start_poly) + ", land polygon " +
                            std::to_string(link.land_poly) + ")");
  }
  for (const std::uint32_t land : set.group_land_poly) {
    if (land >= polys)
      return make_error(ErrorCode::InvalidArgument, "link cache: tile " + std::to_string(t) +
                                                        " has a group landing in polygon " +
                                                        std::to_string(land) + " of " +
                                                        std::to_string(polys));
  }
  return {};
}

}  // namespace

Status validate(const TileLinksCache& cache) {
  LEAPNAV_TRY(validate_shape(cache));
  for (std::size_t t = 0; t < cache.tiles.size(); ++t) LEAPNAV_TRY(validate_tile_links(cache, t));
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
  out.cache.tiles.reserve(tiles.size());
  TileHashes hashes = tile_hashes(navmesh, out.cache.polygons, layout);
  out.cache.polygon_hashes = std::move(hashes.own);
  out.cache.border_hashes = std::move(hashes.border);
  fill_polygon_reads(navmesh, out.cache);
  for (std::optional<TileLinks>& t : tiles) out.cache.tiles.push_back(std::move(*t));
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
  TileHashes hashes = tile_hashes(navmesh, cache.polygons, layout);
  cache.polygon_hashes = std::move(hashes.own);
  cache.border_hashes = std::move(hashes.border);
  fill_polygon_reads(navmesh, cache);
  cache.tiles.resize(count);
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
                                            LinkRebuildStats* stats,
                                            const std::vector<std::size_t>* restitched) {
  const auto t_start = Clock::now();
  {
    // note: the links of the kept tiles are checked where they are remapped (one pass)
    auto timer = ctx.scoped_timer("relink_validate");
    LEAPNAV_TRY(validate_shape(cache));
  }
  const std::size_t count = layout.tile_count();
  for (const std::size_t t : rebuilt) {
    if (t >= count)
      return make_error(ErrorCode::InvalidArgument, "link rebuild: rebuilt tile " +
                                                        std::to_string(t) + " of " +
                                                        std::to_string(count) + " tiles");
  }
  if (layout.tile_size <= 0 || count == 0)
    return make_error(ErrorCode::InvalidArgument, "link rebuild: the layout has no tiles");
  if (!(layout.grid == navmesh.grid))
    return make_error(ErrorCode::InvalidArgument,
                      "link rebuild: the navmesh was not built on the layout's grid");
  const bool layout_changed = !mesh::same_layout(layout, cache.layout);
  if (restitched != nullptr) {
    for (const std::size_t t : *restitched) {
      if (t >= count)
        return make_error(ErrorCode::InvalidArgument, "link rebuild: restitched tile " +
                                                          std::to_string(t) + " of " +
                                                          std::to_string(count) + " tiles");
    }
  }
  PolygonTiles polygons;
  TileHashes hashes;
  {
    auto timer = ctx.scoped_timer("relink_hashes");
    polygons = polygon_tiles(navmesh, layout);
    if (restitched == nullptr || layout_changed) {
      hashes = tile_hashes(navmesh, polygons, layout);
    } else {
      hashes = tile_hashes(navmesh, polygons, layout, *restitched, cache);
#if !defined(NDEBUG) || defined(LEAPNAV_ENABLE_ASSERTS)
      const TileHashes all = tile_hashes(navmesh, polygons, layout);
      LEAPNAV_ASSERT(all.own == hashes.own && all.border == hashes.border,
                     "a tile outside the restitched list has other stitched polygons");
#endif
    }
  }

  // what changed: the triangles near the rebuilt tiles; the polygons of the tiles whose own or
  // border hash differs, polygon by polygon (the longest run of equal read hashes in order is
  // kept, the rest changed)
  std::vector<bool> rebuilt_tile(count, false);
  std::vector<bool> dirty(count, layout_changed);
  std::uint64_t polygons_changed = 0;
  if (!layout_changed) {
    for (const std::size_t t : rebuilt) rebuilt_tile[t] = true;
    for (std::size_t t = 0; t < count; ++t) {
      bool any = hashes.own[t] != cache.polygon_hashes[t];
      for (std::size_t d = 0; d < kBorderDirections; ++d) {
        const std::size_t k = t * kBorderDirections + d;
        any = any || hashes.border[k] != cache.border_hashes[k];
      }
      dirty[t] = any;
      polygons_changed += any ? 1 : 0;
    }
  }
  const int reach =
      jump_reach_cells(cache.options.jumps, navmesh.config.agent, layout.grid.cell_size);
  // which tiles get new links; the others keep theirs with polygon ids mapped to the new mesh
  std::vector<std::size_t> todo;
  std::vector<RelinkedTile::Reason> reasons;
  constexpr std::uint32_t kUnmapped = 0xFFFFFFFFU;
  std::vector<std::uint32_t> remap;
  std::vector<std::uint64_t> reads(navmesh.polygon_count(), 0);
  std::vector<std::array<float, 4>> boxes(navmesh.polygon_count());
  {
    auto timer = ctx.scoped_timer("relink_select");
    if (layout_changed) {
      for (std::size_t t = 0; t < count; ++t) todo.push_back(t);
      reasons.assign(count, RelinkedTile::Reason::polygons);
      for (std::uint32_t p = 0; p < navmesh.polygon_count(); ++p) {
        reads[p] = polygon_read_hash(navmesh, p);
        boxes[p] = polygon_box(navmesh, p);
      }
    } else {
      // old id -> new id of every polygon kept: a clean tile's by rank (same count, same
      // order), a dirty tile's along the common subsequence of read hashes
      remap.assign(cache.polygons.poly_tile.size(), kUnmapped);
      std::vector<std::array<float, 4>> changed;
      std::vector<std::uint64_t> fresh;
      for (std::size_t t = 0; t < count; ++t) {
        const std::uint32_t old_first = cache.polygons.tile_first[t];
        const std::uint32_t old_n = cache.polygons.tile_first[t + 1] - old_first;
        const std::uint32_t new_first = polygons.tile_first[t];
        const std::uint32_t new_n = polygons.tile_first[t + 1] - new_first;
        const auto old_id = [&](std::uint32_t k) {
          return cache.polygons.tile_polys[old_first + k];
        };
        const auto new_id = [&](std::uint32_t k) { return polygons.tile_polys[new_first + k]; };
        if (!dirty[t] && old_n == new_n) {
          for (std::uint32_t k = 0; k < old_n; ++k) {
            remap[old_id(k)] = new_id(k);
            reads[new_id(k)] = cache.polygon_reads[old_id(k)];
            boxes[new_id(k)] = cache.polygon_boxes[old_id(k)];
          }
          continue;
        }
        std::vector<std::uint64_t> old_reads(old_n);
        for (std::uint32_t k = 0; k < old_n; ++k) old_reads[k] = cache.polygon_reads[old_id(k)];
        fresh.resize(new_n);
        for (std::uint32_t k = 0; k < new_n; ++k) {
          fresh[k] = reads[new_id(k)] = polygon_read_hash(navmesh, new_id(k));
          boxes[new_id(k)] = polygon_box(navmesh, new_id(k));
        }
        // note: a tile of more than a few thousand polygons is taken as changed whole
        constexpr std::size_t kMaxTable = std::size_t{1} << 24U;
        std::vector<bool> old_kept(old_n, false);
        std::vector<bool> new_kept(new_n, false);
        for (const auto& [a, b] : common_subsequence(old_reads, fresh, kMaxTable)) {
          remap[old_id(a)] = new_id(b);
          old_kept[a] = true;
          new_kept[b] = true;
        }
        for (std::uint32_t k = 0; k < old_n; ++k) {
          if (!old_kept[k]) changed.push_back(cache.polygon_boxes[old_id(k)]);
        }
        for (std::uint32_t k = 0; k < new_n; ++k) {
          if (!new_kept[k]) changed.push_back(boxes[new_id(k)]);
        }
      }
      // a polygon kept by its read hash whose neighbour across some edge is a kept polygon
      // other than the match of its old neighbour there (welding paired the edge otherwise)
      // counts as changed: the links read which polygon lies across an edge. A changed
      // neighbour, old or new, needs no mark: edges are shared whole (tile_stitch.cpp), so the
      // changed polygon's own box holds the edge, and the walks and the span map's neighbour
      // candidates reach it only where they reach that box
      std::vector<std::uint32_t> old_of(navmesh.polygon_count(), kUnmapped);
      for (std::size_t o = 0; o < remap.size(); ++o) {
        if (remap[o] != kUnmapped) old_of[remap[o]] = static_cast<std::uint32_t>(o);
      }
      for (std::uint32_t n = 0; n < navmesh.polygon_count(); ++n) {
        const std::uint32_t o = old_of[n];
        if (o == kUnmapped) continue;  // changed already
        const auto across = navmesh.neighbors(mesh::PolyId{n});
        const std::uint32_t first = cache.neighbor_first[o];
        bool same = cache.neighbor_first[o + 1] - first == across.size();
        for (std::size_t k = 0; k < across.size() && same; ++k) {
          const std::uint32_t was = cache.neighbors[first + k];
          if (was == mesh::kNoPoly || across[k] == mesh::kNoPoly) {
            same = was == across[k];
          } else {
            same = remap[was] == across[k] || remap[was] == kUnmapped ||
                   old_of[across[k]] == kUnmapped;
          }
        }
        if (!same) changed.push_back(boxes[n]);
      }
      todo = tiles_to_relink(layout, rebuilt_tile, changed,
                             link_read_radius(cache.options, layout, reach), reach, reasons);
    }
    // the cached links of the relinked tiles are read once more (tiles_links_changed); with
    // another layout every tile is relinked and the old ones are only checked
    if (layout_changed) {
      for (std::size_t t = 0; t < cache.tiles.size(); ++t)
        LEAPNAV_TRY(validate_tile_links(cache, t));
    } else {
      for (const std::size_t t : todo) LEAPNAV_TRY(validate_tile_links(cache, t));
    }
  }

  // the relinked tiles only: their padded neighbourhoods' triangles, their links, in parallel
  std::vector<std::vector<std::uint32_t>> triangles;
  {
    auto timer = ctx.scoped_timer("relink_triangles");
    triangles = padded_tile_triangles(mesh, layout, reach, todo);
  }
  using Slot = TaskSlot<TileLinks>;
  std::vector<Slot> slots(todo.size());
  std::vector<std::pair<double, double>> costs(todo.size());  // processor, wall ms per tile
  {
    auto timer = ctx.scoped_timer("relink_tiles");
    parallel_for(ctx.threads(), 0, todo.size(), 1, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) {
        const std::size_t t = todo[i];
        Slot& slot = slots[i];
        if (ctx.cancelled()) {
          slot.result.emplace(make_error(
              ErrorCode::Cancelled, "cancelled before the links of " + mesh::tile_name(layout, t)));
          continue;
        }
        const double cpu0 = thread_cpu_ms();
        const auto wall0 = Clock::now();
        BuildContext tile_ctx;
        init_task_context(tile_ctx, ctx);
        slot.result.emplace(build_tile_jump_links(mesh, triangles[i], navmesh, polygons, layout, t,
                                                  cache.options, tile_ctx));
        triangles[i] = {};
        slot.keep_log(tile_ctx);
        costs[i] = {thread_cpu_ms() - cpu0, ms_since(wall0)};
      }
    });
  }
  // warnings and timers in tile order, as build_tiled_jump_links reports them; the first error
  for (std::size_t i = 0; i < todo.size(); ++i) {
    Slot& slot = slots[i];
    for (std::string& warning : slot.warnings)
      ctx.warn(mesh::tile_name(layout, todo[i]) + " links: " + warning);
    for (const auto& [stage, ms] : slot.timings) ctx.add_time("tile_links:" + stage, ms);
    if (!slot.result->ok()) return std::move(*slot.result).error();
  }

  // the cache takes the new links and the kept ones remapped in place (no copy of the world's
  // links); the join reads them from there
  std::vector<std::optional<TileLinks>> tiles(count);
  std::uint64_t links_changed = 0;
  std::vector<RelinkedTile> relinked(todo.size());
  for (std::size_t i = 0; i < todo.size(); ++i) {
    relinked[i].tile = todo[i];
    relinked[i].reason = reasons[i];
    relinked[i].cpu_ms = costs[i].first;
    relinked[i].wall_ms = costs[i].second;
    relinked[i].stages = std::move(slots[i].timings);
  }
  {
    auto timer = ctx.scoped_timer("relink_remap");
    std::vector<bool> relink(count, false);
    std::vector<TileLinks> made(todo.size());
    for (std::size_t i = 0; i < todo.size(); ++i) {
      const std::size_t t = todo[i];
      relink[t] = true;
      made[i] = std::move(slots[i].result->value());
      relinked[i].links = made[i].set.links.size();
      if (layout_changed ||
          !same_links_remapped(cache.tiles[t].set.links, made[i].set.links, remap)) {
        ++links_changed;
        relinked[i].links_changed = true;
      }
    }
    slots = {};
    // each kept tile's links checked (validate's check, and every polygon they name mapped),
    // then remapped in place; on an error the tiles remapped so far are mapped back, so the
    // cache is left as it was
    const auto map_back = [&](std::size_t last) {
      std::vector<std::uint32_t> inverse(polygons.poly_tile.size(), kUnmapped);
      for (std::size_t o = 0; o < remap.size(); ++o) {
        if (remap[o] != kUnmapped) inverse[remap[o]] = static_cast<std::uint32_t>(o);
      }
      for (std::size_t t = 0; t < last; ++t) {
        if (relink[t]) continue;
        JumpLinkSet& set = cache.tiles[t].set;
        for (JumpLink& link : set.links) {
          link.start_poly = inverse[link.start_poly];
          link.land_poly = inverse[link.land_poly];
        }
        for (std::uint32_t& land : set.group_land_poly) land = inverse[land];
      }
    };
    for (std::size_t t = 0; t < count; ++t) {
      if (relink[t]) continue;
      Status ok = validate_tile_links(cache, t);
      JumpLinkSet& set = cache.tiles[t].set;
      if (ok.ok()) {
        const auto unmapped = [&](std::uint32_t p) { return remap[p] == kUnmapped; };
        const bool all_mapped =
            std::none_of(set.links.begin(), set.links.end(),
                         [&](const JumpLink& l) {
                           return unmapped(l.start_poly) || unmapped(l.land_poly);
                         }) &&
            std::none_of(set.group_land_poly.begin(), set.group_land_poly.end(), unmapped);
        if (!all_mapped)
          ok = make_error(ErrorCode::Internal, "link rebuild: a kept link of tile " +
                                                   std::to_string(t) +
                                                   " refers to a tile whose polygons changed");
      }
      if (!ok.ok()) {
        map_back(t);
        return std::move(ok).error();
      }
      for (JumpLink& link : set.links) {
        link.start_poly = remap[link.start_poly];
        link.land_poly = remap[link.land_poly];
      }
      for (std::uint32_t& land : set.group_land_poly) land = remap[land];
    }
    // a kept tile's neighbourhood may hold another number of polygons now (a dirty tile in
    // its rectangle whose changed polygons lie beyond its read radius)
    const int ts = layout.tile_size;
    for (std::size_t t = 0; t < count; ++t) {
      if (relink[t] || cache.tiles[t].search_polygons == 0) continue;
      const mesh::TileRect rect = link_search_rect(layout, t, reach);
      std::uint64_t n = 0;
      for (int tz = rect.z0 / ts; tz <= (rect.z1 - 1) / ts; ++tz) {
        for (int tx = rect.x0 / ts; tx <= (rect.x1 - 1) / ts; ++tx) {
          const std::size_t u =
              static_cast<std::size_t>(tx) +
              static_cast<std::size_t>(tz) * static_cast<std::size_t>(layout.tiles_x);
          n += polygons.tile_first[u + 1] - polygons.tile_first[u];
        }
      }
      cache.tiles[t].search_polygons = n;
    }
    // note: with another layout every tile is relinked and the cache may hold another count
    for (std::size_t t = 0; t < count; ++t) {
      if (!relink[t]) tiles[t].emplace(std::move(cache.tiles[t]));
    }
    for (std::size_t i = 0; i < todo.size(); ++i) tiles[todo[i]].emplace(std::move(made[i]));
  }
  cache.layout = layout;
  cache.polygons = std::move(polygons);
  cache.polygon_hashes = std::move(hashes.own);
  cache.border_hashes = std::move(hashes.border);
  cache.polygon_reads = std::move(reads);
  cache.polygon_boxes = std::move(boxes);
  cache.neighbor_first = navmesh.poly_first;
  cache.neighbors = navmesh.poly_neighbors;
  // note: every entry is engaged and the layout, grid and options were checked above, so the
  // join builds nothing and cannot fail but for an internal error
  Result<TiledLinks> out = [&] {
    auto timer = ctx.scoped_timer("relink_join");
    return build_tiled_jump_links_reusing(mesh, navmesh, layout, cache.options, tiles, ctx);
  }();
  cache.tiles.clear();
  cache.tiles.reserve(count);
  for (std::optional<TileLinks>& t : tiles) cache.tiles.push_back(t ? std::move(*t) : TileLinks{});
  if (!out.ok()) return out;
  if (stats != nullptr) {
    stats->tiles = count;
    stats->tiles_relinked = todo.size();
    stats->tiles_reused = count - todo.size();
    stats->tiles_polygons_changed = polygons_changed;
    stats->tiles_links_changed = links_changed;
    stats->layout_changed = layout_changed;
    stats->links_ms = ms_since(t_start);
    stats->relinked = std::move(relinked);
  }
  return out;
}

}  // namespace leapnav::jump
