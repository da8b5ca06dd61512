// The tile cache file (`leapnav build --tile-size N --cache <file>`): the working data of a tiled
// build that `leapnav rebuild` needs (mesh::TileCache), kept out of the runtime .lnav. A
// little-endian binary file with a magic, a version, the declared size and a trailing 64-bit
// ContentHasher checksum, read as untrusted input like a .lnav (every count checked against the
// bytes left before anything is allocated; every tile mesh decoded by decode_navmesh, so it
// passes mesh::validate).
//
// Layout (format version 5; version 1 had no island columns; 4 changed only the meaning of the
// navmesh hash; 5 added the hash parts):
//   offset 0   "LNTC"                          magic, 4 bytes
//   offset 4   u32 version                     kTileCacheFormatVersion
//   offset 8   u64 file size                   total bytes, checksum included
//   offset 16  u64 J, J bytes                  the configuration as io::config_to_json writes it
//              f32 origin x y z, cell_size, cell_height, i32 width, depth, height   world grid
//              i32 tile_size, border, tiles_x, tiles_z
//              u64 navmesh hash                mesh::content_hash of the stitched navmesh
//              u64 T                           tiles (tiles_x * tiles_z)
//              T x (u64 fingerprint, u64 regions, polygons, vertices, f64 navmesh_area,
//                   walkable_area, i32 island_reads x0 z0 x1 z1 (all 0: none),
//                   u64 B, B bytes: the tile mesh as encode_navmesh writes it)
//              u64 P (0 or 1), P x stitch pieces (derived data)
//              u64 H (0 or 1), then when H: u64 .lnav checksum (mesh::TileCache::
//                  nav_file_checksum, never 0), T x hash part (u32 vertices, polygons,
//                  corners, samples, patches, valid; u64 sum x 10, power x 10, corner_unit,
//                  vertex_unit, poly_unit, sample_unit), T x f64 tile area   (version 5)
//   last 8     u64 checksum                    ContentHasher::add_bytes over every byte before it
// A payload's layout never changes within one format version; a newer version is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/io/file_io.hpp"
#include "leapnav/mesh/tile_cache.hpp"

namespace leapnav::io {

/// The format version this code writes and the only one it reads.
// note: version 2: tile fingerprints chain per-triangle hashes; version 3: each tile records the
// columns its island filter read beyond its border (older caches would rebuild wrongly);
// version 4: the same layout, but the stored navmesh hash is mesh::content_hash's per-tile
// composable definition (a version 3 cache's hash would not match its .lnav); version 5: the
// tiles' hash parts and areas with the checksum of the .lnav written beside the cache (an older
// cache is refused like any other version: build the cache again)
inline constexpr std::uint32_t kTileCacheFormatVersion = 5;

/// The cache as bytes (the layout above).
[[nodiscard]] std::vector<std::byte> encode_tile_cache(const mesh::TileCache& cache);

/// Decodes cache bytes; `source` names them in messages ("source: ..."). Errors: CorruptFile
/// (truncated, wrong magic, size or checksum mismatch, counts that do not match the payload, a
/// configuration that does not parse, a layout that does not match its grid, a tile mesh that
/// does not decode or lies on another grid or configuration), UnsupportedVersion (another
/// format version). Never allocates more than a small multiple of data.size().
[[nodiscard]] Result<mesh::TileCache> decode_tile_cache(std::span<const std::byte> data,
                                                        std::string_view source = "tile cache");

/// Writes the cache to `path` atomically (write_file_atomic): IoError when it cannot.
[[nodiscard]] Status save_tile_cache(const mesh::TileCache& cache,
                                     const std::filesystem::path& path);

/// Reads (bounded by max_bytes: MemoryLimit past it; IoError when it cannot be read) and decodes
/// a cache file; messages name the path.
[[nodiscard]] Result<mesh::TileCache> load_tile_cache(
    const std::filesystem::path& path, std::uint64_t max_bytes = default_max_file_bytes());

}  // namespace leapnav::io
