// SceneBuilder solids. Every solid is emitted from one set of shared corners as a closed surface
// whose triangles wind so that cross(b - a, c - a) points outwards (top faces up); height grids
// are open surfaces whose triangles all face up.
#include "leapnav/io/scene_builder.hpp"

#include <cmath>
#include <numbers>

#include "leapnav/core/assert.hpp"

namespace leapnav::io {
namespace {

[[maybe_unused]] bool positive(float v) {
  return std::isfinite(v) && v > 0.0F;
}

/// The unit direction and its left-hand perpendicular in xz, chosen so that the near edge
/// (start - side, start + side) followed by the far edge forms an upward-facing loop.
struct Frame {
  Vec3 forward;
  Vec3 side;
};

Frame make_frame(Vec2 direction) {
  const float len = length(direction);
  LEAPNAV_ASSERT(std::isfinite(len) && len > 0.0F, "direction must be non-zero and finite");
  const Vec2 d = direction * (1.0F / len);
  // note: with side = (-d.z, d.x), cross(side, forward).y = d.x² + d.z² > 0.
  return {Vec3{d.x, 0.0F, d.y}, Vec3{-d.y, 0.0F, d.x}};
}

}  // namespace

std::uint32_t SceneBuilder::add_vertex(Vec3 v) {
  mesh_.vertices.push_back(v);
  return static_cast<std::uint32_t>(mesh_.vertices.size() - 1);
}

void SceneBuilder::add_face(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  mesh_.triangles.push_back({a, b, c});
}

void SceneBuilder::add_triangle(Vec3 a, Vec3 b, Vec3 c) {
  const std::uint32_t ia = add_vertex(a);
  const std::uint32_t ib = add_vertex(b);
  add_face(ia, ib, add_vertex(c));
}

void SceneBuilder::add_quad(Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
  const std::uint32_t ia = add_vertex(a);
  const std::uint32_t ib = add_vertex(b);
  const std::uint32_t ic = add_vertex(c);
  const std::uint32_t id = add_vertex(d);
  add_face(ia, ib, ic);
  add_face(ia, ic, id);
}

void SceneBuilder::add_hexahedron(const Vec3 (&corners)[8]) {
  std::uint32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = add_vertex(corners[i]);
  // bottom (down), top (up), then four sides (b_i, b_i+1, t_i+1, t_i)
  add_face(v[0], v[2], v[1]);
  add_face(v[0], v[3], v[2]);
  add_face(v[4], v[5], v[6]);
  add_face(v[4], v[6], v[7]);
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    add_face(v[i], v[j], v[4 + j]);
    add_face(v[i], v[4 + j], v[4 + i]);
  }
}

void SceneBuilder::add_box(Vec3 min, Vec3 max) {
  LEAPNAV_ASSERT(positive(max.x - min.x) && positive(max.y - min.y) && positive(max.z - min.z),
                 "box must have positive size");
  const Vec3 corners[8] = {{min.x, min.y, min.z}, {min.x, min.y, max.z}, {max.x, min.y, max.z},
                           {max.x, min.y, min.z}, {min.x, max.y, min.z}, {min.x, max.y, max.z},
                           {max.x, max.y, max.z}, {max.x, max.y, min.z}};
  add_hexahedron(corners);
}

void SceneBuilder::add_block(Vec3 start, Vec2 direction, float length_m, float width,
                             float height) {
  LEAPNAV_ASSERT(positive(length_m) && positive(width) && positive(height),
                 "block must have positive size");
  const Frame f = make_frame(direction);
  const Vec3 half = f.side * (0.5F * width);
  const Vec3 run = f.forward * length_m;
  const Vec3 up{0.0F, height, 0.0F};
  const Vec3 b0 = start - half;
  const Vec3 b1 = start + half;
  const Vec3 b2 = start + half + run;
  const Vec3 b3 = start - half + run;
  const Vec3 corners[8] = {b0, b1, b2, b3, b0 + up, b1 + up, b2 + up, b3 + up};
  add_hexahedron(corners);
}

void SceneBuilder::add_ramp(Vec3 start, Vec2 direction, float length_m, float width,
                            float angle_deg) {
  LEAPNAV_ASSERT(positive(length_m) && positive(width), "ramp must have positive size");
  LEAPNAV_ASSERT(angle_deg > 0.0F && angle_deg < 90.0F, "ramp angle must be in (0, 90) deg");
  const Frame f = make_frame(direction);
  const auto rise =
      static_cast<float>(static_cast<double>(length_m) *
                         std::tan(static_cast<double>(angle_deg) * std::numbers::pi / 180.0));
  const Vec3 half = f.side * (0.5F * width);
  const Vec3 run = f.forward * length_m;
  const Vec3 up{0.0F, rise, 0.0F};
  const std::uint32_t b0 = add_vertex(start - half);
  const std::uint32_t b1 = add_vertex(start + half);
  const std::uint32_t b2 = add_vertex(start + half + run);
  const std::uint32_t b3 = add_vertex(start - half + run);
  const std::uint32_t u2 = add_vertex(start + half + run + up);
  const std::uint32_t u3 = add_vertex(start - half + run + up);
  add_face(b0, b2, b1);  // bottom
  add_face(b0, b3, b2);
  add_face(b0, b1, u2);  // slope
  add_face(b0, u2, u3);
  add_face(b2, b3, u3);  // high end
  add_face(b2, u3, u2);
  add_face(b1, b2, u2);  // sides
  add_face(b3, b0, u3);
}

void SceneBuilder::add_stairs(Vec3 start, Vec2 direction, float width, int steps, float rise,
                              float run) {
  LEAPNAV_ASSERT(steps >= 1 && positive(width) && positive(rise) && positive(run),
                 "stairs need at least one step of positive size");
  const Frame f = make_frame(direction);
  for (int k = 0; k < steps; ++k) {
    const Vec3 step_start = start + f.forward * (run * static_cast<float>(k));
    add_block(step_start, direction, run, width, rise * static_cast<float>(k + 1));
  }
}

void SceneBuilder::add_prism(Vec3 base_center, float radius, float height, int sides) {
  LEAPNAV_ASSERT(sides >= 3 && positive(radius) && positive(height),
                 "prism needs 3+ sides and positive size");
  const auto n = static_cast<std::uint32_t>(sides);
  const std::uint32_t first = static_cast<std::uint32_t>(mesh_.vertices.size());
  // note: corners go clockwise in the (x, z) plane, which is the upward-facing order here.
  for (std::uint32_t k = 0; k < n; ++k) {
    const double angle = -2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
    const float x = base_center.x + static_cast<float>(radius * std::cos(angle));
    const float z = base_center.z + static_cast<float>(radius * std::sin(angle));
    add_vertex({x, base_center.y, z});
  }
  for (std::uint32_t k = 0; k < n; ++k) {
    const Vec3 b = mesh_.vertices[first + k];
    add_vertex({b.x, base_center.y + height, b.z});
  }
  const auto bottom = [&](std::uint32_t k) { return first + k; };
  const auto top = [&](std::uint32_t k) { return first + n + k; };
  for (std::uint32_t k = 1; k + 1 < n; ++k) {
    add_face(bottom(0), bottom(k + 1), bottom(k));
    add_face(top(0), top(k), top(k + 1));
  }
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t j = (k + 1) % n;
    add_face(bottom(k), bottom(j), top(j));
    add_face(bottom(k), top(j), top(k));
  }
}

void SceneBuilder::add_height_grid(Vec2 origin, float spacing, int cells_x, int cells_z,
                                   const std::function<float(float, float)>& height) {
  LEAPNAV_ASSERT(cells_x >= 1 && cells_z >= 1 && positive(spacing),
                 "height grid needs cells and a positive spacing");
  const auto nx = static_cast<std::uint64_t>(cells_x) + 1U;
  const auto nz = static_cast<std::uint64_t>(cells_z) + 1U;
  LEAPNAV_ASSERT(mesh_.vertices.size() + nx * nz <= std::uint64_t{0xFFFFFFFFU},
                 "height grid vertices must fit 32-bit indices");
  const auto first = static_cast<std::uint64_t>(mesh_.vertices.size());
  mesh_.vertices.reserve(mesh_.vertices.size() + nx * nz);
  mesh_.triangles.reserve(mesh_.triangles.size() + 2U * (nx - 1U) * (nz - 1U));
  for (std::uint64_t j = 0; j < nz; ++j) {
    const float z = origin.y + static_cast<float>(j) * spacing;
    for (std::uint64_t i = 0; i < nx; ++i) {
      const float x = origin.x + static_cast<float>(i) * spacing;
      add_vertex({x, height(x, z), z});
    }
  }
  const auto at = [&](std::uint64_t i, std::uint64_t j) {
    return static_cast<std::uint32_t>(first + j * nx + i);
  };
  // note: cross((i, j + 1) - (i, j), (i + 1, j) - (i, j)) has y = spacing² > 0 whatever the
  // heights, so both triangles of a cell face up.
  for (std::uint64_t j = 0; j + 1 < nz; ++j) {
    for (std::uint64_t i = 0; i + 1 < nx; ++i) {
      add_face(at(i, j), at(i, j + 1), at(i + 1, j));
      add_face(at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
    }
  }
}

TriangleMesh SceneBuilder::take() {
  TriangleMesh out = std::move(mesh_);
  mesh_ = TriangleMesh{};
  mesh_.name = out.name;
  return out;
}

}  // namespace leapnav::io
