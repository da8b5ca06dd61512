// The leapnav command as a new user meets it: unknown words, options that only mean something with
// another option, and figures the command prints, each with its documented exit code and a message
// that names the input.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#ifdef LEAPNAV_CLI_PATH

namespace {

using Run = leapnav::test::CliRun;
using leapnav::test::run_cli;
using leapnav::test::temp_file;

}  // namespace

TEST_SUITE("cli.audit") {
  TEST_CASE("an unknown command is a usage error naming the word") {
    const Run r = run_cli("bulid builtin:demo -o x.lnav");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("'bulid' is not a command") != std::string::npos);
    CHECK(r.output.find('\n') == r.output.size() - 1);  // one line
    // a command, --help and --version still parse as before
    CHECK(run_cli("--version").exit_code == 0);
    CHECK(run_cli("info --help").exit_code == 0);
    CHECK(run_cli("").exit_code == 2);
  }
  TEST_CASE("info reports the bytes the jump links take in the file as build --stats does") {
    const std::string lnav = temp_file("leapnav_cli_audit", "bytes.lnav");
    const std::string stats = temp_file("leapnav_cli_audit", "bytes.json");
    REQUIRE(
        run_cli("build builtin:gap:1.25 --config thesis --jump C1 -o " + lnav + " --stats " + stats)
            .exit_code == 0);
    std::ifstream in(stats);
    const auto built = nlohmann::json::parse(in);
    const Run info = run_cli("info --json " + lnav, leapnav::test::Stderr::Discard);
    REQUIRE(info.exit_code == 0);
    const auto read = nlohmann::json::parse(info.output);
    CHECK(read["jump_bytes"] == built["jump_bytes"]);
    CHECK(read["jump_memory_bytes"] == built["jump_memory_bytes"]);
    // the compact set's file bytes are far fewer than its bytes in memory
    CHECK(read["jump_bytes"].get<std::uint64_t>() < read["jump_memory_bytes"].get<std::uint64_t>());
    const Run text = run_cli("info " + lnav);
    CHECK(text.output.find("(" + built["jump_bytes"].dump() + " bytes in the file, " +
                           built["jump_memory_bytes"].dump() + " in memory)") != std::string::npos);
  }
  TEST_CASE("build options that shape jump links or tiles are usage errors without them") {
    const std::string lnav = temp_file("leapnav_cli_audit", "ignored.lnav");
    for (const char* option :
         {"--step 2", "--epsilon 0.5", "--link-set full", "--detour 1", "--no-link-runs",
          "--keep-walkable-links", "--walkable-filter links"}) {
      CAPTURE(option);
      const Run r = run_cli("build builtin:gap:1.25 -o " + lnav + " " + option);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find("requires --jump") != std::string::npos);
    }
    const Run border = run_cli("build builtin:gap:1.25 -o " + lnav + " --tile-border 5");
    CHECK(border.exit_code == 2);
    CHECK(border.output.find("--tile-border requires --tile-size") != std::string::npos);
    const Run both = run_cli("build builtin:gap:1.25 -o " + lnav +
                             " --jump C1 --keep-walkable-links --walkable-filter links");
    CHECK(both.exit_code == 2);
    CHECK(both.output.find("--keep-walkable-links excludes --walkable-filter") !=
          std::string::npos);
    // with what they need they build
    CHECK(run_cli("build builtin:gap:1.25 --config thesis -o " + lnav +
                  " --jump C1 --step 2 --link-set full --walkable-filter links")
              .exit_code == 0);
    CHECK(run_cli("build builtin:gap:1.25 -o " + lnav + " --tile-size 16 --tile-border 5")
              .exit_code == 0);
  }
  TEST_CASE("export --scene reads the level under --max-memory as every input is read") {
    const std::string lnav = temp_file("leapnav_cli_audit", "glb_scene.lnav");
    const std::string glb = temp_file("leapnav_cli_audit", "glb_scene.glb");
    REQUIRE(run_cli("build builtin:gap:1.25 -o " + lnav).exit_code == 0);
    const Run device =
        run_cli("export " + lnav + " -o " + glb + " --scene /dev/zero --max-memory 4");
    CHECK(device.exit_code == 1);
    CHECK(device.output.find("/dev/zero: not read further: it gave more than the 2097152 bytes") !=
          std::string::npos);
    const Run generated =
        run_cli("export " + lnav + " -o " + glb + " --scene builtin:terrain:256 --max-memory 1024");
    CHECK(generated.exit_code == 1);
    CHECK(generated.output.find("builtin:terrain:256 would need") != std::string::npos);
    CHECK(generated.output.find("[memory_limit]") != std::string::npos);
    CHECK(run_cli("export " + lnav + " -o " + glb + " --scene builtin:gap:1.25 --max-memory 64")
              .exit_code == 0);
  }
  TEST_CASE("export and render refuse options their output would ignore") {
    const std::string lnav = temp_file("leapnav_cli_audit", "ignore.lnav");
    REQUIRE(run_cli("build builtin:gap:1.25 --config thesis --jump C1 -o " + lnav).exit_code == 0);
    const std::string json = temp_file("leapnav_cli_audit", "ignore.json");
    const std::string glb = temp_file("leapnav_cli_audit", "ignore.glb");
    const std::string svg = temp_file("leapnav_cli_audit", "ignore.svg");
    const std::string png = temp_file("leapnav_cli_audit", "ignore.png");
    // glTF options with a JSON or OBJ output
    for (const char* option :
         {"--links", "--scene builtin:gap:1.25", "--fill area", "--from 1,0,1 --to 2,0,2"}) {
      CAPTURE(option);
      const Run r = run_cli("export " + lnav + " -o " + json + " " + option);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find("applies to a .glb output only, not " + json) != std::string::npos);
    }
    // query options without a path, --max-links without links
    for (const std::string& command :
         {"export " + lnav + " -o " + glb, "render " + lnav + " -o " + svg}) {
      CAPTURE(command);
      const Run cost = run_cli(command + " --jump-cost 2");
      CHECK(cost.exit_code == 2);
      CHECK(cost.output.find("--jump-cost requires --from") != std::string::npos);
      const Run links = run_cli(command + " --max-links 5");
      CHECK(links.exit_code == 2);
      CHECK(links.output.find("--max-links requires --links") != std::string::npos);
      CHECK(run_cli(command + " --links --max-links 5 --from 1,0,1 --to 2,0,2 --no-jumps")
                .exit_code == 0);
    }
    // render writes SVG: a .png output name would hold SVG text
    const Run named_png = run_cli("render " + lnav + " -o " + png);
    CHECK(named_png.exit_code == 2);
    CHECK(named_png.output.find("-o " + png + ": the output is SVG") != std::string::npos);
    // a malformed point names its value; a file without links is bad input in the usual form
    const Run point = run_cli("render " + lnav + " -o " + svg + " --from 1,2 --to 1,1,1");
    CHECK(point.exit_code == 2);
    CHECK(point.output.find("--from: '1,2' is not a point x,y,z") != std::string::npos);
    const std::string plain = temp_file("leapnav_cli_audit", "plain.lnav");
    REQUIRE(run_cli("build builtin:gap:1.25 -o " + plain).exit_code == 0);
    const Run no_links = run_cli("render " + plain + " -o " + svg + " --links");
    CHECK(no_links.exit_code == 1);
    CHECK(no_links.output.find("leapnav: error: " + plain + ": has no jump or ledge links") !=
          std::string::npos);
    CHECK(no_links.output.find("[invalid_argument]") != std::string::npos);
  }
  TEST_CASE("fly and platformer refuse options their input or output does not read") {
    const std::string map = temp_file("leapnav_cli_audit", "box.3dmap");
    std::ofstream(map) << "voxel 4 4 4\n1 1 1\n";
    const Run voxel = run_cli("fly " + map + " --from 0,0,0 --to 3,3,3 --voxel 0.5");
    CHECK(voxel.exit_code == 2);
    CHECK(voxel.output.find("--voxel applies to a scene only, not to the voxel map " + map) !=
          std::string::npos);
    const Run fine = run_cli("fly " + map + " --from 0,0,0 --to 3,3,3");
    CHECK(fine.exit_code == 0);
    CHECK(fine.output.find("found") != std::string::npos);

    const std::string tiles = temp_file("leapnav_cli_audit", "tiles.txt");
    std::ofstream(tiles) << "platformer 3 2\n...\n...\n";
    for (const char* option : {"--tile-size 2", "--depth 3"}) {
      CAPTURE(option);
      const Run r = run_cli("platformer " + tiles + " " + option);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find("requires --obj") != std::string::npos);
    }
    const std::string obj = temp_file("leapnav_cli_audit", "tiles.obj");
    CHECK(run_cli("platformer " + tiles + " --obj " + obj + " --tile-size 2 --depth 3").exit_code ==
          0);
    CHECK(std::filesystem::file_size(obj) > 0);
  }
  TEST_CASE("scene --list and config --list refuse the options they would ignore") {
    const std::string out = temp_file("leapnav_cli_audit", "listed.obj");
    const Run scene = run_cli("scene --list -o " + out);
    CHECK(scene.exit_code == 2);
    CHECK(scene.output.find("--output excludes --list") != std::string::npos);
    CHECK(run_cli("scene demo --list").exit_code == 2);
    const Run config = run_cli("config --list --show thesis");
    CHECK(config.exit_code == 2);
    CHECK(config.output.find("--show excludes --list") != std::string::npos);
    const Run listed = run_cli("config --list");
    CHECK(listed.exit_code == 0);
    CHECK(listed.output == "default\nthesis\n");
    const Run listed_scenes = run_cli("scene --list");
    CHECK(listed_scenes.exit_code == 0);
    // the forms builtin: takes, not bare names that it refuses ("gap" needs a width)
    CHECK(listed_scenes.output.find("gap:W with W in 0.25..16\n") != std::string::npos);
    CHECK(listed_scenes.output.find("\ngap\n") == std::string::npos);
  }
  TEST_CASE("the figures docs/cli.md quotes: gap:1.25 gives 26 compact and 91 full C1 links") {
    const std::string lnav = temp_file("leapnav_cli_audit", "gap_doc.lnav");
    const Run compact = run_cli("build builtin:gap:1.25 --config thesis --jump C1 -o " + lnav);
    REQUIRE(compact.exit_code == 0);
    CHECK(compact.output.find(", 26 compact jump links") != std::string::npos);
    const Run check = run_cli("check-links " + lnav + " builtin:gap:1.25");
    CHECK(check.output.find("26 links checked") != std::string::npos);
    CHECK(check.output.find(" 0 failing") != std::string::npos);
    const Run full =
        run_cli("build builtin:gap:1.25 --config thesis --jump C1 --link-set full -o " + lnav);
    REQUIRE(full.exit_code == 0);
    CHECK(full.output.find(", 91 full jump links") != std::string::npos);
  }
  TEST_CASE(
      "check-links refuses a scene the file was not built from before checking, naming both") {
    const std::string lnav = temp_file("leapnav_cli_audit", "gap_other.lnav");
    REQUIRE(run_cli("build builtin:gap:1.25 --config thesis --jump C1 -o " + lnav).exit_code == 0);
    // note: the check itself would sweep every link through the other scene's triangles (a
    // city's 200,000 links through a terrain ran for more than 5 minutes) or, with no triangles
    // near the links, pass them all
    for (const char* name : {"builtin:demo", "builtin:gap:1.5", "builtin:city:1"}) {
      const std::string other = name;
      CAPTURE(other);
      const Run r = run_cli("check-links " + lnav + " " + other);
      CHECK(r.exit_code == 1);
      CHECK(r.output.find("links checked") == std::string::npos);
      CHECK(r.output.find(lnav + ": " + other + ": not the scene the navmesh was built from") !=
            std::string::npos);
      CHECK(r.output.find("the navmesh's grid is origin (0, 0, 0), 69 x 24 x 5 cells of 0.25 x "
                          "0.25 m (give the scene and --up it was built with)") !=
            std::string::npos);
    }
    CHECK(run_cli("check-links " + lnav + " builtin:gap:1.25").exit_code == 0);
  }
  TEST_CASE("links checked against their scene with a wall added inside its bounds fail: exit 1") {
    // gap:1.25 (two 8 x 1 x 6 m blocks 1.25 m apart) and a post in a corner that makes the bounds
    // 4 m tall; the other scene adds a 4 m wall in the gap, inside the same bounds
    const auto box = [](std::string& obj, int& first, const std::string& lo,
                        const std::string& hi) {
      const std::string x[2] = {lo.substr(0, lo.find(' ')), hi.substr(0, hi.find(' '))};
      const std::string y[2] = {lo.substr(lo.find(' ') + 1, lo.rfind(' ') - lo.find(' ') - 1),
                                hi.substr(hi.find(' ') + 1, hi.rfind(' ') - hi.find(' ') - 1)};
      const std::string z[2] = {lo.substr(lo.rfind(' ') + 1), hi.substr(hi.rfind(' ') + 1)};
      for (int k = 0; k < 8; ++k)
        obj += "v " + x[k & 1] + " " + y[(k >> 1) & 1] + " " + z[(k >> 2) & 1] + "\n";
      // corners k = x + 2 y + 4 z; two triangles a face
      const int faces[12][3] = {{0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2},
                                {1, 3, 7}, {1, 7, 5}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
      for (const auto& f : faces) {
        obj += "f " + std::to_string(first + f[0]) + " " + std::to_string(first + f[1]) + " " +
               std::to_string(first + f[2]) + "\n";
      }
      first += 8;
    };
    std::string base;
    int first = 1;
    box(base, first, "0 0 0", "8 1 6");
    box(base, first, "9.25 0 0", "17.25 1 6");
    box(base, first, "16.75 0 5.5", "17.25 4 6");
    std::string walled = base;
    box(walled, first, "8.5 0 0", "8.75 4 6");
    const std::string base_obj = temp_file("leapnav_cli_audit", "gap_post.obj");
    const std::string walled_obj = temp_file("leapnav_cli_audit", "gap_wall.obj");
    std::ofstream(base_obj) << base;
    std::ofstream(walled_obj) << walled;
    const std::string lnav = temp_file("leapnav_cli_audit", "gap_post.lnav");
    REQUIRE(run_cli("build " + base_obj + " --config thesis --jump C1 -o " + lnav).exit_code == 0);
    const Run same = run_cli("check-links " + lnav + " " + base_obj);
    CHECK(same.exit_code == 0);
    CHECK(same.output.find(" 0 failing") != std::string::npos);
    // the report, then exit 1 naming the count
    const Run wrong = run_cli("check-links " + lnav + " " + walled_obj);
    CHECK(wrong.exit_code == 1);
    CHECK(wrong.output.find(" failing (") != std::string::npos);
    CHECK(wrong.output.find(" 0 failing") == std::string::npos);
    CHECK(wrong.output.find("jump links fail the exact check against " + walled_obj) !=
          std::string::npos);
  }
  TEST_CASE("a jump whose arc comes down beyond the scene warns naming it, and gives no links") {
    // landings lie where the arc comes down, more than d/2 from the start: d = 5000 m on the
    // 40 m demo scene is correct physics for 0 links, but said rather than left silent
    const std::string lnav = temp_file("leapnav_cli_audit", "far_jump.lnav");
    for (const char* tiles : {"", " --tile-size 64"}) {
      CAPTURE(tiles);
      const Run r = run_cli("build builtin:demo --jump 1000,5000,5000 --jump C1" +
                            std::string(tiles) + " -o " + lnav + " --stats -");
      CHECK(r.exit_code == 0);
      const std::string warning =
          "warning: jump configuration 0 (h 1000, d 5000, max_fall 5000 m): its arc comes down "
          "only 2500 m from a start, farther than the scene's widest span (";
      const std::size_t at = r.output.find(warning);
      CHECK(at != std::string::npos);
      CHECK(r.output.find(warning, at + 1) == std::string::npos);         // once, not per tile
      CHECK(r.output.find("jump configuration 1") == std::string::npos);  // C1 is not warned
    }
    const Run alone = run_cli("build builtin:demo --jump 1000,5000,5000 -o " + lnav);
    CHECK(alone.exit_code == 0);
    CHECK(alone.output.find(", 0 compact jump links") != std::string::npos);
  }
  TEST_CASE("sample on a navmesh with no polygons warns that it has no area, exit 0") {
    const std::string obj = temp_file("leapnav_cli_audit", "wall_only.obj");
    std::ofstream(obj) << "v 0 0 0\nv 0 5 0\nv 5 0 0\nv 5 5 0\nf 1 2 3\nf 2 4 3\n";
    const std::string lnav = temp_file("leapnav_cli_audit", "wall_only.lnav");
    REQUIRE(run_cli("build " + obj + " -o " + lnav).exit_code == 0);
    const Run r = run_cli("sample " + lnav + " -n 3");
    CHECK(r.exit_code == 0);
    CHECK(r.output == "leapnav: warning: " + lnav + ": the navmesh has no area, so no points\n");
    CHECK(run_cli("sample " + lnav + " -n 0").output.empty());
  }
  TEST_CASE("sample --seed and --max-links refuse a negative or too large number") {
    const std::string lnav = temp_file("leapnav_cli_audit", "seed.lnav");
    REQUIRE(run_cli("build builtin:gap:1.25 --config thesis --jump C1 -o " + lnav).exit_code == 0);
    for (const char* seed : {"-1", "18446744073709551616", "1x"}) {
      CAPTURE(seed);
      const Run r = run_cli("sample " + lnav + " --seed " + seed);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find(std::string("--seed: '") + seed + "' is not a whole number") !=
            std::string::npos);
    }
    // the largest seed is a seed, and another than the default's
    const Run largest = run_cli("sample " + lnav + " -n 3 --seed 18446744073709551615");
    CHECK(largest.exit_code == 0);
    CHECK(largest.output != run_cli("sample " + lnav + " -n 3").output);
    const std::string svg = temp_file("leapnav_cli_audit", "seed.svg");
    const Run links = run_cli("render " + lnav + " -o " + svg + " --links --max-links -1");
    CHECK(links.exit_code == 2);
    CHECK(links.output.find("--max-links: '-1' is not a whole number") != std::string::npos);
    CHECK(run_cli("render " + lnav + " -o " + svg + " --links --max-links 0").exit_code == 0);
  }
  TEST_CASE("a NaN passes no number option: --max-memory, --jump-cost, --crouch-cost, --depth") {
    const std::string lnav = temp_file("leapnav_cli_audit", "nan.lnav");
    const Run memory = run_cli("build builtin:gap:1.25 -o " + lnav + " --max-memory nan");
    CHECK(memory.exit_code == 2);
    CHECK(memory.output.find("--max-memory: 'nan' is not a finite number") != std::string::npos);
    REQUIRE(run_cli("build builtin:gap:1.25 -o " + lnav + " --max-memory 64").exit_code == 0);
    for (const char* option : {"--jump-cost nan", "--crouch-cost -nan"}) {
      CAPTURE(option);
      const Run r = run_cli("path " + lnav + " --from 1,0,2 --to 2,0,2 " + option);
      CHECK(r.exit_code == 2);
      CHECK(r.output.find("is not a finite number") != std::string::npos);
    }
    CHECK(run_cli("path " + lnav + " --from 1,0,2 --to 2,0,2 --jump-cost 2.5").exit_code == 0);
    const std::string tiles = temp_file("leapnav_cli_audit", "nan_tiles.txt");
    std::ofstream(tiles) << "platformer 3 2\n...\n...\n";
    const std::string obj = temp_file("leapnav_cli_audit", "nan_tiles.obj");
    const Run depth = run_cli("platformer " + tiles + " --obj " + obj + " --tile-size nan");
    CHECK(depth.exit_code == 2);
    CHECK(depth.output.find("--tile-size: 'nan' is not a finite number") != std::string::npos);
  }
  TEST_CASE("--stats - leaves stdout to the JSON: build, rebuild and voxelize") {
    const std::string lnav = temp_file("leapnav_cli_audit", "stdout.lnav");
    const std::string cache = temp_file("leapnav_cli_audit", "stdout.cache");
    const std::string rebuilt = temp_file("leapnav_cli_audit", "stdout_rebuilt.lnav");
    for (const std::string& command :
         {"build builtin:gap:1.25 -o " + lnav + " --stats -",
          "build builtin:gap:1.25 -o " + lnav + " --tile-size 16 --cache " + cache + " --stats -",
          "rebuild " + lnav + " builtin:gap:1.25 --cache " + cache + " --changed 0,0,0,1,1,1 -o " +
              rebuilt + " --stats -",
          std::string("voxelize builtin:gap:1.25 --stats -")}) {
      CAPTURE(command);
      const Run r = run_cli(command, leapnav::test::Stderr::Discard);
      REQUIRE(r.exit_code == 0);
      const auto json = nlohmann::json::parse(r.output, nullptr, false);
      CHECK_FALSE(json.is_discarded());
      CHECK(json.contains("hash"));
      // the summary line went to stderr
      CHECK(run_cli(command).output.find("builtin:gap:1.25: ") != std::string::npos);
    }
  }
}

#endif
