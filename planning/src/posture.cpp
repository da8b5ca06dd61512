// Crouch transitions along a path: the crossing of each walk <-> crouch portal is found on the
// funnel polyline (the polyline crosses the corridor's portals in order, so each transition is
// looked for from the previous one on), and the walk segment is cut there.
#include "posture.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace leapnav::plan::detail {
namespace {

bool crouching(const mesh::NavMesh& nav, mesh::PolyId p) {
  return (nav.poly_flags[mesh::index(p)] & mesh::kPolyFlagCrouch) != 0;
}

/// The parameter t in [0, 1] of the point of segment p0-p1 nearest segment a-b, and that
/// distance (the crossing when they cross).
struct Nearest {
  float t = 0.0F;
  float distance = std::numeric_limits<float>::infinity();
};

Nearest nearest_on_piece(Vec2 p0, Vec2 p1, Vec2 a, Vec2 b) {
  const Vec2 d = p1 - p0;
  const Vec2 ab = b - a;
  const float denom = cross(d, ab);
  if (denom != 0.0F) {
    const Vec2 ap = a - p0;
    const float t = cross(ap, ab) / denom;
    const float u = cross(ap, d) / denom;
    if (t >= 0.0F && t <= 1.0F && u >= 0.0F && u <= 1.0F) return {t, 0.0F};
  }
  const float d2 = dot(d, d);
  const float ab2 = dot(ab, ab);
  const auto on_piece = [&](Vec2 q) {
    return d2 > 0.0F ? std::clamp(dot(q - p0, d) / d2, 0.0F, 1.0F) : 0.0F;
  };
  const auto on_portal = [&](Vec2 q) {
    const float u = ab2 > 0.0F ? std::clamp(dot(q - a, ab) / ab2, 0.0F, 1.0F) : 0.0F;
    return a + ab * u;
  };
  Nearest best;
  const auto consider = [&](float t, Vec2 other) {
    const float dd = distance(p0 + d * t, other);
    if (dd < best.distance) best = {t, dd};
  };
  consider(on_piece(a), a);
  consider(on_piece(b), b);
  consider(0.0F, on_portal(p0));
  consider(1.0F, on_portal(p1));
  return best;
}

}  // namespace

void split_postures(const mesh::NavMesh& nav, std::span<const Portal> portals, Path& out) {
  bool any = false;
  for (const mesh::PolyId p : out.corridor) any = any || crouching(nav, p);
  if (!any) return;
  // note: a crossing this close to a polyline corner is that corner [units: m]
  constexpr float kSame = 1e-4F;
  std::vector<Vec3> points;
  std::vector<PathSegment> segments;
  points.reserve(out.points.size() + 4);
  points.push_back(out.points.front());
  bool inserted = false;
  for (const PathSegment& seg : out.segments) {
    if (seg.kind != SegmentKind::Walk) {
      PathSegment copy = seg;
      copy.first = static_cast<std::uint32_t>(points.size() - 1);
      for (std::uint32_t i = seg.first + 1; i <= seg.last; ++i) points.push_back(out.points[i]);
      copy.last = static_cast<std::uint32_t>(points.size() - 1);
      segments.push_back(copy);
      continue;
    }
    PathSegment current = seg;
    current.first = static_cast<std::uint32_t>(points.size() - 1);
    current.posture =
        crouching(nav, out.corridor[seg.corridor_first]) ? Posture::Crouch : Posture::Stand;
    std::uint32_t piece = seg.first;  // the polyline piece points[piece] -> points[piece + 1]
    float piece_t = 0.0F;             // crossings on it before this parameter are used up
    const std::size_t walk_begin = segments.size();
    const auto close_at = [&](std::uint32_t corridor_k) {
      // the piece so far ends in corridor polygon corridor_k; the next starts after it
      const Posture next =
          crouching(nav, out.corridor[corridor_k + 1]) ? Posture::Crouch : Posture::Stand;
      if (points.size() - 1 > current.first) {
        current.last = static_cast<std::uint32_t>(points.size() - 1);
        current.corridor_last = corridor_k;
        segments.push_back(current);
        current.first = current.last;
        current.corridor_first = corridor_k + 1;
        current.posture = next;
        return;
      }
      // note: no length since the last cut, so the polygons since then are only touched at a
      // point: the previous piece (which has the next posture) goes on, or at the walk's start
      // this piece takes the next posture with those polygons
      if (segments.size() > walk_begin) {
        current = segments.back();
        segments.pop_back();
        return;
      }
      current.posture = next;
    };
    const auto push_until = [&](std::uint32_t last_piece) {
      // appends the polyline's points up to the end of piece last_piece - 1
      for (; piece < last_piece; ++piece, piece_t = 0.0F) {
        points.push_back(out.points[piece + 1]);
      }
    };
    for (std::uint32_t k = seg.corridor_first; k < seg.corridor_last; ++k) {
      if (crouching(nav, out.corridor[k]) == crouching(nav, out.corridor[k + 1])) continue;
      if (piece >= seg.last) {
        // note: the polyline is used up (an earlier crossing was its last point): this
        // transition is at that point too
        close_at(k);
        continue;
      }
      const Portal& portal = portals[k];
      // the first piece from here on that meets the portal, else the nearest one
      std::uint32_t found = piece;
      Nearest best;
      for (std::uint32_t j = piece; j < seg.last; ++j) {
        const Vec2 p0 = xz(out.points[j]);
        const Vec2 p1 = xz(out.points[j + 1]);
        Nearest n = nearest_on_piece(p0, p1, portal.left, portal.right);
        if (j == piece) n.t = std::max(n.t, piece_t);
        if (n.distance < best.distance) {
          best = n;
          found = j;
        }
        if (n.distance <= kSame) break;
      }
      push_until(found);
      piece_t = best.t;
      const Vec2 p0 = xz(out.points[piece]);
      const Vec2 p1 = xz(out.points[piece + 1]);
      const Vec2 c = p0 + (p1 - p0) * best.t;
      if (distance(c, xz(points.back())) > kSame) {
        if (distance(c, p1) <= kSame) {
          push_until(piece + 1);
        } else {
          points.push_back({c.x, mesh::height_at(nav, out.corridor[k + 1], c.x, c.y), c.y});
          inserted = true;
        }
      }
      close_at(k);
    }
    push_until(seg.last);
    if (points.size() - 1 == current.first && segments.size() > walk_begin) {
      // note: the last cut is the walk's end: the polygons after it (touched at that point
      // only) join the previous piece
      segments.back().corridor_last = seg.corridor_last;
      continue;
    }
    current.last = static_cast<std::uint32_t>(points.size() - 1);
    current.corridor_last = seg.corridor_last;
    segments.push_back(current);
  }
  if (!inserted && segments.size() == out.segments.size()) {
    // nothing was cut: only the postures change
    for (std::size_t i = 0; i < segments.size(); ++i) out.segments[i].posture = segments[i].posture;
    return;
  }
  out.points = std::move(points);
  out.segments = std::move(segments);
  out.length = 0.0;
  out.length_3d = 0.0;
  for (std::size_t i = 1; i < out.points.size(); ++i) {
    out.length += distance(xz(out.points[i - 1]), xz(out.points[i]));
    out.length_3d += distance(out.points[i - 1], out.points[i]);
  }
}

}  // namespace leapnav::plan::detail
