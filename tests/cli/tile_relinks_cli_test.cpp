// `leapnav build --tile-size N --cache F --jump ... --ledge-links` and `leapnav rebuild` with
// links: the rebuilt file (mesh, jump links, ledge links) has the bytes of a full tiled build of
// the new scene, a second rebuild from the updated cache gives the old file back, and a cache
// whose link data does not match the old file (written walk-only, or its F.links missing) is bad
// input naming it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/scenes.hpp"
#include "support/cli_run.hpp"

#ifdef LEAPNAV_CLI_PATH

namespace {

using leapnav::test::run_cli;

std::string temp_path(const std::string& name) {
  return leapnav::test::temp_file("leapnav_tile_relinks_cli_test", name);
}

// Two 1 m high platforms 6 m wide with a 5.75 m gap between x = 8 and 13.75 (the C2 gap scene),
// the far one running to x = 40 with a 1.5 m block on it; a 4 m pillar fixes the world's height;
// when `crate`, a 1.4 m crate on the near platform's edge at z = 3.6..4.4 (on the 4 m tile line of
// 16-cell tiles).
std::string write_gap(const std::string& name, bool crate) {
  leapnav::io::SceneBuilder b("gap");
  b.add_box({0, 0, 0}, {8, 1, 6});
  b.add_box({13.75F, 0, 0}, {40, 1, 6});
  b.add_box({0, 1, 0}, {0.5F, 4, 0.5F});
  b.add_box({24, 1, 0}, {28, 2.5F, 6});  // a 1.5 m block: drop links from its top
  if (crate) b.add_box({7.2F, 1, 3.6F}, {7.7F, 2.4F, 4.4F});
  std::string path = temp_path(name);
  REQUIRE(leapnav::io::write_obj(b.take(), path).ok());
  return path;
}

const std::string kLinkOptions = " --config thesis --tile-size 16 --jump C2 --step 2 --ledge-links";

}  // namespace

TEST_SUITE("cli.tile_relinks") {
  TEST_CASE("rebuild with jump and ledge links writes the full tiled build's bytes") {
    const std::string before = write_gap("before.obj", false);
    const std::string after = write_gap("after.obj", true);
    const std::string cache = temp_path("gap.cache");
    const std::string old_nav = temp_path("before.lnav");
    auto run = run_cli("build " + before + kLinkOptions + " --cache " + cache + " -o " + old_nav);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(std::filesystem::exists(cache + ".links"));
    const std::string plain = temp_path("plain.lnav");
    REQUIRE(run_cli("build " + before + kLinkOptions + " -o " + plain).exit_code == 0);
    CHECK(leapnav::test::read_file(plain) == leapnav::test::read_file(old_nav));

    const std::string full = temp_path("after_full.lnav");
    REQUIRE(run_cli("build " + after + kLinkOptions + " -o " + full).exit_code == 0);
    const std::string rebuilt = temp_path("after_rebuilt.lnav");
    const std::string stats = temp_path("rebuild.json");
    const std::string changed = " --changed 7.2,1,3.6,7.7,2.4,4.4";
    run = run_cli("rebuild " + old_nav + " " + after + " --cache " + cache + changed + " -o " +
                  rebuilt + " --stats " + stats);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(rebuilt) == leapnav::test::read_file(full));
    const auto json = nlohmann::json::parse(leapnav::test::read_file(stats));
    CHECK(json["jump_links"].get<int>() > 0);
    CHECK(json["ledge_links"].get<int>() > 0);
    CHECK(json["tiles_relinked"].get<int>() > 0);
    CHECK(json["tiles_links_reused"].get<int>() > 0);
    MESSAGE("relinked " << json["tiles_relinked"] << " of " << json["tiles"] << " tiles");

    // the cache and its link options now belong to the rebuilt file: take the crate away again
    const std::string back = temp_path("back.lnav");
    run = run_cli("rebuild " + rebuilt + " " + before + " --cache " + cache + changed + " -o " +
                  back);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(back) == leapnav::test::read_file(old_nav));
  }

  TEST_CASE("a cache without link data used with a linked file is bad input naming it") {
    const std::string scene = write_gap("walk.obj", false);
    const std::string cache = temp_path("walk.cache");
    const std::string walk_nav = temp_path("walk.lnav");
    REQUIRE(run_cli("build " + scene + " --config thesis --tile-size 16 --cache " + cache + " -o " +
                    walk_nav)
                .exit_code == 0);
    // the same navmesh with links, built without a cache
    const std::string linked = temp_path("linked.lnav");
    REQUIRE(run_cli("build " + scene + kLinkOptions + " -o " + linked).exit_code == 0);
    const std::string out = temp_path("out.lnav");
    const std::string tail = " --cache " + cache + " --changed 1,1,1,2,2,2 -o " + out;
    auto run = run_cli("rebuild " + linked + " " + scene + tail);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache + ".links") != std::string::npos);
    CHECK(run.output.find("jump links") != std::string::npos);
    // an F.links that went missing
    std::filesystem::remove(cache + ".links");
    run = run_cli("rebuild " + linked + " " + scene + tail);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("missing") != std::string::npos);
    // the walk-only file still rebuilds without it
    run = run_cli("rebuild " + walk_nav + " " + scene + tail);
    INFO(run.output);
    CHECK(run.exit_code == 0);
    // a damaged F.links
    std::ofstream(cache + ".links") << "{\"jumps\": 3}";
    run = run_cli("rebuild " + walk_nav + " " + scene + tail);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache + ".links") != std::string::npos);
    // a key given twice is named (the parser kept the last)
    std::ofstream(cache + ".links") << "{\"jumps\": [], \"jumps\": []}";
    run = run_cli("rebuild " + walk_nav + " " + scene + tail);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache + ".links: jumps is given twice") != std::string::npos);
  }
}

#endif
