// A real level from ../shared/meshes loaded and built into a navmesh, for tests that need the
// whole pipeline's output; nullopt (after shared_mesh's message) when the level is absent.
#pragma once

#include <optional>
#include <string_view>

#include "leapnav/core/config.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::test {

struct SharedLevel {
  TriangleMesh triangles;
  BuildConfig config;
  mesh::BuildOutput built;
};

/// ../shared/meshes/<file> built with the named configuration ("default", "thesis"); fails the
/// calling test when the file is present but does not load or build.
[[nodiscard]] std::optional<SharedLevel> build_shared_level(std::string_view file,
                                                            std::string_view config);

/// Only the navmesh of build_shared_level.
[[nodiscard]] std::optional<mesh::NavMesh> build_shared_navmesh(std::string_view file,
                                                                std::string_view config);

}  // namespace leapnav::test
