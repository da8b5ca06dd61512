// Tiled worlds for the streaming tests, each built once per test run: a 30 m floor in 5 x 5
// tiles, city:2 in 32-cell tiles, demo in 16-cell tiles, and the 1 m gap scene in 16-cell tiles
// with C1 jump links whose gap lies on a tile border (links cross tiles).
#pragma once

#include <optional>
#include <utility>

#include <doctest/doctest.h>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "support/tiled_scene.hpp"

namespace leapnav::test {

inline const TiledWorld& stream_floor() {
  static const TiledWorld world = [] {
    io::SceneBuilder b("floor");
    b.add_quad({0, 0, 0}, {0, 0, 30}, {30, 0, 30}, {30, 0, 0});
    // two boxes so that the floor has holes and a few more polygons
    b.add_box({7.0F, 0.0F, 11.0F}, {9.5F, 2.0F, 19.0F});
    b.add_box({17.0F, 0.0F, 4.0F}, {23.0F, 2.0F, 6.5F});
    mesh::TileConfig tiles;
    tiles.tile_size = 20;
    BuildContext ctx;
    auto out = mesh::build_tiled_navmesh(b.take(), *named_config("default"), tiles, ctx);
    REQUIRE(out.ok());
    return TiledWorld{std::move(out).value().navmesh, std::nullopt};
  }();
  return world;
}

inline const TiledWorld& stream_city() {
  static const TiledWorld world{tiled_builtin_navmesh("city:2", 32), std::nullopt};
  return world;
}

// demo in 16-cell tiles: some vertices are used only by tiles other than the one whose run
// holds them (corners inserted into a neighbour's edge), so blocks carry foreign vertices
inline const TiledWorld& stream_demo() {
  static const TiledWorld world{tiled_builtin_navmesh("demo", 16), std::nullopt};
  return world;
}

// the 1 m gap scene with C1 links across a tile border (tiled_gap_world)
inline const TiledWorld& stream_gap() {
  static const TiledWorld world = tiled_gap_world();
  return world;
}

// city:2 in 32-cell tiles with C2 jump links at step 4: links leap down from roofs and across
// streets, many only one way
inline const TiledWorld& stream_city_jumps() {
  static const TiledWorld world = [] {
    auto scene = io::builtin_scene("city:2");
    REQUIRE(scene.ok());
    BuildContext ctx;
    auto built =
        mesh::build_tiled_navmesh(*scene, *named_config("default"), mesh::TileConfig{32, -1}, ctx);
    REQUIRE(built.ok());
    jump::TiledLinkOptions options;
    options.jumps.jumps = {jump::kJumpC2};
    options.jumps.step = 4;
    auto links = jump::build_tiled_jump_links(*scene, built->navmesh, built->layout, options, ctx);
    REQUIRE(links.ok());
    REQUIRE_FALSE(links->set.links.empty());
    return TiledWorld{std::move(built).value().navmesh, std::move(links).value().set};
  }();
  return world;
}

}  // namespace leapnav::test
