// .lnav reader and writer (layout in navmesh_file.hpp). Decoding checks, in order: header (size,
// magic, version, declared size), checksum, each chunk's framing and exact payload size (counts are
// bounded by the bytes that carry them before anything is allocated), cross-chunk consistency,
// indices and values, and finally mesh::validate; then the jump link chunks, if any: values,
// indices and order against the navmesh, CSR groups rebuilt with jump::index_links, and
// jump::validate.
#include "leapnav/io/navmesh_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "height_codec.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/detail/bytes.hpp"
#include "leapnav/io/file_io.hpp"
#include "leapnav/jumplinks/link_compact.hpp"

namespace leapnav::io {
namespace {

using mesh::HeightPatch;
using mesh::kNoPoly;
using mesh::NavMesh;

constexpr std::array<char, 4> kMagic = {'L', 'N', 'A', 'V'};
constexpr std::size_t kHeaderSize = 16;
constexpr std::size_t kChunkHeaderSize = 12;
constexpr std::size_t kChecksumSize = 8;
constexpr std::size_t kMinFileSize = kHeaderSize + kChunkHeaderSize + kChecksumSize;

constexpr std::uint32_t kTagConfig = navmesh_chunk_tag("CONF");
constexpr std::uint32_t kTagGrid = navmesh_chunk_tag("GRID");
constexpr std::uint32_t kTagVertices = navmesh_chunk_tag("VERT");
constexpr std::uint32_t kTagPolygons = navmesh_chunk_tag("POLY");
constexpr std::uint32_t kTagHeights = navmesh_chunk_tag("HGHT");
/// The compact height detail (height_codec.hpp), in place of "HGHT".
constexpr std::uint32_t kTagHeightsCompact = navmesh_chunk_tag("HGTC");
/// The slot of "HGHT" in kRequired, which "HGTC" fills as well.
constexpr std::size_t kHeightsSlot = 4;
constexpr std::uint32_t kTagSpans = navmesh_chunk_tag("SPAN");
constexpr std::uint32_t kTagEnd = navmesh_chunk_tag("END ");
constexpr std::uint32_t kTagJumpConfigs = navmesh_chunk_tag("jcfg");
constexpr std::uint32_t kTagJumpLinks = navmesh_chunk_tag("jlnk");
constexpr std::uint32_t kTagLatticeLinks = navmesh_chunk_tag("jlkq");
constexpr std::uint32_t kTagLatticeRuns = navmesh_chunk_tag("jlkr");
constexpr std::uint32_t kTagAgentLedge = navmesh_chunk_tag("lagt");
constexpr std::uint32_t kTagLedgeLinks = navmesh_chunk_tag("ldge");
/// Bytes of one stored ledge link: u8 kind, u32 source and destination polygon, 4 points, cost.
constexpr std::size_t kLedgeLinkBytes = 1 + 4 + 4 + 12 * 4 + 4;
constexpr std::uint32_t kTagAgent = navmesh_chunk_tag("agnt");
/// Tiled builds only: NavMesh::tile_poly_first (u64 count, then count u32). Lower case, so
/// readers that predate it skip it.
constexpr std::uint32_t kTagTiles = navmesh_chunk_tag("tile");
constexpr std::array<std::uint32_t, 6> kRequired = {kTagConfig,   kTagGrid,    kTagVertices,
                                                    kTagPolygons, kTagHeights, kTagSpans};
constexpr std::array<std::uint32_t, 4> kOptional = {kTagJumpConfigs, kTagJumpLinks,
                                                    kTagLatticeLinks, kTagLatticeRuns};

/// Most jump configurations (links store the index in 16 bits).
constexpr std::uint64_t kMaxJumpConfigs = 65535;
/// Bytes per stored jump configuration and link.
constexpr std::uint64_t kJumpConfigBytes = 12;
constexpr std::uint64_t kJumpLinkBytes = 46;
/// Lattice links: the largest quantum exponent, the fewest bytes of a group header and a link,
/// and the lattice range (exact floats).
constexpr std::uint8_t kMaxQuantumShift = 16;
constexpr std::uint64_t kLatticeGroupMinBytes = 4;
constexpr std::uint64_t kLatticeLinkMinBytes = 9;
constexpr std::int64_t kLatticeLimit = std::int64_t{1} << 24;
/// Lattice runs ("jlkr"): the most links one run holds, and the fewest bytes of a run.
constexpr std::uint64_t kMaxRunLinks = 64;
constexpr std::uint64_t kLatticeRunMinBytes = 7;
/// How many items back a "jlkr" item may take its land segment shape from (the writer's choice;
/// the reader accepts any earlier item of the group).
constexpr std::size_t kShapeLookBack = 16;

/// Bytes of v as a zig-zag LEB128 varint.
std::size_t svarint_bytes(std::int64_t v) {
  std::uint64_t u = (static_cast<std::uint64_t>(v) << 1U) ^ static_cast<std::uint64_t>(v >> 63);
  std::size_t n = 1;
  for (; u >= 0x80U; u >>= 7U) ++n;
  return n;
}

/// Longest configuration name accepted [units: bytes].
constexpr std::uint32_t kMaxNameLength = 4096;

std::string tag_name(std::uint32_t tag) {
  std::string out(4, ' ');
  for (std::size_t i = 0; i < 4; ++i) {
    const auto c = static_cast<char>((tag >> (8U * i)) & 0xFFU);
    out[i] = (c >= 0x20 && c < 0x7F) ? c : '?';
  }
  return out;
}

/// The tag's four bytes in file order as hex: "43 4f 4e 46".
std::string tag_bytes(std::uint32_t tag) {
  std::string out;
  for (unsigned i = 0; i < 4; ++i) {
    if (i > 0) out += ' ';
    out += hash_to_hex((tag >> (8U * i)) & 0xFFU).substr(14);
  }
  return out;
}

bool printable_tag(std::uint32_t tag) {
  for (unsigned i = 0; i < 4; ++i) {
    const auto c = (tag >> (8U * i)) & 0xFFU;
    if (c < 0x20 || c >= 0x7F) return false;
  }
  return true;
}

bool critical_tag(std::uint32_t tag) {
  const auto first = tag & 0xFFU;
  return !(first >= 'a' && first <= 'z');
}

// ---------------------------------------------------------------------------------------------
// writing

using detail::ByteWriter;

/// Starts a chunk: its tag and a u64 payload size that end_chunk fills in; returns where the
/// size stands.
std::size_t begin_chunk(ByteWriter& w, std::uint32_t tag) {
  w.u32(tag);
  const std::size_t at = w.bytes().size();
  w.u64(0);
  return at;
}

void end_chunk(ByteWriter& w, std::size_t at) {
  w.patch_u64(at, w.bytes().size() - at - 8);
}

// ---------------------------------------------------------------------------------------------
// reading

using detail::ByteReader;

/// Reads `count` values with `read` into `out` (count already checked against the payload).
template <class T, class Read>
bool read_array(ByteReader& r, std::uint64_t count, std::vector<T>& out, Read read) {
  out.resize(static_cast<std::size_t>(count));
  for (T& v : out)
    if (!read(r, v)) return false;
  return true;
}

class Decoder {
 public:
  explicit Decoder(std::string_view source) : source_(source) {}

  Result<NavFile> run(std::span<const std::byte> data) {
    LEAPNAV_TRY(check_header(data));
    LEAPNAV_TRY(read_chunks(data));
    LEAPNAV_TRY(check_contents());
    if (Status valid = mesh::validate(nav_); !valid.ok())
      return corrupt("invalid navmesh: " + valid.error().message);
    LEAPNAV_TRY(check_links());
    NavFile file;
    file.navmesh = std::move(nav_);
    if (seen_optional_[0] || seen_optional_[2] || seen_optional_[3]) file.links = std::move(links_);
    if (seen_ledge_[1]) {
      if (Status valid = ledge::validate(ledges_, file.navmesh); !valid.ok())
        return corrupt("invalid ledge links: " + valid.error().message);
      file.ledges = std::move(ledges_);
    }
    return file;
  }

 private:
  Error error(ErrorCode code, const std::string& message) const {
    return make_error(code, std::string(source_) + ": " + message);
  }
  Error corrupt(const std::string& message) const { return error(ErrorCode::CorruptFile, message); }
  Error in_chunk(std::uint32_t tag, const std::string& message) const {
    return corrupt("chunk '" + tag_name(tag) + "': " + message);
  }

  Status check_header(std::span<const std::byte> data) const {
    if (data.size() >= 4 && std::memcmp(data.data(), kMagic.data(), 4) != 0)
      return corrupt("not a leapnav navmesh file (bad magic)");
    if (data.size() < kMinFileSize)
      return corrupt("truncated (" + std::to_string(data.size()) +
                     " bytes; a navmesh file has at least " + std::to_string(kMinFileSize) + ")");
    ByteReader r(data.subspan(4));
    std::uint32_t version = 0;
    std::uint64_t declared = 0;
    (void)r.u32(version);
    (void)r.u64(declared);
    if (version > kNavmeshFormatVersion)
      return error(ErrorCode::UnsupportedVersion, "format version " + std::to_string(version) +
                                                      " is newer than this reader's (" +
                                                      std::to_string(kNavmeshFormatVersion) + ")");
    if (version == 0) return corrupt("format version 0 is invalid");
    if (declared > data.size())
      return corrupt("truncated (" + std::to_string(data.size()) + " of " +
                     std::to_string(declared) + " bytes)");
    if (declared < data.size())
      return corrupt(std::to_string(data.size() - declared) + " bytes after the declared end (" +
                     std::to_string(declared) + " bytes)");
    ContentHasher hasher;
    hasher.add_bytes(data.data(), data.size() - kChecksumSize);
    ByteReader tail(data.subspan(data.size() - kChecksumSize));
    std::uint64_t stored = 0;
    (void)tail.u64(stored);
    if (stored != hasher.digest())
      return corrupt("checksum mismatch (stored " + hash_to_hex(stored) + ", computed " +
                     hash_to_hex(hasher.digest()) + "): the file is damaged");
    return {};
  }

  Status read_chunks(std::span<const std::byte> data) {
    ByteReader r(data.subspan(kHeaderSize, data.size() - kHeaderSize - kChecksumSize));
    for (;;) {
      const std::size_t offset = kHeaderSize + r.position();
      std::uint32_t tag = 0;
      std::uint64_t size = 0;
      if (!r.u32(tag) || !r.u64(size))
        return corrupt("chunk header at offset " + std::to_string(offset) +
                       " runs past the end (no \"END \" chunk)");
      if (!printable_tag(tag))
        return corrupt("invalid chunk tag (bytes " + tag_bytes(tag) + ") at offset " +
                       std::to_string(offset));
      if (size > r.remaining())
        return in_chunk(tag, "at offset " + std::to_string(offset) + " claims " +
                                 std::to_string(size) + " bytes, only " +
                                 std::to_string(r.remaining()) + " remain");
      if (tag == kTagEnd) {
        if (size != 0 || r.remaining() != 0)
          return corrupt("\"END \" chunk at offset " + std::to_string(offset) +
                         " is not empty or not last");
        break;
      }
      ByteReader payload(r.take(static_cast<std::size_t>(size)));
      if (tag == kTagAgentLedge || tag == kTagLedgeLinks) {
        const std::size_t slot = tag == kTagAgentLedge ? 0 : 1;
        if (seen_ledge_[slot]) return in_chunk(tag, "appears twice");
        seen_ledge_[slot] = true;
        LEAPNAV_TRY(slot == 0 ? read_agent_ledge(payload) : read_ledge_links(payload));
        if (payload.remaining() != 0)
          return in_chunk(tag, std::to_string(payload.remaining()) + " unexpected trailing bytes");
        continue;
      }
      if (tag == kTagTiles) {
        LEAPNAV_TRY(read_tiles(payload));
        continue;
      }
      if (tag == kTagAgent) {
        LEAPNAV_TRY(read_agent(payload));
        continue;
      }
      if (tag == kTagHeightsCompact || (tag == kTagHeights && seen_[kHeightsSlot])) {
        if (seen_[kHeightsSlot]) {
          if ((tag == kTagHeightsCompact) == seen_compact_heights_)
            return in_chunk(tag, "appears twice");
          return in_chunk(tag, std::string("beside chunk '") +
                                   (tag == kTagHeights ? "HGTC" : "HGHT") + "' (one height chunk)");
        }
        seen_[kHeightsSlot] = true;
        seen_compact_heights_ = true;
        std::string message;
        if (!detail::decode_compact_heights(payload.take(payload.remaining()), nav_.height_patches,
                                            nav_.height_samples, message))
          return in_chunk(tag, message);
        continue;
      }
      const auto optional = std::find(kOptional.begin(), kOptional.end(), tag);
      if (optional != kOptional.end()) {
        const auto slot = static_cast<std::size_t>(optional - kOptional.begin());
        if (seen_optional_[slot]) return in_chunk(tag, "appears twice");
        seen_optional_[slot] = true;
        if (tag == kTagJumpConfigs) {
          LEAPNAV_TRY(read_jump_configs(payload, kTagJumpConfigs));
        } else if (tag == kTagJumpLinks) {
          LEAPNAV_TRY(read_jump_links(payload));
        } else {
          LEAPNAV_TRY(read_lattice_links(payload, tag));
        }
        if (payload.remaining() != 0)
          return in_chunk(tag, std::to_string(payload.remaining()) + " unexpected trailing bytes");
        continue;
      }
      const auto known = std::find(kRequired.begin(), kRequired.end(), tag);
      if (known == kRequired.end()) {
        if (critical_tag(tag))
          return error(ErrorCode::UnsupportedVersion,
                       "chunk '" + tag_name(tag) + "' at offset " + std::to_string(offset) +
                           " is required but unknown to this reader (format version " +
                           std::to_string(kNavmeshFormatVersion) + ")");
        continue;
      }
      const auto slot = static_cast<std::size_t>(known - kRequired.begin());
      if (seen_[slot]) return in_chunk(tag, "appears twice");
      seen_[slot] = true;
      LEAPNAV_TRY(read_chunk(tag, payload));
      if (payload.remaining() != 0)
        return in_chunk(tag, std::to_string(payload.remaining()) + " unexpected trailing bytes");
    }
    for (std::size_t i = 0; i < kRequired.size(); ++i)
      if (!seen_[i]) return corrupt("missing chunk '" + tag_name(kRequired[i]) + "'");
    if (agent_) {
      nav_.config.agent.crouch_height = agent_->crouch_height;
      nav_.config.agent.shape = agent_->shape;
      if (Status valid = validate(nav_.config); !valid.ok())
        return in_chunk(kTagAgent, valid.error().message);
    }
    if (seen_optional_[0] != seen_optional_[1])
      return corrupt(std::string("chunk '") + (seen_optional_[0] ? "jcfg" : "jlnk") +
                     "' without chunk '" + (seen_optional_[0] ? "jlnk" : "jcfg") + "'");
    if (seen_optional_[2] && seen_optional_[0])
      return corrupt("chunk 'jlkq' beside chunks 'jcfg' and 'jlnk' (one link set per file)");
    if (seen_optional_[3] && (seen_optional_[0] || seen_optional_[2]))
      return corrupt(std::string("chunk 'jlkr' beside chunk") +
                     (seen_optional_[0] ? "s 'jcfg' and 'jlnk'" : " 'jlkq'") +
                     " (one link set per file)");
    return {};
  }

  Status read_chunk(std::uint32_t tag, ByteReader& r) {
    if (tag == kTagConfig) return read_config(r);
    if (tag == kTagGrid) return read_grid(r);
    if (tag == kTagVertices) return read_vertices(r);
    if (tag == kTagPolygons) return read_polygons(r);
    if (tag == kTagHeights) return read_heights(r);
    return read_spans(r);
  }

  // per-tile polygon ranges; mesh::validate checks them against the polygons
  Status read_tiles(ByteReader& r) {
    if (seen_tiles_) return in_chunk(kTagTiles, "appears twice");
    seen_tiles_ = true;
    std::uint64_t count = 0;
    if (!r.u64(count)) return in_chunk(kTagTiles, "too short");
    if (count < 2 || count > r.remaining() / 4 || r.remaining() != count * 4)
      return in_chunk(kTagTiles, std::to_string(count) + " tile entries in a payload of " +
                                     std::to_string(r.remaining()) + " bytes");
    if (!read_array(r, count, nav_.tile_poly_first,
                    [](ByteReader& rr, std::uint32_t& v) { return rr.u32(v); }))
      return in_chunk(kTagTiles, "too short");
    return {};
  }

  // the agent options beside CONF's fields, applied once every chunk is read
  Status read_agent(ByteReader& r) {
    if (agent_) return in_chunk(kTagAgent, "appears twice");
    float crouch_height = 0.0F;
    std::uint8_t shape = 0;
    if (!(r.f32(crouch_height) && r.u8(shape))) return in_chunk(kTagAgent, "too short");
    if (r.remaining() != 0)
      return in_chunk(kTagAgent, std::to_string(r.remaining()) + " unexpected trailing bytes");
    if (shape > static_cast<std::uint8_t>(AgentShape::Box))
      return in_chunk(kTagAgent, "unknown agent shape " + std::to_string(shape));
    agent_ = AgentExtras{crouch_height, static_cast<AgentShape>(shape)};
    return {};
  }

  Status read_config(ByteReader& r) {
    BuildConfig& c = nav_.config;
    std::uint32_t name_length = 0;
    if (!r.u32(name_length)) return in_chunk(kTagConfig, "too short");
    if (name_length > kMaxNameLength || name_length > r.remaining())
      return in_chunk(kTagConfig, "name length " + std::to_string(name_length) + " is invalid");
    const bool ok = r.text(c.name, name_length) && r.f32(c.voxel.cell_size) &&
                    r.f32(c.voxel.cell_height) && r.f32(c.agent.height) && r.f32(c.agent.radius) &&
                    r.f32(c.agent.max_climb) && r.f32(c.agent.max_slope_deg) &&
                    r.f32(c.region.min_region_area) && r.f32(c.region.merge_region_area) &&
                    r.f32(c.poly.max_edge_len) && r.f32(c.poly.max_edge_error) &&
                    r.i32(c.poly.max_verts_per_poly) && r.f32(c.poly.detail_sample_dist) &&
                    r.f32(c.poly.detail_max_error);
    if (!ok) return in_chunk(kTagConfig, "too short");
    if (Status valid = validate(c); !valid.ok()) return in_chunk(kTagConfig, valid.error().message);
    return {};
  }

  Status read_grid(ByteReader& r) {
    GridSpec& g = nav_.grid;
    if (!(r.vec3(g.origin) && r.f32(g.cell_size) && r.f32(g.cell_height) && r.i32(g.width) &&
          r.i32(g.depth) && r.i32(g.height)))
      return in_chunk(kTagGrid, "too short");
    if (!is_finite(g.origin)) return error(ErrorCode::NonFinite, "grid origin is not finite");
    if (!(std::isfinite(g.cell_size) && g.cell_size > 0.0F && std::isfinite(g.cell_height) &&
          g.cell_height > 0.0F))
      return in_chunk(kTagGrid, "cell sizes must be finite and positive");
    if (g.width < 0 || g.depth < 0 || g.width > kMaxGridSide || g.depth > kMaxGridSide ||
        g.height < 0 || g.height > kMaxGridHeight)
      return in_chunk(kTagGrid, "grid of " + std::to_string(g.width) + " x " +
                                    std::to_string(g.depth) + " x " + std::to_string(g.height) +
                                    " cells is out of range");
    return {};
  }

  Status read_vertices(ByteReader& r) {
    std::uint64_t count = 0;
    if (!r.u64(count)) return in_chunk(kTagVertices, "too short");
    if (count > r.remaining() / 12 || count * 12 != r.remaining())
      return in_chunk(kTagVertices, std::to_string(count) + " vertices do not fit its " +
                                        std::to_string(r.remaining()) + " bytes");
    if (!read_array(r, count, nav_.vertices, [](ByteReader& b, Vec3& v) { return b.vec3(v); }))
      return in_chunk(kTagVertices, "too short");
    return {};
  }

  Status read_polygons(ByteReader& r) {
    std::uint64_t firsts = 0;
    std::uint64_t indices = 0;
    if (!r.u64(firsts) || !r.u64(indices)) return in_chunk(kTagPolygons, "too short");
    const std::uint64_t available = r.remaining();
    const std::uint64_t polys = firsts > 0 ? firsts - 1 : 0;
    // note: both counts are bounded by the payload first, so the size sum cannot overflow.
    if (firsts > available / 4 || indices > available / 8 ||
        4 * firsts + 8 * indices + 29 * polys != available)
      return in_chunk(kTagPolygons, std::to_string(firsts) + " poly_first entries with " +
                                        std::to_string(indices) + " indices do not fit its " +
                                        std::to_string(available) + " bytes");
    const auto u32 = [](ByteReader& b, std::uint32_t& v) { return b.u32(v); };
    const bool ok = read_array(r, firsts, nav_.poly_first, u32) &&
                    read_array(r, indices, nav_.poly_vertices, u32) &&
                    read_array(r, indices, nav_.poly_neighbors, u32) &&
                    read_array(r, polys, nav_.poly_region,
                               [](ByteReader& b, std::uint16_t& v) { return b.u16(v); }) &&
                    read_array(r, polys, nav_.poly_area,
                               [](ByteReader& b, std::uint8_t& v) { return b.u8(v); }) &&
                    read_array(r, polys, nav_.poly_flags,
                               [](ByteReader& b, std::uint16_t& v) { return b.u16(v); }) &&
                    read_array(r, polys, nav_.poly_bounds, [](ByteReader& b, AABB& v) {
                      return b.vec3(v.min) && b.vec3(v.max);
                    });
    if (!ok) return in_chunk(kTagPolygons, "too short");
    return {};
  }

  Status read_heights(ByteReader& r) {
    std::uint64_t patches = 0;
    std::uint64_t samples = 0;
    if (!r.u64(patches) || !r.u64(samples)) return in_chunk(kTagHeights, "too short");
    const std::uint64_t available = r.remaining();
    if (patches > available / 16 || samples > available / 4 ||
        patches * 16 + samples * 4 != available)
      return in_chunk(kTagHeights, std::to_string(patches) + " patches and " +
                                       std::to_string(samples) + " samples do not fit its " +
                                       std::to_string(available) + " bytes");
    const bool ok = read_array(r, patches, nav_.height_patches,
                               [](ByteReader& b, HeightPatch& p) {
                                 return b.i32(p.x0) && b.i32(p.z0) && b.u16(p.width) &&
                                        b.u16(p.depth) && b.u32(p.first);
                               }) &&
                    read_array(r, samples, nav_.height_samples,
                               [](ByteReader& b, float& v) { return b.f32(v); });
    if (!ok) return in_chunk(kTagHeights, "too short");
    return {};
  }

  Status read_spans(ByteReader& r) {
    std::uint64_t columns = 0;
    std::uint64_t spans = 0;
    if (!r.u64(columns) || !r.u64(spans)) return in_chunk(kTagSpans, "too short");
    const std::uint64_t available = r.remaining();
    if (columns > available / 4 || spans > available / 6 || columns * 4 + spans * 6 != available)
      return in_chunk(kTagSpans, std::to_string(columns) + " columns and " + std::to_string(spans) +
                                     " spans do not fit its " + std::to_string(available) +
                                     " bytes");
    const bool ok = read_array(r, columns, nav_.span_column_first,
                               [](ByteReader& b, std::uint32_t& v) { return b.u32(v); }) &&
                    read_array(r, spans, nav_.span_y,
                               [](ByteReader& b, std::uint16_t& v) { return b.u16(v); }) &&
                    read_array(r, spans, nav_.span_poly,
                               [](ByteReader& b, std::uint32_t& v) { return b.u32(v); });
    if (!ok) return in_chunk(kTagSpans, "too short");
    return {};
  }

  /// Configurations: the whole "jcfg" payload, or the head of "jlkq" (then only their bytes).
  Status read_jump_configs(ByteReader& r, std::uint32_t tag) {
    std::uint64_t count = 0;
    if (!r.u64(count)) return in_chunk(tag, "too short");
    const bool whole = tag == kTagJumpConfigs;
    if (count > r.remaining() / kJumpConfigBytes ||
        (whole && count * kJumpConfigBytes != r.remaining()))
      return in_chunk(tag, std::to_string(count) + " configurations do not fit its " +
                               std::to_string(r.remaining()) + " bytes");
    if (count > kMaxJumpConfigs)
      return in_chunk(tag, std::to_string(count) + " configurations (at most " +
                               std::to_string(kMaxJumpConfigs) + ")");
    if (!read_array(r, count, links_.configs, [](ByteReader& b, jump::JumpConfig& c) {
          return b.f32(c.height) && b.f32(c.distance) && b.f32(c.max_fall);
        }))
      return in_chunk(tag, "too short");
    return {};
  }

  /// "jlkq": configurations, the lattice, then groups of links as varint deltas (layout in
  /// navmesh_file.hpp). Every count is bounded by the bytes left before anything is allocated.
  Status read_lattice_links(ByteReader& r, std::uint32_t kTag) {
    links_tag_ = kTag;
    const bool runs = kTag == kTagLatticeRuns;
    LEAPNAV_TRY(read_jump_configs(r, kTag));
    std::uint8_t shift = 0;
    std::uint64_t count = 0;
    std::uint64_t groups = 0;
    if (!r.u8(shift) || !r.u64(count) || !r.u64(groups)) return in_chunk(kTag, "too short");
    if (shift > kMaxQuantumShift)
      return in_chunk(kTag, "quantum exponent " + std::to_string(shift) + " (at most " +
                                std::to_string(kMaxQuantumShift) + ")");
    const std::uint64_t links_fit = runs ? r.remaining() / kLatticeRunMinBytes * kMaxRunLinks
                                         : r.remaining() / kLatticeLinkMinBytes;
    const std::uint64_t group_bytes =
        runs ? kLatticeGroupMinBytes + kLatticeRunMinBytes : kLatticeGroupMinBytes;
    if (count > links_fit ||
        groups > (r.remaining() - (runs ? 0 : count * kLatticeLinkMinBytes)) / group_bytes)
      return in_chunk(kTag, std::to_string(count) + " links in " + std::to_string(groups) +
                                " groups do not fit its " + std::to_string(r.remaining()) +
                                " bytes");
    if (count >= std::numeric_limits<std::uint32_t>::max())
      return in_chunk(kTag, std::to_string(count) + " links (group offsets are 32-bit)");
    const float quantum = std::ldexp(1.0F, -static_cast<int>(shift));
    links_.quantum = quantum;
    links_.links.clear();
    links_.links.reserve(static_cast<std::size_t>(count));
    std::uint64_t start_poly = 0;
    std::array<std::int64_t, 3> previous{};
    std::array<std::int64_t, 3> translation{};
    std::vector<std::array<std::int64_t, 6>> shapes;  // of the group's items so far ("jlkr")
    const auto point = [&](const std::array<std::int64_t, 3>& k, Vec3& out) {
      for (const std::int64_t v : k)
        if (v <= -kLatticeLimit || v >= kLatticeLimit) return false;
      out = {static_cast<float>(k[0]) * quantum, static_cast<float>(k[1]) * quantum,
             static_cast<float>(k[2]) * quantum};
      return true;
    };
    for (std::uint64_t g = 0; g < groups; ++g) {
      std::uint64_t poly_step = 0;
      std::uint64_t land_poly = 0;
      std::uint64_t config = 0;
      std::uint64_t group_count = 0;
      if (!r.varint(poly_step) || !r.varint(land_poly) || !r.varint(config) ||
          !r.varint(group_count))
        return in_chunk(kTag, "group " + std::to_string(g) + " is truncated");
      start_poly += poly_step;
      shapes.clear();
      if (start_poly > std::numeric_limits<std::uint32_t>::max() ||
          land_poly > std::numeric_limits<std::uint32_t>::max() ||
          config > std::numeric_limits<std::uint16_t>::max() || group_count == 0 ||
          group_count > count - links_.links.size())
        return in_chunk(kTag, "group " + std::to_string(g) + " has out-of-range fields");
      for (std::uint64_t i = 0; i < group_count;) {
        jump::JumpLink l;
        l.start_poly = static_cast<std::uint32_t>(start_poly);
        l.land_poly = static_cast<std::uint32_t>(land_poly);
        l.config = static_cast<std::uint16_t>(config);
        std::uint64_t members = 1;
        bool repeat = false;
        bool same_start = false;
        std::array<std::int64_t, 6> predicted{};  // land_a - start, land_b - land_a
        if (runs) {
          std::uint64_t code = 0;
          if (!r.varint(code))
            return in_chunk(kTag,
                            "jump link " + std::to_string(links_.links.size()) + " is truncated");
          members = (code >> 3U) + 1;
          same_start = (code & 4U) != 0;
          const bool has_reference = (code & 2U) != 0;
          repeat = (code & 1U) != 0;
          if (repeat && members < 2)
            return in_chunk(kTag, "jump link " + std::to_string(links_.links.size()) +
                                      " repeats a translation but is no run");
          if (members > kMaxRunLinks || members > group_count - i)
            return in_chunk(kTag, "run at jump link " + std::to_string(links_.links.size()) +
                                      " of " + std::to_string(members) +
                                      " links does not fit its group (at most " +
                                      std::to_string(kMaxRunLinks) + " links a run)");
          if (has_reference) {
            std::uint64_t back = 0;
            if (!r.varint(back) || back == 0 || back > shapes.size())
              return in_chunk(kTag, "jump link " + std::to_string(links_.links.size()) +
                                        " refers to a missing earlier shape of its group");
            predicted = shapes[shapes.size() - back];
          }
        }
        std::array<std::array<std::int64_t, 3>, 3> k{};
        for (std::size_t p = 0; p < 3; ++p) {
          for (std::size_t c = 0; c < 3; ++c) {
            if (p == 0 && same_start) {
              k[0][c] = previous[c];
              continue;
            }
            std::int64_t delta = 0;
            if (!r.svarint(delta) || delta <= -2 * kLatticeLimit || delta >= 2 * kLatticeLimit)
              return in_chunk(kTag, "jump link " + std::to_string(links_.links.size()) +
                                        " is truncated or out of the lattice");
            const std::int64_t base =
                p == 0 ? previous[c] : k[p - 1][c] + predicted[3 * (p - 1) + c];
            k[p][c] = base + delta;
          }
        }
        if (runs) {
          std::array<std::int64_t, 6> shape{};
          for (std::size_t c = 0; c < 3; ++c) {
            shape[c] = k[1][c] - k[0][c];
            shape[3 + c] = k[2][c] - k[1][c];
          }
          shapes.push_back(shape);
        }
        if (members > 1 && !repeat) {
          for (std::size_t c = 0; c < 3; ++c) {
            if (!r.svarint(translation[c]) || translation[c] <= -2 * kLatticeLimit ||
                translation[c] >= 2 * kLatticeLimit)
              return in_chunk(kTag, "run at jump link " + std::to_string(links_.links.size()) +
                                        " has a truncated or out-of-range translation");
          }
        }
        previous = k[0];
        for (std::uint64_t m = 0; m < members; ++m) {
          std::array<std::array<std::int64_t, 3>, 3> km = k;
          for (auto& p : km)
            for (std::size_t c = 0; c < 3; ++c)
              p[c] += static_cast<std::int64_t>(m) * translation[c];
          if (!point(km[0], l.start) || !point(km[1], l.land_a) || !point(km[2], l.land_b))
            return in_chunk(kTag, "jump link " + std::to_string(links_.links.size()) +
                                      " lies outside the lattice");
          links_.links.push_back(l);
        }
        i += members;
      }
    }
    if (links_.links.size() != count)
      return in_chunk(kTag, std::to_string(links_.links.size()) + " links in the groups, " +
                                std::to_string(count) + " declared");
    return {};
  }

  Status read_jump_links(ByteReader& r) {
    std::uint64_t count = 0;
    if (!r.u64(count)) return in_chunk(kTagJumpLinks, "too short");
    if (count > r.remaining() / kJumpLinkBytes || count * kJumpLinkBytes != r.remaining())
      return in_chunk(kTagJumpLinks, std::to_string(count) + " links do not fit its " +
                                         std::to_string(r.remaining()) + " bytes");
    if (count >= std::numeric_limits<std::uint32_t>::max())
      return in_chunk(kTagJumpLinks, std::to_string(count) + " links (group offsets are 32-bit)");
    if (!read_array(r, count, links_.links, [](ByteReader& b, jump::JumpLink& l) {
          return b.vec3(l.start) && b.vec3(l.land_a) && b.vec3(l.land_b) && b.u16(l.config) &&
                 b.u32(l.start_poly) && b.u32(l.land_poly);
        }))
      return in_chunk(kTagJumpLinks, "too short");
    return {};
  }

  Status read_agent_ledge(ByteReader& r) {
    AgentConfig& a = nav_.config.agent;
    if (!(r.f32(a.max_jump_up) && r.f32(a.max_drop))) return in_chunk(kTagAgentLedge, "too short");
    for (const float v : {a.max_jump_up, a.max_drop})
      if (!(std::isfinite(v) && v >= 0.0F && v <= 1e4F))
        return in_chunk(kTagAgentLedge, "max_jump_up and max_drop must be in 0..10000 m");
    return {};
  }

  Status read_ledge_links(ByteReader& r) {
    std::uint64_t count = 0;
    if (!r.u64(count)) return in_chunk(kTagLedgeLinks, "too short");
    if (count > r.remaining() / kLedgeLinkBytes)
      return in_chunk(kTagLedgeLinks, std::to_string(count) + " links do not fit its " +
                                          std::to_string(r.remaining()) + " bytes");
    const bool ok = read_array(r, count, ledges_.links, [](ByteReader& b, ledge::LedgeLink& l) {
      std::uint8_t kind = 0;
      const bool read = b.u8(kind) && b.u32(l.source_poly) && b.u32(l.dest_poly) &&
                        b.vec3(l.source_a) && b.vec3(l.source_b) && b.vec3(l.dest_a) &&
                        b.vec3(l.dest_b) && b.f32(l.cost);
      l.kind = static_cast<ledge::LedgeKind>(kind);
      return read && kind < ledge::kLedgeKindCount;
    });
    if (!ok) return in_chunk(kTagLedgeLinks, "too short or a link of unknown kind");
    return {};
  }

  /// The link chunks against the (valid) navmesh: values, indices and order, then the CSR
  /// groups and jump::validate.
  Status check_links() {
    if (!seen_optional_[0] && !seen_optional_[2] && !seen_optional_[3]) return {};
    for (std::size_t c = 0; c < links_.configs.size(); ++c) {
      const jump::JumpConfig& config = links_.configs[c];
      if (!std::isfinite(config.height) || !std::isfinite(config.distance) ||
          !std::isfinite(config.max_fall))
        return error(ErrorCode::NonFinite,
                     "jump configuration " + std::to_string(c) + " is not finite");
      if (Status valid = jump::validate(config); !valid.ok())
        return in_chunk(seen_optional_[0] ? kTagJumpConfigs : links_tag_,
                        "configuration " + std::to_string(c) + ": " + valid.error().message);
    }
    const std::size_t polys = nav_.polygon_count();
    const auto key = [](const jump::JumpLink& l) {
      return std::make_tuple(l.start_poly, l.land_poly, l.config);
    };
    for (std::size_t k = 0; k < links_.links.size(); ++k) {
      const jump::JumpLink& l = links_.links[k];
      const auto link = [k] { return "jump link " + std::to_string(k); };
      if (!is_finite(l.start) || !is_finite(l.land_a) || !is_finite(l.land_b))
        return error(ErrorCode::NonFinite, link() + " is not finite");
      if (l.config >= links_.configs.size())
        return error(ErrorCode::IndexOutOfRange,
                     link() + " uses configuration " + std::to_string(l.config) + " (" +
                         std::to_string(links_.configs.size()) + " configurations)");
      for (const std::uint32_t p : {l.start_poly, l.land_poly})
        if (p >= polys)
          return error(ErrorCode::IndexOutOfRange, link() + " names polygon " + std::to_string(p) +
                                                       " (" + std::to_string(polys) + " polygons)");
      if (l.start_poly == l.land_poly)
        return in_chunk(links_tag_,
                        link() + " lands in its start polygon " + std::to_string(l.start_poly));
      if (k > 0 && key(l) < key(links_.links[k - 1]))
        return in_chunk(links_tag_, link() +
                                        " is out of order (links are sorted by start polygon, land "
                                        "polygon, configuration)");
    }
    jump::index_links(links_, polys);
    if (Status valid = jump::validate(links_, nav_); !valid.ok())
      return corrupt("invalid jump links: " + valid.error().message);
    return {};
  }

  /// Cross-chunk consistency, indices and values: everything mesh::validate relies on to index
  /// safely, so that it can only fail with a message, never read out of bounds.
  Status check_contents() const {
    const NavMesh& m = nav_;
    for (std::size_t v = 0; v < m.vertices.size(); ++v)
      if (!is_finite(m.vertices[v]))
        return error(ErrorCode::NonFinite, "vertex " + std::to_string(v) + " is not finite");

    const std::size_t polys = m.polygon_count();
    const std::uint64_t indices = m.poly_vertices.size();
    if (m.poly_first.empty() ? indices != 0
                             : (m.poly_first.front() != 0 || m.poly_first.back() != indices))
      return in_chunk(kTagPolygons, "poly_first does not run from 0 to " + std::to_string(indices));
    if (polys >= kNoPoly) return in_chunk(kTagPolygons, "too many polygons");
    for (std::size_t p = 0; p < polys; ++p) {
      const std::uint32_t first = m.poly_first[p];
      const std::uint32_t end = m.poly_first[p + 1];
      if (end < first || end > indices)
        return in_chunk(kTagPolygons, "poly_first is not non-decreasing within 0.." +
                                          std::to_string(indices) + " at polygon " +
                                          std::to_string(p));
      if (end - first < 3 || end - first > kMaxVertsPerPolyLimit)
        return in_chunk(kTagPolygons, "polygon " + std::to_string(p) + " has " +
                                          std::to_string(end - first) + " vertices (allowed 3.." +
                                          std::to_string(kMaxVertsPerPolyLimit) + ")");
      for (std::uint32_t k = first; k < end; ++k) {
        if (m.poly_vertices[k] >= m.vertices.size())
          return error(ErrorCode::IndexOutOfRange,
                       "polygon " + std::to_string(p) + " uses vertex " +
                           std::to_string(m.poly_vertices[k]) + " (" +
                           std::to_string(m.vertices.size()) + " vertices)");
        if (m.poly_neighbors[k] != kNoPoly && m.poly_neighbors[k] >= polys)
          return error(ErrorCode::IndexOutOfRange, "polygon " + std::to_string(p) +
                                                       " has neighbour " +
                                                       std::to_string(m.poly_neighbors[k]) + " (" +
                                                       std::to_string(polys) + " polygons)");
      }
      const AABB& b = m.poly_bounds[p];
      if (!is_finite(b.min) || !is_finite(b.max))
        return error(ErrorCode::NonFinite,
                     "bounds of polygon " + std::to_string(p) + " are not finite");
      if (b.empty())
        return in_chunk(kTagPolygons, "bounds of polygon " + std::to_string(p) + " are empty");
    }

    if (!m.height_patches.empty() && m.height_patches.size() != polys)
      return in_chunk(kTagHeights, std::to_string(m.height_patches.size()) +
                                       " height patches for " + std::to_string(polys) +
                                       " polygons");
    for (std::size_t p = 0; p < m.height_patches.size(); ++p) {
      const HeightPatch& h = m.height_patches[p];
      if (std::uint64_t{h.first} + std::uint64_t{h.width} * h.depth > m.height_samples.size())
        return error(ErrorCode::IndexOutOfRange,
                     "height patch " + std::to_string(p) + " reads past the " +
                         std::to_string(m.height_samples.size()) + " samples");
    }
    for (std::size_t s = 0; s < m.height_samples.size(); ++s)
      if (std::isinf(m.height_samples[s]))
        return error(ErrorCode::NonFinite, "height sample " + std::to_string(s) + " is infinite");

    if (m.span_column_first.empty()) {
      if (!m.span_poly.empty()) return in_chunk(kTagSpans, "spans without columns");
    } else {
      const auto expected = static_cast<std::uint64_t>(m.grid.column_count()) + 1;
      if (m.span_column_first.size() != expected)
        return in_chunk(kTagSpans, std::to_string(m.span_column_first.size()) +
                                       " column entries for a grid of " +
                                       std::to_string(expected - 1) + " columns");
      if (m.span_column_first.front() != 0 || m.span_column_first.back() != m.span_poly.size())
        return in_chunk(
            kTagSpans, "column_first does not run from 0 to " + std::to_string(m.span_poly.size()));
      for (std::size_t c = 0; c + 1 < m.span_column_first.size(); ++c)
        if (m.span_column_first[c + 1] < m.span_column_first[c])
          return in_chunk(kTagSpans, "column_first decreases at column " + std::to_string(c));
      for (std::size_t s = 0; s < m.span_poly.size(); ++s) {
        if (m.span_poly[s] != kNoPoly && m.span_poly[s] >= polys)
          return error(ErrorCode::IndexOutOfRange, "span " + std::to_string(s) + " names polygon " +
                                                       std::to_string(m.span_poly[s]) + " (" +
                                                       std::to_string(polys) + " polygons)");
        if (m.span_y[s] > m.grid.height)
          return in_chunk(kTagSpans, "span " + std::to_string(s) + " lies above the grid");
      }
    }
    return {};
  }

  std::string_view source_;
  NavMesh nav_;
  std::array<bool, kRequired.size()> seen_{};
  bool seen_compact_heights_ = false;  ///< the heights came from "HGTC"
  bool seen_tiles_ = false;            ///< a "tile" chunk was read
  std::array<bool, kOptional.size()> seen_optional_{};
  std::array<bool, 2> seen_ledge_{};  ///< "lagt", "ldge"
  ledge::LedgeLinkSet ledges_;
  struct AgentExtras {
    float crouch_height = 0.0F;
    AgentShape shape = AgentShape::Cylinder;
  };
  std::optional<AgentExtras> agent_;
  jump::JumpLinkSet links_;
  std::uint32_t links_tag_ = kTagJumpLinks;
};

Status write_file(const std::vector<std::byte>& bytes, const std::filesystem::path& path) {
  return write_file_atomic(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Status check_savable(const NavMesh& navmesh, const std::filesystem::path& path) {
  if (Status valid = mesh::validate(navmesh); !valid.ok())
    return make_error(
        ErrorCode::Internal,
        path.string() + ": refusing to save an invalid navmesh: " + valid.error().message);
  return {};
}

/// The "jlkq" chunk of a lattice link set (jump::validate_compact holds), or with `runs` the
/// "jlkr" chunk: the same, but each group's links are items of one or more links, maximal runs
/// of exact translates (at most kMaxRunLinks links).
void encode_lattice_links(ByteWriter& w, const jump::JumpLinkSet& links, bool runs) {
  const std::size_t at = begin_chunk(w, runs ? kTagLatticeRuns : kTagLatticeLinks);
  w.u64(links.configs.size());
  for (const jump::JumpConfig& jc : links.configs) {
    w.f32(jc.height);
    w.f32(jc.distance);
    w.f32(jc.max_fall);
  }
  int exponent = 0;
  (void)std::frexp(links.quantum, &exponent);
  w.u8(static_cast<std::uint8_t>(1 - exponent));  // quantum = 2^(exponent - 1)
  using Indices = std::array<std::array<std::int64_t, 3>, 3>;
  const auto index = [&](const jump::JumpLink& l) {
    Indices k{};
    const std::array<Vec3, 3> points = {l.start, l.land_a, l.land_b};
    for (std::size_t p = 0; p < 3; ++p) {
      const std::array<float, 3> v = {points[p].x, points[p].y, points[p].z};
      for (std::size_t c = 0; c < 3; ++c)
        k[p][c] = jump::lattice_index(v[c], links.quantum).value_or(0);
    }
    return k;
  };
  const auto same_group = [](const jump::JumpLink& a, const jump::JumpLink& b) {
    return a.start_poly == b.start_poly && a.land_poly == b.land_poly && a.config == b.config;
  };
  // whether `next` is `cur` moved by t (every point)
  const auto translate_of = [](const Indices& cur, const Indices& next,
                               const std::array<std::int64_t, 3>& t) {
    for (std::size_t p = 0; p < 3; ++p)
      for (std::size_t c = 0; c < 3; ++c)
        if (next[p][c] - cur[p][c] != t[c]) return false;
    return true;
  };
  std::uint64_t groups = 0;
  for (std::size_t k = 0; k < links.links.size(); ++k)
    if (k == 0 || !same_group(links.links[k - 1], links.links[k])) ++groups;
  w.u64(links.links.size());
  w.u64(groups);
  std::uint32_t start_poly = 0;
  std::array<std::int64_t, 3> previous{};
  std::array<std::int64_t, 3> previous_translation{};
  std::vector<std::array<std::int64_t, 6>> shapes;  // of the group's items so far
  for (std::size_t k = 0; k < links.links.size();) {
    const jump::JumpLink& head = links.links[k];
    std::size_t end = k + 1;
    while (end < links.links.size() && same_group(head, links.links[end])) ++end;
    w.varint(head.start_poly - start_poly);
    start_poly = head.start_poly;
    w.varint(head.land_poly);
    w.varint(head.config);
    w.varint(end - k);
    shapes.clear();
    while (k < end) {
      const Indices base = index(links.links[k]);
      std::size_t members = 1;
      std::array<std::int64_t, 3> t{};
      if (runs && k + 1 < end) {
        const Indices next = index(links.links[k + 1]);
        for (std::size_t c = 0; c < 3; ++c) t[c] = next[0][c] - base[0][c];
        Indices cur = base;
        while (k + members < end && members < kMaxRunLinks) {
          const Indices candidate = index(links.links[k + members]);
          if (!translate_of(cur, candidate, t)) break;
          cur = candidate;
          ++members;
        }
      }
      const bool repeat = members > 1 && t == previous_translation;
      std::array<std::int64_t, 6> shape{};
      for (std::size_t c = 0; c < 3; ++c) {
        shape[c] = base[1][c] - base[0][c];
        shape[3 + c] = base[2][c] - base[1][c];
      }
      const bool same_start = runs && base[0] == previous;
      // the earlier shape of the group (at most kShapeLookBack items back) that leaves the
      // fewest residual bytes, when it beats coding the shape as it is
      const auto residual_bytes = [&](const std::array<std::int64_t, 6>& predicted) {
        std::size_t n = 0;
        for (std::size_t c = 0; c < 6; ++c) n += svarint_bytes(shape[c] - predicted[c]);
        return n;
      };
      std::size_t back = 0;
      std::array<std::int64_t, 6> predicted{};
      if (runs) {
        std::size_t best = residual_bytes(predicted);
        for (std::size_t j = 1; j <= std::min(kShapeLookBack, shapes.size()); ++j) {
          const std::size_t bytes = 1 + residual_bytes(shapes[shapes.size() - j]);
          if (bytes < best) {
            best = bytes;
            back = j;
          }
        }
        if (back != 0) predicted = shapes[shapes.size() - back];
        w.varint(((members - 1) << 3U) | (same_start ? 4U : 0U) | (back != 0 ? 2U : 0U) |
                 (repeat ? 1U : 0U));
        if (back != 0) w.varint(back);
        shapes.push_back(shape);
      }
      if (!same_start)
        for (std::size_t c = 0; c < 3; ++c) w.svarint(base[0][c] - previous[c]);
      for (std::size_t c = 0; c < 6; ++c) w.svarint(shape[c] - predicted[c]);
      if (members > 1 && !repeat)
        for (std::size_t c = 0; c < 3; ++c) w.svarint(t[c]);
      if (members > 1) previous_translation = t;
      previous = base[0];
      k += members;
    }
  }
  end_chunk(w, at);
}

/// The smaller of the two lattice chunks ("jlkr" on a tie).
void encode_lattice_best(ByteWriter& w, const jump::JumpLinkSet& links) {
  ByteWriter with_runs;
  ByteWriter plain;
  encode_lattice_links(with_runs, links, true);
  encode_lattice_links(plain, links, false);
  const std::vector<std::byte>& best =
      with_runs.bytes().size() <= plain.bytes().size() ? with_runs.bytes() : plain.bytes();
  w.bytes().insert(w.bytes().end(), best.begin(), best.end());
}

/// The "HGHT" chunk: patches and samples as they are in memory.
void write_raw_heights(ByteWriter& w, const NavMesh& m) {
  const std::size_t at = begin_chunk(w, kTagHeights);
  w.u64(m.height_patches.size());
  w.u64(m.height_samples.size());
  for (const HeightPatch& p : m.height_patches) {
    w.i32(p.x0);
    w.i32(p.z0);
    w.u16(p.width);
    w.u16(p.depth);
    w.u32(p.first);
  }
  for (const float s : m.height_samples) w.f32(s);
  end_chunk(w, at);
}

// link_bytes, when given, receives the bytes of the jump link chunks (0 without links).
std::vector<std::byte> encode(const NavMesh& m, const jump::JumpLinkSet* links,
                              const ledge::LedgeLinkSet* ledges, HeightEncoding heights,
                              std::uint64_t* link_bytes = nullptr) {
  ByteWriter w;
  w.text(std::string_view(kMagic.data(), kMagic.size()));
  w.u32(kNavmeshFormatVersion);
  w.u64(0);  // file size, patched below

  std::size_t at = begin_chunk(w, kTagConfig);
  const BuildConfig& c = m.config;
  w.u32(static_cast<std::uint32_t>(std::min<std::size_t>(c.name.size(), kMaxNameLength)));
  w.text(std::string_view(c.name).substr(0, kMaxNameLength));
  for (const float v : {c.voxel.cell_size, c.voxel.cell_height, c.agent.height, c.agent.radius,
                        c.agent.max_climb, c.agent.max_slope_deg, c.region.min_region_area,
                        c.region.merge_region_area, c.poly.max_edge_len, c.poly.max_edge_error})
    w.f32(v);
  w.i32(c.poly.max_verts_per_poly);
  w.f32(c.poly.detail_sample_dist);
  w.f32(c.poly.detail_max_error);
  end_chunk(w, at);
  // note: only for an agent that crouches or is a box, so other files stay as they were
  if (c.agent.crouch_height != 0.0F || c.agent.shape != AgentShape::Cylinder) {
    at = begin_chunk(w, kTagAgent);
    w.f32(c.agent.crouch_height);
    w.u8(static_cast<std::uint8_t>(c.agent.shape));
    end_chunk(w, at);
  }

  at = begin_chunk(w, kTagGrid);
  w.vec3(m.grid.origin);
  w.f32(m.grid.cell_size);
  w.f32(m.grid.cell_height);
  w.i32(m.grid.width);
  w.i32(m.grid.depth);
  w.i32(m.grid.height);
  end_chunk(w, at);

  at = begin_chunk(w, kTagVertices);
  w.u64(m.vertices.size());
  for (const Vec3& v : m.vertices) w.vec3(v);
  end_chunk(w, at);

  at = begin_chunk(w, kTagPolygons);
  w.u64(m.poly_first.size());
  w.u64(m.poly_vertices.size());
  for (const std::uint32_t v : m.poly_first) w.u32(v);
  for (const std::uint32_t v : m.poly_vertices) w.u32(v);
  for (const std::uint32_t v : m.poly_neighbors) w.u32(v);
  for (const std::uint16_t v : m.poly_region) w.u16(v);
  for (const std::uint8_t v : m.poly_area) w.u8(v);
  for (const std::uint16_t v : m.poly_flags) w.u16(v);
  for (const AABB& b : m.poly_bounds) {
    w.vec3(b.min);
    w.vec3(b.max);
  }
  end_chunk(w, at);

  std::optional<std::vector<std::byte>> compact;
  if (heights == HeightEncoding::Compact) compact = detail::encode_compact_heights(m);
  const std::size_t raw_bytes = 16 + 16 * m.height_patches.size() + 4 * m.height_samples.size();
  if (compact && compact->size() < raw_bytes) {
    at = begin_chunk(w, kTagHeightsCompact);
    for (const std::byte b : *compact) w.u8(std::to_integer<std::uint8_t>(b));
    end_chunk(w, at);
  } else {
    write_raw_heights(w, m);
  }

  at = begin_chunk(w, kTagSpans);
  w.u64(m.span_column_first.size());
  w.u64(m.span_poly.size());
  for (const std::uint32_t v : m.span_column_first) w.u32(v);
  for (const std::uint16_t v : m.span_y) w.u16(v);
  for (const std::uint32_t v : m.span_poly) w.u32(v);
  end_chunk(w, at);

  // note: only for tiled builds, so other files stay as they were
  if (!m.tile_poly_first.empty()) {
    at = begin_chunk(w, kTagTiles);
    w.u64(m.tile_poly_first.size());
    for (const std::uint32_t v : m.tile_poly_first) w.u32(v);
    end_chunk(w, at);
  }

  const std::size_t links_begin = w.bytes().size();
  if (links != nullptr && links->quantum != 0.0F) {
    encode_lattice_best(w, *links);
  } else if (links != nullptr) {
    at = begin_chunk(w, kTagJumpConfigs);
    w.u64(links->configs.size());
    for (const jump::JumpConfig& jc : links->configs) {
      w.f32(jc.height);
      w.f32(jc.distance);
      w.f32(jc.max_fall);
    }
    end_chunk(w, at);

    at = begin_chunk(w, kTagJumpLinks);
    w.u64(links->links.size());
    for (const jump::JumpLink& l : links->links) {
      w.vec3(l.start);
      w.vec3(l.land_a);
      w.vec3(l.land_b);
      w.u16(l.config);
      w.u32(l.start_poly);
      w.u32(l.land_poly);
    }
    end_chunk(w, at);
  }
  if (link_bytes != nullptr) *link_bytes = w.bytes().size() - links_begin;

  // note: written only when they differ from the defaults, so files of default agents keep the
  // bytes they had before these fields existed
  const AgentConfig defaults;
  if (c.agent.max_jump_up != defaults.max_jump_up || c.agent.max_drop != defaults.max_drop) {
    at = begin_chunk(w, kTagAgentLedge);
    w.f32(c.agent.max_jump_up);
    w.f32(c.agent.max_drop);
    end_chunk(w, at);
  }
  if (ledges != nullptr) {
    at = begin_chunk(w, kTagLedgeLinks);
    w.u64(ledges->links.size());
    for (const ledge::LedgeLink& l : ledges->links) {
      w.u8(static_cast<std::uint8_t>(l.kind));
      w.u32(l.source_poly);
      w.u32(l.dest_poly);
      w.vec3(l.source_a);
      w.vec3(l.source_b);
      w.vec3(l.dest_a);
      w.vec3(l.dest_b);
      w.f32(l.cost);
    }
    end_chunk(w, at);
  }

  at = begin_chunk(w, kTagEnd);
  end_chunk(w, at);
  std::vector<std::byte>& bytes = w.bytes();
  w.patch_u64(8, bytes.size() + kChecksumSize);
  ContentHasher hasher;
  hasher.add_bytes(bytes.data(), bytes.size());
  w.u64(hasher.digest());
  return std::move(w.bytes());
}

}  // namespace

std::vector<std::byte> encode_navmesh(const NavMesh& navmesh, HeightEncoding heights) {
  return encode(navmesh, nullptr, nullptr, heights);
}

std::vector<std::byte> encode_nav_file(const NavFile& file, HeightEncoding heights) {
  return encode(file.navmesh, file.links ? &*file.links : nullptr,
                file.ledges ? &*file.ledges : nullptr, heights);
}

Result<NavFile> decode_nav_file(std::span<const std::byte> data, std::string_view source) {
  return Decoder(source).run(data);
}

Result<NavMesh> decode_navmesh(std::span<const std::byte> data, std::string_view source,
                               LinkPolicy links) {
  LEAPNAV_TRY_ASSIGN(NavFile file, Decoder(source).run(data));
  if (file.links && links == LinkPolicy::Refuse) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(source) +
                          ": the file carries jump links, which a navmesh alone would drop; load "
                          "it with load_nav_file (or pass LinkPolicy::Drop)");
  }
  if (file.ledges && links == LinkPolicy::Refuse) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(source) +
                          ": the file carries ledge links, which a navmesh alone would drop; load "
                          "it with load_nav_file (or pass LinkPolicy::Drop)");
  }
  return std::move(file.navmesh);
}

Status save_navmesh(const NavMesh& navmesh, const std::filesystem::path& path) {
  LEAPNAV_TRY(check_savable(navmesh, path));
  return write_file(encode_navmesh(navmesh), path);
}

Status save_nav_file(const NavFile& file, const std::filesystem::path& path) {
  LEAPNAV_TRY(save_nav_file_sized(file, path));
  return {};
}

Result<SavedNavFile> save_nav_file_sized(const NavFile& file, const std::filesystem::path& path) {
  LEAPNAV_TRY(check_savable(file.navmesh, path));
  if (file.links) {
    if (file.links->configs.size() > kMaxJumpConfigs)
      return make_error(ErrorCode::Internal, path.string() + ": refusing to save " +
                                                 std::to_string(file.links->configs.size()) +
                                                 " jump configurations (at most " +
                                                 std::to_string(kMaxJumpConfigs) + ")");
    Status valid = file.links->quantum != 0.0F ? jump::validate_compact(*file.links, file.navmesh)
                                               : jump::validate(*file.links, file.navmesh);
    if (!valid.ok())
      return make_error(
          ErrorCode::Internal,
          path.string() + ": refusing to save invalid jump links: " + valid.error().message);
  }
  SavedNavFile saved;
  const std::vector<std::byte> bytes = encode(file.navmesh, file.links ? &*file.links : nullptr,
                                              file.ledges ? &*file.ledges : nullptr,
                                              HeightEncoding::Compact, &saved.jump_link_bytes);
  saved.file_bytes = bytes.size();
  if (bytes.size() >= 8) {
    for (std::size_t i = 0; i < 8; ++i)
      saved.checksum |= std::to_integer<std::uint64_t>(bytes[bytes.size() - 8 + i]) << (8U * i);
  }
  LEAPNAV_TRY(write_file(bytes, path));
  return saved;
}

std::uint64_t jump_link_file_bytes(const jump::JumpLinkSet& links) {
  ByteWriter w;
  if (links.quantum != 0.0F) {
    encode_lattice_best(w, links);
    return w.bytes().size();
  }
  return 2 * kChunkHeaderSize + 8 + links.configs.size() * kJumpConfigBytes + 8 +
         links.links.size() * kJumpLinkBytes;
}

Result<NavMesh> load_navmesh(const std::filesystem::path& path, LinkPolicy links,
                             std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string data, read_file(path, max_bytes));
  return decode_navmesh(std::as_bytes(std::span<const char>(data.data(), data.size())),
                        path.string(), links);
}

Result<NavFile> load_nav_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string data, read_file(path, max_bytes));
  return decode_nav_file(std::as_bytes(std::span<const char>(data.data(), data.size())),
                         path.string());
}

}  // namespace leapnav::io
