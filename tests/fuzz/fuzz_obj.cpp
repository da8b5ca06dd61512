// Fuzz target: the OBJ reader on arbitrary bytes must return a mesh or an error, never crash,
// hang or read out of bounds; a returned mesh must pass validate().
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "leapnav/core/assert.hpp"
#include "leapnav/io/obj.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto up : {leapnav::io::UpAxis::Y, leapnav::io::UpAxis::Z}) {
    leapnav::io::ObjOptions options;
    options.up = up;
    const auto mesh = leapnav::io::parse_obj(text, "fuzz.obj", options);
    if (mesh.ok()) {
      LEAPNAV_ASSERT(leapnav::validate(*mesh).ok(), "parse_obj returned an invalid mesh");
      LEAPNAV_ASSERT(!mesh->triangles.empty(), "parse_obj returned a mesh without triangles");
    }
  }
  return 0;
}
