// `leapnav build --ledge-links / --links`, `leapnav path [--no-ledge-links]` and `leapnav render
// --links` end to end on the built-in scene rise:1.25 (a ledge 1.25 m up across a 0.5 m gap).
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#ifdef LEAPNAV_CLI_PATH

namespace {

std::filesystem::path ledge_temp() {
  const auto dir = std::filesystem::temp_directory_path() / "leapnav_ledge_cli_test";
  std::filesystem::create_directories(dir);
  return dir;
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_SUITE("ledgelinks.cli") {
  TEST_CASE("build --ledge-links stores links a path climbs; --no-ledge-links plans without") {
    const auto dir = ledge_temp();
    write(dir / "cfg.json", R"({"base": "thesis", "agent": {"max_jump_up": 1.5}})");
    const std::string lnav = (dir / "rise.lnav").string();
    const auto built = leapnav::test::run_cli("build builtin:rise:1.25 --ledge-links --config " +
                                              (dir / "cfg.json").string() + " -o " + lnav);
    REQUIRE(built.exit_code == 0);
    CHECK(built.output.find("1 jump_up, 1 drop") != std::string::npos);
    const auto up = leapnav::test::run_cli("path " + lnav + " --from 2,1,3 --to 14,2.25,3 --json");
    CHECK(up.exit_code == 0);
    CHECK(up.output.find(R"("kind":"jump_up")") != std::string::npos);
    CHECK(up.output.find(R"("status":"found")") != std::string::npos);
    const auto down =
        leapnav::test::run_cli("path " + lnav + " --from 14,2.25,3 --to 2,1,3 --json");
    CHECK(down.output.find(R"("kind":"drop")") != std::string::npos);
    const auto off = leapnav::test::run_cli("path " + lnav +
                                            " --from 2,1,3 --to 14,2.25,3 --json --no-ledge-links");
    CHECK(off.exit_code == 0);
    CHECK(off.output.find(R"("status":"no_path")") != std::string::npos);
    const auto info = leapnav::test::run_cli("info " + lnav + " --json");
    CHECK(info.output.find(R"("ledge_links": 2)") != std::string::npos);
    CHECK(info.output.find(R"("valid": true)") != std::string::npos);
    const std::string svg = (dir / "rise.svg").string();
    REQUIRE(leapnav::test::run_cli("render " + lnav + " --links -o " + svg +
                                   " --from 2,1,3 --to 14,2.25,3")
                .exit_code == 0);
    const std::string picture = slurp(svg);
    CHECK(picture.find("jump_up links: 1") != std::string::npos);
    CHECK(picture.find("drop links: 1") != std::string::npos);
  }

  TEST_CASE("build --links with a ladder end off the mesh is bad input naming the ladder") {
    const auto dir = ledge_temp();
    write(dir / "ladders.json", R"({"ladders": [{"bottom": [2, 1, 3], "top": [50, 2, 3]}]})");
    const auto r =
        leapnav::test::run_cli("build builtin:rise:1 --links " + (dir / "ladders.json").string() +
                               " -o " + (dir / "x.lnav").string());
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("ladders.json: ladder 0: top (50, 2, 3) is not on the navmesh") !=
          std::string::npos);
  }
}

#endif
