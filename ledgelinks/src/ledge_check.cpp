// The conservative ledge-link check (ledge_check.hpp): triangles binned in an xz grid, each
// candidate clipped to the prism's height range and its xz distance to the prism's convex base
// (a segment or a quadrilateral) compared with the radius.
#include "leapnav/ledgelinks/ledge_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace leapnav::ledge {
namespace {

struct P2 {
  double x = 0.0;
  double z = 0.0;
};
struct P3 {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
};

double cross2(P2 o, P2 a, P2 b) {
  return (a.x - o.x) * (b.z - o.z) - (a.z - o.z) * (b.x - o.x);
}

double point_segment(P2 p, P2 a, P2 b) {
  return segment_distance_2d(p.x, p.z, a.x, a.z, b.x, b.z);
}

bool segments_cross(P2 a, P2 b, P2 c, P2 d) {
  const double d1 = cross2(a, b, c);
  const double d2 = cross2(a, b, d);
  const double d3 = cross2(c, d, a);
  const double d4 = cross2(c, d, b);
  return ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) &&
         ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0));
}

double segment_segment(P2 a, P2 b, P2 c, P2 d) {
  if (segments_cross(a, b, c, d)) return 0.0;
  return std::min({point_segment(a, c, d), point_segment(b, c, d), point_segment(c, a, b),
                   point_segment(d, a, b)});
}

/// Whether p lies in the convex polygon (either winding; false for a degenerate one).
bool inside(P2 p, const P2* poly, std::size_t n) {
  if (n < 3) return false;
  bool pos = false;
  bool neg = false;
  double area = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const P2 a = poly[i];
    const P2 b = poly[(i + 1) % n];
    area += cross2(poly[0], a, b);
    const double c = cross2(a, b, p);
    pos = pos || c > 0.0;
    neg = neg || c < 0.0;
  }
  return area != 0.0 && !(pos && neg);
}

/// Distance in xz between two convex polygons (each 1..8 points; 0 when they overlap).
double polygon_distance(const P2* a, std::size_t na, const P2* b, std::size_t nb) {
  if (na == 0 || nb == 0) return std::numeric_limits<double>::infinity();
  if (inside(a[0], b, nb) || inside(b[0], a, na)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < na; ++i) {
    const P2 a0 = a[i];
    const P2 a1 = a[na == 1 ? i : (i + 1) % na];
    for (std::size_t j = 0; j < nb; ++j) {
      const P2 b0 = b[j];
      const P2 b1 = b[nb == 1 ? j : (j + 1) % nb];
      best = std::min(best, segment_segment(a0, a1, b0, b1));
      if (best == 0.0) return 0.0;
    }
  }
  return best;
}

/// Clips the triangle to lo <= y <= hi; out gets the xz of the clipped polygon (0..5 points).
std::size_t clip_to_slab(const std::array<P3, 3>& tri, double lo, double hi,
                         std::array<P2, 8>& out) {
  std::array<P3, 8> a{};
  std::array<P3, 8> b{};
  std::size_t n = 3;
  for (std::size_t i = 0; i < 3; ++i) a[i] = tri[i];
  const auto clip = [](const std::array<P3, 8>& in, std::size_t count, std::array<P3, 8>& res,
                       double level, bool keep_above) {
    std::size_t m = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const P3 p = in[i];
      const P3 q = in[(i + 1) % count];
      const double dp = keep_above ? p.y - level : level - p.y;
      const double dq = keep_above ? q.y - level : level - q.y;
      if (dp >= 0.0) res[m++] = p;
      if ((dp >= 0.0) != (dq >= 0.0)) {
        const double t = dp / (dp - dq);
        res[m++] = {p.x + t * (q.x - p.x), level, p.z + t * (q.z - p.z)};
      }
      if (m >= 7) break;
    }
    return m;
  };
  n = clip(a, n, b, lo, true);
  if (n == 0) return 0;
  n = clip(b, n, a, hi, false);
  for (std::size_t i = 0; i < n; ++i) out[i] = {a[i].x, a[i].z};
  return n;
}

}  // namespace

struct LedgeChecker::Impl {
  std::vector<std::array<P3, 3>> triangles;
  std::vector<double> walkable_tan;  ///< tan(slope) of walkable triangles, -1 for the others
  double min_x = 0.0;
  double min_z = 0.0;
  double cell = 1.0;
  std::int64_t nx = 0;
  std::int64_t nz = 0;
  std::vector<std::uint32_t> cell_first;
  std::vector<std::uint32_t> cell_items;
  double radius = 0.0;
  double height = 0.0;
  double clearance = 0.0;
  double tolerance = 0.0;

  template <class F>
  void for_cells(double x0, double z0, double x1, double z1, F&& f) const {
    if (nx == 0) return;
    const auto cx = [&](double x) {
      return std::clamp(static_cast<std::int64_t>(std::floor((x - min_x) / cell)), std::int64_t{0},
                        nx - 1);
    };
    const auto cz = [&](double z) {
      return std::clamp(static_cast<std::int64_t>(std::floor((z - min_z) / cell)), std::int64_t{0},
                        nz - 1);
    };
    for (std::int64_t z = cz(z0); z <= cz(z1); ++z)
      for (std::int64_t x = cx(x0); x <= cx(x1); ++x) f(static_cast<std::size_t>(z * nx + x));
  }

  /// Whether a triangle meets the prism over `base` (xz, convex) between heights lo and hi,
  /// deeper than the tolerance. walkable_lo replaces lo for walkable triangles when finite.
  bool hits(const P2* base, std::size_t nb, double lo, double hi, double walkable_lo,
            LedgeChecker::Scratch& s) const {
    double x0 = base[0].x;
    double x1 = base[0].x;
    double z0 = base[0].z;
    double z1 = base[0].z;
    for (std::size_t i = 1; i < nb; ++i) {
      x0 = std::min(x0, base[i].x);
      x1 = std::max(x1, base[i].x);
      z0 = std::min(z0, base[i].z);
      z1 = std::max(z1, base[i].z);
    }
    x0 -= radius;
    z0 -= radius;
    x1 += radius;
    z1 += radius;
    if (++s.generation == 0) {
      std::fill(s.stamp.begin(), s.stamp.end(), 0U);
      s.generation = 1;
    }
    s.candidates.clear();
    for_cells(x0, z0, x1, z1, [&](std::size_t c) {
      for (std::uint32_t k = cell_first[c]; k < cell_first[c + 1]; ++k) {
        const std::uint32_t t = cell_items[k];
        if (s.stamp[t] == s.generation) continue;
        s.stamp[t] = s.generation;
        s.candidates.push_back(t);
      }
    });
    std::sort(s.candidates.begin(), s.candidates.end());
    const double reach = radius - tolerance;
    std::array<P2, 8> clipped{};
    for (const std::uint32_t t : s.candidates) {
      ++s.tested;
      double bottom = lo;
      if (walkable_tan[t] >= 0.0 && std::isfinite(walkable_lo))
        bottom = std::max(lo, walkable_lo + radius * walkable_tan[t]);
      const std::size_t n = clip_to_slab(triangles[t], bottom + tolerance, hi - tolerance, clipped);
      if (n == 0) continue;
      if (polygon_distance(base, nb, clipped.data(), n) < reach) return true;
    }
    return false;
  }
};

LedgeChecker::LedgeChecker(const TriangleMesh& mesh, const AgentConfig& agent, float clearance,
                           float tolerance)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.radius = agent.radius;
  m.height = agent.height;
  m.clearance = clearance;
  m.tolerance = tolerance;
  const double cos_max =
      std::cos(static_cast<double>(agent.max_slope_deg) * std::numbers::pi / 180.0);
  double x0 = std::numeric_limits<double>::infinity();
  double z0 = x0;
  double x1 = -x0;
  double z1 = -x0;
  m.triangles.reserve(mesh.triangles.size());
  for (const auto& tri : mesh.triangles) {
    std::array<P3, 3> t{};
    for (std::size_t k = 0; k < 3; ++k) {
      const Vec3 v = mesh.vertices[tri[k]];
      t[k] = {v.x, v.y, v.z};
      x0 = std::min(x0, t[k].x);
      x1 = std::max(x1, t[k].x);
      z0 = std::min(z0, t[k].z);
      z1 = std::max(z1, t[k].z);
    }
    const P3 u{t[1].x - t[0].x, t[1].y - t[0].y, t[1].z - t[0].z};
    const P3 v{t[2].x - t[0].x, t[2].y - t[0].y, t[2].z - t[0].z};
    const P3 n{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
    const double len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    double tan_slope = -1.0;
    // note: either winding counts as walkable here (an upward or downward normal): treating a
    // triangle as floor only lowers what the check forgives near the feet
    if (len > 0.0) {
      const double ny = std::abs(n.y) / len;
      if (ny >= cos_max && ny > 0.0) tan_slope = std::sqrt(std::max(0.0, 1.0 - ny * ny)) / ny;
    }
    m.triangles.push_back(t);
    m.walkable_tan.push_back(tan_slope);
  }
  if (m.triangles.empty()) return;
  m.min_x = x0;
  m.min_z = z0;
  const double extent = std::max(x1 - x0, z1 - z0);
  m.cell = std::max({1.0, 4.0 * m.radius, extent / 1024.0});
  m.nx = static_cast<std::int64_t>(std::floor((x1 - x0) / m.cell)) + 1;
  m.nz = static_cast<std::int64_t>(std::floor((z1 - z0) / m.cell)) + 1;
  const auto cells = static_cast<std::size_t>(m.nx * m.nz);
  std::vector<std::uint32_t> count(cells + 1, 0);
  const auto each_cell = [&](const std::array<P3, 3>& t, auto&& f) {
    const double tx0 = std::min({t[0].x, t[1].x, t[2].x});
    const double tx1 = std::max({t[0].x, t[1].x, t[2].x});
    const double tz0 = std::min({t[0].z, t[1].z, t[2].z});
    const double tz1 = std::max({t[0].z, t[1].z, t[2].z});
    m.for_cells(tx0, tz0, tx1, tz1, f);
  };
  for (const auto& t : m.triangles) each_cell(t, [&](std::size_t c) { ++count[c + 1]; });
  for (std::size_t c = 0; c < cells; ++c) count[c + 1] += count[c];
  m.cell_first = count;
  m.cell_items.resize(count[cells]);
  std::vector<std::uint32_t> fill(count.begin(), count.end() - 1);
  for (std::uint32_t i = 0; i < m.triangles.size(); ++i)
    each_cell(m.triangles[i], [&](std::size_t c) { m.cell_items[fill[c]++] = i; });
}

LedgeChecker::~LedgeChecker() = default;

bool LedgeChecker::passes(Vec3 la, Vec3 lb, Vec3 ua, Vec3 ub, Scratch& scratch) const {
  const Impl& m = *impl_;
  if (m.triangles.empty()) return true;
  if (scratch.stamp.size() != m.triangles.size()) {
    scratch.stamp.assign(m.triangles.size(), 0U);
    scratch.generation = 0;
  }
  const double l_lo = std::min(la.y, lb.y);
  const double l_hi = std::max(la.y, lb.y);
  const double top = std::max(ua.y, ub.y) + m.clearance;
  // (1) the rise at the lower segment
  const std::array<P2, 2> column{P2{la.x, la.z}, P2{lb.x, lb.z}};
  if (m.hits(column.data(), la == lb ? 1 : 2, l_lo, top + m.height, l_hi + m.clearance, scratch))
    return false;
  // (2) the crossing at the top
  const std::array<P2, 4> quad{P2{la.x, la.z}, P2{lb.x, lb.z}, P2{ub.x, ub.z}, P2{ua.x, ua.z}};
  return !m.hits(quad.data(), 4, top, top + m.height, std::numeric_limits<double>::quiet_NaN(),
                 scratch);
}

namespace {

Vec3 lerp(Vec3 a, Vec3 b, double t) {
  return {static_cast<float>(a.x + t * (static_cast<double>(b.x) - a.x)),
          static_cast<float>(a.y + t * (static_cast<double>(b.y) - a.y)),
          static_cast<float>(a.z + t * (static_cast<double>(b.z) - a.z))};
}

bool is_up(LedgeKind kind) {
  return kind == LedgeKind::StepUp || kind == LedgeKind::JumpUp || kind == LedgeKind::Walk;
}

}  // namespace

std::vector<LedgeLink> check_ledge_link(const LedgeChecker& checker, const LedgeLink& link,
                                        float min_length, float max_spread,
                                        LedgeChecker::Scratch& scratch) {
  std::vector<LedgeLink> out;
  if (link.kind == LedgeKind::Ladder) {
    out.push_back(link);
    return out;
  }
  const double length = distance(xz(link.source_a), xz(link.source_b));
  // pieces [t0, t1] of the link, checked in order so that passing neighbours merge
  struct Piece {
    double t0;
    double t1;
  };
  std::vector<Piece> stack{{0.0, 1.0}};
  std::vector<Piece> passed;
  while (!stack.empty()) {
    const Piece piece = stack.back();
    stack.pop_back();
    const Vec3 sa = lerp(link.source_a, link.source_b, piece.t0);
    const Vec3 sb = lerp(link.source_a, link.source_b, piece.t1);
    const Vec3 da = lerp(link.dest_a, link.dest_b, piece.t0);
    const Vec3 db = lerp(link.dest_a, link.dest_b, piece.t1);
    const bool up = is_up(link.kind);
    const Vec3 la = up ? sa : da;
    const Vec3 lb = up ? sb : db;
    const Vec3 ua = up ? da : sa;
    const Vec3 ub = up ? db : sb;
    const double piece_length = length * (piece.t1 - piece.t0);
    const bool can_split = piece_length > 2.0 * static_cast<double>(min_length);
    const bool spread = std::abs(static_cast<double>(la.y) - lb.y) > max_spread;
    if (!(spread && can_split) && checker.passes(la, lb, ua, ub, scratch)) {
      passed.push_back(piece);
      continue;
    }
    if (!can_split) continue;
    const double mid = 0.5 * (piece.t0 + piece.t1);
    // note: pushed second half first so the first half is examined first (pieces come out in order)
    stack.push_back({mid, piece.t1});
    stack.push_back({piece.t0, mid});
  }
  for (std::size_t i = 0; i < passed.size();) {
    std::size_t j = i;
    while (j + 1 < passed.size() && passed[j + 1].t0 == passed[j].t1) ++j;
    LedgeLink piece = link;
    piece.source_a = lerp(link.source_a, link.source_b, passed[i].t0);
    piece.source_b = lerp(link.source_a, link.source_b, passed[j].t1);
    piece.dest_a = lerp(link.dest_a, link.dest_b, passed[i].t0);
    piece.dest_b = lerp(link.dest_a, link.dest_b, passed[j].t1);
    if (passed[i].t0 == 0.0) {
      piece.source_a = link.source_a;
      piece.dest_a = link.dest_a;
    }
    if (passed[j].t1 == 1.0) {
      piece.source_b = link.source_b;
      piece.dest_b = link.dest_b;
    }
    out.push_back(piece);
    i = j + 1;
  }
  return out;
}

}  // namespace leapnav::ledge
