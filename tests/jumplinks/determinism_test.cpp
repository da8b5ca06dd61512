// Determinism of the jump links (C1-C3) on the built-in scenes (demo and terrain:1 at sample step
// 4, city:2 at 8) and the real levels (dungeon, nav_test from ../shared at step 8, skipped with a
// message when absent): jump::content_hash is identical for 1, 2, 4 and 8 threads, on the navmesh
// built from shuffled triangle orders and for a repeated run.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "support/determinism_scenes.hpp"

using namespace leapnav;

namespace {

/// The sample step per scene: 4 on the small built-in scenes, 8 on city:2 and the real levels.
int jump_step_for(const test::DeterminismScene& scene) {
  return scene.name == "demo" || scene.name == "terrain:1" ? 4 : 8;
}

mesh::BuildOutput built_navmesh(const TriangleMesh& input, const BuildConfig& config, int threads) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = mesh::build_navmesh(input, config, ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return std::move(out).value();
}

jump::JumpLinkSet jump_links_of(const mesh::BuildOutput& built, const BuildConfig& config, int step,
                                int threads) {
  jump::JumpLinkOptions options;
  options.jumps = {jump::kJumpC1, jump::kJumpC2, jump::kJumpC3};
  options.step = step;
  BuildContext ctx;
  ctx.set_threads(threads);
  auto links = jump::build_jump_links(built.voxels.solid, built.voxels.compact, built.navmesh,
                                      config.agent, options, ctx);
  INFO((links.ok() ? std::string() : links.error().message));
  REQUIRE(links.ok());
  return std::move(links).value();
}

}  // namespace

TEST_SUITE("jumplinks.determinism") {
  TEST_CASE("scenes and real levels get identical jump links for 1-8 threads, shuffled, repeated") {
    const auto config = named_config("default");
    REQUIRE(config.ok());
    for (const auto& scene : test::determinism_scenes()) {
      INFO(scene.name);
      const int step = jump_step_for(scene);
      const mesh::BuildOutput built = built_navmesh(scene.mesh, *config, 1);
      const jump::JumpLinkSet reference = jump_links_of(built, *config, step, 1);
      const Status valid = jump::validate(reference, built.navmesh);
      CHECK_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
      CHECK(!reference.links.empty());
      const std::uint64_t expected = jump::content_hash(reference);
      MESSAGE(scene.name << ": " << reference.links.size() << " links at step " << step << ", hash "
                         << expected);
      for (const int threads : {2, 4, 8}) {
        INFO("threads " << threads);
        CHECK(jump::content_hash(jump_links_of(built, *config, step, threads)) == expected);
      }
      const mesh::BuildOutput rebuilt =
          built_navmesh(test::shuffled_triangles(scene.mesh, 7), *config, 8);
      CHECK(mesh::content_hash(rebuilt.navmesh) == mesh::content_hash(built.navmesh));
      CHECK(jump::content_hash(jump_links_of(rebuilt, *config, step, 1)) == expected);
      CHECK(jump::content_hash(jump_links_of(rebuilt, *config, step, 8)) == expected);
      CHECK(jump::content_hash(jump_links_of(built, *config, step, 8)) == expected);
    }
  }
}
