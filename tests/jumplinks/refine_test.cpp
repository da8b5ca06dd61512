// Link refinement through the whole pipeline (thesis configuration: cells 0.25 m wide and high,
// agent radius 0.25 m): endpoints lifted from voxel tops to the triangles' surface on floors
// exactly on and just off voxel boundaries, on slopes and stairs; every refined link passes the
// exact check; refinement is identical for 1 and 2 threads.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

struct Refined {
  TriangleMesh triangles;
  BuildConfig config;
  mesh::BuildOutput built;
  JumpLinkSet voxel_links;
  JumpLinkSet links;
  LinkRefineStats stats;
};

Refined refine_scene(TriangleMesh triangles, int threads = 1) {
  auto config = named_config("thesis");
  REQUIRE(config.ok());
  BuildContext ctx;
  ctx.set_threads(threads);
  auto built = mesh::build_navmesh(triangles, *config, ctx);
  REQUIRE(built.ok());
  JumpLinkOptions options;
  options.jumps = {kJumpC1, kJumpC2};
  options.step = 2;
  auto links = build_jump_links(built->voxels.solid, built->voxels.compact, built->navmesh,
                                config->agent, options, ctx);
  REQUIRE(links.ok());
  JumpLinkSet voxel_links = *links;
  auto stats = refine_links(*links, triangles, built->navmesh, config->agent, {}, ctx);
  REQUIRE(stats.ok());
  REQUIRE(validate(*links, built->navmesh).ok());
  return {std::move(triangles),   std::move(config).value(), std::move(built).value(),
          std::move(voxel_links), std::move(links).value(),  *stats};
}

// Two platforms of height y with a 1.5 m gap along x.
TriangleMesh gap_scene(float y) {
  io::SceneBuilder scene("gap");
  scene.add_box({0.0F, 0.0F, 0.0F}, {6.0F, y, 6.0F});
  scene.add_box({7.5F, 0.0F, 0.0F}, {13.5F, y, 6.0F});
  return scene.take();
}

}  // namespace

TEST_SUITE("jumplinks.refine") {
  TEST_CASE("on a floor exactly on a voxel boundary and just off one, endpoints sit on the floor") {
    for (const float y : {1.0F, 1.03F, 0.99F}) {
      CAPTURE(y);
      const Refined r = refine_scene(gap_scene(y));
      REQUIRE(!r.links.links.empty());
      CHECK(r.stats.surface_misses == 0);
      CHECK(r.stats.links_failing == 0);
      // voxel tops sit up to a cell above the floor; refined points are on it (float rounding)
      bool voxel_above = false;
      for (const JumpLink& l : r.voxel_links.links) voxel_above |= l.start.y > y + 0.005F;
      CHECK(voxel_above);
      for (const JumpLink& l : r.links.links) {
        CHECK(std::abs(l.start.y - y) <= 1e-5F);
        CHECK(std::abs(l.land_a.y - y) <= 1e-5F);
        CHECK(std::abs(l.land_b.y - y) <= 1e-5F);
      }
      const LinkCheckReport check =
          check_links(r.links, r.triangles, r.built.navmesh, r.config.agent);
      CHECK(check.links_failed == 0);
    }
  }

  TEST_CASE("on a slope and on stairs, endpoints carry the surface height at their xz") {
    io::SceneBuilder scene("slope-stairs");
    scene.add_box({0.0F, 0.0F, 0.0F}, {6.0F, 1.0F, 6.0F});
    // a 20 degree ramp up from x = 7.5 and stairs of 0.2 m steps beside it
    scene.add_ramp({7.5F, 0.0F, 0.0F}, {1.0F, 0.0F}, 6.0F, 3.0F, 20.0F);
    scene.add_stairs({7.5F, 0.0F, 3.0F}, {1.0F, 0.0F}, 3.0F, 10, 0.2F, 0.6F);
    const Refined r = refine_scene(scene.take());
    REQUIRE(!r.links.links.empty());
    const LinkChecker checker(r.triangles, r.built.navmesh, r.config.agent, {});
    const auto floor_at = [&](Vec3 p) {
      // the walkable surface independently: highest walkable triangle point within 0.5 m below
      return checker.surface_height(p.x, p.z, p.y - 0.5, p.y + 1e-3);
    };
    int on_slope = 0;
    int on_steps = 0;
    for (const JumpLink& l : r.links.links) {
      for (const Vec3 p : {l.start, l.land_a, l.land_b}) {
        const double floor = floor_at(p);
        REQUIRE(!std::isnan(floor));
        CHECK(std::abs(floor - p.y) <= 1e-5);
        if (p.x > 7.6F && p.z < 2.9F) ++on_slope;
        if (p.x > 7.6F && p.z > 3.1F) ++on_steps;
      }
    }
    CHECK(on_slope > 0);
    CHECK(on_steps > 0);
    const LinkCheckReport check =
        check_links(r.links, r.triangles, r.built.navmesh, r.config.agent);
    CHECK(check.links_failed == 0);
  }

  TEST_CASE("refinement is identical for 1 and 2 threads") {
    io::SceneBuilder scene("slope");
    scene.add_box({0.0F, 0.0F, 0.0F}, {6.0F, 1.0F, 6.0F});
    scene.add_ramp({7.5F, 0.0F, 0.0F}, {1.0F, 0.0F}, 6.0F, 6.0F, 20.0F);
    const TriangleMesh triangles = scene.take();
    const Refined one = refine_scene(triangles, 1);
    const Refined two = refine_scene(triangles, 2);
    CHECK(content_hash(one.links) == content_hash(two.links));
    CHECK(one.stats.links_out == two.stats.links_out);
    CHECK(one.stats.links_out == one.links.links.size());
  }
}
