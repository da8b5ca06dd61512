// Fuzz target: the .lnav reader (navmesh and jump links) on arbitrary bytes returns a file or an
// error, never crashes, asserts or over-allocates; what it returns passes validate and
// re-encodes to the same content.
#include <cstddef>
#include <cstdint>
#include <span>

#include "leapnav/core/assert.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
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
  return 0;
}
