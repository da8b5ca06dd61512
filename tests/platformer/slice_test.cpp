// Tile maps and heightfields (spec §B.3): the map as a W × 1 heightfield, the slice back, and the
// round trip through a 3-D scene (extruded boxes rasterized by the voxel stage) giving identical
// nav points.
#include <doctest/doctest.h>

#include <random>

#include "fixtures.hpp"
#include "leapnav/platformer/heightfield_slice.hpp"
#include "leapnav/voxel/rasterize.hpp"
#include "leapnav/voxel/walkable.hpp"

using namespace leapnav;
using namespace leapnav::platformer;
using namespace leapnav::platformer::test;

namespace {

std::vector<TileMap> sample_maps() {
  std::vector<TileMap> maps;
  for (const char* text : {kP1, kP2, kP3, kP4, kP5, kP6}) maps.push_back(fixture_map(text));
  std::mt19937 rng(77);
  for (int n = 0; n < 20; ++n) {
    TileMap map = make_tile_map(std::uniform_int_distribution<int>(3, 14)(rng),
                                std::uniform_int_distribution<int>(3, 9)(rng));
    for (auto& s : map.solid) s = std::uniform_int_distribution<int>(0, 99)(rng) < 35 ? 1 : 0;
    maps.push_back(std::move(map));
  }
  return maps;
}

// Rasterizes `mesh` on a grid with the given cell size and height whose origin is (-1, -1, 0)
// tiles, as the voxel stage does for a scene.
voxel::Heightfield rasterize_scene(const TriangleMesh& mesh, const TileMap& map, float cell) {
  BuildConfig config;
  config.voxel.cell_size = cell;
  config.voxel.cell_height = cell;
  const VoxelParams params = derive_voxel_params(config);
  BuildContext ctx;
  auto areas = voxel::mark_walkable_triangles(mesh, params, ctx);
  REQUIRE(areas.ok());
  GridSpec grid;
  grid.origin = {-1, -1, 0};
  grid.cell_size = cell;
  grid.cell_height = cell;
  grid.width = static_cast<int>(std::lround(static_cast<double>(map.width + 2) / cell));
  grid.depth = static_cast<int>(std::lround(2 / cell));
  grid.height = static_cast<int>(std::lround(static_cast<double>(map.height + 2) / cell));
  auto hf = voxel::rasterize(mesh, *areas, grid, params, ctx);
  REQUIRE(hf.ok());
  REQUIRE(voxel::validate(*hf).ok());
  return std::move(hf).value();
}

}  // namespace

TEST_SUITE("platformer.heightfield") {
  TEST_CASE("a map is a W x 1 heightfield with one span per vertical run of solid tiles") {
    const TileMap map = fixture_map(kP3);
    const voxel::Heightfield hf = to_heightfield(map);
    REQUIRE(voxel::validate(hf).ok());
    CHECK(hf.grid.width == 7);
    CHECK(hf.grid.depth == 1);
    // cell = row + 1 with the frame rows -1 and 6: column 4 is solid at rows -1..2 and 6,
    // column 1 at rows -1..0 and 6, column 0 everywhere
    constexpr std::uint8_t kWalk = voxel::kWalkableArea;
    REQUIRE(hf.end(4) - hf.first(4) == 2);
    CHECK(hf.spans[hf.first(4)] == voxel::Span{0, 4, kWalk});
    CHECK(hf.spans[hf.first(4) + 1] == voxel::Span{7, 8, kWalk});
    CHECK(hf.spans[hf.first(1)] == voxel::Span{0, 2, kWalk});
    REQUIRE(hf.end(0) - hf.first(0) == 1);
    CHECK(hf.spans[hf.first(0)] == voxel::Span{0, 8, kWalk});
  }

  TEST_CASE("map -> heightfield -> slice gives the same tiles and identical nav points") {
    for (const TileMap& map : sample_maps()) {
      CAPTURE(to_text(map));
      SliceSpec spec;
      spec.origin = {0, 0, 0.5F};
      spec.width = map.width;
      spec.height = map.height;
      auto back = slice_heightfield(to_heightfield(map), spec);
      REQUIRE(back.ok());
      CHECK(back->solid == map.solid);
      const NavGraph a = build_checked(map);
      const NavGraph b = build_checked(*back);
      CHECK(a.points == b.points);
      CHECK(content_hash(a) == content_hash(b));
    }
  }

  TEST_CASE("the round trip through an extruded 3-D scene gives identical nav points") {
    // tiles as 1 m boxes in a 2 m corridor, rasterized at 0.25 m cells and sliced at z = 1 m
    for (const TileMap& map : sample_maps()) {
      CAPTURE(to_text(map));
      const TriangleMesh mesh = extrude_tile_map(map, {1.0F, 2.0F, true});
      REQUIRE(validate(mesh).ok());
      const voxel::Heightfield hf = rasterize_scene(mesh, map, 0.25F);
      SliceSpec spec;
      spec.origin = {0, 0, 1.0F};
      spec.width = map.width;
      spec.height = map.height;
      auto back = slice_heightfield(hf, spec);
      REQUIRE(back.ok());
      CHECK(back->solid == map.solid);
      CHECK(build_checked(map).points == build_checked(*back).points);
    }
  }

  TEST_CASE("at a cell height of one tile the rasterizer's closed intervals fill the tile above") {
    // the documented limit of the slice: a box top on a cell boundary adds that cell, so a slice
    // at cell height = tile size sees every floor one tile too high
    const TileMap map = fixture_map(kP1);
    const voxel::Heightfield hf =
        rasterize_scene(extrude_tile_map(map, {1.0F, 2.0F, true}), map, 1.0F);
    SliceSpec spec;
    spec.origin = {0, 0, 1.0F};
    spec.width = map.width;
    spec.height = map.height;
    auto back = slice_heightfield(hf, spec);
    REQUIRE(back.ok());
    CHECK(back->solid != map.solid);
    CHECK(back->is_solid(2, 1));
  }

  TEST_CASE("slice arguments out of range are invalid_argument") {
    const voxel::Heightfield hf = to_heightfield(fixture_map(kP1));
    SliceSpec spec;
    spec.width = 0;
    spec.height = 3;
    CHECK(slice_heightfield(hf, spec).error().code == ErrorCode::InvalidArgument);
    spec.width = 3;
    spec.tile_size = -1;
    CHECK(slice_heightfield(hf, spec).error().code == ErrorCode::InvalidArgument);
  }

  TEST_CASE("an extruded map has 12 triangles per vertical run of solid tiles and frame column") {
    const TileMap map = fixture_map(kP1);
    // P1: columns 0 and 5 solid (one run each), columns 1-4 two runs (rows 0 and 2);
    // with the frame: columns -1 and 6 one run each, rows -1 and 3 join the runs of 0..5
    const TriangleMesh with_frame = extrude_tile_map(map, {1.0F, 2.0F, true});
    CHECK(with_frame.triangles.size() == 12 * (2 + 2 + 4 * 2));
    const TriangleMesh bare = extrude_tile_map(map, {1.0F, 2.0F, false});
    CHECK(bare.triangles.size() == 12 * (2 + 4 * 2));
    CHECK(bare.bounds().min.y == 0.0F);
    CHECK(bare.bounds().max.y == 3.0F);
    CHECK(bare.bounds().max.z == 2.0F);
  }
}
