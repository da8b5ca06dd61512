// The crash the resealing fuzzer found: a .lnav file whose stored configuration has a region area
// an int cannot hold in cells (min_region_area 1e12 m2 at 0.3 m cells) reached an out-of-range
// float -> int conversion in derive_voxel_params (undefined behaviour). The file is a corrupt
// file naming the key. The same bytes are in tests/fuzz/regressions/fuzz_navmesh_file/, which
// scripts/fuzz.sh replays under the sanitizers.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "io/navmesh_fixture.hpp"
#include "leapnav/io/navmesh_file.hpp"

using namespace leapnav;

TEST_SUITE("io.navmesh_file") {
  TEST_CASE("a stored region area beyond 2^31 - 1 cells is refused naming the key") {
    mesh::NavMesh nav = test::small_navmesh();
    nav.config.region.min_region_area = 1e12F;
    // note: the regression input predates "HGTC"; its heights are "HGHT"
    const std::vector<std::byte> bytes = io::encode_navmesh(nav, io::HeightEncoding::Raw);
    const auto decoded = io::decode_navmesh(bytes, "area.lnav");
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().message.find("region.min_region_area") != std::string::npos);
    const auto file = io::decode_nav_file(bytes, "area.lnav");
    REQUIRE_FALSE(file.ok());

    // the checked-in regression input is these bytes
    const auto regression = std::filesystem::path(LEAPNAV_SOURCE_DIR) / "tests" / "fuzz" /
                            "regressions" / "fuzz_navmesh_file" / "config_region_area_overflow";
    std::ifstream in(regression, std::ios::binary);
    REQUIRE(in.good());
    const std::vector<char> stored((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
    REQUIRE(stored.size() == bytes.size());
    CHECK(std::memcmp(stored.data(), bytes.data(), bytes.size()) == 0);
  }
}
