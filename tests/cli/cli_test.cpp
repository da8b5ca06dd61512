// The leapnav command end to end: documented exit codes and messages for bad input, and the
// outputs of the main commands. Runs the built executable as a user would.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#ifdef LEAPNAV_CLI_PATH

namespace {

using Run = leapnav::test::CliRun;
using leapnav::test::run_cli;

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / "leapnav_cli_test";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write_file(const std::string& name, const std::string& content) {
  const auto path = temp_dir() / name;
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

const char* const kQuad = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n";

}  // namespace

TEST_SUITE("cli.errors") {
  TEST_CASE("a missing file is bad input (exit 1) naming the file") {
    const Run r = run_cli("voxelize /no/such/level.obj");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("/no/such/level.obj") != std::string::npos);
    CHECK(r.output.find("[io_error]") != std::string::npos);
  }
  TEST_CASE("a directory is bad input") {
    const Run r = run_cli("voxelize " + temp_dir().string());
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("[io_error]") != std::string::npos);
  }
  TEST_CASE("an empty file has no triangles") {
    const Run r = run_cli("voxelize " + write_file("empty.obj", ""));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("[empty_input]") != std::string::npos);
  }
  TEST_CASE("binary garbage is a parse error with a line number") {
    std::string garbage = "v 1 2 3\n";
    garbage += std::string("\x00\x01\xff\xfe garbage", 12);
    const Run r = run_cli("voxelize " + write_file("garbage.obj", garbage));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("garbage.obj:2") != std::string::npos);
    CHECK(r.output.find("[parse_error]") != std::string::npos);
  }
  TEST_CASE("a huge coordinate is refused") {
    const Run r =
        run_cli("voxelize " + write_file("huge.obj", "v 0 0 0\nv 1e30 0 0\nv 0 0 1\nf 1 2 3\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("huge.obj:2") != std::string::npos);
  }
  TEST_CASE("a NaN coordinate is refused") {
    const Run r =
        run_cli("voxelize " + write_file("nan.obj", "v 0 0 0\nv nan 0 0\nv 0 0 1\nf 1 2 3\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("nan.obj:2") != std::string::npos);
    CHECK(r.output.find("[non_finite]") != std::string::npos);
  }
  TEST_CASE("a face index out of range names the line and the vertex count") {
    const Run r =
        run_cli("voxelize " + write_file("index.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 17\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("index.obj:4") != std::string::npos);
    CHECK(r.output.find("[index_out_of_range]") != std::string::npos);
  }
  TEST_CASE("a configuration out of range names the field") {
    const std::string negative = write_file("negative.json", R"({"voxel": {"cell_size": -0.3}})");
    Run r = run_cli("voxelize builtin:demo --config " + negative);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("voxel.cell_size") != std::string::npos);
    const std::string steep = write_file("steep.json", R"({"agent": {"max_slope_deg": 95}})");
    r = run_cli("voxelize builtin:demo --config " + steep);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("agent.max_slope_deg") != std::string::npos);
  }
  TEST_CASE("configuration numbers no float, int or double can hold are bad input naming the key") {
    Run r = run_cli("voxelize builtin:demo --config " +
                    write_file("overflow.json", R"({"region": {"min_region_area": 1e400}})"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("overflow.json: region.min_region_area = 1e400 is out of range (not "
                        "representable as a double) [invalid_argument]") != std::string::npos);
    r = run_cli("voxelize builtin:demo --config " +
                write_file("verts.json", R"({"poly": {"max_verts_per_poly": 1e30}})"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("verts.json: poly.max_verts_per_poly = 1e+30 is out of range") !=
          std::string::npos);
    // 1e9 m2 is more cells than an int holds: refused, where it once removed no region at all
    r = run_cli("build builtin:demo -o " + (temp_dir() / "area.lnav").string() + " --config " +
                write_file("area.json", R"({"region": {"min_region_area": 1e9}})"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("area.json: config: region.min_region_area = 1000000000.000000 is out of "
                        "range (at most 2147483647 cells of 0.300000 m)") != std::string::npos);
  }
  TEST_CASE("an OBJ file with CR-only line ends is read, not 'no triangles'") {
    const Run r = run_cli("voxelize " + write_file("mac.obj",
                                                   "# exported\rv 0 0 0\rv 10 0 0\r"
                                                   "v 10 0 10\rf 1 3 2\r"));
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("no triangles") == std::string::npos);
  }
  TEST_CASE("a tiny --max-memory names amounts that differ") {
    const Run r = run_cli("voxelize builtin:demo --max-memory 0.001");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("more than the memory limit of 1048 bytes [memory_limit]") !=
          std::string::npos);
  }
  TEST_CASE("a grid larger than --max-memory is refused before allocating") {
    const Run r = run_cli("voxelize builtin:city:64 --max-memory 1");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("[memory_limit]") != std::string::npos);
  }
  TEST_CASE("a face with two vertices and a malformed number are parse errors with their line") {
    Run r = run_cli("voxelize " + write_file("short.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("short.obj:4: face has 2 vertices") != std::string::npos);
    r = run_cli("voxelize " + write_file("badnum.obj", "v 0 0 0\nv 1 0 x\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("badnum.obj:2: malformed number 'x'") != std::string::npos);
  }
  TEST_CASE("an unknown configuration key or name is refused naming it") {
    Run r = run_cli("voxelize builtin:demo --config " +
                    write_file("unknown.json", R"({"agent": {"hieght": 2}})"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("unknown key 'agent.hieght'") != std::string::npos);
    r = run_cli("voxelize builtin:demo --config nope");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("unknown configuration 'nope'") != std::string::npos);
  }
  TEST_CASE("a built-in scene out of range lists the valid forms") {
    const Run r = run_cli("voxelize builtin:city:0");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("valid: demo, city:N") != std::string::npos);
  }
  TEST_CASE("damaged navmesh files: flipped byte, newer version, truncation, bad magic") {
    const std::string lnav = (temp_dir() / "good.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    std::ifstream in(lnav, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() > 1000);
    std::string flipped = bytes;
    flipped[100] = static_cast<char>(flipped[100] ^ 0x5A);
    Run r = run_cli("info " + write_file("flipped.lnav", flipped));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("checksum mismatch") != std::string::npos);
    std::string newer = bytes;
    newer[4] = 99;
    r = run_cli("info " + write_file("newer.lnav", newer));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("[unsupported_version]") != std::string::npos);
    r = run_cli("info " + write_file("trunc.lnav", bytes.substr(0, 500)));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("truncated") != std::string::npos);
    r = run_cli("info " + write_file("magic.lnav", "XNAV" + bytes.substr(4)));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("bad magic") != std::string::npos);
  }
  TEST_CASE("usage errors exit with 2") {
    CHECK(run_cli("voxelize").exit_code == 2);
    CHECK(run_cli("no-such-command").exit_code == 2);
    CHECK(run_cli("voxelize builtin:demo --threads -3").exit_code == 2);
    CHECK(run_cli("").exit_code == 2);
  }
  TEST_CASE("a corrupt navmesh file is bad input") {
    const Run r = run_cli("info " + write_file("corrupt.lnav", "LNAV not really a navmesh"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("corrupt.lnav") != std::string::npos);
  }
}

TEST_SUITE("cli.commands") {
  TEST_CASE("voxelize prints a summary and writes the documented stats keys") {
    const std::string quad = write_file("quad.obj", kQuad);
    const std::string stats = (temp_dir() / "quad_stats.json").string();
    const Run r = run_cli("voxelize " + quad + " --stats " + stats);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(stats);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* key :
         {"\"triangles\": 2", "\"walkable_triangles\": 2", "\"degenerate_triangles\": 0",
          "\"grid\"", "\"spans\"", "\"compact_spans\"", "\"walkable_spans\"", "\"timings_ms\"",
          "\"hash\""}) {
      CHECK_MESSAGE(json.find(key) != std::string::npos, key);
    }
  }
  TEST_CASE("build, info, export and render work on the demo scene") {
    const std::string lnav = (temp_dir() / "demo.lnav").string();
    const std::string stats = (temp_dir() / "demo_stats.json").string();
    Run r = run_cli("build builtin:demo -o " + lnav + " --stats " + stats);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(stats);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* key : {"\"regions\"", "\"polygons\"", "\"vertices\"", "\"navmesh_area\"",
                            "\"walkable_area\"", "\"hash\""}) {
      CHECK_MESSAGE(json.find(key) != std::string::npos, key);
    }
    r = run_cli("info " + lnav + " --json");
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("\"valid\": true") != std::string::npos);
    r = run_cli("export " + lnav + " -o " + (temp_dir() / "demo.json").string());
    CHECK(r.exit_code == 0);
    r = run_cli("export " + lnav + " -o " + (temp_dir() / "demo.obj").string());
    CHECK(r.exit_code == 0);
    r = run_cli("render " + lnav + " -o " + (temp_dir() / "demo.svg").string());
    CHECK(r.exit_code == 0);
    CHECK(std::filesystem::file_size(temp_dir() / "demo.svg") > 1000);
  }
  TEST_CASE("sample, path and paths answer on the demo navmesh") {
    const std::string lnav = (temp_dir() / "demo_paths.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    Run r = run_cli("sample " + lnav + " --count 5 --seed 7");
    REQUIRE(r.exit_code == 0);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 5);
    CHECK(run_cli("sample " + lnav + " --count 5 --seed 7").output == r.output);
    r = run_cli("path " + lnav + " --from 2.2,0.1,32.5 --to 32,0.1,18 --json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("\"status\":\"found\"") != std::string::npos);
    CHECK(r.output.find("\"kind\":\"walk\"") != std::string::npos);
    CHECK(run_cli("path " + lnav + " --from 1,2 --to 3,4,5").exit_code == 2);
    CHECK(run_cli("path " + lnav + " --from nan,0,0 --to 3,4,5").exit_code == 1);
    const std::string queries =
        write_file("queries.txt", "2.2 0.1 32.5 32 0.1 18\n# comment\n2.2 0.1 32.5 2.2 0.1 32.5\n");
    r = run_cli("paths " + lnav + " " + queries + " --threads 2");
    REQUIRE(r.exit_code == 0);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 3);
    CHECK(r.output.find("\"queries\":2") != std::string::npos);
    CHECK(r.output.find("\"threads\":2") != std::string::npos);
    // the summary names the threads used, not the request's 0 (= all)
    r = run_cli("paths " + lnav + " " + queries + " --threads 0");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("\"threads\":0") == std::string::npos);
    const std::string bad = write_file("bad_queries.txt", "1 2 3 4 5\n");
    r = run_cli("paths " + lnav + " " + bad);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("bad_queries.txt:1") != std::string::npos);
  }
  TEST_CASE("build --jump stores links that info, export, render and check-links read") {
    const std::string lnav = (temp_dir() / "demo_jumps.lnav").string();
    const std::string stats = (temp_dir() / "demo_jumps.json").string();
    Run r = run_cli("build builtin:demo --jump C1 --jump 3,7.5,7.5 --step 4 -o " + lnav +
                    " --stats " + stats);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(stats);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* key :
         {"\"sample_points\"", "\"jump_links\"", "\"jump_bytes\"", "\"jump_search\""}) {
      CHECK_MESSAGE(json.find(key) != std::string::npos, key);
    }
    r = run_cli("info " + lnav + " --json");
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("\"jump_links\"") != std::string::npos);
    const std::string exported = (temp_dir() / "demo_jumps_export.json").string();
    REQUIRE(run_cli("export " + lnav + " -o " + exported).exit_code == 0);
    std::ifstream ein(exported);
    const std::string ejson((std::istreambuf_iterator<char>(ein)),
                            std::istreambuf_iterator<char>());
    CHECK(ejson.find("\"links\"") != std::string::npos);
    CHECK(ejson.find("\"land_polygon\"") != std::string::npos);
    CHECK(run_cli("render " + lnav + " --links -o " + (temp_dir() / "links.svg").string())
              .exit_code == 0);
    r = run_cli("check-links " + lnav + " builtin:demo --json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("\"links_failed\": 0") != std::string::npos);
  }
  TEST_CASE("build --link-set compact writes fewer links and bytes than full, both sound") {
    const auto build = [](const std::string& set) {
      const std::string lnav = (temp_dir() / ("demo_set_" + set + ".lnav")).string();
      const std::string stats = (temp_dir() / ("demo_set_" + set + ".json")).string();
      const Run r = run_cli("build builtin:demo --jump C1 --step 2 --link-set " + set + " -o " +
                            lnav + " --stats " + stats);
      REQUIRE(r.exit_code == 0);
      std::ifstream in(stats);
      const auto json = nlohmann::json::parse(in);
      CHECK(json["jump_link_set"] == set);
      const Run check = run_cli("check-links " + lnav + " builtin:demo --json");
      REQUIRE(check.exit_code == 0);
      CHECK(check.output.find("\"links_failed\": 0") != std::string::npos);
      return std::pair(json["jump_links"].get<std::uint64_t>(),
                       json["jump_bytes"].get<std::uint64_t>());
    };
    const auto [full_links, full_bytes] = build("full");
    const auto [compact_links, compact_bytes] = build("compact");
    CHECK(compact_links > 0);
    CHECK(compact_links < full_links);
    CHECK(compact_bytes * 4 < full_bytes);
    CHECK(run_cli("build builtin:demo --jump C1 --link-set tiny -o " +
                  (temp_dir() / "x.lnav").string())
              .exit_code == 2);
  }
  TEST_CASE("build --no-link-runs writes the same number of links in more bytes, both sound") {
    const auto build = [](const std::string& flag, const std::string& name) {
      const std::string lnav = (temp_dir() / ("city_runs_" + name + ".lnav")).string();
      const std::string stats = (temp_dir() / ("city_runs_" + name + ".json")).string();
      const Run r = run_cli("build builtin:city:1 --jump C2 --step 4 " + flag + " -o " + lnav +
                            " --stats " + stats);
      REQUIRE(r.exit_code == 0);
      std::ifstream in(stats);
      const auto json = nlohmann::json::parse(in);
      const Run check = run_cli("check-links " + lnav + " builtin:city:1 --json");
      REQUIRE(check.exit_code == 0);
      CHECK(check.output.find("\"links_failed\": 0") != std::string::npos);
      return json;
    };
    const auto runs = build("", "on");
    const auto plain = build("--no-link-runs", "off");
    CHECK(runs["jump_runs"].get<std::uint64_t>() > 0);
    CHECK(plain["jump_runs"].get<std::uint64_t>() == 0);
    CHECK(runs["jump_links"] == plain["jump_links"]);
    CHECK(runs["jump_bytes"].get<std::uint64_t>() * 2 < plain["jump_bytes"].get<std::uint64_t>());
  }
  TEST_CASE("path plans over the file's jump links; ids index the exported links") {
    const std::string lnav = (temp_dir() / "demo_jump_path.lnav").string();
    REQUIRE(run_cli("build builtin:demo --jump C2 --step 4 -o " + lnav).exit_code == 0);
    const std::string exported = (temp_dir() / "demo_jump_path.json").string();
    REQUIRE(run_cli("export " + lnav + " -o " + exported).exit_code == 0);
    std::ifstream ein(exported);
    const auto links = nlohmann::json::parse(ein)["links"];
    REQUIRE(links.is_array());

    // the pier to the third stepping stone: the stones can only be reached by jumping
    const std::string stones = " --from 2.2,0.1,32.5 --to 22,0.1,37";
    Run r = run_cli("path " + lnav + stones + " --json");
    REQUIRE(r.exit_code == 0);
    const auto path = nlohmann::json::parse(r.output);
    CHECK(path["status"] == "found");
    int jumps = 0;
    for (const auto& seg : path["segments"]) {
      if (seg["kind"] != "jump") continue;
      ++jumps;
      const auto id = seg["link"].get<std::size_t>();
      REQUIRE(id < links.size());
      const auto& link = links[id];
      CHECK(seg["points"][0] == link["start"]);
      CHECK(seg["h"].get<double>() == doctest::Approx(link["h"].get<double>()));
      CHECK(seg["d"].get<double>() > 0.0);
      CHECK(seg["d"].get<double>() <= link["d"].get<double>() * 2.0);
      // the landing lies on the land segment (xz distance to the segment)
      const auto at = [](const nlohmann::json& p, int i) { return p[i].get<double>(); };
      const auto& a = link["land"][0];
      const auto& b = link["land"][1];
      const auto& q = seg["points"][1];
      const double ux = at(b, 0) - at(a, 0);
      const double uz = at(b, 2) - at(a, 2);
      const double len2 = ux * ux + uz * uz;
      double t =
          len2 > 0.0 ? ((at(q, 0) - at(a, 0)) * ux + (at(q, 2) - at(a, 2)) * uz) / len2 : 0.0;
      t = std::clamp(t, 0.0, 1.0);
      const double dx = at(a, 0) + t * ux - at(q, 0);
      const double dz = at(a, 2) + t * uz - at(q, 2);
      CHECK(std::sqrt(dx * dx + dz * dz) < 1e-3);
    }
    CHECK(jumps >= 2);
    r = run_cli("path " + lnav + stones + " --no-jumps --json");
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.output)["status"] == "no_path");

    // plaza to the sunken courtyard: a jump down saves the walk round to the stairs, unless a
    // jump costs more than the detour
    const std::string down = " --from 20,0.1,5 --to 30,-2.9,4 --json";
    const auto jumped = nlohmann::json::parse(run_cli("path " + lnav + down).output);
    const auto walked =
        nlohmann::json::parse(run_cli("path " + lnav + down + " --jump-cost 1000").output);
    const auto walk_only =
        nlohmann::json::parse(run_cli("path " + lnav + down + " --no-jumps").output);
    REQUIRE(jumped["status"] == "found");
    REQUIRE(walked["status"] == "found");
    CHECK(jumped["length"].get<double>() < walked["length"].get<double>());
    CHECK(jumped["segments"].dump().find("\"jump\"") != std::string::npos);
    CHECK(walked["segments"].dump().find("\"jump\"") == std::string::npos);
    CHECK(walked == walk_only);
    CHECK(run_cli("path " + lnav + down + " --jump-cost -1").exit_code == 2);

    const std::string svg = (temp_dir() / "demo_jump_path.svg").string();
    r = run_cli("render " + lnav + " -o " + svg + stones);
    REQUIRE(r.exit_code == 0);
    std::ifstream sin(svg);
    const std::string picture((std::istreambuf_iterator<char>(sin)),
                              std::istreambuf_iterator<char>());
    CHECK(picture.find(">jump<") != std::string::npos);

    const std::string queries =
        write_file("jump_queries.txt", "2.2 0.1 32.5 22 0.1 37\n20 0.1 5 30 -2.9 4\n");
    r = run_cli("paths " + lnav + " " + queries + " --threads 2");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("\"with_jumps\":2") != std::string::npos);
    r = run_cli("paths " + lnav + " " + queries + " --no-jumps");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("\"with_jumps\":0") != std::string::npos);
  }
  TEST_CASE("bad jump parameters and files without links are refused") {
    const Run zero =
        run_cli("build builtin:demo --jump 0,2.5,2.5 -o " + (temp_dir() / "x.lnav").string());
    CHECK(zero.exit_code == 1);
    CHECK(zero.output.find("--jump 0,2.5,2.5: jump height = ") != std::string::npos);
    // a number too large for a float is named as such, not as a malformed triple
    const Run huge =
        run_cli("build builtin:demo --jump 1,1e300,1 -o " + (temp_dir() / "x.lnav").string());
    CHECK(huge.exit_code == 1);
    CHECK(huge.output.find("--jump: '1,1e300,1': 1e300 is out of a float's range") !=
          std::string::npos);
    CHECK(run_cli("build builtin:demo --jump C2 --epsilon 1e300 -o " +
                  (temp_dir() / "x.lnav").string())
              .exit_code == 2);
    CHECK(run_cli("path " + (temp_dir() / "x.lnav").string() + " --from 1e39,0,0 --to 0,0,0")
              .output.find("1e39 is out of a float's range") != std::string::npos);
    CHECK(
        run_cli("build builtin:demo --jump C9 -o " + (temp_dir() / "x.lnav").string()).exit_code ==
        1);
    CHECK(run_cli("build builtin:demo --jump C1 --step 0 -o " + (temp_dir() / "x.lnav").string())
              .exit_code == 2);
    const std::string plain = (temp_dir() / "plain.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + plain).exit_code == 0);
    const Run r = run_cli("check-links " + plain + " builtin:demo");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("no jump links") != std::string::npos);
  }
  TEST_CASE("scene exports a built-in scene that loads back") {
    const std::string obj = (temp_dir() / "scene_demo.obj").string();
    REQUIRE(run_cli("scene demo -o " + obj).exit_code == 0);
    CHECK(run_cli("voxelize " + obj).exit_code == 0);
  }
}

TEST_SUITE("cli.input") {
  TEST_CASE("every command that reads input takes --max-memory and refuses /dev/zero naming it") {
    const std::string lnav = (temp_dir() / "input_demo.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    // note: 4 MiB limit, so an input may have 2 MiB; /dev/zero is refused after reading that
    for (const std::string& args :
         {std::string("voxelize /dev/zero"), std::string("build /dev/zero -o ") + lnav + ".x",
          std::string("info /dev/zero"), std::string("export /dev/zero -o ") + lnav + ".json",
          std::string("render /dev/zero -o ") + lnav + ".svg", std::string("sample /dev/zero"),
          std::string("path /dev/zero --from 0,0,0 --to 1,0,1"), std::string("paths /dev/zero -"),
          std::string("check-links /dev/zero builtin:demo"),
          std::string("voxelize builtin:demo --config /dev/zero")}) {
      CAPTURE(args);
      const Run r = run_cli(args + " --max-memory 4");
      CHECK(r.exit_code == 1);
      CHECK(r.output.find("/dev/zero: not read further: it gave more than the 2097152 bytes an "
                          "input may have") != std::string::npos);
      CHECK(r.output.find("[memory_limit]") != std::string::npos);
    }
    // a regular file past the bound is refused before it is read
    const Run r = run_cli("info " + lnav + " --max-memory 0.01");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("input_demo.lnav: the file has ") != std::string::npos);
  }

  TEST_CASE("a query file that is a device, unreadable or holds NaN is bad input naming it") {
    const std::string lnav = (temp_dir() / "input_queries.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    Run r = run_cli("paths " + lnav + " /dev/zero");
    CHECK(r.exit_code == 1);
    CHECK(
        r.output.find("/dev/zero:1: line longer than 4096 bytes; not a query file [parse_error]") !=
        std::string::npos);
    // note: reading /proc/self/mem from offset 0 fails (EIO): once taken as the end of the file
    r = run_cli("paths " + lnav + " /proc/self/mem");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("/proc/self/mem: read error (") != std::string::npos);
    CHECK(r.output.find("\"queries\"") == std::string::npos);
    r = run_cli("paths " + lnav + " " + temp_dir().string());
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("is a directory") != std::string::npos);
    r = run_cli("paths " + lnav + " " +
                write_file("nan_queries.txt", "2.2 0.1 32.5 32 0.1 18\n1 nan 3 4 5 6\n"));
    CHECK(r.exit_code == 1);
    CHECK(
        r.output.find("nan_queries.txt:2: coordinate 'nan' is not a finite number [non_finite]") !=
        std::string::npos);
    r = run_cli("paths " + lnav + " " + write_file("big_queries.txt", "1 1e39 3 4 5 6\n"));
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("big_queries.txt:1: coordinate '1e39' is not a finite number") !=
          std::string::npos);
  }

  TEST_CASE("paths answers a batch at a time: lines before a malformed one are printed") {
    const std::string lnav = (temp_dir() / "input_stream.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    std::string text;
    for (int i = 0; i < 5000; ++i) text += "2.2 0.1 32.5 2.4 0.1 32.4\n";
    text += "1 2 3\n";
    const Run r = run_cli("paths " + lnav + " " + write_file("stream_queries.txt", text));
    CHECK(r.exit_code == 1);
    // the first batch of 4096 was answered before line 5001 was read
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 4096 + 1);
    CHECK(r.output.find("stream_queries.txt:5001: expected six numbers") != std::string::npos);
  }

  TEST_CASE("scene refuses a generated scene whose mesh and text pass --max-memory") {
    const Run r = run_cli("scene terrain:256 -o " + (temp_dir() / "terrain.obj").string() +
                          " --max-memory 4096");
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("terrain:256 and its OBJ text would need 18002 MiB, more than the memory "
                        "limit of 4096 MiB [memory_limit]") != std::string::npos);
  }
  TEST_CASE("two builds forced to overlap on one output both succeed and leave a whole file") {
    const auto dir = temp_dir() / "overlap";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string out = (dir / "same.lnav").string();
    const std::string exe = LEAPNAV_CLI_PATH;
    // note: city:6 writes a few MB; both start together and write while the other does
    for (int round = 0; round < 3; ++round) {
      const std::string command =
          "(" + exe + " build builtin:city:6 -o " + out + " >/dev/null 2>&1; echo A$?) & (" + exe +
          " build builtin:demo -o " + out + " >/dev/null 2>&1; echo B$?) & wait";
      FILE* pipe = popen(command.c_str(), "r");
      REQUIRE(pipe != nullptr);
      std::string output;
      std::array<char, 256> buffer{};
      std::size_t n = 0;
      while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        output.append(buffer.data(), n);
      pclose(pipe);
      CHECK(output.find("A0") != std::string::npos);
      CHECK(output.find("B0") != std::string::npos);
      const Run info = run_cli("info " + out);
      CHECK(info.exit_code == 0);
      CHECK(info.output.find("validation: ok") != std::string::npos);
    }
    int entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
    CHECK(entries == 1);
  }
}

#endif  // LEAPNAV_CLI_PATH
