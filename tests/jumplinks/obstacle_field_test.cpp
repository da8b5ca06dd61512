#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

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

// Random solid columns (several disjoint spans, heights up to several 64-voxel words) with an
// open span on top of some solid spans; no navmesh needed.
struct RandomField {
  voxel::Heightfield solid;
  voxel::CompactHeightfield open;
};

RandomField random_field(std::mt19937& rng, int width, int depth, int height) {
  RandomField f;
  GridSpec grid;
  grid.cell_size = 0.25F;
  grid.cell_height = 0.25F;
  grid.width = width;
  grid.depth = depth;
  grid.height = height;
  f.solid.grid = grid;
  f.open.grid = grid;
  const auto columns = static_cast<std::size_t>(grid.column_count());
  f.solid.column_first.assign(columns + 1, 0);
  f.open.column_first.assign(columns + 1, 0);
  for (std::size_t c = 0; c < columns; ++c) {
    int y = static_cast<int>(rng() % 8);
    const int count = static_cast<int>(rng() % 4);
    for (int k = 0; k < count && y < height - 2; ++k) {
      const int top = std::min(height - 1, y + 1 + static_cast<int>(rng() % 90));
      f.solid.spans.push_back(
          {static_cast<std::uint16_t>(y), static_cast<std::uint16_t>(top), voxel::kNullArea});
      if (rng() % 2 == 0) {
        voxel::CompactSpan open;
        open.y = static_cast<std::uint16_t>(top);
        f.open.spans.push_back(open);
      }
      y = top + 1 + static_cast<int>(rng() % 20);
    }
    f.solid.column_first[c + 1] = static_cast<std::uint32_t>(f.solid.spans.size());
    f.open.column_first[c + 1] = static_cast<std::uint32_t>(f.open.spans.size());
  }
  return f;
}

// Reference: voxel k of column (x, z) is blocked when some solid span of a column within the
// radius covers it after growing down.
bool reference_blocked(const voxel::Heightfield& solid, const AgentConfig& agent, int grow, int x,
                       int z, int k) {
  const GridSpec& g = solid.grid;
  const int limit = static_cast<int>(agent.radius / g.cell_size) + 2;
  for (int dz = -limit; dz <= limit; ++dz) {
    for (int dx = -limit; dx <= limit; ++dx) {
      const double gx = std::max(std::abs(dx) - 1, 0) * static_cast<double>(g.cell_size);
      const double gz = std::max(std::abs(dz) - 1, 0) * static_cast<double>(g.cell_size);
      const double r = agent.radius;
      if (!(dx == 0 && dz == 0) && !(gx * gx + gz * gz < r * r)) continue;
      if (!g.in_bounds(x + dx, z + dz)) continue;
      const std::size_t c = g.column_index(x + dx, z + dz);
      for (std::uint32_t s = solid.first(c); s < solid.end(c); ++s)
        if (k >= solid.spans[s].min - grow && k < solid.spans[s].max) return true;
    }
  }
  return false;
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

  TEST_CASE("random tall columns match a voxel-by-voxel reference for 1 and 2 threads") {
    std::mt19937 rng(20261121);
    for (int round = 0; round < 4; ++round) {
      const RandomField f = random_field(rng, 9 + round, 7, 300);
      AgentConfig agent{1.8F, round % 2 == 0 ? 0.25F : 0.6F, 0.5F, 45.0F};
      BuildContext one;
      one.set_threads(1);
      BuildContext two;
      two.set_threads(2);
      const auto field = build_obstacle_field(f.solid, f.open, agent, one);
      const auto again = build_obstacle_field(f.solid, f.open, agent, two);
      REQUIRE(field.ok());
      REQUIRE(again.ok());
      CHECK(validate(*field, f.open).ok());
      CHECK(field->spans == again->spans);
      CHECK(field->column_first == again->column_first);
      const GridSpec& g = f.solid.grid;
      for (int z = 0; z < g.depth; ++z) {
        for (int x = 0; x < g.width; ++x) {
          const auto runs = column(*field, x, z);
          std::size_t r = 0;
          for (int k = 0; k < g.height; ++k) {
            while (r < runs.size() && runs[r].max <= k) ++r;
            const bool got = r < runs.size() && runs[r].min <= k;
            REQUIRE(got == reference_blocked(f.solid, agent, field->grow_down, x, z, k));
          }
          const std::size_t c = g.column_index(x, z);
          for (const ObstacleSpan& run : runs) {
            std::uint32_t expected = kNoWalkableSpan;
            for (std::uint32_t s = f.open.first(c); s < f.open.end(c); ++s)
              if (f.open.spans[s].y == run.max) expected = s;
            CHECK(run.walkable_span == expected);
          }
        }
      }
    }
  }

  TEST_CASE("a grid mismatch is an error") {
    const test::JumpScene scene = test::JumpSceneBuilder(8, 8).box({0, 0, 0}, {2, 1, 2}).build();
    voxel::CompactHeightfield other = scene.open;
    other.grid.width = 9;
    BuildContext ctx;
    CHECK_FALSE(build_obstacle_field(scene.solid, other, scene.config.agent, ctx).ok());
  }
}
