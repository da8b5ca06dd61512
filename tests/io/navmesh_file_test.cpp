// .lnav navmesh files: exact round trips, one test per corruption with its specific error, and a
// seeded loop of flipped bytes and truncations that must always error and never crash; the same
// for files that carry jump links.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "io/links_fixture.hpp"
#include "io/navmesh_fixture.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using namespace leapnav::io;
using Bytes = std::vector<std::byte>;

namespace {

std::uint64_t get_u64(const Bytes& b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::to_integer<std::uint64_t>(b[at + i]) << (8 * i);
  return v;
}
void put_u64(Bytes& b, std::size_t at, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) b[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
}
void put_u16(Bytes& b, std::size_t at, std::uint16_t v) {
  for (std::size_t i = 0; i < 2; ++i) b[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
}
void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
}

/// Rewrites the declared size and the checksum so that only the deeper checks can catch a change.
void reseal(Bytes& b) {
  put_u64(b, 8, b.size());
  ContentHasher h;
  h.add_bytes(b.data(), b.size() - 8);
  put_u64(b, b.size() - 8, h.digest());
}

/// The offset of the payload of chunk `tag` (after its 12-byte header).
std::size_t payload_of(const Bytes& b, std::string_view tag) {
  std::size_t at = 16;
  while (at + 12 <= b.size()) {
    if (std::memcmp(b.data() + at, tag.data(), 4) == 0) return at + 12;
    at += 12 + get_u64(b, at + 4);
  }
  FAIL("no chunk " << tag);
  return 0;
}

/// Inserts a chunk just before the "END " chunk.
void insert_chunk(Bytes& b, std::string_view tag, std::size_t payload_size) {
  Bytes chunk(12 + payload_size, std::byte{0x5A});
  std::memcpy(chunk.data(), tag.data(), 4);
  put_u64(chunk, 4, payload_size);
  const std::size_t end = payload_of(b, "END ") - 12;
  b.insert(b.begin() + static_cast<std::ptrdiff_t>(end), chunk.begin(), chunk.end());
  reseal(b);
}

void check_error(const Bytes& b, ErrorCode code, std::string_view message) {
  const auto result = decode_navmesh(b, "x.lnav");
  REQUIRE_FALSE(result.ok());
  CHECK(to_string(result.error().code) == to_string(code));
  CHECK(result.error().message == message);
  const auto file = decode_nav_file(b, "x.lnav");
  REQUIRE_FALSE(file.ok());
  CHECK(file.error().message == result.error().message);
}

/// Removes chunk `tag` (header and payload).
void erase_chunk(Bytes& b, std::string_view tag) {
  const std::size_t at = payload_of(b, tag) - 12;
  const std::size_t end = at + 12 + get_u64(b, at + 4);
  b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
          b.begin() + static_cast<std::ptrdiff_t>(end));
  reseal(b);
}

NavFile small_file() {
  return NavFile{test::small_navmesh(), test::small_links()};
}

/// Offset of link k's byte `field` in the "jlnk" payload (0 start, 12 land_a, 24 land_b,
/// 36 config, 38 start_poly, 42 land_poly).
std::size_t link_at(const Bytes& b, std::size_t k, std::size_t field) {
  return payload_of(b, "jlnk") + 8 + 46 * k + field;
}

/// The decoded file passes every validator (the property that resealed mutations must keep).
void check_valid(const NavFile& file) {
  CHECK(mesh::validate(file.navmesh).ok());
  if (file.links) CHECK(jump::validate(*file.links, file.navmesh).ok());
}

/// Every truncation errors; seeded bit flips error, and still never crash or produce an
/// invalid result once resealed. Returns how many resealed mutations decoded.
int mutate(const Bytes& good, std::size_t lo, std::size_t hi, unsigned seed, int iterations) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> where(lo, hi - 1);
  std::uniform_int_distribution<int> bit(0, 7);
  int resealed_ok = 0;
  for (int iter = 0; iter < iterations; ++iter) {
    Bytes b = good;
    const int flips = 1 + iter % 4;
    for (int f = 0; f < flips; ++f) b[where(rng)] ^= static_cast<std::byte>(1 << bit(rng));
    if (b == good) continue;
    CHECK_FALSE(decode_nav_file(b).ok());
    reseal(b);
    const auto result = decode_nav_file(b);
    if (result.ok()) {
      ++resealed_ok;
      check_valid(*result);
      CHECK(decode_navmesh(b, "navmesh", LinkPolicy::Drop).ok());
    } else {
      CHECK_FALSE(decode_navmesh(b, "navmesh", LinkPolicy::Drop).ok());
    }
  }
  return resealed_ok;
}

}  // namespace

TEST_SUITE("io.navmesh_file") {
  TEST_CASE("a navmesh round-trips through bytes with the same content hash") {
    const mesh::NavMesh m = test::small_navmesh();
    REQUIRE(mesh::validate(m).ok());
    const Bytes bytes = encode_navmesh(m);
    CHECK(std::memcmp(bytes.data(), "LNAV", 4) == 0);
    CHECK(get_u64(bytes, 8) == bytes.size());
    const auto back = decode_navmesh(bytes);
    REQUIRE(back.ok());
    CHECK(mesh::validate(*back).ok());
    CHECK(mesh::content_hash(*back) == mesh::content_hash(m));
    CHECK(back->config == m.config);
    CHECK(back->grid == m.grid);
    CHECK(back->poly_flags == m.poly_flags);
    CHECK(std::isnan(back->height_samples[3]));
    CHECK(encode_navmesh(*back) == bytes);
  }

  TEST_CASE("an empty navmesh round-trips") {
    mesh::NavMesh m;
    m.config = *named_config("thesis");
    m.grid = test::small_navmesh().grid;
    const auto back = decode_navmesh(encode_navmesh(m));
    REQUIRE(back.ok());
    CHECK(back->polygon_count() == 0);
    CHECK(back->poly_first.empty());
    CHECK(mesh::content_hash(*back) == mesh::content_hash(m));
    CHECK(back->config.name == "thesis");
  }

  TEST_CASE("a built demo navmesh saves and loads with the same content hash") {
    const auto scene = builtin_scene("demo");
    REQUIRE(scene.ok());
    BuildContext ctx;
    const auto built = mesh::build_navmesh(*scene, *named_config("default"), ctx);
    REQUIRE(built.ok());
    const mesh::NavMesh& m = built->navmesh;
    CHECK(m.polygon_count() > 10);
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "leapnav_demo.lnav";
    REQUIRE(save_navmesh(m, path).ok());
    CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));
    const auto back = load_navmesh(path);
    std::filesystem::remove(path);
    REQUIRE(back.ok());
    CHECK(mesh::content_hash(*back) == mesh::content_hash(m));
    CHECK(back->config == m.config);
  }

  TEST_CASE("file errors: missing, directory, unwritable, invalid mesh") {
    const auto missing = load_navmesh("/nonexistent/a.lnav");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
    CHECK(missing.error().message == "/nonexistent/a.lnav: no such file");
    const auto dir = load_navmesh(std::filesystem::temp_directory_path());
    REQUIRE_FALSE(dir.ok());
    CHECK(dir.error().code == ErrorCode::IoError);
    const auto unwritable = save_navmesh(test::small_navmesh(), "/nonexistent/a.lnav");
    REQUIRE_FALSE(unwritable.ok());
    CHECK(unwritable.error().code == ErrorCode::IoError);
    mesh::NavMesh bad = test::small_navmesh();
    bad.poly_vertices[0] = 99;
    const auto invalid = save_navmesh(bad, std::filesystem::temp_directory_path() / "bad.lnav");
    REQUIRE_FALSE(invalid.ok());
    CHECK(invalid.error().code == ErrorCode::Internal);
  }

  TEST_CASE("header damage: truncation, magic, version, size, checksum") {
    const Bytes good = encode_navmesh(test::small_navmesh());
    check_error({}, ErrorCode::CorruptFile,
                "x.lnav: truncated (0 bytes; a navmesh file has at least 36)");
    check_error(Bytes(good.begin(), good.begin() + 20), ErrorCode::CorruptFile,
                "x.lnav: truncated (20 bytes; a navmesh file has at least 36)");
    check_error(Bytes(good.begin(), good.end() - 1), ErrorCode::CorruptFile,
                "x.lnav: truncated (" + std::to_string(good.size() - 1) + " of " +
                    std::to_string(good.size()) + " bytes)");
    Bytes longer = good;
    longer.push_back(std::byte{0});
    check_error(
        longer, ErrorCode::CorruptFile,
        "x.lnav: 1 bytes after the declared end (" + std::to_string(good.size()) + " bytes)");
    Bytes magic = good;
    magic[0] = std::byte{'P'};
    check_error(magic, ErrorCode::CorruptFile, "x.lnav: not a leapnav navmesh file (bad magic)");
    Bytes newer = good;
    put_u32(newer, 4, 2);
    reseal(newer);
    check_error(newer, ErrorCode::UnsupportedVersion,
                "x.lnav: format version 2 is newer than this reader's (1)");
    Bytes zero = good;
    put_u32(zero, 4, 0);
    check_error(zero, ErrorCode::CorruptFile, "x.lnav: format version 0 is invalid");
    Bytes flipped = good;
    flipped[good.size() / 2] ^= std::byte{0x10};
    const auto result = decode_navmesh(flipped, "x.lnav");
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == ErrorCode::CorruptFile);
    CHECK(result.error().message.rfind("x.lnav: checksum mismatch (stored ", 0) == 0);
  }

  TEST_CASE("chunk damage under a valid checksum gives specific errors") {
    // note: Raw, so that the height damage below hits the "HGHT" layout
    const Bytes good = encode_navmesh(test::small_navmesh(), io::HeightEncoding::Raw);

    Bytes absurd = good;
    put_u64(absurd, payload_of(absurd, "VERT"), std::uint64_t{1} << 60);
    reseal(absurd);
    check_error(absurd, ErrorCode::CorruptFile,
                "x.lnav: chunk 'VERT': 1152921504606846976 vertices do not fit its 108 bytes");

    Bytes big_chunk = good;
    put_u64(big_chunk, payload_of(big_chunk, "GRID") - 8, 1'000'000'000);
    reseal(big_chunk);
    const auto big = decode_navmesh(big_chunk, "x.lnav");
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().code == ErrorCode::CorruptFile);
    CHECK(big.error().message.find("claims 1000000000 bytes, only") != std::string::npos);

    Bytes index = good;
    const std::size_t poly = payload_of(index, "POLY");
    put_u32(index, poly + 16 + 4 * 4 + 4 * 2, 99);  // poly_vertices[2]
    reseal(index);
    check_error(index, ErrorCode::IndexOutOfRange, "x.lnav: polygon 0 uses vertex 99 (9 vertices)");

    Bytes first = good;
    put_u32(first, poly + 16 + 4, 12);  // poly_first[1] beyond the 11 indices
    reseal(first);
    check_error(first, ErrorCode::CorruptFile,
                "x.lnav: chunk 'POLY': poly_first is not non-decreasing within 0..11 at polygon 0");

    Bytes neighbor = good;
    put_u32(neighbor, poly + 16 + 4 * 4 + 4 * 11, 7);  // poly_neighbors[0]
    reseal(neighbor);
    check_error(neighbor, ErrorCode::IndexOutOfRange,
                "x.lnav: polygon 0 has neighbour 7 (3 polygons)");

    Bytes nan = good;
    put_u32(nan, payload_of(nan, "VERT") + 8 + 4, 0x7FC00000U);  // vertex 0 y
    reseal(nan);
    check_error(nan, ErrorCode::NonFinite, "x.lnav: vertex 0 is not finite");

    Bytes inf = good;
    put_u32(inf, payload_of(inf, "HGHT") + 16 + 3 * 16, 0x7F800000U);  // sample 0
    reseal(inf);
    check_error(inf, ErrorCode::NonFinite, "x.lnav: height sample 0 is infinite");

    Bytes patch = good;
    put_u32(patch, payload_of(patch, "HGHT") + 16 + 2 * 16 + 12, 6'000'000);  // patch 2 first
    reseal(patch);
    check_error(patch, ErrorCode::IndexOutOfRange,
                "x.lnav: height patch 2 reads past the 7 samples");

    Bytes span = good;
    put_u32(span, payload_of(span, "SPAN") + 16 + 201 * 4 + 4 * 2, 3);  // span_poly[0]
    reseal(span);
    check_error(span, ErrorCode::IndexOutOfRange, "x.lnav: span 0 names polygon 3 (3 polygons)");

    Bytes grid = good;
    put_u32(grid, payload_of(grid, "GRID") + 20, 21);  // width: 21 * 10 columns, 201 entries
    reseal(grid);
    check_error(grid, ErrorCode::CorruptFile,
                "x.lnav: chunk 'SPAN': 201 column entries for a grid of 210 columns");

    Bytes config = good;
    put_u32(config, payload_of(config, "CONF") + 4 + 7 + 8, 0xBF800000U);  // agent height -1
    reseal(config);
    check_error(config, ErrorCode::CorruptFile,
                "x.lnav: chunk 'CONF': config: agent.height = -1.000000 is out of range (> 0 m)");

    Bytes concave = good;
    put_u32(concave, poly + 16 + 4 * 4, 2);  // polygon 0 becomes 2 1 2 3: repeats a vertex
    reseal(concave);
    const auto invalid = decode_navmesh(concave, "x.lnav");
    REQUIRE_FALSE(invalid.ok());
    CHECK(invalid.error().code == ErrorCode::CorruptFile);
    CHECK(invalid.error().message.rfind("x.lnav: invalid navmesh: ", 0) == 0);
  }

  TEST_CASE("chunks: unknown critical ones refuse, unknown optional ones are skipped") {
    const Bytes good = encode_navmesh(test::small_navmesh());
    Bytes critical = good;
    insert_chunk(critical, "JUMP", 5);
    const std::size_t jump_at = payload_of(critical, "JUMP") - 12;
    check_error(critical, ErrorCode::UnsupportedVersion,
                "x.lnav: chunk 'JUMP' at offset " + std::to_string(jump_at) +
                    " is required but unknown to this reader (format version 1)");

    Bytes optional = good;
    insert_chunk(optional, "jump", 5);
    const auto skipped = decode_navmesh(optional, "x.lnav");
    REQUIRE(skipped.ok());
    CHECK(mesh::content_hash(*skipped) == mesh::content_hash(test::small_navmesh()));

    Bytes twice = good;
    const std::size_t grid = payload_of(twice, "GRID") - 12;
    const Bytes grid_chunk(twice.begin() + static_cast<std::ptrdiff_t>(grid),
                           twice.begin() + static_cast<std::ptrdiff_t>(grid + 12 + 32));
    twice.insert(twice.begin() + static_cast<std::ptrdiff_t>(grid), grid_chunk.begin(),
                 grid_chunk.end());
    reseal(twice);
    check_error(twice, ErrorCode::CorruptFile, "x.lnav: chunk 'GRID': appears twice");

    Bytes missing = good;
    const std::size_t span = payload_of(missing, "SPAN") - 12;
    missing.erase(missing.begin() + static_cast<std::ptrdiff_t>(span),
                  missing.begin() + static_cast<std::ptrdiff_t>(payload_of(missing, "END ") - 12));
    reseal(missing);
    check_error(missing, ErrorCode::CorruptFile, "x.lnav: missing chunk 'SPAN'");

    Bytes tag = good;
    tag[16] = std::byte{0x01};
    reseal(tag);
    check_error(tag, ErrorCode::CorruptFile,
                "x.lnav: invalid chunk tag (bytes 01 4f 4e 46) at offset 16");

    Bytes no_end = good;
    no_end.erase(no_end.end() - 20, no_end.end() - 8);
    reseal(no_end);
    const auto end = decode_navmesh(no_end, "x.lnav");
    REQUIRE_FALSE(end.ok());
    CHECK(end.error().message.find("runs past the end (no \"END \" chunk)") != std::string::npos);
  }

  TEST_CASE("flipped bytes and truncations never crash and always error (seeded)") {
    const Bytes good = encode_navmesh(test::small_navmesh());
    for (std::size_t n = 0; n < good.size(); ++n) {
      const auto result =
          decode_navmesh(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
      CHECK_FALSE(result.ok());
    }
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::size_t> where(0, good.size() - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    int resealed_ok = 0;
    for (int iter = 0; iter < 3000; ++iter) {
      Bytes b = good;
      const int flips = 1 + iter % 4;
      for (int f = 0; f < flips; ++f) b[where(rng)] ^= static_cast<std::byte>(1 << bit(rng));
      if (b == good) continue;
      CHECK_FALSE(decode_navmesh(b).ok());
      // under a valid checksum the structural checks must hold the line on their own
      reseal(b);
      const auto result = decode_navmesh(b);
      if (result.ok()) {
        ++resealed_ok;
        CHECK(mesh::validate(*result).ok());
      }
    }
    MESSAGE("resealed mutations that still decode to a valid navmesh: " << resealed_ok);
  }

  TEST_CASE("a navmesh with jump links round-trips with identical content hashes") {
    const NavFile file = small_file();
    REQUIRE(jump::validate(*file.links, file.navmesh).ok());
    const Bytes bytes = encode_nav_file(file);
    const auto back = decode_nav_file(bytes, "x.lnav");
    REQUIRE(back.ok());
    check_valid(*back);
    REQUIRE(back->links.has_value());
    CHECK(jump::content_hash(*back->links) == jump::content_hash(*file.links));
    CHECK(back->links->links == file.links->links);  // same order: a link's index is its id
    CHECK(back->links->configs == file.links->configs);
    CHECK(back->links->group_first == file.links->group_first);
    CHECK(mesh::content_hash(back->navmesh) == mesh::content_hash(file.navmesh));
    CHECK(encode_nav_file(*back) == bytes);
    // 2 link chunks: 12 + 8 + 2 * 12 and 12 + 8 + 4 * 46 bytes
    CHECK(bytes.size() == encode_navmesh(file.navmesh).size() + 44 + 204);

    const auto navmesh_only = decode_navmesh(bytes, "x.lnav", LinkPolicy::Drop);
    REQUIRE(navmesh_only.ok());
    CHECK(mesh::content_hash(*navmesh_only) == mesh::content_hash(file.navmesh));
    // note: without LinkPolicy::Drop the navmesh-only reader refuses to lose the links
    const auto refused = decode_navmesh(bytes, "x.lnav");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::InvalidArgument);
    CHECK(refused.error().message.find("x.lnav: the file carries jump links") == 0);
  }

  TEST_CASE("without links the file is the plain navmesh file, and an empty link set stays") {
    const mesh::NavMesh m = test::small_navmesh();
    const Bytes plain = encode_nav_file(NavFile{m, std::nullopt});
    CHECK(plain == encode_navmesh(m));
    const auto back = decode_nav_file(plain);
    REQUIRE(back.ok());
    CHECK_FALSE(back->links.has_value());

    jump::JumpLinkSet empty;
    empty.configs = {jump::kJumpC3};
    jump::index_links(empty, m.polygon_count());
    const auto with_empty = decode_nav_file(encode_nav_file(NavFile{m, empty}));
    REQUIRE(with_empty.ok());
    REQUIRE(with_empty->links.has_value());
    CHECK(with_empty->links->links.empty());
    CHECK(with_empty->links->configs == empty.configs);
    CHECK(jump::content_hash(*with_empty->links) == jump::content_hash(empty));
    check_valid(*with_empty);
  }

  TEST_CASE("a reader that does not know the link chunks skips them (they are optional)") {
    Bytes renamed = encode_nav_file(small_file());
    renamed[payload_of(renamed, "jcfg") - 12] = std::byte{'x'};
    renamed[payload_of(renamed, "jlnk") - 12] = std::byte{'x'};
    reseal(renamed);
    const auto back = decode_nav_file(renamed, "x.lnav");
    REQUIRE(back.ok());
    CHECK_FALSE(back->links.has_value());
    CHECK(mesh::content_hash(back->navmesh) == mesh::content_hash(test::small_navmesh()));
  }

  TEST_CASE("the demo navmesh with generated links saves and loads with identical hashes") {
    const auto& demo = test::demo_file();
    REQUIRE_MESSAGE(demo.ok(), (demo.ok() ? "" : demo.error().message));
    REQUIRE(demo->links.has_value());
    REQUIRE(jump::validate(*demo->links, demo->navmesh).ok());
    CHECK(demo->links->links.size() > 10);
    MESSAGE("demo: " << demo->navmesh.polygon_count() << " polygons, " << demo->links->links.size()
                     << " links");
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "leapnav_demo_links.lnav";
    REQUIRE(save_nav_file(*demo, path).ok());
    CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));
    const auto back = load_nav_file(path);
    const auto navmesh_only = load_navmesh(path, LinkPolicy::Drop);
    const auto refused = load_navmesh(path);
    std::filesystem::remove(path);
    CHECK_FALSE(refused.ok());
    REQUIRE(back.ok());
    check_valid(*back);
    REQUIRE(back->links.has_value());
    CHECK(jump::content_hash(*back->links) == jump::content_hash(*demo->links));
    CHECK(back->links->links == demo->links->links);
    CHECK(mesh::content_hash(back->navmesh) == mesh::content_hash(demo->navmesh));
    REQUIRE(navmesh_only.ok());
    CHECK(mesh::content_hash(*navmesh_only) == mesh::content_hash(demo->navmesh));
  }

  TEST_CASE("save_nav_file refuses invalid links; load_nav_file reports missing files") {
    NavFile bad = small_file();
    bad.links->links[0].land_poly = 9;
    const auto path = std::filesystem::temp_directory_path() / "leapnav_bad_links.lnav";
    const auto refused = save_nav_file(bad, path);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::Internal);
    CHECK(refused.error().message.find("refusing to save invalid jump links") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(path));
    const auto missing = load_nav_file("/nonexistent/a.lnav");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
  }

  TEST_CASE("damaged link chunks under a valid checksum give specific errors") {
    const Bytes good = encode_nav_file(small_file());

    Bytes lone = good;
    erase_chunk(lone, "jlnk");
    check_error(lone, ErrorCode::CorruptFile, "x.lnav: chunk 'jcfg' without chunk 'jlnk'");
    Bytes lone_links = good;
    erase_chunk(lone_links, "jcfg");
    check_error(lone_links, ErrorCode::CorruptFile, "x.lnav: chunk 'jlnk' without chunk 'jcfg'");

    Bytes absurd = good;
    put_u64(absurd, payload_of(absurd, "jlnk"), std::uint64_t{1} << 60);
    reseal(absurd);
    check_error(absurd, ErrorCode::CorruptFile,
                "x.lnav: chunk 'jlnk': 1152921504606846976 links do not fit its 184 bytes");
    Bytes off_by_one = good;
    put_u64(off_by_one, payload_of(off_by_one, "jlnk"), 5);
    reseal(off_by_one);
    check_error(off_by_one, ErrorCode::CorruptFile,
                "x.lnav: chunk 'jlnk': 5 links do not fit its 184 bytes");
    Bytes configs = good;
    put_u64(configs, payload_of(configs, "jcfg"), ~std::uint64_t{0});
    reseal(configs);
    check_error(
        configs, ErrorCode::CorruptFile,
        "x.lnav: chunk 'jcfg': 18446744073709551615 configurations do not fit its 24 bytes");

    Bytes many = encode_navmesh(test::small_navmesh());
    insert_chunk(many, "jcfg", 8 + 65536 * 12);
    put_u64(many, payload_of(many, "jcfg"), 65536);
    reseal(many);
    check_error(many, ErrorCode::CorruptFile,
                "x.lnav: chunk 'jcfg': 65536 configurations (at most 65535)");

    Bytes twice = good;
    insert_chunk(twice, "jcfg", 8);
    put_u64(twice, payload_of(twice, "END ") - 12 - 8, 0);  // the inserted chunk's count
    reseal(twice);
    check_error(twice, ErrorCode::CorruptFile, "x.lnav: chunk 'jcfg': appears twice");

    // one 32-bit field of the good file overwritten, the file resealed: the error expected
    const auto check_u32_patch = [&good](std::size_t offset, std::uint32_t value, ErrorCode code,
                                         std::string_view message) {
      Bytes patched = good;
      put_u32(patched, offset, value);
      reseal(patched);
      check_error(patched, code, message);
    };
    check_u32_patch(payload_of(good, "jcfg") + 8 + 12 + 4, 0x7FC00000U,  // C2 distance
                    ErrorCode::NonFinite, "x.lnav: jump configuration 1 is not finite");

    Bytes negative = good;
    put_u32(negative, payload_of(negative, "jcfg") + 8, 0xBF800000U);  // C1 height -1
    reseal(negative);
    const auto invalid_config = decode_nav_file(negative, "x.lnav");
    REQUIRE_FALSE(invalid_config.ok());
    CHECK(invalid_config.error().code == ErrorCode::CorruptFile);
    CHECK(invalid_config.error().message.rfind("x.lnav: chunk 'jcfg': configuration 0: ", 0) == 0);

    check_u32_patch(link_at(good, 2, 24 + 8), 0x7F800000U,  // link 2 land_b z = inf
                    ErrorCode::NonFinite, "x.lnav: jump link 2 is not finite");

    Bytes config_index = good;
    put_u16(config_index, link_at(config_index, 0, 36), 7);
    reseal(config_index);
    check_error(config_index, ErrorCode::IndexOutOfRange,
                "x.lnav: jump link 0 uses configuration 7 (2 configurations)");

    check_u32_patch(link_at(good, 3, 42), 3, ErrorCode::IndexOutOfRange,
                    "x.lnav: jump link 3 names polygon 3 (3 polygons)");
    check_u32_patch(link_at(good, 0, 38), 0xFFFFFFFFU, ErrorCode::IndexOutOfRange,
                    "x.lnav: jump link 0 names polygon 4294967295 (3 polygons)");
    check_u32_patch(link_at(good, 2, 42), 1, ErrorCode::CorruptFile,
                    "x.lnav: chunk 'jlnk': jump link 2 lands in its start polygon 1");
    // link 0 becomes 1 -> 2, after link 1 (0 -> 2)
    check_u32_patch(link_at(good, 0, 38), 1, ErrorCode::CorruptFile,
                    "x.lnav: chunk 'jlnk': jump link 1 is out of order (links are sorted by start "
                    "polygon, land polygon, configuration)");

    Bytes trailing = good;
    put_u64(trailing, payload_of(trailing, "jlnk") - 8, 8 + 4 * 46 + 3);
    trailing.insert(trailing.begin() + static_cast<std::ptrdiff_t>(link_at(trailing, 4, 0)), 3,
                    std::byte{0});
    reseal(trailing);
    check_error(trailing, ErrorCode::CorruptFile,
                "x.lnav: chunk 'jlnk': 4 links do not fit its 187 bytes");

    mesh::NavMesh empty;
    empty.config = *named_config("thesis");
    empty.grid = test::small_navmesh().grid;
    const Bytes no_polys = encode_nav_file(NavFile{empty, test::small_links()});
    const auto empty_mesh = decode_nav_file(no_polys, "x.lnav");
    REQUIRE_FALSE(empty_mesh.ok());
    CHECK(empty_mesh.error().code == ErrorCode::IndexOutOfRange);
    CHECK(empty_mesh.error().message == "x.lnav: jump link 0 names polygon 0 (0 polygons)");
  }

  TEST_CASE("flipped bytes and truncations of files with links never crash (seeded)") {
    const Bytes good = encode_nav_file(small_file());
    for (std::size_t n = 0; n < good.size(); ++n)
      CHECK_FALSE(
          decode_nav_file(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n))).ok());
    const std::size_t links_from = payload_of(good, "jcfg") - 12;
    const int anywhere = mutate(good, 0, good.size(), 11, 2000);
    const int in_links = mutate(good, links_from, good.size() - 8, 13, 3000);
    MESSAGE("resealed mutations that still decode: " << anywhere << " anywhere, " << in_links
                                                     << " in the link chunks");

    const auto& demo = test::demo_file();
    REQUIRE(demo.ok());
    const Bytes big = encode_nav_file(*demo);
    const int demo_ok = mutate(big, payload_of(big, "jcfg") - 12, big.size() - 8, 17, 40);
    MESSAGE("demo file: resealed mutations in the link chunks that still decode: " << demo_ok);
  }
}
