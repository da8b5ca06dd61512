// The tile-map text format and the parameter file: exact parses, one test per error with the
// file:line message, and the documented defaults.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "fixtures.hpp"

using namespace leapnav;
using namespace leapnav::platformer;
using namespace leapnav::platformer::test;

namespace {

Error parse_error(std::string_view text) {
  auto map = parse_tile_map(text, "map.txt");
  REQUIRE_FALSE(map.ok());
  return map.error();
}

Error params_error(std::string_view text) {
  auto p = parse_params_json(text, "p.json");
  REQUIRE_FALSE(p.ok());
  return p.error();
}

}  // namespace

TEST_SUITE("platformer.tile_map") {
  TEST_CASE("rows are read top first and stored bottom first; outside the map is solid") {
    const TileMap map = fixture_map("platformer 3 2\n#..\n..#\n");
    CHECK(map.width == 3);
    CHECK(map.height == 2);
    CHECK(map.is_solid(0, 1));
    CHECK_FALSE(map.is_solid(1, 1));
    CHECK(map.is_solid(2, 0));
    CHECK_FALSE(map.is_solid(0, 0));
    CHECK(map.is_solid(-1, 0));
    CHECK(map.is_solid(3, 0));
    CHECK(map.is_solid(0, -1));
    CHECK(map.is_solid(0, 2));
    CHECK(to_text(map) == "platformer 3 2\n#..\n..#\n");
    CHECK(validate(map).ok());
  }

  TEST_CASE("CRLF line ends and trailing blank lines are accepted") {
    const TileMap map = fixture_map("platformer 2 1\r\n#.\r\n\r\n\n");
    CHECK(map.solid == std::vector<std::uint8_t>{1, 0});
  }

  TEST_CASE("an empty file is empty_input") {
    CHECK(parse_error("").code == ErrorCode::EmptyInput);
    CHECK(parse_error("").message ==
          "map.txt: empty file (expected 'platformer W H' and W x H tiles)");
  }

  TEST_CASE("a bad header is a parse error on line 1") {
    const Error e = parse_error("voxel 3 3 3\n...\n");
    CHECK(e.code == ErrorCode::ParseError);
    CHECK(e.message == "map.txt:1: expected the header 'platformer W H'");
    CHECK(parse_error("platformer 3 x\n").message ==
          "map.txt:1: malformed H 'x' (expected a whole number)");
  }

  TEST_CASE("sizes out of range are invalid_argument naming the size") {
    CHECK(parse_error("platformer 0 3\n").code == ErrorCode::InvalidArgument);
    CHECK(parse_error("platformer 0 3\n").message ==
          "map.txt:1: W = 0 is out of range (1..16384 tiles)");
    CHECK(parse_error("platformer 3 99999999999999999999\n").code == ErrorCode::InvalidArgument);
    CHECK(parse_error("platformer 16384 16384\n").message ==
          "map.txt:1: W x H = 16384 x 16384 exceeds 67108864 tiles");
  }

  TEST_CASE("a row of the wrong length names its line") {
    const Error e = parse_error("platformer 3 2\n...\n....\n");
    CHECK(e.code == ErrorCode::ParseError);
    CHECK(e.message == "map.txt:3: row has 4 characters, expected W = 3");
  }

  TEST_CASE("an unexpected character names its line and column") {
    CHECK(parse_error("platformer 3 2\n...\n.x.\n").message ==
          "map.txt:3: column 2: unexpected 'x' (expected '#' solid or '.' free)");
    CHECK(parse_error(std::string_view("platformer 2 1\n.\0\n", 18)).message ==
          "map.txt:2: column 2: unexpected byte 0 (expected '#' solid or '.' free)");
  }

  TEST_CASE("too few or too many rows are errors") {
    CHECK(parse_error("platformer 3 3\n...\n...\n").message ==
          "map.txt:3: the map ends after 2 rows (the header says H = 3)");
    CHECK(parse_error("platformer 3 1\n...\n...\n").message == "map.txt:3: more than H = 1 rows");
  }

  TEST_CASE("a missing file and a directory are io errors") {
    auto missing = load_tile_map("/no/such/map.txt");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
    CHECK(missing.error().message.find("/no/such/map.txt") == 0);
    auto dir = load_tile_map(std::filesystem::temp_directory_path());
    REQUIRE_FALSE(dir.ok());
    CHECK(dir.error().message.find("is a directory") != std::string::npos);
  }
}

TEST_SUITE("platformer.params") {
  TEST_CASE("the defaults are the spec's fixture parameters and pass validation") {
    const PlatformerParams p;
    CHECK(p.a == 9.7);
    CHECK(p.v_max == 6.3);
    CHECK(p.v_b == 2.1);
    CHECK(p.h_max == 3.3);
    CHECK(p.g == 19.3);
    CHECK(p.h_div == 3);
    CHECK(p.s_div == 3);
    CHECK(p.dt == 1.0 / 32);
    CHECK(p.T == 1.5);
    CHECK(p.distance_max == 0.5);
    CHECK(p.collider_w == 1);
    CHECK(p.collider_h == 1);
    CHECK(sample_count(p) == 48);
    CHECK(validate(p).ok());
  }

  TEST_CASE("a JSON file overrides the keys it names and round-trips") {
    auto p = parse_params_json(R"({"g": 30, "h_div": 5, "collider": [1, 2], "T": 1, "dt": 0.1})",
                               "p.json");
    REQUIRE(p.ok());
    CHECK(p->g == 30);
    CHECK(p->h_div == 5);
    CHECK(p->collider_h == 2);
    CHECK(p->v_max == 6.3);
    CHECK(sample_count(*p) == 10);
    auto again = parse_params_json(to_json_text(*p), "again.json");
    REQUIRE(again.ok());
    CHECK(*again == *p);
  }

  TEST_CASE("malformed JSON, a non-object and wrong types are parse errors") {
    CHECK(params_error("{").code == ErrorCode::ParseError);
    CHECK(params_error("{").message.find("p.json: malformed JSON") == 0);
    CHECK(params_error("[1]").message == "p.json: expected a JSON object of parameters");
    CHECK(params_error(R"({"g": "fast"})").message == "p.json: 'g' must be a number, not \"fast\"");
    CHECK(params_error(R"({"h_div": 2.5})").message ==
          "p.json: 'h_div' must be a whole number, not 2.5");
    CHECK(params_error(R"({"collider": [1]})").code == ErrorCode::ParseError);
  }

  TEST_CASE("an unknown key names the known ones") {
    const Error e = params_error(R"({"gravity": 9.8})");
    CHECK(e.code == ErrorCode::InvalidArgument);
    CHECK(e.message ==
          "p.json: unknown key 'gravity' (known: a, v_max, v_b, h_max, g, h_div, s_div, dt, T, "
          "distance_max, collider)");
  }

  TEST_CASE("values out of range name the key, the value and the range") {
    CHECK(params_error(R"({"g": -1})").message ==
          "p.json: 'g' = -1 is out of range (> 0, <= 1e5 tiles/s²)");
    CHECK(params_error(R"({"v_max": 0})").message ==
          "p.json: 'v_max' = 0 is out of range (> 0, <= 1e4 tiles/s)");
    CHECK(params_error(R"({"h_div": 0})").message == "p.json: 'h_div' = 0 is out of range (1..64)");
    CHECK(params_error(R"({"collider": [1, 17]})").message ==
          "p.json: 'collider[1] (height)' = 17 is out of range (1..16 tiles)");
    CHECK(params_error(R"({"dt": 2})").message == "p.json: 'dt' = 2 is out of range (> 0, <= T s)");
    CHECK(params_error(R"({"dt": 1e-6, "T": 1})").message ==
          "p.json: T / dt = 1e+06 samples per trajectory is out of range (1..100000)");
  }

  TEST_CASE("a number past a double is invalid_argument, not an escaped exception") {
    // found by fuzz_maps: the JSON reader throws out_of_range for 1e1420, which the parser let out
    const Error e = params_error(R"({"g": 5555555555500430646668853e01408})");
    CHECK(e.code == ErrorCode::InvalidArgument);
    CHECK(e.message ==
          "p.json: g = 5555555555500430646668853e01408 is out of range (not representable as a "
          "double)");
    CHECK(params_error(R"({"T": -1e400})").code == ErrorCode::InvalidArgument);
    CHECK(params_error(R"({"collider": [1, 1e400]})").message ==
          "p.json: collider.[] = 1e400 is out of range (not representable as a double)");
  }

  TEST_CASE("a key given twice is invalid_argument naming it (the last did win)") {
    const Error e = params_error(R"({"g": 30, "T": 1, "g": 40})");
    CHECK(e.code == ErrorCode::InvalidArgument);
    CHECK(e.message == "p.json: g is given twice");
    CHECK(params_error(R"({"collider": [1, 2], "collider": [2, 2]})").message ==
          "p.json: collider is given twice");
    // one key in each of two objects is not a repeat; the parameters take no nested objects
    CHECK(params_error(R"({"collider": {"g": 1, "g": 2}})").message ==
          "p.json: collider.g is given twice");
  }

  TEST_CASE("a missing parameter file is an io error") {
    auto p = load_params("/no/such/p.json");
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().code == ErrorCode::IoError);
  }
}
