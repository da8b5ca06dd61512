// The tile pack file (tile_pack.hpp): writer, whole-file decoder and the streaming source that
// reads the header once and one block per load. Every count is checked against the bytes that
// must hold it before a vector is sized; the header and each block are checksummed.

#include "leapnav/streaming/tile_pack.hpp"

#include <bit>
#include <fstream>
#include <limits>
#include <utility>

#include "leapnav/core/hash.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/file_io.hpp"

namespace leapnav::stream {

namespace {

constexpr std::uint32_t kMagic = 0x50544E4CU;  // "LNTP" as stored
constexpr std::uint64_t kPrefixBytes = 24;     // magic, version, file size, header size
constexpr std::uint64_t kEntryBytes = 24;
constexpr std::uint8_t kFlagPatches = 1;
constexpr std::uint8_t kFlagLinks = 2;
// per-element bytes of a block's arrays
constexpr std::uint64_t kVertexBytes = 12;
constexpr std::uint64_t kPolyBytes = 4 + 2 + 1 + 2 + 24 + 4 + 4;  // first, region, area, flags,
                                                                  // bounds, islands
constexpr std::uint64_t kPatchBytes = 16;
constexpr std::uint64_t kCornerBytes = 8;
constexpr std::uint64_t kForeignBytes = 16;
constexpr std::uint64_t kLinkBytes = 46;

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<std::byte>(v)); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void i32(std::int32_t v) { put(static_cast<std::uint32_t>(v), 4); }
  void f32(float v) { put(std::bit_cast<std::uint32_t>(v), 4); }
  void vec3(Vec3 v) {
    f32(v.x);
    f32(v.y);
    f32(v.z);
  }
  void patch_u64(std::size_t at, std::uint64_t v) {
    for (std::size_t i = 0; i < 8; ++i)
      out_[at + i] = static_cast<std::byte>((v >> (8U * i)) & 0xFFU);
  }
  std::vector<std::byte>& bytes() { return out_; }

 private:
  void put(std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      out_.push_back(static_cast<std::byte>((v >> (8U * i)) & 0xFFU));
  }
  std::vector<std::byte> out_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> data) : data_(data) {}
  [[nodiscard]] std::size_t remaining() const { return data_.size() - pos_; }
  bool u8(std::uint8_t& v) { return get(v); }
  bool u16(std::uint16_t& v) { return get(v); }
  bool u32(std::uint32_t& v) { return get(v); }
  bool u64(std::uint64_t& v) { return get(v); }
  bool i32(std::int32_t& v) {
    std::uint32_t u = 0;
    if (!get(u)) return false;
    v = static_cast<std::int32_t>(u);
    return true;
  }
  bool f32(float& v) {
    std::uint32_t u = 0;
    if (!get(u)) return false;
    v = std::bit_cast<float>(u);
    return true;
  }
  bool vec3(Vec3& v) { return f32(v.x) && f32(v.y) && f32(v.z); }
  bool text(std::string& s, std::size_t n) {
    if (n > remaining()) return false;
    s.assign(reinterpret_cast<const char*>(data_.data() + pos_), n);
    pos_ += n;
    return true;
  }

 private:
  template <class T>
  bool get(T& v) {
    if (remaining() < sizeof(T)) return false;
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      acc |= static_cast<std::uint64_t>(std::to_integer<unsigned>(data_[pos_ + i])) << (8U * i);
    v = static_cast<T>(acc);
    pos_ += sizeof(T);
    return true;
  }
  std::span<const std::byte> data_;
  std::size_t pos_ = 0;
};

std::uint64_t checksum(std::span<const std::byte> bytes) {
  ContentHasher h;
  h.add_bytes(bytes.data(), bytes.size());
  return h.digest();
}

Error corrupt(std::string_view source, const std::string& what) {
  return make_error(ErrorCode::CorruptFile, std::string(source) + ": " + what);
}

void write_block(Writer& w, const TileBlock& b, bool patches) {
  w.u32(b.tile);
  w.u32(static_cast<std::uint32_t>(b.vertices.size()));
  w.u32(b.polygon_count());
  w.u32(static_cast<std::uint32_t>(b.poly_vertices.size()));
  w.u32(static_cast<std::uint32_t>(b.height_samples.size()));
  w.u32(static_cast<std::uint32_t>(b.foreign_vertex_ids.size()));
  w.u32(static_cast<std::uint32_t>(b.links.size()));
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
  if (patches) {
    for (const mesh::HeightPatch& h : b.height_patches) {
      w.i32(h.x0);
      w.i32(h.z0);
      w.u16(h.width);
      w.u16(h.depth);
      w.u32(h.first);
    }
  }
  for (const float s : b.height_samples) w.f32(s);
  for (const std::uint32_t id : b.foreign_vertex_ids) w.u32(id);
  for (const Vec3& v : b.foreign_vertices) w.vec3(v);
  for (const jump::JumpLink& l : b.links) {
    w.vec3(l.start);
    w.vec3(l.land_a);
    w.vec3(l.land_b);
    w.u16(l.config);
    w.u32(l.start_poly);
    w.u32(l.land_poly);
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

// Decodes the block of tile `tile` (its table entry `entry`) from `bytes`.
Result<TileBlock> decode_block(std::span<const std::byte> bytes, const WorldLayout& layout,
                               std::uint32_t tile, std::uint64_t expected_checksum,
                               std::string_view source) {
  const std::string where = "tile " + std::to_string(tile) + ": ";
  if (checksum(bytes) != expected_checksum)
    return corrupt(source, where + "block checksum mismatch (damaged block)");
  Reader r(bytes);
  TileBlock b;
  std::uint32_t v = 0;
  std::uint32_t p = 0;
  std::uint32_t k = 0;
  std::uint32_t s = 0;
  std::uint32_t f = 0;
  std::uint32_t l = 0;
  if (!(r.u32(b.tile) && r.u32(v) && r.u32(p) && r.u32(k) && r.u32(s) && r.u32(f) && r.u32(l)))
    return corrupt(source, where + "block header truncated");
  if (b.tile != tile)
    return corrupt(source, where + "the block says it is tile " + std::to_string(b.tile));
  const std::uint64_t need =
      v * kVertexBytes + p * kPolyBytes + (layout.height_patches ? p * kPatchBytes : 0) +
      (layout.reach_components != 0 ? std::uint64_t{p} * 4 : 0) + k * kCornerBytes +
      std::uint64_t{s} * 4 + f * kForeignBytes + l * kLinkBytes;
  if (need != r.remaining())
    return corrupt(source, where + "counts (" + std::to_string(v) + " vertices, " +
                               std::to_string(p) + " polygons, " + std::to_string(k) +
                               " corners, " + std::to_string(s) + " samples, " + std::to_string(l) +
                               " links) need " + std::to_string(need) + " bytes, the block has " +
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
  ok = ok && read_n(r, s, b.height_samples, [](Reader& rr, float& x) { return rr.f32(x); }) &&
       read_n(r, f, b.foreign_vertex_ids, u32) && read_n(r, f, b.foreign_vertices, vec3) &&
       read_n(r, l, b.links,
              [](Reader& rr, jump::JumpLink& x) {
                return rr.vec3(x.start) && rr.vec3(x.land_a) && rr.vec3(x.land_b) &&
                       rr.u16(x.config) && rr.u32(x.start_poly) && rr.u32(x.land_poly);
              }) &&
       read_n(r, p, b.island, u32) && read_n(r, p, b.link_island, u32) &&
       read_n(r, layout.reach_components != 0 ? p : 0, b.reach_component, u32);
  if (!ok || r.remaining() != 0) return corrupt(source, where + "block truncated");
  if (Status valid = validate(b, layout); !valid.ok())
    return corrupt(source, valid.error().message);
  return b;
}

struct Header {
  WorldLayout layout;
  std::vector<PackTileSource::Entry> table;
  std::uint64_t file_bytes = 0;
  std::uint64_t header_bytes = 0;
};

// The first 24 bytes: magic, version, file size, header size.
Result<Header> decode_prefix(std::span<const std::byte> data, std::string_view source) {
  Reader r(data);
  std::uint32_t magic = 0;
  std::uint32_t version = 0;
  Header h;
  if (!(r.u32(magic) && r.u32(version) && r.u64(h.file_bytes) && r.u64(h.header_bytes)))
    return corrupt(source, "truncated: " + std::to_string(data.size()) +
                               " bytes, shorter than the 24-byte prefix of a tile pack");
  if (magic != kMagic) return corrupt(source, "not a tile pack (wrong magic)");
  if (version == 0) return corrupt(source, "format version 0");
  if (version > kTilePackVersion)
    return make_error(ErrorCode::UnsupportedVersion,
                      std::string(source) + ": tile pack format version " +
                          std::to_string(version) + " is newer than this reader's " +
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
  if ((flags & ~(kFlagPatches | kFlagLinks)) != 0)
    return corrupt(source, "unknown header flags " + std::to_string(flags));
  L.height_patches = (flags & kFlagPatches) != 0;
  L.links = (flags & kFlagLinks) != 0;
  if (configs > r.remaining() / 12)
    return corrupt(source, "header truncated (link configurations)");
  if (!read_n(r, configs, L.link_configs,
              [](Reader& rr, jump::JumpConfig& c) {
                return rr.f32(c.height) && rr.f32(c.distance) && rr.f32(c.max_fall);
              }) ||
      !r.f32(L.link_quantum) || !r.u64(L.link_config_bits) || !r.u32(L.reach_components))
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
                                 (L.links ? kFlagLinks : 0)));
  w.u32(static_cast<std::uint32_t>(L.link_configs.size()));
  for (const jump::JumpConfig& c : L.link_configs) {
    w.f32(c.height);
    w.f32(c.distance);
    w.f32(c.max_fall);
  }
  w.f32(L.link_quantum);
  w.u64(L.link_config_bits);
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
    write_block(body, blocks.blocks[t], L.height_patches);
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
