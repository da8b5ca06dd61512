// Jump link overlays on the SVG picture: per-configuration arcs, land segments and start dots,
// legend labels, and even, deterministic subsampling of large link sets. Set LEAPNAV_RENDER_OUT
// to a path to keep the demo picture for a visual check.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include "io/links_fixture.hpp"
#include "io/navmesh_fixture.hpp"
#include "io/svg_checks.hpp"
#include "leapnav/io/render.hpp"

using namespace leapnav;
using namespace leapnav::io;

using leapnav::test::check_numbers;
using leapnav::test::count_of;

TEST_SUITE("io.render") {
  TEST_CASE("jump link overlays: arcs to both segment ends, segments, start dots, legend") {
    const jump::JumpLinkSet links = test::small_links();
    const auto overlays = jump_link_overlays(links);
    REQUIRE(overlays.size() == 6);  // arcs, segments, starts for each of the two configurations
    CHECK(overlays[0].kind == OverlayKind::Arcs);
    CHECK(overlays[1].kind == OverlayKind::Segments);
    CHECK(overlays[2].kind == OverlayKind::Points);
    // C1: links 0 (a segment: two arcs) and 2 (a segment: two arcs)
    CHECK(overlays[0].points.size() == 8);
    CHECK(overlays[1].points.size() == 4);
    CHECK(overlays[2].points.size() == 2);
    // C2: link 1 (a point: one arc) and link 3 (two arcs)
    CHECK(overlays[3].points.size() == 6);
    CHECK(overlays[0].color == jump_config_color(0));
    CHECK(overlays[3].color == jump_config_color(1));
    CHECK(overlays[0].color != overlays[3].color);
    CHECK(overlays[0].label.rfind("jump C1 (h 1 m, d 2.5 m, max fall 2.5 m): 2 of 2 links", 0) ==
          0);
    CHECK(overlays[3].label.rfind("jump C2 (h 3 m, d 7.5 m, max fall 7.5 m): 2 of 2 links", 0) ==
          0);
    RenderOptions options;
    options.overlays = overlays;
    const std::string svg = render_svg(test::small_navmesh(), options);
    CHECK(count_of(svg, "class=\"overlay-arc\"") == 7);
    CHECK(count_of(svg, "class=\"overlay-arrow\"") == 7);
    CHECK(count_of(svg, "class=\"overlay-segment\"") == 4);
    CHECK(count_of(svg, "class=\"overlay-point\"") == 4);
    CHECK(count_of(svg, ">jump C") == 2);
    check_numbers(svg);
    CHECK(jump_link_overlays(jump::JumpLinkSet{}).empty());
  }

  TEST_CASE("jump link overlays subsample large sets evenly and deterministically") {
    const auto& demo = test::demo_file();
    REQUIRE(demo.ok());
    const jump::JumpLinkSet& links = *demo->links;
    const std::size_t n = links.links.size();
    REQUIRE(n > 40);
    JumpLinkOverlayOptions options;
    options.max_links = 20;
    const auto few = jump_link_overlays(links, options);
    REQUIRE(few.size() == 3);
    CHECK(few[2].points.size() == 20);
    for (std::size_t i = 0; i < 20; ++i) CHECK(few[2].points[i] == links.links[i * n / 20].start);
    CHECK(few[0].label.find(": 20 of " + std::to_string(n) + " links") != std::string::npos);
    CHECK(jump_link_overlays(links, options)[0].points == few[0].points);
    options.max_links = 0;
    CHECK(jump_link_overlays(links, options)[2].points.size() == n);
    options.max_links = n + 5;
    CHECK(jump_link_overlays(links, options)[2].points.size() == n);

    RenderOptions render;
    render.overlays = jump_link_overlays(links);
    const std::string svg = render_svg(demo->navmesh, render);
    CHECK(count_of(svg, "class=\"overlay-point\"") == std::min<std::size_t>(n, 400));
    check_numbers(svg);
    if (const char* out = std::getenv("LEAPNAV_RENDER_OUT")) {
      std::ofstream(out) << svg;
    }
  }
}

TEST_SUITE("io.render") {
  TEST_CASE("jump configurations are labelled by their preset name, else by their parameters") {
    CHECK(jump_config_label(jump::kJumpC2) == "C2 (h 3 m, d 7.5 m, max fall 7.5 m)");
    CHECK(jump_config_label(jump::kJumpC3) == "C3 (h 5 m, d 12.5 m, max fall 12.5 m)");
    CHECK(jump_config_label({2.0F, 5.0F, 2.0F}) == "(h 2 m, d 5 m, max fall 2 m)");
    // a file built with C2 alone: its only configuration (index 0) is still named C2
    jump::JumpLinkSet links = test::small_links();
    links.configs = {jump::kJumpC2, {2.0F, 5.0F, 2.0F}};
    const auto overlays = jump_link_overlays(links);
    REQUIRE(overlays.size() == 6);
    CHECK(overlays[0].label.rfind("jump C2 (h 3 m, d 7.5 m, max fall 7.5 m): 2 of 2 links", 0) ==
          0);
    CHECK(overlays[3].label.rfind("jump (h 2 m, d 5 m, max fall 2 m): 2 of 2 links", 0) == 0);
  }
}
