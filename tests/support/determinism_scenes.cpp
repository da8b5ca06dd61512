#include "support/determinism_scenes.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>

#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"
#include "support/shared_data.hpp"

namespace leapnav::test {

std::vector<DeterminismScene> determinism_scenes() {
  std::vector<DeterminismScene> scenes;
  for (const char* spec : {"demo", "city:2", "terrain:1"}) {
    auto mesh = io::builtin_scene(spec);
    REQUIRE(mesh.ok());
    scenes.push_back({spec, std::move(mesh).value(), false});
  }
  for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
    const auto path = shared_mesh(file);
    if (!path) continue;
    auto mesh = io::load_obj(*path);
    REQUIRE(mesh.ok());
    scenes.push_back({file, std::move(mesh).value(), true});
  }
  return scenes;
}

TriangleMesh shuffled_triangles(TriangleMesh mesh, unsigned seed) {
  std::mt19937 rng(seed);
  std::shuffle(mesh.triangles.begin(), mesh.triangles.end(), rng);
  return mesh;
}

}  // namespace leapnav::test
