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
//   "SPAN" u64 C (0, or grid columns + 1), u64 N, C x u32 column_first, N x u16 y, N x u32 poly
// A later feature (jump links) adds its own chunk, e.g. "JUMP" (critical, with a version bump) or
// "jump" (optional); a payload's layout never changes within one format version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
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

/// The navmesh as .lnav bytes. The mesh should pass mesh::validate (save_navmesh checks). A
/// configuration name longer than 4096 bytes is cut to its first 4096 bytes.
[[nodiscard]] std::vector<std::byte> encode_navmesh(const mesh::NavMesh& navmesh);

/// Decodes .lnav bytes; `source` names them in messages. Errors (message "source: ..."):
/// CorruptFile (truncated, wrong magic, size or checksum mismatch, malformed or duplicate or
/// missing chunk, counts that do not match their payload, an inconsistent or invalid navmesh),
/// UnsupportedVersion (a newer format version, or an unknown critical chunk), IndexOutOfRange (an
/// index that refers to nothing), NonFinite (a NaN or infinite coordinate). Never asserts, never
/// allocates more than a small multiple of data.size().
[[nodiscard]] Result<mesh::NavMesh> decode_navmesh(std::span<const std::byte> data,
                                                   std::string_view source = "navmesh");

/// Validates and writes the navmesh to `path` (through a temporary file renamed into place).
/// Internal when the mesh fails mesh::validate, IoError when the file cannot be written.
[[nodiscard]] Status save_navmesh(const mesh::NavMesh& navmesh, const std::filesystem::path& path);

/// Reads and decodes a .lnav file: IoError when it cannot be read, else decode_navmesh's errors.
[[nodiscard]] Result<mesh::NavMesh> load_navmesh(const std::filesystem::path& path);

}  // namespace leapnav::io
