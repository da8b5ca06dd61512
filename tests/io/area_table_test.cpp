// Area tables: OBJ groups and materials mapped to area ids reach TriangleMesh::areas through the
// OBJ reader and NavMesh::poly_area through the build; bad tables are errors naming the file and
// the key; names a level never uses are warnings.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "leapnav/core/config.hpp"
#include "leapnav/io/area_table.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/mesh/build.hpp"
#include "support/cli_run.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

// two 10 m squares side by side: x in [0, 10] is group "floor" (material "stone"), x in [10, 20]
// is group "water" (material "mud"); faces written counter-clockwise seen from above
constexpr const char* kLevel =
    "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nv 20 0 0\nv 20 0 10\n"
    "g floor\nusemtl stone\nf 1 4 3 2\n"
    "g water\nusemtl mud\nf 2 3 6 5\n";

std::string error_of(std::string_view json) {
  const auto table = parse_area_table(json, "areas.json");
  REQUIRE_FALSE(table.ok());
  return table.error().message;
}

}  // namespace

TEST_SUITE("io.area_table") {
  TEST_CASE("a table maps groups, then materials over groups, else the default") {
    const auto table = parse_area_table(
        R"({"groups": {"water": 3, "floor": 7}, "materials": {"mud": 5}, "default": 1})", "t.json");
    REQUIRE(table.ok());
    CHECK(table->area_of("", {"water"}) == 3);
    CHECK(table->area_of("mud", {"water"}) == 5);
    CHECK(table->area_of("", {"other", "floor", "water"}) == 7);
    CHECK(table->area_of("stone", {"other"}) == 1);
    const auto empty = parse_area_table("{}", "e.json");
    REQUIRE(empty.ok());
    CHECK(empty->area_of("mud", {"water"}) == kMaxAreaId);
  }

  TEST_CASE("bad tables are errors naming the file and the key") {
    CHECK(error_of(R"({"groups": {"water": 70}})") ==
          "areas.json: groups.water = 70 is out of range (0..63)");
    CHECK(error_of(R"({"materials": {"grass": 2.5}})") ==
          "areas.json: materials.grass must be an integer (got 2.5)");
    CHECK(error_of(R"({"materials": {"grass": "5"}})") ==
          "areas.json: materials.grass must be an area id 0..63 (got string)");
    CHECK(error_of(R"({"default": -1})") == "areas.json: default = -1 is out of range (0..63)");
    CHECK(error_of(R"({"group": {}})") ==
          "areas.json: unknown key 'group' (known: groups, materials, default)");
    CHECK(error_of(R"({"groups": [1]})") ==
          "areas.json: groups must be an object of name: area id (got array)");
    CHECK(error_of("[]") == "areas.json: an area table is a JSON object (got array)");
    const auto malformed = parse_area_table("{", "areas.json");
    REQUIRE_FALSE(malformed.ok());
    CHECK(malformed.error().code == ErrorCode::ParseError);
    CHECK(malformed.error().message.rfind("areas.json: malformed JSON: parse error at line 1", 0) ==
          0);
    CHECK(error_of(R"({"default": 1e400})") ==
          "areas.json: default = 1e400 is out of range (not representable as a double)");
    CHECK(error_of(R"({"groups": {"water": 3, "water": 4}})") ==
          "areas.json: groups.water is given twice");
  }

  TEST_CASE("the OBJ reader gives each triangle its group's or material's area") {
    const auto table = parse_area_table(
        R"({"groups": {"water": 3, "lava": 9}, "materials": {"ice": 4}})", "areas.json");
    REQUIRE(table.ok());
    ObjOptions options;
    options.areas = &*table;
    ObjStats stats;
    const auto mesh = parse_obj(kLevel, "level.obj", options, &stats);
    REQUIRE(mesh.ok());
    REQUIRE(mesh->triangles.size() == 4);
    CHECK(mesh->areas == std::vector<std::uint8_t>{63, 63, 3, 3});
    CHECK(stats.unused_area_names == std::vector<std::string>{"group 'lava'", "material 'ice'"});
    CHECK(stats.warnings.back() == "areas.json: material 'ice' does not occur in level.obj");
    // without a table the areas stay empty (all ground)
    CHECK(parse_obj(kLevel, "level.obj")->areas.empty());
  }

  TEST_CASE("a mapped group ends in poly_area, and only over its own triangles") {
    const auto table = parse_area_table(R"({"groups": {"water": 3}})", "areas.json");
    REQUIRE(table.ok());
    ObjOptions options;
    options.areas = &*table;
    const auto mesh = parse_obj(kLevel, "level.obj", options);
    REQUIRE(mesh.ok());
    BuildContext ctx;
    ctx.set_threads(1);
    const auto out = mesh::build_navmesh(*mesh, *named_config("default"), ctx);
    REQUIRE(out.ok());
    const mesh::NavMesh& nav = out->navmesh;
    REQUIRE(nav.polygon_count() > 0);
    int water = 0;
    int ground = 0;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const AABB& box = nav.poly_bounds[p];
      CAPTURE(p);
      if (nav.poly_area[p] == 3) {
        ++water;
        CHECK(box.min.x >= 10.0F - 0.31F);
      } else {
        CHECK(nav.poly_area[p] == 63);
        ++ground;
        CHECK(box.max.x <= 10.0F + 0.31F);
      }
    }
    CHECK(water > 0);
    CHECK(ground > 0);
  }

#ifdef LEAPNAV_CLI_PATH
  TEST_CASE("build --areas maps an OBJ's groups; bad tables and built-in scenes are bad input") {
    const auto dir = std::filesystem::temp_directory_path() / "leapnav_area_table";
    std::filesystem::create_directories(dir);
    const std::string obj = (dir / "level.obj").string();
    std::ofstream(obj) << kLevel;
    const std::string good = (dir / "good.json").string();
    std::ofstream(good) << R"({"groups": {"water": 3, "lava": 9}})";
    const std::string bad = (dir / "bad.json").string();
    std::ofstream(bad) << R"({"groups": {"water": 64}})";
    const std::string lnav = (dir / "level.lnav").string();
    auto r = test::run_cli("build " + obj + " --areas " + good + " -o " + lnav);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("leapnav: warning: " + good + ": group 'lava' does not occur in " + obj) !=
          std::string::npos);
    r = test::run_cli("build " + obj + " --areas " + bad + " -o " + lnav);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find(bad + ": groups.water = 64 is out of range (0..63) [invalid_argument]") !=
          std::string::npos);
    r = test::run_cli("build builtin:demo --areas " + good + " -o " + lnav);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("builtin:demo has none") != std::string::npos);
  }
#endif
}
