// `leapnav build --cache` and `leapnav rebuild`: the rebuilt file has the bytes of a full tiled
// build of the new scene, the cache is updated in place (a second rebuild starts from it), the
// .lnav of a cached build is the plain tiled build's, and caches that do not fit are bad input
// (exit 1) naming the cache file.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/io/tile_cache_file.hpp"
#include "support/cli_run.hpp"

#ifdef LEAPNAV_CLI_PATH

namespace {

using leapnav::test::run_cli;

std::string temp_path(const std::string& name) {
  return leapnav::test::temp_file("leapnav_tile_rebuild_cli_test", name);
}

// A 30 m floor, a 4 m pillar (fixes the world's height) and, when `crate`, a 1 m crate at
// (23..25, 23..25), inside tile (2, 2) only.
std::string write_room(const std::string& name, bool crate) {
  leapnav::io::SceneBuilder b("room");
  b.add_quad({0, 0, 0}, {0, 0, 30}, {30, 0, 30}, {30, 0, 0});
  b.add_box({0.5F, 0, 0.5F}, {1.5F, 4, 1.5F});
  if (crate) b.add_box({23, 0, 23}, {25, 1, 25});
  std::string path = temp_path(name);
  REQUIRE(leapnav::io::write_obj(b.take(), path).ok());
  return path;
}

}  // namespace

TEST_SUITE("cli.tile_rebuild") {
  TEST_CASE("rebuild writes the full tiled build's bytes and updates the cache in place") {
    const std::string before = write_room("before.obj", false);
    const std::string after = write_room("after.obj", true);
    const std::string cache = temp_path("room.cache");
    const std::string old_nav = temp_path("before.lnav");
    auto run = run_cli("build " + before + " --tile-size 32 --cache " + cache + " -o " + old_nav);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    const std::string plain = temp_path("plain.lnav");
    REQUIRE(run_cli("build " + before + " --tile-size 32 -o " + plain).exit_code == 0);
    CHECK(leapnav::test::read_file(plain) == leapnav::test::read_file(old_nav));

    const std::string full = temp_path("after_full.lnav");
    REQUIRE(run_cli("build " + after + " --tile-size 32 -o " + full).exit_code == 0);
    const std::string rebuilt = temp_path("after_rebuilt.lnav");
    const std::string stats = temp_path("rebuild.json");
    run = run_cli("rebuild " + old_nav + " " + after + " --cache " + cache +
                  " --changed 23,0,23,25,1,25 -o " + rebuilt + " --stats " + stats);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(rebuilt) == leapnav::test::read_file(full));
    const auto json = nlohmann::json::parse(leapnav::test::read_file(stats));
    CHECK(json["tiles"] == 16);
    // the crate's tile (2, 2) and the last tile (3, 3), 4 columns wide: its piece of the floor
    // is smaller than min_region_area inside its bordered rectangle, so its island filter
    // measured the floor on columns 80..99 of the tiles before it (TileMesh::island_reads)
    CHECK(json["tiles_rebuilt"] == 2);
    CHECK(json["tiles_reused"] == 14);
    for (const char* key : {"rebuild", "stitch", "write", "tiles", "hash_load"})
      CHECK(json["times_ms"][key].get<double>() >= 0.0);
    // the old file's navmesh took the result in place, and only the tiles near the edit were
    // hashed again (the rest of the hash came from the parts made at load)
    CHECK(json["spliced_in_place"] == true);
    CHECK(json["tiles_rehashed"].get<int>() > 0);
    // the old file is the one written beside the cache: its hash parts came from the cache
    CHECK(json["hash_parts_from_cache"] == true);

    // the cache now belongs to the rebuilt file: take the crate away again
    const std::string back = temp_path("back.lnav");
    run = run_cli("rebuild " + rebuilt + " " + before + " --cache " + cache +
                  " --changed 23,0,23,25,1,25 -o " + back);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(back) == leapnav::test::read_file(old_nav));
    // and the old file no longer matches it (its checksum is not the cache's: it is hashed,
    // and its hash is another navmesh's)
    run = run_cli("rebuild " + rebuilt + " " + before + " --cache " + cache +
                  " --changed 23,0,23,25,1,25 -o " + temp_path("x.lnav"));
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache) != std::string::npos);
  }

  TEST_CASE("a .lnav whose checksum is not the cache's is hashed, to the same output files") {
    const std::string before = write_room("k_before.obj", false);
    const std::string after = write_room("k_after.obj", true);
    const std::string cache = temp_path("k_room.cache");
    const std::string other_cache = temp_path("k_other.cache");
    const std::string old_nav = temp_path("k_before.lnav");
    REQUIRE(run_cli("build " + before + " --tile-size 32 --cache " + cache + " -o " + old_nav)
                .exit_code == 0);
    // the same cache, but recording another .lnav checksum
    auto loaded = leapnav::io::load_tile_cache(cache);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->nav_file_checksum != 0);
    REQUIRE(loaded->hash_parts.size() == loaded->tiles.size());
    loaded->nav_file_checksum ^= 1U;
    REQUIRE(leapnav::io::save_tile_cache(*loaded, other_cache).ok());
    const std::string a = temp_path("k_a.lnav");
    const std::string b = temp_path("k_b.lnav");
    const std::string stats_a = temp_path("k_a.json");
    const std::string stats_b = temp_path("k_b.json");
    auto run = run_cli("rebuild " + old_nav + " " + after + " --cache " + cache +
                       " --changed 23,0,23,25,1,25 -o " + a + " --stats " + stats_a);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    run = run_cli("rebuild " + old_nav + " " + after + " --cache " + other_cache +
                  " --changed 23,0,23,25,1,25 -o " + b + " --stats " + stats_b);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(nlohmann::json::parse(leapnav::test::read_file(stats_a))["hash_parts_from_cache"] ==
          true);
    CHECK(nlohmann::json::parse(leapnav::test::read_file(stats_b))["hash_parts_from_cache"] ==
          false);
    // the same .lnav and the same cache file (parts remade by hashing are the saved ones)
    CHECK(leapnav::test::read_file(a) == leapnav::test::read_file(b));
    CHECK(leapnav::test::read_file(cache) == leapnav::test::read_file(other_cache));
  }

  TEST_CASE("rebuild --check-outside hashes every tile and rebuilds an edit the box missed") {
    const std::string before = write_room("o_before.obj", false);
    const std::string after = write_room("o_after.obj", true);
    const std::string cache = temp_path("o_room.cache");
    const std::string old_nav = temp_path("o_before.lnav");
    REQUIRE(run_cli("build " + before + " --tile-size 32 --cache " + cache + " -o " + old_nav)
                .exit_code == 0);
    const std::string full = temp_path("o_after_full.lnav");
    REQUIRE(run_cli("build " + after + " --tile-size 32 -o " + full).exit_code == 0);
    const std::string rebuilt = temp_path("o_after_rebuilt.lnav");
    const std::string stats = temp_path("o_rebuild.json");
    // the box names the pillar's corner, not the crate
    auto run =
        run_cli("rebuild " + old_nav + " " + after + " --cache " + cache +
                " --changed 2,0,2,3,1,3 --check-outside -o " + rebuilt + " --stats " + stats);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(rebuilt) == leapnav::test::read_file(full));
    const auto json = nlohmann::json::parse(leapnav::test::read_file(stats));
    CHECK(json["tiles_listed"] == 16);
    CHECK(json["tiles_outside_changed"].get<int>() > 0);
    CHECK_FALSE(json["warnings"].empty());
  }

  TEST_CASE("caches that do not fit, and bad options, are bad input naming the input") {
    const std::string before = write_room("b2.obj", false);
    const std::string cache = temp_path("b2.cache");
    const std::string nav = temp_path("b2.lnav");
    REQUIRE(
        run_cli("build " + before + " --tile-size 32 --cache " + cache + " -o " + nav).exit_code ==
        0);
    const std::string out = temp_path("b2_out.lnav");
    const std::string base = "rebuild " + nav + " " + before + " --cache " + cache + " -o " + out;
    // another tile size, another configuration
    auto run = run_cli(base + " --changed 1,0,1,2,1,2 --tile-size 64");
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache) != std::string::npos);
    run = run_cli(base + " --changed 1,0,1,2,1,2 --config thesis");
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache) != std::string::npos);
    // a bad box
    run = run_cli(base + " --changed 1,0,1,2,1");
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("--changed") != std::string::npos);
    // a damaged cache
    std::string bytes = leapnav::test::read_file(cache);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x20);
    const std::string damaged = temp_path("damaged.cache");
    std::ofstream(damaged, std::ios::binary) << bytes;
    run = run_cli("rebuild " + nav + " " + before + " --cache " + damaged +
                  " --changed 1,0,1,2,1,2 -o " + out);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(damaged) != std::string::npos);
    // a .lnav given as the cache
    run = run_cli("rebuild " + nav + " " + before + " --cache " + nav +
                  " --changed 1,0,1,2,1,2 -o " + out);
    CHECK(run.exit_code == 1);
    // --cache without tiles
    run = run_cli("build " + before + " --cache " + cache + " -o " + out);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("--cache") != std::string::npos);
    // a --links file that is not one (ladders are kept in the cache: tile_ladders_cli_test.cpp)
    run = run_cli("build " + before + " --tile-size 32 --links " + before + " --cache " + cache +
                  " -o " + out);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(before) != std::string::npos);
  }
}

#endif
