#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/polygons.hpp"
#include "leapnav/mesh/types.hpp"

using namespace leapnav;
using namespace leapnav::mesh;

namespace {

GridSpec test_grid() {
  GridSpec g;
  g.origin = {0.0F, 0.0F, 0.0F};
  g.cell_size = 1.0F;
  g.cell_height = 0.5F;
  g.width = 64;
  g.depth = 64;
  g.height = 64;
  return g;
}

Contour make_contour(std::uint16_t region, const std::vector<std::array<int, 2>>& pts, int y = 0) {
  Contour c;
  c.region = region;
  c.area = 63;
  for (const auto& p : pts) c.vertices.push_back({p[0], y, p[1], kNoRegion});
  return c;
}

VoxelParams params(int max_verts = 6) {
  VoxelParams p;
  p.cell_size = 1.0F;
  p.cell_height = 0.5F;
  p.walkable_climb = 4;
  p.max_verts_per_poly = max_verts;
  return p;
}

double total_area(const NavMesh& m) {
  double a = 0.0;
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) a += polygon_area(m, PolyId{p});
  return a;
}

double triangulation_area(const std::vector<GridPoint>& pts, const Triangulation& t) {
  double a = 0.0;
  for (const auto& tri : t.triangles) {
    const GridPoint p0 = pts[tri[0]], p1 = pts[tri[1]], p2 = pts[tri[2]];
    const double a2 = double(p1.x - p0.x) * (p2.z - p0.z) - double(p2.x - p0.x) * (p1.z - p0.z);
    CHECK(a2 > 0.0);
    a += 0.5 * a2;
  }
  return a;
}

double shoelace(const std::vector<GridPoint>& pts) {
  double s = 0.0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const GridPoint a = pts[i], b = pts[(i + 1) % pts.size()];
    s += double(a.x) * b.z - double(b.x) * a.z;
  }
  return 0.5 * s;
}

Result<NavMesh> build(std::vector<Contour> contours, int max_verts = 6) {
  ContourSet set;
  set.grid = test_grid();
  set.contours = std::move(contours);
  BuildContext ctx;
  ctx.set_threads(1);
  return build_polygons(set, params(max_verts), ctx);
}

}  // namespace

TEST_SUITE("mesh.polygons") {
  TEST_CASE("a square contour becomes one quad") {
    auto mesh = build({make_contour(1, {{0, 0}, {4, 0}, {4, 4}, {0, 4}})});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 1);
    CHECK(mesh->vertices.size() == 4);
    CHECK(total_area(*mesh) == doctest::Approx(16.0));
    for (const auto n : mesh->poly_neighbors) CHECK(n == kNoPoly);
  }

  TEST_CASE("an L shape becomes two convex polygons sharing an edge") {
    auto mesh = build({make_contour(1, {{0, 0}, {6, 0}, {6, 2}, {2, 2}, {2, 6}, {0, 6}})});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 2);
    CHECK(total_area(*mesh) == doctest::Approx(20.0));
    const auto links = std::count_if(mesh->poly_neighbors.begin(), mesh->poly_neighbors.end(),
                                     [](std::uint32_t n) { return n != kNoPoly; });
    CHECK(links == 2);
  }

  TEST_CASE("a square with a bridged hole is covered except for the hole") {
    // outer 0..10 CCW, bridge from (0,0) to the hole corner (4,4), hole 4..6 walked clockwise
    auto mesh = build({make_contour(
        1, {{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}, {4, 4}, {4, 6}, {6, 6}, {6, 4}, {4, 4}})});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(total_area(*mesh) == doctest::Approx(96.0));
    CHECK(mesh->vertices.size() == 8);
    CHECK(mesh->polygon_count() >= 4);
  }

  TEST_CASE("collinear points produce no zero-area triangles and are kept as vertices") {
    std::vector<std::array<int, 2>> pts;
    for (int x = 0; x < 8; ++x) pts.push_back({x, 0});
    for (int z = 0; z < 3; ++z) pts.push_back({8, z});
    for (int x = 8; x > 0; --x) pts.push_back({x, 3});
    for (int z = 3; z > 0; --z) pts.push_back({0, z});
    auto mesh = build({make_contour(1, pts)}, 12);
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(total_area(*mesh) == doctest::Approx(24.0));
    std::vector<bool> used(mesh->vertices.size(), false);
    for (const auto v : mesh->poly_vertices) used[v] = true;
    CHECK(std::count(used.begin(), used.end(), true) == static_cast<long>(pts.size()));
  }

  TEST_CASE("triangles merge across straight corners into one polygon") {
    // a 3 x 1 strip whose long sides carry vertices of (imagined) neighbours
    auto mesh = build(
        {make_contour(1, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {2, 1}, {1, 1}, {0, 1}})}, 8);
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 1);
    CHECK(mesh->polygon(PolyId{0}).size() == 8);
  }

  TEST_CASE("a contour touching itself along a bridge triangulates to its full area") {
    // two squares joined at the corner point (4,4), walked as one contour through that point twice
    const std::vector<GridPoint> pts{{0, 0}, {4, 0}, {4, 4}, {8, 4},
                                     {8, 8}, {4, 8}, {4, 4}, {0, 4}};
    const Triangulation t = triangulate_polygon(pts);
    CHECK_FALSE(t.fell_back);
    CHECK(t.triangles.size() == 4);
    CHECK(triangulation_area(pts, t) == doctest::Approx(32.0));
    auto mesh =
        build({make_contour(1, {{0, 0}, {4, 0}, {4, 4}, {8, 4}, {8, 8}, {4, 8}, {4, 4}, {0, 4}})});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 2);
    CHECK(total_area(*mesh) == doctest::Approx(32.0));
  }

  TEST_CASE("a hole bridged with a zero-width slit triangulates to the ring area") {
    const std::vector<GridPoint> pts{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0},
                                     {3, 3}, {3, 7},  {7, 7},   {7, 3},  {3, 3}};
    const Triangulation t = triangulate_polygon(pts);
    CHECK_FALSE(t.fell_back);
    CHECK(triangulation_area(pts, t) == doctest::Approx(84.0));
  }

  TEST_CASE("neighbouring contours share welded vertices and become adjacent") {
    auto mesh = build({make_contour(1, {{0, 0}, {4, 0}, {4, 4}, {0, 4}}),
                       make_contour(2, {{4, 0}, {8, 0}, {8, 4}, {4, 4}}, 1)});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 2);
    CHECK(mesh->vertices.size() == 6);
    CHECK(mesh->poly_region[0] == 1);
    CHECK(mesh->poly_region[1] == 2);
    const auto links = std::count_if(mesh->poly_neighbors.begin(), mesh->poly_neighbors.end(),
                                     [](std::uint32_t n) { return n != kNoPoly; });
    CHECK(links == 2);
  }

  TEST_CASE("corners more than two cell heights apart are not welded") {
    auto mesh = build({make_contour(1, {{0, 0}, {4, 0}, {4, 4}, {0, 4}}),
                       make_contour(2, {{0, 0}, {4, 0}, {4, 4}, {0, 4}}, 20)});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->vertices.size() == 8);
    for (const auto n : mesh->poly_neighbors) CHECK(n == kNoPoly);
  }

  TEST_CASE("polygons respect the vertex limit") {
    // a 16-gon approximating a circle
    std::vector<std::array<int, 2>> pts{{10, 0},  {14, 1},  {17, 3},  {19, 6}, {20, 10}, {19, 14},
                                        {17, 17}, {14, 19}, {10, 20}, {6, 19}, {3, 17},  {1, 14},
                                        {0, 10},  {1, 6},   {3, 3},   {6, 1}};
    for (const int nvp : {3, 4, 6, 12}) {
      auto mesh = build({make_contour(1, pts)}, nvp);
      REQUIRE(mesh.ok());
      CHECK(validate(*mesh).ok());
      for (std::uint32_t p = 0; p < mesh->polygon_count(); ++p) {
        CHECK(mesh->polygon(PolyId{p}).size() <= static_cast<std::size_t>(nvp));
      }
      if (nvp == 3) CHECK(mesh->polygon_count() == 14);
      if (nvp == 12) CHECK(mesh->polygon_count() <= 5);
      CHECK(total_area(*mesh) == doctest::Approx(shoelace([&] {
              std::vector<GridPoint> g;
              for (const auto& p : pts) g.push_back({p[0], p[1]});
              return g;
            }())));
    }
  }

  TEST_CASE("a convex decagon becomes 3 polygons, the fewest of its triangles, not the greedy 4") {
    // 10 vertices, 8 triangles; merging along the longest shared edge first leaves 4 polygons,
    // the exact partition of the same triangles 3, and its midpoint paths are no longer in total
    const std::vector<std::array<int, 2>> pts{{38, 21}, {32, 33}, {21, 38}, {11, 36}, {4, 28},
                                              {5, 10},  {29, 4},  {36, 12}, {37, 13}, {38, 19}};
    auto mesh = build({make_contour(1, pts)});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 3);
    for (std::uint32_t p = 0; p < mesh->polygon_count(); ++p) {
      CHECK(mesh->polygon(PolyId{p}).size() <= 6);
    }
    std::vector<GridPoint> g;
    g.reserve(pts.size());
    for (const auto& p : pts) g.push_back({p[0], p[1]});
    CHECK(total_area(*mesh) == doctest::Approx(shoelace(g)));
  }

  TEST_CASE("random orthogonal staircase polygons triangulate to their exact area") {
    std::mt19937 rng(1234);
    for (int iter = 0; iter < 200; ++iter) {
      // a monotone staircase: bottom edge, right edge, then steps back to the left
      std::uniform_int_distribution<int> step(1, 4);
      std::vector<GridPoint> top;
      int x = 0;
      int z = step(rng);
      while (x < 30) {
        const int nx = x + step(rng);
        top.push_back({nx, z});
        x = nx;
        z += step(rng) - 2;
        if (z < 1) z = 1;
        top.push_back({x, z});
      }
      std::vector<GridPoint> pts{{0, 0}, {x, 0}};
      for (auto it = top.rbegin(); it != top.rend(); ++it) pts.push_back(*it);
      pts.push_back({0, top.front().z});
      // drop repeated corners where two steps coincide
      std::vector<GridPoint> clean;
      for (const auto& p : pts) {
        if (clean.empty() || !(clean.back() == p)) clean.push_back(p);
      }
      const Triangulation t = triangulate_polygon(clean);
      CHECK_FALSE(t.fell_back);
      CHECK(triangulation_area(clean, t) == doctest::Approx(shoelace(clean)));
    }
  }

  TEST_CASE("a self-overlapping input falls back without looping") {
    // a bow tie: not simple; the clipper must finish and say it fell back or drop area
    const std::vector<GridPoint> pts{{0, 0}, {4, 4}, {4, 0}, {0, 4}};
    const Triangulation t = triangulate_polygon(pts);
    CHECK(t.triangles.size() <= 2);
  }

  TEST_CASE("a contour with fewer than three distinct points gives no polygon") {
    auto mesh = build({make_contour(1, {{0, 0}, {4, 0}, {4, 0}, {0, 0}})});
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->polygon_count() == 0);
  }
}
