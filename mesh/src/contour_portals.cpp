// Straight portals for region contours (pipeline.md §2). Recast's rcBuildContours leaves an edge
// between two regions straight from one change of neighbour to the next and refines only walls;
// a straight chord can, though, cut across a nearby wall or another part of either region. Here a
// chain becomes its chord only when the chord is clear: it touches no other edge of either region
// and no such edge lies in the pocket between chain and chord. Then the cells in the pocket change
// sides between the two regions only, and both outlines stay simple (the heights stage samples
// such cells from the region across the portal). Exact integer predicates.
#include <algorithm>

#include "contour_detail.hpp"

namespace leapnav::mesh::detail {

namespace {

// Whether a-b is an edge of the chain, in either direction.
bool is_chain_edge(const std::vector<ContourVertex>& chain, const ContourVertex& a,
                   const ContourVertex& b) {
  for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
    const ContourVertex& c = chain[k];
    const ContourVertex& d = chain[k + 1];
    if ((same_xz(c, a) && same_xz(d, b)) || (same_xz(c, b) && same_xz(d, a))) return true;
  }
  return false;
}

// Whether the edge a-b meets the chord p-q anywhere but at a shared end (collinear overlap from
// a shared end counts as meeting).
bool meets_chord(const ContourVertex& a, const ContourVertex& b, const ContourVertex& p,
                 const ContourVertex& q) {
  const bool a_end = same_xz(a, p) || same_xz(a, q);
  const bool b_end = same_xz(b, p) || same_xz(b, q);
  if (a_end && b_end) return true;
  if (a_end || b_end) {
    const ContourVertex& shared = a_end ? a : b;
    const ContourVertex& edge_other = a_end ? b : a;
    const ContourVertex& chord_other = same_xz(shared, p) ? q : p;
    return on_segment(p, q, edge_other) || on_segment(a, b, chord_other);
  }
  return segments_touch(a, b, p, q);
}

// Whether the midpoint of a-b lies inside (even-odd) or on the boundary of the closed polygon
// chain[0], ..., chain[m] (closed by the chord). Coordinates are doubled to keep the midpoint an
// integer point.
bool midpoint_in_pocket(const std::vector<ContourVertex>& chain, const ContourVertex& a,
                        const ContourVertex& b) {
  ContourVertex mid;
  mid.x = a.x + b.x;
  mid.z = a.z + b.z;
  const auto doubled = [](const ContourVertex& v) {
    ContourVertex d;
    d.x = 2 * v.x;
    d.z = 2 * v.z;
    return d;
  };
  bool inside = false;
  const std::size_t n = chain.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const ContourVertex u = doubled(chain[i]);
    const ContourVertex v = doubled(chain[j]);
    if (on_segment(u, v, mid)) return true;
    if ((u.z > mid.z) != (v.z > mid.z)) {
      const ContourVertex& lo = u.z < v.z ? u : v;
      const ContourVertex& hi = u.z < v.z ? v : u;
      if (orient(lo, hi, mid) > 0) inside = !inside;
    }
  }
  return inside;
}

}  // namespace

bool chord_is_clear(const std::vector<ContourVertex>& chain,
                    const std::vector<const std::vector<ContourVertex>*>& loops) {
  if (chain.size() < 3) return false;
  const ContourVertex& p = chain.front();
  const ContourVertex& q = chain.back();
  if (same_xz(p, q)) return false;
  // the pocket's bounding box holds the chord and every edge that could meet it
  std::int32_t min_x = p.x;
  std::int32_t max_x = p.x;
  std::int32_t min_z = p.z;
  std::int32_t max_z = p.z;
  for (const ContourVertex& v : chain) {
    min_x = std::min(min_x, v.x);
    max_x = std::max(max_x, v.x);
    min_z = std::min(min_z, v.z);
    max_z = std::max(max_z, v.z);
  }
  for (const std::vector<ContourVertex>* loop : loops) {
    const std::size_t n = loop->size();
    for (std::size_t i = 0; i < n; ++i) {
      const ContourVertex& a = (*loop)[i];
      const ContourVertex& b = (*loop)[(i + 1) % n];
      if (std::max(a.x, b.x) < min_x || std::min(a.x, b.x) > max_x || std::max(a.z, b.z) < min_z ||
          std::min(a.z, b.z) > max_z) {
        continue;
      }
      if (is_chain_edge(chain, a, b)) continue;
      if (meets_chord(a, b, p, q) || midpoint_in_pocket(chain, a, b)) return false;
    }
  }
  return true;
}

}  // namespace leapnav::mesh::detail
