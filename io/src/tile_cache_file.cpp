// The tile cache file (tile_cache_file.hpp): writer and bounded, checked reader. Tile meshes are
// stored as .lnav bytes (encode_navmesh / decode_navmesh), so they get the .lnav reader's checks.
#include "leapnav/io/tile_cache_file.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "leapnav/core/grid.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/detail/bytes.hpp"
#include "leapnav/io/navmesh_file.hpp"

namespace leapnav::io {

namespace {

constexpr std::array<char, 4> kMagic{'L', 'N', 'T', 'C'};
constexpr std::size_t kHeaderSize = 16;
constexpr std::size_t kChecksumSize = 8;
// fingerprint, 3 counts, 2 areas, blob size
constexpr std::size_t kTileHeaderBytes = 7 * 8 + 4 * 4;
constexpr std::uint64_t kMaxConfigBytes = 1U << 20U;

using Writer = detail::ByteWriter;
using Reader = detail::ByteReader;

// note: little-endian u32 arrays; on a little-endian host they are copied whole
void put_u32s(Writer& w, const std::vector<std::uint32_t>& v) {
  w.u64(v.size());
  if constexpr (std::endian::native == std::endian::little) {
    w.append(std::as_bytes(std::span<const std::uint32_t>(v)));
  } else {
    for (const std::uint32_t x : v) w.u32(x);
  }
}

bool get_u32s(Reader& r, std::vector<std::uint32_t>& v) {
  std::uint64_t n = 0;
  if (!r.u64(n) || n > r.remaining() / 4) return false;
  v.resize(static_cast<std::size_t>(n));
  if constexpr (std::endian::native == std::endian::little) {
    const std::span<const std::byte> bytes = r.take(v.size() * 4);
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return true;
  }
  for (std::uint32_t& x : v) {
    if (!r.u32(x)) return false;
  }
  return true;
}

// A linked stitch piece (mesh::StitchPiece): its arrays, counts and portals.
void put_piece(Writer& w, const mesh::StitchPiece& p) {
  for (const auto* v :
       {&p.vertex_rank, &p.kept, &p.poly_first, &p.vertex_tile, &p.vertex_local, &p.neighbor_local,
        &p.source_poly, &p.vertex_rank_ref, &p.neighbor_tile, &p.neighbor_poly})
    put_u32s(w, *v);
  w.u64(p.bounds.size());
  for (const AABB& b : p.bounds) {
    for (const float f : {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z}) w.f32(f);
  }
  w.u64(p.cross.size());
  for (const mesh::StitchPiece::Cross& c : p.cross) {
    w.u32(c.edge);
    w.u32(c.tile);
    w.u64(c.a);
    w.u64(c.b);
  }
  for (const std::uint64_t n : {p.stats.welded_vertices, p.stats.inserted_corners,
                                p.stats.portal_edges, p.stats.split_polygons})
    w.u64(n);
}

bool get_piece(Reader& r, mesh::StitchPiece& p) {
  for (auto* v :
       {&p.vertex_rank, &p.kept, &p.poly_first, &p.vertex_tile, &p.vertex_local, &p.neighbor_local,
        &p.source_poly, &p.vertex_rank_ref, &p.neighbor_tile, &p.neighbor_poly}) {
    if (!get_u32s(r, *v)) return false;
  }
  std::uint64_t n = 0;
  if (!r.u64(n) || n > r.remaining() / 24) return false;
  p.bounds.resize(static_cast<std::size_t>(n));
  for (AABB& b : p.bounds) {
    if (!(r.f32(b.min.x) && r.f32(b.min.y) && r.f32(b.min.z) && r.f32(b.max.x) && r.f32(b.max.y) &&
          r.f32(b.max.z)))
      return false;
  }
  if (!r.u64(n) || n > r.remaining() / 24) return false;
  p.cross.resize(static_cast<std::size_t>(n));
  for (mesh::StitchPiece::Cross& c : p.cross) {
    if (!(r.u32(c.edge) && r.u32(c.tile) && r.u64(c.a) && r.u64(c.b))) return false;
  }
  return r.u64(p.stats.welded_vertices) && r.u64(p.stats.inserted_corners) &&
         r.u64(p.stats.portal_edges) && r.u64(p.stats.split_polygons);
}

// A tile's hash part (mesh::TileHashPart): sizes, flags (as u32 0 / 1), sums, powers, units.
constexpr std::size_t kHashPartBytes = 6 * 4 + (2 * mesh::TileHashPart::kSequences + 4) * 8;

void put_hash_part(Writer& w, const mesh::TileHashPart& p) {
  for (const std::uint32_t v : {p.vertices, p.polygons, p.corners, p.samples}) w.u32(v);
  w.u32(p.patches ? 1 : 0);
  w.u32(p.valid ? 1 : 0);
  for (const std::uint64_t v : p.sum) w.u64(v);
  for (const std::uint64_t v : p.power) w.u64(v);
  for (const std::uint64_t v : {p.corner_unit, p.vertex_unit, p.poly_unit, p.sample_unit}) w.u64(v);
}

bool get_hash_part(Reader& r, mesh::TileHashPart& p) {
  std::uint32_t patches = 0;
  std::uint32_t valid = 0;
  if (!(r.u32(p.vertices) && r.u32(p.polygons) && r.u32(p.corners) && r.u32(p.samples) &&
        r.u32(patches) && r.u32(valid)) ||
      patches > 1 || valid > 1)
    return false;
  p.patches = patches == 1;
  p.valid = valid == 1;
  for (std::uint64_t& v : p.sum) {
    if (!r.u64(v)) return false;
  }
  for (std::uint64_t& v : p.power) {
    if (!r.u64(v)) return false;
  }
  return r.u64(p.corner_unit) && r.u64(p.vertex_unit) && r.u64(p.poly_unit) && r.u64(p.sample_unit);
}

}  // namespace

std::vector<std::byte> encode_tile_cache(const mesh::TileCache& cache) {
  Writer w;
  w.text(std::string_view(kMagic.data(), kMagic.size()));
  w.u32(kTileCacheFormatVersion);
  w.u64(0);  // file size, patched below
  const std::string config = config_to_json(cache.config);
  w.u64(config.size());
  w.text(config);
  const GridSpec& g = cache.layout.grid;
  for (const float v : {g.origin.x, g.origin.y, g.origin.z, g.cell_size, g.cell_height}) w.f32(v);
  for (const int v : {g.width, g.depth, g.height, cache.layout.tile_size, cache.layout.border,
                      cache.layout.tiles_x, cache.layout.tiles_z})
    w.i32(v);
  w.u64(cache.navmesh_hash);
  w.u64(cache.tiles.size());
  for (std::size_t t = 0; t < cache.tiles.size(); ++t) {
    const mesh::TileMesh& tile = cache.tiles[t];
    w.u64(t < cache.fingerprints.size() ? cache.fingerprints[t] : 0);
    w.u64(tile.stats.regions);
    w.u64(tile.stats.polygons);
    w.u64(tile.stats.vertices);
    w.f64(tile.stats.navmesh_area);
    w.f64(tile.stats.walkable_area);
    for (const int v :
         {tile.island_reads.x0, tile.island_reads.z0, tile.island_reads.x1, tile.island_reads.z1})
      w.i32(v);
    const std::vector<std::byte> mesh_bytes = encode_navmesh(tile.mesh);
    w.u64(mesh_bytes.size());
    w.append(mesh_bytes);
  }
  // the stitch pieces (derived data, saved so a rebuild need not make them all again)
  const bool pieces = cache.pieces.size() == cache.tiles.size();
  w.u64(pieces ? 1 : 0);
  if (pieces) {
    for (const mesh::StitchPiece& piece : cache.pieces) put_piece(w, piece);
  }
  // the hash parts and areas of the tiles, with the checksum of the .lnav they were made for
  const bool parts = cache.nav_file_checksum != 0 &&
                     cache.hash_parts.size() == cache.tiles.size() &&
                     cache.tile_areas.size() == cache.tiles.size();
  w.u64(parts ? 1 : 0);
  if (parts) {
    w.u64(cache.nav_file_checksum);
    for (const mesh::TileHashPart& part : cache.hash_parts) put_hash_part(w, part);
    for (const double area : cache.tile_areas) w.f64(area);
  }
  w.patch_u64(8, w.bytes().size() + kChecksumSize);
  ContentHasher h;
  h.add_bytes(w.bytes().data(), w.bytes().size());
  w.u64(h.digest());
  return std::move(w.bytes());
}

Result<mesh::TileCache> decode_tile_cache(std::span<const std::byte> data,
                                          std::string_view source) {
  const std::string src(source);
  auto corrupt = [&](const std::string& what) {
    return make_error(ErrorCode::CorruptFile, src + ": " + what);
  };
  if (data.size() < kHeaderSize + kChecksumSize)
    return corrupt("too short for a tile cache (" + std::to_string(data.size()) + " bytes)");
  for (std::size_t i = 0; i < kMagic.size(); ++i) {
    if (data[i] != static_cast<std::byte>(kMagic[i]))
      return corrupt("not a leapnav tile cache (bad magic)");
  }
  Reader header(data.subspan(4, kHeaderSize - 4));
  std::uint32_t version = 0;
  std::uint64_t declared = 0;
  (void)header.u32(version);
  (void)header.u64(declared);
  if (version != kTileCacheFormatVersion) {
    return make_error(ErrorCode::UnsupportedVersion,
                      src + ": tile cache format version " + std::to_string(version) +
                          " (this build reads version " + std::to_string(kTileCacheFormatVersion) +
                          "); build the cache again");
  }
  if (declared != data.size()) {
    return corrupt("declared size " + std::to_string(declared) + " bytes, the file has " +
                   std::to_string(data.size()));
  }
  ContentHasher hasher;
  hasher.add_bytes(data.data(), data.size() - kChecksumSize);
  Reader tail(data.subspan(data.size() - kChecksumSize));
  std::uint64_t stored = 0;
  (void)tail.u64(stored);
  if (stored != hasher.digest()) return corrupt("checksum mismatch: the file is damaged");

  Reader r(data.subspan(kHeaderSize, data.size() - kHeaderSize - kChecksumSize));
  mesh::TileCache cache;
  std::uint64_t config_bytes = 0;
  if (!r.u64(config_bytes) || config_bytes > r.remaining() || config_bytes > kMaxConfigBytes)
    return corrupt("configuration size out of range");
  {
    const auto text = r.take(static_cast<std::size_t>(config_bytes));
    const std::string json(reinterpret_cast<const char*>(text.data()), text.size());
    auto config = parse_config_json(json, src + " (configuration)");
    if (!config) return corrupt(config.error().message);
    cache.config = std::move(config).value();
  }
  GridSpec& g = cache.layout.grid;
  mesh::TileLayout& layout = cache.layout;
  std::uint64_t tiles = 0;
  if (!(r.f32(g.origin.x) && r.f32(g.origin.y) && r.f32(g.origin.z) && r.f32(g.cell_size) &&
        r.f32(g.cell_height) && r.i32(g.width) && r.i32(g.depth) && r.i32(g.height) &&
        r.i32(layout.tile_size) && r.i32(layout.border) && r.i32(layout.tiles_x) &&
        r.i32(layout.tiles_z) && r.u64(cache.navmesh_hash) && r.u64(tiles)))
    return corrupt("truncated layout");
  if (!(std::isfinite(g.origin.x) && std::isfinite(g.origin.y) && std::isfinite(g.origin.z) &&
        g.cell_size > 0.0F && g.cell_height > 0.0F && g.width > 0 && g.depth > 0 && g.height >= 0 &&
        layout.tile_size > 0 && layout.border >= 0 && layout.tiles_x > 0 && layout.tiles_z > 0))
    return corrupt("invalid grid or tile layout");
  {
    auto expected = mesh::make_tile_layout(g, {layout.tile_size, layout.border}, cache.config);
    if (!expected) return corrupt(expected.error().message);
    if (expected->tiles_x != layout.tiles_x || expected->tiles_z != layout.tiles_z)
      return corrupt("tile counts do not match the grid");
  }
  if (tiles != layout.tile_count() || tiles > r.remaining() / kTileHeaderBytes) {
    return corrupt(std::to_string(tiles) + " tiles for a layout of " +
                   std::to_string(layout.tile_count()));
  }
  cache.tiles.resize(static_cast<std::size_t>(tiles));
  cache.fingerprints.resize(static_cast<std::size_t>(tiles));
  for (std::size_t t = 0; t < cache.tiles.size(); ++t) {
    mesh::TileMesh& tile = cache.tiles[t];
    std::uint64_t mesh_bytes = 0;
    mesh::TileRect& reads = tile.island_reads;
    if (!(r.u64(cache.fingerprints[t]) && r.u64(tile.stats.regions) && r.u64(tile.stats.polygons) &&
          r.u64(tile.stats.vertices) && r.f64(tile.stats.navmesh_area) &&
          r.f64(tile.stats.walkable_area) && r.i32(reads.x0) && r.i32(reads.z0) &&
          r.i32(reads.x1) && r.i32(reads.z1) && r.u64(mesh_bytes)) ||
        mesh_bytes > r.remaining())
      return corrupt("tile " + std::to_string(t) + ": truncated");
    const bool no_reads = reads == mesh::TileRect{};
    if (!no_reads && !(reads.x0 >= 0 && reads.z0 >= 0 && reads.x0 < reads.x1 &&
                       reads.z0 < reads.z1 && reads.x1 <= g.width && reads.z1 <= g.depth))
      return corrupt("tile " + std::to_string(t) + ": island columns out of the grid");
    auto decoded = decode_navmesh(r.take(static_cast<std::size_t>(mesh_bytes)),
                                  src + ": tile " + std::to_string(t));
    if (!decoded) return make_error(ErrorCode::CorruptFile, decoded.error().message);
    tile.mesh = std::move(decoded).value();
    if (!same_grid_bits(tile.mesh.grid, g))
      return corrupt("tile " + std::to_string(t) + ": another grid");
    if (!tile.mesh.span_poly.empty())
      return corrupt("tile " + std::to_string(t) + ": a tile mesh has no span map");
    // note: the tile's CONF chunk holds the fields a navmesh file keeps; the cache's JSON holds
    // all of them, and every tile was built with it
    tile.mesh.config = cache.config;
  }
  std::uint64_t pieces = 0;
  if (!r.u64(pieces) || pieces > 1) return corrupt("truncated stitch pieces");
  if (pieces == 1) {
    cache.pieces.resize(cache.tiles.size());
    for (std::size_t t = 0; t < cache.pieces.size(); ++t) {
      if (!get_piece(r, cache.pieces[t]))
        return corrupt("stitch piece of tile " + std::to_string(t) + ": truncated");
    }
    if (Status s = mesh::check_stitch_pieces(cache); !s.ok())
      return corrupt(std::move(s).error().message);
  }
  std::uint64_t parts = 0;
  if (!r.u64(parts) || parts > 1) return corrupt("truncated hash parts");
  if (parts == 1) {
    if (!r.u64(cache.nav_file_checksum) || cache.nav_file_checksum == 0 ||
        cache.tiles.size() > r.remaining() / (kHashPartBytes + 8))
      return corrupt("truncated hash parts");
    cache.hash_parts.resize(cache.tiles.size());
    for (std::size_t t = 0; t < cache.hash_parts.size(); ++t) {
      if (!get_hash_part(r, cache.hash_parts[t]))
        return corrupt("hash part of tile " + std::to_string(t) + ": truncated or invalid");
    }
    cache.tile_areas.resize(cache.tiles.size());
    for (double& area : cache.tile_areas) {
      if (!r.f64(area) || !std::isfinite(area) || area < 0.0)
        return corrupt("tile areas: truncated or invalid");
    }
  }
  if (r.remaining() != 0)
    return corrupt(std::to_string(r.remaining()) + " bytes after the last tile");
  return cache;
}

Status save_tile_cache(const mesh::TileCache& cache, const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = encode_tile_cache(cache);
  return write_file_atomic(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<mesh::TileCache> load_tile_cache(const std::filesystem::path& path,
                                        std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  return decode_tile_cache(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(text.data()), text.size()),
      path.string());
}

}  // namespace leapnav::io
