// The jump scenes (gap, rise, drop, ceiling, wall, pillar): closed and outward-wound boxes at the
// documented coordinates, exact triangle counts, deterministic bytes, and every malformed or out-
// of-range spec rejected with InvalidArgument naming it and listing the valid forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/scene_spec_checks.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/scenes.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

/// Every directed edge has exactly one reverse: a closed, consistently wound surface.
bool edges_paired(const TriangleMesh& m) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (const auto& t : m.triangles)
    for (std::size_t i = 0; i < 3; ++i) ++edges[{t[i], t[(i + 1) % 3]}];
  return std::all_of(edges.begin(), edges.end(), [&](const auto& e) {
    const auto reverse = edges.find({e.first.second, e.first.first});
    return e.second == 1 && reverse != edges.end() && reverse->second == 1;
  });
}

/// The flat upward faces as (y, summed xz area), ascending y.
std::map<float, double> upward_areas(const TriangleMesh& m) {
  std::map<float, double> out;
  for (const auto& t : m.triangles) {
    const Vec3 a = m.vertices[t[0]];
    const Vec3 n = cross(m.vertices[t[1]] - a, m.vertices[t[2]] - a);
    if (n.y > 0.0F && n.x == 0.0F && n.z == 0.0F) out[a.y] += 0.5 * static_cast<double>(n.y);
  }
  return out;
}

Result<TriangleMesh> scene_checked(const std::string& spec) {
  auto m = builtin_scene(spec);
  REQUIRE_MESSAGE(m.ok(), spec << ": " << (m.ok() ? "" : m.error().message));
  REQUIRE(validate(*m).ok());
  CHECK(edges_paired(*m));
  CHECK(m->name == "builtin:" + spec);
  const AABB box = m->bounds();
  CHECK(box.min == Vec3{0.0F, 0.0F, 0.0F});
  CHECK(box.max.z == kJumpSceneWidth);
  return m;
}

}  // namespace

TEST_SUITE("io.jump_scenes") {
  TEST_CASE("each jump scene has its documented triangle count, bounds and floors") {
    struct Expected {
      std::string spec;
      std::size_t triangles;
      float max_x;
      float max_y;
      std::map<float, double> floors;  // upward face height -> area (faces under others included)
    };
    const std::vector<Expected> cases = {
        {"gap:2.5", 24, 18.5F, 1.0F, {{1.0F, 96.0}}},
        {"gap:0.25", 24, 16.25F, 1.0F, {{1.0F, 96.0}}},
        {"rise:0.5", 24, 16.5F, 1.5F, {{1.0F, 48.0}, {1.5F, 48.0}}},
        {"drop:2", 24, 16.5F, 3.0F, {{1.0F, 48.0}, {3.0F, 48.0}}},
        {"ceiling:3.5", 36, 17.0F, 4.75F, {{1.0F, 96.0}, {4.75F, 18.0}}},
        {"wall:2", 24, 16.5F, 3.0F, {{1.0F, 99.0}, {3.0F, 3.0}}},
        {"pillar", 36, 17.0F, 5.0F, {{1.0F, 96.0}, {5.0F, 1.0}}},
    };
    for (const Expected& e : cases) {
      CAPTURE(e.spec);
      const auto m = scene_checked(e.spec);
      CHECK(m->triangles.size() == e.triangles);
      CHECK(m->bounds().max.x == e.max_x);
      CHECK(m->bounds().max.y == e.max_y);
      const std::map<float, double> floors = upward_areas(*m);
      REQUIRE(floors.size() == e.floors.size());
      // note: no structured binding here: CAPTURE's lambda cannot name one in clang 14
      for (const auto& floor : e.floors) {
        const float y = floor.first;
        CAPTURE(y);
        REQUIRE(floors.count(y) == 1);
        CHECK(floors.at(y) == doctest::Approx(floor.second));
      }
    }
  }

  TEST_CASE("the ceiling slab spans the gap plus 1 m on each side, the pillar fills the gap") {
    const auto ceiling = scene_checked("ceiling:2");
    float slab_min_x = 1e9F;
    float slab_max_x = -1e9F;
    for (const Vec3& v : ceiling->vertices) {
      if (v.y < 2.5F) continue;
      slab_min_x = std::min(slab_min_x, v.x);
      slab_max_x = std::max(slab_max_x, v.x);
      CHECK((v.y == 3.0F || v.y == 3.25F));
    }
    CHECK(slab_min_x == kJumpPlatformLength - kJumpSlabOverhang);
    CHECK(slab_max_x == kJumpPlatformLength + kJumpWideGap + kJumpSlabOverhang);

    const auto pillar = scene_checked("pillar");
    for (const Vec3& v : pillar->vertices) {
      if (v.y <= kJumpFloorTop) continue;
      CHECK((v.x == 8.0F || v.x == 9.0F));
      CHECK((v.z == kJumpPillarZ || v.z == kJumpPillarZ + 1.0F));
      CHECK(v.y == kJumpFloorTop + kJumpPillarHeight);
    }
  }

  TEST_CASE("the same spec gives the same bytes; different parameters give different ones") {
    for (const char* spec :
         {"gap:2.5", "rise:0.75", "drop:1", "ceiling:3.25", "wall:1.5", "pillar"}) {
      CAPTURE(spec);
      const auto a = builtin_scene(spec);
      const auto b = load_scene(std::string("builtin:") + spec);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      CHECK(triangle_mesh_hash(*a) == triangle_mesh_hash(*b));
      CHECK(a->vertices == b->vertices);
      CHECK(a->triangles == b->triangles);
    }
    CHECK(triangle_mesh_hash(*builtin_scene("gap:2.5")) !=
          triangle_mesh_hash(*builtin_scene("gap:2.75")));
    CHECK(triangle_mesh_hash(*builtin_scene("rise:1")) !=
          triangle_mesh_hash(*builtin_scene("drop:1")));
    // the name carries the parameter in shortest form; the geometry is the same
    const auto plain = builtin_scene("gap:2.5");
    const auto padded = builtin_scene("gap:2.50");
    REQUIRE(padded.ok());
    CHECK(padded->name == "builtin:gap:2.5");
    CHECK(triangle_mesh_hash(*padded) == triangle_mesh_hash(*plain));
  }

  TEST_CASE("the range ends are accepted and the families are listed in order") {
    for (const JumpSceneFamily& f : jump_scene_families()) {
      CAPTURE(f.name);
      for (const float x : {f.min, f.max}) {
        std::string spec = std::string(f.name) + ":";
        spec += x == 0.25F ? "0.25" : std::to_string(static_cast<int>(x));
        const auto m = builtin_scene(spec);
        REQUIRE(m.ok());
        CHECK(m->triangles.size() >= 24);
      }
    }
    std::vector<std::string> names;
    for (const JumpSceneFamily& f : jump_scene_families()) names.emplace_back(f.name);
    CHECK(names == std::vector<std::string>{"ceiling", "drop", "gap", "rise", "wall"});
    const std::vector<std::string> all = builtin_scene_names();
    for (const std::string& n : names) CHECK(std::count(all.begin(), all.end(), n) == 1);
    CHECK(std::count(all.begin(), all.end(), "pillar") == 1);
    CHECK(std::is_sorted(all.begin(), all.end()));
  }

  TEST_CASE("bad jump scene specs are rejected naming the spec and listing the valid forms") {
    const std::pair<const char*, const char*> cases[] = {
        {"gap", "built-in scene 'gap': gap needs a value W"},
        {"gap:", "built-in scene 'gap:': W '' is not a number"},
        {"gap:x", "built-in scene 'gap:x': W 'x' is not a number"},
        {"gap:2.5m", "built-in scene 'gap:2.5m': W '2.5m' is not a number"},
        {"gap: 2", "built-in scene 'gap: 2': W ' 2' is not a number"},
        {"gap:+2", "built-in scene 'gap:+2': W '+2' is not a number"},
        {"gap:2:3", "built-in scene 'gap:2:3': W '2:3' is not a number"},
        {"gap:nan", "built-in scene 'gap:nan': W 'nan' is not a finite number"},
        {"gap:inf", "built-in scene 'gap:inf': W 'inf' is not a finite number"},
        {"gap:-1", "built-in scene 'gap:-1': W = -1 is out of range"},
        {"gap:0", "built-in scene 'gap:0': W = 0 is out of range"},
        {"gap:0.2", "built-in scene 'gap:0.2': W = 0.2 is out of range"},
        {"gap:16.01", "built-in scene 'gap:16.01': W = 16.01 is out of range"},
        {"gap:1e99", "built-in scene 'gap:1e99': W = 1e99 is out of range"},
        {"gap:1e-99", "built-in scene 'gap:1e-99': W = 1e-99 is out of range"},
        {"rise", "built-in scene 'rise': rise needs a value D"},
        {"rise:8.5", "built-in scene 'rise:8.5': D = 8.5 is out of range"},
        {"drop:0", "built-in scene 'drop:0': D = 0 is out of range"},
        {"drop:abc", "built-in scene 'drop:abc': D 'abc' is not a number"},
        {"ceiling", "built-in scene 'ceiling': ceiling needs a value H"},
        {"ceiling:9", "built-in scene 'ceiling:9': H = 9 is out of range"},
        {"wall:0.1", "built-in scene 'wall:0.1': H = 0.1 is out of range"},
        {"wall:-inf", "built-in scene 'wall:-inf': H '-inf' is not a finite number"},
        {"pillar:2", "built-in scene 'pillar:2': pillar takes no arguments"},
        {"pillar:", "built-in scene 'pillar:': pillar takes no arguments"},
        {"Gap:2", "built-in scene 'Gap:2': unknown scene"},
        {"gaps:2", "built-in scene 'gaps:2': unknown scene"},
    };
    test::check_refused_scene_specs(cases);
  }
}
