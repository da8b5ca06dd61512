// Closed-form scenes: each threshold is approached from both sides with a margin of at least a
// voxel, and every produced link set is validated and passes the exact soundness check.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/land_search.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

JumpLinkSet build(const test::JumpScene& scene, JumpConfig jump, int step = 1, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  JumpLinkOptions options;
  options.jumps = {jump};
  options.step = step;
  auto links =
      build_jump_links(scene.solid, scene.open, scene.navmesh, scene.config.agent, options, ctx);
  REQUIRE(links.ok());
  const Status status = validate(*links, scene.navmesh);
  CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
  for (const JumpLink& link : links->links) {
    CHECK(link.start_poly != link.land_poly);
  }
  const LinkCheckReport report =
      check_links(*links, scene.triangles, scene.navmesh, scene.config.agent);
  CHECK(report.links_checked == links->links.size());
  CHECK_MESSAGE(report.links_failed == 0,
                "unsound links: " << report.links_failed << " worst " << report.worst_penetration);
  return std::move(links).value();
}

std::size_t count_links(const JumpLinkSet& set, std::uint32_t from, std::uint32_t to) {
  std::size_t n = 0;
  for (std::uint32_t g = set.poly_first[from]; g < set.poly_first[from + 1]; ++g)
    if (set.group_land_poly[g] == to) n += set.group_first[g + 1] - set.group_first[g];
  return n;
}

// Two platforms 4 m long (x) and 4 m wide (z), 1 m high, the second `gap` m after the first and
// `rise` m higher (negative: lower). Polygon 0 is the first platform's top, polygon 1 the second's.
test::JumpScene two_platforms(float gap, float rise) {
  const float base = rise < 0.0F ? 1.0F - rise : 1.0F;
  return test::JumpSceneBuilder(80, 24)
      .platform({0.5F, 0.0F, 1.0F}, {4.5F, base, 5.0F})
      .platform({4.5F + gap, 0.0F, 1.0F}, {8.5F + gap, base + rise, 5.0F})
      .build();
}

}  // namespace

TEST_SUITE("jumplinks.scenes") {
  TEST_CASE("a gap well below the jump distance is crossed, one well above it is not") {
    // C1: d = 2.5; edge to edge the centre travels gap + 2 * radius
    const JumpLinkSet near = build(two_platforms(0.75F, 0.0F), kJumpC1);
    CHECK(count_links(near, 0, 1) > 0);
    CHECK(count_links(near, 1, 0) > 0);
    const JumpLinkSet far = build(two_platforms(3.0F, 0.0F), kJumpC1);
    CHECK(count_links(far, 0, 1) == 0);
    CHECK(count_links(far, 1, 0) == 0);
    // the larger jump crosses the wide gap
    const JumpLinkSet big = build(two_platforms(3.0F, 0.0F), kJumpC2, 2);
    CHECK(count_links(big, 0, 1) > 0);
  }

  TEST_CASE("a higher platform is reached only when the rise is below the jump height") {
    const JumpLinkSet low = build(two_platforms(0.5F, 0.5F), kJumpC1);
    CHECK(count_links(low, 0, 1) > 0);
    const JumpLinkSet high = build(two_platforms(0.5F, 1.5F), kJumpC1);
    CHECK(count_links(high, 0, 1) == 0);
    // the same rise is below C2's jump height of 3 m
    const JumpLinkSet big = build(two_platforms(0.5F, 1.5F), kJumpC2, 2);
    CHECK(count_links(big, 0, 1) > 0);
  }

  TEST_CASE("a lower platform is rejected when the fall exceeds max_fall") {
    const JumpLinkSet ok = build(two_platforms(0.5F, -1.0F), kJumpC1);
    CHECK(count_links(ok, 0, 1) > 0);  // fall 1 + 1 = 2 <= 2.5
    const JumpLinkSet deep = build(two_platforms(0.5F, -2.0F), kJumpC1);
    CHECK(count_links(deep, 0, 1) == 0);  // fall 1 + 2 = 3 > 2.5
    CHECK(count_links(deep, 1, 0) == 0);  // and 2 m up is above h
  }

  TEST_CASE("a ceiling over the gap that the agent's head would hit removes the links") {
    const auto scene_with_ceiling = [](float clearance) {
      return test::JumpSceneBuilder(80, 24)
          .platform({0.5F, 0.0F, 1.0F}, {4.5F, 1.0F, 5.0F})
          .platform({5.25F, 0.0F, 1.0F}, {9.25F, 1.0F, 5.0F})
          .box({3.5F, 1.0F + clearance, 0.0F}, {6.25F, 1.25F + clearance, 6.0F})
          .build();
    };
    // apex 1 m: feet clear a slab 2 m up, but the 1.8 m tall agent does not
    const JumpLinkSet blocked = build(scene_with_ceiling(2.0F), kJumpC1);
    CHECK(count_links(blocked, 0, 1) == 0);
    CHECK(count_links(blocked, 1, 0) == 0);
    // 1 + 1.8 = 2.8 < 3.25: the head passes under a slab 3.25 m up
    const JumpLinkSet clear = build(scene_with_ceiling(3.25F), kJumpC1);
    CHECK(count_links(clear, 0, 1) > 0);
  }

  TEST_CASE("a low wall between two floor areas is jumped over, a tall one is not") {
    const auto scene_with_wall = [](float wall) {
      const float r = 0.25F;
      return test::JumpSceneBuilder(48, 24)
          .box({0.0F, 0.0F, 0.0F}, {10.0F, 1.0F, 6.0F})
          .box({4.5F, 1.0F, 0.0F}, {5.0F, 1.0F + wall, 6.0F})
          .polygon({0.0F + r, 0.0F + r, 4.5F - r, 6.0F - r, 1.0F})
          .polygon({5.0F + r, 0.0F + r, 10.0F - r, 6.0F - r, 1.0F})
          .build();
    };
    const JumpLinkSet low = build(scene_with_wall(0.5F), kJumpC1);
    CHECK(count_links(low, 0, 1) > 0);
    CHECK(count_links(low, 1, 0) > 0);
    const JumpLinkSet tall = build(scene_with_wall(2.0F), kJumpC1);
    CHECK(count_links(tall, 0, 1) == 0);
    CHECK(count_links(tall, 1, 0) == 0);
  }

  TEST_CASE("a pillar shadows the land voxels behind it") {
    // a 12 x 12 m floor split into a central start polygon and a surrounding ring of four
    const float r = 0.25F;
    const float y = 1.0F;
    const test::JumpScene scene = test::JumpSceneBuilder(48, 48)
                                      .box({0, 0, 0}, {12, y, 12})
                                      .box({7.5F, y, 5.5F}, {8.0F, y + 4.0F, 6.5F})
                                      .polygon({5.0F, 5.0F, 7.0F, 7.0F, y})
                                      .polygon({r, r, 12 - r, 5.0F, y})
                                      .polygon({r, 7.0F, 12 - r, 12 - r, y})
                                      .polygon({r, 5.0F, 5.0F, 7.0F, y})
                                      .polygon({7.0F, 5.0F, 12 - r, 7.0F, y})
                                      .build();
    BuildContext ctx;
    const auto field = build_obstacle_bits(scene.solid, scene.config.agent, ctx);
    REQUIRE(field.ok());
    const std::vector<std::uint32_t> centre = centre_polygons(scene.open, scene.navmesh, 1);
    const LandSearch search(*field, scene.open,
                            kJumpC1);  // d = 2.5: lands about 2.5 m away on the floor
    std::vector<LandVoxel> voxels;
    // sample at (6, 6): column (24, 24), floor height 4 cells
    search.find(24, 24, 4, 0, centre, voxels);
    REQUIRE(voxels.size() > 8);
    // the pillar (x 7.5..8, z 5.5..6.5 plus the radius) subtends about +-25 degrees around +x;
    // nothing lands within 10 degrees of +x, while the opposite direction (-x) has land voxels
    int behind = 0;
    int opposite = 0;
    for (const LandVoxel& v : voxels) {
      const double dx = (v.x + 0.5) * 0.25 - 6.0;
      const double dz = (v.z + 0.5) * 0.25 - 6.0;
      const double angle = std::atan2(dz, dx) * 180.0 / std::numbers::pi;
      if (std::abs(angle) < 10.0) ++behind;
      if (std::abs(angle) > 170.0) ++opposite;
    }
    CHECK(behind == 0);
    CHECK(opposite > 0);
    // land voxels come out counter-clockwise: angles in [0, 360) never decrease
    double last = -1.0;
    bool ordered = true;
    for (const LandVoxel& v : voxels) {
      const double dx = (v.x + 0.5) * 0.25 - 6.0;
      const double dz = (v.z + 0.5) * 0.25 - 6.0;
      double angle = std::atan2(dz, dx);
      if (angle < 0.0) angle += 2.0 * std::numbers::pi;
      if (angle < last - 1e-9) ordered = false;
      last = angle;
    }
    CHECK(ordered);
    // the same scene through the generator: every link sound, none into the start polygon
    const JumpLinkSet links = build(scene, kJumpC1, 2);
    CHECK(!links.links.empty());
  }

  TEST_CASE("land voxels on an open floor form a counter-clockwise ring at the jump distance") {
    const float y = 1.0F;
    const test::JumpScene scene = test::JumpSceneBuilder(48, 48)
                                      .box({0, 0, 0}, {12, y, 12})
                                      .polygon({5.0F, 5.0F, 7.0F, 7.0F, y})
                                      .polygon({0.25F, 0.25F, 11.75F, 5.0F, y})
                                      .polygon({0.25F, 7.0F, 11.75F, 11.75F, y})
                                      .polygon({0.25F, 5.0F, 5.0F, 7.0F, y})
                                      .polygon({7.0F, 5.0F, 11.75F, 7.0F, y})
                                      .build();
    BuildContext ctx;
    const auto field = build_obstacle_bits(scene.solid, scene.config.agent, ctx);
    REQUIRE(field.ok());
    const std::vector<std::uint32_t> centre = centre_polygons(scene.open, scene.navmesh, 1);
    const LandSearch search(*field, scene.open, kJumpC1);
    std::vector<LandVoxel> voxels;
    std::uint64_t cells = 0;
    search.find(24, 24, 4, 0, centre, voxels, &cells);
    REQUIRE(voxels.size() > 8);
    CHECK(cells > voxels.size());
    double last = -1.0;
    for (const LandVoxel& v : voxels) {
      const double dx = (v.x + 0.5) * 0.25 - 6.0;
      const double dz = (v.z + 0.5) * 0.25 - 6.0;
      const double dist = std::hypot(dx, dz);
      // same height: landing where the arc first dips into the floor voxel, at d = 2.5 or a cell on
      CHECK(dist > 2.5 - 0.36);
      CHECK(dist < 2.64 + 0.36);
      double angle = std::atan2(dz, dx);
      if (angle < 0.0) angle += 2.0 * std::numbers::pi;
      CHECK(angle >= last - 1e-9);
      last = angle;
    }
  }
}
