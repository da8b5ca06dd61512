// Fuzz target: the tile pack reader. Each input is read twice: as a whole pack (the framing:
// magic, sizes, header checksum, table), and as edits to a valid block of a small tiled world
// (byte 0 picks the tile, byte 1 cuts bytes off its end, then (offset u16, xor u8) triples), so
// that mutations reach the block decoder behind the checksum without a seed corpus. A block that
// decodes must pass validate (decode checks it) and assemble with the other tiles or fail with an
// error; a navmesh that assembles is planned over or refused by Planner::create, never a crash.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/assert.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/streaming/tile_blocks.hpp"
#include "leapnav/streaming/tile_pack.hpp"

namespace {

using namespace leapnav;

struct World {
  stream::TileBlocks blocks;
  std::vector<std::vector<std::byte>> encoded;
};

// A 12 m floor with a box on it, in 2 x 2 tiles of 20 cells.
const World& world() {
  static const World w = [] {
    io::SceneBuilder scene("fuzz floor");
    scene.add_quad({0, 0, 0}, {0, 0, 12}, {12, 0, 12}, {12, 0, 0});
    scene.add_box({5, 0, 5}, {7, 1, 7});
    const TriangleMesh m = scene.take();
    BuildContext ctx;
    mesh::TileConfig tiles;
    tiles.tile_size = 20;
    auto built = mesh::build_tiled_navmesh(m, *named_config("default"), tiles, ctx);
    LEAPNAV_ASSERT(built.ok(), "fuzz_tile_pack: the seed world does not build");
    auto blocks = stream::split_tiles(built->navmesh, nullptr);
    LEAPNAV_ASSERT(blocks.ok(), "fuzz_tile_pack: the seed world does not split");
    World out{std::move(blocks).value(), {}};
    for (const stream::TileBlock& b : out.blocks.blocks)
      out.encoded.push_back(stream::encode_tile_block(b, out.blocks.layout));
    return out;
  }();
  return w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)stream::decode_tile_pack(bytes, "fuzz.lnavpack");

  const World& w = world();
  if (size < 2 || w.encoded.empty()) return 0;
  const auto tile = static_cast<std::uint32_t>(data[0] % w.encoded.size());
  std::vector<std::byte> block = w.encoded[tile];
  block.resize(block.size() - std::min<std::size_t>(data[1], block.size()));
  for (std::size_t i = 2; i + 2 < size && !block.empty(); i += 3) {
    const std::size_t at = (std::size_t{data[i]} | std::size_t{data[i + 1]} << 8U) % block.size();
    block[at] ^= static_cast<std::byte>(data[i + 2]);
  }
  auto decoded = stream::decode_tile_block(block, w.blocks.layout, tile, "fuzz block");
  if (!decoded.ok()) return 0;
  LEAPNAV_ASSERT(stream::validate(*decoded, w.blocks.layout).ok(), "decoded block fails validate");
  std::vector<const stream::TileBlock*> all;
  for (const stream::TileBlock& b : w.blocks.blocks) all.push_back(b.tile == tile ? &*decoded : &b);
  auto assembled = stream::assemble_tiles(w.blocks.layout, all);
  if (!assembled.ok()) return 0;
  (void)plan::Planner::create(assembled->mesh, assembled->links ? &*assembled->links : nullptr);
  return 0;
}
