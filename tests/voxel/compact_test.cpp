#include <doctest/doctest.h>

#include "leapnav/voxel/compact.hpp"
#include "leapnav/voxel/filters.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;
using namespace leapnav::voxel::test;

namespace {

CompactHeightfield compact_checked(const Heightfield& hf, const VoxelParams& params,
                                   int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = build_compact(hf, params, ctx);
  REQUIRE(out.ok());
  require_valid(*out);
  return std::move(out).value();
}

}  // namespace

TEST_SUITE("voxel.compact") {
  TEST_CASE("open spans sit on walkable spans with the clearance up to the next span") {
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 2, 1, 0.0F);       // [0, 1) in both columns
    add_quad(mesh, 0, 0, 1, 1, 2.0F);       // [8, 9) in column 0
    add_quad_down(mesh, 1, 0, 2, 1, 1.0F);  // [4, 5) unwalkable in column 1
    const Heightfield hf = rasterize_checked(mesh, test_grid(2, 1, 20, 1.0F, 0.25F), params);
    const CompactHeightfield chf = compact_checked(hf, params);
    REQUIRE(chf.spans.size() == 3);
    CHECK(chf.column_first == std::vector<std::uint32_t>{0, 2, 3});
    CHECK(chf.spans[0].y == 1);
    CHECK(chf.spans[0].clearance == 7);
    CHECK(chf.spans[1].y == 9);
    CHECK(chf.spans[1].clearance == kUnboundedClearance);
    CHECK(chf.spans[2].y == 1);
    CHECK(chf.spans[2].clearance == 3);
    // the lower spans overlap by 3 < 4 cells of clearance: not connected
    CHECK(chf.spans[0].neighbor[2] == kNotConnected);
    CHECK(chf.walkable_height == 4);
    CHECK(chf.walkable_climb == 2);
    CHECK(chf.distance.empty());
  }
  TEST_CASE("a step of exactly max climb connects and one voxel more does not") {
    const VoxelParams params = test_params(4, 2, 0);
    for (const auto& [step, connects] : {std::pair{0.5F, true}, std::pair{0.75F, false}}) {
      TriangleMesh mesh;
      add_quad(mesh, 0, 0, 5, 4, 0.0F);
      add_quad(mesh, 5, 0, 10, 4, step);
      const Heightfield hf = rasterize_checked(mesh, test_grid(10, 4, 20, 1.0F, 0.25F), params);
      const CompactHeightfield chf = compact_checked(hf, params);
      CHECK(chf.spans.size() == 40);
      std::size_t links = 0;
      for (const CompactSpan& span : chf.spans) {
        for (const std::uint8_t n : span.neighbor) links += n != kNotConnected;
      }
      // 10 x 4 grid: 2 * (9 * 4 + 10 * 3) directed links, less the 4 rows across the step both ways
      CHECK(links == (connects ? 132U : 124U));
      const std::uint32_t at_step = chf.first(chf.grid.column_index(4, 2));
      CHECK((chf.spans[at_step].neighbor[2] != kNotConnected) == connects);
    }
  }
  TEST_CASE("a neighbour connects to the lowest span that fits and links are symmetric") {
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 1, 1, 0.25F);  // [1, 2), floor 2
    add_quad(mesh, 1, 0, 2, 1, 0.0F);   // [0, 1), floor 1
    add_quad(mesh, 1, 0, 2, 1, 0.5F);   // [2, 3), floor 3: not a fit (clearance 1)
    add_quad(mesh, 1, 0, 2, 1, 2.0F);   // [8, 9), floor 9: too high to step to
    const Heightfield hf = rasterize_checked(mesh, test_grid(2, 1, 20, 1.0F, 0.25F), params);
    const CompactHeightfield chf = compact_checked(hf, params);
    REQUIRE(chf.spans.size() == 4);
    // column 1's floor 1 has clearance 1, floor 3 has 5: only floor 3 can connect to floor 2
    CHECK(chf.spans[0].neighbor[2] == 1);
    CHECK(chf.spans[2].neighbor[0] == 0);
    CHECK(chf.spans[1].neighbor[0] == kNotConnected);
    CHECK(chf.spans[3].neighbor[0] == kNotConnected);
  }
  TEST_CASE("with a climb above the agent height, one-way links are dropped") {
    const VoxelParams params = test_params(2, 4, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 1, 1, 0.0F);   // a': [0, 1), open [1, 5)
    add_quad(mesh, 0, 0, 1, 1, 1.25F);  // a: [5, 6), floor 6
    add_quad(mesh, 1, 0, 2, 1, 0.25F);  // b: [1, 2), floor 2
    const Heightfield hf = rasterize_checked(mesh, test_grid(2, 1, 20, 1.0F, 0.25F), params);
    const CompactHeightfield chf = compact_checked(hf, params);
    REQUIRE(chf.spans.size() == 3);
    // b fits both a' and a; it links to the lowest, a', so a's link to b is dropped
    CHECK(chf.spans[2].neighbor[0] == 0);
    CHECK(chf.spans[0].neighbor[2] == 0);
    CHECK(chf.spans[1].neighbor[2] == kNotConnected);
  }
  TEST_CASE("validate catches a broken compact heightfield") {
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 3, 3, 0.0F);
    const Heightfield hf = rasterize_checked(mesh, test_grid(3, 3, 4, 1.0F, 0.25F), params);
    const CompactHeightfield good = compact_checked(hf, params);
    SUBCASE("a one-way link") {
      CompactHeightfield bad = good;
      bad.spans[0].neighbor[2] = kNotConnected;
      CHECK_FALSE(validate(bad).ok());
    }
    SUBCASE("a link out of range") {
      CompactHeightfield bad = good;
      bad.spans[0].neighbor[2] = 3;
      CHECK_FALSE(validate(bad).ok());
    }
    SUBCASE("a link leaving the grid") {
      CompactHeightfield bad = good;
      bad.spans[0].neighbor[0] = 0;
      CHECK_FALSE(validate(bad).ok());
    }
    SUBCASE("a link breaking the climb rule") {
      CompactHeightfield bad = good;
      bad.spans[0].y = 9;
      CHECK_FALSE(validate(bad).ok());
    }
    SUBCASE("mismatched sizes") {
      CompactHeightfield bad = good;
      bad.areas.pop_back();
      CHECK_FALSE(validate(bad).ok());
      CompactHeightfield bad_columns = good;
      bad_columns.column_first.back() = 5;
      CHECK_FALSE(validate(bad_columns).ok());
    }
    SUBCASE("a distance on an unwalkable span") {
      CompactHeightfield bad = good;
      bad.areas[4] = kNullArea;
      bad.distance.assign(bad.spans.size(), 0);
      bad.distance[4] = 2;
      bad.max_distance = 2;
      CHECK_FALSE(validate(bad).ok());
    }
    SUBCASE("a wrong max distance") {
      CompactHeightfield bad = good;
      bad.distance.assign(bad.spans.size(), 1);
      bad.max_distance = 3;
      CHECK_FALSE(validate(bad).ok());
    }
  }
  TEST_CASE("validate catches a broken heightfield") {
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 1, 1, 0.0F);
    add_quad(mesh, 0, 0, 1, 1, 2.0F);
    const Heightfield good =
        rasterize_checked(mesh, test_grid(1, 1, 20, 1.0F, 0.25F), test_params(4, 2, 0));
    REQUIRE(good.spans.size() == 2);
    Heightfield touching = good;
    touching.spans[1].min = touching.spans[0].max;
    CHECK_FALSE(validate(touching).ok());
    Heightfield empty_span = good;
    empty_span.spans[0].max = empty_span.spans[0].min;
    CHECK_FALSE(validate(empty_span).ok());
    Heightfield bad_area = good;
    bad_area.spans[0].area = kDroppedTriangle;
    CHECK_FALSE(validate(bad_area).ok());
    Heightfield too_tall = good;
    too_tall.spans[1].max = 21;
    CHECK_FALSE(validate(too_tall).ok());
  }
  TEST_CASE("the compact heightfield is the same on 1 and 4 threads") {
    const VoxelParams params = test_params(4, 2, 0);
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 40, 40, 0.0F);
    add_box(mesh, {4.5F, 0.0F, 4.5F}, {20.5F, 0.4F, 9.5F});
    add_quad(mesh, 10, 10, 25, 25, 0.75F);
    const Heightfield hf = rasterize_checked(mesh, test_grid(40, 40, 20, 1.0F, 0.25F), params);
    CHECK(content_hash(compact_checked(hf, params, 1)) ==
          content_hash(compact_checked(hf, params, 4)));
  }
}
