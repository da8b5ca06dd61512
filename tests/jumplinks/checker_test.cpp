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
    CHECK(ok.regions_examined > 0);
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

TEST_SUITE("jumplinks.check.exact") {
  // The flat C1 arc from x = 3.5 to 6 (start and land at the floor, y = 1): over the wall's reach
  // (axis x in [4.25, 5.25], t in [0.75, 1.75]) the feet are lowest at both ends, 0.84 m above
  // the floor (0.64 * (2.5 * 0.75 - 0.75²)).
  const JumpLink kFlat{{3.5F, 1.0F, 3.0F}, {6.0F, 1.0F, 3.0F}, {6.0F, 1.0F, 3.0F}, 0, 0, 1};

  TEST_CASE("a link whose cylinder clears the wall top by 1 mm passes") {
    const test::JumpScene scene = wall_scene(0.84F - 0.001F);
    const LinkCheckReport report = check_links(one_link(scene, kJumpC1, kFlat), scene.triangles,
                                               scene.navmesh, scene.config.agent);
    CHECK(report.links_failed == 0);
    CHECK(report.worst_penetration == 0.0F);
  }

  TEST_CASE("a link whose cylinder cuts the wall top by 1 mm fails with a depth below 1 mm") {
    const test::JumpScene scene = wall_scene(0.84F + 0.001F);
    const LinkCheckReport report = check_links(one_link(scene, kJumpC1, kFlat), scene.triangles,
                                               scene.navmesh, scene.config.agent);
    CHECK(report.collision_failures == 1);
    // the wall's top edge is inside the cylinder by 1 mm vertically at the reach's ends; shrinking
    // both ways frees it sooner
    CHECK(report.worst_penetration > 1e-4F);
    CHECK(report.worst_penetration < 1e-3F);
  }

  TEST_CASE("a thin post that only arcs to the middle of the land segment meet is caught") {
    // land segment z in [0.5, 5.5] at x = 6; the post (2 cm square, up to 4 m) stands on the wall
    // at (4.75, 3.0): the arcs to the segment's ends pass it more than the radius away in xz
    const float r = 0.25F;
    const test::JumpScene scene = test::JumpSceneBuilder(48, 24)
                                      .box({0.0F, 0.0F, 0.0F}, {10.0F, 1.0F, 6.0F})
                                      .box({4.5F, 1.0F, 0.0F}, {5.0F, 1.5F, 6.0F})
                                      .box({4.74F, 1.5F, 2.99F}, {4.76F, 4.0F, 3.01F})
                                      .polygon({0.0F + r, 0.0F + r, 4.5F - r, 6.0F - r, 1.0F})
                                      .polygon({5.0F + r, 0.0F + r, 10.0F - r, 6.0F - r, 1.0F})
                                      .build();
    const Vec3 start{3.5F, 1.0F, 3.0F};
    const Vec3 end_a{6.0F, 1.0F, 0.5F};
    const Vec3 end_b{6.0F, 1.0F, 5.5F};
    for (const Vec3 end : {end_a, end_b}) {
      const LinkCheckReport lone =
          check_links(one_link(scene, kJumpC1, JumpLink{start, end, end, 0, 0, 1}), scene.triangles,
                      scene.navmesh, scene.config.agent);
      CHECK(lone.links_failed == 0);
    }
    const LinkCheckReport report =
        check_links(one_link(scene, kJumpC1, JumpLink{start, end_a, end_b, 0, 0, 1}),
                    scene.triangles, scene.navmesh, scene.config.agent);
    CHECK(report.collision_failures == 1);
    // the post passes through the axis of the arc to (6, 1, 3): as deep as the shrink allows
    CHECK(report.worst_penetration > 0.2F);
  }

  TEST_CASE("the verdict and the regions examined do not depend on the thread count") {
    const test::JumpScene scene = wall_scene(0.84F + 0.001F);
    JumpLinkSet set;
    set.configs = {kJumpC1};
    for (int k = 0; k < 40; ++k) {
      const float z = 0.5F + 0.125F * static_cast<float>(k);
      set.links.push_back(
          JumpLink{{3.5F, 1.0F, z}, {6.0F, 1.0F, 0.4F}, {6.0F, 1.0F, 5.6F}, 0, 0, 1});
    }
    index_links(set, scene.navmesh.polygon_count());
    LinkCheckOptions one;
    one.threads = 1;
    LinkCheckOptions two;
    two.threads = 2;
    const LinkCheckReport a =
        check_links(set, scene.triangles, scene.navmesh, scene.config.agent, one);
    const LinkCheckReport b =
        check_links(set, scene.triangles, scene.navmesh, scene.config.agent, two);
    CHECK(a.failed_links == b.failed_links);
    CHECK(a.regions_examined == b.regions_examined);
    CHECK(a.worst_penetration == b.worst_penetration);
    CHECK(a.links_failed == 40);
  }
}
