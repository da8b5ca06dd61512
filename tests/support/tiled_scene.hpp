// A built-in scene (io::builtin_scene) built in tiles into one stitched navmesh, for tests that
// need a tiled world; fails the current test when the scene or the build fails.
#pragma once

#include <string>

#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::test {

/// `scene` built with the named configuration in `tile_size`-cell tiles.
mesh::NavMesh tiled_builtin_navmesh(const std::string& scene, int tile_size,
                                    const std::string& config = "default");

}  // namespace leapnav::test
