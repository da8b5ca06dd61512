// The .lnav navmesh file: a little-endian chunked binary format with a magic, a version, the
// declared file size and a trailing 64-bit ContentHasher checksum. The reader treats the file as
// untrusted: every size, count, index and value is checked before it is used (never allocating more
// than the file's own size justifies), and the result must pass mesh::validate(NavMesh).
//
// Layout (format version 1):
//   offset 0   "LNAV"                          magic, 4 bytes
//   offset 4   u32 version                     kNavmeshFormatVersion
//   offset 8   u64 file size                   total bytes, checksum included
//   offset 16  chunks: u32 tag, u64 payload size, payload
//   ...        chunk "END " with size 0        marks the end of the chunks
//   last 8     u64 checksum                    ContentHasher::add_bytes over every byte before it
// Tags are four ASCII characters stored in order ("CONF" is the bytes 'C' 'O' 'N' 'F'). As in PNG,
// a tag starting with an upper-case letter is critical: a reader that does not know it must refuse
// the file (UnsupportedVersion); a tag starting with a lower-case letter is optional and skipped
// by readers that do not know it. Every chunk appears at most once, in any order. Version 1 chunks,
// all required:
//   "CONF" BuildConfig: u32 name length, name bytes, f32 cell_size, cell_height, agent height,
//          radius, max_climb, max_slope_deg, min_region_area, merge_region_area, max_edge_len,
//          max_edge_error, i32 max_verts_per_poly, f32 detail_sample_dist, detail_max_error
//   "GRID" GridSpec: f32 origin x y z, cell_size, cell_height, i32 width, depth, height
//   "VERT" u64 V, V x (f32 x, y, z)
//   "POLY" u64 F (0, or P + 1 for P polygons), u64 K, F x u32 poly_first, K x u32 vertices,
//          K x u32 neighbors, P x u16 region, P x u8 area, P x u16 flags, P x 6 f32 bounds
//   "HGHT" u64 H (0 or P), u64 S, H x (i32 x0, i32 z0, u16 width, u16 depth, u32 first),
//          S x f32 samples (NaN allowed)
//          (or, in its place, "HGTC" below; a file has exactly one of the two)
//   "SPAN" u64 C (0, or grid columns + 1), u64 N, C x u32 column_first, N x u16 y, N x u32 poly
// Compact height detail, critical, written by default in place of "HGHT" (same format version; a
// reader that predates it refuses the file as UnsupportedVersion, naming the chunk):
//   "HGTC" (written when smaller than "HGHT") u64 H, u64 S, f32 base_y, f32 step (the grid's origin
//   y and cell height), u64 PB,
//          u64 EB, then PB bytes of patches, ceil(S / 4) bytes of 2-bit codes, EB escape bytes.
//          Patch k: zig-zag varints x0 and z0 minus patch k-1's (0 for k = 0), varints width and
//          depth, zig-zag varint first minus the cursor. A patch whose first equals the cursor and
//          that has samples owns the next width x depth samples (cursor += width x depth); the
//          others share samples already counted; the owned blocks cover all S samples in order.
//          Samples are integer levels l (value f32(f64(base_y) + l x f64(step)), exactly
//          GridSpec::level_to_world) coded in each owned block in row order against a
//          prediction: LOCO-I's median edge detector over the left a, upper b and upper-left c
//          levels of the block when all three exist, else a, else b, else the previous level of
//          the chunk (0 at the start). Code of sample s (bits 2(s mod 4) of byte s / 4): 0 for
//          residual 0, 1 for +1, 2 for -1, 3 for an escape: the next varint e of the escape
//          bytes is 0 for NaN, 1 for raw f32 bits (4 bytes follow; a sample off the level
//          lattice), else residual unzigzag(e - 2). |level| < 2^40. Lossless: every sample loads
//          with the bits it was saved with (any NaN loads as the quiet NaN). A voxel floor is
//          mostly residual 0 or +-1: terrain:25 tiled stores 15.3 M samples in about 0.3 byte
//          each instead of 4 (bench/RESULTS.md, "Runtime size, query time and memory of tiled
//          worlds").
// Optional chunks (version 1), written only for a file that carries a jump link set, both or
// neither:
//   "jcfg" u64 C (C <= 65535), C x (f32 height, distance, max_fall)      jump::JumpLinkSet::configs
//   "jlnk" u64 L (L < 2^32), L x (f32 start x y z, land_a x y z, land_b x y z, u16 config,
//          u32 start_poly, u32 land_poly), sorted by (start_poly, land_poly, config); a link's
//          position is its id, so the reader refuses unsorted links instead of re-sorting them.
//          The CSR group arrays are rebuilt on load (jump::index_links); stats are not stored.
//   "jlkq" a lattice link set (jump::JumpLinkSet::quantum != 0, link_compact.hpp), instead of
//          "jcfg" + "jlnk": u64 C, C x (f32 height, distance, max_fall), u8 e (quantum 2^-e,
//          e <= 16), u64 L, u64 G, then G groups (runs of equal start_poly, land_poly, config in
//          the same order as "jlnk"), each varint start_poly minus the previous group's,
//          varint land_poly, varint config, varint n (>= 1), then n links of 9 zig-zag varints in
//          quanta: start minus the previous link's start (x y z), land_a minus start, land_b
//          minus land_a. Varints are LEB128 (7 bits a byte, low first); every lattice index
//          lies in (-2^24, 2^24), so k * 2^-e is exact in float and the loaded floats equal the
//          saved ones. A reader that predates it skips the chunk (walk-only, as above).
//   "jlkr" the same set with runs of translated links, instead of "jlkq" (the writer emits
//          whichever of the two is smaller; a reader takes either, one link set per file):
//          header as "jlkq", then G groups, each the same four header varints (n = links in the
//          group) followed by items until n links are read. An item: varint code = (m - 1) << 3
//          | same_start << 2 | has_shape << 1 | repeat (m links, 1..64); if has_shape, varint r
//          >= 1: the item r items back in this group gives the predicted shape (land_a - start,
//          land_b - land_a; else 0); unless same_start (start equal to the previous item's
//          start) 3 zig-zag varints start minus the previous item's start; 6 zig-zag varints
//          the shape minus the predicted one; if m > 1 and not repeat, 3 zig-zag varints the
//          translation t (else the previous run's t in the chunk, initially 0). The item's links
//          are its base link plus i t (every point), i = 0..m-1, each index within the lattice.
// Optional chunks for ledge links (ledgelinks/), same format version:
//   "lagt" f32 agent max_jump_up, max_drop; written only when either differs from its default
//          (absent: the defaults)
//   "ldge" u64 L, L x (u8 kind, u32 source_poly, u32 dest_poly, f32 source_a x y z, source_b,
//          dest_a, dest_b, f32 cost), sorted as ledge::sort_links leaves them; written for a file
//          built with ledge links or ladders. A reader that predates it plans without them.
// Optional chunk (version 1), written only when agent.crouch_height != 0 or agent.shape is not
// the cylinder:
//   "agnt" f32 crouch_height, u8 shape (0 cylinder, 1 box)              AgentConfig beside CONF
//          (a reader that skips it plans the same paths: crouch polygons carry their flag in POLY)
// note: the link chunks are optional on purpose. The navmesh chunks alone describe a complete,
// valid walkable surface and links only add movement on top of it, so a reader that predates
// links (and skips them) still plans correct, walk-only paths and can render or export the mesh;
// a critical tag would make every such tool refuse the whole file. The cost is that such a
// reader drops the links without saying so. A reader that knows the chunks never drops them: a
// damaged link chunk fails the whole file (load_navmesh included), load_navmesh refuses a file
// with links unless told to drop them, and load_nav_file reports whether links are present. Should
// links ever change what the navmesh means on its own, they need a critical chunk instead. A
// payload's layout never changes within one format version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/io/file_io.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::io {

/// The format version this code writes and the newest it reads.
inline constexpr std::uint32_t kNavmeshFormatVersion = 1;

/// A chunk tag from its four characters, as stored: tag("CONF").
[[nodiscard]] constexpr std::uint32_t navmesh_chunk_tag(std::string_view four) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(four[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(four[1])) << 8U |
         static_cast<std::uint32_t>(static_cast<unsigned char>(four[2])) << 16U |
         static_cast<std::uint32_t>(static_cast<unsigned char>(four[3])) << 24U;
}

/// What the navmesh-only readers do with a file that carries jump links.
enum class LinkPolicy : std::uint8_t {
  Refuse,  ///< an InvalidArgument error, so that links are never lost without a word
  Drop,    ///< check the link chunks, then drop them (for tools that only walk or draw the mesh)
};

/// How a .lnav file stores the height detail.
enum class HeightEncoding : std::uint8_t {
  Compact,  ///< chunk "HGTC" (lossless, about 0.3 byte a sample), when the patches allow it
  Raw,      ///< chunk "HGHT" (4 bytes a sample), what files before "HGTC" hold
};

/// The navmesh as .lnav bytes. The mesh should pass mesh::validate (save_navmesh checks). A
/// configuration name longer than 4096 bytes is cut to its first 4096 bytes. The heights go into
/// "HGTC" unless `heights` is Raw, the patches do not own their samples in order, or "HGTC" would
/// not be smaller (a handful of samples): then into "HGHT".
[[nodiscard]] std::vector<std::byte> encode_navmesh(
    const mesh::NavMesh& navmesh, HeightEncoding heights = HeightEncoding::Compact);

/// Decodes .lnav bytes; `source` names them in messages. Errors (message "source: ..."):
/// CorruptFile (truncated, wrong magic, size or checksum mismatch, malformed or duplicate or
/// missing chunk, counts that do not match their payload, an inconsistent or invalid navmesh),
/// UnsupportedVersion (a newer format version, or an unknown critical chunk), IndexOutOfRange (an
/// index that refers to nothing), NonFinite (a NaN or infinite coordinate). Jump link chunks,
/// when present, are checked as by decode_nav_file; then InvalidArgument ("the file carries jump
/// links") unless `links` is LinkPolicy::Drop, which drops them. Never asserts, never allocates
/// more than a small multiple of data.size(), except that an "HGTC" chunk (compressed heights)
/// decodes to at most 4 samples per byte of its 2-bit code section (16 bytes, plus 9 bytes of
/// scratch per sample of its largest patch); a terrain file's chunk expands about 12 times.
[[nodiscard]] Result<mesh::NavMesh> decode_navmesh(std::span<const std::byte> data,
                                                   std::string_view source = "navmesh",
                                                   LinkPolicy links = LinkPolicy::Refuse);

/// Validates and writes the navmesh to `path` (through a temporary file renamed into place).
/// Internal when the mesh fails mesh::validate, IoError when the file cannot be written.
[[nodiscard]] Status save_navmesh(const mesh::NavMesh& navmesh, const std::filesystem::path& path);

/// Reads and decodes a .lnav file: IoError when it cannot be read, MemoryLimit when it is larger
/// than max_bytes (file_io.hpp), else decode_navmesh's errors. A file that carries jump links is
/// refused unless `links` is LinkPolicy::Drop (its link chunks are then checked and dropped): use
/// load_nav_file to keep them.
[[nodiscard]] Result<mesh::NavMesh> load_navmesh(
    const std::filesystem::path& path, LinkPolicy links = LinkPolicy::Refuse,
    std::uint64_t max_bytes = default_max_file_bytes());

/// The contents of a .lnav file: a navmesh and, when the file carries one, its jump link set.
struct NavFile {
  mesh::NavMesh navmesh;
  /// Links over navmesh's polygons (jump::validate(*links, navmesh) holds). Loaded sets have
  /// zero stats (they are not stored) and the same jump::content_hash as the saved set.
  std::optional<jump::JumpLinkSet> links;
  /// Ledge and ladder links (ledgelinks/), when the file was built with them (ledge::validate
  /// holds).
  std::optional<ledge::LedgeLinkSet> ledges{};
};

/// The file as .lnav bytes; without links, the same bytes as encode_navmesh(file.navmesh). The
/// navmesh and links should pass their validate (save_nav_file checks).
[[nodiscard]] std::vector<std::byte> encode_nav_file(
    const NavFile& file, HeightEncoding heights = HeightEncoding::Compact);

/// Decodes .lnav bytes with or without jump links; `source` names them in messages. Errors as
/// decode_navmesh, and for the link chunks: CorruptFile (one of "jcfg" / "jlnk" without the
/// other, "jlkq" or "jlkr" beside them or each other, a run longer than its group or than 64
/// links, a shape taken from a missing item, a lattice index out of range, a truncated varint,
/// counts that do not
/// match the payload, more than 65535 configurations, an invalid configuration, a link landing in
/// its start polygon, links out of order), NonFinite (a NaN or infinite configuration value or link
/// point), IndexOutOfRange (a link's polygon or configuration that does not exist). Never asserts,
/// never allocates more than a small multiple of data.size() (plus the polygon-indexed group
/// offsets of the links; "jlkr" declares at most 64 links per 7 bytes of its payload; and the
/// "HGTC" expansion described at decode_navmesh).
[[nodiscard]] Result<NavFile> decode_nav_file(std::span<const std::byte> data,
                                              std::string_view source = "navmesh");

/// Bytes a link set adds to a .lnav file (its chunks with their headers).
[[nodiscard]] std::uint64_t jump_link_file_bytes(const jump::JumpLinkSet& links);

/// Validates (mesh::validate, and jump::validate when links are present) and writes the file
/// to `path` through a temporary file renamed into place. Internal when either fails validation
/// or there are more than 65535 jump configurations; IoError when the file cannot be written.
[[nodiscard]] Status save_nav_file(const NavFile& file, const std::filesystem::path& path);

/// The sizes of a saved .lnav file.
struct SavedNavFile {
  std::uint64_t file_bytes = 0;       ///< the whole file
  std::uint64_t jump_link_bytes = 0;  ///< jump_link_file_bytes(*file.links); 0 without links
  std::uint64_t checksum = 0;         ///< the trailing checksum written (the file's last 8 bytes)
};

/// save_nav_file, also returning the sizes it wrote (the link set is encoded once, so the size
/// of its chunks costs no second encoding).
[[nodiscard]] Result<SavedNavFile> save_nav_file_sized(const NavFile& file,
                                                       const std::filesystem::path& path);

/// Reads and decodes a .lnav file: IoError when it cannot be read, MemoryLimit when it is larger
/// than max_bytes (file_io.hpp), else decode_nav_file's errors.
[[nodiscard]] Result<NavFile> load_nav_file(const std::filesystem::path& path,
                                            std::uint64_t max_bytes = default_max_file_bytes());

}  // namespace leapnav::io
