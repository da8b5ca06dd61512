#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "leapnav/voxel/rasterize.hpp"
#include "leapnav/voxel/walkable.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;
using namespace leapnav::voxel::test;

TEST_SUITE("voxel.walkable") {
  TEST_CASE("a 44 degree slope is walkable and a 46 degree slope is not") {
    TriangleMesh mesh;
    add_ramp(mesh, 0, 4, 0, 4, 0, 44.0);
    add_ramp(mesh, 0, 4, 0, 4, 0, 46.0);
    BuildContext ctx;
    const auto areas = mark_walkable_triangles(mesh, test_params(4, 2, 0), ctx);
    REQUIRE(areas.ok());
    CHECK(areas->area ==
          std::vector<std::uint8_t>{kWalkableArea, kWalkableArea, kNullArea, kNullArea});
    CHECK(areas->walkable == 2);
    CHECK(areas->degenerate == 0);
  }
  TEST_CASE("a downward-facing triangle is not walkable") {
    TriangleMesh mesh;
    mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    mesh.triangles = {{0, 1, 2}};
    BuildContext ctx;
    const auto areas = mark_walkable_triangles(mesh, test_params(4, 2, 0), ctx);
    REQUIRE(areas.ok());
    CHECK(areas->area[0] == kNullArea);
  }
  TEST_CASE("zero-area and non-finite triangles are dropped, counted and warned about") {
    TriangleMesh mesh;
    mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0},
                     {0, 0, 1}, {1, 0, 1}, {std::numeric_limits<float>::infinity(), 0, 0}};
    mesh.triangles = {{0, 1, 2}, {0, 0, 3}, {0, 3, 4}, {0, 3, 5}};
    BuildContext ctx;
    const auto areas = mark_walkable_triangles(mesh, test_params(4, 2, 0), ctx);
    REQUIRE(areas.ok());
    CHECK(areas->area == std::vector<std::uint8_t>{kDroppedTriangle, kDroppedTriangle,
                                                   kWalkableArea, kDroppedTriangle});
    CHECK(areas->degenerate == 3);
    CHECK(ctx.warnings().size() == 1);
  }
  TEST_CASE("a triangle using a missing vertex is an error") {
    TriangleMesh mesh;
    mesh.vertices = {{0, 0, 0}, {1, 0, 0}};
    mesh.triangles = {{0, 1, 2}};
    BuildContext ctx;
    const auto areas = mark_walkable_triangles(mesh, test_params(4, 2, 0), ctx);
    REQUIRE_FALSE(areas.ok());
    CHECK(areas.error().code == ErrorCode::IndexOutOfRange);
  }
}

TEST_SUITE("voxel.rasterize") {
  TEST_CASE("a flat quad gives exactly one span per covered column at its height") {
    TriangleMesh mesh;
    add_quad(mesh, 1, 1, 4, 3, 2.2F);
    const Heightfield hf =
        rasterize_checked(mesh, test_grid(6, 5, 20, 1.0F, 0.5F), test_params(4, 2, 0));
    CHECK(hf.spans.size() == 6);
    for (int z = 0; z < 5; ++z) {
      for (int x = 0; x < 6; ++x) {
        const auto spans = column_spans(hf, x, z);
        const bool covered = x >= 1 && x <= 3 && z >= 1 && z <= 2;
        REQUIRE(spans.size() == (covered ? 1U : 0U));
        if (covered) CHECK(spans[0] == Span{4, 5, kWalkableArea});  // floor(4.4) .. ceil(4.4)
      }
    }
  }
  TEST_CASE("a triangle exactly on cell boundaries covers only the cells it has area in") {
    TriangleMesh mesh;
    mesh.vertices = {{1, 0, 1}, {1, 0, 3}, {3, 0, 3}};
    mesh.triangles = {{0, 1, 2}};
    const Heightfield hf =
        rasterize_checked(mesh, test_grid(5, 5, 4, 1.0F, 0.5F), test_params(4, 2, 0));
    CHECK(hf.spans.size() == 3);
    CHECK(column_spans(hf, 1, 1).size() == 1);
    CHECK(column_spans(hf, 1, 2).size() == 1);
    CHECK(column_spans(hf, 2, 2).size() == 1);
  }
  TEST_CASE("a quad exactly on cell boundaries covers exactly its cells") {
    TriangleMesh mesh;
    add_quad(mesh, 1, 1, 3, 3, 0.0F);
    const Heightfield hf =
        rasterize_checked(mesh, test_grid(5, 5, 4, 1.0F, 0.5F), test_params(4, 2, 0));
    CHECK(hf.spans.size() == 4);
    for (int z = 1; z <= 2; ++z) {
      for (int x = 1; x <= 2; ++x)
        CHECK(column_spans(hf, x, z) == std::vector<Span>{{0, 1, kWalkableArea}});
    }
  }
  TEST_CASE("a triangle outside the grid gives no spans and one partly outside is clipped") {
    TriangleMesh outside;
    add_quad(outside, 10, 10, 12, 12, 0.0F);
    add_quad(outside, 1, 1, 2, 2, -5.0F);  // below the grid
    add_quad(outside, 1, 1, 2, 2, 50.0F);  // above the grid
    const GridSpec grid = test_grid(6, 5, 20, 1.0F, 0.5F);
    CHECK(rasterize_checked(outside, grid, test_params(4, 2, 0)).spans.empty());

    TriangleMesh partly;
    add_quad(partly, -3, -2, 2, 1, 1.0F);
    const Heightfield hf = rasterize_checked(partly, grid, test_params(4, 2, 0));
    CHECK(hf.spans.size() == 2);  // columns (0, 0) and (1, 0)
    CHECK(column_spans(hf, 0, 0).size() == 1);
    CHECK(column_spans(hf, 1, 0).size() == 1);
  }
  TEST_CASE("a box on a plane merges its sides with the floor and takes the top's walkable area") {
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 10, 10, 0.0F);
    add_box(mesh, {4.5F, 0.0F, 4.5F}, {6.5F, 1.0F, 6.5F});
    const Heightfield hf =
        rasterize_checked(mesh, test_grid(10, 10, 20, 1.0F, 0.25F), test_params(4, 2, 0));
    // the box is a hollow shell: its centre column sees the floor and the lid apart
    CHECK(hf.spans.size() == 101);
    for (int z = 4; z <= 6; ++z) {
      for (int x = 4; x <= 6; ++x) {
        if (x == 5 && z == 5) {
          CHECK(column_spans(hf, x, z) ==
                std::vector<Span>{{0, 1, kWalkableArea}, {4, 5, kWalkableArea}});
        } else {
          CHECK(column_spans(hf, x, z) == std::vector<Span>{{0, 5, kWalkableArea}});
        }
      }
    }
    CHECK(column_spans(hf, 3, 3) == std::vector<Span>{{0, 1, kWalkableArea}});
  }
  TEST_CASE("a wall far above the floor is its own unwalkable span; a thin one merges by climb") {
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 4, 4, 0.0F);
    add_quad(mesh, 0, 0, 4, 4, 2.0F);  // a floor 8 cells up: separate span
    const Heightfield hf =
        rasterize_checked(mesh, test_grid(4, 4, 20, 1.0F, 0.25F), test_params(4, 2, 0));
    CHECK(hf.spans.size() == 32);
    CHECK(column_spans(hf, 1, 1) ==
          std::vector<Span>{{0, 1, kWalkableArea}, {8, 9, kWalkableArea}});
  }
  TEST_CASE("the merged area follows the climb rule") {
    // an unwalkable box top far above a walkable floor: the higher top decides
    TriangleMesh tall;
    add_quad(tall, 0, 0, 1, 1, 0.0F);
    add_box(tall, {0.25F, 0.0F, 0.25F}, {0.75F, 2.0F, 0.75F});
    // the box top is walkable, its sides are not; pick a column that sees only the sides
    const Heightfield hf =
        rasterize_checked(tall, test_grid(1, 1, 20, 1.0F, 0.25F), test_params(4, 2, 0));
    REQUIRE(hf.spans.size() == 1);
    CHECK(hf.spans[0] == Span{0, 9, kWalkableArea});  // top within climb of the sides' top

    TriangleMesh steep;
    add_quad(steep, 0, 0, 1, 1, 0.0F);
    steep.vertices.push_back({0.2F, 0.0F, 0.5F});
    steep.vertices.push_back({0.8F, 0.0F, 0.5F});
    steep.vertices.push_back({0.5F, 2.0F, 0.5F});
    steep.triangles.push_back({4, 5, 6});  // a vertical unwalkable triangle 8 cells tall
    const Heightfield wall =
        rasterize_checked(steep, test_grid(1, 1, 20, 1.0F, 0.25F), test_params(4, 2, 0));
    REQUIRE(wall.spans.size() == 1);
    CHECK(wall.spans[0] == Span{0, 8, kNullArea});
  }
  TEST_CASE("the grid must match the areas") {
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 1, 1, 0.0F);
    TriangleAreas areas;
    areas.area = {kWalkableArea};
    BuildContext ctx;
    const auto hf =
        rasterize(mesh, areas, test_grid(2, 2, 2, 1.0F, 1.0F), test_params(4, 2, 0), ctx);
    REQUIRE_FALSE(hf.ok());
    CHECK(hf.error().code == ErrorCode::InvalidArgument);
  }
  TEST_CASE("a memory limit below the grid's needs is refused before allocating") {
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 1, 1, 0.0F);
    BuildContext ctx;
    ctx.set_memory_limit(64);
    const auto areas = mark_walkable_triangles(mesh, test_params(4, 2, 0), ctx);
    REQUIRE(areas.ok());
    const auto hf =
        rasterize(mesh, *areas, test_grid(100, 100, 2, 1.0F, 1.0F), test_params(4, 2, 0), ctx);
    REQUIRE_FALSE(hf.ok());
    CHECK(hf.error().code == ErrorCode::MemoryLimit);
  }
  TEST_CASE("a memory limit below the fragments' worst case is refused before rasterizing") {
    TriangleMesh mesh;
    for (int i = 0; i < 1000; ++i) add_quad(mesh, 0, 0, 10, 10, 0.01F * static_cast<float>(i));
    BuildContext ctx;
    ctx.set_threads(1);
    const auto areas = mark_walkable_triangles(mesh, test_params(4, 2, 0), ctx);
    REQUIRE(areas.ok());
    ctx.set_memory_limit(500'000);
    const auto hf =
        rasterize(mesh, *areas, test_grid(10, 10, 60, 1.0F, 0.25F), test_params(4, 2, 0), ctx);
    REQUIRE_FALSE(hf.ok());
    CHECK(hf.error().code == ErrorCode::MemoryLimit);
    CHECK(hf.error().message.find("fragments") != std::string::npos);
    ctx.set_memory_limit(BuildContext::default_memory_limit());
    CHECK(rasterize(mesh, *areas, test_grid(10, 10, 60, 1.0F, 0.25F), test_params(4, 2, 0), ctx)
              .ok());
  }
  TEST_CASE("a crowded band gives the same spans on 1 to 8 threads and in shuffled order") {
    // 60 stacked 20 x 20 floors 0.5 m apart: 120 fragments per column in every band.
    // Seen from any column: 60 one-cell spans, 2 cells apart.
    TriangleMesh mesh;
    for (int i = 0; i < 60; ++i) add_quad(mesh, 0, 0, 20, 20, 0.5F * static_cast<float>(i) + 0.1F);
    const GridSpec grid = test_grid(20, 20, 160, 1.0F, 0.25F);
    const VoxelParams params = test_params(4, 1, 0);
    const Heightfield one = rasterize_checked(mesh, grid, params, 1);
    for (const auto& [x, z] : {std::pair{0, 0}, std::pair{7, 13}, std::pair{19, 19}}) {
      const std::vector<Span> spans = column_spans(one, x, z);
      REQUIRE(spans.size() == 60);
      CHECK(spans.front() == Span{0, 1, kWalkableArea});
      CHECK(spans.back() == Span{118, 119, kWalkableArea});
    }
    TriangleMesh shuffled = mesh;
    std::mt19937 rng(11);
    std::shuffle(shuffled.triangles.begin(), shuffled.triangles.end(), rng);
    for (int threads = 2; threads <= 8; ++threads) {
      INFO(threads << " threads");
      const Heightfield many =
          rasterize_checked(threads % 2 == 0 ? mesh : shuffled, grid, params, threads);
      CHECK(many.column_first == one.column_first);
      CHECK(many.spans == one.spans);
    }
  }

  TEST_CASE("a window of the grid, also past its edges, gets the whole grid's spans per column") {
    // random boxes, ramps and floors over a floor wider than the grid, and boxes with walls on
    // the cell planes of a grid whose origin is not 0; windows cut rows inside the fixed bands
    // and reach past every edge of the grid
    const VoxelParams params = test_params(8, 4, 0);
    GridSpec grid = test_grid(34, 34, 80, 0.3F, 0.1F);
    grid.origin = {0.9F, 0.0F, 0.9F};
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      TriangleMesh mesh = random_scene(seed);
      // boxes with their walls on cell planes, as demo's
      for (int k = 0; k < 8; ++k) {
        const float x = 0.9F + 0.3F * static_cast<float>(4 * k + 1);
        const float z = 0.9F + 0.3F * static_cast<float>(3 * k + 2);
        add_box(mesh, {x, 0.0F, z}, {x + 0.3F * static_cast<float>(k + 2), 1.5F, z + 1.2F});
      }
      BuildContext ctx;
      const auto areas = mark_walkable_triangles(mesh, params, ctx);
      REQUIRE(areas.ok());
      const auto whole = rasterize(mesh, *areas, grid, params, ctx);
      REQUIRE(whole.ok());
      for (const int x0 : {-5, 0, 7, 29}) {
        for (const int z0 : {-6, 0, 13, 30}) {
          CAPTURE(seed);
          CAPTURE(x0);
          CAPTURE(z0);
          const GridWindow window{grid, x0, z0, 11, 19};
          const auto part = rasterize_window(mesh, *areas, window, params, ctx);
          REQUIRE(part.ok());
          CHECK(part->grid == window.grid());
          int differing = 0;
          int compared = 0;
          for (int z = std::max(z0, 0); z < std::min(z0 + 19, grid.depth); ++z) {
            for (int x = std::max(x0, 0); x < std::min(x0 + 11, grid.width); ++x) {
              ++compared;
              differing += column_spans(*whole, x, z) != column_spans(*part, x - x0, z - z0);
            }
          }
          CHECK(compared > 0);
          CHECK(differing == 0);
        }
      }
    }
  }

  TEST_CASE(
      "a window that starts inside long triangles gets the whole grid's spans at every "
      "first column") {
    // long floors (every edge flat in y), long triangles with one flat edge, ramps rising along
    // x and along z, tilted triangles and walls along x, with corners on cell planes, all within
    // 5 cm of height on cells of 1 micrometre, so that a y one rounding off shows in the spans;
    // a window starting at any column cuts these triangles after their first column
    const VoxelParams params = test_params(8, 4, 0);
    GridSpec grid = test_grid(40, 24, 60000, 0.3F, 1e-6F);
    grid.origin = {0.6F, -0.005F, 0.9F};
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> along(0.6F, 12.6F);
      std::uniform_real_distribution<float> across(0.9F, 8.1F);
      std::uniform_real_distribution<float> y(0.0F, 0.05F);
      std::uniform_int_distribution<int> plane(2, 40);
      TriangleMesh mesh;
      mesh.name = "long triangles";
      const auto vertex = [&mesh](float vx, float vy, float vz) {
        mesh.vertices.push_back({vx, vy, vz});
        return static_cast<std::uint32_t>(mesh.vertices.size() - 1);
      };
      for (int k = 0; k < 24; ++k) {
        const float x0 = k % 4 == 0 ? 0.6F + 0.3F * static_cast<float>(plane(rng)) : along(rng);
        const float x1 = along(rng);
        const float z0 = across(rng);
        const float z1 = across(rng);
        const float h0 = y(rng);
        const float h1 = y(rng);
        switch (k % 6) {
          case 0:  // a floor
            add_quad(mesh, std::min(x0, x1), std::min(z0, z1), std::max(x0, x1), std::max(z0, z1),
                     h0);
            break;
          case 1:  // one flat edge along x, the third corner higher
            mesh.triangles.push_back(
                {vertex(x0, h0, z0), vertex(x1, h0, z0), vertex(0.5F * (x0 + x1), h1, z1)});
            break;
          case 2:  // a ramp rising along z: its edges along x are flat
            mesh.triangles.push_back({vertex(x0, h0, z0), vertex(x1, h0, z0), vertex(x1, h1, z1)});
            mesh.triangles.push_back({vertex(x0, h0, z0), vertex(x1, h1, z1), vertex(x0, h1, z1)});
            break;
          case 3:  // a ramp rising along x
            add_ramp(mesh, std::min(x0, x1), std::max(x0, x1), std::min(z0, z1), std::max(z0, z1),
                     h0, 0.001 + 0.2 * double{h1});
            break;
          case 4:  // a wall along x
            mesh.triangles.push_back({vertex(x0, h0, z0), vertex(x1, h0, z0), vertex(x1, h1, z0)});
            mesh.triangles.push_back({vertex(x0, h0, z0), vertex(x1, h1, z0), vertex(x0, h1, z0)});
            break;
          default:  // no flat edge
            mesh.triangles.push_back(
                {vertex(x0, h0, z0), vertex(x1, h1, z0), vertex(0.5F * (x0 + x1), y(rng), z1)});
            break;
        }
      }
      BuildContext ctx;
      const auto areas = mark_walkable_triangles(mesh, params, ctx);
      REQUIRE(areas.ok());
      const auto whole = rasterize(mesh, *areas, grid, params, ctx);
      REQUIRE(whole.ok());
      REQUIRE(!whole->spans.empty());
      int differing = 0;
      int compared = 0;
      for (int x0 = 1; x0 < grid.width; ++x0) {
        for (const int z0 : {0, 7, 16}) {
          const GridWindow window{grid, x0, z0, 5, 8};
          const auto part = rasterize_window(mesh, *areas, window, params, ctx);
          REQUIRE(part.ok());
          for (int z = z0; z < std::min(z0 + 8, grid.depth); ++z) {
            for (int x = x0; x < std::min(x0 + 5, grid.width); ++x) {
              ++compared;
              const bool same = column_spans(*whole, x, z) == column_spans(*part, x - x0, z - z0);
              if (!same)
                MESSAGE("seed " << seed << ", window at (" << x0 << ", " << z0 << "): column (" << x
                                << ", " << z << ") differs");
              differing += same ? 0 : 1;
            }
          }
        }
      }
      CHECK(compared > 0);
      CHECK(differing == 0);
    }
  }
}
