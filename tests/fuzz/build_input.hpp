// The byte decoding of the fuzz_build target, shared with the regression test that replays the
// inputs in tests/fuzz/regressions/fuzz_build/ through the ordinary test binary: a configuration
// (cell sizes, agent, polygon size) and up to 64 triangles in a 20 m box over a 20 x 20 m floor.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "leapnav/core/config.hpp"
#include "leapnav/core/triangle_mesh.hpp"

namespace leapnav::fuzz {

struct BuildInput {
  BuildConfig config;
  TriangleMesh mesh;
};

/// Decodes fuzz bytes; nullopt when they give a configuration that validate() refuses.
inline std::optional<BuildInput> decode_build_input(const std::uint8_t* data, std::size_t size) {
  std::size_t pos = 0;
  const auto byte = [&]() -> std::uint8_t { return pos < size ? data[pos++] : 0; };
  const auto unit = [&](float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(byte()) / 255.0F;
  };
  BuildInput in;
  in.config = *named_config(byte() % 2 == 0 ? "default" : "thesis");
  BuildConfig& config = in.config;
  config.voxel.cell_size = unit(0.2F, 0.6F);
  config.voxel.cell_height = unit(0.1F, 0.4F);
  config.agent.height = unit(0.5F, 3.0F);
  config.agent.radius = unit(0.0F, 1.0F);
  config.agent.max_climb = unit(0.0F, 1.5F);
  config.agent.max_slope_deg = unit(0.0F, 89.0F);
  config.poly.max_verts_per_poly = 3 + byte() % 10;
  config.poly.detail_sample_dist = std::max(config.voxel.cell_size, config.poly.detail_sample_dist);
  if (!validate(config).ok()) return std::nullopt;

  TriangleMesh& mesh = in.mesh;
  mesh.name = "fuzz";
  const int triangles = 1 + byte() % 64;
  for (int t = 0; t < triangles && pos < size; ++t) {
    for (int k = 0; k < 3; ++k) mesh.vertices.push_back({unit(0, 20), unit(0, 6), unit(0, 20)});
    const auto base = static_cast<std::uint32_t>(mesh.vertices.size() - 3);
    mesh.triangles.push_back({base, base + 1, base + 2});
  }
  // a floor under everything so that most inputs produce a mesh
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  mesh.vertices.insert(mesh.vertices.end(), {{0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0}});
  mesh.triangles.push_back({base, base + 1, base + 2});
  mesh.triangles.push_back({base, base + 2, base + 3});
  return in;
}

}  // namespace leapnav::fuzz
