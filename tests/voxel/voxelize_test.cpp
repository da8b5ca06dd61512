#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "leapnav/core/hash.hpp"
#include "leapnav/voxel/compact.hpp"
#include "leapnav/voxel/distance_field.hpp"
#include "leapnav/voxel/erode.hpp"
#include "leapnav/voxel/filters.hpp"
#include "leapnav/voxel/voxelize.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;
using namespace leapnav::voxel::test;

namespace {

VoxelOutput voxelize_checked(const TriangleMesh& mesh, const BuildConfig& config, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = voxelize(mesh, config, ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  require_valid(out->solid);
  require_valid(out->compact);
  return std::move(out).value();
}

}  // namespace

TEST_SUITE("voxel.voxelize") {
  TEST_CASE("a flat quad keeps its interior walkable and loses its rim to the ledge filter") {
    TriangleMesh mesh;
    mesh.name = "quad";
    add_quad(mesh, 0, 0, 4, 3, 0.0F);
    const VoxelOutput out = voxelize_checked(mesh, test_config());
    CHECK(out.solid.grid.width == 8);
    CHECK(out.solid.grid.depth == 6);
    CHECK(out.stats.triangles == 2);
    CHECK(out.stats.walkable_triangles == 2);
    CHECK(out.stats.spans == 48);
    CHECK(out.stats.compact_spans == 24);   // 6 x 4 interior
    CHECK(out.stats.walkable_spans == 24);  // radius 0: no erosion
    CHECK(out.compact.distance.size() == 24);
  }
  TEST_CASE("erosion by one cell leaves the inner rectangle") {
    TriangleMesh mesh;
    mesh.name = "quad";
    add_quad(mesh, 0, 0, 4, 3, 0.0F);
    const VoxelOutput out = voxelize_checked(mesh, test_config(0.5F));
    CHECK(out.stats.compact_spans == 24);
    CHECK(out.stats.walkable_spans == 8);  // 4 x 2
  }
  TEST_CASE("voxelize times every stage") {
    TriangleMesh mesh;
    add_quad(mesh, 0, 0, 4, 3, 0.0F);
    BuildContext ctx;
    REQUIRE(voxelize(mesh, test_config(), ctx).ok());
    const auto& timings = ctx.timings();
    std::vector<std::string> names;
    for (const auto& [name, ms] : timings) names.push_back(name);
    CHECK(names ==
          std::vector<std::string>{"rasterize", "filter", "compact", "erode", "distance_field"});
  }
  TEST_CASE("bad input is an error, not a crash") {
    BuildContext ctx;
    TriangleMesh empty;
    empty.name = "empty";
    CHECK(voxelize(empty, test_config(), ctx).error().code == ErrorCode::EmptyInput);
    TriangleMesh broken;
    broken.vertices = {{0, 0, 0}};
    broken.triangles = {{0, 0, 1}};
    CHECK(voxelize(broken, test_config(), ctx).error().code == ErrorCode::IndexOutOfRange);
    TriangleMesh nan;
    nan.vertices = {{0, 0, 0}, {1, 0, 0}, {0, std::numeric_limits<float>::quiet_NaN(), 1}};
    nan.triangles = {{0, 1, 2}};
    CHECK(voxelize(nan, test_config(), ctx).error().code == ErrorCode::NonFinite);
    BuildConfig bad = test_config();
    bad.voxel.cell_size = 0.0F;
    TriangleMesh quad;
    add_quad(quad, 0, 0, 1, 1, 0.0F);
    CHECK(voxelize(quad, bad, ctx).error().code == ErrorCode::InvalidArgument);
  }
  TEST_CASE("a cancelled build returns Cancelled") {
    TriangleMesh quad;
    add_quad(quad, 0, 0, 1, 1, 0.0F);
    BuildContext ctx;
    ctx.request_cancel();
    const auto out = voxelize(quad, test_config(), ctx);
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == ErrorCode::Cancelled);
  }
  TEST_CASE("every stage returns Cancelled once the build is cancelled") {
    TriangleMesh quad;
    add_quad(quad, 0, 0, 4, 4, 0.0F);
    const VoxelParams params = test_params(4, 2, 1);
    const Heightfield hf = rasterize_checked(quad, test_grid(4, 4, 4, 1.0F, 0.25F), params);
    BuildContext live;
    auto compact = build_compact(hf, params, live);
    REQUIRE(compact.ok());
    BuildContext ctx;
    ctx.request_cancel();
    CHECK(mark_walkable_triangles(quad, params, ctx).error().code == ErrorCode::Cancelled);
    TriangleAreas areas;
    areas.area = {kWalkableArea, kWalkableArea};
    CHECK(rasterize(quad, areas, hf.grid, params, ctx).error().code == ErrorCode::Cancelled);
    CHECK(filter_walkable(hf, params, ctx).error().code == ErrorCode::Cancelled);
    CHECK(filter_ledges(hf, params, ctx).error().code == ErrorCode::Cancelled);
    CHECK(build_compact(hf, params, ctx).error().code == ErrorCode::Cancelled);
    CHECK(erode(*compact, params, ctx).error().code == ErrorCode::Cancelled);
    CHECK(distance_field(*compact, ctx).error().code == ErrorCode::Cancelled);
  }
  TEST_CASE("voxelize reports progress from 0 to 1") {
    TriangleMesh quad;
    add_quad(quad, 0, 0, 4, 4, 0.0F);
    BuildContext ctx;
    std::vector<double> fractions;
    ctx.set_progress_sink([&](std::string_view stage, double fraction) {
      CHECK(stage == "voxel");
      fractions.push_back(fraction);
    });
    REQUIRE(voxelize(quad, test_config(), ctx).ok());
    REQUIRE(fractions.size() >= 2);
    CHECK(fractions.front() == 0.0);
    CHECK(fractions.back() == 1.0);
    CHECK(std::is_sorted(fractions.begin(), fractions.end()));
  }
  TEST_CASE("a mesh without walkable area gives empty walkable spans and a warning") {
    TriangleMesh wall;
    wall.name = "wall";
    wall.vertices = {{0, 0, 0}, {0, 2, 0}, {2, 0, 0}};
    wall.triangles = {{0, 1, 2}};
    BuildContext ctx;
    const auto out = voxelize(wall, test_config(), ctx);
    REQUIRE(out.ok());
    CHECK(out->stats.walkable_spans == 0);
    CHECK(out->stats.spans > 0);
    CHECK_FALSE(ctx.warnings().empty());
  }
}

TEST_SUITE("voxel.determinism") {
  TEST_CASE("hashes are equal for 1, 2 and 8 threads and for shuffled triangle order") {
    for (const std::uint32_t seed : {1U, 2U, 3U}) {
      TriangleMesh mesh = random_scene(seed);
      BuildConfig config = test_config(0.5F);
      config.voxel.cell_size = 0.1F;  // many bands
      const VoxelOutput one = voxelize_checked(mesh, config, 1);
      REQUIRE(one.stats.walkable_spans > 0);
      const std::uint64_t solid_hash = content_hash(one.solid);
      const std::uint64_t compact_hash = content_hash(one.compact);
      for (const int threads : {2, 8}) {
        const VoxelOutput many = voxelize_checked(mesh, config, threads);
        CHECK(content_hash(many.solid) == solid_hash);
        CHECK(content_hash(many.compact) == compact_hash);
      }
      std::mt19937 rng(seed + 100);
      std::shuffle(mesh.triangles.begin(), mesh.triangles.end(), rng);
      const VoxelOutput shuffled = voxelize_checked(mesh, config, 2);
      CHECK(content_hash(shuffled.solid) == solid_hash);
      CHECK(content_hash(shuffled.compact) == compact_hash);
    }
  }
  TEST_CASE("random triangle soups give valid output, identical for any thread count and order") {
    for (const std::uint32_t seed : {21U, 22U, 23U, 24U, 25U}) {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> coord(-5.0F, 5.0F);
      std::uniform_real_distribution<float> small(-0.5F, 0.5F);
      TriangleMesh mesh;
      mesh.name = "soup";
      for (int t = 0; t < 300; ++t) {
        const Vec3 a{coord(rng), 0.3F * coord(rng), coord(rng)};
        const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
        mesh.vertices.push_back(a);
        if (t % 10 == 0) {
          mesh.vertices.push_back(a);  // a zero-area triangle
        } else {
          mesh.vertices.push_back({a.x + 4 * small(rng), a.y + small(rng), a.z + 4 * small(rng)});
        }
        mesh.vertices.push_back({a.x + 4 * small(rng), a.y + small(rng), a.z + 4 * small(rng)});
        mesh.triangles.push_back({base, base + 1, base + 2});
      }
      BuildConfig config = test_config(0.25F);
      config.voxel.cell_size = 0.2F;
      config.voxel.cell_height = 0.1F;
      const VoxelOutput one = voxelize_checked(mesh, config, 1);
      CHECK(one.stats.degenerate_triangles == 30);
      CHECK(one.stats.spans > 0);
      const VoxelOutput two = voxelize_checked(mesh, config, 2);
      CHECK(content_hash(two.solid) == content_hash(one.solid));
      CHECK(content_hash(two.compact) == content_hash(one.compact));
      std::shuffle(mesh.triangles.begin(), mesh.triangles.end(), rng);
      const VoxelOutput shuffled = voxelize_checked(mesh, config, 3);
      CHECK(content_hash(shuffled.solid) == content_hash(one.solid));
      CHECK(content_hash(shuffled.compact) == content_hash(one.compact));
    }
  }
  TEST_CASE("the content hash sees a one-span change") {
    TriangleMesh mesh = random_scene(7);
    VoxelOutput out = voxelize_checked(mesh, test_config());
    const std::uint64_t before = content_hash(out.compact);
    REQUIRE_FALSE(out.compact.areas.empty());
    out.compact.areas[0] = out.compact.areas[0] == kNullArea ? kWalkableArea : kNullArea;
    CHECK(content_hash(out.compact) != before);
    const std::uint64_t solid_before = content_hash(out.solid);
    out.solid.spans[0].max = static_cast<std::uint16_t>(out.solid.spans[0].max + 1);
    CHECK(content_hash(out.solid) != solid_before);
  }
}
