// The input of the pipeline: a triangle soup in world units (y up).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav {

/// The largest area id (the ground's, voxel::kWalkableArea); ids 1..63 are walkable.
inline constexpr std::uint8_t kMaxAreaId = 63;

/// A prism that marks the walkable spans it contains with an area id (as Recast's
/// rcMarkConvexPolyArea): a span is marked when its column's centre lies inside `polygon` (xz,
/// convex, either winding) and its floor lies in [min_y, max_y]. Applied after erosion, in order.
struct AreaVolume {
  std::vector<Vec2> polygon;  ///< (x, z) corners [units: m]
  float min_y = 0.0F;         ///< [units: m]
  float max_y = 0.0F;         ///< [units: m]
  std::uint8_t area = 0;      ///< [range: 1..63]; 0 makes the spans unwalkable
};

struct TriangleMesh {
  std::string name;                                     ///< where it came from (file or scene name)
  std::vector<Vec3> vertices;                           ///< [units: m]
  std::vector<std::array<std::uint32_t, 3>> triangles;  ///< indices into vertices
  /// Per triangle, the area id its walkable surface gets [range: 0..63; 0 = never walkable], or
  /// empty: every walkable triangle is ground (63). Regions, hence polygons, never mix areas, and
  /// the id reaches mesh::NavMesh::poly_area, where query filters read it.
  std::vector<std::uint8_t> areas;
  std::vector<AreaVolume> area_volumes;  ///< marked after the per-triangle areas

  [[nodiscard]] AABB bounds() const;

  /// The name error messages start with: `name`, or "triangle mesh" when it is empty.
  [[nodiscard]] std::string label() const { return name.empty() ? "triangle mesh" : name; }
};

/// Every index in range, every vertex finite, areas empty or one per triangle and at most 63,
/// every volume with >= 3 finite corners, finite min_y <= max_y and an area at most 63; the
/// message names the first offender.
[[nodiscard]] Status validate(const TriangleMesh& mesh);
/// The area part of validate: `areas` and `area_volumes` only.
[[nodiscard]] Status validate_areas(const TriangleMesh& mesh);

}  // namespace leapnav
