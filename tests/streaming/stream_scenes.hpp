// Tiled worlds for the streaming tests, each built once per test run: a 30 m floor in 5 x 5
// tiles, city:2 in 32-cell tiles, demo in 16-cell tiles, and the 1 m gap scene in 16-cell tiles
// with C1 jump links whose gap lies on a tile border (links cross tiles); three platforms in
// 16-cell tiles joined by jump-up, drop and ladder links across tile borders, and an archway
// with crouch polygons in 32-cell tiles.
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
#include "leapnav/ledgelinks/ladders.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
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

// Three platforms in a row, z 0..6 (default configuration: 0.3 m cells, radius 0.6 m, climb
// 0.9 m, jump-up 1 m, drop 2.5 m): A x 0..10 (top 2 m), B x 10.5..19.5 (top 3 m: a jump-up from
// A, a drop back), C x 20..30 (top 1 m: a 2 m drop from B, one way), in 16-cell tiles (4.8 m;
// 7 x 2 tiles) with the ledge links `leapnav build --tile-size 16 --ledge-links` makes, and a
// ladder from A (x 9.2, z 1) up to B (x 11.3). The eroded edges face each other at x 9.4 / 11.1
// and 18.9 / 20.6, across the tile borders x 9.6 and 19.2, so every link crosses tiles; C is
// a dead end: nothing leads up from it.
inline const TiledWorld& stream_ledges() {
  static const TiledWorld world = [] {
    io::SceneBuilder b("ledges");
    b.add_box({0.0F, 0.0F, 0.0F}, {10.0F, 2.0F, 6.0F});
    b.add_box({10.5F, 0.0F, 0.0F}, {19.5F, 3.0F, 6.0F});
    b.add_box({20.0F, 0.0F, 0.0F}, {30.0F, 1.0F, 6.0F});
    const TriangleMesh scene = b.take();
    BuildContext ctx;
    auto built =
        mesh::build_tiled_navmesh(scene, *named_config("default"), mesh::TileConfig{16, -1}, ctx);
    REQUIRE(built.ok());
    auto ledges =
        ledge::build_ledge_links(built->navmesh, &scene, ledge::tiled_ledge_options(), ctx);
    REQUIRE(ledges.ok());
    REQUIRE_FALSE(ledges->links.empty());
    const std::vector<ledge::Ladder> ladders{{{9.2F, 2.0F, 1.0F}, {11.3F, 3.0F, 1.0F}}};
    auto rungs = ledge::ladder_links(built->navmesh, ladders, {});
    REQUIRE(rungs.ok());
    ledges->links.insert(ledges->links.end(), rungs->begin(), rungs->end());
    ledge::sort_links(ledges->links);
    REQUIRE(ledge::validate(*ledges, built->navmesh).ok());
    ledges->stats = {};
    return TiledWorld{std::move(built).value().navmesh, std::nullopt, std::move(ledges).value()};
  }();
  return world;
}

// The postures archway (docs/postures.md, G7: a slab 1.2 m over x 4..6 on a 10 x 4 m floor;
// standing 1.8 m, crouching 1.0 m, 0.1 m cells) in 32-cell tiles: crouch polygons under the slab
inline const TiledWorld& stream_archway() {
  static const TiledWorld world = [] {
    io::SceneBuilder b("archway");
    b.add_quad({0, 0, 0}, {0, 0, 4}, {10, 0, 4}, {10, 0, 0});
    b.add_box({4.0F, 1.2F, 0.0F}, {6.0F, 2.0F, 4.0F});
    BuildConfig config = *named_config("default");
    config.voxel = {0.1F, 0.1F};
    config.agent.height = 1.8F;
    config.agent.radius = 0.3F;
    config.agent.max_climb = 0.4F;
    config.agent.crouch_height = 1.0F;
    config.region.min_region_area = 0.64F;
    config.region.merge_region_area = 4.0F;
    BuildContext ctx;
    auto out = mesh::build_tiled_navmesh(b.take(), config, mesh::TileConfig{32, -1}, ctx);
    REQUIRE(out.ok());
    return TiledWorld{std::move(out).value().navmesh, std::nullopt, std::nullopt};
  }();
  return world;
}

}  // namespace leapnav::test
