// Inputs that once crashed the fuzz_build target (tests/fuzz/regressions/fuzz_build/), replayed
// through the ordinary test binary so that the Release and sanitizer lanes keep them fixed.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz/build_input.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/mesh/build.hpp"

TEST_SUITE("mesh.fuzz_regressions") {
  TEST_CASE("every saved fuzz_build crash input builds a valid navmesh or a clear error") {
    const std::filesystem::path dir =
        std::filesystem::path(LEAPNAV_SOURCE_DIR) / "tests" / "fuzz" / "regressions" / "fuzz_build";
    REQUIRE(std::filesystem::is_directory(dir));
    int replayed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      CAPTURE(entry.path().filename().string());
      std::ifstream file(entry.path(), std::ios::binary);
      const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                                            std::istreambuf_iterator<char>());
      const auto input = leapnav::fuzz::decode_build_input(bytes.data(), bytes.size());
      REQUIRE(input.has_value());
      for (const int threads : {1, 2}) {
        leapnav::BuildContext ctx;
        ctx.set_threads(threads);
        const auto out = leapnav::mesh::build_navmesh(input->mesh, input->config, ctx);
        if (out.ok()) {
          CHECK(leapnav::mesh::validate(out->navmesh).ok());
        } else {
          CHECK_FALSE(out.error().message.empty());
        }
      }
      ++replayed;
    }
    CHECK(replayed >= 1);
  }
}
