// The "jlkq" chunk (lattice link sets, link_compact.hpp): a set whose coordinates lie on the
// lattice round-trips bit for bit, a set off its lattice is refused on save, and damaged payloads
// (a link count beyond the groups, a lattice index out of range, an unknown quantum, the chunk
// beside "jlnk") are reported as corrupt files naming the chunk. The "jlkr" chunk (the same with
// runs of translated links): a run round-trips as one item, and a run longer than its group, a
// missing shape reference or the chunk beside "jlkq" are corrupt files.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "io/links_fixture.hpp"
#include "io/navmesh_fixture.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/jumplinks/link_compact.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

using Bytes = std::vector<std::byte>;

std::uint64_t read_u64(const Bytes& b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::to_integer<std::uint64_t>(b[at + i]) << (8 * i);
  return v;
}

void write_u64(Bytes& b, std::size_t at, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) b[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
}

void reseal(Bytes& b) {
  write_u64(b, 8, b.size());
  ContentHasher h;
  h.add_bytes(b.data(), b.size() - 8);
  write_u64(b, b.size() - 8, h.digest());
}

std::size_t payload_at(const Bytes& b, std::string_view tag) {
  std::size_t at = 16;
  while (at + 12 <= b.size()) {
    if (std::memcmp(b.data() + at, tag.data(), 4) == 0) return at + 12;
    at += 12 + read_u64(b, at + 4);
  }
  return 0;
}

NavFile lattice_file() {
  NavFile file;
  file.navmesh = test::small_navmesh();
  file.links = test::small_links();
  file.links->quantum = jump::lattice_quantum(9);
  return file;
}

// Offsets in the "jlkq" payload of the small set: u64 C, C x 12 bytes, u8 e, u64 L, u64 G.
struct Layout {
  std::size_t payload = 0;
  std::size_t shift = 0;
  std::size_t links = 0;
  std::size_t groups = 0;
};

Layout layout(const Bytes& b) {
  Layout l;
  l.payload = payload_at(b, "jlkq");
  REQUIRE(l.payload != 0);
  l.shift = l.payload + 8 + read_u64(b, l.payload) * 12;
  l.links = l.shift + 1;
  l.groups = l.links + 8;
  return l;
}

// A lattice set with a run: four exact translates (0.25 m apart along x) in group (0, 2, C1),
// then one link in group (1, 0, C1). Written as "jlkr".
NavFile run_file() {
  NavFile file;
  file.navmesh = test::small_navmesh();
  jump::JumpLinkSet set;
  set.configs = {jump::kJumpC1, jump::kJumpC2};
  for (int i = 0; i < 4; ++i) {
    const float dx = 0.25F * static_cast<float>(i);
    set.links.push_back({{1 + dx, 0, 1}, {0.5F + dx, 2, 0.5F}, {1.5F + dx, 2, 0.5F}, 0, 0, 2});
  }
  set.links.push_back({{4, 0, 1}, {2.5F, 0, 1}, {2.5F, 0, 2}, 0, 1, 0});
  jump::index_links(set, 3);
  set.quantum = jump::lattice_quantum(9);
  file.links = set;
  return file;
}

// The first item's code byte in the "jlkr" payload of run_file(): after u64 C, C x 12 bytes,
// u8 e, u64 L, u64 G and the first group's four one-byte header varints.
std::size_t first_code_at(const Bytes& b) {
  const std::size_t payload = payload_at(b, "jlkr");
  REQUIRE(payload != 0);
  return payload + 8 + read_u64(b, payload) * 12 + 1 + 8 + 8 + 4;
}

void check_corrupt(const Bytes& b, std::string_view what) {
  const auto result = decode_nav_file(b, "q.lnav");
  REQUIRE(!result.ok());
  CHECK(result.error().code == ErrorCode::CorruptFile);
  CHECK(result.error().message.find(what) != std::string::npos);
}

}  // namespace

TEST_SUITE("io.lattice_links") {
  TEST_CASE("a lattice link set round-trips bit for bit in fewer bytes than plain links") {
    const NavFile file = lattice_file();
    REQUIRE(jump::validate_compact(*file.links, file.navmesh).ok());
    const Bytes bytes = encode_nav_file(file);
    CHECK(payload_at(bytes, "jlkq") != 0);
    CHECK(payload_at(bytes, "jlnk") == 0);
    CHECK(payload_at(bytes, "jcfg") == 0);
    auto loaded = decode_nav_file(bytes, "q.lnav");
    REQUIRE(loaded.ok());
    REQUIRE(loaded->links.has_value());
    CHECK(loaded->links->quantum == file.links->quantum);
    CHECK(loaded->links->links == file.links->links);
    CHECK(jump::content_hash(*loaded->links) == jump::content_hash(*file.links));
    NavFile plain = file;
    plain.links->quantum = 0.0F;
    CHECK(jump_link_file_bytes(*file.links) < jump_link_file_bytes(plain.links.value()));
    CHECK(jump_link_file_bytes(*file.links) == bytes.size() - encode_navmesh(file.navmesh).size());
  }

  TEST_CASE("save_nav_file_sized reports the bytes it wrote and jump_link_file_bytes' count") {
    NavFile plain = lattice_file();
    plain.links->quantum = 0.0F;
    NavFile none = lattice_file();
    none.links.reset();
    // "jlkq", "jlkr", plain "jcfg" + "jlnk", no links
    for (const NavFile& file : {lattice_file(), run_file(), plain, none}) {
      const auto path = std::filesystem::temp_directory_path() / "leapnav_sized.lnav";
      const auto saved = save_nav_file_sized(file, path);
      REQUIRE(saved.ok());
      const Bytes bytes = encode_nav_file(file);
      CHECK(saved->file_bytes == bytes.size());
      CHECK(saved->file_bytes == std::filesystem::file_size(path));
      const std::uint64_t expected = file.links ? jump_link_file_bytes(*file.links) : 0;
      CHECK(saved->jump_link_bytes == expected);
      CHECK(saved->jump_link_bytes == bytes.size() - encode_navmesh(file.navmesh).size());
      auto loaded = load_nav_file(path);
      REQUIRE(loaded.ok());
      CHECK(loaded->links.has_value() == file.links.has_value());
      std::filesystem::remove(path);
    }
  }

  TEST_CASE("a set off its lattice is refused on save") {
    NavFile file = lattice_file();
    file.links->links[0].start.x += 0.3F * file.links->quantum;
    const auto path = std::filesystem::temp_directory_path() / "leapnav_lattice_off.lnav";
    const Status s = save_nav_file(file, path);
    REQUIRE(!s.ok());
    CHECK(s.error().code == ErrorCode::Internal);
    CHECK(s.error().message.find("off the lattice") != std::string::npos);
    CHECK(!std::filesystem::exists(path));
  }

  TEST_CASE("damaged lattice chunks are corrupt files that name the problem") {
    const Bytes good = encode_nav_file(lattice_file());
    const Layout at = layout(good);
    SUBCASE("more links declared than the groups hold") {
      Bytes b = good;
      write_u64(b, at.links, read_u64(b, at.links) + 1);
      reseal(b);
      check_corrupt(b, "jlkq");
    }
    SUBCASE("a quantum exponent above 16") {
      Bytes b = good;
      b[at.shift] = std::byte{17};
      reseal(b);
      check_corrupt(b, "quantum exponent 17");
    }
    SUBCASE("a lattice index out of range") {
      Bytes b = good;
      // the first link's start x delta: the varint after the first group's four header varints
      std::size_t p = at.groups + 8;
      for (int v = 0; v < 4; ++v)
        while ((std::to_integer<unsigned>(b[p++]) & 0x80U) != 0) {
        }
      // replace it by a 4-byte varint of 2^26 (zig-zag 2^27): beyond 2^24 quanta
      const std::uint64_t z = std::uint64_t{1} << 27;
      const Bytes varint = {static_cast<std::byte>((z & 0x7F) | 0x80),
                            static_cast<std::byte>(((z >> 7) & 0x7F) | 0x80),
                            static_cast<std::byte>(((z >> 14) & 0x7F) | 0x80),
                            static_cast<std::byte>((z >> 21) & 0x7F)};
      std::size_t old_end = p;
      while ((std::to_integer<unsigned>(b[old_end++]) & 0x80U) != 0) {
      }
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(p),
              b.begin() + static_cast<std::ptrdiff_t>(old_end));
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(p), varint.begin(), varint.end());
      const std::size_t chunk_size_at = at.payload - 8;
      write_u64(b, chunk_size_at, read_u64(b, chunk_size_at) + 4 - (old_end - p));
      reseal(b);
      check_corrupt(b, "lattice");
    }
    SUBCASE("beside the plain link chunks") {
      NavFile plain = lattice_file();
      plain.links->quantum = 0.0F;
      Bytes b = encode_nav_file(plain);
      // append the lattice chunk of the good file before "END "
      const std::size_t chunk = at.payload - 12;
      const std::size_t size = 12 + read_u64(good, at.payload - 8);
      const std::size_t end = payload_at(b, "END ") - 12;
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(end),
               good.begin() + static_cast<std::ptrdiff_t>(chunk),
               good.begin() + static_cast<std::ptrdiff_t>(chunk + size));
      reseal(b);
      check_corrupt(b, "one link set per file");
    }
  }

  TEST_CASE("a run of translated links round-trips bit for bit as one item") {
    const NavFile file = run_file();
    const Bytes bytes = encode_nav_file(file);
    CHECK(payload_at(bytes, "jlkr") != 0);
    CHECK(payload_at(bytes, "jlkq") == 0);
    // one item of four links: code 3 << 3 (no shared start, no shape reference, new translation)
    CHECK(std::to_integer<unsigned>(bytes[first_code_at(bytes)]) == (3U << 3U));
    auto loaded = decode_nav_file(bytes, "r.lnav");
    REQUIRE(loaded.ok());
    REQUIRE(loaded->links.has_value());
    CHECK(loaded->links->links == file.links->links);
    CHECK(jump::content_hash(*loaded->links) == jump::content_hash(*file.links));
    CHECK(jump_link_file_bytes(*file.links) == bytes.size() - encode_navmesh(file.navmesh).size());
  }

  TEST_CASE("damaged run chunks are corrupt files that name the problem") {
    const Bytes good = encode_nav_file(run_file());
    const std::size_t code = first_code_at(good);
    SUBCASE("a run longer than its group") {
      Bytes b = good;
      b[code] = static_cast<std::byte>(4U << 3U);  // five links in a group of four
      reseal(b);
      check_corrupt(b, "does not fit its group");
    }
    SUBCASE("a shape taken from an item that does not exist") {
      Bytes b = good;
      b[code] = static_cast<std::byte>((3U << 3U) | 2U);  // the group's first item
      reseal(b);
      check_corrupt(b, "missing earlier shape");
    }
    SUBCASE("a repeated translation on a single link") {
      Bytes b = good;
      b[code] = static_cast<std::byte>(1U);
      reseal(b);
      check_corrupt(b, "repeats a translation but is no run");
    }
    SUBCASE("beside the jlkq chunk") {
      const Bytes old = encode_nav_file(lattice_file());
      const std::size_t payload = payload_at(old, "jlkq");
      REQUIRE(payload != 0);
      Bytes b = good;
      const std::size_t size = 12 + read_u64(old, payload - 8);
      const std::size_t end = payload_at(b, "END ") - 12;
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(end),
               old.begin() + static_cast<std::ptrdiff_t>(payload - 12),
               old.begin() + static_cast<std::ptrdiff_t>(payload - 12 + size));
      reseal(b);
      check_corrupt(b, "one link set per file");
    }
  }
}
