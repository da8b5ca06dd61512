// `leapnav` with postures: a configuration with agent.crouch_height builds the archway (spec G7)
// with crouch polygons; `path --json` marks the crouching walk segment, `--no-crouch` finds no
// path, and the configuration keys are printed and checked. Runs the built executable.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#ifdef LEAPNAV_CLI_PATH

namespace {

using Run = leapnav::test::CliRun;

Run run_cli(const std::string& args) {
  return leapnav::test::run_cli(args, leapnav::test::Stderr::Discard);
}

/// A 10 x 4 m floor at y = 0 and a slab y in [1.2, 2] over x in [4, 6], as OBJ.
std::string archway_obj() {
  return "v 0 0 0\nv 0 0 4\nv 10 0 4\nv 10 0 0\n"
         "v 4 1.2 0\nv 6 1.2 0\nv 4 2 0\nv 6 2 0\nv 4 1.2 4\nv 6 1.2 4\nv 4 2 4\nv 6 2 4\n"
         "f 1 2 3\nf 1 3 4\n"
         "f 5 7 8\nf 5 8 6\nf 9 10 12\nf 9 12 11\nf 5 9 11\nf 5 11 7\n"
         "f 6 8 12\nf 6 12 10\nf 7 11 12\nf 7 12 8\nf 5 6 10\nf 5 10 9\n";
}

}  // namespace

TEST_SUITE("cli.postures") {
  TEST_CASE("path --json marks the crouching walk; --no-crouch has no path through the arch") {
    const auto dir = std::filesystem::temp_directory_path() / "leapnav_postures_cli_test";
    std::filesystem::create_directories(dir);
    const auto obj = (dir / "arch.obj").string();
    std::ofstream(obj) << archway_obj();
    const auto config = (dir / "crouch.json").string();
    std::ofstream(config) << R"({"voxel": {"cell_size": 0.1, "cell_height": 0.1},
      "agent": {"height": 1.8, "crouch_height": 1.0, "radius": 0.3, "max_climb": 0.4},
      "region": {"min_region_area": 0.64, "merge_region_area": 4}})";
    const Run shown = run_cli("config --show " + config);
    REQUIRE(shown.exit_code == 0);
    const auto json = nlohmann::json::parse(shown.output);
    CHECK(json["agent"]["crouch_height"] == 1.0);
    CHECK(json["agent"]["shape"] == "cylinder");

    const auto lnav = (dir / "arch.lnav").string();
    REQUIRE(run_cli("build " + obj + " -c " + config + " -o " + lnav).exit_code == 0);
    const std::string query = "path " + lnav + " --from 1,0,2 --to 9,0,2";
    const Run crouching = run_cli(query + " --json");
    REQUIRE(crouching.exit_code == 0);
    const auto path = nlohmann::json::parse(crouching.output);
    CHECK(path["status"] == "found");
    REQUIRE(path["segments"].size() == 3);
    CHECK_FALSE(path["segments"][0].contains("posture"));
    CHECK(path["segments"][1]["posture"] == "crouch");
    CHECK(path["segments"][1]["kind"] == "walk");
    CHECK_FALSE(path["segments"][2].contains("posture"));

    const Run standing = run_cli(query + " --json --no-crouch");
    REQUIRE(standing.exit_code == 0);
    CHECK(nlohmann::json::parse(standing.output)["status"] == "no_path");
    const Run costly = run_cli(query + " --json --crouch-cost 3");
    REQUIRE(costly.exit_code == 0);
    CHECK(nlohmann::json::parse(costly.output)["status"] == "found");
    CHECK(run_cli(query + " --crouch-cost 0").exit_code == 2);
  }

  TEST_CASE("a bad agent.shape or crouch_height is bad input naming the key") {
    const auto dir = std::filesystem::temp_directory_path() / "leapnav_postures_cli_test";
    std::filesystem::create_directories(dir);
    const auto shape = (dir / "shape.json").string();
    std::ofstream(shape) << R"({"agent": {"shape": "sphere"}})";
    const Run bad_shape = leapnav::test::run_cli("config --show " + shape);
    CHECK(bad_shape.exit_code == 1);
    CHECK(bad_shape.output.find("agent.shape = 'sphere'") != std::string::npos);
    const auto crouch = (dir / "crouch_high.json").string();
    std::ofstream(crouch) << R"({"agent": {"height": 1.8, "crouch_height": 1.9}})";
    const Run bad_crouch = leapnav::test::run_cli("build builtin:demo -c " + crouch + " -o " +
                                                  (dir / "x.lnav").string());
    CHECK(bad_crouch.exit_code == 1);
    CHECK(bad_crouch.output.find("agent.crouch_height") != std::string::npos);
  }
}

#endif
