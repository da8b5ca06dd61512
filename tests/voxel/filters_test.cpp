#include <doctest/doctest.h>

#include "leapnav/voxel/filters.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;
using namespace leapnav::voxel::test;

namespace {

Heightfield apply(Heightfield hf, const VoxelParams& params,
                  Result<Heightfield> (*filter)(Heightfield, const VoxelParams&, BuildContext&),
                  int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = filter(std::move(hf), params, ctx);
  REQUIRE(out.ok());
  require_valid(*out);
  return std::move(out).value();
}

}  // namespace

TEST_SUITE("voxel.filters") {
  TEST_CASE("an unwalkable span within climb above walkable ground becomes walkable, once") {
    const VoxelParams params = test_params(4, 2, 0);  // climb 2 cells of 0.25 m
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 1, 1, 0.0F);        // [0, 1) walkable
    add_quad_down(mesh, 0, 0, 1, 1, 0.5F);   // [2, 3) unwalkable, top 2 above: lifted
    add_quad_down(mesh, 0, 0, 1, 1, 1.0F);   // [4, 5) above an obstacle: not lifted
    add_quad(mesh, 1, 0, 2, 1, 0.0F);        // second column: [0, 1) walkable
    add_quad_down(mesh, 1, 0, 2, 1, 0.75F);  // [3, 4) top 3 above: too high
    const Heightfield hf = rasterize_checked(mesh, test_grid(2, 1, 20, 1.0F, 0.25F), params);
    REQUIRE(column_spans(hf, 0, 0).size() == 3);
    REQUIRE(column_spans(hf, 0, 0)[1] == Span{2, 3, kNullArea});
    const Heightfield out = apply(hf, params, filter_low_hanging_obstacles);
    CHECK(column_spans(out, 0, 0) ==
          std::vector<Span>{{0, 1, kWalkableArea}, {2, 3, kWalkableArea}, {4, 5, kNullArea}});
    CHECK(column_spans(out, 1, 0) == std::vector<Span>{{0, 1, kWalkableArea}, {3, 4, kNullArea}});
  }
  TEST_CASE("a step of exactly max climb is no ledge and one voxel more is") {
    const VoxelParams params = test_params(4, 2, 0);
    for (const auto& [step, walkable] : {std::pair{0.5F, 16U}, std::pair{0.75F, 14U}}) {
      TriangleMesh mesh;
      add_quad(mesh, 0, 0, 5, 4, 0.0F);
      add_quad(mesh, 5, 0, 10, 4, step);
      const Heightfield hf = rasterize_checked(mesh, test_grid(10, 4, 20, 1.0F, 0.25F), params);
      CHECK(count_walkable(hf) == 40);
      const Heightfield out = apply(hf, params, filter_ledges);
      // the grid border is a drop; inside, only the upper step's edge can be a ledge
      CHECK(count_walkable(out) == walkable);
      CHECK((column_spans(out, 5, 1)[0].area == kWalkableArea) == (walkable == 16U));
      CHECK(column_spans(out, 4, 1)[0].area == kWalkableArea);
    }
  }
  TEST_CASE("a platform next to a deep drop loses its edge") {
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 8, 8, 0.0F);
    add_quad(mesh, 2, 2, 6, 6, 2.0F);  // a floating platform 8 cells up
    const Heightfield hf = rasterize_checked(mesh, test_grid(8, 8, 20, 1.0F, 0.25F), params);
    const Heightfield out = apply(hf, params, filter_ledges);
    // ground: the 6 x 6 inner columns; the platform: its 2 x 2 centre (a 4 x 4 quad)
    CHECK(count_walkable(out) == 36 + 4);
    CHECK(column_spans(out, 3, 3)[1].area == kWalkableArea);
    CHECK(column_spans(out, 2, 3)[1].area == kNullArea);
  }
  TEST_CASE("a steep staircase of climb-sized steps is too steep") {
    // neighbours 2 cells below and 2 above: within climb each, 4 apart together
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    for (int i = 0; i < 6; ++i) {
      add_quad(mesh, static_cast<float>(i), 0, static_cast<float>(i + 1), 3,
               0.5F * static_cast<float>(i));
    }
    const Heightfield hf = rasterize_checked(mesh, test_grid(6, 3, 20, 1.0F, 0.25F), params);
    const Heightfield out = apply(hf, params, filter_ledges);
    CHECK(count_walkable(out) == 0);
    VoxelParams tolerant = params;
    tolerant.walkable_climb = 4;
    CHECK(count_walkable(apply(hf, tolerant, filter_ledges)) == 4);  // x 1..4 of row z = 1
  }
  TEST_CASE(
      "an overhang lower than the agent removes the floor beneath it, a higher one does not") {
    const VoxelParams params = test_params(4, 2, 0);  // agent 4 cells tall
    for (const auto& [ceiling, floor_walkable] : {std::pair{1.0F, 91U}, std::pair{1.25F, 100U}}) {
      TriangleMesh mesh;
      add_quad(mesh, 0, 0, 10, 10, 0.0F);
      add_quad(mesh, 3, 3, 6, 6, ceiling);  // 3 x 3 columns, its bottom at 4 or 5 cells
      const Heightfield hf = rasterize_checked(mesh, test_grid(10, 10, 20, 1.0F, 0.25F), params);
      const Heightfield out = apply(hf, params, filter_low_clearance);
      std::size_t floor = 0;
      for (int z = 0; z < 10; ++z) {
        for (int x = 0; x < 10; ++x) floor += column_spans(out, x, z)[0].area == kWalkableArea;
      }
      CHECK(floor == floor_walkable);
      CHECK(count_walkable(out) == floor_walkable + 9);  // the overhang's top stays walkable
    }
  }
  TEST_CASE("the fused filter pass equals the three filters in order") {
    const VoxelParams params = test_params(8, 3, 0);
    for (const std::uint32_t seed : {11U, 12U, 13U, 14U}) {
      const TriangleMesh mesh = random_scene(seed);
      const Heightfield hf = rasterize_checked(mesh, test_grid(60, 60, 40, 0.2F, 0.1F), params);
      const Heightfield fused = apply(hf, params, filter_walkable, 2);
      Heightfield stepwise = apply(hf, params, filter_low_hanging_obstacles);
      stepwise = apply(stepwise, params, filter_ledges);
      stepwise = apply(stepwise, params, filter_low_clearance);
      CHECK(count_walkable(fused) < count_walkable(hf));
      CHECK(content_hash(fused) == content_hash(stepwise));
    }
  }
  TEST_CASE("filters give the same result on 1 and 4 threads") {
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 30, 30, 0.0F);
    add_box(mesh, {4.5F, 0.0F, 4.5F}, {20.5F, 0.4F, 9.5F});
    add_quad(mesh, 10, 10, 25, 25, 0.75F);
    const Heightfield hf = rasterize_checked(mesh, test_grid(30, 30, 20, 1.0F, 0.25F), params);
    for (auto* filter :
         {filter_low_hanging_obstacles, filter_ledges, filter_low_clearance, filter_walkable}) {
      CHECK(content_hash(apply(hf, params, filter, 1)) ==
            content_hash(apply(hf, params, filter, 4)));
    }
  }
}
