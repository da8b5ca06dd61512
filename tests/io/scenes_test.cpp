// SceneBuilder solids and built-in scenes: closed, outward-wound (so top faces face up),
// deterministic, with exact triangle counts; scene specs and the OBJ writer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <utility>

#include "io/scene_spec_checks.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

Vec3 normal_of(const TriangleMesh& m, std::size_t t) {
  const auto& tri = m.triangles[t];
  const Vec3 a = m.vertices[tri[0]];
  return cross(m.vertices[tri[1]] - a, m.vertices[tri[2]] - a);
}

double signed_volume(const TriangleMesh& m, const std::vector<std::size_t>& tris) {
  double v = 0.0;
  for (const std::size_t t : tris) {
    const auto& tri = m.triangles[t];
    const Vec3 a = m.vertices[tri[0]];
    const Vec3 b = m.vertices[tri[1]];
    const Vec3 c = m.vertices[tri[2]];
    v += (static_cast<double>(a.x) *
              (static_cast<double>(b.y) * c.z - static_cast<double>(b.z) * c.y) -
          static_cast<double>(a.y) *
              (static_cast<double>(b.x) * c.z - static_cast<double>(b.z) * c.x) +
          static_cast<double>(a.z) *
              (static_cast<double>(b.x) * c.y - static_cast<double>(b.y) * c.x)) /
         6.0;
  }
  return v;
}

/// Every directed edge (a, b) has exactly one reverse (b, a): a closed, consistently wound surface.
bool closed_and_consistent(const TriangleMesh& m) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (const auto& t : m.triangles)
    for (int i = 0; i < 3; ++i)
      ++edges[{t[static_cast<std::size_t>(i)], t[static_cast<std::size_t>((i + 1) % 3)]}];
  for (const auto& [edge, count] : edges) {
    if (count != 1) return false;
    const auto reverse = edges.find({edge.second, edge.first});
    if (reverse == edges.end() || reverse->second != 1) return false;
  }
  return true;
}

/// Triangles grouped into solids (connected through shared vertex indices).
std::vector<std::vector<std::size_t>> solids(const TriangleMesh& m) {
  std::vector<std::uint32_t> parent(m.vertices.size());
  std::iota(parent.begin(), parent.end(), 0U);
  const auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& t : m.triangles) {
    parent[find(t[1])] = find(t[0]);
    parent[find(t[2])] = find(t[0]);
  }
  std::map<std::uint32_t, std::vector<std::size_t>> groups;
  for (std::size_t t = 0; t < m.triangles.size(); ++t) groups[find(m.triangles[t][0])].push_back(t);
  std::vector<std::vector<std::size_t>> out;
  for (auto& [root, tris] : groups) out.push_back(std::move(tris));
  return out;
}

/// Closed, consistently wound, and every solid encloses positive volume: every triangle faces
/// out of its solid, so every top face faces up.
void check_outward_solids(const TriangleMesh& m) {
  REQUIRE(validate(m).ok());
  CHECK(closed_and_consistent(m));
  for (const auto& tris : solids(m)) CHECK(signed_volume(m, tris) > 0.0);
}

std::vector<std::size_t> all(const TriangleMesh& m) {
  std::vector<std::size_t> t(m.triangles.size());
  std::iota(t.begin(), t.end(), std::size_t{0});
  return t;
}

}  // namespace

TEST_SUITE("io.scene_builder") {
  TEST_CASE("a box is 12 outward triangles with two facing up at its top") {
    SceneBuilder b("box");
    b.add_box({1, 2, 3}, {4, 6, 8});
    const TriangleMesh m = b.take();
    REQUIRE(m.triangles.size() == 12);
    check_outward_solids(m);
    CHECK(signed_volume(m, all(m)) == doctest::Approx(3.0 * 4.0 * 5.0));
    int up = 0;
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
      const Vec3 n = normal_of(m, t);
      if (n.y > 0) {
        ++up;
        for (const auto i : m.triangles[t]) CHECK(m.vertices[i].y == 6.0F);
      }
    }
    CHECK(up == 2);
    CHECK(b.triangle_count() == 0);
  }

  TEST_CASE("a ramp's slope faces up with normal.y = cos(angle)") {
    for (const float angle : {10.0F, 30.0F, 45.0F, 50.0F, 80.0F}) {
      CAPTURE(angle);
      SceneBuilder b;
      b.add_ramp({0, 0, 0}, {0, 1}, 4, 2, angle);
      const TriangleMesh m = b.take();
      REQUIRE(m.triangles.size() == 8);
      check_outward_solids(m);
      const double rise = 4.0 * std::tan(angle * 3.14159265358979323846 / 180.0);
      CHECK(signed_volume(m, all(m)) == doctest::Approx(0.5 * 4.0 * 2.0 * rise).epsilon(1e-4));
      int slope = 0;
      for (std::size_t t = 0; t < m.triangles.size(); ++t) {
        const Vec3 n = normal_of(m, t);
        if (n.y > 0) {
          ++slope;
          CHECK(n.y / length(n) ==
                doctest::Approx(std::cos(angle * 3.14159265358979323846 / 180.0)));
          CHECK(n.z < 0);  // rises towards +z, so the slope faces back towards -z
        }
      }
      CHECK(slope == 2);
    }
  }

  TEST_CASE("stairs climb to steps * rise with one box per step") {
    SceneBuilder b;
    b.add_stairs({0, 1, 0}, {1, 0}, 2, 5, 0.3F, 0.5F);
    const TriangleMesh m = b.take();
    CHECK(m.triangles.size() == 5 * 12);
    check_outward_solids(m);
    const AABB box = m.bounds();
    CHECK(box.max.y == doctest::Approx(2.5));
    CHECK(box.min.y == 1.0F);
    CHECK(box.max.x == doctest::Approx(2.5));
    CHECK(box.min.z == doctest::Approx(-1.0));
    // sum of step volumes: 0.5 * 2 * 0.3 * (1 + 2 + 3 + 4 + 5)
    CHECK(signed_volume(m, all(m)) == doctest::Approx(0.3 * 15.0).epsilon(1e-4));
  }

  TEST_CASE("a prism has 4n-4 outward triangles and the volume of its polygon") {
    for (const int sides : {3, 4, 8, 13}) {
      CAPTURE(sides);
      SceneBuilder b;
      b.add_prism({5, 0, -5}, 2, 3, sides);
      const TriangleMesh m = b.take();
      CHECK(m.triangles.size() == static_cast<std::size_t>(4 * sides - 4));
      check_outward_solids(m);
      const double area = 0.5 * sides * 4.0 * std::sin(2.0 * 3.14159265358979323846 / sides);
      CHECK(signed_volume(m, all(m)) == doctest::Approx(area * 3.0).epsilon(1e-4));
    }
  }

  TEST_CASE("solids in random directions are closed and outward (seeded)") {
    std::mt19937 rng(20261121);
    std::uniform_real_distribution<float> coord(-50.0F, 50.0F);
    std::uniform_real_distribution<float> size(0.1F, 10.0F);
    std::uniform_real_distribution<float> angle(1.0F, 89.0F);
    for (int iter = 0; iter < 200; ++iter) {
      SceneBuilder b;
      const Vec3 start{coord(rng), coord(rng), coord(rng)};
      Vec2 dir{coord(rng), coord(rng)};
      if (length(dir) < 1e-3F) dir = {1, 0};
      const float l = size(rng);
      const float w = size(rng);
      const float h = size(rng);
      switch (iter % 4) {
        case 0:
          b.add_block(start, dir, l, w, h);
          break;
        case 1:
          b.add_ramp(start, dir, l, w, angle(rng));
          break;
        case 2:
          b.add_stairs(start, dir, w, 1 + iter % 7, h * 0.1F, l * 0.2F);
          break;
        default:
          b.add_prism(start, l, h, 3 + iter % 9);
          break;
      }
      const TriangleMesh m = b.take();
      check_outward_solids(m);
      if (iter % 4 == 0)
        CHECK(signed_volume(m, all(m)) == doctest::Approx(l * w * h).epsilon(1e-3));
    }
  }
}

TEST_SUITE("io.scenes") {
  TEST_CASE("the demo level is closed, outward, deterministic and 40 x 40 m") {
    const auto a = builtin_scene("demo");
    const auto b = builtin_scene("demo");
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    check_outward_solids(*a);
    CHECK(triangle_mesh_hash(*a) == triangle_mesh_hash(*b));
    CHECK(a->name == "builtin:demo");
    // 20 boxes * 12 + 2 ramps * 8 + 24 steps * 12 + 7 octagonal prisms * 28
    CHECK(a->triangles.size() == 740);
    const AABB box = a->bounds();
    CHECK(box.min == Vec3{0, -4.5F, 0});
    CHECK(box.max.x == 40.0F);
    CHECK(box.max.z == 40.0F);
    CHECK(box.max.y == 4.0F);
    // walkable floors at the documented heights (flat, upward triangles)
    std::map<float, int> floors;
    for (std::size_t t = 0; t < a->triangles.size(); ++t) {
      const Vec3 n = normal_of(*a, t);
      if (n.y > 0 && n.x == 0 && n.z == 0) ++floors[a->vertices[a->triangles[t][0]].y];
    }
    for (const float y : {-4.0F, -3.0F, 0.0F, 1.6F, 2.0F, 3.0F}) {
      CAPTURE(y);
      CHECK(floors[y] > 0);
    }
  }

  TEST_CASE("city:N has 252 N^2 triangles and N^2 times the area, deterministically") {
    for (const int n : {1, 2, 3, 5}) {
      CAPTURE(n);
      const auto city = builtin_scene("city:" + std::to_string(n));
      REQUIRE(city.ok());
      // per block: 13 ground and kerb pieces, 4 buildings and 4 roof huts, 12 triangles each
      CHECK(city->triangles.size() == static_cast<std::size_t>(252 * n * n));
      const AABB box = city->bounds();
      CHECK(box.size().x == doctest::Approx(40.0 * n));
      CHECK(box.size().z == doctest::Approx(40.0 * n));
      const auto again = builtin_scene("city:" + std::to_string(n));
      CHECK(triangle_mesh_hash(*city) == triangle_mesh_hash(*again));
    }
    const auto city = builtin_scene("city:3");
    check_outward_solids(*city);
    // the ground (streets y 0, kerbs y 0.15) covers the blocks exactly once, minus the footprints
    double ground = 0.0;
    for (std::size_t t = 0; t < city->triangles.size(); ++t) {
      const Vec3 n = normal_of(*city, t);
      if (n.y > 0 && city->vertices[city->triangles[t][0]].y <= 0.15F) ground += 0.5 * n.y;
    }
    double footprints = 0.0;
    for (const AABB& b : city_buildings(3))
      footprints += static_cast<double>(b.max.x - b.min.x) * (b.max.z - b.min.z);
    CHECK(ground == doctest::Approx(120.0 * 120.0 - footprints).epsilon(1e-6));
    CHECK(triangle_mesh_hash(*builtin_scene("city:2")) != triangle_mesh_hash(*city));
  }

  TEST_CASE("city:N's buildings are four per block, inside their block's kerb, roofs 4.15..24.15") {
    CHECK(city_buildings(0).empty());
    CHECK(city_buildings(kMaxCityBlocks + 1).empty());
    const std::vector<AABB> buildings = city_buildings(3);
    REQUIRE(buildings.size() == 36);
    for (std::size_t k = 0; k < buildings.size(); ++k) {
      CAPTURE(k);
      const AABB& b = buildings[k];
      const float x0 = 40.0F * static_cast<float>((k / 4) % 3);
      const float z0 = 40.0F * static_cast<float>(k / 12);
      CHECK(b.min.x >= x0 + 6.0F);
      CHECK(b.max.x <= x0 + 34.0F);
      CHECK(b.min.z >= z0 + 6.0F);
      CHECK(b.max.z <= z0 + 34.0F);
      CHECK(b.max.x - b.min.x >= 5.0F);
      CHECK(b.max.z - b.min.z >= 5.0F);
      CHECK(b.min.y == -1.0F);
      CHECK(b.max.y >= 4.15F);
      CHECK(b.max.y <= 24.15F);
    }
    // block (bx, bz) is the same in every city that has it
    const std::vector<AABB> two = city_buildings(2);
    REQUIRE(two.size() == 16);
    CHECK(std::equal(two.begin(), two.begin() + 8, buildings.begin()));
    CHECK(std::equal(two.begin() + 8, two.end(), buildings.begin() + 12));
  }

  TEST_CASE("city:2's navmesh has no floor inside a building, only on roofs and the ground") {
    const auto city = builtin_scene("city:2");
    REQUIRE(city.ok());
    const auto config = named_config("default");
    REQUIRE(config.ok());
    BuildContext ctx;
    const auto out = mesh::build_navmesh(*city, *config, ctx);
    REQUIRE(out.ok());
    const mesh::NavMesh& nav = out->navmesh;
    REQUIRE(mesh::validate(nav).ok());
    REQUIRE(nav.polygon_count() > 0);
    const std::vector<AABB> buildings = city_buildings(2);
    int inside = 0;
    int on_roofs = 0;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const auto poly = nav.polygon(mesh::PolyId{p});
      Vec3 centre{0, 0, 0};
      for (const std::uint32_t v : poly) centre = centre + nav.vertices[v];
      centre = centre * (1.0F / static_cast<float>(poly.size()));
      for (const AABB& b : buildings) {
        if (centre.x <= b.min.x || centre.x >= b.max.x || centre.z <= b.min.z ||
            centre.z >= b.max.z)
          continue;
        if (centre.y < b.max.y - 0.5F)
          ++inside;
        else
          ++on_roofs;
      }
    }
    CHECK(inside == 0);
    CHECK(on_roofs >= 8);  // every roof is walkable, beside its hut
  }

  TEST_CASE("terrain:N has 3200 N^2 upward triangles on a 1 m grid, deterministically") {
    for (const int n : {1, 2, 3}) {
      CAPTURE(n);
      const auto terrain = builtin_scene("terrain:" + std::to_string(n));
      REQUIRE(terrain.ok());
      REQUIRE(validate(*terrain).ok());
      CHECK(terrain->name == "builtin:terrain:" + std::to_string(n));
      CHECK(terrain->triangles.size() == static_cast<std::size_t>(3200 * n * n));
      CHECK(terrain->vertices.size() == static_cast<std::size_t>((40 * n + 1) * (40 * n + 1)));
      const AABB box = terrain->bounds();
      CHECK(box.min.x == 0.0F);
      CHECK(box.min.z == 0.0F);
      CHECK(box.max.x == 40.0F * static_cast<float>(n));
      CHECK(box.max.z == 40.0F * static_cast<float>(n));
      CHECK(box.min.y > -10.0F);
      CHECK(box.max.y < 10.0F);
      CHECK(box.size().y > 5.0F);  // hills, not a plane
      const auto again = builtin_scene("terrain:" + std::to_string(n));
      REQUIRE(again.ok());
      CHECK(triangle_mesh_hash(*terrain) == triangle_mesh_hash(*again));

      // every triangle faces up and spans one 1 m grid cell (area 0.5 in xz); most are walkable
      // at 45 deg, some are too steep
      std::size_t up = 0;
      std::size_t steep = 0;
      for (std::size_t t = 0; t < terrain->triangles.size(); ++t) {
        const Vec3 normal = normal_of(*terrain, t);
        if (normal.y > 0 && normal.y == doctest::Approx(1.0)) ++up;
        if (normal.y / length(normal) < std::cos(3.14159265358979323846 / 4.0)) ++steep;
      }
      CHECK(up == terrain->triangles.size());
      CHECK(steep > terrain->triangles.size() / 100);
      CHECK(steep < terrain->triangles.size() / 4);
    }
    // an open surface: every inner edge is shared by two triangles in opposite directions and
    // the boundary is the 4 * 40 outer grid edges
    const auto one = builtin_scene("terrain:1");
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (const auto& t : one->triangles)
      for (std::size_t i = 0; i < 3; ++i) ++edges[{t[i], t[(i + 1) % 3]}];
    int boundary = 0;
    for (const auto& [edge, count] : edges) {
      CHECK(count == 1);
      if (edges.find({edge.second, edge.first}) == edges.end()) ++boundary;
    }
    CHECK(boundary == 160);
    CHECK(triangle_mesh_hash(*builtin_scene("terrain:2")) != triangle_mesh_hash(*one));
  }

  TEST_CASE("terrain:1 builds a valid navmesh over most of its area") {
    const auto terrain = builtin_scene("terrain:1");
    REQUIRE(terrain.ok());
    const auto config = named_config("default");
    REQUIRE(config.ok());
    BuildContext ctx;
    const auto out = mesh::build_navmesh(*terrain, *config, ctx);
    REQUIRE(out.ok());
    const mesh::NavMesh& nav = out->navmesh;
    REQUIRE(mesh::validate(nav).ok());
    CHECK(nav.polygon_count() > 0);
    CHECK(out->stats.navmesh_area > 0.5 * 1600.0);
    CHECK(out->stats.navmesh_area < 1600.0);
    const AABB box = terrain->bounds();
    for (const Vec3& v : nav.vertices) {
      CHECK(v.y >= box.min.y - 0.5F);
      CHECK(v.y <= box.max.y + 0.5F);
    }
  }

  TEST_CASE("invalid scene specs are rejected listing the valid forms") {
    const std::pair<const char*, const char*> cases[] = {
        {"city:0", "built-in scene 'city:0': N = 0 is out of range"},
        {"city:257", "built-in scene 'city:257': N = 257 is out of range"},
        {"city:99999999999", "built-in scene 'city:99999999999': N = 99999999999 is out of range"},
        {"city:-1", "built-in scene 'city:-1': N = -1 is out of range"},
        {"city:x", "built-in scene 'city:x': N 'x' is not an integer"},
        {"city:2x", "built-in scene 'city:2x': N '2x' is not an integer"},
        {"city:", "built-in scene 'city:': N '' is not an integer"},
        {"city", "built-in scene 'city': city needs a size N"},
        {"terrain", "built-in scene 'terrain': terrain needs a size N"},
        {"terrain:0", "built-in scene 'terrain:0': N = 0 is out of range"},
        {"terrain:257", "built-in scene 'terrain:257': N = 257 is out of range"},
        {"terrain:1.5", "built-in scene 'terrain:1.5': N '1.5' is not an integer"},
        {"terrain:", "built-in scene 'terrain:': N '' is not an integer"},
        {"demo:2", "built-in scene 'demo:2': demo takes no arguments"},
        {"castle", "built-in scene 'castle': unknown scene"},
        {"", "built-in scene '': unknown scene"},
    };
    test::check_refused_scene_specs(cases);
    CHECK(builtin_scene_names() == std::vector<std::string>{"ceiling", "city", "demo", "drop",
                                                            "gap", "pillar", "rise", "terrain",
                                                            "wall"});
  }

  TEST_CASE("every listed scene form builds at both ends of its range, one past them is refused") {
    const std::vector<std::string> forms = builtin_scene_forms();
    REQUIRE(forms.size() == builtin_scene_names().size());
    for (const std::string& form : forms) {
      CAPTURE(form);
      const std::size_t colon = form.find(':');
      if (colon == std::string::npos) {
        CHECK(builtin_scene(form).ok());
        continue;
      }
      // "gap:W with W in 0.25..16": the name, then the range's two ends
      const std::string name = form.substr(0, colon);
      const std::size_t in = form.find(" in ");
      const std::size_t dots = form.find("..", in);
      REQUIRE(in != std::string::npos);
      REQUIRE(dots != std::string::npos);
      const std::string low = form.substr(in + 4, dots - in - 4);
      const std::string high = form.substr(dots + 2);
      CHECK(builtin_scene(name + ":" + low).ok());
      if (name != "city" && name != "terrain") CHECK(builtin_scene(name + ":" + high).ok());
      CHECK_FALSE(builtin_scene(name + ":" + high + "1").ok());
    }
  }

  TEST_CASE("load_scene takes builtin: specs and OBJ paths") {
    const auto demo = load_scene("builtin:demo");
    REQUIRE(demo.ok());
    CHECK(demo->name == "builtin:demo");
    const auto bad = load_scene("builtin:nothing");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::InvalidArgument);
    const auto missing = load_scene("/nonexistent/level.obj");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
  }

  TEST_CASE("write_obj output reads back bit for bit") {
    const auto demo = builtin_scene("city:2");
    REQUIRE(demo.ok());
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "leapnav_scenes_test_city2.obj";
    REQUIRE(write_obj(*demo, path).ok());
    const auto back = load_obj(path);
    std::filesystem::remove(path);
    REQUIRE(back.ok());
    CHECK(back->vertices == demo->vertices);
    CHECK(back->triangles == demo->triangles);
    CHECK(triangle_mesh_hash(*back) == triangle_mesh_hash(*demo));

    const auto fail = write_obj(*demo, "/nonexistent/dir/x.obj");
    REQUIRE_FALSE(fail.ok());
    CHECK(fail.error().code == ErrorCode::IoError);
    CHECK(fail.error().message.rfind("/nonexistent/dir/x.obj: cannot write (", 0) == 0);
  }
}
