// `leapnav build --tile-size N --cache F --links ladders.json` and `leapnav rebuild`: the ladders
// are kept by content in F.links, so a rebuild re-attaches them without the links file and writes
// the bytes of a full tiled build of the new scene with the same links file.
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
  return leapnav::test::temp_file("leapnav_tile_ladders_cli_test", name);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A 1 m floor (x 0..8) below a 3 m platform (x 8..16), 6 m deep: a 2 m wall no agent climbs,
// crossed by a ladder; when `crate`, a 1 m crate on the floor at x 3..4, z 1..2.
std::string write_wall(const std::string& name, bool crate) {
  leapnav::io::SceneBuilder b("wall");
  b.add_box({0, 0, 0}, {8, 1, 6});
  b.add_box({8, 0, 0}, {16, 3, 6});
  if (crate) b.add_box({3, 1, 1}, {4, 2, 2});
  std::string path = temp_path(name);
  REQUIRE(leapnav::io::write_obj(b.take(), path).ok());
  return path;
}

// "ledge_links" of a stats file: ledge links and ladder links (a ladder gives two, one each way).
int ledge_links(const std::string& stats) {
  return nlohmann::json::parse(leapnav::test::read_file(stats))["ledge_links"].get<int>();
}

}  // namespace

TEST_SUITE("cli.tile_ladders") {
  TEST_CASE("rebuild keeps the ladders of --links and writes the full tiled build's bytes") {
    const std::string before = write_wall("before.obj", false);
    const std::string after = write_wall("after.obj", true);
    const std::string ladders = temp_path("ladders.json");
    // note: a climb speed and coordinates that are not exact in binary, to see them kept bit for
    // bit through the sidecar's JSON
    write_text(ladders, R"({"ladders": [{"bottom": [7.1, 1, 3.3], "top": [8.9, 3, 3.3]}], )"
                        R"("climb_speed": 0.35})");
    const std::string options = " --tile-size 16 --links " + ladders;
    const std::string cache = temp_path("wall.cache");
    const std::string old_nav = temp_path("before.lnav");
    auto run = run_cli("build " + before + options + " --cache " + cache + " -o " + old_nav +
                       " --stats " + temp_path("build.json"));
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(ledge_links(temp_path("build.json")) == 2);
    // the ladders themselves are in F.links, not the links file's path
    const auto side = nlohmann::json::parse(leapnav::test::read_file(cache + ".links"));
    REQUIRE(side.contains("authored_links"));
    CHECK(side["authored_links"]["ladders"].size() == 1);
    CHECK(leapnav::test::read_file(cache + ".links").find("ladders.json") == std::string::npos);
    const std::string plain = temp_path("plain.lnav");
    REQUIRE(run_cli("build " + before + options + " -o " + plain).exit_code == 0);
    CHECK(leapnav::test::read_file(plain) == leapnav::test::read_file(old_nav));

    const std::string full = temp_path("after_full.lnav");
    REQUIRE(run_cli("build " + after + options + " -o " + full).exit_code == 0);
    // the links file is not needed any more: the rebuild reads the ladders from F.links
    std::filesystem::remove(ladders);
    const std::string rebuilt = temp_path("after_rebuilt.lnav");
    const std::string stats = temp_path("rebuild.json");
    const std::string changed = " --changed 3,1,1,4,2,2";
    run = run_cli("rebuild " + old_nav + " " + after + " --cache " + cache + changed + " -o " +
                  rebuilt + " --stats " + stats);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(rebuilt) == leapnav::test::read_file(full));
    CHECK(leapnav::test::read_file(rebuilt) != leapnav::test::read_file(old_nav));
    CHECK(ledge_links(stats) == 2);

    // and back: the cache and F.links now belong to the rebuilt file
    const std::string back = temp_path("back.lnav");
    run = run_cli("rebuild " + rebuilt + " " + before + " --cache " + cache + changed + " -o " +
                  back);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    CHECK(leapnav::test::read_file(back) == leapnav::test::read_file(old_nav));
  }

  TEST_CASE("a ladder an edit leaves off the mesh fails the rebuild naming F.links") {
    const std::string before = write_wall("off_before.obj", false);
    const std::string ladders = temp_path("off_ladders.json");
    write_text(ladders, R"({"ladders": [{"bottom": [3.5, 1, 1.5], "top": [8.9, 3, 3.3]}]})");
    const std::string cache = temp_path("off.cache");
    const std::string old_nav = temp_path("off_before.lnav");
    auto run = run_cli("build " + before + " --tile-size 16 --links " + ladders + " --cache " +
                       cache + " -o " + old_nav);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    // the crate covers the ladder's bottom: the full build refuses it, and so does the rebuild
    const std::string after = write_wall("off_after.obj", true);
    const std::string out = temp_path("off_after.lnav");
    run = run_cli("rebuild " + old_nav + " " + after + " --cache " + cache +
                  " --changed 3,1,1,4,2,2 -o " + out);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache + ".links: ladder 0: bottom") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
    // a damaged ladder in F.links is bad input naming it
    auto side = nlohmann::json::parse(leapnav::test::read_file(cache + ".links"));
    side["authored_links"]["ladders"][0]["top"] = "up";
    write_text(cache + ".links", side.dump());
    run = run_cli("rebuild " + old_nav + " " + before + " --cache " + cache +
                  " --changed 3,1,1,4,2,2 -o " + out);
    CHECK(run.exit_code == 1);
    CHECK(run.output.find(cache + ".links 'authored_links'") != std::string::npos);
  }
}

#endif
