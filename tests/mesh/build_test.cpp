#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/validate.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;
using namespace leapnav::mesh;

namespace {

// An upward-facing quad [x0, x1] × [z0, z1] at height y.
void add_quad(TriangleMesh& m, float x0, float z0, float x1, float z1, float y) {
  const auto b = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.insert(m.vertices.end(), {{x0, y, z0}, {x0, y, z1}, {x1, y, z1}, {x1, y, z0}});
  m.triangles.push_back({b, b + 1, b + 2});
  m.triangles.push_back({b, b + 2, b + 3});
}

// An axis-aligned box with outward-facing triangles.
void add_box(TriangleMesh& m, Vec3 lo, Vec3 hi) {
  const auto b = static_cast<std::uint32_t>(m.vertices.size());
  for (int i = 0; i < 8; ++i) {
    m.vertices.push_back(
        {(i & 1) != 0 ? hi.x : lo.x, (i & 2) != 0 ? hi.y : lo.y, (i & 4) != 0 ? hi.z : lo.z});
  }
  const std::uint32_t faces[6][4] = {{2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2},
                                     {1, 3, 7, 5}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    m.triangles.push_back({b + f[0], b + f[1], b + f[2]});
    m.triangles.push_back({b + f[0], b + f[2], b + f[3]});
  }
}

BuildConfig default_config() {
  auto c = named_config("default");
  REQUIRE(c.ok());
  return *c;
}

// Builds and runs both validators.
BuildOutput build_checked(const TriangleMesh& mesh, const BuildConfig& config, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = build_navmesh(mesh, config, ctx);
  if (!out.ok()) FAIL(out.error().message);
  const Status structural = validate(out->navmesh);
  if (!structural.ok()) FAIL_CHECK(structural.error().message);
  const Status against = validate_against(out->navmesh, out->voxels.compact, config);
  if (!against.ok()) FAIL_CHECK(against.error().message);
  return std::move(out).value();
}

// Polygons reachable from p through adjacency.
std::vector<bool> reachable(const NavMesh& m, std::uint32_t start) {
  std::vector<bool> seen(m.polygon_count(), false);
  std::queue<std::uint32_t> open;
  seen[start] = true;
  open.push(start);
  while (!open.empty()) {
    const std::uint32_t p = open.front();
    open.pop();
    for (const std::uint32_t q : m.neighbors(PolyId{p})) {
      if (q != kNoPoly && !seen[q]) {
        seen[q] = true;
        open.push(q);
      }
    }
  }
  return seen;
}

std::uint32_t poly_near(const NavMesh& m, float x, float y, float z) {
  std::uint32_t best = kNoPoly;
  float best_d = 1e30F;
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    const Vec3 c = polygon_center(m, PolyId{p});
    const float d = std::abs(c.x - x) + std::abs(c.y - y) + std::abs(c.z - z);
    if (d < best_d) {
      best_d = d;
      best = p;
    }
  }
  return best;
}

TriangleMesh corridor_scene(float width) {
  TriangleMesh m;
  m.name = "corridor";
  add_quad(m, 0.0F, 0.0F, 6.0F, 6.0F, 0.0F);
  add_quad(m, 6.0F, 3.0F - width / 2, 12.0F, 3.0F + width / 2, 0.0F);
  add_quad(m, 12.0F, 0.0F, 18.0F, 6.0F, 0.0F);
  return m;
}

TriangleMesh storeys_scene() {
  TriangleMesh m;
  m.name = "storeys";
  add_quad(m, 0.0F, 0.0F, 14.0F, 14.0F, 0.0F);
  add_box(m, {0.0F, 3.0F, 8.0F}, {14.0F, 3.2F, 14.0F});
  // 12 steps of 0.2667 m rise and 0.5 m run along +z, reaching the slab top at z = 8
  for (int k = 0; k < 12; ++k) {
    const float z0 = 2.0F + 0.5F * static_cast<float>(k);
    add_box(m, {9.0F, 0.0F, z0}, {13.0F, 3.2F * static_cast<float>(k + 1) / 12.0F, z0 + 0.5F});
  }
  return m;
}

TriangleMesh spiral_scene() {
  TriangleMesh m;
  m.name = "spiral";
  const int steps = 96;     // per two turns
  const float rise = 3.2F;  // per turn
  const float r0 = 1.5F;
  const float r1 = 7.5F;
  for (int k = 0; k < steps; ++k) {
    const double a0 = 2.0 * std::numbers::pi * 2.0 * k / steps;
    const double a1 = 2.0 * std::numbers::pi * 2.0 * (k + 1) / steps;
    const float y0 = rise * 2.0F * static_cast<float>(k) / steps;
    const float y1 = rise * 2.0F * static_cast<float>(k + 1) / steps;
    const auto b = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.push_back({r0 * float(std::cos(a0)), y0, r0 * float(std::sin(a0))});
    m.vertices.push_back({r1 * float(std::cos(a0)), y0, r1 * float(std::sin(a0))});
    m.vertices.push_back({r1 * float(std::cos(a1)), y1, r1 * float(std::sin(a1))});
    m.vertices.push_back({r0 * float(std::cos(a1)), y1, r0 * float(std::sin(a1))});
    // counter-clockwise seen from above (angle grows from +x towards +z, so flip)
    m.triangles.push_back({b, b + 2, b + 1});
    m.triangles.push_back({b, b + 3, b + 2});
  }
  return m;
}

}  // namespace

TEST_SUITE("mesh.build") {
  TEST_CASE("a square floor gives one region covered exactly by polygons") {
    TriangleMesh m;
    m.name = "square";
    add_quad(m, 0.0F, 0.0F, 12.0F, 12.0F, 0.0F);
    BuildContext ctx;
    const BuildOutput out = build_checked(m, default_config());
    CHECK(out.stats.regions == 1);
    CHECK(out.stats.polygons >= 1);
    const double cs = out.navmesh.grid.cell_size;
    CHECK(out.stats.walkable_area > 0.0);
    CHECK(std::abs(out.stats.navmesh_area - out.stats.walkable_area) <= cs * cs);
    // every walkable span maps to a polygon
    const auto& field = out.voxels.compact;
    for (std::size_t s = 0; s < field.spans.size(); ++s) {
      if (field.areas[s] != voxel::kNullArea) CHECK(out.navmesh.span_poly[s] != kNoPoly);
    }
  }

  TEST_CASE("a floor with a pillar gives polygons around the hole") {
    TriangleMesh m;
    m.name = "pillar";
    add_quad(m, 0.0F, 0.0F, 12.0F, 12.0F, 0.0F);
    add_box(m, {5.0F, -0.5F, 5.0F}, {7.0F, 3.0F, 7.0F});
    const BuildOutput out = build_checked(m, default_config());
    const NavMesh& nav = out.navmesh;
    REQUIRE(nav.polygon_count() >= 4);
    // no polygon contains the pillar's centre
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const auto poly = nav.polygon(PolyId{p});
      bool inside = true;
      for (std::size_t k = 0; k < poly.size(); ++k) {
        const Vec3 a = nav.vertices[poly[k]];
        const Vec3 b = nav.vertices[poly[(k + 1) % poly.size()]];
        inside = inside && (b.x - a.x) * (6.0F - a.z) - (6.0F - a.x) * (b.z - a.z) >= 0.0F;
      }
      CHECK_FALSE(inside);
    }
    // the polygons around the pillar are one connected piece
    const auto seen = reachable(nav, 0);
    CHECK(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  }

  TEST_CASE("two storeys joined by stairs give connected polygons on both levels") {
    const BuildOutput out = build_checked(storeys_scene(), default_config());
    const NavMesh& nav = out.navmesh;
    const std::uint32_t ground = poly_near(nav, 3.0F, 0.0F, 3.0F);
    const std::uint32_t upper = poly_near(nav, 3.0F, 3.2F, 11.0F);
    REQUIRE(ground != kNoPoly);
    REQUIRE(upper != kNoPoly);
    CHECK(polygon_center(nav, PolyId{ground}).y < 0.5F);
    CHECK(polygon_center(nav, PolyId{upper}).y > 2.9F);
    // the ground under the slab is walkable too (3 m clearance): a ground polygon covers (3, 11)
    // note: by footprint, not by the nearest centre (a large ground polygon's centre can lie
    // farther away than an upper polygon's)
    bool ground_under = false;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const auto poly = nav.polygon(PolyId{p});
      bool inside = true;
      bool low = true;
      for (std::size_t k = 0; k < poly.size(); ++k) {
        const Vec3 a = nav.vertices[poly[k]];
        const Vec3 b = nav.vertices[poly[(k + 1) % poly.size()]];
        inside = inside && (b.x - a.x) * (11.0F - a.z) - (3.0F - a.x) * (b.z - a.z) >= 0.0F;
        low = low && a.y < 0.5F;
      }
      ground_under = ground_under || (inside && low);
    }
    CHECK(ground_under);
    CHECK(reachable(nav, ground)[upper]);
  }

  TEST_CASE("a corridor survives erosion when wide enough and vanishes when not") {
    const auto in_corridor = [](const NavMesh& nav) {
      bool any = false;
      for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
        const Vec3 c = polygon_center(nav, PolyId{p});
        any = any || (c.x > 7.5F && c.x < 10.5F);
      }
      return any;
    };
    {
      const BuildOutput out = build_checked(corridor_scene(3.0F), default_config());
      CHECK(in_corridor(out.navmesh));
      const std::uint32_t a = poly_near(out.navmesh, 3.0F, 0.0F, 3.0F);
      const std::uint32_t b = poly_near(out.navmesh, 15.0F, 0.0F, 3.0F);
      CHECK(reachable(out.navmesh, a)[b]);
    }
    {
      const BuildOutput out = build_checked(corridor_scene(0.9F), default_config());
      CHECK_FALSE(in_corridor(out.navmesh));
      const std::uint32_t a = poly_near(out.navmesh, 3.0F, 0.0F, 3.0F);
      const std::uint32_t b = poly_near(out.navmesh, 15.0F, 0.0F, 3.0F);
      CHECK_FALSE(reachable(out.navmesh, a)[b]);
    }
  }

  TEST_CASE("a spiral ramp has no overlapping polygons") {
    const BuildOutput out = build_checked(spiral_scene(), default_config());
    const NavMesh& nav = out.navmesh;
    CHECK(nav.polygon_count() > 4);
    float lo = 1e30F, hi = -1e30F;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const float y = polygon_center(nav, PolyId{p}).y;
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
    CHECK(hi - lo > 4.0F);  // polygons on both turns
  }

  TEST_CASE("the build is the same for 1, 2 and 8 threads and for shuffled triangles") {
    const TriangleMesh base = storeys_scene();
    const std::uint64_t h1 = content_hash(build_checked(base, default_config(), 1).navmesh);
    CHECK(h1 == content_hash(build_checked(base, default_config(), 2).navmesh));
    CHECK(h1 == content_hash(build_checked(base, default_config(), 8).navmesh));
    TriangleMesh shuffled = base;
    std::mt19937 rng(7);
    std::shuffle(shuffled.triangles.begin(), shuffled.triangles.end(), rng);
    CHECK(h1 == content_hash(build_checked(shuffled, default_config(), 2).navmesh));
  }

  TEST_CASE("a scene without walkable area gives an empty navmesh and a warning") {
    TriangleMesh m;
    m.name = "wall";
    // a vertical wall only
    m.vertices = {{0.0F, 0.0F, 0.0F}, {0.0F, 3.0F, 0.0F}, {5.0F, 3.0F, 0.0F}, {5.0F, 0.0F, 0.0F}};
    m.triangles = {{0, 1, 2}, {0, 2, 3}};
    BuildContext ctx;
    auto out = build_navmesh(m, default_config(), ctx);
    REQUIRE(out.ok());
    CHECK(out->navmesh.polygon_count() == 0);
    CHECK(validate(out->navmesh).ok());
    CHECK(validate_against(out->navmesh, out->voxels.compact, default_config()).ok());
    CHECK_FALSE(ctx.warnings().empty());
  }

  TEST_CASE("validate catches broken adjacency and orientation") {
    TriangleMesh m;
    m.name = "l-shape";
    add_quad(m, 0.0F, 0.0F, 12.0F, 4.0F, 0.0F);
    add_quad(m, 0.0F, 4.0F, 4.0F, 12.0F, 0.0F);
    const BuildOutput out = build_checked(m, default_config());
    REQUIRE(out.navmesh.polygon_count() >= 2);
    {
      NavMesh broken = out.navmesh;
      const auto it = std::find_if(broken.poly_neighbors.begin(), broken.poly_neighbors.end(),
                                   [](std::uint32_t n) { return n != kNoPoly; });
      REQUIRE(it != broken.poly_neighbors.end());
      *it = kNoPoly;
      CHECK_FALSE(validate(broken).ok());
    }
    {
      NavMesh flipped = out.navmesh;
      std::reverse(flipped.poly_vertices.begin() + flipped.poly_first[0],
                   flipped.poly_vertices.begin() + flipped.poly_first[1]);
      CHECK_FALSE(validate(flipped).ok());
    }
  }

  TEST_CASE("validate catches a span map naming a missing polygon and infinite height samples") {
    const BuildOutput out = build_checked(storeys_scene(), default_config());
    const NavMesh& good = out.navmesh;
    REQUIRE(good.polygon_count() >= 2);
    REQUIRE(good.span_poly.size() >= 4);
    REQUIRE_FALSE(good.height_samples.empty());
    const auto last = static_cast<std::uint32_t>(good.polygon_count() - 1);
    const auto message = [](const NavMesh& m) {
      const Status status = validate(m);
      return status.ok() ? std::string() : status.error().message;
    };
    // each check runs over the whole array: a bad value at the front, in the middle, at the end
    for (const std::size_t at :
         {std::size_t{0}, good.span_poly.size() / 2, good.span_poly.size() - 1}) {
      CAPTURE(at);
      NavMesh m = good;
      m.span_poly[at] = last;  // the last polygon and "none" are valid
      CHECK(validate(m).ok());
      m.span_poly[at] = kNoPoly;
      CHECK(validate(m).ok());
      m.span_poly[at] = last + 1;
      CHECK(message(m).find("span_poly names a polygon out of range") != std::string::npos);
      m.span_poly[at] = kNoPoly - 1;
      CHECK(message(m).find("span_poly names a polygon out of range") != std::string::npos);
    }
    for (const std::size_t at :
         {std::size_t{1}, good.span_column_first.size() / 2, good.span_column_first.size() - 2}) {
      CAPTURE(at);
      NavMesh m = good;
      m.span_column_first[at] = m.span_column_first[at + 1] + 1;
      CHECK(message(m).find("span_column_first decreases") != std::string::npos);
    }
    for (const float bad :
         {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
      for (const std::size_t at : {std::size_t{0}, good.height_samples.size() - 1}) {
        NavMesh m = good;
        m.height_samples[at] = bad;
        CHECK(message(m).find("infinite height sample") != std::string::npos);
      }
    }
    // NaN marks a sample outside its polygon and is allowed
    NavMesh with_nan = good;
    with_nan.height_samples.back() = std::numeric_limits<float>::quiet_NaN();
    CHECK(validate(with_nan).ok());
  }

  TEST_CASE("a cancelled build returns Cancelled") {
    BuildContext ctx;
    ctx.request_cancel();
    auto out = build_navmesh(storeys_scene(), default_config(), ctx);
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == ErrorCode::Cancelled);
  }

  TEST_CASE("an invalid configuration is rejected") {
    BuildConfig config = default_config();
    config.poly.max_verts_per_poly = 2;
    BuildContext ctx;
    auto out = build_navmesh(storeys_scene(), config, ctx);
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == ErrorCode::InvalidArgument);
  }
}

TEST_SUITE("mesh.levels") {
  TEST_CASE("real levels build valid navmeshes in both configurations, deterministically") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto path = test::shared_mesh(file);
      if (!path) continue;
      auto loaded = io::load_obj(*path);
      REQUIRE(loaded.ok());
      for (const char* name : {"default", "thesis"}) {
        auto config = named_config(name);
        REQUIRE(config.ok());
        const BuildOutput out = build_checked(*loaded, *config, 1);
        MESSAGE(std::string(file) << " " << std::string(name) << ": " << out.stats.regions
                                  << " regions, " << out.stats.polygons << " polygons, "
                                  << out.stats.vertices << " vertices, area "
                                  << out.stats.navmesh_area << " / walkable "
                                  << out.stats.walkable_area << " m2");
        CHECK(out.stats.polygons > 0);
        // no more polygons than Recast's solo mesh with the same parameters (benchmarks.md:
        // dungeon 118 / 175, nav_test 155 / 203)
        const bool dungeon = std::string(file) == "dungeon.obj";
        const bool thesis = std::string(name) == "thesis";
        const std::uint64_t recast = dungeon ? (thesis ? 175 : 118) : (thesis ? 203 : 155);
        CHECK(out.stats.polygons <= recast);
        const NavMesh& nav = out.navmesh;
        // height_at against the floor of the polygon's region in the column under the point
        const auto& field = out.voxels.compact;
        const float tol = std::max(config->voxel.cell_height, config->poly.detail_max_error);
        std::mt19937 rng(11);
        std::size_t checked = 0, bad = 0, elsewhere = 0, elsewhere_bad = 0;
        float max_error = 0.0F;
        for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
          const auto poly = nav.polygon(PolyId{p});
          for (int k = 0; k < 20; ++k) {
            // a random convex combination of the vertices lies inside the polygon
            std::uniform_real_distribution<float> u(0.0F, 1.0F);
            float wsum = 0.0F, x = 0.0F, z = 0.0F;
            for (const std::uint32_t v : poly) {
              const float w = u(rng);
              wsum += w;
              x += w * nav.vertices[v].x;
              z += w * nav.vertices[v].z;
            }
            x /= wsum;
            z /= wsum;
            const int cx =
                static_cast<int>(std::floor((x - nav.grid.origin.x) / nav.grid.cell_size));
            const int cz =
                static_cast<int>(std::floor((z - nav.grid.origin.z) / nav.grid.cell_size));
            if (!field.grid.in_bounds(cx, cz)) continue;
            const float h = height_at(nav, PolyId{p}, x, z);
            const std::size_t column = field.grid.column_index(cx, cz);
            bool found = false;
            float nearest = 1e30F;
            for (std::uint32_t s = field.first(column); s < field.end(column); ++s) {
              const float floor =
                  nav.grid.origin.y + static_cast<float>(field.spans[s].y) * nav.grid.cell_height;
              nearest = std::min(nearest, std::abs(h - floor));
              if (out.regions.span_region[s] != nav.poly_region[p]) continue;
              found = true;
              ++checked;
              max_error = std::max(max_error, std::abs(h - floor));
              if (std::abs(h - floor) > tol) ++bad;
            }
            if (!found) {
              // a point of the polygon over a column outside its region (contour simplification
              // error): compare with the nearest floor in that column
              ++elsewhere;
              if (nearest > tol) ++elsewhere_bad;
            }
          }
        }
        MESSAGE(
            std::string(file) << " " << std::string(name) << ": height_at checked at " << checked
                              << " points over the region (max error " << max_error << " m), "
                              << elsewhere << " points over other columns, " << elsewhere_bad
                              << " of those off the nearest floor by more than " << tol << " m");
        CHECK(checked > nav.polygon_count() * 10);
        CHECK(bad == 0);
        CHECK(elsewhere_bad * 50 <= elsewhere + checked);
        // every region-to-region contour edge became a polygon adjacency
        std::size_t contour_portals = 0, poly_portals = 0;
        for (const auto& c : out.contours.contours) {
          for (const auto& v : c.vertices) {
            contour_portals += v.neighbor_region != kNoRegion && v.neighbor_region != c.region;
          }
        }
        for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
          for (const std::uint32_t q : nav.neighbors(PolyId{p})) {
            poly_portals += q != kNoPoly && nav.poly_region[q] != nav.poly_region[p];
          }
        }
        CHECK(poly_portals == contour_portals);
        // most walkable spans map to a polygon
        std::size_t walkable = 0, mapped = 0;
        for (std::size_t s = 0; s < field.spans.size(); ++s) {
          if (field.areas[s] == voxel::kNullArea) continue;
          ++walkable;
          mapped += nav.span_poly[s] != kNoPoly;
        }
        MESSAGE(std::string(file) << " " << std::string(name) << ": " << mapped << " of "
                                  << walkable << " walkable spans map to a polygon");
        CHECK(mapped * 10 >= walkable * 9);
        const std::uint64_t h = content_hash(nav);
        CHECK(h == content_hash(build_checked(*loaded, *config, 2).navmesh));
      }
    }
  }
}
