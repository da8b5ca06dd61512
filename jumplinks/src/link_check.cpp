// Soundness check of jump links against the original triangles (our addition to thesis §6.3 /
// §7.2): branch and bound over (land point u, arc fraction s) with the conservative enclosure of
// link_check.hpp. A triangle meets a cylinder exactly when, clipped to the cylinder's height slab,
// its xz distance to the axis (convex polygon distance) is below the radius. Triangles are binned
// on a 2-D grid; each link starts from those whose box meets its reach. Links are checked in
// parallel into per-link slots.
#include "leapnav/jumplinks/link_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "leapnav/core/geometry.hpp"
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

// Whether the triangle meets the cylinder with axis at (px, pz), radius, heights [y0, y1].
bool triangle_meets_cylinder(const std::array<P3, 3>& tri, double px, double pz, double radius,
                             double y0, double y1) {
  if (radius <= 0.0 || y1 <= y0) return false;
  std::array<P3, 8> a;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
  std::array<P3, 8> b;  // NOLINT(cppcoreguidelines-pro-type-member-init): written before read
  a[0] = tri[0];
  a[1] = tri[1];
  a[2] = tri[2];
  int n = 3;
  // note: a triangle inside the slab clips to itself (every vertex kept, none interpolated)
  const bool inside_slab = std::min({tri[0].y, tri[1].y, tri[2].y}) >= y0 &&
                           std::max({tri[0].y, tri[1].y, tri[2].y}) <= y1;
  if (!inside_slab) {
    n = clip_y(a, 3, y0, true, b);
    if (n == 0) return false;
    n = clip_y(b, n, y1, false, a);
    if (n == 0) return false;
  }
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
    const P3& u = a[static_cast<std::size_t>(k)];
    const P3& v = a[static_cast<std::size_t>((k + 1) % n)];
    if (segment_distance_2d(px, pz, u.x, u.z, v.x, v.z) < radius) return true;
  }
  return false;
}

// The largest delta in [lo, hi] for which the triangle meets the cylinder shrunk by delta (the
// triangle meets the cylinder shrunk by lo).
double penetration_depth(const std::array<P3, 3>& tri, double px, double pz, double feet,
                         double radius, double height, double lo) {
  double hi = std::max(lo, std::min(radius, 0.5 * height));
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

// Rounding slack of the enclosure (double arithmetic on float inputs) [m].
constexpr double kRounding = 1e-9;
// Deepest split before a box is declared failing unresolved (never reached on finite input: each
// split halves one side, and 2^-60 of a 10 km link is far below any resolution).
constexpr int kMaxDepth = 120;
// The plane bound's slack for rounding (plane coefficients and arc in double on float inputs) and
// the steepest triangle it is used for (slope = tan of the angle to the horizontal).
constexpr double kPlaneMargin = 1e-7;
constexpr double kPlaneMaxSlope = 100.0;
// The deepest penetration is found to within this (plus 2 resolution) [m].
constexpr double kDepthResolution = 1e-3;

// One link's continuum: start S, land segment A-B, apex height h.
struct Flight {
  P3 s;
  P3 a;
  P3 b;
  double h = 0.0;

  [[nodiscard]] double c(double u) const {
    const double dy = a.y + (b.y - a.y) * u - s.y;
    return 0.5 * (1.0 + std::sqrt(std::max(0.0, 1.0 - dy / h)));
  }
  [[nodiscard]] double x(double u, double f) const {
    return s.x + f * (a.x + (b.x - a.x) * u - s.x);
  }
  [[nodiscard]] double z(double u, double f) const {
    return s.z + f * (a.z + (b.z - a.z) * u - s.z);
  }
  [[nodiscard]] double feet(double u, double f) const {
    const double cf = c(u) * f;
    return s.y + 4.0 * h * (cf - cf * cf);
  }
};

struct Box {
  double u0 = 0.0;
  double u1 = 1.0;
  double s0 = 0.0;
  double s1 = 1.0;
};

// The enclosure of a box: centre axis position, radius of the axis positions around it, feet
// interval, and the extents along u and s used to choose the split.
struct Enclosure {
  double px = 0.0;
  double pz = 0.0;
  double rho = 0.0;
  double feet_c = 0.0;
  double y_lo = 0.0;
  double y_hi = 0.0;
  double extent_u = 0.0;
  double extent_s = 0.0;
};

Enclosure enclose(const Flight& f, const Box& b) {
  Enclosure e;
  const double uc = 0.5 * (b.u0 + b.u1);
  const double sc = 0.5 * (b.s0 + b.s1);
  e.px = f.x(uc, sc);
  e.pz = f.z(uc, sc);
  e.feet_c = f.feet(uc, sc);
  for (const double u : {b.u0, b.u1}) {
    for (const double s : {b.s0, b.s1}) {
      const double dx = f.x(u, s) - e.px;
      const double dz = f.z(u, s) - e.pz;
      e.rho = std::max(e.rho, std::sqrt(dx * dx + dz * dz));
    }
  }
  e.rho += kRounding;
  // note: c is monotone in u (dy is linear), x = c s is increasing in both, and x - x² is concave
  const double c0 = f.c(b.u0);
  const double c1 = f.c(b.u1);
  const double x_lo = std::min(c0, c1) * b.s0;
  const double x_hi = std::max(c0, c1) * b.s1;
  const auto g = [](double x) { return x - x * x; };
  double g_lo = std::min(g(x_lo), g(x_hi));
  double g_hi = std::max(g(x_lo), g(x_hi));
  if (x_lo < 0.5 && 0.5 < x_hi) g_hi = 0.25;
  e.y_lo = f.s.y + 4.0 * f.h * g_lo - kRounding;
  e.y_hi = f.s.y + 4.0 * f.h * g_hi + kRounding;
  const auto span = [&](double ua, double sa, double ub, double sb) {
    const double dx = f.x(ua, sa) - f.x(ub, sb);
    const double dz = f.z(ua, sa) - f.z(ub, sb);
    return std::sqrt(dx * dx + dz * dz) + std::abs(f.feet(ua, sa) - f.feet(ub, sb));
  };
  e.extent_u = std::max(span(b.u0, b.s1, b.u1, b.s1), span(b.u0, sc, b.u1, sc));
  e.extent_s =
      span(uc, b.s0, uc, b.s1) + (e.y_hi - e.y_lo) * (b.s0 < 0.5 && b.s1 > 0.5 ? 1.0 : 0.0);
  return e;
}

}  // namespace

struct LinkChecker::Impl {
  const TriangleMesh& mesh;
  const mesh::NavMesh& navmesh;
  AgentConfig agent;
  LinkCheckOptions options;
  TriangleGrid grid;
  std::vector<std::array<P3, 3>> tris;
  // per triangle: how far above the feet it starts to count (r tan(slope) for a walkable one,
  // else 0); negative for a triangle that is not walkable (no surface height from it)
  std::vector<double> lift;
  // per triangle: its bounding box in double (x0, x1, y0, y1, z0, z1)
  std::vector<std::array<double, 6>> bounds;
  // per triangle: its plane y = a x + b z + c and slope |(a, b)| (planes[t][3]); NaN for a
  // triangle steeper than kPlaneMaxSlope (no plane bound)
  std::vector<std::array<double, 4>> planes;

  // The branch and bound state of one link.
  struct Search {
    const Flight& flight;
    LinkChecker::Scratch& scratch;
    bool stop_first = true;
    double best = 0.0;  // deepest depth found (witness)
    bool found = false;
    bool unresolved = false;
    std::uint64_t regions = 0;
  };

  [[nodiscard]] bool meets(std::uint32_t t, double px, double pz, double radius, double y0,
                           double y1) const {
    // note: exact early-outs: a triangle entirely below or above the slab clips to nothing (the
    // clip keeps vertices at the level), and one whose box is further than radius from the axis
    // has no clipped point within radius (the margin 1e-6 m covers the clip's interpolation)
    const std::array<double, 6>& b = bounds[t];
    const double lo = y0 + std::max(0.0, lift[t]);
    if (b[3] < lo || b[2] > y1) return false;
    const double dx = std::max({b[0] - px, 0.0, px - b[1]});
    const double dz = std::max({b[4] - pz, 0.0, pz - b[5]});
    const double reach = radius + 1e-6;
    if (dx * dx + dz * dz > reach * reach) return false;
    return triangle_meets_cylinder(tris[t], px, pz, radius, lo, y1);
  }

  // The plane bound (link_check.hpp, LinkCheckOptions::plane_bound). For a triangle with plane
  // y = a x + b z + c, g(u, s) = plane(P(u, s)) - feet(u, s) = A + s k(u) + 4h (c(u)² s² - c(u) s)
  // with A = plane(S) - S.y and k(u) = (a, b) . (L(u) - S) linear in u. For fixed u, g is convex
  // in s, so its maximum over the box is at s0 or s1; for fixed s, s k(u) is largest at u0 or u1
  // and 4h (c² s² - c s) is convex in c, so largest at c(u0) or c(u1) (c is monotone in u): the
  // sum of those maxima bounds g at s; at s = 1, g(u, 1) = plane(L(u)) - L(u).y is linear in u.
  // A point q of the triangle within r - theta of the axis has q.y <= plane(P) + (r - theta)
  // slope, so when g < theta + lift - (r - theta) slope over the whole box the cylinder shrunk by
  // theta (bottom at feet + theta + lift) misses the triangle everywhere in the box.
  struct BoxArc {
    double s0 = 0.0;
    double s1 = 0.0;
    std::array<double, 2> lx{};  // L(u0), L(u1) in x, z, y
    std::array<double, 2> lz{};
    std::array<double, 2> ly{};
    std::array<double, 2> c{};
  };
  static BoxArc box_arc(const Flight& f, const Box& b) {
    BoxArc arc;
    arc.s0 = b.s0;
    arc.s1 = b.s1;
    for (std::size_t i = 0; i < 2; ++i) {
      const double u = i == 0 ? b.u0 : b.u1;
      arc.lx[i] = f.a.x + (f.b.x - f.a.x) * u;
      arc.lz[i] = f.a.z + (f.b.z - f.a.z) * u;
      arc.ly[i] = f.a.y + (f.b.y - f.a.y) * u;
      arc.c[i] = f.c(u);
    }
    return arc;
  }
  [[nodiscard]] bool below_feet(std::uint32_t t, const Flight& f, const BoxArc& arc,
                                double theta) const {
    const std::array<double, 4>& pl = planes[t];
    if (std::isnan(pl[3])) return false;
    const double limit =
        theta + std::max(0.0, lift[t]) - (agent.radius - theta) * pl[3] - kPlaneMargin;
    const double start = pl[0] * f.s.x + pl[1] * f.s.z + pl[2];
    double worst = -std::numeric_limits<double>::infinity();
    for (const double s : {arc.s0, arc.s1}) {
      double g = 0.0;
      if (s == 1.0) {
        g = std::max(pl[0] * arc.lx[0] + pl[1] * arc.lz[0] + pl[2] - arc.ly[0],
                     pl[0] * arc.lx[1] + pl[1] * arc.lz[1] + pl[2] - arc.ly[1]);
      } else {
        const double k0 = pl[0] * (arc.lx[0] - f.s.x) + pl[1] * (arc.lz[0] - f.s.z);
        const double k1 = pl[0] * (arc.lx[1] - f.s.x) + pl[1] * (arc.lz[1] - f.s.z);
        const auto q = [&](double c) { return 4.0 * f.h * (c * c * s * s - c * s); };
        g = start - f.s.y + s * std::max(k0, k1) + std::max(q(arc.c[0]), q(arc.c[1]));
      }
      worst = std::max(worst, g);
    }
    return worst < limit;
  }

  // Explores box b with the candidate triangles scratch.candidates[begin, end).
  void explore(Search& search, const Box& b, std::size_t begin, std::size_t end, int depth) const {
    ++search.regions;
    const Enclosure e = enclose(search.flight, b);
    const double r = agent.radius;
    const double height = agent.height;
    // note: the maximisation only looks for depths beyond the best by kDepthResolution, and stops
    // once the depth reaches its cap (the whole shrunk cylinder inside the geometry)
    const double cap = std::min<double>(agent.radius, 0.5 * agent.height);
    if (!search.stop_first && search.best >= cap) return;
    const double theta = search.stop_first
                             ? options.tolerance
                             : std::max<double>(options.tolerance, search.best + kDepthResolution);
    std::vector<std::uint32_t>& cand = search.scratch.candidates;
    const std::size_t mine = cand.size();
    const BoxArc arc = options.plane_bound ? box_arc(search.flight, b) : BoxArc{};
    for (std::size_t k = begin; k < end; ++k) {
      const std::uint32_t t = cand[k];
      if (meets(t, e.px, e.pz, r - theta + e.rho, e.y_lo + theta, e.y_hi + height - theta) &&
          !(options.plane_bound && below_feet(t, search.flight, arc, theta)))
        cand.push_back(t);
    }
    const std::size_t mine_end = cand.size();
    if (mine == mine_end) return;
    for (std::size_t k = mine; k < mine_end; ++k) {
      const std::uint32_t t = cand[k];
      if (meets(t, e.px, e.pz, r - theta, e.feet_c + theta, e.feet_c + height - theta)) {
        search.found = true;
        const double foot = std::max(0.0, lift[t]);
        search.best = std::max(search.best, penetration_depth(tris[t], e.px, e.pz, e.feet_c + foot,
                                                              r, height - foot, theta));
        if (search.stop_first) {
          cand.resize(mine);
          return;
        }
      }
    }
    const double res = options.resolution;
    if ((e.rho <= res && e.y_hi - e.y_lo <= res) || depth >= kMaxDepth) {
      // note: an undecided smallest box penetrates at most theta + 2 resolution anywhere
      if (depth >= kMaxDepth) search.unresolved = true;
      cand.resize(mine);
      return;
    }
    Box lo = b;
    Box hi = b;
    if (e.extent_u > e.extent_s) {
      lo.u1 = hi.u0 = 0.5 * (b.u0 + b.u1);
    } else {
      lo.s1 = hi.s0 = 0.5 * (b.s0 + b.s1);
    }
    explore(search, lo, mine, mine_end, depth + 1);
    if (search.found && search.stop_first) {
      cand.resize(mine);
      return;
    }
    explore(search, hi, mine, mine_end, depth + 1);
    cand.resize(mine);
  }
};

LinkChecker::LinkChecker(const TriangleMesh& triangles, const mesh::NavMesh& navmesh,
                         const AgentConfig& agent, const LinkCheckOptions& options)
    : impl_(std::make_unique<Impl>(
          Impl{triangles, navmesh, agent, options, bin_triangles(triangles), {}, {}, {}, {}})) {
  impl_->tris.reserve(triangles.triangles.size());
  impl_->lift.reserve(triangles.triangles.size());
  impl_->bounds.reserve(triangles.triangles.size());
  impl_->planes.reserve(triangles.triangles.size());
  const double slope_cos =
      std::cos(static_cast<double>(agent.max_slope_deg) * std::numbers::pi / 180.0);
  for (const auto& tri : triangles.triangles) {
    const std::array<P3, 3> t{to_p3(triangles.vertices[tri[0]]), to_p3(triangles.vertices[tri[1]]),
                              to_p3(triangles.vertices[tri[2]])};
    impl_->tris.push_back(t);
    impl_->bounds.push_back({std::min({t[0].x, t[1].x, t[2].x}), std::max({t[0].x, t[1].x, t[2].x}),
                             std::min({t[0].y, t[1].y, t[2].y}), std::max({t[0].y, t[1].y, t[2].y}),
                             std::min({t[0].z, t[1].z, t[2].z}),
                             std::max({t[0].z, t[1].z, t[2].z})});
    // note: the same normal and walkable test as voxel/walkable.cpp
    const double e0x = t[1].x - t[0].x, e0y = t[1].y - t[0].y, e0z = t[1].z - t[0].z;
    const double e1x = t[2].x - t[0].x, e1y = t[2].y - t[0].y, e1z = t[2].z - t[0].z;
    const double nx = e0y * e1z - e0z * e1y;
    const double ny = e0z * e1x - e0x * e1z;
    const double nz = e0x * e1y - e0y * e1x;
    const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
    double lift = -1.0;
    if (std::isfinite(len) && len > 0.0 && ny / len >= slope_cos) {
      const double cos = ny / len;
      lift = agent.radius * std::sqrt(std::max(0.0, 1.0 - cos * cos)) / cos;
    }
    impl_->lift.push_back(lift);
    std::array<double, 4> plane{0.0, 0.0, 0.0, std::numeric_limits<double>::quiet_NaN()};
    if (std::isfinite(len) && len > 0.0 && std::abs(ny) * kPlaneMaxSlope > len) {
      plane[0] = -nx / ny;
      plane[1] = -nz / ny;
      plane[2] = t[0].y - plane[0] * t[0].x - plane[1] * t[0].z;
      plane[3] = std::hypot(plane[0], plane[1]);
    }
    impl_->planes.push_back(plane);
  }
}

LinkChecker::~LinkChecker() = default;

LinkVerdict LinkChecker::check(const JumpLink& link, const JumpConfig& config, bool want_depth,
                               Scratch& scratch) const {
  const Impl& im = *impl_;
  const mesh::NavMesh& navmesh = im.navmesh;
  LinkVerdict verdict;
  if (link.land_poly >= navmesh.polygon_count()) {
    verdict.landing = true;
    return verdict;
  }
  // landing: both ends (hence, the polygon being convex and heights linear, the whole segment)
  // on the land polygon, below the apex, within max_fall of it; the segment away from the start
  const double slack =
      std::max<double>(navmesh.grid.cell_height, navmesh.config.poly.detail_max_error) +
      navmesh.grid.cell_height;
  const double h = config.height;
  for (const Vec3 land : {link.land_a, link.land_b}) {
    const double floor = mesh::height_at(navmesh, mesh::PolyId{link.land_poly}, land.x, land.z);
    const bool on_poly = inside_polygon(navmesh, link.land_poly, land.x, land.z, 1e-3) &&
                         std::abs(floor - land.y) <= slack + 1e-4;
    const double dy = static_cast<double>(land.y) - link.start.y;
    if (!on_poly || h - dy > config.max_fall + 1e-4 || dy >= h) verdict.landing = true;
  }
  {
    const double sx = static_cast<double>(link.start.x);
    const double sz = static_cast<double>(link.start.z);
    const P3 a = to_p3(link.land_a);
    const P3 b = to_p3(link.land_b);
    const double ex = b.x - a.x;
    const double ez = b.z - a.z;
    const double len2 = ex * ex + ez * ez;
    const double t =
        len2 > 0.0 ? std::clamp(((sx - a.x) * ex + (sz - a.z) * ez) / len2, 0.0, 1.0) : 0.0;
    const double dx = a.x + ex * t - sx;
    const double dz = a.z + ez * t - sz;
    if (dx * dx + dz * dz < 1e-8) verdict.landing = true;
  }
  if (verdict.landing) return verdict;

  const Flight flight{to_p3(link.start), to_p3(link.land_a), to_p3(link.land_b), h};
  // candidate triangles: boxes meeting the link's reach (grown by the radius) and feet range
  const Enclosure root = enclose(flight, Box{});
  const double r = im.agent.radius;
  AABB reach;
  for (const Vec3 p : {link.start, link.land_a, link.land_b}) reach.extend(p);
  reach.min.x -= static_cast<float>(r) + 1e-3F;
  reach.min.z -= static_cast<float>(r) + 1e-3F;
  reach.max.x += static_cast<float>(r) + 1e-3F;
  reach.max.z += static_cast<float>(r) + 1e-3F;
  const double y_lo = root.y_lo;
  const double y_hi = root.y_hi + im.agent.height;
  if (scratch.stamp.size() != im.tris.size()) {
    scratch.stamp.assign(im.tris.size(), 0);
    scratch.generation = 0;
  }
  ++scratch.generation;
  scratch.candidates.clear();
  int ax = 0, az = 0, bx = 0, bz = 0;
  im.grid.cells(reach, ax, az, bx, bz);
  for (int z = az; z <= bz; ++z) {
    for (int x = ax; x <= bx; ++x) {
      const auto bin = static_cast<std::size_t>(x) +
                       static_cast<std::size_t>(z) * static_cast<std::size_t>(im.grid.nx);
      for (std::uint32_t k = im.grid.first[bin]; k < im.grid.first[bin + 1]; ++k) {
        const std::uint32_t t = im.grid.items[k];
        if (scratch.stamp[t] == scratch.generation) continue;
        scratch.stamp[t] = scratch.generation;
        const AABB& box = im.grid.boxes[t];
        if (box.max.x < reach.min.x || box.min.x > reach.max.x || box.max.z < reach.min.z ||
            box.min.z > reach.max.z || box.max.y < y_lo || box.min.y > y_hi)
          continue;
        scratch.candidates.push_back(t);
      }
    }
  }
  // note: ascending triangle order, whatever the bins, so the search (and its count) is fixed
  std::sort(scratch.candidates.begin(), scratch.candidates.end());
  Impl::Search search{flight, scratch};
  im.explore(search, Box{}, 0, scratch.candidates.size(), 0);
  verdict.regions = search.regions;
  if (search.found || search.unresolved) {
    verdict.collision = true;
    verdict.depth = search.best;
    if (want_depth && search.found) {
      // note: the first search left the root's candidate list as it was given
      Impl::Search deepest{flight, scratch};
      deepest.stop_first = false;
      deepest.best = search.best;
      im.explore(deepest, Box{}, 0, scratch.candidates.size(), 0);
      verdict.regions += deepest.regions;
      verdict.depth = deepest.best;
    }
  }
  return verdict;
}

bool LinkChecker::standing_fails(Vec3 feet) const {
  const Impl& im = *impl_;
  // note: at the smallest box around the pose (u, s) the centre cylinder is within resolution of
  // the pose in xz and in feet height, so a triangle the pose's cylinder meets shrunk by
  // tolerance + 2 resolution is met by the centre's cylinder shrunk by tolerance (the witness
  // test); 1e-6 m covers the double rounding (below 1e-9 m, link_check.hpp)
  const double depth = double{im.options.tolerance} + 2.0 * double{im.options.resolution} + 1e-6;
  const double r = im.agent.radius;
  const double radius = r - depth;
  if (radius <= 0.0 || im.grid.first.size() < 2) return false;
  AABB box;
  box.extend(feet);
  box.min.x -= static_cast<float>(r) + 1e-3F;
  box.min.z -= static_cast<float>(r) + 1e-3F;
  box.max.x += static_cast<float>(r) + 1e-3F;
  box.max.z += static_cast<float>(r) + 1e-3F;
  const double y0 = static_cast<double>(feet.y) + depth;
  const double y1 = static_cast<double>(feet.y) + im.agent.height - depth;
  int ax = 0, az = 0, bx = 0, bz = 0;
  im.grid.cells(box, ax, az, bx, bz);
  for (int cz = az; cz <= bz; ++cz) {
    for (int cx = ax; cx <= bx; ++cx) {
      const auto bin = static_cast<std::size_t>(cx) +
                       static_cast<std::size_t>(cz) * static_cast<std::size_t>(im.grid.nx);
      for (std::uint32_t k = im.grid.first[bin]; k < im.grid.first[bin + 1]; ++k) {
        const std::uint32_t t = im.grid.items[k];
        const AABB& tb = im.grid.boxes[t];
        if (tb.max.x < box.min.x || tb.min.x > box.max.x || tb.max.z < box.min.z ||
            tb.min.z > box.max.z || tb.max.y < y0 || tb.min.y > y1)
          continue;
        if (im.meets(t, feet.x, feet.z, radius, y0, y1)) return true;
      }
    }
  }
  return false;
}

double LinkChecker::surface_height(double x, double z, double y_lo, double y_hi) const {
  const Impl& im = *impl_;
  double best = std::numeric_limits<double>::quiet_NaN();
  if (im.grid.first.size() < 2 || im.tris.empty()) return best;
  AABB point;
  point.extend(Vec3{static_cast<float>(x), 0.0F, static_cast<float>(z)});
  int ax = 0, az = 0, bx = 0, bz = 0;
  im.grid.cells(point, ax, az, bx, bz);
  constexpr double kEdge = 1e-9;
  for (int cz = az; cz <= bz; ++cz) {
    for (int cx = ax; cx <= bx; ++cx) {
      const auto bin = static_cast<std::size_t>(cx) +
                       static_cast<std::size_t>(cz) * static_cast<std::size_t>(im.grid.nx);
      for (std::uint32_t k = im.grid.first[bin]; k < im.grid.first[bin + 1]; ++k) {
        if (im.lift[im.grid.items[k]] < 0.0) continue;
        const std::array<P3, 3>& t = im.tris[im.grid.items[k]];
        const double area =
            (t[1].x - t[0].x) * (t[2].z - t[0].z) - (t[2].x - t[0].x) * (t[1].z - t[0].z);
        if (std::abs(area) < 1e-12) continue;
        const double w0 = ((t[1].x - x) * (t[2].z - z) - (t[2].x - x) * (t[1].z - z)) / area;
        const double w1 = ((t[2].x - x) * (t[0].z - z) - (t[0].x - x) * (t[2].z - z)) / area;
        const double w2 = 1.0 - w0 - w1;
        if (w0 < -kEdge || w1 < -kEdge || w2 < -kEdge) continue;
        const double y = w0 * t[0].y + w1 * t[1].y + w2 * t[2].y;
        if (y < y_lo || y > y_hi) continue;
        if (!(y <= best)) best = y;
      }
    }
  }
  return best;
}

LinkCheckReport check_links(const JumpLinkSet& links, const TriangleMesh& triangles,
                            const mesh::NavMesh& navmesh, const AgentConfig& agent,
                            const LinkCheckOptions& options) {
  LinkCheckReport report;
  const LinkChecker checker(triangles, navmesh, agent, options);
  std::vector<LinkVerdict> verdicts(links.links.size());
  constexpr std::size_t kGrain = 16;
  parallel_for(options.threads, 0, links.links.size(), kGrain, [&](std::size_t b, std::size_t e) {
    LinkChecker::Scratch scratch;
    for (std::size_t k = b; k < e; ++k) {
      const JumpLink& link = links.links[k];
      if (link.config >= links.configs.size()) {
        verdicts[k].landing = true;
        continue;
      }
      verdicts[k] = checker.check(link, links.configs[link.config], true, scratch);
    }
  });
  for (std::size_t k = 0; k < verdicts.size(); ++k) {
    const LinkVerdict& v = verdicts[k];
    ++report.links_checked;
    report.regions_examined += v.regions;
    if (v.collision) ++report.collision_failures;
    if (v.landing) ++report.landing_failures;
    if (v.failed()) {
      ++report.links_failed;
      report.failed_links.push_back(static_cast<std::uint32_t>(k));
    }
    report.worst_penetration = std::max(report.worst_penetration, static_cast<float>(v.depth));
  }
  return report;
}

}  // namespace leapnav::jump
