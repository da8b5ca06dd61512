// Boundary edges, snapped planes and facing pairs (Golodetz Listing 2, seeds spec A5). A plane is
// keyed by two integers: the bin of its line's direction (mod 180 degrees, bins of max_angle_deg)
// and the bin of its offset along that bin's centre normal (bins of the search radius). Keys are
// only used to find candidates: an edge is compared with every edge in its own and the two
// neighbouring direction bins whose offset (measured with the other bin's normal) can be within
// reach, and the pair is decided by one exact predicate that is symmetric in the two edges. So
// the pairs do not depend on where a bin boundary falls, on polygon order, or on the order edges
// are visited; no tolerance comparison is ever used as a sort key.
#include "edge_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

namespace leapnav::ledge::detail {
namespace {

constexpr double kPi = std::numbers::pi;

double bin_width(const PairParams& params) {
  return std::max(params.max_angle_deg, 0.5) * kPi / 180.0;
}
std::int32_t bin_count(const PairParams& params) {
  return static_cast<std::int32_t>(std::ceil(kPi / bin_width(params)));
}
double offset_width(const PairParams& params) {
  return std::max(params.max_gap - params.min_gap, 0.05);
}
/// The centre normal of direction bin k.
void bin_normal(const PairParams& params, std::int32_t k, double& nx, double& nz) {
  const double c = (static_cast<double>(k) + 0.5) * bin_width(params);
  nx = std::cos(c);
  nz = std::sin(c);
}

double mid_x(const BoundaryEdge& e) {
  return 0.5 * (static_cast<double>(e.p.x) + e.q.x);
}
double mid_z(const BoundaryEdge& e) {
  return 0.5 * (static_cast<double>(e.p.z) + e.q.z);
}
double edge_length(const BoundaryEdge& e) {
  return std::hypot(static_cast<double>(e.q.x) - e.p.x, static_cast<double>(e.q.z) - e.p.z);
}

auto sort_key(const BoundaryEdge& e) {
  return std::make_tuple(e.angle_bin, e.offset_bin, e.p.x, e.p.z, e.p.y, e.q.x, e.q.z, e.q.y,
                         e.poly);
}

}  // namespace

std::vector<BoundaryEdge> boundary_edges(const mesh::NavMesh& navmesh, const PairParams& params) {
  std::vector<BoundaryEdge> edges;
  const double width = bin_width(params);
  const std::int32_t bins = bin_count(params);
  const double offset_bin = offset_width(params);
  for (std::uint32_t p = 0; p < navmesh.polygon_count(); ++p) {
    const std::uint32_t first = navmesh.poly_first[p];
    const std::uint32_t last = navmesh.poly_first[p + 1];
    for (std::uint32_t s = first; s < last; ++s) {
      if (navmesh.poly_neighbors[s] != mesh::kNoPoly) continue;
      const std::uint32_t next = s + 1 == last ? first : s + 1;
      BoundaryEdge e;
      e.poly = p;
      e.slot = s;
      e.p = navmesh.vertices[navmesh.poly_vertices[s]];
      e.q = navmesh.vertices[navmesh.poly_vertices[next]];
      const double tx = static_cast<double>(e.q.x) - e.p.x;
      const double tz = static_cast<double>(e.q.z) - e.p.z;
      const double len = std::hypot(tx, tz);
      if (!(len > 0.0)) continue;
      // note: CCW in xz (positive shoelace x_i z_{i+1} - x_{i+1} z_i) puts the polygon on the left
      // of p -> q, so (tz, -tx) points out of it
      e.nx = tz / len;
      e.nz = -tx / len;
      double angle = std::atan2(e.nz, e.nx);
      if (angle < 0.0) angle += kPi;
      if (angle >= kPi) angle -= kPi;
      e.angle_bin = std::clamp(static_cast<std::int32_t>(std::floor(angle / width)), 0, bins - 1);
      double bx = 0.0;
      double bz = 0.0;
      bin_normal(params, e.angle_bin, bx, bz);
      e.offset_bin =
          static_cast<std::int64_t>(std::floor((bx * mid_x(e) + bz * mid_z(e)) / offset_bin));
      edges.push_back(e);
    }
  }
  std::sort(edges.begin(), edges.end(),
            [](const BoundaryEdge& a, const BoundaryEdge& b) { return sort_key(a) < sort_key(b); });
  return edges;
}

std::uint64_t count_planes(const std::vector<BoundaryEdge>& edges) {
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (i == 0 || edges[i].angle_bin != edges[i - 1].angle_bin ||
        edges[i].offset_bin != edges[i - 1].offset_bin)
      ++count;
  }
  return count;
}

PairFrame pair_frame(const BoundaryEdge& e, const BoundaryEdge& f) {
  PairFrame frame;
  const double nx = e.nx - f.nx;
  const double nz = e.nz - f.nz;
  const double nl = std::hypot(nx, nz);
  frame.nx = nx / nl;
  frame.nz = nz / nl;
  frame.ux = -frame.nz;
  frame.uz = frame.nx;
  frame.e0 = frame.along(e.p);
  frame.e1 = frame.along(e.q);
  frame.f0 = frame.along(f.p);
  frame.f1 = frame.along(f.q);
  frame.lo = std::max(std::min(frame.e0, frame.e1), std::min(frame.f0, frame.f1));
  frame.hi = std::min(std::max(frame.e0, frame.e1), std::max(frame.f0, frame.f1));
  return frame;
}

bool edges_face(const BoundaryEdge& e, const BoundaryEdge& f, const PairParams& params) {
  if (e.poly == f.poly) return false;
  double max_angle = params.max_angle_deg * kPi / 180.0;
  if (params.outline_error > 0.0) {
    // note: min of the two lengths is symmetric in e and f
    const double shorter = std::min(edge_length(e), edge_length(f));
    max_angle = std::min(max_angle + std::atan(params.outline_error / shorter),
                         params.max_total_angle_deg * kPi / 180.0);
  }
  const double cos_max = std::cos(max_angle);
  if (e.nx * f.nx + e.nz * f.nz > -cos_max) return false;
  // note: the frame is shared by both edges and exactly negated when they are swapped, so the
  // predicate is symmetric
  const PairFrame frame = pair_frame(e, f);
  const auto across = [&](Vec3 v) { return frame.across(v); };
  const double e0 = frame.e0;
  const double e1 = frame.e1;
  const double f0 = frame.f0;
  const double f1 = frame.f1;
  const double lo = frame.lo;
  const double hi = frame.hi;
  if (!(hi - lo > params.min_overlap)) return false;
  if (e1 == e0 || f1 == f0) return false;
  for (const double x : {lo, hi}) {
    const double se = (x - e0) / (e1 - e0);
    const double sf = (x - f0) / (f1 - f0);
    const double ce = across(e.p) + se * (across(e.q) - across(e.p));
    const double cf = across(f.p) + sf * (across(f.q) - across(f.p));
    const double gap = cf - ce;
    if (gap < params.min_gap || gap > params.max_gap) return false;
  }
  return true;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> facing_pairs(
    const std::vector<BoundaryEdge>& edges, const PairParams& params) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  if (edges.empty()) return pairs;
  const std::int32_t bins = bin_count(params);
  const double offset_bin = offset_width(params);
  double longest = 0.0;
  for (const BoundaryEdge& e : edges) longest = std::max(longest, edge_length(e));
  // note: edges that can pair lie at most `spread` direction bins apart
  std::int32_t spread = 1;
  if (params.outline_error > 0.0)
    spread = std::max(1, static_cast<std::int32_t>(std::ceil(params.max_total_angle_deg * kPi /
                                                             180.0 / bin_width(params))));
  const double slope =
      std::sin(std::min(static_cast<double>(spread + 1) * bin_width(params), 0.5 * kPi));
  for (std::uint32_t i = 0; i < edges.size(); ++i) {
    const BoundaryEdge& e = edges[i];
    // note: within reach, f's midpoint is at most max_gap off e's line plus the tilt of both lines
    // against the bin normal over half of each edge; 1 mm absorbs rounding
    const double reach =
        std::max(params.max_gap, -params.min_gap) + (edge_length(e) + longest) * slope + 1e-3;
    for (std::int32_t dk = -spread; dk <= spread; ++dk) {
      if (bins < 2 * spread + 1 && dk != 0) continue;
      const std::int32_t k = ((e.angle_bin + dk) % bins + bins) % bins;
      double bx = 0.0;
      double bz = 0.0;
      bin_normal(params, k, bx, bz);
      const double d = bx * mid_x(e) + bz * mid_z(e);
      const auto j_lo = static_cast<std::int64_t>(std::floor((d - reach) / offset_bin));
      const auto j_hi = static_cast<std::int64_t>(std::floor((d + reach) / offset_bin));
      auto it = std::lower_bound(
          edges.begin(), edges.end(), std::make_pair(k, j_lo),
          [](const BoundaryEdge& x, const std::pair<std::int32_t, std::int64_t>& key) {
            return std::make_pair(x.angle_bin, x.offset_bin) < key;
          });
      for (; it != edges.end() && it->angle_bin == k && it->offset_bin <= j_hi; ++it) {
        const auto j = static_cast<std::uint32_t>(it - edges.begin());
        if (j == i) continue;
        if (edges_face(e, *it, params)) pairs.emplace_back(std::min(i, j), std::max(i, j));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace leapnav::ledge::detail
