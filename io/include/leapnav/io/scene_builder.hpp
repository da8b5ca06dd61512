// SceneBuilder: closed, convex solids (boxes, oriented blocks, ramps, stairs, prisms) and open
// height grids assembled into a TriangleMesh for built-in and test scenes. Every solid is a closed
// surface with every triangle wound so that cross(b - a, c - a) points out of the solid: top faces
// face up (normal.y > 0), which is how the voxel stage recognises walkable floor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/triangle_mesh.hpp"

namespace leapnav::io {

/// Builds a triangle soup from solids. World units (metres), y up. Oriented solids take a `start`
/// point (the centre of their near bottom edge, on the floor they stand on), a horizontal
/// `direction` (x, z) they extend along (any length but zero; normalised internally) and a
/// `width` across it, centred on `start`. Vertices of one solid are shared by its faces, so each
/// solid is a closed, consistently wound surface (every directed edge has its reverse in the same
/// solid). Solids may overlap; the voxel stage merges overlapping solid spans. Sizes must be
/// positive and finite (checked with LEAPNAV_ASSERT: builder input comes from code, not users).
class SceneBuilder {
 public:
  explicit SceneBuilder(std::string name = "scene") { mesh_.name = std::move(name); }

  /// One triangle as given; its front side is the one from which a, b, c turn counter-clockwise,
  /// i.e. the side cross(b - a, c - a) points to.
  void add_triangle(Vec3 a, Vec3 b, Vec3 c);
  /// A planar convex quad a, b, c, d (in order around its boundary) as triangles (a, b, c) and
  /// (a, c, d); facing as add_triangle. Not a closed solid: use it for one-sided floors only.
  void add_quad(Vec3 a, Vec3 b, Vec3 c, Vec3 d);

  /// An axis-aligned box [min, max] (12 triangles).
  void add_box(Vec3 min, Vec3 max);
  /// A box standing on `start`: `length` along `direction`, `width` across, `height` up [m]
  /// (12 triangles).
  void add_block(Vec3 start, Vec2 direction, float length, float width, float height);
  /// A solid wedge rising from `start`: horizontal run `length` along `direction`, `width` across,
  /// slope `angle_deg` in (0, 90); the high end is a vertical face of height
  /// length * tan(angle) (8 triangles). Its slope normal has y = cos(angle).
  void add_ramp(Vec3 start, Vec2 direction, float length, float width, float angle_deg);
  /// `steps` solid steps climbing along `direction` from `start`: step k (0-based) is a block of
  /// depth `run` starting k * run from `start`, from start.y up to start.y + (k + 1) * rise
  /// (12 triangles per step). The top of the last step is at start.y + steps * rise.
  void add_stairs(Vec3 start, Vec2 direction, float width, int steps, float rise, float run);
  /// A vertical prism (a pillar or cylinder approximation): a regular polygon with `sides` >= 3
  /// corners on a circle of `radius` around `base_center` (first corner towards +x), extruded
  /// `height` up (4 * sides - 4 triangles).
  void add_prism(Vec3 base_center, float radius, float height, int sides = 8);

  /// A height-grid surface (open, not a solid): (cells_x + 1) x (cells_z + 1) shared vertices at
  /// x = origin.x + i * spacing, z = origin.y + j * spacing (origin is (x, z)), y = height(x, z),
  /// and two triangles per cell, split along the same diagonal and wound to face up
  /// (2 * cells_x * cells_z triangles). cells_x, cells_z >= 1, spacing > 0 [m]; the vertex
  /// count must fit 32-bit indices.
  void add_height_grid(Vec2 origin, float spacing, int cells_x, int cells_z,
                       const std::function<float(float x, float z)>& height);

  [[nodiscard]] std::size_t triangle_count() const { return mesh_.triangles.size(); }
  [[nodiscard]] std::size_t vertex_count() const { return mesh_.vertices.size(); }
  /// The mesh built so far.
  [[nodiscard]] const TriangleMesh& mesh() const { return mesh_; }
  /// Moves the mesh out; the builder is empty (same name) afterwards.
  [[nodiscard]] TriangleMesh take();

 private:
  std::uint32_t add_vertex(Vec3 v);
  void add_face(std::uint32_t a, std::uint32_t b, std::uint32_t c);
  /// Adds a closed hexahedron from 8 corners: bottom b0..b3 and top t0..t3, each loop ordered so
  /// that cross(b1 - b0, b3 - b0) points up.
  void add_hexahedron(const Vec3 (&corners)[8]);

  TriangleMesh mesh_;
};

}  // namespace leapnav::io
