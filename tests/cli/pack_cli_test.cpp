// `leapnav pack`: a tiled .lnav with jump links (or ledge links) becomes a tile pack whose blocks
// assemble to the same navmesh and links; an untiled file, a missing file and a damaged file are
// refused with exit 1 and a message naming the file.

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/streaming/tile_pack.hpp"
#include "support/cli_run.hpp"

using leapnav::test::run_cli;
using leapnav::test::temp_file;

TEST_SUITE("cli.pack") {
  TEST_CASE("pack writes a tiled file with jump links as a pack that assembles to the same file") {
    const std::string nav = temp_file("leapnav_pack_cli", "gap.lnav");
    const std::string pack = temp_file("leapnav_pack_cli", "gap.lnavpack");
    REQUIRE(
        run_cli("build builtin:gap:1 --config thesis --tile-size 16 --jump C1 --step 2 -o " + nav)
            .exit_code == 0);
    const auto run = run_cli("pack " + nav + " -o " + pack);
    REQUIRE(run.exit_code == 0);
    CHECK(run.output.find("tiles") != std::string::npos);
    auto file = leapnav::io::load_nav_file(nav);
    REQUIRE(file.ok());
    REQUIRE(file->links.has_value());
    auto source = leapnav::stream::PackTileSource::open(pack);
    REQUIRE(source.ok());
    std::vector<leapnav::stream::TileBlock> blocks;
    for (std::uint32_t t = 0; t < (*source)->layout().tile_count(); ++t) {
      auto b = (*source)->read(t);
      REQUIRE(b.ok());
      blocks.push_back(std::move(b).value());
    }
    std::vector<const leapnav::stream::TileBlock*> all;
    for (const auto& b : blocks) all.push_back(&b);
    auto assembled = leapnav::stream::assemble_tiles((*source)->layout(), all);
    REQUIRE(assembled.ok());
    CHECK(leapnav::mesh::content_hash(assembled->mesh) ==
          leapnav::mesh::content_hash(file->navmesh));
    CHECK(assembled->links->links == file->links->links);

    // the tile size given must be the build's
    const auto wrong = run_cli("pack " + nav + " --tile-size 5 -o " + pack);
    CHECK(wrong.exit_code == 1);
    CHECK(wrong.output.find("gap.lnav") != std::string::npos);
  }

  TEST_CASE("pack writes a tiled file with ledge links; its blocks assemble to the same links") {
    const std::string nav = temp_file("leapnav_pack_cli", "ledges.lnav");
    const std::string pack = temp_file("leapnav_pack_cli", "ledges.lnavpack");
    REQUIRE(run_cli("build builtin:demo --tile-size 32 --ledge-links -o " + nav).exit_code == 0);
    auto file = leapnav::io::load_nav_file(nav);
    REQUIRE(file.ok());
    REQUIRE(file->ledges.has_value());
    REQUIRE_FALSE(file->ledges->links.empty());
    const auto run = run_cli("pack " + nav + " -o " + pack);
    REQUIRE(run.exit_code == 0);
    // "<pack>: T tiles (X x Z of 32 cells), P polygons, 0 jump links, N ledge and ladder links,
    // ..."
    CHECK(run.output.find("of 32 cells") != std::string::npos);
    CHECK(run.output.find(", " + std::to_string(file->ledges->links.size()) +
                          " ledge and ladder links, ") != std::string::npos);
    auto source = leapnav::stream::PackTileSource::open(pack);
    REQUIRE(source.ok());
    CHECK((*source)->layout().ledges);
    std::vector<leapnav::stream::TileBlock> blocks;
    for (std::uint32_t t = 0; t < (*source)->layout().tile_count(); ++t) {
      auto b = (*source)->read(t);
      REQUIRE(b.ok());
      blocks.push_back(std::move(b).value());
    }
    std::vector<const leapnav::stream::TileBlock*> all;
    for (const auto& b : blocks) all.push_back(&b);
    auto assembled = leapnav::stream::assemble_tiles((*source)->layout(), all);
    REQUIRE(assembled.ok());
    CHECK(leapnav::mesh::content_hash(assembled->mesh) ==
          leapnav::mesh::content_hash(file->navmesh));
    REQUIRE(assembled->ledges.has_value());
    CHECK(assembled->ledges->links == file->ledges->links);
  }

  TEST_CASE("pack refuses an untiled file, a missing and a damaged file") {
    const std::string flat = temp_file("leapnav_pack_cli", "flat.lnav");
    const std::string pack = temp_file("leapnav_pack_cli", "out.lnavpack");
    REQUIRE(run_cli("build builtin:demo -o " + flat).exit_code == 0);
    auto untiled = run_cli("pack " + flat + " -o " + pack);
    CHECK(untiled.exit_code == 1);
    CHECK(untiled.output.find("flat.lnav: not a tiled navmesh") != std::string::npos);

    auto missing = run_cli("pack " + temp_file("leapnav_pack_cli", "none.lnav") + " -o " + pack);
    CHECK(missing.exit_code == 1);
    CHECK(missing.output.find("none.lnav") != std::string::npos);

    const std::string bad = temp_file("leapnav_pack_cli", "bad.lnav");
    std::string bytes = leapnav::test::read_file(flat);
    bytes.resize(bytes.size() / 2);
    std::ofstream(bad, std::ios::binary | std::ios::trunc) << bytes;
    auto damaged = run_cli("pack " + bad + " -o " + pack);
    CHECK(damaged.exit_code == 1);
    CHECK(damaged.output.find("bad.lnav") != std::string::npos);

    CHECK(run_cli("pack " + flat).exit_code == 2);  // no -o
  }
}
