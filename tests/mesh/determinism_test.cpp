// Determinism of the navmesh build on the built-in scenes (demo, city:2, terrain:1) and the real
// levels (dungeon, nav_test from ../shared, skipped with a message when absent): the region,
// contour and navmesh hashes (the navmesh's with its height detail and span map) are identical
// for 1, 2, 4 and 8 threads, for shuffled triangle orders and for a repeated run.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/contours.hpp"
#include "leapnav/mesh/regions.hpp"
#include "support/determinism_scenes.hpp"

using namespace leapnav;

namespace {

using StageHashes = std::array<std::uint64_t, 3>;  // regions, contours, navmesh

StageHashes hashes_of(const mesh::BuildOutput& out) {
  return {mesh::content_hash(out.regions), mesh::content_hash(out.contours),
          mesh::content_hash(out.navmesh)};
}

StageHashes build_hashes(const TriangleMesh& input, const BuildConfig& config, int threads) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = mesh::build_navmesh(input, config, ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return hashes_of(*out);
}

}  // namespace

TEST_SUITE("mesh.determinism") {
  TEST_CASE(
      "scenes and real levels build identical navmeshes for 1-8 threads, shuffled, repeated") {
    const auto config = named_config("default");
    REQUIRE(config.ok());
    for (const auto& scene : test::determinism_scenes()) {
      INFO(scene.name);
      BuildContext ctx;
      ctx.set_threads(1);
      auto reference = mesh::build_navmesh(scene.mesh, *config, ctx);
      INFO((reference.ok() ? std::string() : reference.error().message));
      REQUIRE(reference.ok());
      CHECK(mesh::validate(reference->regions, reference->voxels.compact).ok());
      CHECK(mesh::validate(reference->contours).ok());
      CHECK(mesh::validate(reference->navmesh).ok());
      CHECK(reference->stats.polygons > 0);
      const StageHashes expected = hashes_of(*reference);
      for (const int threads : {2, 4, 8}) {
        INFO("threads " << threads);
        CHECK(build_hashes(scene.mesh, *config, threads) == expected);
      }
      CHECK(build_hashes(test::shuffled_triangles(scene.mesh, 1), *config, 1) == expected);
      CHECK(build_hashes(test::shuffled_triangles(scene.mesh, 2), *config, 8) == expected);
      CHECK(build_hashes(scene.mesh, *config, 8) == expected);
    }
  }
}
