// Area-weighted random points on a navmesh: cumulative polygon areas, then a fan triangle by area,
// then a uniform point in the triangle (the square-root warp). Uniforms in [0, 1) are built from
// the top 53 bits of std::mt19937_64's output so results do not depend on the standard library.
#include "leapnav/planning/sample.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace leapnav::plan {
namespace {

double uniform(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

double triangle_area(Vec3 a, Vec3 b, Vec3 c) {
  return 0.5 * ((static_cast<double>(b.x) - a.x) * (static_cast<double>(c.z) - a.z) -
                (static_cast<double>(c.x) - a.x) * (static_cast<double>(b.z) - a.z));
}

}  // namespace

namespace {

std::vector<mesh::PolyId> all_polygons(const mesh::NavMesh& mesh) {
  std::vector<mesh::PolyId> polys;
  polys.reserve(mesh.polygon_count());
  for (std::uint32_t p = 0; p < mesh.polygon_count(); ++p) polys.push_back(mesh::PolyId{p});
  return polys;
}

}  // namespace

PointSampler::PointSampler(const mesh::NavMesh& mesh) : PointSampler(mesh, all_polygons(mesh)) {}

PointSampler::PointSampler(const mesh::NavMesh& mesh, std::vector<mesh::PolyId> polys)
    : mesh_(&mesh), polys_(std::move(polys)) {
  cumulative_area_.reserve(polys_.size());
  double sum = 0.0;
  for (const mesh::PolyId p : polys_) {
    sum += std::max(0.0, mesh::polygon_area(mesh, p));
    cumulative_area_.push_back(sum);
  }
  total_area_ = sum;
}

MeshPoint PointSampler::sample(std::mt19937_64& rng) const {
  const double pick = uniform(rng) * total_area_;
  const double u = uniform(rng);
  const double v = uniform(rng);
  auto it = std::upper_bound(cumulative_area_.begin(), cumulative_area_.end(), pick);
  if (it == cumulative_area_.end()) --it;
  // note: upper_bound skips zero-area polygons (they repeat their predecessor's sum)
  const std::uint32_t p =
      mesh::index(polys_[static_cast<std::size_t>(it - cumulative_area_.begin())]);
  const mesh::NavMesh& mesh = *mesh_;
  const auto verts = mesh.polygon(mesh::PolyId{p});
  const Vec3 a = mesh.vertices[verts[0]];
  double area = 0.0;
  for (std::size_t k = 1; k + 1 < verts.size(); ++k) {
    area += std::max(0.0, triangle_area(a, mesh.vertices[verts[k]], mesh.vertices[verts[k + 1]]));
  }
  // pick the fan triangle by reusing the polygon choice's remainder
  const double before = it == cumulative_area_.begin() ? 0.0 : *(it - 1);
  double within = std::clamp(pick - before, 0.0, area);
  std::size_t k = 1;
  for (; k + 2 < verts.size(); ++k) {
    const double t =
        std::max(0.0, triangle_area(a, mesh.vertices[verts[k]], mesh.vertices[verts[k + 1]]));
    if (within < t) break;
    within -= t;
  }
  const Vec3 b = mesh.vertices[verts[k]];
  const Vec3 c = mesh.vertices[verts[k + 1]];
  const double su = std::sqrt(u);
  const double wa = 1.0 - su;
  const double wb = su * (1.0 - v);
  const double wc = su * v;
  const float x = static_cast<float>(wa * a.x + wb * b.x + wc * c.x);
  const float z = static_cast<float>(wa * a.z + wb * b.z + wc * c.z);
  return {mesh::PolyId{p}, {x, mesh::height_at(mesh, mesh::PolyId{p}, x, z), z}};
}

std::vector<MeshPoint> random_points(const mesh::NavMesh& mesh, std::size_t count,
                                     std::uint64_t seed) {
  const PointSampler sampler(mesh);
  std::vector<MeshPoint> points;
  if (sampler.empty()) return points;
  std::mt19937_64 rng(seed);
  points.reserve(count);
  for (std::size_t i = 0; i < count; ++i) points.push_back(sampler.sample(rng));
  return points;
}

}  // namespace leapnav::plan
