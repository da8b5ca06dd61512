// Determinism of the voxel stage on the built-in scenes (demo, city:2, terrain:1) and the real
// levels (dungeon, nav_test from ../shared, skipped with a message when absent): the solid and
// compact heightfield hashes are identical for 1, 2, 4 and 8 threads, for shuffled triangle
// orders and for a repeated run in the same process.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/voxel/voxelize.hpp"
#include "support/determinism_scenes.hpp"

using namespace leapnav;

namespace {

std::pair<std::uint64_t, std::uint64_t> voxel_hashes(const TriangleMesh& mesh,
                                                     const BuildConfig& config, int threads) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = voxel::voxelize(mesh, config, ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return {voxel::content_hash(out->solid), voxel::content_hash(out->compact)};
}

}  // namespace

TEST_SUITE("voxel.determinism") {
  TEST_CASE("scenes and real levels voxelize identically for 1-8 threads, shuffled, repeated") {
    const auto config = named_config("default");
    REQUIRE(config.ok());
    for (const auto& scene : test::determinism_scenes()) {
      INFO(scene.name);
      BuildContext ctx;
      ctx.set_threads(1);
      auto reference = voxel::voxelize(scene.mesh, *config, ctx);
      REQUIRE(reference.ok());
      CHECK(voxel::validate(reference->solid).ok());
      CHECK(voxel::validate(reference->compact).ok());
      CHECK(reference->stats.walkable_spans > 0);
      const std::pair expected{voxel::content_hash(reference->solid),
                               voxel::content_hash(reference->compact)};
      for (const int threads : {2, 4, 8}) {
        INFO("threads " << threads);
        CHECK(voxel_hashes(scene.mesh, *config, threads) == expected);
      }
      CHECK(voxel_hashes(test::shuffled_triangles(scene.mesh, 1), *config, 1) == expected);
      CHECK(voxel_hashes(test::shuffled_triangles(scene.mesh, 2), *config, 8) == expected);
      CHECK(voxel_hashes(scene.mesh, *config, 8) == expected);
    }
  }
}
