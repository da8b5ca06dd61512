// TriangleMesh bounds and checks.
#include "leapnav/core/triangle_mesh.hpp"

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
                        mesh.name + ": vertex " + std::to_string(i) + " is not finite");
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (const std::uint32_t index : mesh.triangles[t]) {
      if (index >= mesh.vertices.size())
        return make_error(ErrorCode::IndexOutOfRange, mesh.name + ": triangle " +
                                                          std::to_string(t) + " uses vertex " +
                                                          std::to_string(index) + " of " +
                                                          std::to_string(mesh.vertices.size()));
    }
  }
  return {};
}

}  // namespace leapnav
