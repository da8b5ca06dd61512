// Walkable-triangle marking (pipeline.md §1). The normal is computed in double from the float
// vertices so that tiny but non-degenerate triangles keep a usable direction; a triangle is
// degenerate when its cross product is exactly zero or not finite.
#include "leapnav/voxel/walkable.hpp"

#include <cmath>
#include <string>

#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {

Result<TriangleAreas> mark_walkable_triangles(const TriangleMesh& mesh, const VoxelParams& params,
                                              BuildContext& ctx) {
  const std::size_t count = mesh.triangles.size();
  const std::size_t vertex_count = mesh.vertices.size();
  for (std::size_t t = 0; t < count; ++t) {
    for (const std::uint32_t index : mesh.triangles[t]) {
      if (index >= vertex_count)
        return make_error(ErrorCode::IndexOutOfRange,
                          mesh.label() + ": triangle " + std::to_string(t) + " uses vertex " +
                              std::to_string(index) + " of " + std::to_string(vertex_count));
    }
  }
  LEAPNAV_TRY(validate_areas(mesh));
  LEAPNAV_TRY(ctx.check_memory("walkable triangle marks", count));
  TriangleAreas out;
  out.area.resize(count);
  const double slope_cos = params.walkable_slope_cos;
  parallel_for(ctx.threads(), 0, count, 4096, [&](std::size_t begin, std::size_t end) {
    for (std::size_t t = begin; t < end; ++t) {
      const auto& tri = mesh.triangles[t];
      const Vec3 a = mesh.vertices[tri[0]];
      const Vec3 b = mesh.vertices[tri[1]];
      const Vec3 c = mesh.vertices[tri[2]];
      const double e0x = double{b.x} - a.x, e0y = double{b.y} - a.y, e0z = double{b.z} - a.z;
      const double e1x = double{c.x} - a.x, e1y = double{c.y} - a.y, e1z = double{c.z} - a.z;
      const double nx = e0y * e1z - e0z * e1y;
      const double ny = e0z * e1x - e0x * e1z;
      const double nz = e0x * e1y - e0y * e1x;
      const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
      std::uint8_t area = kNullArea;
      if (!std::isfinite(len) || len == 0.0) {
        area = kDroppedTriangle;
      } else if (ny / len >= slope_cos) {
        area = mesh.areas.empty() ? kWalkableArea : mesh.areas[t];
      }
      out.area[t] = area;
    }
  });
  for (const std::uint8_t area : out.area) {
    out.walkable += area != kNullArea && area != kDroppedTriangle ? 1U : 0U;
    out.degenerate += area == kDroppedTriangle ? 1U : 0U;
  }
  if (out.degenerate > 0) {
    ctx.warn(mesh.label() + ": dropped " + std::to_string(out.degenerate) +
             " degenerate triangle(s) (zero area or non-finite)");
  }
  LEAPNAV_TRY(ctx.check_cancel("rasterize"));
  return out;
}

}  // namespace leapnav::voxel
