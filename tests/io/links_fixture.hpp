// A hand-made jump link set over test::small_navmesh(): two configurations (C1, C2) and four
// links between its three polygons (0 -> 2 twice, 1 -> 0, 2 -> 1), indexed with jump::index_links.
// It passes jump::validate against small_navmesh(). demo_file(): the demo scene's navmesh (config
// "default") with its generated C1 links (step 4), built once per test run.
#pragma once

#include <optional>

#include "leapnav/core/context.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::test {

inline jump::JumpLinkSet small_links() {
  jump::JumpLinkSet set;
  set.configs = {jump::kJumpC1, jump::kJumpC2};
  set.links = {
      {{1, 0, 1}, {0.5F, 2, 0.5F}, {1.5F, 2, 0.5F}, 0, 0, 2},
      {{1, 0, 2}, {0.5F, 2, 1}, {0.5F, 2, 1}, 1, 0, 2},
      {{4, 0, 1}, {2.5F, 0, 1}, {2.5F, 0, 2}, 0, 1, 0},
      {{1, 2, 0.5F}, {4, 0, 2}, {5, 0, 2}, 1, 2, 1},
  };
  jump::index_links(set, 3);
  return set;
}

/// The demo navmesh with links, or nullopt (with the build error) when a stage fails.
inline const Result<io::NavFile>& demo_file() {
  static const Result<io::NavFile> file = []() -> Result<io::NavFile> {
    LEAPNAV_TRY_ASSIGN(const TriangleMesh scene, io::builtin_scene("demo"));
    LEAPNAV_TRY_ASSIGN(const BuildConfig config, named_config("default"));
    BuildContext ctx;
    LEAPNAV_TRY_ASSIGN(mesh::BuildOutput built, mesh::build_navmesh(scene, config, ctx));
    jump::JumpLinkOptions options;
    options.jumps = {jump::kJumpC1};
    options.step = 4;
    LEAPNAV_TRY_ASSIGN(jump::JumpLinkSet links,
                       jump::build_jump_links(built.voxels.solid, built.voxels.compact,
                                              built.navmesh, config.agent, options, ctx));
    io::NavFile out;
    out.navmesh = std::move(built.navmesh);
    out.links = std::move(links);
    return out;
  }();
  return file;
}

}  // namespace leapnav::test
