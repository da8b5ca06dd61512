// Fuzz target: the whole build on small random triangle soups with random valid configurations.
// Input bytes are decoded (build_input.hpp) into a configuration (cell sizes, agent) and up to 64
// triangles in a 20 m box; any result must be an error or a navmesh that passes validate().
#include <cstddef>
#include <cstdint>

#include "build_input.hpp"
#include "leapnav/core/assert.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/mesh/build.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = leapnav::fuzz::decode_build_input(data, size);
  if (!input) return 0;
  leapnav::BuildContext ctx;
  ctx.set_threads(1);
  ctx.set_memory_limit(std::uint64_t{512} << 20U);
  const auto out = leapnav::mesh::build_navmesh(input->mesh, input->config, ctx);
  if (out.ok()) {
    LEAPNAV_ASSERT(leapnav::mesh::validate(out->navmesh).ok(), "build produced an invalid navmesh");
  }
  return 0;
}
