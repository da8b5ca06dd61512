// Postures and agent shapes in the voxel stage: the crouch band [crouch height, height) of span
// clearances, checked one cell either side of both thresholds; a crouch band no span falls in
// leaves the build unchanged; box agents erode by the Chebyshev distance, which around a rotated
// square pillar removes the octagon of Golodetz's configuration space (seeds spec A2, G6).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "leapnav/mesh/build.hpp"
#include "leapnav/voxel/voxelize.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;
using namespace leapnav::voxel;

namespace {

VoxelOutput run(const TriangleMesh& mesh, const BuildConfig& config) {
  BuildContext ctx;
  auto out = voxelize(mesh, config, ctx);
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message));
  REQUIRE(validate(out->compact).ok());
  return std::move(*out);
}

/// The compact span nearest y = 0 in the column containing (x, z), or -1.
int floor_span(const CompactHeightfield& chf, float x, float z) {
  const GridSpec& g = chf.grid;
  const int cx = static_cast<int>(std::floor((x - g.origin.x) / g.cell_size));
  const int cz = static_cast<int>(std::floor((z - g.origin.z) / g.cell_size));
  const std::size_t c = g.column_index(cx, cz);
  for (std::uint32_t s = chf.first(c); s < chf.end(c); ++s)
    if (chf.spans[s].y <= 1) return static_cast<int>(s);
  return -1;
}

/// 0.1 m cells, standing 1.8 m (18 cells), crouching 1.0 m (10 cells), radius 0.
BuildConfig band_config(float crouch_height, float radius) {
  BuildConfig config = test::test_config(radius);
  config.voxel = {0.1F, 0.1F};
  config.agent.height = 1.8F;
  config.agent.crouch_height = crouch_height;
  config.agent.max_climb = 0.3F;
  return config;
}

/// A floor strip per clearance, 2 m apart in x, each with a 1 m slab over columns 5..14 of the
/// strip whose underside lies `clearance` cells above the floor's span.
TriangleMesh band_scene(const std::vector<int>& clearances) {
  TriangleMesh mesh;
  mesh.name = "band";
  const auto n = static_cast<float>(clearances.size());
  test::add_quad(mesh, 0.0F, 0.0F, 2.0F * n, 2.0F, 0.0F);
  for (std::size_t i = 0; i < clearances.size(); ++i) {
    const float x = 2.0F * static_cast<float>(i);
    // note: the floor's span tops out one cell up; the slab's sides stay inside columns 5..14
    const float bottom = 0.1F * static_cast<float>(clearances[i] + 1);
    test::add_box(mesh, {x + 0.55F, bottom, 0.0F}, {x + 1.45F, bottom + 1.0F, 2.0F});
  }
  return mesh;
}

/// The diamond |x| + |z| <= 1 extruded to y = 2 (sides and top).
void add_diamond(TriangleMesh& mesh) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  const Vec2 corners[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (const Vec2 c : corners) mesh.vertices.push_back({c.x, 0.0F, c.y});
  for (const Vec2 c : corners) mesh.vertices.push_back({c.x, 2.0F, c.y});
  for (std::uint32_t k = 0; k < 4; ++k) {
    const std::uint32_t next = (k + 1) % 4;
    mesh.triangles.push_back({base + k, base + 4 + next, base + next});
    mesh.triangles.push_back({base + k, base + 4 + k, base + 4 + next});
  }
  mesh.triangles.push_back({base + 4, base + 6, base + 5});
  mesh.triangles.push_back({base + 4, base + 7, base + 6});
}

/// The floor area in [-2, 2]^2 without a walkable floor span [units: m²].
double hole_area(const CompactHeightfield& chf) {
  const float cs = chf.grid.cell_size;
  int removed = 0;
  for (float z = -2.0F + 0.5F * cs; z < 2.0F; z += cs) {
    for (float x = -2.0F + 0.5F * cs; x < 2.0F; x += cs) {
      const int s = floor_span(chf, x, z);
      removed += s < 0 || chf.areas[static_cast<std::size_t>(s)] == kNullArea ? 1 : 0;
    }
  }
  return static_cast<double>(removed) * cs * cs;
}

}  // namespace

TEST_SUITE("voxel.postures") {
  TEST_CASE("clearances of 9, 10, 17 and 18 cells are unwalkable, crouch, crouch and standing") {
    const std::vector<int> clearances = {9, 10, 17, 18};
    const VoxelOutput out = run(band_scene(clearances), band_config(1.0F, 0.0F));
    const CompactHeightfield& chf = out.compact;
    CHECK(chf.walkable_height == 10);
    for (std::size_t i = 0; i < clearances.size(); ++i) {
      CAPTURE(clearances[i]);
      const int s = floor_span(chf, 2.0F * static_cast<float>(i) + 1.0F, 1.0F);
      if (clearances[i] < 10) {
        // the compact heightfield holds walkable spans only
        CHECK(s < 0);
        continue;
      }
      REQUIRE(s >= 0);
      const auto span = static_cast<std::size_t>(s);
      CHECK(chf.spans[span].clearance == clearances[i]);
      const std::uint8_t area = chf.areas[span];
      if (clearances[i] < 18) {
        CHECK(area == (kWalkableArea | kCrouchAreaBit));
      } else {
        CHECK(area == kWalkableArea);
      }
      // the open floor beside each slab stands
      const int open = floor_span(chf, 2.0F * static_cast<float>(i) + 0.2F, 1.0F);
      REQUIRE(open >= 0);
      CHECK(chf.areas[static_cast<std::size_t>(open)] == kWalkableArea);
    }
    // without crouching, the same scene keeps only the 18-cell clearance
    const VoxelOutput standing = run(band_scene(clearances), band_config(0.0F, 0.0F));
    for (std::size_t i = 0; i < clearances.size(); ++i) {
      const int s = floor_span(standing.compact, 2.0F * static_cast<float>(i) + 1.0F, 1.0F);
      const bool walkable =
          s >= 0 && standing.compact.areas[static_cast<std::size_t>(s)] != kNullArea;
      CHECK(walkable == (clearances[i] >= 18));
    }
  }

  TEST_CASE("the crouch area reaches one radius past the low ceiling, in either shape") {
    // radius 0.3 m = 3 cells; the 12-cell slab covers columns 5..14, the 30-cell one (columns
    // 25..34) stands. Column 0, at the grid border, is a ledge; columns
    // 1..3 are eroded from it; columns 4..17 (less than 3 cells from the low ceiling's columns)
    // crouch, the columns after them stand
    for (const AgentShape shape : {AgentShape::Cylinder, AgentShape::Box}) {
      CAPTURE(to_string(shape));
      BuildConfig config = band_config(1.0F, 0.3F);
      config.agent.shape = shape;
      const VoxelOutput out = run(band_scene({12, 30}), config);
      for (int column = 1; column <= 30; ++column) {
        CAPTURE(column);
        const int s = floor_span(out.compact, 0.1F * static_cast<float>(column) + 0.05F, 1.0F);
        REQUIRE(s >= 0);
        const std::uint8_t area = out.compact.areas[static_cast<std::size_t>(s)];
        if (column <= 3) {
          CHECK(area == kNullArea);
        } else if (column <= 17) {
          CHECK(area == (kWalkableArea | kCrouchAreaBit));
        } else {
          CHECK(area == kWalkableArea);
        }
      }
    }
  }

  TEST_CASE("a crouch height no clearance falls under leaves the navmesh unchanged") {
    // a floor with boxes and ramps standing on it: no overhang, so no crouch area
    TriangleMesh scene;
    scene.name = "no-overhang";
    test::add_quad(scene, -1.0F, -1.0F, 12.0F, 12.0F, 0.0F);
    test::add_box(scene, {2.0F, 0.0F, 2.0F}, {4.0F, 0.4F, 5.0F});
    test::add_box(scene, {6.0F, 0.0F, 1.0F}, {7.0F, 2.5F, 8.0F});
    test::add_box(scene, {8.0F, 0.0F, 3.0F}, {11.0F, 0.2F, 6.0F});
    BuildConfig config = test::test_config(0.5F);
    BuildContext ctx;
    auto plain = mesh::build_navmesh(scene, config, ctx);
    REQUIRE(plain.ok());
    config.agent.crouch_height = 0.5F;
    auto crouching = mesh::build_navmesh(scene, config, ctx);
    REQUIRE(crouching.ok());
    for (const std::uint8_t a : crouching->voxels.compact.areas) REQUIRE((a & kCrouchAreaBit) == 0);
    CHECK(plain->navmesh.polygon_count() > 0);
    CHECK(mesh::content_hash(plain->navmesh) == mesh::content_hash(crouching->navmesh));
  }

  TEST_CASE("a box agent keeps the octagon around a rotated square pillar free (G6), area 7") {
    // diamond |x| + |z| <= 1 and a square footprint of half-width 0.5: the configuration-space
    // obstacle is the octagon with corners (+-1.5, +-0.5), (+-0.5, +-1.5), area 7; a cylinder of
    // radius 0.5 gives 2 + 4 sqrt(2) 0.5 + pi 0.25 = 5.61, offsetting the faces only 8. The
    // tolerance is one cell along the octagon's perimeter (4 + 4 sqrt(2)) m.
    TriangleMesh scene;
    scene.name = "diamond";
    test::add_quad(scene, -3.0F, -3.0F, 3.0F, 3.0F, 0.0F);
    add_diamond(scene);
    BuildConfig config = band_config(0.0F, 0.5F);
    config.voxel = {0.05F, 0.1F};
    const double tolerance = (4.0 + 4.0 * std::sqrt(2.0)) * 0.05;
    config.agent.shape = AgentShape::Box;
    const double box = hole_area(run(scene, config).compact);
    CHECK(std::abs(box - 7.0) <= tolerance);
    config.agent.shape = AgentShape::Cylinder;
    const double cylinder = hole_area(run(scene, config).compact);
    CHECK(std::abs(cylinder - 5.61) <= tolerance);
    MESSAGE("hole around the diamond: box " << box << " m2 (7), cylinder " << cylinder
                                            << " m2 (5.61)");
  }

  TEST_CASE("a box agent beside an axis-aligned wall gives G4's three floors, eroded at ledges") {
    // floor [0, 10]^2, wall [4, 6] x [0, 3] x [0, 10], half-width 0.5: the floors
    // [0.5, 3.5] and [6.5, 9.5] (x) by [0.5, 9.5] (z) at y = 0 and the wall top [4.5, 5.5] at
    // y = 3, to a cell (leapnav erodes at ledges where Golodetz's configuration space overhangs
    // them)
    TriangleMesh scene;
    scene.name = "g4";
    // note: no floor under the wall (the rasterizer does not fill a closed mesh's inside)
    test::add_quad(scene, 0.0F, 0.0F, 4.0F, 10.0F, 0.0F);
    test::add_quad(scene, 6.0F, 0.0F, 10.0F, 10.0F, 0.0F);
    test::add_box(scene, {4.0F, 0.0F, 0.0F}, {6.0F, 3.0F, 10.0F});
    BuildConfig config = band_config(0.0F, 0.5F);
    config.agent.shape = AgentShape::Box;
    BuildContext ctx;
    auto built = mesh::build_navmesh(scene, config, ctx);
    REQUIRE(built.ok());
    const mesh::NavMesh& nav = built->navmesh;
    struct Floor {
      float x0, x1, y;
      AABB bounds;
      double area = 0.0;
    };
    Floor floors[3] = {{0.5F, 3.5F, 0.0F, {}}, {6.5F, 9.5F, 0.0F, {}}, {4.5F, 5.5F, 3.0F, {}}};
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      AABB b;
      for (const auto v : nav.polygon(mesh::PolyId{p})) b.extend(nav.vertices[v]);
      const float cx = 0.5F * (b.min.x + b.max.x);
      Floor* f = b.min.y > 1.5F ? &floors[2] : (cx < 5.0F ? &floors[0] : &floors[1]);
      f->bounds.extend(b.min);
      f->bounds.extend(b.max);
      f->area += mesh::polygon_area(nav, mesh::PolyId{p});
    }
    for (const Floor& f : floors) {
      CAPTURE(f.x0);
      CHECK(std::abs(f.bounds.min.x - f.x0) <= 0.1F + 1e-4F);
      CHECK(std::abs(f.bounds.max.x - f.x1) <= 0.1F + 1e-4F);
      CHECK(std::abs(f.bounds.min.z - 0.5F) <= 0.1F + 1e-4F);
      CHECK(std::abs(f.bounds.max.z - 9.5F) <= 0.1F + 1e-4F);
      CHECK(std::abs(f.bounds.min.y - f.y) <= 0.2F);
      // one cell along the perimeter (the grid border is a ledge: its first column is dropped)
      CHECK(std::abs(f.area - (f.x1 - f.x0) * 9.0) <= 2.0 * (f.x1 - f.x0 + 9.0) * 0.1);
    }
  }
}
