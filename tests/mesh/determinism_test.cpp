// Determinism of the navmesh build on the built-in scenes (demo, city:2, terrain:1) and the real
// levels (dungeon, nav_test from ../shared, skipped with a message when absent): the region,
// contour and navmesh hashes (the navmesh's with its height detail and span map) are identical
// for 1, 2, 4 and 8 threads, for shuffled triangle orders and for a repeated run.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/contours.hpp"
#include "leapnav/mesh/regions.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;

namespace {

struct MeshDeterminismScene {
  std::string name;
  TriangleMesh mesh;
};

std::vector<MeshDeterminismScene> mesh_determinism_scenes() {
  std::vector<MeshDeterminismScene> scenes;
  for (const char* spec : {"demo", "city:2", "terrain:1"}) {
    auto mesh = io::builtin_scene(spec);
    REQUIRE(mesh.ok());
    scenes.push_back({spec, std::move(mesh).value()});
  }
  for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
    const auto path = test::shared_mesh(file);
    if (!path) continue;
    auto mesh = io::load_obj(*path);
    REQUIRE(mesh.ok());
    scenes.push_back({file, std::move(mesh).value()});
  }
  return scenes;
}

TriangleMesh shuffled_mesh_triangles(TriangleMesh mesh, unsigned seed) {
  std::mt19937 rng(seed);
  std::shuffle(mesh.triangles.begin(), mesh.triangles.end(), rng);
  return mesh;
}

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
    for (const auto& scene : mesh_determinism_scenes()) {
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
      CHECK(build_hashes(shuffled_mesh_triangles(scene.mesh, 1), *config, 1) == expected);
      CHECK(build_hashes(shuffled_mesh_triangles(scene.mesh, 2), *config, 8) == expected);
      CHECK(build_hashes(scene.mesh, *config, 8) == expected);
    }
  }
}
