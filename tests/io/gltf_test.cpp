// Binary glTF export, read back with an independent GLB reader (tests/io/glb_reader.hpp): node
// names and order, accessor counts from the polygon and edge counts, POSITION bounds equal to the
// data, vertex positions and colours, jump arcs through their start and landing with the apex at
// h, and one error per bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/glb_reader.hpp"
#include "io/links_fixture.hpp"
#include "io/navmesh_fixture.hpp"
#include "leapnav/io/gltf.hpp"
#include "leapnav/io/render.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

/// POSITION min/max of a primitive equal the minimum and maximum of its decoded data.
void check_bounds(const test::Glb& glb, const nlohmann::json& primitive) {
  const int position = primitive["attributes"]["POSITION"];
  const auto data = glb.values(position);
  const auto& accessor = glb.json["accessors"][position];
  REQUIRE(accessor.contains("min"));
  REQUIRE(accessor.contains("max"));
  for (std::size_t c = 0; c < 3; ++c) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (std::size_t i = c; i < data.size(); i += 3)
      lo = std::min(lo, data[i]), hi = std::max(hi, data[i]);
    CHECK(accessor["min"][c].get<double>() == lo);
    CHECK(accessor["max"][c].get<double>() == hi);
  }
  const auto indices = glb.values(primitive["indices"]);
  const std::size_t vertices = glb.count(position);
  CHECK(
      std::all_of(indices.begin(), indices.end(), [&](double i) { return i < double(vertices); }));
  if (primitive["attributes"].contains("COLOR_0"))
    CHECK(glb.count(primitive["attributes"]["COLOR_0"]) == vertices);
}

double srgb_to_linear(int byte) {
  const double s = byte / 255.0;
  return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

}  // namespace

TEST_SUITE("io.gltf") {
  TEST_CASE("a navmesh alone gives the nodes navmesh and navmesh_edges with exact counts") {
    const mesh::NavMesh m = test::small_navmesh();
    auto bytes = export_gltf(m);
    REQUIRE(bytes.ok());
    const test::Glb glb = test::read_glb(*bytes);
    REQUIRE(glb.error.empty());
    CHECK(glb.node_names() == std::vector<std::string>{"navmesh", "navmesh_edges"});
    const auto& navmesh = *glb.primitive("navmesh");
    CHECK(navmesh["mode"] == 4);  // TRIANGLES
    // quads 0 and 1 give two triangles each, the triangle one: 5 triangles over 11 vertices
    CHECK(glb.count(navmesh["attributes"]["POSITION"]) == 11);
    CHECK(glb.count(navmesh["indices"]) == 15);
    check_bounds(glb, navmesh);
    // vertices are the polygons' own, lifted by 0.05 m, coloured by region
    const auto positions = glb.values(navmesh["attributes"]["POSITION"]);
    CHECK(positions[3 * 4 + 0] == doctest::Approx(3.0));   // polygon 1 starts at vertex 1
    CHECK(positions[3 * 8 + 1] == doctest::Approx(2.05));  // polygon 2 at y = 2
    const auto colors = glb.values(navmesh["attributes"]["COLOR_0"]);
    const std::string region2 = region_color(2);
    CHECK(colors[3 * 8 + 0] ==
          doctest::Approx(srgb_to_linear(std::stoi(region2.substr(1, 2), nullptr, 16))));
    CHECK(colors[0] != colors[3 * 8]);  // regions 1 and 2 differ
    // the triangles face up (+y): counter-clockwise seen from above
    const auto indices = glb.values(navmesh["indices"]);
    for (std::size_t t = 0; t < indices.size(); t += 3) {
      auto at = [&](std::size_t k, std::size_t c) {
        return positions[3 * static_cast<std::size_t>(indices[t + k]) + c];
      };
      const double ux = at(1, 0) - at(0, 0);
      const double uz = at(1, 2) - at(0, 2);
      const double vx = at(2, 0) - at(0, 0);
      const double vz = at(2, 2) - at(0, 2);
      CHECK(uz * vx - ux * vz > 0.0);  // y of (u x v)
    }
    // ten distinct edges (the shared edge of quads 0 and 1 once), as LINES
    const auto& edges = *glb.primitive("navmesh_edges");
    CHECK(edges["mode"] == 1);
    CHECK(glb.count(edges["indices"]) == 20);
    check_bounds(glb, edges);
    CHECK((*glb.node("navmesh"))["extras"]["polygons"] == 3);
  }

  TEST_CASE("level, links and path nodes: counts, bounds, arcs from start to landing") {
    const mesh::NavMesh m = test::small_navmesh();
    const jump::JumpLinkSet links = test::small_links();
    TriangleMesh level;
    level.name = "floor";
    level.vertices = {{-1, -0.1F, -1}, {7, -0.1F, -1}, {7, -0.1F, 4}, {-1, -0.1F, 4}};
    level.triangles = {{0, 2, 1}, {0, 3, 2}};
    std::vector<GltfPathSegment> path(3);
    path[0].points = {{0.5F, 0, 0.5F}, {2, 0, 1}, {4, 0, 1}};
    path[1].jump = true;
    path[1].points = {{4, 0, 1}, {2.5F, 0, 1.5F}};
    path[1].jump_height = 1.0F;
    path[1].jump_distance = std::hypot(1.5F, 0.5F);
    path[2].points = {{2.5F, 0, 1.5F}, {1, 0, 2}};
    GltfOptions options;
    options.arc_segments = 8;
    auto bytes = export_gltf(m, {&level, &links, &path}, options);
    REQUIRE(bytes.ok());
    const test::Glb glb = test::read_glb(*bytes);
    REQUIRE(glb.error.empty());
    CHECK(glb.node_names() ==
          std::vector<std::string>{"level", "navmesh", "navmesh_edges", "links", "path"});
    for (const char* name : {"level", "navmesh", "navmesh_edges", "links", "path"})
      check_bounds(glb, *glb.primitive(name));
    CHECK(glb.count((*glb.primitive("level"))["indices"]) == 6);
    const auto level_pos = glb.values((*glb.primitive("level"))["attributes"]["POSITION"]);
    CHECK(level_pos[1] == doctest::Approx(-0.1));

    // links: 4 links x (8 arc segments + 1 land segment) x 2 indices
    const auto& l = *glb.primitive("links");
    CHECK(glb.count(l["indices"]) == 4 * 9 * 2);
    const auto& extras = (*glb.node("links"))["extras"];
    CHECK(extras["link_ids"] == nlohmann::json::array({0, 1, 2, 3}));
    CHECK(extras["segments_per_link"] == 9);
    REQUIRE(extras["configs"].size() == 2);
    CHECK(extras["configs"][1]["label"] == "C2 (h 3 m, d 7.5 m, max fall 7.5 m)");
    CHECK(extras["configs"][0]["color"] == jump_config_color(0));
    // link 2 (C1, h 1): from (4, 0, 1) to the middle of its level land segment (2.5, 0, 1.5);
    // level ends give d' = L, so the apex, at the middle sample, is h above the start
    const auto pos = glb.values(l["attributes"]["POSITION"]);
    const std::size_t first = 2 * 11;  // 9 arc points + 2 land points per link
    CHECK(pos[3 * first + 0] == doctest::Approx(4.0));
    CHECK(pos[3 * first + 1] == doctest::Approx(0.0));
    CHECK(pos[3 * (first + 4) + 1] == doctest::Approx(1.0).epsilon(1e-5));
    CHECK(pos[3 * (first + 8) + 0] == doctest::Approx(2.5));
    CHECK(pos[3 * (first + 8) + 2] == doctest::Approx(1.5));
    for (std::size_t k = 0; k <= 8; ++k) CHECK(pos[3 * (first + k) + 1] <= 1.0 + 1e-5);
    // link 3 (C2) falls 2 m: every arc point at most h = 3 above its start (y = 2)
    for (std::size_t k = 0; k <= 8; ++k) CHECK(pos[3 * (3 * 11 + k) + 1] <= 5.0 + 1e-5);
    CHECK(pos[3 * (3 * 11 + 8) + 1] == doctest::Approx(0.0));

    // path: 2 walk segments, then 8 arc segments, then 1 walk segment, lifted 3 x 0.05 m
    const auto& p = *glb.primitive("path");
    CHECK(glb.count(p["indices"]) == (2 + 8 + 1) * 2);
    const auto path_pos = glb.values(p["attributes"]["POSITION"]);
    CHECK(path_pos[1] == doctest::Approx(0.15));
    CHECK(path_pos[3 * (3 + 4) + 1] == doctest::Approx(1.15).epsilon(1e-5));  // the jump's apex
  }

  TEST_CASE("links are subsampled evenly by id and the export is deterministic") {
    const auto& demo = test::demo_file();
    REQUIRE(demo.ok());
    const std::size_t n = demo->links->links.size();
    REQUIRE(n > 40);
    GltfOptions options;
    options.max_links = 25;
    auto a = export_gltf(demo->navmesh, {nullptr, &*demo->links, nullptr}, options);
    auto b = export_gltf(demo->navmesh, {nullptr, &*demo->links, nullptr}, options);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*a == *b);
    const test::Glb glb = test::read_glb(*a);
    REQUIRE(glb.error.empty());
    const auto& ids = (*glb.node("links"))["extras"]["link_ids"];
    REQUIRE(ids.size() == 25);
    for (std::size_t i = 0; i < 25; ++i) CHECK(ids[i] == i * n / 25);
    CHECK(glb.count((*glb.primitive("links"))["indices"]) == 25 * 17 * 2);
    std::size_t triangles = 0;
    for (std::uint32_t p = 0; p < demo->navmesh.polygon_count(); ++p)
      triangles += demo->navmesh.polygon(mesh::PolyId{p}).size() - 2;
    CHECK(glb.count((*glb.primitive("navmesh"))["indices"]) == 3 * triangles);
    check_bounds(glb, *glb.primitive("navmesh"));
  }

  TEST_CASE("bad input is an error naming it") {
    const mesh::NavMesh m = test::small_navmesh();
    GltfOptions options;
    options.lift = -1.0F;
    auto r = export_gltf(m, {}, options);
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::InvalidArgument);
    CHECK(r.error().message.find("lift") != std::string::npos);
    options = {};
    options.arc_segments = 1;
    CHECK(export_gltf(m, {}, options).error().code == ErrorCode::InvalidArgument);

    TriangleMesh level;
    level.name = "bad.obj";
    level.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    level.triangles = {{0, 1, 17}};
    r = export_gltf(m, {&level, nullptr, nullptr});
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::IndexOutOfRange);
    CHECK(r.error().message == "bad.obj: triangle 0 index 17 out of range (3 vertices)");

    jump::JumpLinkSet links = test::small_links();
    links.links[3].config = 5;
    r = export_gltf(m, {nullptr, &links, nullptr});
    REQUIRE(!r.ok());
    CHECK(r.error().message == "gltf: jump link 3 has configuration 5 of 2");

    std::vector<GltfPathSegment> path(1);
    path[0].points = {{0, 0, 0}, {std::nanf(""), 0, 0}};
    r = export_gltf(m, {nullptr, nullptr, &path});
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::NonFinite);
  }
}
