// Soundness check of jump links against the original triangles (our addition to thesis §6.3 /
// §7.2). Per land point: fit d' keeping h, sweep the cylinder along the arc at feet positions at
// most sample_spacing apart, and test each nearby triangle exactly at each position: clip it to
// the cylinder's height slab, then the xz distance from the axis to the clipped convex polygon.
// Triangles are binned on a 2-D grid; each arc only visits triangles whose box, grown by the
// radius, meets the arc's t-range. Links are checked in parallel into per-link slots.
#include "leapnav/jumplinks/link_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "leapnav/core/parallel.hpp"
#include "leapnav/jumplinks/trajectory.hpp"

namespace leapnav::jump {

namespace {

struct P3 {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
};

P3 to_p3(Vec3 v) {
  return {v.x, v.y, v.z};
}

// Clips a convex polygon to y >= lo (keep_above) or y <= hi.
int clip_y(const std::array<P3, 8>& in, int n, double level, bool keep_above,
           std::array<P3, 8>& out) {
  int m = 0;
  for (int k = 0; k < n; ++k) {
    const P3& a = in[static_cast<std::size_t>(k)];
    const P3& b = in[static_cast<std::size_t>((k + 1) % n)];
    const double da = keep_above ? a.y - level : level - a.y;
    const double db = keep_above ? b.y - level : level - b.y;
    if (da >= 0.0) out[static_cast<std::size_t>(m++)] = a;
    if ((da >= 0.0) != (db >= 0.0)) {
      const double t = da / (da - db);
      out[static_cast<std::size_t>(m++)] = {a.x + (b.x - a.x) * t, level, a.z + (b.z - a.z) * t};
    }
  }
  return m;
}

double segment_distance(double px, double pz, const P3& a, const P3& b) {
  const double ex = b.x - a.x;
  const double ez = b.z - a.z;
  const double len2 = ex * ex + ez * ez;
  double t = 0.0;
  if (len2 > 0.0) t = std::clamp(((px - a.x) * ex + (pz - a.z) * ez) / len2, 0.0, 1.0);
  const double dx = a.x + ex * t - px;
  const double dz = a.z + ez * t - pz;
  return std::sqrt(dx * dx + dz * dz);
}

// Whether the triangle meets the cylinder with axis at (px, pz), radius, heights [y0, y1].
bool triangle_meets_cylinder(const std::array<P3, 3>& tri, double px, double pz, double radius,
                             double y0, double y1) {
  if (radius <= 0.0 || y1 <= y0) return false;
  std::array<P3, 8> a{};
  std::array<P3, 8> b{};
  a[0] = tri[0];
  a[1] = tri[1];
  a[2] = tri[2];
  int n = clip_y(a, 3, y0, true, b);
  if (n == 0) return false;
  n = clip_y(b, n, y1, false, a);
  if (n == 0) return false;
  double area = 0.0;
  for (int k = 0; k < n; ++k) {
    const P3& u = a[static_cast<std::size_t>(k)];
    const P3& v = a[static_cast<std::size_t>((k + 1) % n)];
    area += u.x * v.z - v.x * u.z;
  }
  if (std::abs(area) > 1e-12) {
    bool inside = true;
    for (int k = 0; k < n && inside; ++k) {
      const P3& u = a[static_cast<std::size_t>(k)];
      const P3& v = a[static_cast<std::size_t>((k + 1) % n)];
      const double c = (v.x - u.x) * (pz - u.z) - (v.z - u.z) * (px - u.x);
      if (c * area < 0.0) inside = false;
    }
    if (inside) return true;
  }
  for (int k = 0; k < n; ++k) {
    if (segment_distance(px, pz, a[static_cast<std::size_t>(k)],
                         a[static_cast<std::size_t>((k + 1) % n)]) < radius)
      return true;
  }
  return false;
}

// The largest delta in [lo, hi] for which the triangle meets the cylinder shrunk by delta.
double penetration_depth(const std::array<P3, 3>& tri, double px, double pz, double feet,
                         double radius, double height, double lo) {
  double hi = std::min(radius, 0.5 * height);
  for (int k = 0; k < 30; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (triangle_meets_cylinder(tri, px, pz, radius - mid, feet + mid, feet + height - mid))
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

struct TriangleGrid {
  double x0 = 0.0;
  double z0 = 0.0;
  double bin = 1.0;
  int nx = 1;
  int nz = 1;
  std::vector<std::uint32_t> first;
  std::vector<std::uint32_t> items;
  std::vector<AABB> boxes;

  void cells(const AABB& box, int& ax, int& az, int& bx, int& bz) const {
    ax = std::clamp(static_cast<int>(std::floor((box.min.x - x0) / bin)), 0, nx - 1);
    az = std::clamp(static_cast<int>(std::floor((box.min.z - z0) / bin)), 0, nz - 1);
    bx = std::clamp(static_cast<int>(std::floor((box.max.x - x0) / bin)), 0, nx - 1);
    bz = std::clamp(static_cast<int>(std::floor((box.max.z - z0) / bin)), 0, nz - 1);
  }
};

TriangleGrid bin_triangles(const TriangleMesh& mesh) {
  TriangleGrid grid;
  const AABB bounds = mesh.bounds();
  grid.boxes.resize(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (const std::uint32_t v : mesh.triangles[t]) grid.boxes[t].extend(mesh.vertices[v]);
  if (bounds.empty()) {
    grid.first.assign(2, 0);
    return grid;
  }
  grid.bin = 2.0;
  grid.x0 = bounds.min.x;
  grid.z0 = bounds.min.z;
  grid.nx = std::max(1, static_cast<int>(std::ceil((bounds.max.x - bounds.min.x) / grid.bin)) + 1);
  grid.nz = std::max(1, static_cast<int>(std::ceil((bounds.max.z - bounds.min.z) / grid.bin)) + 1);
  const auto bins = static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.nz);
  std::vector<std::uint32_t> counts(bins + 1, 0);
  for (const AABB& box : grid.boxes) {
    int ax = 0, az = 0, bx = 0, bz = 0;
    grid.cells(box, ax, az, bx, bz);
    for (int z = az; z <= bz; ++z)
      for (int x = ax; x <= bx; ++x) ++counts[static_cast<std::size_t>(x + z * grid.nx) + 1];
  }
  for (std::size_t b = 0; b < bins; ++b) counts[b + 1] += counts[b];
  grid.first = counts;
  grid.items.resize(counts[bins]);
  for (std::size_t t = 0; t < grid.boxes.size(); ++t) {
    int ax = 0, az = 0, bx = 0, bz = 0;
    grid.cells(grid.boxes[t], ax, az, bx, bz);
    for (int z = az; z <= bz; ++z)
      for (int x = ax; x <= bx; ++x)
        grid.items[counts[static_cast<std::size_t>(x) +
                          static_cast<std::size_t>(z) * static_cast<std::size_t>(grid.nx)]++] =
            static_cast<std::uint32_t>(t);
  }
  return grid;
}

bool inside_polygon(const mesh::NavMesh& navmesh, std::uint32_t poly, double px, double pz,
                    double tolerance) {
  const std::uint32_t begin = navmesh.poly_first[poly];
  const std::uint32_t count = navmesh.poly_first[poly + 1] - begin;
  for (std::uint32_t k = 0; k < count; ++k) {
    const Vec3 a = navmesh.vertices[navmesh.poly_vertices[begin + k]];
    const Vec3 b = navmesh.vertices[navmesh.poly_vertices[begin + (k + 1) % count]];
    const double ex = static_cast<double>(b.x) - a.x;
    const double ez = static_cast<double>(b.z) - a.z;
    const double len = std::sqrt(ex * ex + ez * ez);
    if (len == 0.0) continue;
    if ((ex * (pz - a.z) - ez * (px - a.x)) / len < -tolerance) return false;
  }
  return true;
}

struct LinkOutcome {
  bool collision = false;
  bool landing = false;
  double depth = 0.0;
  std::uint32_t trajectories = 0;
};

class Checker {
 public:
  Checker(const TriangleMesh& mesh, const TriangleGrid& grid, const AgentConfig& agent,
          const LinkCheckOptions& options)
      : mesh_(mesh),
        grid_(grid),
        agent_(agent),
        options_(options),
        stamp_(mesh.triangles.size(), 0) {}

  // Sweeps the cylinder along the arc from start to land; returns the deepest penetration found
  // beyond the tolerance (0 when none).
  double sweep(Vec3 start, Vec3 land, double h, double d) {
    const double sx = start.x;
    const double sz = start.z;
    const double ux0 = static_cast<double>(land.x) - sx;
    const double uz0 = static_cast<double>(land.z) - sz;
    const double along = std::sqrt(ux0 * ux0 + uz0 * uz0);
    const double ux = ux0 / along;
    const double uz = uz0 / along;
    const double r = agent_.radius;
    const double height = agent_.height;
    const double tol = options_.tolerance;
    const double slope0 = std::abs(4.0 * h / d);
    const double slope1 = std::abs(4.0 * h / (d * d) * (d - 2.0 * along));
    const double dt = options_.sample_spacing /
                      std::sqrt(1.0 + std::max(slope0, slope1) * std::max(slope0, slope1));

    AABB reach;
    reach.extend(Vec3{static_cast<float>(std::min<double>(sx, land.x) - r), 0.0F,
                      static_cast<float>(std::min<double>(sz, land.z) - r)});
    reach.extend(Vec3{static_cast<float>(std::max<double>(sx, land.x) + r), 0.0F,
                      static_cast<float>(std::max<double>(sz, land.z) + r)});
    int ax = 0, az = 0, bx = 0, bz = 0;
    grid_.cells(reach, ax, az, bx, bz);
    ++generation_;
    double worst = 0.0;
    for (int z = az; z <= bz; ++z) {
      for (int x = ax; x <= bx; ++x) {
        const auto bin = static_cast<std::size_t>(x) +
                         static_cast<std::size_t>(z) * static_cast<std::size_t>(grid_.nx);
        for (std::uint32_t k = grid_.first[bin]; k < grid_.first[bin + 1]; ++k) {
          const std::uint32_t t = grid_.items[k];
          if (stamp_[t] == generation_) continue;
          stamp_[t] = generation_;
          const AABB& box = grid_.boxes[t];
          // t-range where the axis is within r of the triangle's box in xz
          const TInterval span = ray_square_interval(ux, uz, box.min.x - r - sx, box.max.x + r - sx,
                                                     box.min.z - r - sz, box.max.z + r - sz);
          const double t0 = std::max(0.0, span.t0);
          const double t1 = std::min(along, span.t1);
          if (span.empty() || t0 > t1) continue;
          const HeightRange ys = arc_range(h, d, t0, t1);
          if (start.y + ys.high + height <= box.min.y || start.y + ys.low >= box.max.y) continue;
          const std::array<P3, 3> tri{to_p3(mesh_.vertices[mesh_.triangles[t][0]]),
                                      to_p3(mesh_.vertices[mesh_.triangles[t][1]]),
                                      to_p3(mesh_.vertices[mesh_.triangles[t][2]])};
          const auto steps = static_cast<int>(std::ceil((t1 - t0) / dt));
          for (int s = 0; s <= steps; ++s) {
            const double tt = steps == 0 ? t0 : t0 + (t1 - t0) * s / steps;
            const double px = sx + ux * tt;
            const double pz = sz + uz * tt;
            const double feet = start.y + arc_height(h, d, tt);
            if (triangle_meets_cylinder(tri, px, pz, r - tol, feet + tol, feet + height - tol))
              worst = std::max(worst, penetration_depth(tri, px, pz, feet, r, height, tol));
          }
        }
      }
    }
    return worst;
  }

 private:
  const TriangleMesh& mesh_;
  const TriangleGrid& grid_;
  const AgentConfig& agent_;
  const LinkCheckOptions& options_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t generation_ = 0;
};

}  // namespace

LinkCheckReport check_links(const JumpLinkSet& links, const TriangleMesh& triangles,
                            const mesh::NavMesh& navmesh, const AgentConfig& agent,
                            const LinkCheckOptions& options) {
  LinkCheckReport report;
  const TriangleGrid grid = bin_triangles(triangles);
  std::vector<LinkOutcome> outcomes(links.links.size());
  const double slack =
      std::max<double>(navmesh.grid.cell_height, navmesh.config.poly.detail_max_error) +
      navmesh.grid.cell_height;
  constexpr std::size_t kGrain = 16;
  parallel_for(options.threads, 0, links.links.size(), kGrain, [&](std::size_t b, std::size_t e) {
    Checker checker(triangles, grid, agent, options);
    for (std::size_t k = b; k < e; ++k) {
      const JumpLink& link = links.links[k];
      LinkOutcome& out = outcomes[k];
      if (link.config >= links.configs.size() || link.land_poly >= navmesh.polygon_count()) {
        out.landing = true;
        continue;
      }
      const JumpConfig& config = links.configs[link.config];
      const double seg = distance(link.land_a, link.land_b);
      const int pieces = std::max(1, static_cast<int>(std::ceil(seg / options.segment_spacing)));
      for (int s = 0; s <= pieces; ++s) {
        const float f = static_cast<float>(s) / static_cast<float>(pieces);
        const Vec3 land = link.land_a + (link.land_b - link.land_a) * f;
        ++out.trajectories;
        // landing: on the land polygon's floor, not deeper than max_fall below the apex
        const double floor = mesh::height_at(navmesh, mesh::PolyId{link.land_poly}, land.x, land.z);
        const bool on_poly = inside_polygon(navmesh, link.land_poly, land.x, land.z, 1e-3) &&
                             std::abs(floor - land.y) <= slack + 1e-4;
        const double fall = static_cast<double>(link.start.y) + config.height - land.y;
        const double d = fit_distance(config.height, link.start, land);
        if (!on_poly || fall > config.max_fall + 1e-4 || d <= 0.0) {
          out.landing = true;
          continue;
        }
        const double depth = checker.sweep(link.start, land, config.height, d);
        if (depth > 0.0) {
          out.collision = true;
          out.depth = std::max(out.depth, depth);
        }
      }
    }
  });
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const LinkOutcome& o = outcomes[k];
    ++report.links_checked;
    report.trajectories_checked += o.trajectories;
    if (o.collision) ++report.collision_failures;
    if (o.landing) ++report.landing_failures;
    if (o.collision || o.landing) {
      ++report.links_failed;
      report.failed_links.push_back(static_cast<std::uint32_t>(k));
    }
    report.worst_penetration = std::max(report.worst_penetration, static_cast<float>(o.depth));
  }
  return report;
}

}  // namespace leapnav::jump
