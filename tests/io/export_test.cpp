// Navmesh exports (JSON, OBJ) and the SVG picture: structure, counts, exact values, valid numbers;
// jump links in both exports.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "io/links_fixture.hpp"
#include "io/navmesh_fixture.hpp"
#include "io/svg_checks.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/export.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/render.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using namespace leapnav::io;

using leapnav::test::check_numbers;
using leapnav::test::count_of;

TEST_SUITE("io.export") {
  TEST_CASE("the JSON export has every vertex and polygon with -1 for boundary edges") {
    const mesh::NavMesh m = test::small_navmesh();
    const auto json = nlohmann::json::parse(export_navmesh_json(m));
    REQUIRE(json["vertices"].size() == 9);
    CHECK(json["vertices"][4] == nlohmann::json::array({6.0, 0.0, 0.0}));
    REQUIRE(json["polygons"].size() == 3);
    const auto& a = json["polygons"][0];
    CHECK(a["vertices"] == nlohmann::json::array({0, 1, 2, 3}));
    CHECK(a["neighbors"] == nlohmann::json::array({-1, 1, -1, -1}));
    CHECK(a["region"] == 1);
    CHECK(json["polygons"][1]["flags"] == 4);
    CHECK(json["polygons"][2]["region"] == 2);
    CHECK(json["polygons"][1]["neighbors"] == nlohmann::json::array({-1, -1, -1, 0}));
    CHECK(json["config"]["voxel"]["cell_size"] == 0.3);
    CHECK(json["config"]["name"] == "default");
    CHECK(json["grid"]["width"] == 20);
    CHECK(export_navmesh_json(m) == export_navmesh_json(m));
  }

  TEST_CASE("the OBJ export has one upward-facing face per polygon") {
    const mesh::NavMesh m = test::small_navmesh();
    const std::string text = export_navmesh_obj(m);
    CHECK(count_of(text, "\nf ") == 3);
    CHECK(count_of(text, "\ng region_") == 2);
    const auto back = parse_obj(text, "nav.obj");
    REQUIRE(back.ok());
    CHECK(back->vertices == m.vertices);
    REQUIRE(back->triangles.size() == 5);  // 2 quads and a triangle
    for (const auto& t : back->triangles) {
      const Vec3 a = back->vertices[t[0]];
      const Vec3 n = cross(back->vertices[t[1]] - a, back->vertices[t[2]] - a);
      CHECK(n.y > 0);
    }
  }
}

TEST_SUITE("io.export") {
  TEST_CASE("the JSON export lists every link with its configuration, in id order") {
    const mesh::NavMesh m = test::small_navmesh();
    const jump::JumpLinkSet links = test::small_links();
    CHECK(nlohmann::json::parse(export_navmesh_json(m)).count("links") == 0);
    const auto json = nlohmann::json::parse(export_navmesh_json(m, &links));
    REQUIRE(json["links"].size() == 4);
    const auto& first = json["links"][0];
    CHECK(first["start"] == nlohmann::json::array({1.0, 0.0, 1.0}));
    CHECK(first["land"] == nlohmann::json::parse("[[0.5, 2.0, 0.5], [1.5, 2.0, 0.5]]"));
    CHECK(first["h"] == 1.0);
    CHECK(first["d"] == 2.5);
    CHECK(first["max_fall"] == 2.5);
    CHECK(first["start_polygon"] == 0);
    CHECK(first["land_polygon"] == 2);
    const auto& last = json["links"][3];
    CHECK(last["h"] == 3.0);
    CHECK(last["d"] == 7.5);
    CHECK(last["start_polygon"] == 2);
    CHECK(last["land_polygon"] == 1);
    for (std::size_t k = 0; k < links.links.size(); ++k) {
      const auto& l = json["links"][k];
      CHECK(l["start_polygon"] == links.links[k].start_poly);
      CHECK(l["land"][1][2] == links.links[k].land_b.z);
    }
    CHECK(json["polygons"].size() == 3);
    CHECK(export_navmesh_json(m, &links) == export_navmesh_json(m, &links));
  }

  TEST_CASE("the OBJ export draws each link as three line elements in its own group") {
    const mesh::NavMesh m = test::small_navmesh();
    const jump::JumpLinkSet links = test::small_links();
    CHECK(export_navmesh_obj(m, nullptr) == export_navmesh_obj(m));
    const std::string text = export_navmesh_obj(m, &links);
    CHECK(text.rfind(export_navmesh_obj(m), 0) == 0);  // the navmesh part is unchanged
    CHECK(count_of(text, "\ng jump_links\n") == 1);
    CHECK(count_of(text, "\nl ") == 12);
    CHECK(count_of(text, "\n# link ") == 4);
    // link 0: vertices 10, 11, 12 after the navmesh's 9
    CHECK(text.find("# link 0\nv 1 0 1\nv 0.5 2 0.5\nv 1.5 2 0.5\nl 10 11\nl 10 12\nl 11 12\n") !=
          std::string::npos);
    CHECK(text.find("l 19 20\nl 19 21\nl 20 21\n") != std::string::npos);  // link 3
    const auto back = parse_obj(text, "nav.obj");
    REQUIRE(back.ok());
    CHECK(back->vertices.size() == 9 + 12);
    CHECK(back->triangles.size() == 5);  // lines add no faces
  }

  TEST_CASE("the demo navmesh exports its generated links") {
    const auto& demo = test::demo_file();
    REQUIRE(demo.ok());
    const auto json = nlohmann::json::parse(export_navmesh_json(demo->navmesh, &*demo->links));
    REQUIRE(json["links"].size() == demo->links->links.size());
    for (const auto& l : json["links"]) {
      CHECK(l["h"] == 1.0);
      CHECK(l["start_polygon"] != l["land_polygon"]);
      CHECK(l["land_polygon"] < json["polygons"].size());
    }
    const std::string obj = export_navmesh_obj(demo->navmesh, &*demo->links);
    CHECK(count_of(obj, "\nl ") == 3 * demo->links->links.size());
  }
}

TEST_SUITE("io.render") {
  TEST_CASE("the SVG draws every polygon and edge, lowest first") {
    const mesh::NavMesh m = test::small_navmesh();
    const std::string svg = render_svg(m, {});
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(count_of(svg, "class=\"poly\"") == 3);
    CHECK(count_of(svg, "class=\"internal\"") == 2);
    CHECK(count_of(svg, "class=\"boundary\"") == 9);
    CHECK(count_of(svg, "<svg") == 1);
    CHECK(count_of(svg, "</svg>") == 1);
    CHECK(svg.find("data-poly=\"2\"") > svg.find("data-poly=\"1\""));
    CHECK(svg.find("data-poly=\"1\"") > svg.find("data-poly=\"0\""));
    CHECK(svg.find("3 polygons, 2 regions") != std::string::npos);
    CHECK(svg.find("id=\"scale\"") != std::string::npos);
    CHECK(svg.find("north up") != std::string::npos);
    check_numbers(svg);
    CHECK(render_svg(m, {}) == svg);
  }

  TEST_CASE("region colours differ between regions; height mode has a ramp legend") {
    const mesh::NavMesh m = test::small_navmesh();
    const std::string svg = render_svg(m, {});
    const auto fill_of = [&](std::string_view poly) {
      const std::size_t at = svg.find(poly);
      const std::size_t fill = svg.find("fill=\"", at) + 6;
      return svg.substr(fill, 7);
    };
    CHECK(fill_of("data-poly=\"0\"") == fill_of("data-poly=\"1\""));
    CHECK(fill_of("data-poly=\"0\"") != fill_of("data-poly=\"2\""));
    RenderOptions height;
    height.fill = FillMode::Height;
    const std::string by_height = render_svg(m, height);
    CHECK(by_height.find("height 0.00 m to 2.00 m") != std::string::npos);
    check_numbers(by_height);
  }

  TEST_CASE("overlays are drawn with their kinds and labels") {
    RenderOptions options;
    options.pixels_per_metre = 20;
    options.title = "t<1>";
    Overlay path;
    path.points = {{0.5F, 0, 0.5F}, {5, 0, 2}, {1, 2, 1}};
    path.label = "path & more";
    Overlay dots;
    dots.kind = OverlayKind::Points;
    dots.points = {{0.5F, 0, 0.5F}, {5, 0, 2}};
    dots.label = "path & more";  // same label: listed once
    Overlay jumps;
    jumps.kind = OverlayKind::Arcs;
    jumps.points = {{1, 0, 1}, {1, 2, 1.5F}, {5, 0, 1}};  // the odd last point is ignored
    jumps.dashed = true;
    jumps.label = "jumps";
    options.overlays = {path, dots, jumps};
    const std::string svg = render_svg(test::small_navmesh(), options);
    CHECK(count_of(svg, "class=\"overlay-polyline\"") == 1);
    CHECK(count_of(svg, "class=\"overlay-point\"") == 2);
    CHECK(count_of(svg, "class=\"overlay-arc\"") == 1);
    CHECK(count_of(svg, "class=\"overlay-arrow\"") == 1);
    CHECK(count_of(svg, "stroke-dasharray") == 2);  // the arc and its legend line
    CHECK(count_of(svg, ">path &amp; more</text>") == 1);
    CHECK(count_of(svg, ">jumps</text>") == 1);
    CHECK(svg.find(">t&lt;1&gt;</text>") != std::string::npos);
    CHECK(svg.find("width=\"520.00\"") != std::string::npos);  // 6 m * 20 px + margins < minimum
    check_numbers(svg);
  }

  TEST_CASE("an empty navmesh gives a picture saying so") {
    const std::string svg = render_svg(mesh::NavMesh{}, {});
    CHECK(svg.find("empty navmesh") != std::string::npos);
    CHECK(count_of(svg, "class=\"poly\"") == 0);
  }

  TEST_CASE("the demo navmesh renders every polygon") {
    const auto scene = builtin_scene("demo");
    REQUIRE(scene.ok());
    BuildContext ctx;
    const auto built = mesh::build_navmesh(*scene, *named_config("default"), ctx);
    REQUIRE(built.ok());
    const mesh::NavMesh& m = built->navmesh;
    const std::string svg = render_svg(m, {});
    CHECK(count_of(svg, "class=\"poly\"") == m.polygon_count());
    std::size_t edges = 0;
    std::size_t boundary = 0;
    for (const std::uint32_t q : m.poly_neighbors) {
      ++edges;
      if (q == mesh::kNoPoly) ++boundary;
    }
    CHECK(count_of(svg, "class=\"boundary\"") == boundary);
    CHECK(count_of(svg, "class=\"internal\"") == edges - boundary);
    check_numbers(svg);
    const auto json = nlohmann::json::parse(export_navmesh_json(m));
    CHECK(json["polygons"].size() == m.polygon_count());
  }
}
