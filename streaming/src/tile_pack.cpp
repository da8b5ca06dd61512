// The tile pack file (tile_pack.hpp): writer, whole-file decoder and the streaming source that
// reads the header once and one block per load. Every count is checked against the bytes that
// must hold it before a vector is sized; the header and each block are checksummed.

#include "leapnav/streaming/tile_pack.hpp"

#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <utility>

#include "leapnav/core/hash.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/detail/bytes.hpp"
#include "leapnav/io/file_io.hpp"

namespace leapnav::stream {

namespace {

constexpr std::uint32_t kMagic = 0x50544E4CU;  // "LNTP" as stored
constexpr std::uint64_t kPrefixBytes = 24;     // magic, version, file size, header size
constexpr std::uint64_t kEntryBytes = 24;
constexpr std::uint8_t kFlagPatches = 1;
constexpr std::uint8_t kFlagLinks = 2;
constexpr std::uint8_t kFlagLedges = 4;  // format version 2 on
constexpr std::uint32_t kFirstLedgeVersion = 2;
// per-element bytes of a block's arrays
constexpr std::uint64_t kVertexBytes = 12;
constexpr std::uint64_t kPolyBytes = 4 + 2 + 1 + 2 + 24 + 4 + 4;  // first, region, area, flags,
                                                                  // bounds, islands
constexpr std::uint64_t kPatchBytes = 16;
constexpr std::uint64_t kCornerBytes = 8;
constexpr std::uint64_t kForeignBytes = 16;
constexpr std::uint64_t kLinkBytes = 46;
constexpr std::uint64_t kLedgeBytes = 1 + 4 + 4 + 48 + 4;  // kind, polygons, 4 points, cost

using Reader = io::detail::ByteReader;
using Writer = io::detail::ByteWriter;

std::uint64_t checksum(std::span<const std::byte> bytes) {
  ContentHasher h;
  h.add_bytes(bytes.data(), bytes.size());
  return h.digest();
}

Error corrupt(std::string_view source, const std::string& what) {
  return make_error(ErrorCode::CorruptFile, std::string(source) + ": " + what);
}

// Link and height codings of a block.
constexpr std::uint8_t kLinksRaw = 0;       // 46 bytes a link
constexpr std::uint8_t kLinksLattice = 1;   // varints on the layout's lattice (quantum)
constexpr std::uint8_t kSamplesRaw = 0;     // 4 bytes a sample
constexpr std::uint8_t kSamplesLevels = 1;  // varint deltas of height levels, NaN escaped
constexpr std::int64_t kLatticeLimit = std::int64_t{1} << 24;
constexpr std::uint64_t kLatticeLinkMinBytes = 12;

// The lattice index of x (quantum q, a power of two), when x is exactly one in range.
bool lattice_index(float x, float q, std::int64_t& k) {
  const double d = static_cast<double>(x) / static_cast<double>(q);
  if (!(std::fabs(d) < static_cast<double>(kLatticeLimit))) return false;
  k = static_cast<std::int64_t>(std::llround(d));
  return static_cast<float>(static_cast<double>(k) * static_cast<double>(q)) == x;
}

float lattice_value(std::int64_t k, float q) {
  return static_cast<float>(static_cast<double>(k) * static_cast<double>(q));
}

// The links on the lattice: per link varint config, varint start_poly minus the previous
// link's, zig-zag land_poly minus start_poly, 3 zig-zag start minus the previous start, 3
// land_a minus start, 3 land_b minus land_a (lattice indices). False when a point is off it.
bool encode_lattice_links(const std::vector<jump::JumpLink>& links, float q, Writer& w) {
  std::array<std::int64_t, 3> prev{};
  std::uint32_t prev_poly = 0;
  for (const jump::JumpLink& l : links) {
    std::array<std::int64_t, 9> k{};
    const std::array<float, 9> xs{l.start.x,  l.start.y,  l.start.z,  l.land_a.x, l.land_a.y,
                                  l.land_a.z, l.land_b.x, l.land_b.y, l.land_b.z};
    for (std::size_t i = 0; i < 9; ++i) {
      if (!lattice_index(xs[i], q, k[i])) return false;
    }
    if (l.start_poly < prev_poly) return false;
    w.varint(l.config);
    w.varint(l.start_poly - prev_poly);
    w.svarint(static_cast<std::int64_t>(l.land_poly) - static_cast<std::int64_t>(l.start_poly));
    for (std::size_t i = 0; i < 3; ++i) w.svarint(k[i] - prev[i]);
    for (std::size_t i = 0; i < 3; ++i) w.svarint(k[3 + i] - k[i]);
    for (std::size_t i = 0; i < 3; ++i) w.svarint(k[6 + i] - k[3 + i]);
    prev = {k[0], k[1], k[2]};
    prev_poly = l.start_poly;
  }
  return true;
}

bool decode_lattice_links(Reader& r, std::uint32_t count, float q,
                          std::vector<jump::JumpLink>& links) {
  links.resize(count);
  std::array<std::int64_t, 3> prev{};
  std::uint32_t prev_poly = 0;
  for (jump::JumpLink& l : links) {
    std::uint64_t config = 0;
    std::uint64_t start = 0;
    std::int64_t land = 0;
    std::array<std::int64_t, 9> d{};
    if (!(r.varint(config) && r.varint(start) && r.svarint(land))) return false;
    for (std::int64_t& x : d) {
      if (!r.svarint(x)) return false;
    }
    if (config > 0xFFFFU || start > 0xFFFFFFFFU - prev_poly) return false;
    const std::int64_t start_poly = std::int64_t{prev_poly} + static_cast<std::int64_t>(start);
    const std::int64_t land_poly = start_poly + land;
    if (land_poly < 0 || land_poly > 0xFFFFFFFFLL) return false;
    std::array<std::int64_t, 9> k{};
    for (std::size_t i = 0; i < 3; ++i) {
      // note: every partial sum is checked, so no overflow however the deltas are chosen
      if (std::llabs(d[i]) >= 2 * kLatticeLimit || std::llabs(d[3 + i]) >= 2 * kLatticeLimit ||
          std::llabs(d[6 + i]) >= 2 * kLatticeLimit)
        return false;
      k[i] = prev[i] + d[i];
      k[3 + i] = k[i] + d[3 + i];
      k[6 + i] = k[3 + i] + d[6 + i];
    }
    for (const std::int64_t x : k) {
      if (std::llabs(x) >= kLatticeLimit) return false;
    }
    l.config = static_cast<std::uint16_t>(config);
    l.start_poly = static_cast<std::uint32_t>(start_poly);
    l.land_poly = static_cast<std::uint32_t>(land_poly);
    l.start = {lattice_value(k[0], q), lattice_value(k[1], q), lattice_value(k[2], q)};
    l.land_a = {lattice_value(k[3], q), lattice_value(k[4], q), lattice_value(k[5], q)};
    l.land_b = {lattice_value(k[6], q), lattice_value(k[7], q), lattice_value(k[8], q)};
    prev = {k[0], k[1], k[2]};
    prev_poly = l.start_poly;
  }
  return r.remaining() == 0;
}

// Height samples as grid levels (GridSpec::level_to_world): per sample a varint, 0 for NaN,
// else zig-zag(level minus the previous level) + 1. False when a sample is off the levels.
bool encode_levels(const std::vector<float>& samples, const GridSpec& grid, Writer& w) {
  std::int64_t prev = 0;
  for (const float y : samples) {
    if (std::isnan(y)) {
      w.varint(0);
      continue;
    }
    const double d = (double{y} - grid.origin.y) / grid.cell_height;
    if (!(std::fabs(d) < static_cast<double>(kLatticeLimit))) return false;
    const auto level = static_cast<std::int64_t>(std::llround(d));
    if (grid.level_to_world(static_cast<double>(level)) != y) return false;
    const std::int64_t delta = level - prev;
    w.varint(((static_cast<std::uint64_t>(delta) << 1U) ^ static_cast<std::uint64_t>(delta >> 63)) +
             1);
    prev = level;
  }
  return true;
}

bool decode_levels(Reader& r, std::uint32_t count, const GridSpec& grid, std::vector<float>& out) {
  out.resize(count);
  std::int64_t prev = 0;
  for (float& y : out) {
    std::uint64_t code = 0;
    if (!r.varint(code)) return false;
    if (code == 0) {
      y = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    const std::uint64_t u = code - 1;
    const std::int64_t delta =
        static_cast<std::int64_t>(u >> 1U) ^ -static_cast<std::int64_t>(u & 1U);
    if (std::llabs(delta) >= 2 * kLatticeLimit) return false;
    prev += delta;
    if (std::llabs(prev) >= kLatticeLimit) return false;
    y = grid.level_to_world(static_cast<double>(prev));
  }
  return r.remaining() == 0;
}

void write_block(Writer& w, const TileBlock& b, const WorldLayout& layout) {
  // the samples and the links, compact when they fit their lattice
  Writer samples;
  std::uint8_t sample_coding = kSamplesLevels;
  if (!(layout.grid.cell_height > 0.0F) || !encode_levels(b.height_samples, layout.grid, samples)) {
    sample_coding = kSamplesRaw;
    samples = Writer();
    for (const float x : b.height_samples) samples.f32(x);
  }
  Writer links;
  std::uint8_t link_coding = kLinksLattice;
  if (layout.link_quantum == 0.0F || !encode_lattice_links(b.links, layout.link_quantum, links)) {
    link_coding = kLinksRaw;
    links = Writer();
    for (const jump::JumpLink& l : b.links) {
      links.vec3(l.start);
      links.vec3(l.land_a);
      links.vec3(l.land_b);
      links.u16(l.config);
      links.u32(l.start_poly);
      links.u32(l.land_poly);
    }
  }
  w.u32(b.tile);
  w.u32(static_cast<std::uint32_t>(b.vertices.size()));
  w.u32(b.polygon_count());
  w.u32(static_cast<std::uint32_t>(b.poly_vertices.size()));
  w.u32(static_cast<std::uint32_t>(b.height_samples.size()));
  w.u32(static_cast<std::uint32_t>(b.foreign_vertex_ids.size()));
  w.u32(static_cast<std::uint32_t>(b.links.size()));
  w.u8(sample_coding);
  w.u8(link_coding);
  w.u32(static_cast<std::uint32_t>(samples.bytes().size()));
  w.u32(static_cast<std::uint32_t>(links.bytes().size()));
  if (layout.ledges) w.u32(static_cast<std::uint32_t>(b.ledges.size()));
  for (const Vec3& v : b.vertices) w.vec3(v);
  for (std::size_t p = 1; p < b.poly_first.size(); ++p) w.u32(b.poly_first[p]);
  for (const std::uint32_t v : b.poly_vertices) w.u32(v);
  for (const std::uint32_t n : b.poly_neighbors) w.u32(n);
  for (const std::uint16_t r : b.poly_region) w.u16(r);
  for (const std::uint8_t a : b.poly_area) w.u8(a);
  for (const std::uint16_t f : b.poly_flags) w.u16(f);
  for (const AABB& box : b.poly_bounds) {
    w.vec3(box.min);
    w.vec3(box.max);
  }
  if (layout.height_patches) {
    for (const mesh::HeightPatch& h : b.height_patches) {
      w.i32(h.x0);
      w.i32(h.z0);
      w.u16(h.width);
      w.u16(h.depth);
      w.u32(h.first);
    }
  }
  w.append(samples.bytes());
  for (const std::uint32_t id : b.foreign_vertex_ids) w.u32(id);
  for (const Vec3& v : b.foreign_vertices) w.vec3(v);
  w.append(links.bytes());
  for (const ledge::LedgeLink& l : b.ledges) {
    w.u8(static_cast<std::uint8_t>(l.kind));
    w.u32(l.source_poly);
    w.u32(l.dest_poly);
    w.vec3(l.source_a);
    w.vec3(l.source_b);
    w.vec3(l.dest_a);
    w.vec3(l.dest_b);
    w.f32(l.cost);
  }
  for (const std::uint32_t i : b.island) w.u32(i);
  for (const std::uint32_t i : b.link_island) w.u32(i);
  for (const std::uint32_t c : b.reach_component) w.u32(c);
}

template <class T, class F>
bool read_n(Reader& r, std::uint64_t n, std::vector<T>& out, F&& one) {
  out.resize(n);
  for (T& v : out) {
    if (!one(r, v)) return false;
  }
  return true;
}

Result<TileBlock> decode_block_bytes(std::span<const std::byte> bytes, const WorldLayout& layout,
                                     std::uint32_t tile, std::string_view source);

// Decodes the block of tile `tile` (its table checksum `expected_checksum`) from `bytes`.
Result<TileBlock> decode_block(std::span<const std::byte> bytes, const WorldLayout& layout,
                               std::uint32_t tile, std::uint64_t expected_checksum,
                               std::string_view source) {
  const std::string where = "tile " + std::to_string(tile) + ": ";
  if (checksum(bytes) != expected_checksum)
    return corrupt(source, where + "block checksum mismatch (damaged block)");
  return decode_block_bytes(bytes, layout, tile, source);
}

// Decodes a block's bytes whose checksum the caller has checked.
Result<TileBlock> decode_block_bytes(std::span<const std::byte> bytes, const WorldLayout& layout,
                                     std::uint32_t tile, std::string_view source) {
  const std::string where = "tile " + std::to_string(tile) + ": ";
  Reader r(bytes);
  TileBlock b;
  std::uint32_t v = 0;
  std::uint32_t p = 0;
  std::uint32_t k = 0;
  std::uint32_t s = 0;
  std::uint32_t f = 0;
  std::uint32_t l = 0;
  std::uint8_t sample_coding = 0;
  std::uint8_t link_coding = 0;
  std::uint32_t sample_bytes = 0;
  std::uint32_t link_bytes = 0;
  if (!(r.u32(b.tile) && r.u32(v) && r.u32(p) && r.u32(k) && r.u32(s) && r.u32(f) && r.u32(l) &&
        r.u8(sample_coding) && r.u8(link_coding) && r.u32(sample_bytes) && r.u32(link_bytes)))
    return corrupt(source, where + "block header truncated");
  std::uint32_t e = 0;
  if (layout.ledges && !r.u32(e)) return corrupt(source, where + "block header truncated");
  if (b.tile != tile)
    return corrupt(source, where + "the block says it is tile " + std::to_string(b.tile));
  if (sample_coding > kSamplesLevels || link_coding > kLinksLattice ||
      (link_coding == kLinksLattice && layout.link_quantum == 0.0F))
    return corrupt(source, where + "unknown sample or link coding");
  if (sample_coding == kSamplesRaw ? sample_bytes != std::uint64_t{s} * 4 : sample_bytes < s)
    return corrupt(source, where + std::to_string(s) + " samples in " +
                               std::to_string(sample_bytes) + " bytes");
  if (link_coding == kLinksRaw ? link_bytes != std::uint64_t{l} * kLinkBytes
                               : l > link_bytes / kLatticeLinkMinBytes)
    return corrupt(
        source, where + std::to_string(l) + " links in " + std::to_string(link_bytes) + " bytes");
  const std::uint64_t need =
      v * kVertexBytes + p * kPolyBytes + (layout.height_patches ? p * kPatchBytes : 0) +
      (layout.reach_components != 0 ? std::uint64_t{p} * 4 : 0) + k * kCornerBytes +
      std::uint64_t{sample_bytes} + f * kForeignBytes + std::uint64_t{link_bytes} + e * kLedgeBytes;
  if (need != r.remaining())
    return corrupt(source, where + "counts (" + std::to_string(v) + " vertices, " +
                               std::to_string(p) + " polygons, " + std::to_string(k) +
                               " corners, " + std::to_string(s) + " samples, " + std::to_string(l) +
                               " links, " + std::to_string(e) + " ledge links) need " +
                               std::to_string(need) + " bytes, the block has " +
                               std::to_string(r.remaining()));
  const auto vec3 = [](Reader& rr, Vec3& x) { return rr.vec3(x); };
  const auto u32 = [](Reader& rr, std::uint32_t& x) { return rr.u32(x); };
  bool ok = read_n(r, v, b.vertices, vec3);
  b.poly_first.assign(1, 0);
  for (std::uint32_t i = 0; ok && i < p; ++i) {
    std::uint32_t x = 0;
    ok = r.u32(x);
    b.poly_first.push_back(x);
  }
  ok = ok && read_n(r, k, b.poly_vertices, u32) && read_n(r, k, b.poly_neighbors, u32) &&
       read_n(r, p, b.poly_region, [](Reader& rr, std::uint16_t& x) { return rr.u16(x); }) &&
       read_n(r, p, b.poly_area, [](Reader& rr, std::uint8_t& x) { return rr.u8(x); }) &&
       read_n(r, p, b.poly_flags, [](Reader& rr, std::uint16_t& x) { return rr.u16(x); }) &&
       read_n(r, p, b.poly_bounds,
              [](Reader& rr, AABB& x) { return rr.vec3(x.min) && rr.vec3(x.max); });
  if (ok && layout.height_patches) {
    ok = read_n(r, p, b.height_patches, [](Reader& rr, mesh::HeightPatch& h) {
      return rr.i32(h.x0) && rr.i32(h.z0) && rr.u16(h.width) && rr.u16(h.depth) && rr.u32(h.first);
    });
  }
  Reader samples(std::span<const std::byte>{});
  ok = ok && r.sub(samples, sample_bytes);
  if (ok && sample_coding == kSamplesRaw) {
    ok = read_n(samples, s, b.height_samples, [](Reader& rr, float& x) { return rr.f32(x); });
  } else if (ok) {
    ok = decode_levels(samples, s, layout.grid, b.height_samples);
  }
  ok = ok && read_n(r, f, b.foreign_vertex_ids, u32) && read_n(r, f, b.foreign_vertices, vec3);
  Reader links(std::span<const std::byte>{});
  ok = ok && r.sub(links, link_bytes);
  if (ok && link_coding == kLinksRaw) {
    ok = read_n(links, l, b.links, [](Reader& rr, jump::JumpLink& x) {
      return rr.vec3(x.start) && rr.vec3(x.land_a) && rr.vec3(x.land_b) && rr.u16(x.config) &&
             rr.u32(x.start_poly) && rr.u32(x.land_poly);
    });
  } else if (ok) {
    ok = decode_lattice_links(links, l, layout.link_quantum, b.links);
  }
  ok = ok && read_n(r, e, b.ledges, [](Reader& rr, ledge::LedgeLink& x) {
         std::uint8_t kind = 0;
         if (!(rr.u8(kind) && kind < ledge::kLedgeKindCount)) return false;
         x.kind = static_cast<ledge::LedgeKind>(kind);
         return rr.u32(x.source_poly) && rr.u32(x.dest_poly) && rr.vec3(x.source_a) &&
                rr.vec3(x.source_b) && rr.vec3(x.dest_a) && rr.vec3(x.dest_b) && rr.f32(x.cost);
       });
  ok = ok && read_n(r, p, b.island, u32) && read_n(r, p, b.link_island, u32) &&
       read_n(r, layout.reach_components != 0 ? p : 0, b.reach_component, u32);
  if (!ok || r.remaining() != 0) return corrupt(source, where + "block truncated or malformed");
  if (Status valid = validate(b, layout); !valid.ok())
    return corrupt(source, valid.error().message);
  return b;
}

struct Header {
  std::uint32_t version = 0;
  WorldLayout layout;
  std::vector<PackTileSource::Entry> table;
  std::uint64_t file_bytes = 0;
  std::uint64_t header_bytes = 0;
};

// The first 24 bytes: magic, version, file size, header size.
Result<Header> decode_prefix(std::span<const std::byte> data, std::string_view source) {
  Reader r(data);
  std::uint32_t magic = 0;
  Header h;
  if (!(r.u32(magic) && r.u32(h.version) && r.u64(h.file_bytes) && r.u64(h.header_bytes)))
    return corrupt(source, "truncated: " + std::to_string(data.size()) +
                               " bytes, shorter than the 24-byte prefix of a tile pack");
  if (magic != kMagic) return corrupt(source, "not a tile pack (wrong magic)");
  if (h.version == 0) return corrupt(source, "format version 0");
  if (h.version > kTilePackVersion)
    return make_error(ErrorCode::UnsupportedVersion,
                      std::string(source) + ": tile pack format version " +
                          std::to_string(h.version) + " is newer than this reader's " +
                          std::to_string(kTilePackVersion));
  if (h.header_bytes < kPrefixBytes + 8 || h.header_bytes > h.file_bytes)
    return corrupt(source, "header size " + std::to_string(h.header_bytes) +
                               " out of range (file size " + std::to_string(h.file_bytes) + ")");
  return h;
}

// The whole header: `data` holds at least its header_bytes.
Result<Header> decode_header(std::span<const std::byte> data, std::string_view source) {
  LEAPNAV_TRY_ASSIGN(Header h, decode_prefix(data, source));
  if (data.size() < h.header_bytes)
    return corrupt(source, "truncated: " + std::to_string(data.size()) +
                               " bytes, the header needs " + std::to_string(h.header_bytes));
  const auto header = data.first(h.header_bytes);
  Reader tail(header.subspan(h.header_bytes - 8));
  std::uint64_t sum = 0;
  (void)tail.u64(sum);
  if (checksum(header.first(h.header_bytes - 8)) != sum)
    return corrupt(source, "header checksum mismatch (damaged header)");
  Reader r(header.subspan(kPrefixBytes, h.header_bytes - kPrefixBytes - 8));
  WorldLayout& L = h.layout;
  std::uint32_t length = 0;
  std::string json;
  if (!(r.u32(length) && r.text(json, length))) return corrupt(source, "header truncated");
  auto config = io::parse_config_json(json, "configuration");
  if (!config.ok()) return corrupt(source, "header: " + config.error().message);
  L.config = std::move(config).value();
  std::uint8_t flags = 0;
  std::uint32_t configs = 0;
  if (!(r.vec3(L.grid.origin) && r.f32(L.grid.cell_size) && r.f32(L.grid.cell_height) &&
        r.i32(L.grid.width) && r.i32(L.grid.depth) && r.i32(L.grid.height) && r.i32(L.tile_size) &&
        r.i32(L.tiles_x) && r.i32(L.tiles_z) && r.u8(flags) && r.u32(configs)))
    return corrupt(source, "header truncated");
  // note: version 1 (no ledge links) is version 2 without the ledge flag and its fields
  if (h.version < kFirstLedgeVersion && (flags & kFlagLedges) != 0)
    return corrupt(source, "unknown header flags " + std::to_string(flags) +
                               " (ledge links in a version " + std::to_string(h.version) +
                               " pack)");
  if ((flags & ~(kFlagPatches | kFlagLinks | kFlagLedges)) != 0)
    return corrupt(source, "unknown header flags " + std::to_string(flags));
  L.height_patches = (flags & kFlagPatches) != 0;
  L.links = (flags & kFlagLinks) != 0;
  L.ledges = (flags & kFlagLedges) != 0;
  if (configs > r.remaining() / 12)
    return corrupt(source, "header truncated (link configurations)");
  if (!read_n(r, configs, L.link_configs,
              [](Reader& rr, jump::JumpConfig& c) {
                return rr.f32(c.height) && rr.f32(c.distance) && rr.f32(c.max_fall);
              }) ||
      !r.f32(L.link_quantum) || !r.u64(L.link_config_bits) ||
      (L.ledges && !r.u8(L.ledge_kind_bits)) || !r.u32(L.reach_components))
    return corrupt(source, "header truncated");
  if (L.reach_components > kMaxReachComponents)
    return corrupt(source, "header: " + std::to_string(L.reach_components) +
                               " reach components (at most " + std::to_string(kMaxReachComponents) +
                               ")");
  const std::uint64_t reach_words = std::uint64_t{L.reach_components} * L.reach_words();
  if (reach_words > r.remaining() / 8) return corrupt(source, "header truncated (reach table)");
  if (!read_n(r, reach_words, L.reach, [](Reader& rr, std::uint64_t& x) { return rr.u64(x); }))
    return corrupt(source, "header truncated (reach table)");
  std::uint32_t tiles = 0;
  if (!r.u32(tiles)) return corrupt(source, "header truncated");
  if (tiles != static_cast<std::uint64_t>(std::max(L.tiles_x, 0)) *
                   static_cast<std::uint64_t>(std::max(L.tiles_z, 0)))
    return corrupt(source, std::to_string(tiles) + " tiles in a " + std::to_string(L.tiles_x) +
                               " x " + std::to_string(L.tiles_z) + " tile grid");
  const std::uint64_t need =
      3 * (std::uint64_t{tiles} + 1) * 4 + std::uint64_t{tiles} * kEntryBytes;
  if (need != r.remaining())
    return corrupt(source, "header: " + std::to_string(tiles) + " tiles need " +
                               std::to_string(need) + " bytes of tables, it has " +
                               std::to_string(r.remaining()));
  const auto u32 = [](Reader& rr, std::uint32_t& x) { return rr.u32(x); };
  (void)read_n(r, std::uint64_t{tiles} + 1, L.tile_poly_first, u32);
  (void)read_n(r, std::uint64_t{tiles} + 1, L.tile_vertex_first, u32);
  (void)read_n(r, std::uint64_t{tiles} + 1, L.tile_sample_first, u32);
  (void)read_n(r, tiles, h.table, [](Reader& rr, PackTileSource::Entry& e) {
    return rr.u64(e.offset) && rr.u64(e.size) && rr.u64(e.checksum);
  });
  if (Status valid = validate(L); !valid.ok())
    return corrupt(source, "header: " + valid.error().message);
  for (std::uint32_t t = 0; t < tiles; ++t) {
    const PackTileSource::Entry& e = h.table[t];
    if (e.offset < h.header_bytes || e.offset > h.file_bytes || e.size > h.file_bytes - e.offset)
      return corrupt(source, "tile " + std::to_string(t) + "'s block (offset " +
                                 std::to_string(e.offset) + ", " + std::to_string(e.size) +
                                 " bytes) lies outside the file's blocks");
  }
  return h;
}

}  // namespace

std::vector<std::byte> encode_tile_pack(const TileBlocks& blocks) {
  const WorldLayout& L = blocks.layout;
  Writer w;
  w.u32(kMagic);
  w.u32(kTilePackVersion);
  w.u64(0);  // file size, patched below
  w.u64(0);  // header size, patched below
  const std::string json = io::config_to_json(L.config);
  w.u32(static_cast<std::uint32_t>(json.size()));
  for (const char c : json) w.u8(static_cast<std::uint8_t>(c));
  w.vec3(L.grid.origin);
  w.f32(L.grid.cell_size);
  w.f32(L.grid.cell_height);
  w.i32(L.grid.width);
  w.i32(L.grid.depth);
  w.i32(L.grid.height);
  w.i32(L.tile_size);
  w.i32(L.tiles_x);
  w.i32(L.tiles_z);
  w.u8(static_cast<std::uint8_t>((L.height_patches ? kFlagPatches : 0) |
                                 (L.links ? kFlagLinks : 0) | (L.ledges ? kFlagLedges : 0)));
  w.u32(static_cast<std::uint32_t>(L.link_configs.size()));
  for (const jump::JumpConfig& c : L.link_configs) {
    w.f32(c.height);
    w.f32(c.distance);
    w.f32(c.max_fall);
  }
  w.f32(L.link_quantum);
  w.u64(L.link_config_bits);
  if (L.ledges) w.u8(L.ledge_kind_bits);
  w.u32(L.reach_components);
  for (const std::uint64_t x : L.reach) w.u64(x);
  const std::uint32_t tiles = L.tile_count();
  w.u32(tiles);
  for (const auto* first : {&L.tile_poly_first, &L.tile_vertex_first, &L.tile_sample_first}) {
    for (const std::uint32_t x : *first) w.u32(x);
  }
  const std::size_t table_at = w.bytes().size();
  for (std::uint32_t t = 0; t < tiles; ++t) {
    w.u64(0);
    w.u64(0);
    w.u64(0);
  }
  const std::size_t header_bytes = w.bytes().size() + 8;
  // blocks after the header; the table is filled in as they are written
  Writer body;
  std::vector<PackTileSource::Entry> table(tiles);
  for (std::uint32_t t = 0; t < tiles; ++t) {
    const std::size_t at = body.bytes().size();
    write_block(body, blocks.blocks[t], L);
    const std::size_t size = body.bytes().size() - at;
    table[t] = {header_bytes + at, size,
                checksum(std::span<const std::byte>(body.bytes()).subspan(at, size))};
  }
  for (std::uint32_t t = 0; t < tiles; ++t) {
    w.patch_u64(table_at + std::size_t{t} * kEntryBytes, table[t].offset);
    w.patch_u64(table_at + std::size_t{t} * kEntryBytes + 8, table[t].size);
    w.patch_u64(table_at + std::size_t{t} * kEntryBytes + 16, table[t].checksum);
  }
  w.patch_u64(8, header_bytes + body.bytes().size());
  w.patch_u64(16, header_bytes);
  w.u64(checksum(w.bytes()));
  std::vector<std::byte> out = std::move(w.bytes());
  out.insert(out.end(), body.bytes().begin(), body.bytes().end());
  return out;
}

std::vector<std::byte> encode_tile_block(const TileBlock& block, const WorldLayout& layout) {
  Writer w;
  write_block(w, block, layout);
  return std::move(w.bytes());
}

Result<TileBlock> decode_tile_block(std::span<const std::byte> bytes, const WorldLayout& layout,
                                    std::uint32_t tile, std::string_view source) {
  if (tile >= layout.tile_count() || layout.tile_poly_first.size() != layout.tile_count() + 1U ||
      layout.tile_vertex_first.size() != layout.tile_count() + 1U ||
      layout.tile_sample_first.size() != layout.tile_count() + 1U)
    return make_error(ErrorCode::InvalidArgument,
                      std::string(source) + ": tile " + std::to_string(tile) +
                          " is not one of the layout's " + std::to_string(layout.tile_count()));
  return decode_block_bytes(bytes, layout, tile, source);
}

Status save_tile_pack(const TileBlocks& blocks, const std::filesystem::path& path) {
  const std::vector<std::byte> bytes = encode_tile_pack(blocks);
  return io::write_file_atomic(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Result<TileBlocks> decode_tile_pack(std::span<const std::byte> data, std::string_view source) {
  LEAPNAV_TRY_ASSIGN(Header h, decode_header(data, source));
  if (data.size() != h.file_bytes)
    return corrupt(source, (data.size() < h.file_bytes ? "truncated: " : "trailing bytes: ") +
                               std::to_string(data.size()) + " bytes, the header declares " +
                               std::to_string(h.file_bytes));
  TileBlocks out;
  out.layout = std::move(h.layout);
  out.blocks.reserve(h.table.size());
  for (std::uint32_t t = 0; t < h.table.size(); ++t) {
    const PackTileSource::Entry& e = h.table[t];
    LEAPNAV_TRY_ASSIGN(TileBlock b, decode_block(data.subspan(e.offset, e.size), out.layout, t,
                                                 e.checksum, source));
    out.blocks.push_back(std::move(b));
  }
  return out;
}

PackTileSource::PackTileSource(std::filesystem::path path, WorldLayout layout,
                               std::vector<Entry> table, std::uint64_t file_bytes)
    : path_(std::move(path)),
      name_(path_.string()),
      layout_(std::move(layout)),
      table_(std::move(table)),
      file_bytes_(file_bytes) {}

Result<std::shared_ptr<const PackTileSource>> PackTileSource::open(
    const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return make_error(ErrorCode::IoError, name + ": cannot read (" + ec.message() + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::IoError, name + ": cannot open");
  std::vector<std::byte> prefix(kPrefixBytes);
  in.read(reinterpret_cast<char*>(prefix.data()), static_cast<std::streamsize>(kPrefixBytes));
  prefix.resize(static_cast<std::size_t>(in.gcount()));
  LEAPNAV_TRY_ASSIGN(Header p, decode_prefix(prefix, name));
  if (size != p.file_bytes)
    return corrupt(name, (size < p.file_bytes ? "truncated: " : "trailing bytes: ") +
                             std::to_string(size) + " bytes, the header declares " +
                             std::to_string(p.file_bytes));
  std::vector<std::byte> header(p.header_bytes);
  std::copy(prefix.begin(), prefix.end(), header.begin());
  in.read(reinterpret_cast<char*>(header.data() + kPrefixBytes),
          static_cast<std::streamsize>(p.header_bytes - kPrefixBytes));
  if (static_cast<std::uint64_t>(in.gcount()) != p.header_bytes - kPrefixBytes)
    return make_error(ErrorCode::IoError, name + ": reading the header failed");
  LEAPNAV_TRY_ASSIGN(Header h, decode_header(header, name));
  return std::make_shared<const PackTileSource>(path, std::move(h.layout), std::move(h.table),
                                                p.file_bytes);
}

Result<TileBlock> PackTileSource::read(std::uint32_t tile) const {
  if (tile >= table_.size())
    return make_error(ErrorCode::InvalidArgument, name_ + ": tile " + std::to_string(tile) +
                                                      " out of range (" +
                                                      std::to_string(table_.size()) + " tiles)");
  const Entry& e = table_[tile];
  std::ifstream in(path_, std::ios::binary);
  if (!in) return make_error(ErrorCode::IoError, name_ + ": cannot open");
  in.seekg(static_cast<std::streamoff>(e.offset));
  std::vector<std::byte> bytes(e.size);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(e.size));
  if (static_cast<std::uint64_t>(in.gcount()) != e.size)
    return corrupt(name_, "tile " + std::to_string(tile) + ": truncated: its block at offset " +
                              std::to_string(e.offset) + " needs " + std::to_string(e.size) +
                              " bytes, the file ends first");
  return decode_block(bytes, layout_, tile, e.checksum, name_);
}

std::uint64_t PackTileSource::memory_bytes() const {
  return sizeof(PackTileSource) + name_.size() + layout_.memory_bytes() +
         std::uint64_t{table_.size()} * sizeof(Entry);
}

std::uint64_t PackTileSource::block_file_bytes(std::uint32_t tile) const {
  return tile < table_.size() ? table_[tile].size : 0;
}

}  // namespace leapnav::stream
