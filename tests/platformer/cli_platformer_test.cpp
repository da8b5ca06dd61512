// `leapnav platformer` end to end: the graph and path JSON shapes, exit codes for bad input and
// usage, and the SVG/OBJ outputs.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "fixtures.hpp"

#ifdef LEAPNAV_CLI_PATH

namespace {

using Run = leapnav::test::CliRun;

Run run_cli(const std::string& args, bool merge_stderr = false) {
  return leapnav::test::run_cli(
      args, merge_stderr ? leapnav::test::Stderr::Merge : leapnav::test::Stderr::Discard);
}

std::string write_file(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / "leapnav_platformer_cli_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

}  // namespace

TEST_SUITE("cli.platformer") {
  TEST_CASE("--json prints nav points, the platform count and links in the documented shape") {
    const Run r =
        run_cli("platformer " + write_file("p2.txt", leapnav::platformer::test::kP2) + " --json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.output);
    CHECK(j["platforms"] == 3);
    REQUIRE(j["nav_points"].size() == 3);
    CHECK(j["nav_points"][2]["tile"] == nlohmann::json::array({2, 2}));
    CHECK(j["nav_points"][2]["platform"] == 2);
    CHECK(j["nav_points"][2]["type"] == "solo");
    REQUIRE(j["links"].size() == 4);
    const auto& jump = j["links"][0];
    CHECK(jump["kind"] == "jump");
    CHECK(jump["from"] == nlohmann::json::array({1, 1}));
    CHECK(jump["to"] == nlohmann::json::array({2, 2}));
    CHECK(jump["h"].get<double>() == doctest::Approx(1.1));
    CHECK(jump["speed"].get<double>() == doctest::Approx(2.1));
    CHECK(jump["direction"] == 1);
    CHECK(j["links"][2]["kind"] == "fall");
    CHECK_FALSE(j["links"][2].contains("direction"));
  }

  TEST_CASE("--from --to --json prints the path's status, cost and steps") {
    const std::string map = write_file("p6.txt", leapnav::platformer::test::kP6);
    Run r = run_cli("platformer " + map + " --from 1,1 --to 10,1 --json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.output);
    CHECK(j["status"] == "found");
    REQUIRE(j["steps"].size() == 5);
    CHECK(j["steps"][2]["kind"] == "jump");
    CHECK(j["steps"][2]["from"] == nlohmann::json::array({3, 1}));
    CHECK(j["cost"].get<double>() > 1.5);
    r = run_cli("platformer " + map + " --from 4,0 --to 2,3 --json");
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.output)["status"] == "goal_not_on_mesh");
  }

  TEST_CASE(
      "bad maps, parameters and tiles are exit 1 naming the input; malformed options exit 2") {
    const std::string bad = write_file("bad.txt", "platformer 3 2\n...\n.x.\n");
    Run r = run_cli("platformer " + bad, true);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("bad.txt:3: column 2: unexpected 'x'") != std::string::npos);
    CHECK(r.output.find("[parse_error]") != std::string::npos);
    const std::string map = write_file("p1.txt", leapnav::platformer::test::kP1);
    const std::string params = write_file("bad.json", R"({"g": 0})");
    r = run_cli("platformer " + map + " --params " + params, true);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("bad.json: 'g' = 0 is out of range") != std::string::npos);
    r = run_cli("platformer " + map + " --from 9,1 --to 1,1", true);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("start tile (9, 1) is outside the 6 x 3 map") != std::string::npos);
    CHECK(run_cli("platformer " + map + " --from 1,x --to 1,1").exit_code == 2);
    CHECK(run_cli("platformer " + map + " --from 1,1").exit_code == 2);
    CHECK(run_cli("platformer").exit_code == 2);
    CHECK(run_cli("platformer /no/such/map.txt").exit_code == 1);
  }

  TEST_CASE("--svg writes the picture and --obj the extruded level") {
    const std::string map = write_file("p3.txt", leapnav::platformer::test::kP3);
    const std::string svg = write_file("p3.svg", "");
    const std::string obj = write_file("p3.obj", "");
    const Run r =
        run_cli("platformer " + map + " --svg " + svg + " --obj " + obj + " --from 1,1 --to 5,3");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("path found") != std::string::npos);
    std::ifstream in(svg);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("<svg") == 0);
    CHECK(text.find("#d50000") != std::string::npos);
    CHECK(std::filesystem::file_size(obj) > 100);
  }
}

#endif
