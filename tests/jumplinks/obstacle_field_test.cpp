#include <doctest/doctest.h>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

std::vector<ObstacleSpan> column(const ObstacleField& f, int x, int z) {
  const std::size_t c = f.grid.column_index(x, z);
  return {f.spans.begin() + f.first(c), f.spans.begin() + f.end(c)};
}

}  // namespace

TEST_SUITE("jumplinks.obstacle_field") {
  TEST_CASE(
      "a floor stays walkable and a wall blocks the feet heights beside it within the radius") {
    // floor 2 m thick at y [0, 1]; a wall column block at x [2, 2.25] up to 3 m
    const test::JumpScene scene = test::JumpSceneBuilder(16, 16)
                                      .box({0, 0, 0}, {4, 1, 4})
                                      .box({2, 1, 0}, {2.25F, 3, 4})
                                      .build();
    BuildContext ctx;
    const auto field = build_obstacle_field(scene.solid, scene.open, scene.config.agent, ctx);
    REQUIRE(field.ok());
    CHECK(validate(*field, scene.open).ok());
    CHECK(field->grow_down == 8);  // 1.8 / 0.25 = 7.2, up
    CHECK(field->reach == 1);      // radius 0.25 = one cell: only the 8 neighbours
    // far from the wall: one run [0, 4) (floor, grown down to 0), top walkable
    auto far = column(*field, 0, 5);
    REQUIRE(far.size() == 1);
    CHECK(far[0].min == 0);
    CHECK(far[0].max == 4);
    CHECK(far[0].walkable_span != kNoWalkableSpan);
    // the wall's column and its neighbours (x = 7, 9) are blocked up to the wall top (12); the
    // wall's own top is a floor, its neighbours' floors (at 4) are buried
    for (const int x : {7, 8, 9}) {
      auto c = column(*field, x, 5);
      REQUIRE(c.size() == 1);
      CHECK(c[0].max == 12);
      CHECK((c[0].walkable_span != kNoWalkableSpan) == (x == 8));
    }
    // two columns away the floor is walkable again
    auto next = column(*field, 10, 5);
    REQUIRE(next.size() == 1);
    CHECK(next[0].max == 4);
    CHECK(next[0].walkable_span != kNoWalkableSpan);
  }

  TEST_CASE("a ceiling grows down by the agent height and a larger radius reaches farther") {
    // floor at 1 m, a slab at [4, 4.25] m over x [2, 4]
    AgentConfig agent{1.8F, 0.6F, 0.5F, 45.0F};
    const test::JumpScene scene = test::JumpSceneBuilder(16, 8)
                                      .agent(agent)
                                      .box({0, 0, 0}, {4, 1, 2})
                                      .box({2, 4, 0}, {4, 4.25F, 2})
                                      .build();
    BuildContext ctx;
    const auto field = build_obstacle_field(scene.solid, scene.open, agent, ctx);
    REQUIRE(field.ok());
    CHECK(validate(*field, scene.open).ok());
    CHECK(field->reach == 3);  // 0.6 m: offsets with gap (|d| - 1) * 0.25 < 0.6, so |d| <= 3
    // under the slab: floor run [0, 4) and the slab grown down by 8: [8, 17)
    auto under = column(*field, 10, 4);
    REQUIRE(under.size() == 2);
    CHECK(under[0].max == 4);
    CHECK(under[1].min == 8);
    CHECK(under[1].max == 17);
    // 3 columns left of the slab (x = 5) still blocked, 4 columns left (x = 4) not
    CHECK(column(*field, 5, 4).size() == 2);
    CHECK(column(*field, 4, 4).size() == 1);
  }

  TEST_CASE("a grid mismatch is an error") {
    const test::JumpScene scene = test::JumpSceneBuilder(8, 8).box({0, 0, 0}, {2, 1, 2}).build();
    voxel::CompactHeightfield other = scene.open;
    other.grid.width = 9;
    BuildContext ctx;
    CHECK_FALSE(build_obstacle_field(scene.solid, other, scene.config.agent, ctx).ok());
  }
}
