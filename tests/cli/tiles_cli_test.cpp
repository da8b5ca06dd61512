// `leapnav build --tile-size`: a tiled build is saved and read back by the other commands, gives
// the same file for 1 and 2 threads (with jump links too, which pass check-links), ledge links
// are built on the stitched mesh, and bad tile options are bad input (exit 1) naming them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_run.hpp"

#ifdef LEAPNAV_CLI_PATH

namespace {

using leapnav::test::run_cli;

std::string temp_path(const std::string& name) {
  return leapnav::test::temp_file("leapnav_tiles_cli_test", name);
}

}  // namespace

TEST_SUITE("cli.tiles") {
  TEST_CASE("a tiled build is saved, identical for 1 and 2 threads, and paths run on it") {
    const std::string one = temp_path("city_t1.lnav");
    const std::string two = temp_path("city_t2.lnav");
    const auto a = run_cli("build builtin:city:2 --tile-size 32 --threads 1 -o " + one);
    INFO(a.output);
    REQUIRE(a.exit_code == 0);
    CHECK(a.output.find("tiles of 32 cells") != std::string::npos);
    const auto b = run_cli("build builtin:city:2 --tile-size 32 --threads 2 -o " + two);
    REQUIRE(b.exit_code == 0);
    CHECK(leapnav::test::read_file(one) == leapnav::test::read_file(two));
    const auto info = run_cli("info " + one);
    INFO(info.output);
    CHECK(info.exit_code == 0);
    const auto path = run_cli("path " + one + " --from 36,0.2,36 --to 76,0.2,76");
    INFO(path.output);
    CHECK(path.exit_code == 0);
    CHECK(path.output.find("found") != std::string::npos);
  }

  TEST_CASE("path --unload-tiles reports an end in an unloaded tile; a bad tile is bad input") {
    const std::string file = temp_path("city_unload.lnav");
    REQUIRE(run_cli("build builtin:city:2 --tile-size 32 -o " + file).exit_code == 0);
    const std::string query = "path " + file + " --from 36,0.2,36 --to 76,0.2,76";
    const auto bad = run_cli(query + " --unload-tiles 100000");
    INFO(bad.output);
    CHECK(bad.exit_code == 1);
    CHECK(bad.output.find("tile 100000 out of range") != std::string::npos);
    CHECK(bad.output.find("city_unload.lnav") != std::string::npos);
    // the message gives the tile count: unload every tile
    const auto at = bad.output.find(" tiles)");
    REQUIRE(at != std::string::npos);
    const auto open = bad.output.rfind('(', at);
    const int count = std::stoi(bad.output.substr(open + 1, at - open - 1));
    REQUIRE(count > 1);
    std::string all;
    for (int t = 0; t < count; ++t) all += (t == 0 ? "" : ",") + std::to_string(t);
    const auto cut = run_cli(query + " --unload-tiles " + all);
    INFO(cut.output);
    CHECK(cut.exit_code == 0);
    CHECK(cut.output.find("no_path") != std::string::npos);
    CHECK(cut.output.find("start or goal in unloaded tile") != std::string::npos);
    const auto json = run_cli(query + " --json --unload-tiles " + all);
    CHECK(json.output.find("\"blocked_by_unloaded_tiles\":true") != std::string::npos);
    CHECK(json.output.find("\"unloaded_tile\":") != std::string::npos);
  }

  TEST_CASE("a tile size out of range is bad input naming --tile-size") {
    const auto run = run_cli("build builtin:city:1 --tile-size 8 -o " + temp_path("bad.lnav"));
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("tile_size") != std::string::npos);
  }

  TEST_CASE("jump links with tiles pass check-links and give the same file for 1 and 2 threads") {
    const std::string one = temp_path("gap_t1.lnav");
    const std::string two = temp_path("gap_t2.lnav");
    const std::string options = " -c thesis --jump C2 --tile-size 32 ";
    const std::string stats = temp_path("gap_t1.json");
    const auto a =
        run_cli("build builtin:gap:5.75" + options + "--threads 1 -o " + one + " --stats " + stats);
    INFO(a.output);
    REQUIRE(a.exit_code == 0);
    CHECK(a.output.find("compact jump links") != std::string::npos);
    CHECK(a.output.find("landing in another tile") != std::string::npos);
    const auto b = run_cli("build builtin:gap:5.75" + options + "--threads 2 -o " + two);
    REQUIRE(b.exit_code == 0);
    CHECK(leapnav::test::read_file(one) == leapnav::test::read_file(two));
    const auto check = run_cli("check-links " + one + " builtin:gap:5.75");
    INFO(check.output);
    CHECK(check.exit_code == 0);
    CHECK(check.output.find(" 0 failing") != std::string::npos);
    CHECK(check.output.find(" 0 links checked") == std::string::npos);
    // the tiles' runs are summed into --stats (a run has a base and at least one member)
    const auto runs = nlohmann::json::parse(leapnav::test::read_file(stats));
    CHECK(runs.at("jump_runs").get<int>() > 0);
    CHECK(runs.at("jump_run_links").get<int>() >= 2 * runs.at("jump_runs").get<int>());
    // --no-link-runs reaches the tiled build too: the same links in more bytes
    const auto plain = run_cli("build builtin:gap:5.75" + options + "--no-link-runs -o " + two +
                               " --stats " + stats);
    REQUIRE(plain.exit_code == 0);
    CHECK(leapnav::test::read_file(two).size() > leapnav::test::read_file(one).size());
    CHECK(nlohmann::json::parse(leapnav::test::read_file(stats)).at("jump_runs").get<int>() == 0);
  }

  TEST_CASE("ledge links are built on a tiled mesh; a missing --links file is bad input") {
    // note: the untiled build of rise:0.5 has the same two links (step up and step down)
    const auto ledges =
        run_cli("build builtin:rise:0.5 --tile-size 64 --ledge-links -o " + temp_path("l.lnav"));
    INFO(ledges.output);
    CHECK(ledges.exit_code == 0);
    CHECK(ledges.output.find(", 2 ledge links (0 of 2 candidates") != std::string::npos);
    const auto ladders =
        run_cli("build builtin:city:1 --tile-size 32 --links none.json -o " + temp_path("l2.lnav"));
    CHECK(ladders.exit_code == 1);
    CHECK(ladders.output.find("none.json") != std::string::npos);
  }
}

#endif
