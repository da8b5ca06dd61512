// The tile pack file: blocks round-trip through the bytes and through a file read one tile at a
// time; a world streamed from the file plans as one streamed from memory; every truncation and
// every sampled flipped byte is an error naming the input, never a crash; damaged blocks on disk
// fail the load that reads them and leave the world as it was.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/streaming/tile_pack.hpp"
#include "streaming/stream_scenes.hpp"
#include "support/cli_run.hpp"

using namespace leapnav;

namespace {

stream::TileBlocks blocks_of(const test::TiledWorld& w) {
  auto blocks = stream::split_tiles(w.mesh, w.link_set(), w.ledge_set());
  REQUIRE(blocks.ok());
  return std::move(blocks).value();
}

std::uint64_t read_u64(const std::vector<std::byte>& bytes, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(std::to_integer<unsigned>(bytes[at + i])) << (8U * i);
  return v;
}

// The pack with its version field set to `version` and its header checksum made right again.
std::vector<std::byte> with_version(std::vector<std::byte> bytes, std::uint32_t version) {
  for (std::size_t i = 0; i < 4; ++i)
    bytes[4 + i] = static_cast<std::byte>((version >> (8U * i)) & 0xFFU);
  const std::uint64_t header = read_u64(bytes, 16);
  ContentHasher h;
  h.add_bytes(bytes.data(), header - 8);
  const std::uint64_t sum = h.digest();
  for (std::size_t i = 0; i < 8; ++i)
    bytes[header - 8 + i] = static_cast<std::byte>((sum >> (8U * i)) & 0xFFU);
  return bytes;
}

void write_bytes(const std::string& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

bool mentions(const Error& e, const std::string& what) {
  return e.message.find(what) != std::string::npos;
}

}  // namespace

TEST_SUITE("stream.pack") {
  TEST_CASE("blocks round-trip through pack bytes, without links, with full and compact links") {
    // the gap scene's links are full (no lattice), city:2's compact (on a 2 mm lattice)
    for (const test::TiledWorld* w : {&test::stream_floor(), &test::stream_gap(),
                                      &test::stream_city_jumps(), &test::stream_ledges()}) {
      const stream::TileBlocks blocks = blocks_of(*w);
      const std::vector<std::byte> bytes = stream::encode_tile_pack(blocks);
      auto back = stream::decode_tile_pack(bytes, "world.lnavpack");
      REQUIRE(back.ok());
      CHECK(back->blocks == blocks.blocks);
      CHECK(back->layout.tile_poly_first == blocks.layout.tile_poly_first);
      CHECK(back->layout.link_configs == blocks.layout.link_configs);
      CHECK(back->layout.config == blocks.layout.config);
      std::vector<const stream::TileBlock*> all;
      for (const stream::TileBlock& b : back->blocks) all.push_back(&b);
      auto assembled = stream::assemble_tiles(back->layout, all);
      REQUIRE(assembled.ok());
      CHECK(mesh::content_hash(assembled->mesh) == mesh::content_hash(w->mesh));
      if (w->links) CHECK(jump::content_hash(*assembled->links) == jump::content_hash(*w->links));
      CHECK(assembled->ledges.has_value() == w->ledges.has_value());
      if (w->ledges) {
        CHECK(back->layout.ledge_kind_bits == blocks.layout.ledge_kind_bits);
        CHECK(back->layout.reach == blocks.layout.reach);
        CHECK(assembled->ledges->links == w->ledges->links);
      }
      CHECK(stream::encode_tile_pack(*back) == bytes);
    }
  }

  TEST_CASE(
      "a world streamed from a pack file reads one block per load and plans as from "
      "memory") {
    const test::TiledWorld& gap = test::stream_gap();
    const stream::TileBlocks blocks = blocks_of(gap);
    const std::string path = test::temp_file("leapnav_stream_pack", "gap.lnavpack");
    REQUIRE(stream::save_tile_pack(blocks, path).ok());
    auto source = stream::PackTileSource::open(path);
    REQUIRE(source.ok());
    CHECK((*source)->file_bytes() == std::filesystem::file_size(path));
    for (std::uint32_t t = 0; t < blocks.layout.tile_count(); ++t) {
      auto b = (*source)->read(t);
      REQUIRE(b.ok());
      CHECK(*b == blocks.blocks[t]);
    }
    // the source holds the header only
    CHECK((*source)->memory_bytes() < (*source)->file_bytes() / 4);
    auto from_file = stream::TileWorld::create(*source);
    auto from_memory =
        stream::TileWorld::create(std::make_shared<stream::MemoryTileSource>(blocks));
    REQUIRE((from_file.ok() && from_memory.ok()));
    const std::uint32_t window[] = {0, 1, 2, 5, 6, 7};
    REQUIRE(from_file->set_loaded(window).ok());
    REQUIRE(from_memory->set_loaded(window).ok());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> x(0.0F, 30.0F);
    std::uniform_real_distribution<float> z(0.0F, 6.0F);
    for (int i = 0; i < 50; ++i) {
      const Vec3 s{x(rng), io::kJumpFloorTop, z(rng)};
      const Vec3 g{x(rng), io::kJumpFloorTop, z(rng)};
      auto a = from_file->find_path(s, g);
      auto b = from_memory->find_path(s, g);
      REQUIRE((a.ok() && b.ok()));
      CHECK(a->status == b->status);
      CHECK(a->points == b->points);
      CHECK(a->unloaded_tile == b->unloaded_tile);
    }
  }

  TEST_CASE("a pack cut at any length is refused with a message, never a crash") {
    std::vector<std::byte> bytes = stream::encode_tile_pack(blocks_of(test::stream_gap()));
    const std::vector<std::byte> ledges =
        stream::encode_tile_pack(blocks_of(test::stream_ledges()));
    for (std::size_t n = 0; n < ledges.size(); ++n) {
      auto cut = stream::decode_tile_pack(std::span(ledges).first(n), "ledges.lnavpack");
      REQUIRE_FALSE(cut.ok());
      CHECK(cut.error().code == ErrorCode::CorruptFile);
    }
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      auto cut = stream::decode_tile_pack(std::span(bytes).first(n), "cut.lnavpack");
      REQUIRE_FALSE(cut.ok());
      CHECK(mentions(cut.error(), "cut.lnavpack"));
      CHECK(cut.error().code == ErrorCode::CorruptFile);
    }
    std::vector<std::byte> longer = bytes;
    longer.push_back(std::byte{0});
    auto trailing = stream::decode_tile_pack(longer, "long.lnavpack");
    REQUIRE_FALSE(trailing.ok());
    CHECK(mentions(trailing.error(), "trailing"));
  }

  TEST_CASE("a flipped byte anywhere in a pack is refused (header and block checksums)") {
    const std::vector<std::byte> bytes = stream::encode_tile_pack(blocks_of(test::stream_gap()));
    std::mt19937 rng(99);
    std::uniform_int_distribution<std::size_t> pick(0, bytes.size() - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 2048); ++i)
      positions.push_back(i);  // the header and the first blocks, every byte
    for (int i = 0; i < 1500; ++i) positions.push_back(pick(rng));
    int version = 0;
    for (const std::size_t at : positions) {
      std::vector<std::byte> bad = bytes;
      bad[at] ^= static_cast<std::byte>(1U << static_cast<unsigned>(bit(rng)));
      auto r = stream::decode_tile_pack(bad, "flip.lnavpack");
      REQUIRE_FALSE(r.ok());
      CHECK(mentions(r.error(), "flip.lnavpack"));
      version += r.error().code == ErrorCode::UnsupportedVersion ? 1 : 0;
    }
    MESSAGE(positions.size() << " flips refused, " << version << " as a newer version");
  }

  TEST_CASE("a block edited at random bytes decodes to a valid block or an error, never a crash") {
    const stream::TileBlocks blocks = blocks_of(test::stream_gap());
    std::mt19937 rng(77);
    int decoded = 0;
    int refused = 0;
    for (std::uint32_t t = 0; t < blocks.layout.tile_count(); ++t) {
      const std::vector<std::byte> bytes =
          stream::encode_tile_block(blocks.blocks[t], blocks.layout);
      auto back = stream::decode_tile_block(bytes, blocks.layout, t, "block");
      REQUIRE(back.ok());
      CHECK(*back == blocks.blocks[t]);
      std::uniform_int_distribution<std::size_t> at(0, bytes.size() - 1);
      for (int i = 0; i < 300; ++i) {
        std::vector<std::byte> bad = bytes;
        for (int k = 0; k <= i % 3; ++k) bad[at(rng)] ^= static_cast<std::byte>(1U + rng() % 255U);
        if (i % 7 == 0) bad.resize(at(rng));
        auto r = stream::decode_tile_block(bad, blocks.layout, t, "edited block");
        if (!r.ok()) {
          ++refused;
          CHECK(r.error().message.find("edited block") != std::string::npos);
          continue;
        }
        ++decoded;
        CHECK(stream::validate(*r, blocks.layout).ok());
        std::vector<const stream::TileBlock*> all;
        for (const stream::TileBlock& b : blocks.blocks) all.push_back(b.tile == t ? &*r : &b);
        auto assembled = stream::assemble_tiles(blocks.layout, all);
        if (assembled.ok()) {
          (void)plan::Planner::create(assembled->mesh,
                                      assembled->links ? &*assembled->links : nullptr);
        }
      }
    }
    MESSAGE(decoded << " edited blocks decoded (edits in values), " << refused << " refused");
    CHECK(refused > 0);
    CHECK_FALSE(stream::decode_tile_block(std::span<const std::byte>{}, blocks.layout, 99).ok());
  }

  TEST_CASE("pack file errors name the file: missing, not a pack, truncated, a damaged block") {
    const stream::TileBlocks blocks = blocks_of(test::stream_floor());
    const std::vector<std::byte> bytes = stream::encode_tile_pack(blocks);
    const std::string dir = test::temp_file("leapnav_stream_pack", "");

    auto missing = stream::PackTileSource::open(dir + "/missing.lnavpack");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
    CHECK(mentions(missing.error(), "missing.lnavpack"));

    const std::string lnav = dir + "/floor.lnav";
    REQUIRE(io::save_navmesh(test::stream_floor().mesh, lnav).ok());
    auto not_pack = stream::PackTileSource::open(lnav);
    REQUIRE_FALSE(not_pack.ok());
    CHECK(mentions(not_pack.error(), "floor.lnav"));
    CHECK(mentions(not_pack.error(), "not a tile pack"));

    const std::string cut = dir + "/cut.lnavpack";
    write_bytes(cut, std::span(bytes).first(bytes.size() - 100));
    auto truncated = stream::PackTileSource::open(cut);
    REQUIRE_FALSE(truncated.ok());
    CHECK(truncated.error().code == ErrorCode::CorruptFile);
    CHECK(mentions(truncated.error(), "cut.lnavpack"));
    CHECK(mentions(truncated.error(), "truncated"));

    // a damaged block: the header opens, the load of that tile fails and changes nothing
    const std::string damaged = dir + "/damaged.lnavpack";
    std::vector<std::byte> bad = bytes;
    auto clean = stream::PackTileSource::open([&] {
      const std::string p = dir + "/clean.lnavpack";
      write_bytes(p, bytes);
      return p;
    }());
    REQUIRE(clean.ok());
    const std::uint32_t tile = 12;
    // note: the blocks follow the header in tile order, so tile 12's starts where the blocks of
    // tiles 12 and on, counted back from the end, begin
    std::uint64_t offset = bytes.size();
    for (std::uint32_t t = blocks.layout.tile_count(); t-- > tile;)
      offset -= (*clean)->block_file_bytes(t);
    bad[offset + 40] ^= std::byte{0x10};
    write_bytes(damaged, bad);
    auto source = stream::PackTileSource::open(damaged);
    REQUIRE(source.ok());
    auto world = stream::TileWorld::create(*source);
    REQUIRE(world.ok());
    REQUIRE(world->load_tile(tile - 1).ok());
    const auto before = world->snapshot();
    const Status failed = world->load_tile(tile);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().code == ErrorCode::CorruptFile);
    CHECK(mentions(failed.error(), "damaged.lnavpack"));
    CHECK(mentions(failed.error(), "tile 12"));
    CHECK(world->snapshot() == before);
    CHECK_FALSE(world->tile_loaded(tile));
    CHECK(world->tile_loaded(tile - 1));
  }

  TEST_CASE(
      "a version 1 pack (before ledge links) still reads; version 1 with ledge links does not") {
    // version 1's layout is version 2's without the ledge flag and its fields
    const stream::TileBlocks blocks = blocks_of(test::stream_city_jumps());
    const std::vector<std::byte> v1 = with_version(stream::encode_tile_pack(blocks), 1);
    auto back = stream::decode_tile_pack(v1, "old.lnavpack");
    REQUIRE(back.ok());
    CHECK(back->blocks == blocks.blocks);
    CHECK(back->layout.reach == blocks.layout.reach);
    CHECK_FALSE(back->layout.ledges);

    const std::vector<std::byte> v2 = stream::encode_tile_pack(blocks_of(test::stream_ledges()));
    auto refused = stream::decode_tile_pack(with_version(v2, 1), "old.lnavpack");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::CorruptFile);
    CHECK(mentions(refused.error(), "old.lnavpack"));
    CHECK(mentions(refused.error(), "unknown header flags"));

    auto newer = stream::decode_tile_pack(with_version(v2, 3), "new.lnavpack");
    REQUIRE_FALSE(newer.ok());
    CHECK(newer.error().code == ErrorCode::UnsupportedVersion);
    CHECK(mentions(newer.error(), "version 3 is newer than this reader's 2"));
  }

  TEST_CASE("a world streamed from a pack with ledge links plans over them as from memory") {
    const test::TiledWorld& rise = test::stream_ledges();
    const stream::TileBlocks blocks = blocks_of(rise);
    const std::string path = test::temp_file("leapnav_stream_pack", "rise.lnavpack");
    REQUIRE(stream::save_tile_pack(blocks, path).ok());
    auto source = stream::PackTileSource::open(path);
    REQUIRE(source.ok());
    auto world = stream::TileWorld::create(*source);
    REQUIRE(world.ok());
    std::vector<std::uint32_t> all(world->tile_count());
    for (std::uint32_t t = 0; t < world->tile_count(); ++t) all[t] = t;
    REQUIRE(world->set_loaded(all).ok());
    // platform A to platform B: up a jump-up link or the ladder
    const Vec3 low{2.0F, 2.0F, 3.0F};
    const Vec3 high{14.0F, 3.0F, 3.0F};
    auto up = world->find_path(low, high);
    REQUIRE(up.ok());
    REQUIRE(up->status == plan::PathStatus::Found);
    bool ledge = false;
    for (const plan::PathSegment& seg : up->segments)
      ledge =
          ledge || seg.kind == plan::SegmentKind::JumpUp || seg.kind == plan::SegmentKind::Ladder;
    CHECK(ledge);
    plan::QueryOptions walk;
    walk.ledge_links = false;
    auto none = world->find_path(low, high, walk);
    REQUIRE(none.ok());
    CHECK(none->status == plan::PathStatus::NoPath);
    CHECK_FALSE(none->blocked_by_unloaded_tiles);
  }
}
