// TriangleMesh bounds and checks.
#include "leapnav/core/triangle_mesh.hpp"

#include <cmath>
#include <string>

namespace leapnav {

AABB TriangleMesh::bounds() const {
  AABB box;
  for (const Vec3& v : vertices) box.extend(v);
  return box;
}

Status validate(const TriangleMesh& mesh) {
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    if (!is_finite(mesh.vertices[i]))
      return make_error(ErrorCode::NonFinite,
                        mesh.label() + ": vertex " + std::to_string(i) + " is not finite");
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (const std::uint32_t index : mesh.triangles[t]) {
      if (index >= mesh.vertices.size())
        return make_error(ErrorCode::IndexOutOfRange, mesh.label() + ": triangle " +
                                                          std::to_string(t) + " uses vertex " +
                                                          std::to_string(index) + " of " +
                                                          std::to_string(mesh.vertices.size()));
    }
  }
  return validate_areas(mesh);
}

Status validate_areas(const TriangleMesh& mesh) {
  if (!mesh.areas.empty() && mesh.areas.size() != mesh.triangles.size()) {
    return make_error(ErrorCode::InvalidArgument,
                      mesh.label() + ": " + std::to_string(mesh.areas.size()) + " areas for " +
                          std::to_string(mesh.triangles.size()) + " triangles");
  }
  for (std::size_t t = 0; t < mesh.areas.size(); ++t) {
    if (mesh.areas[t] > kMaxAreaId) {
      return make_error(ErrorCode::InvalidArgument, mesh.label() + ": triangle " +
                                                        std::to_string(t) + " has area " +
                                                        std::to_string(mesh.areas[t]) + " (> 63)");
    }
  }
  for (std::size_t v = 0; v < mesh.area_volumes.size(); ++v) {
    const AreaVolume& volume = mesh.area_volumes[v];
    const std::string where = mesh.label() + ": area volume " + std::to_string(v);
    if (volume.polygon.size() < 3) {
      return make_error(ErrorCode::InvalidArgument, where + " has fewer than 3 corners");
    }
    for (const Vec2 c : volume.polygon) {
      if (!std::isfinite(c.x) || !std::isfinite(c.y)) {
        return make_error(ErrorCode::NonFinite, where + " has a corner that is not finite");
      }
    }
    if (!std::isfinite(volume.min_y) || !std::isfinite(volume.max_y)) {
      return make_error(ErrorCode::NonFinite, where + " has a y range that is not finite");
    }
    if (volume.min_y > volume.max_y) {
      return make_error(ErrorCode::InvalidArgument, where + " has min_y > max_y");
    }
    if (volume.area > kMaxAreaId) {
      return make_error(ErrorCode::InvalidArgument,
                        where + " has area " + std::to_string(volume.area) + " (> 63)");
    }
  }
  return {};
}

}  // namespace leapnav
