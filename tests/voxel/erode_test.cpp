#include <doctest/doctest.h>

#include "leapnav/voxel/compact.hpp"
#include "leapnav/voxel/distance_field.hpp"
#include "leapnav/voxel/erode.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;
using namespace leapnav::voxel::test;

namespace {

// A 10 x 10 walkable square in a 12 x 12 grid (no filters), as a compact heightfield.
CompactHeightfield square(const VoxelParams& params) {
  TriangleMesh mesh;
  add_quad(mesh, 1, 1, 11, 11, 0.0F);
  const Heightfield hf = rasterize_checked(mesh, test_grid(12, 12, 4, 1.0F, 0.25F), params);
  BuildContext ctx;
  auto chf = build_compact(hf, params, ctx);
  REQUIRE(chf.ok());
  return std::move(chf).value();
}

CompactHeightfield eroded(const VoxelParams& params) {
  BuildContext ctx;
  auto out = erode(square(params), params, ctx);
  REQUIRE(out.ok());
  require_valid(*out);
  return std::move(out).value();
}

}  // namespace

TEST_SUITE("voxel.erode") {
  TEST_CASE("erosion shrinks a square by the radius") {
    CHECK(count_area(eroded(test_params(4, 2, 0)).areas, kWalkableArea) == 100);
    CHECK(count_area(eroded(test_params(4, 2, 1)).areas, kWalkableArea) == 64);
    CHECK(count_area(eroded(test_params(4, 2, 2)).areas, kWalkableArea) == 36);
    CHECK(count_area(eroded(test_params(4, 2, 5)).areas, kWalkableArea) == 0);
    const CompactHeightfield two = eroded(test_params(4, 2, 2));
    for (int z = 1; z <= 10; ++z) {
      for (int x = 1; x <= 10; ++x) {
        const bool inside = x >= 3 && x <= 8 && z >= 3 && z <= 8;
        CHECK((two.areas[two.first(two.grid.column_index(x, z))] == kWalkableArea) == inside);
      }
    }
  }
  TEST_CASE("erosion keeps the spans and their connections") {
    const CompactHeightfield before = square(test_params(4, 2, 0));
    const CompactHeightfield after = eroded(test_params(4, 2, 2));
    CHECK(after.spans == before.spans);
    CHECK(after.column_first == before.column_first);
  }
}

TEST_SUITE("voxel.distance_field") {
  TEST_CASE("the distance field of a square grows inwards and is blurred at the centre") {
    const VoxelParams params = test_params(4, 2, 0);
    BuildContext ctx;
    auto out = distance_field(square(params), ctx);
    REQUIRE(out.ok());
    require_valid(*out);
    const CompactHeightfield& chf = *out;
    const auto at = [&](int x, int z) {
      return chf.distance[chf.first(chf.grid.column_index(x, z))];
    };
    // chamfer rings 0, 2, 4, 6, 8 from the rim; values <= 2 are kept, others blurred
    CHECK(at(1, 1) == 0);
    CHECK(at(1, 5) == 0);
    CHECK(at(2, 5) == 2);
    CHECK(at(3, 5) ==
          4);  // the mean of columns in rings 1, 2 and 3: (3 * 2 + 3 * 4 + 3 * 6 + 5) / 9
    CHECK(at(5, 5) == 7);  // (5 * 6 + 4 * 8 + 5) / 9
    CHECK(chf.max_distance == 7);
    // symmetric under the square's mirror
    for (int z = 1; z <= 10; ++z) {
      for (int x = 1; x <= 10; ++x) {
        CHECK(at(x, z) == at(11 - x, z));
        CHECK(at(x, z) == at(z, x));
      }
    }
  }
  TEST_CASE("eroded spans have distance 0 and the field is the same on 1 and 4 threads") {
    const VoxelParams params = test_params(4, 2, 2);
    BuildContext one;
    one.set_threads(1);
    auto a = distance_field(eroded(params), one);
    REQUIRE(a.ok());
    require_valid(*a);
    BuildContext four;
    four.set_threads(4);
    auto b = distance_field(eroded(params), four);
    REQUIRE(b.ok());
    CHECK(content_hash(*a) == content_hash(*b));
    for (std::size_t i = 0; i < a->spans.size(); ++i) {
      if (a->areas[i] == kNullArea) CHECK(a->distance[i] == 0);
    }
    CHECK(a->max_distance > 0);
  }
  TEST_CASE("erosion and the distance field of random scenes are the same on 1 to 9 threads") {
    // note: the transform runs in one strip of rows per thread, so this covers 1 to 9 strips
    const VoxelParams params = test_params(4, 2, 1);
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      const Heightfield hf =
          rasterize_checked(random_scene(seed), test_grid(48, 45, 40, 0.25F, 0.1F), params);
      BuildContext ctx;
      auto compact = build_compact(hf, params, ctx);
      REQUIRE(compact.ok());
      const auto run = [&](int threads) {
        BuildContext local;
        local.set_threads(threads);
        auto out = erode(*compact, params, local);
        REQUIRE(out.ok());
        auto field = distance_field(std::move(out).value(), local);
        REQUIRE(field.ok());
        require_valid(*field);
        return std::move(field).value();
      };
      const CompactHeightfield one = run(1);
      CHECK(one.max_distance > 4);
      CHECK(count_area(one.areas, kNullArea) > count_area(compact->areas, kNullArea));
      for (int threads = 2; threads <= 9; ++threads) {
        const CompactHeightfield many = run(threads);
        INFO("seed " << seed << ", " << threads << " threads");
        CHECK(many.areas == one.areas);
        CHECK(many.distance == one.distance);
      }
    }
  }
}
