// docs/tiles.md, "Streaming from a tile pack". Given: `using namespace leapnav;`, <algorithm>,
// <vector>; level.lnavpack, the pack of a 30 x 30 m floor built in 16-column tiles (7 x 7 tiles
// of 4.8 m), written by split_tiles and save_tile_pack (and, with $LEAPNAV_CLI, compared byte
// for byte with `leapnav build level.obj --tile-size 16` + `leapnav pack`); `player` in the
// first tile column (so the window is clamped at the edge: 2 x 3 tiles), `start` (the player's
// position) and `goal` in the window, `t` a tile of the window other than the start's; `fail`
// prints the message and ends the example with 1. Checks what the block's comments say: the
// window is the tiles within one tile of the player's (by tile_at of points a tile width away);
// the path is Found and its points lie in the window; a goal outside the window gives NoPath with
// unloaded_tile that goal's tile and blocked_by_unloaded_tiles; after unload_tile(t) the tile is
// not loaded and resident_bytes() is below what it was.
#include <algorithm>
#include <vector>

#include "doc_scenes.hpp"

using namespace leapnav;

namespace {
// note: the error handling the block calls (docs/api.md's convention)
int fail(const Error& error) {
  std::fprintf(stderr, "tiles_world: %s\n", error.message.c_str());
  return 1;
}
}  // namespace

int main() {
  TriangleMesh floor;
  floor.name = "floor";
  doc::add_box(floor, {0.0F, -0.5F, 0.0F}, {30.0F, 0.0F, 30.0F});
  {
    BuildContext ctx;
    auto tiled =
        mesh::build_tiled_navmesh(floor, *named_config("default"), mesh::TileConfig{16}, ctx);
    if (!tiled) return fail(tiled.error());
    auto blocks = stream::split_tiles(tiled->navmesh, nullptr, 16);
    if (!blocks) return fail(blocks.error());
    DOC_CHECK(blocks->layout.tiles_x == 7 && blocks->layout.tiles_z == 7);
    if (auto s = stream::save_tile_pack(*blocks, "level.lnavpack"); !s) return fail(s.error());
  }
  doc::write_obj(floor, "level.obj");
  if (doc::run_cli("build level.obj --tile-size 16 -o cli.lnav") &&
      doc::run_cli("pack cli.lnav -o cli.lnavpack")) {
    const std::string cli_pack = doc::read_bytes("cli.lnavpack");
    DOC_CHECK(!cli_pack.empty() && cli_pack == doc::read_bytes("level.lnavpack"));
  }

  const Vec3 player{2.0F, 0.0F, 15.0F};
  const Vec3 start = player;
  const Vec3 goal{8.0F, 0.0F, 21.0F};
  const Vec3 far_goal{28.0F, 0.0F, 28.0F};
  std::uint32_t t = stream::kNoTile;
  {
    auto probe = stream::PackTileSource::open("level.lnavpack");
    if (!probe) return fail(probe.error());
    t = (*probe)->layout().tile_at(7.0F, 11.0F);  // the window's tile at x 1, z 2
  }

  // @example

  // the window: the tiles holding the points one tile width around the player
  const float width = layout.grid.cell_size * static_cast<float>(layout.tile_size);
  std::vector<std::uint32_t> expected;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dx = -1; dx <= 1; ++dx) {
      const std::uint32_t tile = layout.tile_at(player.x + static_cast<float>(dx) * width,
                                                player.z + static_cast<float>(dz) * width);
      if (tile != stream::kNoTile) expected.push_back(tile);
    }
  }
  std::sort(expected.begin(), expected.end());
  std::vector<std::uint32_t> got = window;
  std::sort(got.begin(), got.end());
  DOC_CHECK(got == expected && got.size() == 6);
  DOC_CHECK(std::find(window.begin(), window.end(), t) != window.end() &&
            t != layout.tile_at(start.x, start.z));
  // the path over the window
  DOC_CHECK(path->status == plan::PathStatus::Found && path->points.size() >= 2);
  for (const Vec3& p : path->points) {
    DOC_CHECK(std::find(window.begin(), window.end(), layout.tile_at(p.x, p.z)) != window.end());
  }
  // a goal outside the window
  auto outside = world->find_path(start, far_goal);
  DOC_CHECK(outside && outside->status == plan::PathStatus::NoPath &&
            outside->unloaded_tile == layout.tile_at(far_goal.x, far_goal.z) &&
            outside->blocked_by_unloaded_tiles);
  // the unload frees memory
  DOC_CHECK(!world->tile_loaded(t) && world->resident_bytes() < bytes);
  return doc::finish("tiles_world");
}
