// Link neighbourhoods assembled from per-tile voxel pieces (jumplinks/tile_voxels.hpp): against
// the neighbourhood voxelized as one window (what every tile did before), the assembly has the
// same solid spans in every column and the same compact spans, connections and areas in every
// column away from the window's cut edge; a whole tiled link build from pieces gives the very link
// set of the tiles built on their own windows.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/jumplinks/tile_voxels.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/voxel/voxelize.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

std::optional<TriangleMesh> level(const std::string& spec) {
  if (spec.ends_with(".obj")) {
    const auto path = test::shared_mesh(spec);
    if (!path) return std::nullopt;
    auto mesh = io::load_scene(path->string());
    REQUIRE(mesh.ok());
    return std::move(mesh).value();
  }
  auto mesh = io::load_scene("builtin:" + spec);
  REQUIRE(mesh.ok());
  return std::move(mesh).value();
}

TiledLinkOptions c2_step4() {
  TiledLinkOptions options;
  options.jumps.jumps = {kJumpC2};
  options.jumps.step = 4;
  return options;
}

struct Case {
  std::string spec;
  int tile_size;
};

}  // namespace

TEST_SUITE("jumplinks.tile_voxels") {
  TEST_CASE(
      "an assembled neighbourhood has the solid spans of the window voxelized alone everywhere "
      "and its compact spans wherever the window is not cut") {
    const BuildConfig config = *named_config("default");
    // note: every tile of each level; kept small for the sanitizer lanes (city:3 at 16-cell
    // tiles took longer than the other three together, with no case they miss)
    for (const Case& c : {Case{"city:3", 32}, Case{"dungeon.obj", 32}, Case{"nav_test.obj", 64}}) {
      CAPTURE(c.spec);
      CAPTURE(c.tile_size);
      const std::optional<TriangleMesh> mesh = level(c.spec);
      if (!mesh) continue;
      const VoxelParams params = derive_voxel_params(config);
      auto grid = make_grid(mesh->bounds(), params.cell_size, params.cell_height);
      REQUIRE(grid.ok());
      auto layout = mesh::make_tile_layout(*grid, mesh::TileConfig{c.tile_size, -1}, config);
      REQUIRE(layout.ok());
      REQUIRE(layout->border >= tile_piece_border(config));
      const int reach = jump_reach_cells(c2_step4().jumps, config.agent, layout->grid.cell_size);
      mesh::TileLayout padded = *layout;
      padded.border += reach;
      const auto window_triangles = mesh::tile_triangles(*mesh, padded);
      const auto piece_triangles = mesh::tile_triangles(*mesh, tile_piece_layout(*layout, config));
      BuildContext ctx;
      ctx.set_threads(1);
      std::vector<std::optional<TileVoxelPiece>> pieces(layout->tile_count());
      std::vector<const TileVoxelPiece*> by_tile(layout->tile_count(), nullptr);
      for (std::size_t t = 0; t < layout->tile_count(); ++t) {
        auto piece = build_tile_voxel_piece(*mesh, piece_triangles[t], *layout, t, config, ctx);
        REQUIRE(piece.ok());
        const Status valid = validate(*piece);
        CHECK_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
        pieces[t] = std::move(piece).value();
        by_tile[t] = &*pieces[t];
      }
      {
        // the checker sees a broken piece
        TileVoxelPiece broken = *pieces[0];
        broken.areas.push_back(voxel::kWalkableArea);
        CHECK(!validate(broken).ok());
        broken = *pieces[0];
        broken.obstacles.approx[0] = 1;
        CHECK(!validate(broken).ok());
      }
      std::uint64_t compared = 0;
      std::uint64_t solid_differing = 0;      // any column
      std::uint64_t open_differing = 0;       // away from the cut edges
      std::uint64_t ring_differing = 0;       // near them (allowed; the search does not read them)
      std::uint64_t obstacles_differing = 0;  // obstacle columns away from the cut edges
      // note: every second tile's neighbourhood (each covers about nine tiles' pieces)
      for (std::size_t t = 0; t < layout->tile_count(); t += 2) {
        if (window_triangles[t].empty()) continue;
        const mesh::TileRect rect = link_search_rect(*layout, t, reach);
        const TriangleMesh part = mesh::triangle_subset(*mesh, window_triangles[t], "part");
        auto window = voxel::voxelize_window(
            part, voxel::GridWindow{layout->grid, rect.x0, rect.z0, rect.width(), rect.depth()},
            config, ctx, voxel::DistanceField::skip);
        REQUIRE(window.ok());
        auto assembled = assemble_tile_voxels(*layout, rect, by_tile, config);
        REQUIRE(assembled.ok());
        // the obstacle field assembled from the pieces' columns against the window's own
        auto own_field =
            build_obstacle_bits(window->solid, config.agent, ctx, BitsKept::ApproxOnly);
        REQUIRE(own_field.ok());
        const ObstacleSource source = [&](int x, int z) {
          return &pieces[static_cast<std::size_t>(x / c.tile_size) +
                         static_cast<std::size_t>(z / c.tile_size) *
                             static_cast<std::size_t>(layout->tiles_x)]
                      ->obstacles;
        };
        auto assembled_field =
            assemble_obstacle_bits(assembled->solid, rect.x0, rect.z0, config.agent, source, ctx);
        REQUIRE(assembled_field.ok());
        REQUIRE(assembled_field->words == own_field->words);
        {
          const int b = layout->border + 1;
          const int x0 = rect.x0 > 0 ? b : 0;
          const int z0 = rect.z0 > 0 ? b : 0;
          const int x1 = rect.x1 < layout->grid.width ? rect.width() - b : rect.width();
          const int z1 = rect.z1 < layout->grid.depth ? rect.depth() - b : rect.depth();
          const ObstacleColumns p = obstacle_columns(&*own_field, 0, 0, x0, z0, x1, z1);
          const ObstacleColumns q = obstacle_columns(&*assembled_field, 0, 0, x0, z0, x1, z1);
          // plane values both ways, approx flags and the approximate columns' bits, all equal
          const bool same = p.rows_x == q.rows_x && p.rows_z == q.rows_z && p.approx == q.approx &&
                            p.bits == q.bits;
          obstacles_differing += same ? 0 : 1;
        }
        const voxel::Heightfield& ws = window->solid;
        const voxel::Heightfield& as = assembled->solid;
        const voxel::CompactHeightfield& wo = window->compact;
        const voxel::CompactHeightfield& ao = assembled->compact;
        REQUIRE(ws.grid == as.grid);
        REQUIRE(wo.grid == ao.grid);
        // the window's cut edges (not the world's): within border + 1 columns the window differs
        const int b = layout->border + 1;
        const int x_lo = rect.x0 > 0 ? b : 0;
        const int z_lo = rect.z0 > 0 ? b : 0;
        const int x_hi = rect.x1 < layout->grid.width ? rect.width() - b : rect.width();
        const int z_hi = rect.z1 < layout->grid.depth ? rect.depth() - b : rect.depth();
        for (int z = 0; z < ws.grid.depth; ++z) {
          for (int x = 0; x < ws.grid.width; ++x) {
            const std::size_t col = ws.grid.column_index(x, z);
            bool same_solid = ws.end(col) - ws.first(col) == as.end(col) - as.first(col);
            for (std::uint32_t k = 0; same_solid && k < ws.end(col) - ws.first(col); ++k) {
              const voxel::Span& p = ws.spans[ws.first(col) + k];
              const voxel::Span& q = as.spans[as.first(col) + k];
              same_solid = p.min == q.min && p.max == q.max;
            }
            solid_differing += same_solid ? 0 : 1;
            bool same_open = wo.end(col) - wo.first(col) == ao.end(col) - ao.first(col);
            for (std::uint32_t k = 0; same_open && k < wo.end(col) - wo.first(col); ++k) {
              same_open = wo.spans[wo.first(col) + k] == ao.spans[ao.first(col) + k] &&
                          wo.areas[wo.first(col) + k] == ao.areas[ao.first(col) + k];
            }
            // the filters' areas on the solid spans too
            for (std::uint32_t k = 0; same_open && k < ws.end(col) - ws.first(col); ++k)
              same_open = ws.spans[ws.first(col) + k] == as.spans[as.first(col) + k];
            if (x >= x_lo && x < x_hi && z >= z_lo && z < z_hi) {
              ++compared;
              open_differing += same_open ? 0 : 1;
            } else {
              ring_differing += same_open ? 0 : 1;
            }
          }
        }
      }
      CHECK(compared > 0);
      CHECK(obstacles_differing == 0);
      CHECK(solid_differing == 0);
      CHECK(open_differing == 0);
      MESSAGE(c.spec << " at " << c.tile_size << ": " << compared << " columns compared, "
                     << ring_differing << " columns near cut edges differ");
    }
  }

  TEST_CASE("a tiled link build from voxel pieces gives the links of every tile built alone") {
    const BuildConfig config = *named_config("default");
    // note: one level (the sanitizer lanes run it too); the CLI's jump hashes of the real levels
    // are compared in bench/RESULTS.md, "City links under 2 s"
    for (const Case& c : {Case{"city:3", 32}}) {
      CAPTURE(c.spec);
      const std::optional<TriangleMesh> mesh = level(c.spec);
      if (!mesh) continue;
      BuildContext ctx;
      ctx.set_threads(2);
      auto built = mesh::build_tiled_navmesh(*mesh, config, mesh::TileConfig{c.tile_size, -1}, ctx);
      REQUIRE(built.ok());
      const TiledLinkOptions options = c2_step4();
      auto tiled = build_tiled_jump_links(*mesh, built->navmesh, built->layout, options, ctx);
      REQUIRE(tiled.ok());
      CHECK(tiled->voxel_pieces > 0);
      CHECK(tiled->set.links.size() > 0);
      // each tile on its own window (what the single-tile relink does), joined in tile order
      const PolygonTiles tiles = polygon_tiles(built->navmesh, built->layout);
      mesh::TileLayout padded = built->layout;
      padded.border += jump_reach_cells(options.jumps, config.agent, built->layout.grid.cell_size);
      const auto triangles = mesh::tile_triangles(*mesh, padded);
      JumpLinkSet alone;
      alone.configs = options.jumps.jumps;
      alone.quantum = tiled->set.quantum;
      for (std::size_t t = 0; t < built->layout.tile_count(); ++t) {
        auto links = build_tile_jump_links(*mesh, triangles[t], built->navmesh, tiles,
                                           built->layout, t, options, ctx);
        REQUIRE(links.ok());
        alone.links.insert(alone.links.end(), links->set.links.begin(), links->set.links.end());
      }
      index_links(alone, built->navmesh.polygon_count());
      CHECK(alone.links.size() == tiled->set.links.size());
      CHECK(content_hash(alone) == content_hash(tiled->set));
    }
  }
}
