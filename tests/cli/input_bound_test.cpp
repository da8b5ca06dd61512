// Every file the platformer and fly commands read is bounded as build's inputs are: a regular file
// past half of --max-memory is refused before it is read, a pipe or device once it passes the
// bound, each with a message naming it and exit 1; query lines are bounded too.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli_run.hpp"

#ifdef LEAPNAV_CLI_PATH

using leapnav::test::run_cli;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("leapnav_input_bound_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

constexpr const char* kTooLarge =
    "the file has 3145728 bytes, more than the 1048576 bytes an "
    "input may have (half the memory limit; see --max-memory) "
    "[memory_limit]";
constexpr const char* kDevice =
    "/dev/zero: not read further: it gave more than the 1048576 "
    "bytes an input may have (half the memory limit; see "
    "--max-memory) [memory_limit]";

}  // namespace

TEST_SUITE("cli.input_bound") {
  TEST_CASE("platformer refuses a tile map or parameter file past half of --max-memory") {
    const std::string map = write_temp("map.txt", "platformer 3 2\n...\n###\n");
    REQUIRE(run_cli("platformer " + map + " --max-memory 2").exit_code == 0);
    const std::string big = write_temp("big.txt", std::string(3U << 20U, '.'));
    for (const std::string& args :
         {"platformer " + big, "platformer " + map + " --params " + big}) {
      CAPTURE(args);
      const auto r = run_cli(args + " --max-memory 2");
      CHECK(r.exit_code == 1);
      CHECK(r.output.find(big + ": " + kTooLarge) != std::string::npos);
    }
    for (const std::string& args :
         {std::string("platformer /dev/zero"), "platformer " + map + " --params /dev/zero"}) {
      CAPTURE(args);
      const auto r = run_cli(args + " --max-memory 2");
      CHECK(r.exit_code == 1);
      CHECK(r.output.find(kDevice) != std::string::npos);
    }
  }

  TEST_CASE("fly refuses a .3dmap, .3dscen or query device past half of --max-memory") {
    const std::string map = write_temp("grid.3dmap", "voxel 4 4 4\n1 1 1\n");
    const std::string scen =
        write_temp("grid.3dscen", "version 1\ngrid.3dmap\n0 0 0 3 3 3 5.196 0\n");
    const std::string ok = run_cli("fly " + map + " --scen " + scen + " --max-memory 2").output;
    REQUIRE_MESSAGE(ok.find("1 queries, 0 without a path") != std::string::npos, ok);
    const std::string big_map = write_temp("big.3dmap", std::string(3U << 20U, ' '));
    auto r = run_cli("fly " + big_map + " --from 0,0,0 --to 1,1,1 --max-memory 2");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find(big_map + ": " + kTooLarge) != std::string::npos);
    const std::string big_scen = write_temp("big.3dscen", std::string(3U << 20U, ' '));
    r = run_cli("fly " + map + " --scen " + big_scen + " --max-memory 2");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find(big_scen + ": " + kTooLarge) != std::string::npos);
    r = run_cli("fly " + map + " --scen /dev/zero --max-memory 2");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find(kDevice) != std::string::npos);
    // note: queries are streamed with bounded lines, so /dev/zero is one overlong line
    r = run_cli("fly " + map + " --queries /dev/zero");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("/dev/zero:1: line longer than 4096 bytes; not a query file "
                        "[parse_error]") != std::string::npos);
    // a scene is bounded as build's input is
    r = run_cli("fly /dev/zero --from 0,0,0 --to 1,1,1 --max-memory 2");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find(kDevice) != std::string::npos);
  }
}

#endif  // LEAPNAV_CLI_PATH
