// Fuzz target: the .lnav reader (navmesh and jump links) on arbitrary bytes returns a file or an
// error, never crashes, asserts or over-allocates; what it returns passes validate and
// re-encodes to the same content. Each input is decoded twice: as it is (the framing: magic,
// version, size, checksum) and resealed, with its declared size and trailing checksum rewritten
// to match, so that mutations reach the chunk readers behind the checksum (as given, almost no
// mutation passes it).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/assert.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace {

// note: the header is the magic and version (4 bytes each) then the file size (u64,
// little-endian); the last 8 bytes are the content hash of everything before them
constexpr std::size_t kSizeOffset = 8;
constexpr std::size_t kMinResealSize = 36;

void put_u64(std::vector<std::byte>& b, std::size_t at, std::uint64_t value) {
  for (std::size_t i = 0; i < 8; ++i) b[at + i] = static_cast<std::byte>(value >> (8 * i));
}

void check(std::span<const std::byte> bytes) {
  const auto file = leapnav::io::decode_nav_file(bytes, "fuzz.lnav");
  if (file.ok()) {
    LEAPNAV_ASSERT(leapnav::mesh::validate(file->navmesh).ok(), "decoded navmesh fails validate");
    if (file->links) {
      LEAPNAV_ASSERT(leapnav::jump::validate(*file->links, file->navmesh).ok(),
                     "decoded jump links fail validate");
    }
    const auto again = leapnav::io::decode_nav_file(leapnav::io::encode_nav_file(*file), "again");
    LEAPNAV_ASSERT(again.ok(), "re-encoded file does not decode");
    LEAPNAV_ASSERT(
        leapnav::mesh::content_hash(again->navmesh) == leapnav::mesh::content_hash(file->navmesh),
        "round trip changed the navmesh");
  }
  // the navmesh-only reader must agree on what is valid
  const auto navmesh =
      leapnav::io::decode_navmesh(bytes, "fuzz.lnav", leapnav::io::LinkPolicy::Drop);
  LEAPNAV_ASSERT(navmesh.ok() == file.ok(), "decode_navmesh and decode_nav_file disagree");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  check(bytes);
  if (size >= kMinResealSize) {
    std::vector<std::byte> sealed(bytes.begin(), bytes.end());
    put_u64(sealed, kSizeOffset, size);
    leapnav::ContentHasher hasher;
    hasher.add_bytes(sealed.data(), size - 8);
    put_u64(sealed, size - 8, hasher.digest());
    check(sealed);
  }
  return 0;
}
