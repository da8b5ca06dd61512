// The 16-bit region ids: a scene with more separate walkable areas than ids is refused before
// the watershed runs (city:128 once reached the limit after 46 s and 19.6 GB), and one just
// under the limit still builds its regions.
#include <doctest/doctest.h>

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/regions.hpp"
#include "leapnav/voxel/voxelize.hpp"

using namespace leapnav;

namespace {

void add_box(TriangleMesh& m, Vec3 lo, Vec3 hi) {
  const auto b = static_cast<std::uint32_t>(m.vertices.size());
  for (int i = 0; i < 8; ++i) {
    m.vertices.push_back(
        {(i & 1) != 0 ? hi.x : lo.x, (i & 2) != 0 ? hi.y : lo.y, (i & 4) != 0 ? hi.z : lo.z});
  }
  constexpr std::uint32_t kFaces[12][3] = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},
                                           {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                           {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
  for (const auto& f : kFaces) m.triangles.push_back({b + f[0], b + f[1], b + f[2]});
}

// A floor divided by 1 m walls (higher than the climb) into n x n rooms of 3 x 3 cells: n²
// separate walkable areas. The walls sit inside every fourth cell column and row, away from the
// cell edges; their tops are ledges, so not walkable.
TriangleMesh rooms(int n) {
  TriangleMesh m;
  m.name = "rooms";
  const float side = 1.2F * static_cast<float>(n) + 0.3F;
  const auto b = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.insert(m.vertices.end(), {{0, 0, 0}, {0, 0, side}, {side, 0, side}, {side, 0, 0}});
  m.triangles.push_back({b, b + 1, b + 2});
  m.triangles.push_back({b, b + 2, b + 3});
  for (int i = 0; i <= n; ++i) {
    const float at = 1.2F * static_cast<float>(i);
    add_box(m, {at + 0.05F, 0.0F, 0.0F}, {at + 0.25F, 1.0F, side});
    add_box(m, {0.0F, 0.0F, at + 0.05F}, {side, 1.0F, at + 0.25F});
  }
  return m;
}

BuildConfig small_islands_config() {
  BuildConfig config = *named_config("default");
  config.agent.radius = 0.0F;             // no erosion: each room keeps its 9 spans
  config.region.min_region_area = 0.36F;  // 4 cells of 0.3 m
  config.region.merge_region_area = 0.0F;
  return config;
}

Result<mesh::RegionField> regions_of(int n) {
  const BuildConfig config = small_islands_config();
  BuildContext ctx;
  ctx.set_threads(2);
  auto voxels = voxel::voxelize(rooms(n), config, ctx);
  REQUIRE(voxels.ok());
  return mesh::build_regions(voxels->compact, derive_voxel_params(config), ctx);
}

}  // namespace

TEST_SUITE("mesh.region_limit") {
  TEST_CASE("more rooms than 16-bit region ids are refused before the watershed") {
    const auto regions = regions_of(257);  // 66049 rooms
    REQUIRE_FALSE(regions.ok());
    CHECK(regions.error().code == ErrorCode::InvalidArgument);
    CHECK(regions.error().message ==
          "regions: more than 65535 separate walkable areas of at least region.min_region_area "
          "(4 cells) each; their regions would exceed the limit of 65535 (found before the "
          "watershed)");
  }

  TEST_CASE("1600 rooms under the limit build one region each") {
    const auto regions = regions_of(40);
    REQUIRE(regions.ok());
    CHECK(regions->region_count == 1600);
  }
}
