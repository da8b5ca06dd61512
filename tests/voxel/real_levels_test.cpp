// Real levels from ../shared/meshes (skipped with a message when absent): the voxel stage's
// walkable compact span counts must stay within 3% of Recast's for the same configuration
// (benchmarks.md).
#include <doctest/doctest.h>

#if __has_include("leapnav/io/obj.hpp")
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "leapnav/io/obj.hpp"
#include "leapnav/voxel/voxelize.hpp"
#include "support/shared_data.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;

namespace {

void check_level(const char* file, const char* config_name, double recast_compact_spans) {
  const auto path = leapnav::test::shared_mesh(file);
  if (!path) return;
  const auto mesh = io::load_obj(*path);
  INFO((mesh.ok() ? std::string() : mesh.error().message));
  REQUIRE(mesh.ok());
  const auto config = named_config(config_name);
  REQUIRE(config.ok());
  BuildContext ctx;
  const auto out = voxelize(*mesh, *config, ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  voxel::test::require_valid(out->solid);
  voxel::test::require_valid(out->compact);
  const auto spans = static_cast<double>(out->stats.compact_spans);
  MESSAGE(std::string(file) << " " << std::string(config_name) << ": " << out->stats.compact_spans
                            << " compact spans (Recast " << recast_compact_spans << "), "
                            << out->stats.walkable_spans << " after erosion");
  CHECK(std::abs(spans - recast_compact_spans) <= 0.03 * recast_compact_spans);
  CHECK(out->stats.walkable_spans < out->stats.compact_spans);
  CHECK(out->compact.max_distance > 0);
}

}  // namespace

TEST_SUITE("voxel.real_levels") {
  TEST_CASE("dungeon voxelizes identically on 1 and 2 threads and with shuffled triangles") {
    const auto path = leapnav::test::shared_mesh("dungeon.obj");
    if (!path) return;
    auto mesh = io::load_obj(*path);
    REQUIRE(mesh.ok());
    const auto config = named_config("default");
    REQUIRE(config.ok());
    const auto run = [&](const TriangleMesh& input, int threads) {
      BuildContext ctx;
      ctx.set_threads(threads);
      auto out = voxelize(input, *config, ctx);
      REQUIRE(out.ok());
      return std::pair{content_hash(out->solid), content_hash(out->compact)};
    };
    const auto one = run(*mesh, 1);
    CHECK(run(*mesh, 2) == one);
    std::mt19937 rng(42);
    std::shuffle(mesh->triangles.begin(), mesh->triangles.end(), rng);
    CHECK(run(*mesh, 2) == one);
  }
  TEST_CASE("dungeon has Recast's compact span count within 3% (default and thesis)") {
    check_level("dungeon.obj", "default", 23569);
    check_level("dungeon.obj", "thesis", 33980);
  }
  TEST_CASE("nav_test has Recast's compact span count within 3% (default and thesis)") {
    check_level("nav_test.obj", "default", 56795);
    check_level("nav_test.obj", "thesis", 82414);
  }
}
#endif
