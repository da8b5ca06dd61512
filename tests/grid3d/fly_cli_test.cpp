// `leapnav fly` end to end: one query, a batch, a .3dscen scenario and the documented exit codes.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#ifdef LEAPNAV_CLI_PATH

namespace {

using FlyRun = leapnav::test::CliRun;

FlyRun fly(const std::string& args) {
  return leapnav::test::run_cli("fly " + args);
}

std::string fly_file(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / "leapnav_fly_test";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '{') out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

// T10's scene: 5^3 with one blocked voxel.
const char* const kT10 = "voxel 5 5 5\n1 1 3\n";

}  // namespace

TEST_SUITE("cli.fly") {
  TEST_CASE("fly answers T10 on a .3dmap with the optimal cost and its turning points") {
    const std::string map = fly_file("t10.3dmap", kT10);
    for (const char* algo : {"astar", "jps", "jps-p", "jps-d", "jps-pd"}) {
      const FlyRun r = fly(map + " --from 1,0,3 --to 1,2,3 --json --algo " + algo);
      REQUIRE(r.exit_code == 0);
      const auto lines = json_lines(r.output);
      REQUIRE(lines.size() == 1);
      CHECK(lines[0]["status"] == "found");
      CHECK(std::abs(lines[0]["cost"].get<double>() - 2.0 * std::sqrt(2.0)) < 1e-9);
      CHECK(lines[0]["points"].front() == nlohmann::json::array({1, 0, 3}));
      CHECK(lines[0]["points"].back() == nlohmann::json::array({1, 2, 3}));
      CHECK(lines[0]["expanded"].get<int>() > 0);
    }
  }

  TEST_CASE("fly's depth budget is shared with the sub-sweeps by default; --depth-top is C1-O2") {
    // an empty 24^3 box with one blocker: the same cost either way; the shared budget stops the
    // sub-sweeps after K steps, so it touches fewer voxels than C1-O2's free sub-sweeps
    const std::string map = fly_file("open24.3dmap", "voxel 24 24 24\n12 12 12\n");
    const std::string query = map + " --from 0,0,0 --to 23,17,9 --json --depth 4 ";
    const FlyRun by_default = fly(query);
    const FlyRun shared = fly(query + "--depth-all");
    const FlyRun top = fly(query + "--depth-top");
    REQUIRE(by_default.exit_code == 0);
    REQUIRE(shared.exit_code == 0);
    REQUIRE(top.exit_code == 0);
    const auto a = json_lines(by_default.output);
    const auto b = json_lines(shared.output);
    const auto c = json_lines(top.output);
    REQUIRE((a.size() == 1 && b.size() == 1 && c.size() == 1));
    for (const char* key : {"cost", "expanded", "touched", "points"}) CHECK(a[0][key] == b[0][key]);
    CHECK(std::abs(a[0]["cost"].get<double>() - c[0]["cost"].get<double>()) < 1e-9);
    CHECK(a[0]["touched"].get<long>() < c[0]["touched"].get<long>());
    CHECK(fly(query + "--depth-all --depth-top").exit_code == 2);
  }

  TEST_CASE("fly --queries prints one JSON line per query with its status") {
    const std::string map = fly_file("t10q.3dmap", kT10);
    const std::string queries =
        fly_file("q.txt", "1 0 3 1 2 3\n# comment\n0 0 0 4 4 4\n0 0 0 9 9 9\n1 1 3 0 0 0\n");
    const FlyRun r = fly(map + " --queries " + queries);
    REQUIRE(r.exit_code == 0);
    const auto lines = json_lines(r.output);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0]["status"] == "found");
    CHECK(std::abs(lines[1]["cost"].get<double>() - 4.0 * std::sqrt(3.0)) < 1e-9);
    CHECK(lines[2]["status"] == "goal_outside");
    CHECK(lines[3]["status"] == "start_blocked");
    CHECK(r.output.find("4 queries, 2 found") != std::string::npos);
  }

  TEST_CASE("fly --scen compares with the scenario's optimal costs under nocut") {
    const std::string map = fly_file("s.3dmap", kT10);
    // the first cost is 4 sqrt 3 (a free diagonal); the second, 1.0, is below the distance 2
    const std::string scen =
        fly_file("s.3dscen", "version 1\ns.3dmap\n0 0 0 4 4 4 6.9282032 0\n1 0 3 1 2 3 1.0 0\n");
    const FlyRun r = fly(map + " --scen " + scen);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("2 queries, 0 without a path, 1 differing") != std::string::npos);
    CHECK(r.output.find("nocut") != std::string::npos);
  }

  TEST_CASE("fly on a scene plans in world coordinates") {
    // a floor and a ceiling 3 m above it, 10 m square
    const std::string obj =
        fly_file("room.obj",
                 "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 0 3 0\nv 10 3 0\nv 10 3 10\nv 0 3 10\n"
                 "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\n");
    const FlyRun r = fly(obj + " --voxel 0.5 --from 1,1,1 --to 9,2,9 --json");
    REQUIRE(r.exit_code == 0);
    const auto lines = json_lines(r.output);
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["status"] == "found");
    CHECK(std::abs(lines[0]["length_m"].get<double>() - 0.5 * lines[0]["cost"].get<double>()) <
          1e-9);
  }

  TEST_CASE("fly reports bad input with exit 1 and usage errors with exit 2") {
    const std::string map = fly_file("e.3dmap", kT10);
    FlyRun r = fly(fly_file("bad.3dmap", "voxel 4 4 4\n1 2 9\n") + " --from 0,0,0 --to 1,1,1");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("bad.3dmap:2: voxel (1, 2, 9) is outside the 4 x 4 x 4 map") !=
          std::string::npos);
    r = fly(map + " --queries " + fly_file("badq.txt", "1 2 3\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("badq.txt:1: expected six numbers") != std::string::npos);
    r = fly(map + " --from 0,0,0 --to 1,1,1 --algo dfs");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("'dfs' is not an algorithm") != std::string::npos);
    r = fly(map + " --from 0.5,0,0 --to 1,1,1");
    CHECK(r.exit_code == 1);
    r = fly(map + " --from 0,0,0");
    CHECK(r.exit_code == 2);
    r = fly(map + " --from 0,0 --to 1,1,1");
    CHECK(r.exit_code == 2);
    r = fly(map + " --from 0,0,0 --to 1,1,1 --depth 0");
    CHECK(r.exit_code == 2);
  }

  TEST_CASE(
      "fly's depth options are usage errors with astar, jps and jps-p, which have no depth "
      "limit") {
    const std::string map = fly_file("t10.3dmap", kT10);
    const std::string query = map + " --from 1,0,3 --to 1,2,3 ";
    for (const char* algo : {"astar", "jps", "jps-p"}) {
      for (const char* option : {"--depth 2", "--depth-all", "--depth-top"}) {
        const FlyRun r = fly(query + option + " --algo " + algo);
        CHECK(r.exit_code == 2);
        const std::string name = std::string(option).substr(0, std::string(option).find(' '));
        const std::string message = " applies to jps-d and jps-pd only, not to --algo ";
        CHECK(r.output.find("leapnav fly: " + name + message + algo) != std::string::npos);
      }
    }
    for (const char* algo : {"jps-d", "jps-pd"}) {
      for (const char* option : {"--depth 2", "--depth-all", "--depth-top"}) {
        CHECK(fly(query + option + " --algo " + algo).exit_code == 0);
      }
    }
    // a bad algorithm name stays bad input, whatever depth option is given
    CHECK(fly(query + "--depth 2 --algo dfs").exit_code == 1);
  }
}

#endif
