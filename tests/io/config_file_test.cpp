// JSON configuration files: sections and keys mirror BuildConfig; each error has its code and a
// message naming the file and key.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "leapnav/io/config_file.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

void check_error(std::string_view text, ErrorCode code, std::string_view message) {
  const auto result = parse_config_json(text, "dir/my.json");
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == code);
  CHECK(result.error().message == message);
}

}  // namespace

TEST_SUITE("io.config_file") {
  TEST_CASE("an empty object is the default configuration named after the file") {
    const auto config = parse_config_json("{}", "dir/my.json");
    REQUIRE(config.ok());
    BuildConfig expected = *named_config("default");
    expected.name = "my";
    CHECK(*config == expected);
  }

  TEST_CASE("keys override the base configuration field by field") {
    const auto config = parse_config_json(R"({
      "base": "thesis", "name": "tall",
      "agent": {"height": 2.5, "max_slope_deg": 40},
      "poly": {"max_verts_per_poly": 8},
      "voxel": {"cell_height": 0.1},
      "region": {"min_region_area": 0}
    })",
                                          "x.json");
    REQUIRE(config.ok());
    BuildConfig expected = *named_config("thesis");
    expected.name = "tall";
    expected.agent.height = 2.5F;
    expected.agent.max_slope_deg = 40.0F;
    expected.poly.max_verts_per_poly = 8;
    expected.voxel.cell_height = 0.1F;
    expected.region.min_region_area = 0.0F;
    CHECK(*config == expected);
  }

  TEST_CASE("config_to_json reads back identically and is readable") {
    for (const char* name : {"default", "thesis"}) {
      BuildConfig config = *named_config(name);
      config.agent.radius = 0.123456789F;
      const std::string text = config_to_json(config);
      const auto back = parse_config_json(text, "round.json");
      REQUIRE(back.ok());
      CHECK(*back == config);
    }
    const std::string text = config_to_json(*named_config("default"));
    CHECK(text.find("\"cell_size\": 0.3,") != std::string::npos);
    CHECK(text.find("\"max_verts_per_poly\": 6,") != std::string::npos);
    CHECK(text.find("\"name\": \"default\"") < text.find("\"voxel\""));
    CHECK(text.find("\"voxel\"") < text.find("\"agent\""));
  }

  TEST_CASE("malformed JSON is a parse error with its position") {
    check_error("{\n  \"agent\": {\"height\": 2,}\n}", ErrorCode::ParseError,
                "dir/my.json: malformed JSON: parse error at line 2, column 25: syntax error "
                "while parsing object key - unexpected '}'; expected string literal");
    check_error("", ErrorCode::ParseError,
                "dir/my.json: malformed JSON: parse error at line 1, column 1: syntax error while "
                "parsing value - unexpected end of input; expected '[', '{', or a literal");
  }

  TEST_CASE("a key given twice in one object is an error naming it (the last did win)") {
    check_error(R"({"agent": {"height": 2, "height": 3}})", ErrorCode::InvalidArgument,
                "dir/my.json: agent.height is given twice");
    check_error(R"({"agent": {"height": 2}, "voxel": {}, "agent": {}})", ErrorCode::InvalidArgument,
                "dir/my.json: agent is given twice");
    // the same key in two different objects is fine
    CHECK(parse_config_json(R"({"agent": {"height": 2}, "poly": {"max_edge_len": 12}})", "my.json")
              .ok());
  }

  TEST_CASE("unknown keys and sections are errors naming them") {
    check_error(R"({"agent": {"heigth": 2}})", ErrorCode::InvalidArgument,
                "dir/my.json: unknown key 'agent.heigth' (agent keys: height, radius, max_climb, "
                "max_slope_deg, max_jump_up, max_drop, crouch_height, shape)");
    check_error(R"({"agnet": {}})", ErrorCode::InvalidArgument,
                "dir/my.json: unknown key 'agnet' (known: base, name, voxel, agent, region, poly)");
    check_error(R"({"poly": {"cell_size": 1}})", ErrorCode::InvalidArgument,
                "dir/my.json: unknown key 'poly.cell_size' (poly keys: max_edge_len, "
                "max_edge_error, max_verts_per_poly, detail_sample_dist, detail_max_error)");
  }

  TEST_CASE("values of the wrong type are errors") {
    check_error("[1, 2]", ErrorCode::InvalidArgument,
                "dir/my.json: expected a JSON object at the top level (got array)");
    check_error(R"({"agent": 2})", ErrorCode::InvalidArgument,
                "dir/my.json: 'agent' must be an object (got number)");
    check_error(R"({"agent": {"height": "2"}})", ErrorCode::InvalidArgument,
                "dir/my.json: agent.height must be a number (got string)");
    check_error(R"({"poly": {"max_verts_per_poly": 6.5}})", ErrorCode::InvalidArgument,
                "dir/my.json: poly.max_verts_per_poly must be an integer (got 6.5)");
    check_error(R"({"poly": {"max_verts_per_poly": 99999999999}})", ErrorCode::InvalidArgument,
                "dir/my.json: poly.max_verts_per_poly = 99999999999 is out of range");
    check_error(R"({"base": 3})", ErrorCode::InvalidArgument,
                "dir/my.json: base must be a string (got number)");
    check_error(R"({"name": null})", ErrorCode::InvalidArgument,
                "dir/my.json: name must be a string (got null)");
    check_error(R"({"base": "fast"})", ErrorCode::InvalidArgument,
                "dir/my.json: base: unknown configuration 'fast' (known: default, thesis)");
  }

  TEST_CASE("numbers a float, an int or a double cannot hold are out of range, naming the key") {
    // 1e400 overflows the JSON reader's double; the key is found by a second pass
    check_error(R"({"agent": {"radius": 0.5}, "region": {"min_region_area": 1e400}})",
                ErrorCode::InvalidArgument,
                "dir/my.json: region.min_region_area = 1e400 is out of range (not representable "
                "as a double)");
    check_error(R"({"agent": {"height": -1e400}})", ErrorCode::InvalidArgument,
                "dir/my.json: agent.height = -1e400 is out of range (not representable as a "
                "double)");
    check_error(R"({"voxel": {"cell_size": 1e39}})", ErrorCode::InvalidArgument,
                "dir/my.json: voxel.cell_size = 1e+39 is out of range (not representable as a "
                "32-bit float)");
    // an integral float is an integer; one beyond int is out of range, not "a fraction"
    check_error(R"({"poly": {"max_verts_per_poly": 1e30}})", ErrorCode::InvalidArgument,
                "dir/my.json: poly.max_verts_per_poly = 1e+30 is out of range");
    const auto integral = parse_config_json(R"({"poly": {"max_verts_per_poly": 8.0}})", "my.json");
    REQUIRE(integral.ok());
    CHECK(integral->poly.max_verts_per_poly == 8);
    // an underflowing number is zero
    const auto tiny = parse_config_json(R"({"agent": {"radius": 1e-400}})", "my.json");
    REQUIRE(tiny.ok());
    CHECK(tiny->agent.radius == 0.0F);
  }

  TEST_CASE("region areas beyond 2^31 - 1 cells are out of range, not silently zero") {
    // 1e9 m2 at 0.3 m cells is 1.1e10 cells: an int cannot hold it (UBSan found the conversion)
    const auto huge = parse_config_json(R"({"region": {"min_region_area": 1e9}})", "my.json");
    REQUIRE_FALSE(huge.ok());
    CHECK(huge.error().code == ErrorCode::InvalidArgument);
    CHECK(huge.error().message ==
          "my.json: config: region.min_region_area = 1000000000.000000 is out of range (at most "
          "2147483647 cells of 0.300000 m)");
    const auto merge = parse_config_json(R"({"region": {"merge_region_area": 1e12}})", "my.json");
    REQUIRE_FALSE(merge.ok());
    CHECK(merge.error().message.find("region.merge_region_area") != std::string::npos);
    // the largest area that fits is accepted and derives to at most 2^31 - 1 cells
    const auto fits = parse_config_json(R"({"region": {"min_region_area": 1e8}})", "my.json");
    REQUIRE(fits.ok());
    const VoxelParams params = derive_voxel_params(*fits);
    CHECK(params.min_region_cells > 1'000'000'000);
    CHECK(params.min_region_cells <= kMaxRegionAreaCells);
  }

  TEST_CASE("values out of range are rejected by validate") {
    const auto negative = parse_config_json(R"({"agent": {"radius": -1}})", "my.json");
    REQUIRE_FALSE(negative.ok());
    CHECK(negative.error().code == ErrorCode::InvalidArgument);
    CHECK(negative.error().message.rfind("my.json: config: agent.radius = ", 0) == 0);
    const auto huge = parse_config_json(R"({"voxel": {"cell_size": 1e300}})", "my.json");
    REQUIRE_FALSE(huge.ok());
    CHECK(huge.error().message.rfind("my.json: voxel.cell_size = 1e+300 is out of range", 0) == 0);
    const auto verts = parse_config_json(R"({"poly": {"max_verts_per_poly": 2}})", "my.json");
    REQUIRE_FALSE(verts.ok());
    CHECK(verts.error().message.find("poly.max_verts_per_poly") != std::string::npos);
  }

  TEST_CASE("JSON text named \"config\" names the key once, not \"config: config:\"") {
    const auto named = parse_config_json(R"({"agent": {"radius": -1}})", "config");
    REQUIRE_FALSE(named.ok());
    CHECK(named.error().code == ErrorCode::InvalidArgument);
    CHECK(named.error().message.rfind("config: agent.radius = -1.000000 is out of range", 0) == 0);
    CHECK(named.error().message.find("config: config:") == std::string::npos);
    // another source keeps its name in front
    const auto file = parse_config_json(R"({"agent": {"radius": -1}})", "r.json");
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message.rfind("r.json: config: agent.radius = -1.000000", 0) == 0);
  }

  TEST_CASE("resolve_config takes names and JSON files") {
    CHECK(resolve_config("thesis")->name == "thesis");
    CHECK(*resolve_config("default") == *named_config("default"));

    const auto unknown = resolve_config("fastest");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == ErrorCode::InvalidArgument);
    CHECK(unknown.error().message ==
          "unknown configuration 'fastest' (known: default, thesis; or the path of a .json file)");

    const auto missing = resolve_config("/nonexistent/cfg.json");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
    CHECK(missing.error().message == "/nonexistent/cfg.json: no such file");

    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "leapnav_config_test.json";
    {
      std::ofstream out(path);
      out << R"({"agent": {"height": 1.5}})";
    }
    const auto file = resolve_config(path.string());
    REQUIRE(file.ok());
    CHECK(file->agent.height == 1.5F);
    CHECK(file->name == "leapnav_config_test");
    {
      std::ofstream out(path);
      out << R"({"agent": {"height": 0}})";
    }
    const auto bad = load_config_json(path);
    std::filesystem::remove(path);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.rfind(path.string() + ": config: agent.height = ", 0) == 0);
  }

  TEST_CASE("agent.crouch_height and agent.shape are read, written back and range-checked") {
    const auto read =
        parse_config_json(R"({"agent": {"crouch_height": 1.2, "shape": "box"}})", "dir/my.json");
    REQUIRE(read.ok());
    CHECK(read->agent.crouch_height == 1.2F);
    CHECK(read->agent.shape == AgentShape::Box);
    const std::string text = config_to_json(*read);
    CHECK(text.find("\"crouch_height\": 1.2,") != std::string::npos);
    CHECK(text.find("\"shape\": \"box\"") != std::string::npos);
    const auto back = parse_config_json(text, "round.json");
    REQUIRE(back.ok());
    CHECK(*back == *read);
    CHECK(config_to_json(*named_config("default")).find("\"shape\": \"cylinder\"") !=
          std::string::npos);
    check_error(R"({"agent": {"shape": "sphere"}})", ErrorCode::InvalidArgument,
                "dir/my.json: config: agent.shape = 'sphere' is not a shape (known: cylinder, "
                "box)");
    check_error(R"({"agent": {"shape": 1}})", ErrorCode::InvalidArgument,
                "dir/my.json: agent.shape must be a string (got number)");
    check_error(R"({"agent": {"height": 2, "crouch_height": 2}})", ErrorCode::InvalidArgument,
                "dir/my.json: config: agent.crouch_height = 2.000000 is out of range (0 = no "
                "crouching, or > 0 m and below agent.height)");
    check_error(R"({"agent": {"crouch_height": -0.5}})", ErrorCode::InvalidArgument,
                "dir/my.json: config: agent.crouch_height = -0.500000 is out of range (0 = no "
                "crouching, or > 0 m and below agent.height)");
  }
}
