#include "support/tiled_scene.hpp"

#include <doctest/doctest.h>

#include <utility>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/tiles.hpp"

namespace leapnav::test {

mesh::NavMesh tiled_builtin_navmesh(const std::string& scene, int tile_size,
                                    const std::string& config) {
  auto triangles = io::builtin_scene(scene);
  REQUIRE(triangles.ok());
  auto named = named_config(config);
  REQUIRE(named.ok());
  mesh::TileConfig tiles;
  tiles.tile_size = tile_size;
  BuildContext ctx;
  auto out = mesh::build_tiled_navmesh(*triangles, *named, tiles, ctx);
  REQUIRE(out.ok());
  return std::move(out).value().navmesh;
}

}  // namespace leapnav::test
