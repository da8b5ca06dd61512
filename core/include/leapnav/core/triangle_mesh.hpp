// The input of the pipeline: a triangle soup in world units (y up).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav {

struct TriangleMesh {
  std::string name;                                     ///< where it came from (file or scene name)
  std::vector<Vec3> vertices;                           ///< [units: m]
  std::vector<std::array<std::uint32_t, 3>> triangles;  ///< indices into vertices

  [[nodiscard]] AABB bounds() const;
};

/// Every index in range and every vertex finite; the message names the first offender.
[[nodiscard]] Status validate(const TriangleMesh& mesh);

}  // namespace leapnav
