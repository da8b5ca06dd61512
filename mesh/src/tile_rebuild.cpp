// Incremental tiled builds (Recast's tile cache idea, written from its description): per tile,
// the mesh before stitching and a fingerprint of the tile's input are kept; a rebuild builds the
// tiles an edit touches with build_tile, takes the others from the cache and stitches all of them
// with stitch_tiles, in tile order, as build_tiled_navmesh does, so the result is the full
// build's bit for bit. Invariant: cache.tiles[t] is build_tile's output for an input whose
// fingerprint is cache.fingerprints[t].
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "leapnav/core/hash.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tile_cache.hpp"

namespace leapnav::mesh {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The cheap part of validate(TileCache): sizes and layout, no per-tile mesh checks.
Status check_shape(const TileCache& cache) {
  const TileLayout& layout = cache.layout;
  if (layout.tile_size <= 0 || layout.border < 0)
    return make_error(ErrorCode::InvalidArgument, "tile cache: no tile layout (tile_size " +
                                                      std::to_string(layout.tile_size) + ")");
  TileConfig tiles{layout.tile_size, layout.border};
  LEAPNAV_TRY_ASSIGN(const TileLayout expected, make_tile_layout(layout.grid, tiles, cache.config));
  if (expected.tiles_x != layout.tiles_x || expected.tiles_z != layout.tiles_z) {
    return make_error(ErrorCode::InvalidArgument, "tile cache: " + std::to_string(layout.tiles_x) +
                                                      " x " + std::to_string(layout.tiles_z) +
                                                      " tiles, the grid has " +
                                                      std::to_string(expected.tiles_x) + " x " +
                                                      std::to_string(expected.tiles_z));
  }
  const std::size_t n = layout.tile_count();
  if (cache.fingerprints.size() != n || cache.tiles.size() != n) {
    return make_error(ErrorCode::InvalidArgument,
                      "tile cache: " + std::to_string(cache.tiles.size()) + " tile meshes and " +
                          std::to_string(cache.fingerprints.size()) + " fingerprints for " +
                          std::to_string(n) + " tiles");
  }
  return {};
}

// Builds the listed tiles in parallel (one tile per task, each on one thread) into slots in
// list order; warnings and stage times are handed to ctx in list order. The first error in list
// order wins.
Result<std::vector<TileMesh>> build_tile_list(
    const TriangleMesh& mesh, const std::vector<std::vector<std::uint32_t>>& triangles,
    const TileLayout& layout, std::span<const std::size_t> list, const BuildConfig& config,
    BuildContext& ctx, double* stage_ms) {
  using Slot = TaskSlot<TileMesh>;
  std::vector<Slot> slots(list.size());
  {
    auto timer = ctx.scoped_timer("tiles");
    parallel_for(ctx.threads(), 0, list.size(), 1, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) {
        Slot& slot = slots[i];
        const std::size_t t = list[i];
        if (ctx.cancelled()) {
          slot.result.emplace(
              make_error(ErrorCode::Cancelled, "cancelled before " + tile_name(layout, t)));
          continue;
        }
        BuildContext tile_ctx;
        init_task_context(tile_ctx, ctx);
        slot.result.emplace(build_tile(mesh, triangles, layout, t, config, tile_ctx));
        slot.keep_log(tile_ctx);
      }
    });
  }
  std::vector<TileMesh> out;
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    Slot& slot = slots[i];
    for (std::string& warning : slot.warnings)
      ctx.warn(tile_name(layout, list[i]) + ": " + warning);
    for (const auto& [stage, ms] : slot.timings) {
      ctx.add_time("tile:" + stage, ms);
      if (stage_ms != nullptr) *stage_ms += ms;
    }
    if (!slot.result->ok()) return std::move(*slot.result).error();
    out.push_back(std::move(slot.result->value()));
    slot = {};
  }
  return out;
}

// Makes the stitch pieces of the tiles marked in `changed` and of their neighbours (every tile
// when `changed` is null or the cache has no pieces) and links those and their neighbours, tiles
// in parallel. A piece depends on its block's tile meshes only, a link on its block's pieces, so
// the others stay valid. On error the pieces are dropped (they are derived data).
Status update_pieces(TileCache& cache, const std::vector<char>* changed, BuildContext& ctx,
                     RebuildStats* st, std::vector<std::size_t>* linked_tiles = nullptr) {
  const Clock::time_point start = Clock::now();
  const TileLayout& layout = cache.layout;
  const std::size_t n = layout.tile_count();
  std::vector<std::size_t> make_list;
  std::vector<std::size_t> link_list;
  if (changed == nullptr || cache.pieces.size() != n) {
    cache.pieces.assign(n, {});
    for (std::size_t t = 0; t < n; ++t) make_list.push_back(t);
    link_list = make_list;
  } else {
    std::vector<char> make(n, 0);
    for (std::size_t t = 0; t < n; ++t) {
      if ((*changed)[t] == 0) continue;
      for (const std::size_t u : tile_block(layout, t)) make[u] = 1;
    }
    std::vector<char> link(n, 0);
    for (std::size_t t = 0; t < n; ++t) {
      if (make[t] == 0) continue;
      make_list.push_back(t);
      for (const std::size_t u : tile_block(layout, t)) link[u] = 1;
    }
    for (std::size_t t = 0; t < n; ++t) {
      if (link[t] != 0) link_list.push_back(t);
    }
  }
  std::vector<std::optional<Status>> made(make_list.size());
  parallel_for(ctx.threads(), 0, make_list.size(), 1, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) {
      Result<StitchPiece> piece = stitch_piece(cache.tiles, layout, cache.config, make_list[i]);
      if (!piece.ok()) {
        made[i].emplace(std::move(piece).error());
        continue;
      }
      cache.pieces[make_list[i]] = std::move(piece.value());
      made[i].emplace();
    }
  });
  for (std::optional<Status>& status : made) {
    if (!status->ok()) {
      cache.pieces.clear();
      return std::move(*status);
    }
  }
  std::vector<std::optional<Status>> linked(link_list.size());
  parallel_for(ctx.threads(), 0, link_list.size(), 1, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i)
      linked[i].emplace(link_piece(cache.pieces, layout, link_list[i]));
  });
  for (std::optional<Status>& status : linked) {
    if (!status->ok()) {
      cache.pieces.clear();
      return std::move(*status);
    }
  }
  if (linked_tiles != nullptr) *linked_tiles = link_list;
  if (st != nullptr) {
    st->pieces_stitched = make_list.size();
    st->pieces_linked = link_list.size();
    st->pieces_ms = ms_since(start);
  }
  return {};
}

// Splices the cache's linked pieces into `out` with build_tiled_navmesh's stats, and validates
// the result: whole, or (`check_tiles` not null) the polygons of the listed tiles, those whose
// pieces were linked again (every other piece was validated before and is only shifted).
// With `previous` (the navmesh the pieces made before, of sizes `before`), the result is spliced
// into its arrays (splice_pieces_in_place) and moved into `out`; when it does not fit, spliced
// whole.
Status stitch_into(const TileCache& cache, TiledBuildOutput& out, BuildContext& ctx,
                   RebuildStats* st, const std::vector<std::size_t>* check_tiles = nullptr,
                   NavMesh* previous = nullptr, std::span<const PieceSizes> before = {},
                   std::vector<double>* tile_areas = nullptr) {
  out.layout = cache.layout;
  out.stats = {};
  for (const TileMesh& tile : cache.tiles) {
    out.stats.regions += tile.stats.regions;
    out.stats.walkable_area += tile.stats.walkable_area;
  }
  LEAPNAV_TRY(ctx.check_cancel("stitch"));
  Clock::time_point start = Clock::now();
  out.stitch = {};
  bool spliced = false;
  if (previous != nullptr && check_tiles != nullptr && before.size() == cache.tiles.size()) {
    spliced = splice_pieces_in_place(*previous, cache.tiles, cache.pieces, cache.layout,
                                     cache.config, before, *check_tiles, &out.stitch)
                  .ok();
    if (spliced) {
      out.navmesh = std::move(*previous);
      *previous = NavMesh{};
    }
    if (st != nullptr) st->spliced_in_place = spliced;
  }
  if (!spliced) {
    LEAPNAV_TRY_ASSIGN(out.navmesh, splice_pieces(cache.tiles, cache.pieces, cache.layout,
                                                  cache.config, &out.stitch));
  }
  if (st != nullptr) st->splice_ms = ms_since(start);
  start = Clock::now();
  Status checked;
  if (check_tiles == nullptr) {
    checked = validate(out.navmesh);
  } else {
    const std::vector<std::uint32_t>& first = out.navmesh.tile_poly_first;
    if (first.size() != cache.layout.tile_count() + 1)
      return make_error(ErrorCode::Internal, "stitch: the navmesh has no polygon range per tile");
    std::vector<std::uint32_t> polygons;
    for (const std::size_t t : *check_tiles) {
      for (std::uint32_t p = first[t]; p < first[t + 1]; ++p) polygons.push_back(p);
    }
    checked = validate_polygons(out.navmesh, polygons);
  }
  if (!checked.ok())
    return make_error(ErrorCode::Internal, "stitch: " + std::move(checked).error().message);
  if (st != nullptr) st->validate_ms = ms_since(start);
  const NavMesh& nav = out.navmesh;
  out.stats.polygons = nav.polygon_count();
  out.stats.vertices = nav.vertices.size();
  // note: the tiles' sums in tile order, as the full build adds them; only the tiles whose
  // pieces were linked again can have other polygons
  const std::size_t n = cache.layout.tile_count();
  std::vector<double> local_areas;
  std::vector<double>& areas = tile_areas != nullptr ? *tile_areas : local_areas;
  if (areas.size() != n || check_tiles == nullptr) {
    areas.resize(n);
    for (std::size_t t = 0; t < n; ++t) areas[t] = tile_polygon_area(nav, t);
  } else {
    for (const std::size_t t : *check_tiles) areas[t] = tile_polygon_area(nav, t);
  }
  out.stats.navmesh_area = 0.0;
  for (const double a : areas) out.stats.navmesh_area += a;
  if (nav.polygon_count() == 0) ctx.warn("navmesh: no polygons (no walkable area)");
  return {};
}

// Each tile's slices of the navmesh splice_pieces makes of the cache's pieces (arrays in tile
// order: a tile's kept vertices, its polygons and their corners, its tile mesh's samples).
std::vector<TileSlices> tile_slices(const TileCache& cache) {
  std::vector<TileSlices> out(cache.pieces.size());
  std::uint32_t vertex = 0;
  std::uint32_t poly = 0;
  std::uint32_t sample = 0;
  for (std::size_t t = 0; t < out.size(); ++t) {
    TileSlices& s = out[t];
    s.vertex_first = vertex;
    s.vertex_count = static_cast<std::uint32_t>(cache.pieces[t].kept.size());
    s.poly_first = poly;
    s.poly_count = static_cast<std::uint32_t>(cache.pieces[t].source_poly.size());
    s.sample_first = sample;
    s.sample_count = static_cast<std::uint32_t>(cache.tiles[t].mesh.height_samples.size());
    vertex += s.vertex_count;
    poly += s.poly_count;
    sample += s.sample_count;
  }
  return out;
}

// Computes the hash parts of the listed tiles of `nav` into `parts`, tiles in parallel.
void hash_tiles(const NavMesh& nav, std::span<const TileSlices> slices,
                std::span<const std::size_t> list, std::vector<TileHashPart>& parts, int threads) {
  parallel_for(threads, 0, list.size(), 16, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) parts[list[i]] = tile_hash_part(nav, slices[list[i]]);
  });
}

// The tiles whose hash part may differ after the pieces in `linked` were linked again: those
// tiles (their contents may have changed), and when a linked tile's vertex or polygon count
// changed, every tile within one row of it in tile order (a tile's ids point into its 3 x 3
// block, so the distance from its own first vertex or polygon to an id changes only when a tile
// between them changes size). `old` holds the parts before; empty: every tile.
std::vector<std::size_t> tiles_to_rehash(const TileLayout& layout,
                                         std::span<const TileSlices> slices,
                                         std::span<const std::size_t> linked,
                                         const std::vector<TileHashPart>& old) {
  const std::size_t n = slices.size();
  std::vector<std::size_t> out;
  if (old.size() != n) {
    out.resize(n);
    for (std::size_t t = 0; t < n; ++t) out[t] = t;
    return out;
  }
  std::vector<char> mark(n, 0);
  const std::size_t reach = static_cast<std::size_t>(layout.tiles_x) + 1;
  for (const std::size_t t : linked) {
    mark[t] = 1;
    if (old[t].vertices == slices[t].vertex_count && old[t].polygons == slices[t].poly_count)
      continue;
    const std::size_t lo = t >= reach ? t - reach : 0;
    const std::size_t hi = std::min(n - 1, t + reach);
    for (std::size_t u = lo; u <= hi; ++u) mark[u] = 1;
  }
  for (std::size_t t = 0; t < n; ++t) {
    if (mark[t] != 0) out.push_back(t);
  }
  return out;
}

// Fingerprints: each triangle is hashed once (its three vertices' bits and area id, five words
// through splitmix64's finalizer), and a tile's fingerprint chains the hashes of its triangles in
// list order, starting from its bordered rectangle and ending with the count and the hash of the
// mesh's area volumes. One pass over the triangles gives every tile's fingerprint.
std::uint64_t triangle_hash(const TriangleMesh& mesh, std::size_t t) {
  std::array<std::uint32_t, 10> w{};
  std::size_t k = 0;
  for (const std::uint32_t v : mesh.triangles[t]) {
    const Vec3& p = mesh.vertices[v];
    w[k++] = std::bit_cast<std::uint32_t>(p.x);
    w[k++] = std::bit_cast<std::uint32_t>(p.y);
    w[k++] = std::bit_cast<std::uint32_t>(p.z);
  }
  w[k] = mesh.areas.empty() ? kMaxAreaId : mesh.areas[t];
  std::uint64_t h = 0x6a09e667f3bcc909ULL;
  for (std::size_t i = 0; i < w.size(); i += 2)
    h = mix64(h + (std::uint64_t{w[i]} | (std::uint64_t{w[i + 1]} << 32U)));
  return h;
}

std::uint64_t fingerprint_start(const TileLayout& layout, std::size_t tile) {
  const TileRect r = layout.bordered(tile);
  std::uint64_t h = 0x3c6ef372fe94f82bULL;
  for (const int v : {r.x0, r.z0, r.x1, r.z1}) h = mix64(h + static_cast<std::uint32_t>(v));
  return h;
}

std::uint64_t fingerprint_step(std::uint64_t fingerprint, std::uint64_t triangle) {
  return mix64(fingerprint + triangle + 0x9e3779b97f4a7c15ULL);
}

std::uint64_t volumes_hash(const TriangleMesh& mesh) {
  // note: volumes are few and mark spans anywhere; any change to them changes every tile
  ContentHasher h;
  h.add_pod(static_cast<std::uint64_t>(mesh.area_volumes.size()));
  for (const AreaVolume& volume : mesh.area_volumes) {
    h.add_pod(static_cast<std::uint64_t>(volume.polygon.size()));
    for (const Vec2 c : volume.polygon) {
      h.add_pod(c.x);
      h.add_pod(c.y);
    }
    h.add_pod(volume.min_y);
    h.add_pod(volume.max_y);
    h.add_pod(volume.area);
  }
  return h.digest();
}

std::uint64_t fingerprint_end(std::uint64_t fingerprint, std::size_t count, std::uint64_t volumes) {
  return mix64(mix64(fingerprint + count) ^ volumes);
}

std::uint64_t fingerprint_of(const TriangleMesh& mesh, std::span<const std::uint32_t> triangles,
                             const TileLayout& layout, std::size_t tile, std::uint64_t volumes) {
  std::uint64_t h = fingerprint_start(layout, tile);
  for (const std::uint32_t t : triangles) h = fingerprint_step(h, triangle_hash(mesh, t));
  return fingerprint_end(h, triangles.size(), volumes);
}

// The x and z range [units: m] a triangle's bounds must overlap to be listed for some tile
// collect gathers (every such tile's bordered rectangle, with slack).
struct ScanWindow {
  bool empty = true;
  double x0 = 0.0;
  double x1 = 0.0;
  double z0 = 0.0;
  double z1 = 0.0;
  friend bool operator==(const ScanWindow&, const ScanWindow&) = default;
};

// The window around the bordered rectangles of the tiles marked in `want` and not in
// `collected`; those tiles marked in `missing` when not null.
ScanWindow scan_window(const TileLayout& layout, const std::vector<char>& want,
                       const std::vector<char>& collected, std::vector<char>* missing) {
  TileRect reach{layout.grid.width, layout.grid.depth, 0, 0};
  for (std::size_t t = 0; t < want.size(); ++t) {
    if (want[t] == 0 || collected[t] != 0) continue;
    if (missing != nullptr) (*missing)[t] = 1;
    const TileRect r = layout.bordered(t);
    reach = {std::min(reach.x0, r.x0), std::min(reach.z0, r.z0), std::max(reach.x1, r.x1),
             std::max(reach.z1, r.z1)};
  }
  ScanWindow out;
  if (reach.x1 <= reach.x0) return out;
  // note: triangle_tiles widens a triangle by one cell and rounds down; three cells of slack
  // here keep the coarse test on the safe side
  constexpr int kSlack = 3;
  const GridSpec& g = layout.grid;
  const double cs = g.cell_size;
  out.empty = false;
  out.x0 = g.origin.x + (reach.x0 - kSlack) * cs;
  out.x1 = g.origin.x + (reach.x1 + kSlack) * cs;
  out.z0 = g.origin.z + (reach.z0 - kSlack) * cs;
  out.z1 = g.origin.z + (reach.z1 + kSlack) * cs;
  return out;
}

// The smallest float >= v and the largest float <= v: for a finite float f, f < v exactly when
// f < float_at_least(v), and f > v exactly when f > float_at_most(v).
float float_at_least(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  if (v > kMax) return std::numeric_limits<float>::infinity();
  if (v < -kMax) return std::numeric_limits<float>::lowest();
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}
float float_at_most(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  if (v > kMax) return std::numeric_limits<float>::max();
  if (v < -kMax) return -std::numeric_limits<float>::infinity();
  float f = static_cast<float>(v);
  if (static_cast<double>(f) > v) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

// A vertex's side bits against a window: 1 left of x0, 2 right of x1, 4 before z0, 8 past z1.
// A triangle's bounds miss the window exactly when its three vertices share a bit.
struct Outcoder {
  float x0;
  float x1;
  float z0;
  float z1;
  explicit Outcoder(const ScanWindow& w)
      : x0(float_at_least(w.x0)),
        x1(float_at_most(w.x1)),
        z0(float_at_least(w.z0)),
        z1(float_at_most(w.z1)) {}
  [[nodiscard]] std::uint8_t operator()(const Vec3& v) const {
    return static_cast<std::uint8_t>((v.x < x0 ? 1U : 0U) | (v.x > x1 ? 2U : 0U) |
                                     (v.z < z0 ? 4U : 0U) | (v.z > z1 ? 8U : 0U));
  }
};

// The layout of `mesh` and the triangle lists of some of its tiles.
struct Assignment {
  TileLayout layout;
  std::vector<std::vector<std::uint32_t>> triangles;  ///< per tile; filled where collected
  std::vector<std::uint64_t> fingerprints;  ///< every tile's, after fingerprint_all; else empty
  std::vector<char> collected;              ///< per tile: `triangles` is filled
  double fingerprint_ms = 0.0;  ///< the pass over every triangle (fingerprint_all), or 0
  double scan_ms = 0.0;         ///< the passes of collect
  /// Every triangle index was checked (validate(mesh) passed); else collect checks them.
  bool indices_checked = false;
  /// Per vertex, where it lies against `outcode_window` (outcode()), made in the pass over the
  /// vertices for the window the first collect was expected to use; empty: none.
  std::vector<std::uint8_t> outcodes;
  ScanWindow outcode_window;
};

// validate(mesh)'s error when it has one, else `error`: a check that fails before the
// triangle indices were read reports what validate, run first as the full build runs it, would.
Error validate_first(const TriangleMesh& mesh, Error error) {
  if (Status s = validate(mesh); !s.ok()) return std::move(s).error();
  return error;
}

// The bounds of the vertices (mesh.bounds()'s box, bit for bit), whether every coordinate is
// finite, and with `code` each vertex's outcode into `outcodes`.
// note: with SSE2, four vertices (12 floats, three registers) a step, lane j of the three
// holding axis j % 3: minima, maxima, a finiteness sum (v - v is 0 for a finite v and NaN
// otherwise) and the outcode compares stay in registers. The lanes see the vertices in another
// order than extend, which changes a bound only at +-0 (extend keeps the first coordinate equal
// to the bound), so a zero bound is taken from the first vertex with that coordinate at zero.
struct VertexPass {
  AABB bounds;
  bool finite = true;
};

#if defined(__SSE2__)
// For a 12-bit lane mask of four vertices (lane 3 k + axis), the bits of their x and z lanes as
// outcode bits 0 and 2, vertex k in byte k.
constexpr std::array<std::uint32_t, 4096> kLaneSides = [] {
  std::array<std::uint32_t, 4096> out{};
  for (std::uint32_t m = 0; m < out.size(); ++m) {
    for (std::uint32_t k = 0; k < 4; ++k) {
      const std::uint32_t side = ((m >> (3 * k)) & 1U) | (((m >> (3 * k + 2)) & 1U) << 2U);
      out[m] |= side << (8 * k);
    }
  }
  return out;
}();
#endif

VertexPass vertex_pass(const std::vector<Vec3>& vertices, const Outcoder* code,
                       std::vector<std::uint8_t>& outcodes) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float));
  const std::size_t n = vertices.size();
  if (code != nullptr) outcodes.resize(n);
  VertexPass out;
  std::size_t whole = 0;
#if defined(__SSE2__)
  static_assert(std::endian::native == std::endian::little);
  whole = n / 4 * 4;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  // note: one register of four lanes each, three per step
  struct Lanes {
    __m128 lo;
    __m128 hi;
    __m128 nan_sum;
    __m128 below;
    __m128 above;
  };
  std::array<Lanes, 3> lanes{};
  {
    std::array<float, 12> b{};
    std::array<float, 12> a{};
    for (std::size_t j = 0; j < 12; ++j) {
      const std::size_t axis = j % 3;
      b[j] = code == nullptr || axis == 1 ? -kInf : (axis == 0 ? code->x0 : code->z0);
      a[j] = code == nullptr || axis == 1 ? kInf : (axis == 0 ? code->x1 : code->z1);
    }
    for (std::size_t r = 0; r < 3; ++r) {
      lanes[r].lo = _mm_set1_ps(std::numeric_limits<float>::max());
      lanes[r].hi = _mm_set1_ps(std::numeric_limits<float>::lowest());
      lanes[r].nan_sum = _mm_setzero_ps();
      lanes[r].below = _mm_loadu_ps(&b[4 * r]);
      lanes[r].above = _mm_loadu_ps(&a[4 * r]);
    }
  }
  const auto* floats = reinterpret_cast<const float*>(vertices.data());
  for (std::size_t i = 0; i < whole; i += 4) {
    unsigned lt = 0;
    unsigned gt = 0;
    for (unsigned r = 0; r < 3; ++r) {
      Lanes& l = lanes[r];
      const __m128 v = _mm_loadu_ps(floats + 3 * i + 4 * r);
      l.lo = _mm_min_ps(v, l.lo);
      l.hi = _mm_max_ps(v, l.hi);
      l.nan_sum = _mm_add_ps(l.nan_sum, _mm_sub_ps(v, v));
      lt |= static_cast<unsigned>(_mm_movemask_ps(_mm_cmplt_ps(v, l.below))) << (4 * r);
      gt |= static_cast<unsigned>(_mm_movemask_ps(_mm_cmpgt_ps(v, l.above))) << (4 * r);
    }
    if (code != nullptr) {
      const std::uint32_t four = kLaneSides[lt] | (kLaneSides[gt] << 1U);
      std::memcpy(&outcodes[i], &four, sizeof(four));
    }
  }
  std::array<float, 12> lo_lanes{};
  std::array<float, 12> hi_lanes{};
  std::array<float, 12> nan_lanes{};
  for (std::size_t r = 0; r < 3; ++r) {
    _mm_storeu_ps(&lo_lanes[4 * r], lanes[r].lo);
    _mm_storeu_ps(&hi_lanes[4 * r], lanes[r].hi);
    _mm_storeu_ps(&nan_lanes[4 * r], lanes[r].nan_sum);
  }
#endif
  for (std::size_t i = whole; i < n; ++i) {
    const Vec3 v = vertices[i];
    out.bounds.extend(v);
    out.finite = out.finite && is_finite(v);
    if (code != nullptr) outcodes[i] = (*code)(v);
  }
#if defined(__SSE2__)
  for (const float sum : nan_lanes) out.finite = out.finite && sum == 0.0F;
  if (whole == 0 || !out.finite) return out;
  std::array<float, 3> mn{out.bounds.min.x, out.bounds.min.y, out.bounds.min.z};
  std::array<float, 3> mx{out.bounds.max.x, out.bounds.max.y, out.bounds.max.z};
  for (std::size_t j = 0; j < 12; ++j) {
    mn[j % 3] = std::min(mn[j % 3], lo_lanes[j]);
    mx[j % 3] = std::max(mx[j % 3], hi_lanes[j]);
  }
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (mn[axis] != 0.0F && mx[axis] != 0.0F) continue;
    float first_zero = 0.0F;
    for (const Vec3& v : vertices) {
      const float c = axis == 0 ? v.x : (axis == 1 ? v.y : v.z);
      if (c == 0.0F) {
        first_zero = c;
        break;
      }
    }
    if (mn[axis] == 0.0F) mn[axis] = first_zero;
    if (mx[axis] == 0.0F) mx[axis] = first_zero;
  }
  out.bounds.min = {mn[0], mn[1], mn[2]};
  out.bounds.max = {mx[0], mx[1], mx[2]};
#endif
  return out;
}

// The mesh checked but for its triangle indices (collect reads them; `indices_checked` false)
// and its tile layout; no list collected yet. Errors are validate(mesh)'s when it fails.
// note: validate's vertex check and mesh.bounds() share one pass over the vertices (the
// scene check and the bounds were two passes and the index check a third, all cold in memory
// on a large scene)
// With a non-empty `window`, the same pass gives each vertex its outcode against it (valid for
// the first collect when the layout is the one the window was made on).
Result<Assignment> layout_checked_but_indices(const TriangleMesh& mesh, const BuildConfig& config,
                                              const TileConfig& tiles,
                                              const ScanWindow& window = {}) {
  std::vector<std::uint8_t> outcodes;
  std::optional<Outcoder> code;
  if (!window.empty) code.emplace(window);
  const VertexPass pass = vertex_pass(mesh.vertices, code ? &*code : nullptr, outcodes);
  const AABB& bounds = pass.bounds;
  const auto refuse = [&](Error error) { return validate_first(mesh, std::move(error)); };
  if (!pass.finite)
    return refuse(make_error(ErrorCode::NonFinite, mesh.label() + ": a vertex is not finite"));
  if (Status s = validate_areas(mesh); !s.ok()) return refuse(std::move(s).error());
  if (mesh.triangles.empty())
    return refuse(make_error(ErrorCode::EmptyInput, mesh.label() + ": the mesh has no triangles"));
  const VoxelParams params = derive_voxel_params(config);
  Result<GridSpec> grid = make_grid(bounds, params.cell_size, params.cell_height);
  if (!grid.ok()) return refuse(std::move(grid).error());
  Result<TileLayout> layout = make_tile_layout(*grid, tiles, config);
  if (!layout.ok()) return refuse(std::move(layout).error());
  Assignment out;
  out.layout = *layout;
  out.triangles.resize(out.layout.tile_count());
  out.collected.assign(out.layout.tile_count(), 0);
  out.outcodes = std::move(outcodes);
  out.outcode_window = window;
  return out;
}

// The triangle index check of validate(mesh), for a pass over the triangles.
struct IndexCheck {
  const TriangleMesh& mesh;
  // note: with more vertices than an index can name, every index is in range
  bool any_index = mesh.vertices.size() > std::numeric_limits<std::uint32_t>::max();
  std::uint32_t limit = static_cast<std::uint32_t>(
      std::min<std::size_t>(mesh.vertices.size(), std::numeric_limits<std::uint32_t>::max()));

  explicit IndexCheck(const TriangleMesh& m) : mesh(m) {}
  [[nodiscard]] bool out_of_range(const std::array<std::uint32_t, 3>& tri) const {
    return !any_index && (tri[0] >= limit || tri[1] >= limit || tri[2] >= limit);
  }
  [[nodiscard]] Error error() const {
    return validate_first(mesh, make_error(ErrorCode::IndexOutOfRange,
                                           mesh.label() + ": a triangle index is out of range"));
  }
};

// The triangle indices checked, when no pass over the triangles did yet.
Status check_indices(const TriangleMesh& mesh, Assignment& out) {
  if (out.indices_checked) return {};
  const IndexCheck check(mesh);
  for (const auto& tri : mesh.triangles) {
    if (check.out_of_range(tri)) return check.error();
  }
  out.indices_checked = true;
  return {};
}

// The mesh checked and its tile layout; no list collected yet.
Result<Assignment> layout_of(const TriangleMesh& mesh, const BuildConfig& config,
                             const TileConfig& tiles) {
  LEAPNAV_TRY(validate(mesh));
  LEAPNAV_TRY_ASSIGN(Assignment out, layout_checked_but_indices(mesh, config, tiles));
  out.indices_checked = true;
  return out;
}

// Every tile's fingerprint and the triangles of the tiles marked in `want`, in one pass over the
// triangles.
void fingerprint_all(const TriangleMesh& mesh, const std::vector<char>& want, Assignment& out) {
  const Clock::time_point start = Clock::now();
  const std::size_t n = out.layout.tile_count();
  out.fingerprints.resize(n);
  std::vector<std::uint64_t> counts(n, 0);
  for (std::size_t t = 0; t < n; ++t) out.fingerprints[t] = fingerprint_start(out.layout, t);
  std::vector<std::uint32_t> list;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    list.clear();
    triangle_tiles(mesh, out.layout, t, list);
    if (list.empty()) continue;
    const std::uint64_t h = triangle_hash(mesh, t);
    for (const std::uint32_t u : list) {
      out.fingerprints[u] = fingerprint_step(out.fingerprints[u], h);
      ++counts[u];
      if (want[u] != 0) out.triangles[u].push_back(static_cast<std::uint32_t>(t));
    }
  }
  const std::uint64_t volumes = volumes_hash(mesh);
  for (std::size_t t = 0; t < n; ++t)
    out.fingerprints[t] = fingerprint_end(out.fingerprints[t], counts[t], volumes);
  for (std::size_t t = 0; t < n; ++t) out.collected[t] = out.collected[t] != 0 || want[t] != 0;
  out.fingerprint_ms = ms_since(start);
}

// Also the triangles of the tiles marked in `want` that are not collected yet: one pass over the
// triangles that skips, by their x and z bounds, those far from every such tile's bordered
// rectangle (tile_triangles' lists, in its order). Unless `out.indices_checked`, the same pass
// checks every triangle's indices first (validate(mesh)'s error when one is out of range).
Status collect(const TriangleMesh& mesh, const std::vector<char>& want, Assignment& out) {
  const Clock::time_point start = Clock::now();
  const TileLayout& layout = out.layout;
  const bool check = !out.indices_checked;
  const IndexCheck index_check(mesh);
  std::vector<char> missing(want.size(), 0);
  const ScanWindow w = scan_window(layout, want, out.collected, &missing);
  if (w.empty) {
    Status checked = check_indices(mesh, out);
    out.scan_ms += ms_since(start);
    return checked;
  }
  std::vector<std::uint32_t> tiles;
  const auto list = [&](std::size_t t) {
    tiles.clear();
    triangle_tiles(mesh, layout, t, tiles);
    for (const std::uint32_t u : tiles) {
      if (missing[u] != 0) out.triangles[u].push_back(static_cast<std::uint32_t>(t));
    }
  };
  if (out.outcodes.size() == mesh.vertices.size() && out.outcode_window == w) {
    // note: the vertices' outcodes (a byte each) stand for their coordinates: the same test,
    // without reading the vertices again
    // note: the loop keeps its bounds in locals (list() writes through pointers) and reads
    // ahead: the triangles are the one array of the world it streams
    const std::uint8_t* code = out.outcodes.data();
    const std::array<std::uint32_t, 3>* triangles = mesh.triangles.data();
    const std::size_t count = mesh.triangles.size();
    const std::uint64_t limit = check && !index_check.any_index ? std::uint64_t{index_check.limit}
                                                                : std::uint64_t{1} << 32U;
    constexpr std::size_t kAhead = 64;
    for (std::size_t t = 0; t < count; ++t) {
      if (t + kAhead < count) __builtin_prefetch(&triangles[t + kAhead]);
      const std::array<std::uint32_t, 3> tri = triangles[t];
      if (std::uint64_t{std::max({tri[0], tri[1], tri[2]})} >= limit) return index_check.error();
      if ((code[tri[0]] & code[tri[1]] & code[tri[2]]) != 0) continue;
      list(t);
    }
  } else {
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      const auto& tri = mesh.triangles[t];
      if (check && index_check.out_of_range(tri)) return index_check.error();
      const Vec3& a = mesh.vertices[tri[0]];
      const Vec3& b = mesh.vertices[tri[1]];
      const Vec3& c = mesh.vertices[tri[2]];
      if (std::max({a.x, b.x, c.x}) < w.x0 || std::min({a.x, b.x, c.x}) > w.x1 ||
          std::max({a.z, b.z, c.z}) < w.z0 || std::min({a.z, b.z, c.z}) > w.z1)
        continue;
      list(t);
    }
  }
  out.outcodes = {};
  for (std::size_t t = 0; t < want.size(); ++t) {
    if (missing[t] != 0) out.collected[t] = 1;
  }
  out.indices_checked = true;
  out.scan_ms += ms_since(start);
  return {};
}

// Marks in `lists` every tile whose triangle list build_tile may read for a tile marked in
// `build`: those whose interior overlaps one of the windows its island filter voxelizes (the
// voxel stage of island_window, and first a window of the border plus 12 columns around the
// areas, which lie in the bordered rectangle; see decide_open_islands in tile_build.cpp).
std::vector<char> lists_read(const TileLayout& layout, const BuildConfig& config,
                             const std::vector<char>& build) {
  const int ts = layout.tile_size;
  constexpr int kFirstWindow = 12;
  std::vector<char> out(build.size(), 0);
  for (std::size_t t = 0; t < build.size(); ++t) {
    if (build[t] == 0) continue;
    const TileRect island = island_window(layout, t, config);
    const TileRect b = layout.bordered(t);
    const int by = kFirstWindow + layout.border;
    const TileRect r{std::max(0, std::min(island.x0, b.x0 - by)),
                     std::max(0, std::min(island.z0, b.z0 - by)),
                     std::min(layout.grid.width, std::max(island.x1, b.x1 + by)),
                     std::min(layout.grid.depth, std::max(island.z1, b.z1 + by))};
    for (int tz = r.z0 / ts; tz <= (r.z1 - 1) / ts && tz < layout.tiles_z; ++tz) {
      for (int tx = r.x0 / ts; tx <= (r.x1 - 1) / ts && tx < layout.tiles_x; ++tx)
        out[static_cast<std::size_t>(tx) +
            static_cast<std::size_t>(tz) * static_cast<std::size_t>(layout.tiles_x)] = 1;
    }
  }
  return out;
}

// Whether a tile owning columns of `rect` is marked in `marks`.
bool any_tile_in(const std::vector<char>& marks, const TileLayout& layout, const TileRect& rect) {
  const int ts = layout.tile_size;
  for (int tz = rect.z0 / ts; tz <= (rect.z1 - 1) / ts && tz < layout.tiles_z; ++tz) {
    for (int tx = rect.x0 / ts; tx <= (rect.x1 - 1) / ts && tx < layout.tiles_x; ++tx) {
      if (marks[static_cast<std::size_t>(tx) +
                static_cast<std::size_t>(tz) * static_cast<std::size_t>(layout.tiles_x)] != 0)
        return true;
    }
  }
  return false;
}

// The tiles to rebuild when those marked in `input_changed` have new input.
// note: a tile whose island filter read columns beyond its border depends on their triangles,
// and those are listed by the tiles owning the columns; a tile that read none starts to only
// when its own input changes
std::vector<char> tiles_to_rebuild(const TileCache& cache, const std::vector<char>& input_changed) {
  std::vector<char> out(input_changed.size(), 0);
  for (std::size_t t = 0; t < out.size(); ++t) {
    const TileRect& reads = cache.tiles[t].island_reads;
    out[t] = input_changed[t] != 0 ||
                     (reads.width() > 0 && any_tile_in(input_changed, cache.layout, reads))
                 ? 1
                 : 0;
  }
  return out;
}

// The tiles whose lists the first collect of a rebuild gathers, when the layout is the cache's.
std::vector<char> first_lists_read(const TileCache& cache, const AABB& changed) {
  std::vector<char> input_changed(cache.layout.tile_count(), 0);
  for (const std::size_t t : tiles_touching(cache.layout, changed)) input_changed[t] = 1;
  return lists_read(cache.layout, cache.config, tiles_to_rebuild(cache, input_changed));
}

}  // namespace

Status check_stitch_pieces(const TileCache& cache) {
  if (cache.pieces.empty()) return {};
  const std::size_t n = cache.tiles.size();
  if (cache.pieces.size() != n)
    return make_error(ErrorCode::InvalidArgument,
                      "tile cache: " + std::to_string(cache.pieces.size()) + " stitch pieces for " +
                          std::to_string(n) + " tiles");
  for (std::size_t t = 0; t < n; ++t) {
    const StitchPiece& p = cache.pieces[t];
    const NavMesh& m = cache.tiles[t].mesh;
    const auto bad = [&](const std::string& what) {
      return make_error(ErrorCode::InvalidArgument,
                        "tile cache: stitch piece of " + tile_name(cache.layout, t) + ": " + what);
    };
    if (p.vertex_rank.size() != m.vertices.size()) return bad("vertex ranks");
    for (std::size_t k = 0; k < p.kept.size(); ++k) {
      if (p.kept[k] >= m.vertices.size() || p.vertex_rank[p.kept[k]] != k ||
          (k > 0 && p.kept[k] <= p.kept[k - 1]))
        return bad("kept vertices");
    }
    std::size_t ranked = 0;
    for (const std::uint32_t r : p.vertex_rank) ranked += r == kNoPoly ? 0 : 1;
    if (ranked != p.kept.size()) return bad("vertex ranks");
    const std::size_t polys = p.source_poly.size();
    const std::size_t corners = p.vertex_tile.size();
    if (p.poly_first.size() != polys + 1 || p.poly_first.front() != 0 ||
        p.poly_first.back() != corners || p.bounds.size() != polys)
      return bad("polygon offsets");
    for (std::size_t q = 0; q < polys; ++q) {
      if (p.poly_first[q + 1] < p.poly_first[q] + 3) return bad("polygon offsets");
      if (p.source_poly[q] >= m.polygon_count()) return bad("source polygons");
    }
    for (const auto* v : {&p.vertex_local, &p.neighbor_local, &p.vertex_rank_ref, &p.neighbor_tile,
                          &p.neighbor_poly}) {
      if (v->size() != corners) return bad("corner arrays");
    }
    for (std::size_t k = 0; k < corners; ++k) {
      const std::uint32_t owner = p.vertex_tile[k];
      if (owner >= n || p.vertex_local[k] >= cache.pieces[owner].vertex_rank.size() ||
          cache.pieces[owner].vertex_rank[p.vertex_local[k]] != p.vertex_rank_ref[k])
        return bad("vertex references");
      const std::uint32_t q = p.neighbor_tile[k];
      if (q != kNoPoly && (q >= n || p.neighbor_poly[k] >= cache.pieces[q].source_poly.size()))
        return bad("neighbour references");
      const std::uint32_t l = p.neighbor_local[k];
      if (l != kNoPoly && l != StitchPiece::kCrossTile && l >= polys) return bad("neighbours");
    }
    for (const StitchPiece::Cross& c : p.cross) {
      if (c.edge >= corners || c.tile >= n) return bad("portals");
    }
  }
  return {};
}

Status validate(const TileCache& cache) {
  LEAPNAV_TRY(validate(cache.config));
  LEAPNAV_TRY(check_shape(cache));
  LEAPNAV_TRY(check_stitch_pieces(cache));
  for (std::size_t t = 0; t < cache.tiles.size(); ++t) {
    const NavMesh& nav = cache.tiles[t].mesh;
    const std::string where = "tile cache: " + tile_name(cache.layout, t);
    if (!same_grid_bits(nav.grid, cache.layout.grid))
      return make_error(ErrorCode::InvalidArgument, where + ": its mesh is not on the world grid");
    if (!(nav.config == cache.config)) {
      return make_error(ErrorCode::InvalidArgument, where + ": built with configuration '" +
                                                        nav.config.name + "', not the cache's '" +
                                                        cache.config.name + "'");
    }
    if (!nav.span_poly.empty())
      return make_error(ErrorCode::InvalidArgument, where + ": a tile mesh has no span map");
    if (Status s = validate(nav); !s.ok())
      return make_error(ErrorCode::InvalidArgument, where + ": " + std::move(s).error().message);
  }
  return {};
}

std::uint64_t tile_fingerprint(const TriangleMesh& mesh, std::span<const std::uint32_t> triangles,
                               const TileLayout& layout, std::size_t tile) {
  return fingerprint_of(mesh, triangles, layout, tile, volumes_hash(mesh));
}

std::vector<std::size_t> tiles_touching(const TileLayout& layout, const AABB& changed) {
  std::vector<std::size_t> out;
  if (changed.empty()) return out;
  const GridSpec& g = layout.grid;
  const double cs = g.cell_size;
  for (std::size_t t = 0; t < layout.tile_count(); ++t) {
    const TileRect r = layout.bordered(t);
    // note: tile_triangles lists a triangle for a tile when its bounds widened by one cell
    // overlap the rectangle; two cells here keep the floor() of that test on the safe side
    constexpr int kSlack = 2;
    const double x0 = g.origin.x + (r.x0 - kSlack) * cs;
    const double x1 = g.origin.x + (r.x1 + kSlack) * cs;
    const double z0 = g.origin.z + (r.z0 - kSlack) * cs;
    const double z1 = g.origin.z + (r.z1 + kSlack) * cs;
    if (changed.max.x < x0 || changed.min.x > x1 || changed.max.z < z0 || changed.min.z > z1)
      continue;
    out.push_back(t);
  }
  return out;
}

Result<CachedTiledBuild> build_tiled_navmesh_cached(const TriangleMesh& mesh,
                                                    const BuildConfig& config,
                                                    const TileConfig& tiles, BuildContext& ctx) {
  LEAPNAV_TRY(validate(tiles, config));
  if (tiles.tile_size == 0) {
    return make_error(ErrorCode::InvalidArgument,
                      "tiles: a tile cache needs a tiled build (tile_size 0 has no tiles)");
  }
  LEAPNAV_TRY_ASSIGN(Assignment assigned, layout_of(mesh, config, tiles));
  fingerprint_all(mesh, std::vector<char>(assigned.layout.tile_count(), 1), assigned);
  CachedTiledBuild out;
  TileCache& cache = out.cache;
  cache.config = config;
  cache.layout = assigned.layout;
  std::vector<std::size_t> all(cache.layout.tile_count());
  for (std::size_t t = 0; t < all.size(); ++t) all[t] = t;
  LEAPNAV_TRY_ASSIGN(cache.tiles, build_tile_list(mesh, assigned.triangles, cache.layout, all,
                                                  config, ctx, nullptr));
  assigned.triangles = {};
  cache.fingerprints = std::move(assigned.fingerprints);
  {
    auto timer = ctx.scoped_timer("stitch");
    LEAPNAV_TRY(update_pieces(cache, nullptr, ctx, nullptr));
    LEAPNAV_TRY(
        stitch_into(cache, out.output, ctx, nullptr, nullptr, nullptr, {}, &cache.tile_areas));
  }
  {
    const std::vector<TileSlices> slices = tile_slices(cache);
    std::vector<std::size_t> all_tiles(slices.size());
    for (std::size_t t = 0; t < all_tiles.size(); ++t) all_tiles[t] = t;
    cache.hash_parts.resize(slices.size());
    hash_tiles(out.output.navmesh, slices, all_tiles, cache.hash_parts, ctx.threads());
    cache.navmesh_hash = content_hash_of_parts(out.output.navmesh, cache.hash_parts);
  }
  return out;
}

Result<TiledBuildOutput> rebuild_tiled_navmesh(const TriangleMesh& mesh, TileCache& cache,
                                               const AABB& changed, BuildContext& ctx,
                                               RebuildStats* stats, const RebuildOptions& options) {
  for (const float v :
       {changed.min.x, changed.min.y, changed.min.z, changed.max.x, changed.max.y, changed.max.z}) {
    if (!std::isfinite(v))
      return make_error(ErrorCode::NonFinite, "changed box: a coordinate is not finite");
  }
  if (changed.empty()) {
    return make_error(ErrorCode::InvalidArgument,
                      "changed box: its minimum lies above its maximum on some axis");
  }
  LEAPNAV_TRY(check_shape(cache));
  RebuildStats local;
  RebuildStats& st = stats != nullptr ? *stats : local;
  st = {};

  Clock::time_point start = Clock::now();
  const TileConfig tile_config{cache.layout.tile_size, cache.layout.border};
  // note: the triangle indices are checked in the first collect (or before fingerprint_all);
  // the vertices get their outcodes for the window that collect will scan when the layout
  // stays the cache's
  ScanWindow predicted;
  if (!options.check_outside) {
    const std::vector<char> read = first_lists_read(cache, changed);
    predicted = scan_window(cache.layout, read, std::vector<char>(read.size(), 0), nullptr);
  }
  LEAPNAV_TRY_ASSIGN(Assignment assigned,
                     layout_checked_but_indices(mesh, cache.config, tile_config, predicted));
  st.check_ms = ms_since(start);
  const TileLayout& layout = assigned.layout;
  const std::size_t tile_count = layout.tile_count();
  st.tiles = tile_count;
  st.layout_changed = !same_layout(layout, cache.layout);
  std::vector<std::size_t> list;
  std::vector<char> rebuild(tile_count, 0);
  std::vector<std::uint64_t> fingerprints;
  if (st.layout_changed) {
    ctx.warn("tile cache: the new geometry gives another world grid; every tile is rebuilt");
    std::fill(rebuild.begin(), rebuild.end(), 1);
    LEAPNAV_TRY(check_indices(mesh, assigned));
    fingerprint_all(mesh, rebuild, assigned);
    fingerprints = std::move(assigned.fingerprints);
    list.resize(tile_count);
    for (std::size_t t = 0; t < tile_count; ++t) list[t] = t;
  } else {
    // the tiles whose input changed: those the box touches, and (checked below) those whose
    // fingerprint differs from the cached one
    std::vector<char> input_changed(tile_count, 0);
    for (const std::size_t t : tiles_touching(layout, changed)) input_changed[t] = 1;
    if (options.check_outside) {
      LEAPNAV_TRY(check_indices(mesh, assigned));
      fingerprint_all(mesh, input_changed, assigned);
    }
    fingerprints = cache.fingerprints;
    const std::uint64_t volumes = volumes_hash(mesh);
    std::vector<char> checked(tile_count, 0);
    const auto outside = [&](std::size_t t, std::uint64_t fingerprint) {
      if (input_changed[t] != 0 || fingerprint == cache.fingerprints[t]) return false;
      input_changed[t] = 1;
      ++st.tiles_outside_changed;
      ctx.warn(tile_name(layout, t) + ": its triangles changed outside the changed box; rebuilt");
      return true;
    };
    if (options.check_outside) {
      for (std::size_t t = 0; t < tile_count; ++t) {
        outside(t, assigned.fingerprints[t]);
        checked[t] = 1;
      }
      fingerprints = assigned.fingerprints;
    }
    // note: without the full check, each tile whose triangle list a rebuilt tile reads is
    // checked against its cached fingerprint (edits a little past the box are caught there);
    // a changed tile found so makes more tiles to rebuild, so repeat until none is found
    for (bool again = true; again;) {
      again = false;
      rebuild = tiles_to_rebuild(cache, input_changed);
      const std::vector<char> read = lists_read(layout, cache.config, rebuild);
      LEAPNAV_TRY(collect(mesh, read, assigned));
      for (std::size_t t = 0; t < tile_count; ++t) {
        if (read[t] == 0 || checked[t] != 0) continue;
        checked[t] = 1;
        fingerprints[t] = fingerprint_of(mesh, assigned.triangles[t], layout, t, volumes);
        again = outside(t, fingerprints[t]) || again;
      }
    }
    for (std::size_t t = 0; t < tile_count; ++t) {
      st.tiles_listed += assigned.collected[t] != 0 ? 1 : 0;
      if (rebuild[t] != 0) list.push_back(t);
    }
  }
  if (st.layout_changed || options.check_outside) st.tiles_listed = tile_count;
  st.assign_ms = ms_since(start);
  st.fingerprint_ms = assigned.fingerprint_ms;
  st.scan_ms = assigned.scan_ms;

  start = Clock::now();
  LEAPNAV_TRY_ASSIGN(std::vector<TileMesh> built,
                     build_tile_list(mesh, assigned.triangles, layout, list, cache.config, ctx,
                                     &st.tile_stage_ms));
  st.tiles_ms = ms_since(start);
  st.tiles_rebuilt = list.size();
  st.tiles_reused = tile_count - list.size();

  // the sizes of every tile's part of the navmesh the cache stitches to, for a splice in place
  std::vector<PieceSizes> before;
  if (options.previous != nullptr && !st.layout_changed && cache.pieces.size() == tile_count) {
    before.resize(tile_count);
    for (std::size_t t = 0; t < tile_count; ++t) {
      const StitchPiece& piece = cache.pieces[t];
      before[t] = {static_cast<std::uint32_t>(piece.kept.size()),
                   static_cast<std::uint32_t>(piece.source_poly.size()),
                   static_cast<std::uint32_t>(piece.vertex_tile.size()),
                   static_cast<std::uint32_t>(cache.tiles[t].mesh.height_samples.size())};
    }
  }
  // note: the new state is assembled beside the cache and swapped in only after the stitch
  TileCache next;
  next.config = cache.config;
  next.layout = layout;
  next.fingerprints = std::move(fingerprints);
  if (st.layout_changed) {
    next.tiles.swap(built);
  } else {
    next.pieces = std::move(cache.pieces);
    next.tile_areas = std::move(cache.tile_areas);
    // note: the rebuilt tiles are swapped in; `built` then holds the old ones (given back on
    // error)
    next.tiles = std::move(cache.tiles);
    for (std::size_t k = 0; k < list.size(); ++k) std::swap(next.tiles[list[k]], built[k]);
  }
  start = Clock::now();
  TiledBuildOutput out;
  Status stitched;
  std::vector<std::size_t> linked;
  {
    auto timer = ctx.scoped_timer("stitch");
    stitched = update_pieces(next, st.layout_changed ? nullptr : &rebuild, ctx, &st, &linked);
    // note: after a layout change every piece is new: the whole result is validated
    if (stitched.ok())
      stitched = stitch_into(next, out, ctx, &st, st.layout_changed ? nullptr : &linked,
                             options.previous, before, &next.tile_areas);
  }
  st.stitch_ms = ms_since(start);
  if (!st.layout_changed && !stitched.ok()) {
    // give the tiles back, so the cache is unchanged on error
    for (std::size_t k = 0; k < list.size(); ++k) std::swap(next.tiles[list[k]], built[k]);
    cache.tiles = std::move(next.tiles);
    cache.pieces.clear();  // derived data; prepare_stitch_pieces or the next rebuild makes them
    cache.tile_areas.clear();
  }
  LEAPNAV_TRY(std::move(stitched));
  start = Clock::now();
  {
    // note: the parts of the tiles whose slices did not change or move are the cache's
    const std::vector<TileSlices> slices = tile_slices(next);
    const std::vector<std::size_t> rehash = tiles_to_rehash(
        layout, slices, linked, st.layout_changed ? std::vector<TileHashPart>{} : cache.hash_parts);
    next.hash_parts =
        st.layout_changed ? std::vector<TileHashPart>(tile_count) : std::move(cache.hash_parts);
    next.hash_parts.resize(tile_count);
    hash_tiles(out.navmesh, slices, rehash, next.hash_parts, ctx.threads());
    next.navmesh_hash = content_hash_of_parts(out.navmesh, next.hash_parts);
    st.tiles_rehashed = rehash.size();
  }
  st.hash_ms = ms_since(start);
  st.tiles_restitched = std::move(linked);
  cache = std::move(next);
  return out;
}

Result<std::uint64_t> prepare_tile_hashes(TileCache& cache, const NavMesh& stitched,
                                          BuildContext& ctx) {
  LEAPNAV_TRY(check_shape(cache));
  if (cache.pieces.size() != cache.layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "tile cache: no stitch pieces to slice the navmesh by");
  const std::vector<TileSlices> slices = tile_slices(cache);
  std::vector<std::size_t> all_tiles(slices.size());
  for (std::size_t t = 0; t < all_tiles.size(); ++t) all_tiles[t] = t;
  std::vector<TileHashPart> parts(slices.size());
  hash_tiles(stitched, slices, all_tiles, parts, ctx.threads());
  const std::uint64_t hash = content_hash_of_parts(stitched, parts);
  if (hash != cache.navmesh_hash) {
    cache.hash_parts.clear();
    return hash;
  }
  cache.hash_parts = std::move(parts);
  // note: the tiles' polygon areas too, so that a rebuild sums the cached ones and computes
  // only those of the tiles it links again
  const std::size_t n = cache.layout.tile_count();
  if (cache.tile_areas.size() != n && stitched.tile_poly_first.size() == n + 1) {
    std::vector<double> areas(n);
    parallel_for(ctx.threads(), 0, n, 64, [&](std::size_t t0, std::size_t t1) {
      for (std::size_t t = t0; t < t1; ++t) areas[t] = tile_polygon_area(stitched, t);
    });
    cache.tile_areas = std::move(areas);
  }
  return hash;
}

Status prepare_stitch_pieces(TileCache& cache, BuildContext& ctx) {
  LEAPNAV_TRY(check_shape(cache));
  if (cache.pieces.size() == cache.layout.tile_count()) return {};
  TileCache work;
  work.config = cache.config;
  work.layout = cache.layout;
  work.tiles = std::move(cache.tiles);
  Status status = update_pieces(work, nullptr, ctx, nullptr);
  cache.tiles = std::move(work.tiles);
  LEAPNAV_TRY(std::move(status));
  cache.pieces = std::move(work.pieces);
  return {};
}

}  // namespace leapnav::mesh
