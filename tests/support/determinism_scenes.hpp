// The scenes of the determinism tests (tests/*/determinism_test.cpp): the built-in demo, city:2 and
// terrain:1, then the real levels dungeon and nav_test from ../shared when present (a message
// says when they are skipped), and the seeded triangle shuffle those tests apply.
#pragma once

#include <string>
#include <vector>

#include "leapnav/core/triangle_mesh.hpp"

namespace leapnav::test {

struct DeterminismScene {
  std::string name;  ///< the built-in spec ("city:2") or the file name ("dungeon.obj")
  TriangleMesh mesh;
  bool real_level = false;  ///< from ../shared/meshes
};

/// Loads the scenes (fails the calling test when a built-in scene or a present level fails).
[[nodiscard]] std::vector<DeterminismScene> determinism_scenes();

/// The mesh with its triangles in a seeded random order (std::mt19937).
[[nodiscard]] TriangleMesh shuffled_triangles(TriangleMesh mesh, unsigned seed);

}  // namespace leapnav::test
