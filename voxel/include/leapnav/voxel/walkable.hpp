// Walkable-triangle marking (pipeline.md §1): a triangle is walkable when its unit normal
// (right-handed cross product of its edges, y up) has y >= cos(max slope). Degenerate triangles
// (zero area, non-finite vertices) are dropped and counted.
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::voxel {

/// Area value of a degenerate triangle: it is not rasterized.
inline constexpr std::uint8_t kDroppedTriangle = 0xFF;

/// Per-triangle area ids, indexed like TriangleMesh::triangles.
struct TriangleAreas {
  /// kWalkableArea, kNullArea, or kDroppedTriangle for a degenerate triangle.
  std::vector<std::uint8_t> area;
  std::uint64_t walkable = 0;    ///< triangles marked kWalkableArea
  std::uint64_t degenerate = 0;  ///< triangles marked kDroppedTriangle
};

/// Marks each triangle walkable (normal.y >= params.walkable_slope_cos, normal computed in double
/// from v0, v1, v2 as cross(v1 - v0, v2 - v0), so the winding must be counter-clockwise seen from
/// above) or not. Zero-area triangles and triangles with non-finite vertices are marked
/// kDroppedTriangle and counted (a warning is logged when any are found). Errors: IndexOutOfRange
/// when a triangle uses a vertex that does not exist; Cancelled.
[[nodiscard]] Result<TriangleAreas> mark_walkable_triangles(const TriangleMesh& mesh,
                                                            const VoxelParams& params,
                                                            BuildContext& ctx);

}  // namespace leapnav::voxel
