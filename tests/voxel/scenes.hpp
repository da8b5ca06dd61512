// Tiny literal scenes and helpers for the voxel tests.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/voxel/heightfield.hpp"
#include "leapnav/voxel/rasterize.hpp"
#include "leapnav/voxel/walkable.hpp"

namespace leapnav::voxel {

inline std::ostream& operator<<(std::ostream& os, const Span& span) {
  return os << "[" << span.min << ", " << span.max << ") area " << int{span.area};
}

}  // namespace leapnav::voxel

namespace leapnav::voxel::test {

/// Appends an upward-facing (counter-clockwise seen from above) quad [x0, x1] x [z0, z1] at y.
inline void add_quad(TriangleMesh& mesh, float x0, float z0, float x1, float z1, float y) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  mesh.vertices.push_back({x0, y, z0});
  mesh.vertices.push_back({x0, y, z1});
  mesh.vertices.push_back({x1, y, z1});
  mesh.vertices.push_back({x1, y, z0});
  mesh.triangles.push_back({base, base + 1, base + 2});
  mesh.triangles.push_back({base, base + 2, base + 3});
}

/// Appends a downward-facing (unwalkable) quad [x0, x1] x [z0, z1] at y.
inline void add_quad_down(TriangleMesh& mesh, float x0, float z0, float x1, float z1, float y) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  mesh.vertices.push_back({x0, y, z0});
  mesh.vertices.push_back({x1, y, z0});
  mesh.vertices.push_back({x1, y, z1});
  mesh.vertices.push_back({x0, y, z1});
  mesh.triangles.push_back({base, base + 1, base + 2});
  mesh.triangles.push_back({base, base + 2, base + 3});
}

/// Appends an axis-aligned box [min, max] with outward-facing triangles.
inline void add_box(TriangleMesh& mesh, Vec3 min, Vec3 max) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.push_back(
        {(i & 1) != 0 ? max.x : min.x, (i & 2) != 0 ? max.y : min.y, (i & 4) != 0 ? max.z : min.z});
  }
  // faces as quads (a, b, c, d) counter-clockwise seen from outside
  const std::uint32_t faces[6][4] = {{2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2},
                                     {1, 3, 7, 5}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    mesh.triangles.push_back({base + f[0], base + f[1], base + f[2]});
    mesh.triangles.push_back({base + f[0], base + f[2], base + f[3]});
  }
}

/// Appends a ramp rising along +x from (x0, y0) with the given slope, over [z0, z1].
inline void add_ramp(TriangleMesh& mesh, float x0, float x1, float z0, float z1, float y0,
                     double slope_deg) {
  const float rise =
      static_cast<float>(std::tan(slope_deg * std::numbers::pi / 180.0) * double{x1 - x0});
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  mesh.vertices.push_back({x0, y0, z0});
  mesh.vertices.push_back({x0, y0, z1});
  mesh.vertices.push_back({x1, y0 + rise, z1});
  mesh.vertices.push_back({x1, y0 + rise, z0});
  mesh.triangles.push_back({base, base + 1, base + 2});
  mesh.triangles.push_back({base, base + 2, base + 3});
}

// A seeded clutter of boxes, ramps and floors over a 12 x 12 m area.
inline TriangleMesh random_scene(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(0.0F, 10.0F);
  std::uniform_real_distribution<float> size(0.3F, 3.0F);
  std::uniform_real_distribution<float> height(0.0F, 2.5F);
  std::uniform_real_distribution<double> slope(0.0, 60.0);
  TriangleMesh mesh;
  mesh.name = "random";
  add_quad(mesh, -1.0F, -1.0F, 12.0F, 12.0F, 0.0F);
  for (int i = 0; i < 25; ++i) {
    const float x = pos(rng);
    const float z = pos(rng);
    switch (i % 3) {
      case 0:
        add_box(mesh, {x, 0.0F, z}, {x + size(rng), height(rng), z + size(rng)});
        break;
      case 1:
        add_ramp(mesh, x, x + size(rng), z, z + size(rng), height(rng), slope(rng));
        break;
      default:
        add_quad(mesh, x, z, x + size(rng), z + size(rng), height(rng) + 1.0F);
        break;
    }
  }
  return mesh;
}

/// A grid at the origin with explicit size, for stage tests that do not use the mesh bounds.
inline GridSpec test_grid(int width, int depth, int height, float cs, float ch) {
  GridSpec grid;
  grid.origin = {0.0F, 0.0F, 0.0F};
  grid.cell_size = cs;
  grid.cell_height = ch;
  grid.width = width;
  grid.depth = depth;
  grid.height = height;
  return grid;
}

/// Voxel parameters in cells, for stage tests.
inline VoxelParams test_params(int walkable_height, int walkable_climb, int walkable_radius) {
  VoxelParams params;
  params.cell_size = 1.0F;
  params.cell_height = 0.25F;
  params.walkable_height = walkable_height;
  params.walkable_climb = walkable_climb;
  params.walkable_radius = walkable_radius;
  params.walkable_slope_cos = static_cast<float>(std::cos(45.0 * std::numbers::pi / 180.0));
  return params;
}

/// A configuration in world units: cell 0.5 x 0.25 m, agent 1 m tall, climb 0.5 m (2 cells).
inline BuildConfig test_config(float radius = 0.0F) {
  BuildConfig config;
  config.name = "test";
  config.voxel = {0.5F, 0.25F};
  config.agent = {1.0F, radius, 0.5F, 45.0F};
  config.poly.detail_sample_dist = 3.0F;
  return config;
}

/// Marks and rasterizes into an explicit grid; checks the result's invariants.
inline Heightfield rasterize_checked(const TriangleMesh& mesh, const GridSpec& grid,
                                     const VoxelParams& params, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto areas = mark_walkable_triangles(mesh, params, ctx);
  REQUIRE(areas.ok());
  auto solid = rasterize(mesh, *areas, grid, params, ctx);
  REQUIRE(solid.ok());
  const Status valid = validate(*solid);
  INFO((valid.ok() ? std::string() : valid.error().message));
  REQUIRE(valid.ok());
  return std::move(solid).value();
}

/// The spans of column (x, z).
inline std::vector<Span> column_spans(const Heightfield& hf, int x, int z) {
  const std::size_t c = hf.grid.column_index(x, z);
  return {hf.spans.begin() + hf.first(c), hf.spans.begin() + hf.end(c)};
}

/// Number of spans with a given area.
inline std::size_t count_area(const std::vector<std::uint8_t>& areas, std::uint8_t area) {
  std::size_t n = 0;
  for (const std::uint8_t a : areas) n += a == area ? 1U : 0U;
  return n;
}

inline std::size_t count_walkable(const Heightfield& hf) {
  std::size_t n = 0;
  for (const Span& s : hf.spans) n += s.area != kNullArea ? 1U : 0U;
  return n;
}

/// Requires validate() to pass, printing its message otherwise.
template <class T>
void require_valid(const T& value) {
  const Status valid = validate(value);
  INFO((valid.ok() ? std::string() : valid.error().message));
  REQUIRE(valid.ok());
}

}  // namespace leapnav::voxel::test
