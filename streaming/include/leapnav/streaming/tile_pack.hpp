// The tile pack file (.lnavpack): a tiled world's blocks (tile_blocks.hpp) in one file with a
// table, so that one tile is read without reading the others. Little-endian; the reader treats
// the file as untrusted: every count is checked against the bytes that hold it before anything is
// allocated, the header and every block carry a checksum, and a decoded block must pass
// validate(block, layout).
//
// Layout (format version 2; version 1, still read, is version 2 without ledge links: no flag 4
// and none of its fields):
//   offset 0   "LNTP"            magic
//   offset 4   u32 version       kTilePackVersion
//   offset 8   u64 file size     total bytes
//   offset 16  u64 header size   bytes from offset 0 to the end of the header checksum
//   offset 24  header: u32 length, the build configuration as JSON (io::config_to_json);
//              grid (f32 origin x y z, cell_size, cell_height, i32 width, depth, height);
//              i32 tile_size, tiles_x, tiles_z; u8 flags (1: height patches, 2: links, 4:
//              ledge links); u32 C, C x (f32 height, distance, max_fall) link configurations,
//              f32 link quantum, u64 link configuration bits; with flag 4, u8 ledge kinds (bit k:
//              a link of ledge::LedgeKind k); u32 R (reach components, <= 4096), R x ceil(R / 64)
//              u64 the reach table; u32 T (tiles); 3 x (T + 1) u32: the world's
//              tile_poly_first, tile_vertex_first, tile_sample_first; the table, T x (u64
//              offset, u64 size, u64 checksum) of the blocks; u64 checksum (ContentHasher over
//              every header byte before it, from offset 0)
//   then the blocks, each at its table offset: u32 tile, u32 V, P, K (corners), S (samples), F
//              (foreign vertices), L (links); u8 sample coding, u8 link coding, u32 sample
//              bytes, u32 link bytes; with flag 4, u32 E (ledge links); V x f32 x y z; P x u32
//              poly_first[1..P]; K x u32 vertex ids; K x u32 neighbour ids; P x u16 region; P x
//              u8 area; P x u16 flags; P x 6 f32 bounds; with patches P x (i32 x0, z0, u16
//              width, depth, u32 first); the samples; F x u32 ids; F x f32 x y z; the links; E x
//              (u8 kind, u32 source_poly, dest_poly, f32 x y z source_a, source_b, dest_a,
//              dest_b, f32 cost); P x u32 island; P x u32 link island; with R > 0, P x u32 reach
//              component. Its table checksum is ContentHasher over its bytes.
//   Samples: coding 0, S x f32; coding 1 (written when every sample is a grid height level or
//              NaN), per sample a LEB128 varint, 0 for NaN, else zig-zag(level minus the previous
//              level) + 1; a level l is GridSpec::level_to_world(l), |l| < 2^24.
//   Links: coding 0, L x (f32 start x y z, land_a, land_b, u16 config, u32 start_poly, u32
//              land_poly); coding 1 (written when the layout's link quantum q is not 0 and every
//              point is a multiple k q, |k| < 2^24), per link varint config, varint start_poly
//              minus the previous link's, zig-zag varint land_poly minus start_poly, then 9
//              zig-zag varints of lattice indices: start minus the previous link's start, land_a
//              minus start, land_b minus land_a.
// Ids are world ids (tile_blocks.hpp). A .lnav codes heights tighter (chunk "HGTC", about 0.3
// byte a sample against about 1 here) and links in runs ("jlkr"), so a pack is larger than the
// .lnav it was made from (bench/RESULTS.md, "Streaming tile packs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/streaming/tile_blocks.hpp"
#include "leapnav/streaming/tile_world.hpp"

namespace leapnav::stream {

/// The version written; versions 1 (no ledge links) and 2 are read.
inline constexpr std::uint32_t kTilePackVersion = 2;

/// The blocks as pack file bytes.
[[nodiscard]] std::vector<std::byte> encode_tile_pack(const TileBlocks& blocks);

/// Writes the pack (through a temporary file renamed into place). IoError naming the path.
[[nodiscard]] Status save_tile_pack(const TileBlocks& blocks, const std::filesystem::path& path);

/// Decodes a whole pack held in memory; `source` names it in messages ("source: tile 3: ...").
/// CorruptFile for a truncated or damaged pack (wrong magic, size, checksum, counts, a block
/// that fails validate), UnsupportedVersion for a newer version. Never asserts.
[[nodiscard]] Result<TileBlocks> decode_tile_pack(std::span<const std::byte> data,
                                                  std::string_view source = "tile pack");

/// One block's bytes as a pack stores them (without the table's checksum), for storage of the
/// caller's own (an archive that already checksums its entries) and for tests.
[[nodiscard]] std::vector<std::byte> encode_tile_block(const TileBlock& block,
                                                       const WorldLayout& layout);

/// Decodes one block's bytes (encode_tile_block's) for tile `tile` of `layout`; `source` names
/// them in messages. CorruptFile for bytes that are truncated, malformed or fail
/// validate(block, layout). Never asserts; allocates no more than the bytes justify.
[[nodiscard]] Result<TileBlock> decode_tile_block(std::span<const std::byte> bytes,
                                                  const WorldLayout& layout, std::uint32_t tile,
                                                  std::string_view source = "tile block");

/// A pack opened for streaming: open() reads the header (layout and table) only; read(t) reads
/// and checks tile t's block from the file. Thread-safe (each read opens the file).
class PackTileSource final : public TileSource {
 public:
  /// IoError when the file cannot be read; decode_tile_pack's errors for its header, and
  /// CorruptFile when the file's size differs from the size its header declares.
  [[nodiscard]] static Result<std::shared_ptr<const PackTileSource>> open(
      const std::filesystem::path& path);

  [[nodiscard]] const WorldLayout& layout() const override { return layout_; }
  /// IoError when the file cannot be read; CorruptFile (naming the file and the tile) when the
  /// block is truncated, fails its checksum or its checks.
  [[nodiscard]] Result<TileBlock> read(std::uint32_t tile) const override;
  [[nodiscard]] std::uint64_t memory_bytes() const override;
  /// Bytes of tile t's block in the file (0 out of range).
  [[nodiscard]] std::uint64_t block_file_bytes(std::uint32_t tile) const;
  [[nodiscard]] std::uint64_t file_bytes() const { return file_bytes_; }

  struct Entry {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    std::uint64_t checksum = 0;
  };
  PackTileSource(std::filesystem::path path, WorldLayout layout, std::vector<Entry> table,
                 std::uint64_t file_bytes);

 private:
  std::filesystem::path path_;
  std::string name_;
  WorldLayout layout_;
  std::vector<Entry> table_;
  std::uint64_t file_bytes_ = 0;
};

}  // namespace leapnav::stream
