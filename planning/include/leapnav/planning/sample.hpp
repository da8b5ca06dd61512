// Random points on a navmesh, uniform over its area in the xz plane: a polygon by area (binary
// search over the cumulative areas), a triangle of its fan by area, a uniform point in the
// triangle. Deterministic for a seed on every platform: uniforms come from the raw 64-bit output
// of std::mt19937_64, not from std distributions.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::plan {

/// A point on a polygon, lifted with mesh::height_at [units: m].
struct MeshPoint {
  mesh::PolyId poly{};
  Vec3 point;
};

/// Area-weighted sampler over a mesh (which must outlive it), or over some of its polygons.
class PointSampler {
 public:
  explicit PointSampler(const mesh::NavMesh& mesh);
  /// Samples only the given polygons (each id must be in range).
  PointSampler(const mesh::NavMesh& mesh, std::vector<mesh::PolyId> polys);

  /// True when the mesh has no polygon of positive area (sample() must not be called).
  [[nodiscard]] bool empty() const { return total_area_ <= 0.0; }
  [[nodiscard]] double total_area() const { return total_area_; }

  /// One random point; consumes a fixed number (3) of rng outputs.
  [[nodiscard]] MeshPoint sample(std::mt19937_64& rng) const;

 private:
  const mesh::NavMesh* mesh_;
  std::vector<mesh::PolyId> polys_;      ///< the polygons sampled
  std::vector<double> cumulative_area_;  ///< per entry of polys_, inclusive prefix sums
  double total_area_ = 0.0;
};

/// `count` random points from a generator seeded with `seed` (empty when the mesh has no area).
[[nodiscard]] std::vector<MeshPoint> random_points(const mesh::NavMesh& mesh, std::size_t count,
                                                   std::uint64_t seed);

}  // namespace leapnav::plan
