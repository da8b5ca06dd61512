#include "support/tiled_scene.hpp"

#include <doctest/doctest.h>

#include <utility>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
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

TiledWorld tiled_gap_world() {
  const TriangleMesh scene = io::gap_scene(1.0F);
  BuildContext ctx;
  auto built =
      mesh::build_tiled_navmesh(scene, *named_config("thesis"), mesh::TileConfig{16, -1}, ctx);
  REQUIRE(built.ok());
  jump::TiledLinkOptions options;
  options.jumps.jumps = {jump::kJumpC1};
  options.jumps.step = 1;
  options.compact = false;
  auto links = jump::build_tiled_jump_links(scene, built->navmesh, built->layout, options, ctx);
  REQUIRE(links.ok());
  REQUIRE_FALSE(links->set.links.empty());
  return TiledWorld{std::move(built).value().navmesh, std::move(links).value().set};
}

}  // namespace leapnav::test
