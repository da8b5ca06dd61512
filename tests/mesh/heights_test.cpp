#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/mesh/contours.hpp"
#include "leapnav/mesh/heights.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/polygons.hpp"
#include "leapnav/mesh/span_map.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/mesh/validate.hpp"
#include "support/chf_builder.hpp"

using namespace leapnav;
using namespace leapnav::mesh;

namespace {

// Every walkable span in region 1.
RegionField one_region(const voxel::CompactHeightfield& field) {
  RegionField r;
  r.span_region.resize(field.spans.size(), kNoRegion);
  for (std::size_t s = 0; s < field.spans.size(); ++s) {
    if (field.areas[s] != voxel::kNullArea) r.span_region[s] = 1;
  }
  r.region_count = 1;
  return r;
}

Contour rect_contour(std::uint16_t region, int x0, int z0, int x1, int z1, int y) {
  Contour c;
  c.region = region;
  c.area = voxel::kWalkableArea;
  c.vertices = {{x0, y, z0, kNoRegion},
                {x1, y, z0, kNoRegion},
                {x1, y, z1, kNoRegion},
                {x0, y, z1, kNoRegion}};
  return c;
}

VoxelParams params_of(const voxel::CompactHeightfield& field) {
  VoxelParams p;
  p.cell_size = field.grid.cell_size;
  p.cell_height = field.grid.cell_height;
  p.walkable_climb = field.walkable_climb;
  p.walkable_height = field.walkable_height;
  p.max_verts_per_poly = 6;
  return p;
}

BuildConfig config_of(const voxel::CompactHeightfield& field) {
  BuildConfig c;
  c.voxel.cell_size = field.grid.cell_size;
  c.voxel.cell_height = field.grid.cell_height;
  c.agent.max_climb = static_cast<float>(field.walkable_climb) * field.grid.cell_height;
  return c;
}

NavMesh build_all(const voxel::CompactHeightfield& field, const RegionField& regions,
                  std::vector<Contour> contours) {
  BuildContext ctx;
  ContourSet set;
  set.grid = field.grid;
  set.contours = std::move(contours);
  auto polys = build_polygons(set, params_of(field), ctx);
  REQUIRE(polys.ok());
  NavMesh mesh = std::move(polys).value();
  mesh.config = config_of(field);
  auto detail = build_heights(mesh, field, regions, params_of(field), ctx);
  REQUIRE(detail.ok());
  mesh.height_patches = std::move(detail->patches);
  mesh.height_samples = std::move(detail->samples);
  auto map = build_span_map(mesh, field, regions, ctx);
  REQUIRE(map.ok());
  mesh.span_column_first = std::move(map->column_first);
  mesh.span_y = std::move(map->span_y);
  mesh.span_poly = std::move(map->span_poly);
  CHECK(validate(mesh).ok());
  return mesh;
}

}  // namespace

TEST_SUITE("mesh.heights") {
  TEST_CASE("height_at returns the floor of the column under the point") {
    test::ChfOptions opt;
    opt.walkable_climb = 2;
    const auto field = test::make_chf({"..1122", "..1122", "..1122", "..1122"}, opt);
    const RegionField regions = one_region(field);
    const NavMesh mesh = build_all(field, regions, {rect_contour(1, 0, 0, 6, 4, 0)});
    REQUIRE(mesh.polygon_count() == 1);
    const auto status = validate_against(mesh, field, config_of(field));
    CHECK(status.ok());
    const float cs = field.grid.cell_size;
    const float ch = field.grid.cell_height;
    for (int z = 0; z < 4; ++z) {
      for (int x = 0; x < 6; ++x) {
        const int expected = x < 2 ? 0 : (x < 4 ? 1 : 2);
        for (const float f : {0.1F, 0.5F, 0.9F}) {
          const float wx = field.grid.origin.x + (float(x) + f) * cs;
          const float wz = field.grid.origin.z + (float(z) + f) * cs;
          CHECK(height_at(mesh, PolyId{0}, wx, wz) ==
                doctest::Approx(field.grid.origin.y + float(expected) * ch));
        }
      }
    }
  }

  TEST_CASE("without height patches height_at interpolates the vertex fan") {
    const auto field = test::make_chf({"....", "....", "....", "...."});
    BuildContext ctx;
    ContourSet set;
    set.grid = field.grid;
    Contour c = rect_contour(1, 0, 0, 4, 4, 0);
    c.vertices[1].y = 4;  // (4, 0) raised
    c.vertices[2].y = 4;  // (4, 4) raised
    set.contours = {c};
    auto mesh = build_polygons(set, params_of(field), ctx);
    REQUIRE(mesh.ok());
    const float cs = field.grid.cell_size;
    const float ch = field.grid.cell_height;
    CHECK(height_at(*mesh, PolyId{0}, 2.0F * cs, 1.0F * cs) == doctest::Approx(2.0F * ch));
    CHECK(height_at(*mesh, PolyId{0}, 3.0F * cs, 3.0F * cs) == doctest::Approx(3.0F * ch));
  }

  TEST_CASE("every walkable span maps to the polygon containing its sample corner") {
    const auto field = test::make_chf({"......", "......", "......", "......"});
    const RegionField regions = one_region(field);
    // two regions' worth of polygons over one region field: left and right halves
    const NavMesh mesh = build_all(field, regions, {rect_contour(1, 0, 0, 6, 4, 0)});
    for (std::size_t s = 0; s < field.spans.size(); ++s) CHECK(mesh.span_poly[s] == 0);
    CHECK(mesh.span_y.size() == field.spans.size());
    CHECK(mesh.span_column_first == field.column_first);
  }

  TEST_CASE("spans whose corner lies outside every polygon map to no polygon") {
    const auto field = test::make_chf({"......", "......", "......", "......"});
    const RegionField regions = one_region(field);
    // a triangle over the lower-left half: corners (x, z) with 2x + 3z <= 12 are inside
    BuildContext ctx;
    Contour tri;
    tri.region = 1;
    tri.area = voxel::kWalkableArea;
    tri.vertices = {{0, 0, 0, kNoRegion}, {6, 0, 0, kNoRegion}, {0, 0, 4, kNoRegion}};
    const NavMesh mesh = build_all(field, regions, {tri});
    for (int z = 0; z < 4; ++z) {
      for (int x = 0; x < 6; ++x) {
        const std::uint32_t s = field.first(field.grid.column_index(x, z));
        CHECK(mesh.span_poly[s] == (2 * x + 3 * z <= 12 ? 0U : kNoPoly));
      }
    }
  }

  TEST_CASE("the span map agrees with a brute-force corner-in-polygon test") {
    const std::vector<std::string> rows(12, std::string(12, '.'));
    const auto field = test::make_chf(rows);
    const RegionField regions = one_region(field);
    std::mt19937 rng(99);
    std::uniform_int_distribution<int> coord(0, 12);
    for (int iter = 0; iter < 100; ++iter) {
      int ax = coord(rng), az = coord(rng), bx = coord(rng), bz = coord(rng), cx = coord(rng),
          cz = coord(rng);
      const long long a2 = (long long)(bx - ax) * (cz - az) - (long long)(cx - ax) * (bz - az);
      if (a2 == 0) continue;
      if (a2 < 0) {
        std::swap(bx, cx);
        std::swap(bz, cz);
      }
      Contour tri;
      tri.region = 1;
      tri.area = voxel::kWalkableArea;
      tri.vertices = {{ax, 0, az, kNoRegion}, {bx, 0, bz, kNoRegion}, {cx, 0, cz, kNoRegion}};
      const NavMesh mesh = build_all(field, regions, {tri});
      REQUIRE(mesh.polygon_count() == 1);
      const auto inside = [&](int x, int z) {
        const int px[3] = {ax, bx, cx};
        const int pz[3] = {az, bz, cz};
        for (int e = 0; e < 3; ++e) {
          const int f = (e + 1) % 3;
          if ((long long)(px[f] - px[e]) * (z - pz[e]) - (long long)(x - px[e]) * (pz[f] - pz[e]) <
              0) {
            return false;
          }
        }
        return true;
      };
      for (int z = 0; z < 12; ++z) {
        for (int x = 0; x < 12; ++x) {
          const std::uint32_t s = field.first(field.grid.column_index(x, z));
          CHECK(mesh.span_poly[s] == (inside(x, z) ? 0U : kNoPoly));
        }
      }
    }
  }

  TEST_CASE("validate_against rejects overlapping polygons at the same level") {
    const auto field = test::make_chf({"......", "......", "......", "......"});
    const RegionField regions = one_region(field);
    const NavMesh mesh =
        build_all(field, regions, {rect_contour(1, 0, 0, 4, 4, 0), rect_contour(1, 2, 0, 6, 4, 0)});
    CHECK(mesh.polygon_count() == 2);
    const auto status = validate_against(mesh, field, config_of(field));
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("overlap") != std::string::npos);
  }

  TEST_CASE("validate_against rejects a mesh that misses walkable area") {
    const auto field = test::make_chf({"......", "......", "......", "......"});
    const RegionField regions = one_region(field);
    const NavMesh mesh = build_all(field, regions, {rect_contour(1, 0, 0, 5, 4, 0)});
    const auto status = validate_against(mesh, field, config_of(field));
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("area") != std::string::npos);
  }

  TEST_CASE("columns a straight portal gives a polygon sample the floor of the region across") {
    // regions A (1) and B (2) meet along a bent boundary on a ridge (5 cell heights at x = 12);
    // the portal becomes the chord (0, 4)-(24, 16), so B's polygon covers cells of A such as
    // (10, 5), floor 4, where B's vertex fan lies near height 0
    std::vector<std::string> rows;
    for (int z = 0; z < 20; ++z) {
      std::string row;
      for (int x = 0; x < 24; ++x)
        row += static_cast<char>('0' + std::max(0, 5 - std::abs(x - 12) / 2));
      rows.push_back(row);
    }
    const auto field = test::make_chf(rows);
    RegionField regions;
    regions.region_count = 2;
    regions.span_region.assign(field.spans.size(), kNoRegion);
    for (int z = 0; z < 20; ++z) {
      for (int x = 0; x < 24; ++x) {
        const std::size_t column = field.grid.column_index(x, z);
        for (std::uint32_t s = field.first(column); s < field.end(column); ++s) {
          regions.span_region[s] = (z < 4 || (x >= 12 && z < 16)) ? 2 : 1;
        }
      }
    }
    BuildContext ctx;
    VoxelParams params = params_of(field);
    params.max_edge_error_cells = 0.5F;
    auto contours = build_contours(field, regions, params, ctx);
    REQUIRE(contours.ok());
    for (const Contour& c : contours->contours) {
      CAPTURE(c.region);
      CHECK(std::none_of(c.vertices.begin(), c.vertices.end(),
                         [](const ContourVertex& v) { return v.x == 12 && v.z == 4; }));
    }
    const NavMesh mesh = build_all(field, regions, contours->contours);
    CHECK(validate_against(mesh, field, config_of(field)).ok());
    std::size_t checked = 0;
    for (std::uint32_t p = 0; p < mesh.polygon_count(); ++p) {
      if (mesh.poly_region[p] != 2) continue;
      const HeightPatch& patch = mesh.height_patches[p];
      const int i = 10 - patch.x0;
      const int j = 5 - patch.z0;
      if (i < 0 || j < 0 || i >= patch.width || j >= patch.depth) continue;
      const float sample = mesh.height_samples[patch.first + static_cast<std::size_t>(i) +
                                               static_cast<std::size_t>(j) * patch.width];
      CHECK(sample == doctest::Approx(field.grid.origin.y + 4.0F * field.grid.cell_height));
      ++checked;
    }
    CHECK(checked > 0);
  }

  TEST_CASE("validate_against rejects a polygon whose centre floats above the floor") {
    const auto field = test::make_chf({"......", "......", "......", "......"});
    const RegionField regions = one_region(field);
    BuildContext ctx;
    ContourSet set;
    set.grid = field.grid;
    set.contours = {rect_contour(1, 0, 0, 6, 4, 40)};
    auto polys = build_polygons(set, params_of(field), ctx);
    REQUIRE(polys.ok());
    polys->config = config_of(field);
    const auto status = validate_against(*polys, field, config_of(field));
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("centre") != std::string::npos);
  }
}
