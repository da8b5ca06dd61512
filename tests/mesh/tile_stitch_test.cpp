// Stitching tile by tile: each tile's piece (stitch_piece), linked (link_piece) and spliced
// (splice_pieces), gives the navmesh and counts of one global pass over the world (the oracle in
// tests/support/global_stitch.cpp), and a piece depends only on the tile meshes of its 3 x 3
// block, which is what lets a rebuild recompute only the pieces around the rebuilt tiles.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/io/tile_cache_file.hpp"
#include "leapnav/mesh/tile_cache.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "support/global_stitch.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;

namespace {

mesh::TileCache cached(const TriangleMesh& scene, int tile_size) {
  BuildContext ctx;
  mesh::TileConfig tiles;
  tiles.tile_size = tile_size;
  auto out = mesh::build_tiled_navmesh_cached(scene, *named_config("default"), tiles, ctx);
  REQUIRE(out.ok());
  return std::move(out).value().cache;
}

// The per-tile stitch against the global pass, on the tile meshes of `scene`.
void check_against_global(const TriangleMesh& scene, int tile_size) {
  INFO(scene.name << " with tiles of " << tile_size);
  const mesh::TileCache cache = cached(scene, tile_size);
  mesh::StitchStats local;
  mesh::StitchStats global;
  auto per_tile = mesh::stitch_tiles(cache.tiles, cache.layout, cache.config, &local);
  auto oracle = test::stitch_tiles_global(cache.tiles, cache.layout, cache.config, &global);
  REQUIRE(per_tile.ok());
  REQUIRE(oracle.ok());
  CHECK(io::encode_navmesh(per_tile.value()) == io::encode_navmesh(oracle.value()));
  CHECK(per_tile.value().tile_poly_first == oracle.value().tile_poly_first);
  CHECK(local == global);
  CHECK(global.welded_vertices > 0);
  CHECK(global.portal_edges > 0);
}

TriangleMesh builtin(const char* spec) {
  auto mesh = io::builtin_scene(spec);
  REQUIRE(mesh.ok());
  return std::move(mesh).value();
}

}  // namespace

TEST_SUITE("mesh.tile_stitch") {
  TEST_CASE("stitching tile by tile gives the global pass's navmesh and counts") {
    for (const int size : {16, 24, 32}) check_against_global(builtin("demo"), size);
    for (const int size : {16, 32, 64}) check_against_global(builtin("city:3"), size);
    for (const int size : {16, 48}) check_against_global(builtin("terrain:1"), size);
    check_against_global(builtin("gap:1"), 16);
  }

  TEST_CASE("stitching tile by tile gives the global pass's navmesh on the real levels") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto path = test::shared_mesh(file);
      if (!path) continue;
      auto mesh = io::load_obj(*path);
      REQUIRE(mesh.ok());
      for (const int size : {16, 32}) check_against_global(mesh.value(), size);
    }
  }

  TEST_CASE("a tile's piece depends only on the tile meshes of its 3 x 3 block") {
    const TriangleMesh scene = builtin("city:3");
    const mesh::TileCache cache = cached(scene, 16);
    const mesh::TileLayout& layout = cache.layout;
    REQUIRE(cache.pieces.size() == layout.tile_count());
    // empty one tile with polygons in the middle of the world
    const int cx = layout.tiles_x / 2;
    const int cz = layout.tiles_z / 2;
    std::size_t changed = layout.tile_count();
    for (int dz = 0; dz < 4 && changed == layout.tile_count(); ++dz) {
      for (int dx = 0; dx < 4 && changed == layout.tile_count(); ++dx) {
        const std::size_t t =
            static_cast<std::size_t>(cz + dz) * static_cast<std::size_t>(layout.tiles_x) +
            static_cast<std::size_t>(cx + dx);
        if (cache.tiles[t].mesh.polygon_count() > 2 && !cache.pieces[t].cross.empty()) changed = t;
      }
    }
    REQUIRE(changed < layout.tile_count());
    std::vector<mesh::TileMesh> tiles = cache.tiles;
    mesh::NavMesh empty;
    empty.config = cache.config;
    empty.grid = layout.grid;
    empty.poly_first = {0};
    tiles[changed].mesh = std::move(empty);
    tiles[changed].stats = {};
    const auto near = [&](std::size_t t, int reach) {
      const auto dx = static_cast<int>(t % static_cast<std::size_t>(layout.tiles_x)) -
                      static_cast<int>(changed % static_cast<std::size_t>(layout.tiles_x));
      const auto dz = static_cast<int>(t / static_cast<std::size_t>(layout.tiles_x)) -
                      static_cast<int>(changed / static_cast<std::size_t>(layout.tiles_x));
      return dx >= -reach && dx <= reach && dz >= -reach && dz <= reach;
    };
    std::vector<mesh::StitchPiece> pieces(tiles.size());
    int differ_inside = 0;
    for (std::size_t t = 0; t < tiles.size(); ++t) {
      auto piece = mesh::stitch_piece(tiles, layout, cache.config, t);
      REQUIRE(piece.ok());
      pieces[t] = std::move(piece).value();
    }
    for (std::size_t t = 0; t < tiles.size(); ++t)
      REQUIRE(mesh::link_piece(pieces, layout, t).ok());
    for (std::size_t t = 0; t < tiles.size(); ++t) {
      if (pieces[t] == cache.pieces[t]) continue;
      INFO("tile " << t << " changed with tile " << changed);
      CHECK(near(t, 2));  // its own piece within 1 tile, its links within 2
      ++differ_inside;
    }
    CHECK(differ_inside > 1);  // the emptied tile and the neighbours it had portals with
    // and the splice of the new pieces is the global pass over the new tile meshes
    auto spliced = mesh::splice_pieces(tiles, pieces, layout, cache.config);
    auto oracle = test::stitch_tiles_global(tiles, layout, cache.config);
    REQUIRE(spliced.ok());
    REQUIRE(oracle.ok());
    CHECK(io::encode_navmesh(spliced.value()) == io::encode_navmesh(oracle.value()));
  }
}

TEST_SUITE("mesh.tile_stitch") {
  TEST_CASE(
      "the cache file keeps the stitch pieces, and pieces with ids out of range are refused") {
    const mesh::TileCache cache = cached(builtin("city:3"), 32);
    REQUIRE(mesh::check_stitch_pieces(cache).ok());
    auto decoded = io::decode_tile_cache(io::encode_tile_cache(cache), "c.cache");
    REQUIRE(decoded.ok());
    CHECK(decoded.value().pieces == cache.pieces);
    // a piece whose id is off by one, in each kind of reference
    std::size_t t = 0;
    while (t < cache.pieces.size() && cache.pieces[t].cross.empty()) ++t;
    REQUIRE(t < cache.pieces.size());
    const mesh::StitchPiece::Cross cross = cache.pieces[t].cross.front();
    std::vector<mesh::TileCache> broken(5, cache);
    ++broken[0].pieces[t].vertex_rank_ref.front();
    broken[1].pieces[t].neighbor_poly[cross.edge] =
        static_cast<std::uint32_t>(cache.pieces[cross.tile].source_poly.size());
    broken[2].pieces[t].kept.push_back(1000000);
    broken[3].pieces[t].source_poly.front() =
        static_cast<std::uint32_t>(cache.tiles[t].mesh.polygon_count());
    broken[4].pieces.pop_back();
    for (const mesh::TileCache& b : broken) {
      const Status s = mesh::check_stitch_pieces(b);
      REQUIRE_FALSE(s.ok());
      CHECK(s.error().message.find("stitch piece") != std::string::npos);
      CHECK_FALSE(mesh::validate(b).ok());
    }
  }
}

TEST_SUITE("mesh.tile_stitch") {
  TEST_CASE("triangle_tiles lists exactly the tiles whose bordered rectangle a triangle reaches") {
    const TriangleMesh scene = builtin("city:2");
    const mesh::TileCache cache = cached(scene, 16);
    const mesh::TileLayout& layout = cache.layout;
    const GridSpec& g = layout.grid;
    std::vector<std::uint32_t> listed;
    std::size_t pairs = 0;
    for (std::size_t t = 0; t < scene.triangles.size(); ++t) {
      listed.clear();
      mesh::triangle_tiles(scene, layout, t, listed);
      // brute force over every tile with TileLayout::bordered, columns widened by one
      float x0 = 1e30F, x1 = -1e30F, z0 = 1e30F, z1 = -1e30F;
      for (const std::uint32_t v : scene.triangles[t]) {
        x0 = std::min(x0, scene.vertices[v].x);
        x1 = std::max(x1, scene.vertices[v].x);
        z0 = std::min(z0, scene.vertices[v].z);
        z1 = std::max(z1, scene.vertices[v].z);
      }
      const auto col = [&](float v, float origin) {
        return static_cast<int>(std::floor((double{v} - double{origin}) / double{g.cell_size}));
      };
      const int cx0 = col(x0, g.origin.x) - 1;
      const int cx1 = col(x1, g.origin.x) + 1;
      const int cz0 = col(z0, g.origin.z) - 1;
      const int cz1 = col(z1, g.origin.z) + 1;
      std::vector<std::uint32_t> expected;
      for (std::size_t u = 0; u < layout.tile_count(); ++u) {
        const mesh::TileRect r = layout.bordered(u);
        if (cx1 < r.x0 || cx0 >= r.x1 || cz1 < r.z0 || cz0 >= r.z1) continue;
        expected.push_back(static_cast<std::uint32_t>(u));
      }
      CHECK(listed == expected);
      pairs += listed.size();
    }
    CHECK(pairs > scene.triangles.size());  // border triangles reach several tiles
  }
}
