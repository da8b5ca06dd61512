#include <doctest/doctest.h>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

// Floor x [0, 10] at 1 m with a wall at x [4.5, 5] of the given height; polygons either side.
test::JumpScene wall_scene(float wall) {
  const float r = 0.25F;
  return test::JumpSceneBuilder(48, 24)
      .box({0.0F, 0.0F, 0.0F}, {10.0F, 1.0F, 6.0F})
      .box({4.5F, 1.0F, 0.0F}, {5.0F, 1.0F + wall, 6.0F})
      .polygon({0.0F + r, 0.0F + r, 4.5F - r, 6.0F - r, 1.0F})
      .polygon({5.0F + r, 0.0F + r, 10.0F - r, 6.0F - r, 1.0F})
      .build();
}

JumpLinkSet one_link(const test::JumpScene& scene, JumpConfig config, JumpLink link) {
  JumpLinkSet set;
  set.configs = {config};
  set.links = {link};
  index_links(set, scene.navmesh.polygon_count());
  REQUIRE(validate(set, scene.navmesh).ok());
  return set;
}

}  // namespace

TEST_SUITE("jumplinks.check") {
  TEST_CASE("a link over a low wall passes and the same link through a tall wall fails") {
    const JumpLink link{{3.5F, 1.0F, 3.0F}, {6.0F, 1.0F, 2.5F}, {6.0F, 1.0F, 3.5F}, 0, 0, 1};
    const test::JumpScene low = wall_scene(0.5F);
    const LinkCheckReport ok =
        check_links(one_link(low, kJumpC1, link), low.triangles, low.navmesh, low.config.agent);
    CHECK(ok.links_checked == 1);
    CHECK(ok.links_failed == 0);
    CHECK(ok.trajectories_checked == 11);  // 1 m segment at 0.1 m spacing, ends included
    const test::JumpScene tall = wall_scene(2.0F);
    const LinkCheckReport bad =
        check_links(one_link(tall, kJumpC1, link), tall.triangles, tall.navmesh, tall.config.agent);
    CHECK(bad.links_failed == 1);
    CHECK(bad.collision_failures == 1);
    CHECK(bad.landing_failures == 0);
    CHECK(bad.failed_links == std::vector<std::uint32_t>{0});
    // the wall is 0.5 m thick and the agent 0.5 m wide: the cylinder is deep inside it
    CHECK(bad.worst_penetration > 0.2F);
  }

  TEST_CASE("a cylinder that only clips the wall's edge with its radius is caught") {
    // start close to the wall: the rising feet clear the wall top with the axis (0.64 m > 0.6 m
    // at the wall face) but the cylinder's side meets the wall's top corner
    const test::JumpScene scene = wall_scene(0.6F);
    const JumpLink link{{4.0F, 1.0F, 3.0F}, {6.5F, 1.0F, 3.0F}, {6.5F, 1.0F, 3.0F}, 0, 0, 1};
    // at x = 4.25 (wall minus radius) the feet are at 0.64 * (2.5 * 0.25 - 0.0625) = 0.36 m < 0.6
    const LinkCheckReport report = check_links(one_link(scene, kJumpC1, link), scene.triangles,
                                               scene.navmesh, scene.config.agent);
    CHECK(report.collision_failures == 1);
  }

  TEST_CASE("a land point off its polygon or below max_fall is a landing failure") {
    const test::JumpScene scene = wall_scene(0.5F);
    const JumpLink off{{3.5F, 1.0F, 3.0F}, {9.95F, 1.0F, 3.0F}, {9.95F, 1.0F, 3.0F}, 0, 0, 1};
    const LinkCheckReport a = check_links(one_link(scene, kJumpC3, off), scene.triangles,
                                          scene.navmesh, scene.config.agent);
    CHECK(a.landing_failures == 1);
    JumpConfig short_fall = kJumpC1;
    short_fall.max_fall = 0.5F;  // apex 1 m above the start, landing at start height: fall 1 m
    const JumpLink flat{{3.5F, 1.0F, 3.0F}, {6.0F, 1.0F, 3.0F}, {6.0F, 1.0F, 3.0F}, 0, 0, 1};
    const LinkCheckReport b = check_links(one_link(scene, short_fall, flat), scene.triangles,
                                          scene.navmesh, scene.config.agent);
    CHECK(b.landing_failures == 1);
  }

  TEST_CASE("generated links over a low wall are sound, and identical for 1 and 2 threads") {
    const test::JumpScene scene = wall_scene(0.5F);
    JumpLinkOptions options;
    options.jumps = {kJumpC1, kJumpC2};
    std::uint64_t hashes[2] = {0, 0};
    for (const int threads : {1, 2}) {
      BuildContext ctx;
      ctx.set_threads(threads);
      auto links = build_jump_links(scene.solid, scene.open, scene.navmesh, scene.config.agent,
                                    options, ctx);
      REQUIRE(links.ok());
      REQUIRE(validate(*links, scene.navmesh).ok());
      CHECK(links->configs.size() == 2);
      hashes[threads - 1] = content_hash(*links);
      CHECK(ctx.time_of("jump_search") >= 0.0);
      LinkCheckOptions check;
      check.threads = threads;
      const LinkCheckReport report =
          check_links(*links, scene.triangles, scene.navmesh, scene.config.agent, check);
      CHECK(report.links_failed == 0);
      CHECK(report.links_checked == links->links.size());
      CHECK(links->memory_bytes() >= links->links.size() * sizeof(JumpLink));
    }
    CHECK(hashes[0] == hashes[1]);
  }

  TEST_CASE("a navmesh without a span map aligned to the heightfield is an error") {
    test::JumpScene scene = wall_scene(0.5F);
    scene.navmesh.span_poly.pop_back();
    BuildContext ctx;
    JumpLinkOptions options;
    options.jumps = {kJumpC1};
    auto links =
        build_jump_links(scene.solid, scene.open, scene.navmesh, scene.config.agent, options, ctx);
    REQUIRE_FALSE(links.ok());
    CHECK(links.error().code == ErrorCode::InvalidArgument);
    options.step = 0;
    auto bad =
        build_jump_links(scene.solid, scene.open, scene.navmesh, scene.config.agent, options, ctx);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("step") != std::string::npos);
  }
}
