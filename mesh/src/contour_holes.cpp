// Hole bridging for region contours (pipeline.md §2): each hole, leftmost first, is joined to the
// outer outline through a bridge from one of its vertices to the nearest outer vertex that sees
// it (inside the vertex's cone and crossing no edge of the outline or of any remaining hole), as
// in Eberly's "Triangulation by Ear Clipping" §5. Exact integer predicates throughout.
#include <algorithm>
#include <numeric>

#include "contour_detail.hpp"

namespace leapnav::mesh::detail {

namespace {

bool left(const ContourVertex& a, const ContourVertex& b, const ContourVertex& c) {
  return orient(a, b, c) > 0;
}
bool left_on(const ContourVertex& a, const ContourVertex& b, const ContourVertex& c) {
  return orient(a, b, c) >= 0;
}

// Whether the bridge p-q is blocked by an edge of `loop`. Edges meeting the bridge only at one
// of its endpoints do not block it unless they run along it.
bool blocked_by(const std::vector<ContourVertex>& loop, const ContourVertex& p,
                const ContourVertex& q) {
  const std::size_t n = loop.size();
  for (std::size_t i = 0; i < n; ++i) {
    const ContourVertex& a = loop[i];
    const ContourVertex& b = loop[(i + 1) % n];
    const bool a_shared = same_xz(a, p) || same_xz(a, q);
    const bool b_shared = same_xz(b, p) || same_xz(b, q);
    if (a_shared && b_shared) return true;
    if (a_shared || b_shared) {
      // sharing one endpoint, the two segments meet elsewhere only when they overlap
      const ContourVertex& shared = a_shared ? a : b;
      const ContourVertex& edge_end = a_shared ? b : a;
      const ContourVertex& bridge_end = same_xz(shared, p) ? q : p;
      if (on_segment(p, q, edge_end) || on_segment(a, b, bridge_end)) return true;
      continue;
    }
    if (segments_touch(a, b, p, q)) return true;
  }
  return false;
}

// Whether the diagonal from polygon vertex i towards p starts inside the polygon's interior
// angle at i (the polygon is counter-clockwise).
bool in_cone(const std::vector<ContourVertex>& polygon, std::size_t i, const ContourVertex& p) {
  const std::size_t n = polygon.size();
  const ContourVertex& a = polygon[i];
  const ContourVertex& prev = polygon[(i + n - 1) % n];
  const ContourVertex& next = polygon[(i + 1) % n];
  if (left_on(prev, a, next)) return left(a, p, prev) && left(p, a, next);
  return !(left_on(a, p, next) && left_on(p, a, prev));
}

bool less_xz(const ContourVertex& a, const ContourVertex& b) {
  return a.x != b.x ? a.x < b.x : a.z < b.z;
}

}  // namespace

std::int64_t doubled_area(const std::vector<ContourVertex>& polygon) {
  std::int64_t sum = 0;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) {
    const ContourVertex& a = polygon[i];
    const ContourVertex& b = polygon[(i + 1) % n];
    sum += static_cast<std::int64_t>(a.x) * b.z - static_cast<std::int64_t>(b.x) * a.z;
  }
  return sum;
}

std::int64_t orient(const ContourVertex& a, const ContourVertex& b, const ContourVertex& c) {
  return static_cast<std::int64_t>(b.x - a.x) * (c.z - a.z) -
         static_cast<std::int64_t>(b.z - a.z) * (c.x - a.x);
}

bool on_segment(const ContourVertex& a, const ContourVertex& b, const ContourVertex& c) {
  if (orient(a, b, c) != 0) return false;
  return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.z, b.z) <= c.z &&
         c.z <= std::max(a.z, b.z);
}

bool segments_touch(const ContourVertex& a, const ContourVertex& b, const ContourVertex& c,
                    const ContourVertex& d) {
  const std::int64_t o1 = orient(a, b, c);
  const std::int64_t o2 = orient(a, b, d);
  const std::int64_t o3 = orient(c, d, a);
  const std::int64_t o4 = orient(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    return true;
  }
  return on_segment(a, b, c) || on_segment(a, b, d) || on_segment(c, d, a) || on_segment(c, d, b);
}

bool contains_or_touches(const std::vector<ContourVertex>& polygon, const ContourVertex& point) {
  const std::size_t n = polygon.size();
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const ContourVertex& a = polygon[i];
    const ContourVertex& b = polygon[j];
    if (on_segment(a, b, point)) return true;
    if ((a.z > point.z) != (b.z > point.z)) {
      // x of the edge at point.z compared with point.x, exactly: sign of orient relative to
      // the upward direction of the edge
      const ContourVertex& lo = a.z < b.z ? a : b;
      const ContourVertex& hi = a.z < b.z ? b : a;
      if (orient(lo, hi, point) > 0) inside = !inside;
    }
  }
  return inside;
}

void bridge_holes(std::vector<ContourVertex>& outer, std::vector<std::vector<ContourVertex>> holes,
                  std::uint16_t region, std::vector<std::string>& warnings) {
  // leftmost hole first
  std::vector<std::size_t> leftmost(holes.size(), 0);
  for (std::size_t h = 0; h < holes.size(); ++h) {
    for (std::size_t k = 1; k < holes[h].size(); ++k) {
      if (less_xz(holes[h][k], holes[h][leftmost[h]])) leftmost[h] = k;
    }
  }
  std::vector<std::size_t> order(holes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return less_xz(holes[a][leftmost[a]], holes[b][leftmost[b]]);
  });
  std::vector<char> merged(holes.size(), 0);

  for (const std::size_t h : order) {
    const std::vector<ContourVertex>& hole = holes[h];
    const std::size_t m = hole.size();
    // hole vertices to try: leftmost first, then the rest by (x, z)
    std::vector<std::size_t> starts(m);
    std::iota(starts.begin(), starts.end(), 0);
    std::stable_sort(starts.begin(), starts.end(),
                     [&](std::size_t a, std::size_t b) { return less_xz(hole[a], hole[b]); });
    bool done = false;
    for (const std::size_t hs : starts) {
      const ContourVertex& hv = hole[hs];
      std::vector<std::size_t> candidates(outer.size());
      std::iota(candidates.begin(), candidates.end(), 0);
      const auto dist2 = [&](std::size_t i) {
        const std::int64_t dx = outer[i].x - hv.x;
        const std::int64_t dz = outer[i].z - hv.z;
        return dx * dx + dz * dz;
      };
      std::stable_sort(candidates.begin(), candidates.end(),
                       [&](std::size_t a, std::size_t b) { return dist2(a) < dist2(b); });
      for (const std::size_t o : candidates) {
        const bool touching = same_xz(outer[o], hv);
        if (!touching) {
          if (!in_cone(outer, o, hv)) continue;
          if (blocked_by(outer, outer[o], hv)) continue;
          bool blocked = false;
          for (std::size_t other = 0; other < holes.size() && !blocked; ++other) {
            if (!merged[other]) blocked = blocked_by(holes[other], outer[o], hv);
          }
          if (blocked) continue;
        }
        // splice: outer[..o], (bridge), hole[hs..], hole[..hs], (bridge), outer[o..]
        std::vector<ContourVertex> result;
        result.reserve(outer.size() + m + 2);
        result.insert(result.end(), outer.begin(), outer.begin() + static_cast<std::ptrdiff_t>(o));
        if (!touching) {
          ContourVertex bridge_start = outer[o];
          bridge_start.neighbor_region = region;
          result.push_back(bridge_start);
        }
        for (std::size_t k = 0; k < m; ++k) result.push_back(hole[(hs + k) % m]);
        if (!touching) {
          ContourVertex bridge_back = hv;
          bridge_back.neighbor_region = region;
          result.push_back(bridge_back);
        }
        result.insert(result.end(), outer.begin() + static_cast<std::ptrdiff_t>(o), outer.end());
        outer = std::move(result);
        done = true;
        break;
      }
      if (done) break;
    }
    merged[h] = 1;
    if (!done) {
      warnings.push_back("contours: region " + std::to_string(region) + ": a hole at (" +
                         std::to_string(hole[leftmost[h]].x) + ", " +
                         std::to_string(hole[leftmost[h]].z) +
                         ") has no visible outline vertex; the hole is dropped");
    }
  }
}

}  // namespace leapnav::mesh::detail
