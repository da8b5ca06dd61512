// Raycast along the mesh (Detour's dtNavMeshQuery::raycast, written from its description): from
// the start's polygon, clip the xz segment against the convex polygon (Cyrus-Beck: each CCW edge
// bounds t from above where the segment heads out of it); the edge giving the smallest upper
// bound is where the segment leaves. A shared edge continues into the neighbour, a boundary edge
// is the hit. Invariant: t never decreases from polygon to polygon.
#include "leapnav/planning/raycast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "planner_impl.hpp"

namespace leapnav::plan {
namespace {

/// what names the call and end_name its second point ("end", "target") in the messages.
Status check_inputs(Vec3 start, Vec3 end, Vec3 extent, const char* what, const char* end_name) {
  if (!is_finite(start)) {
    return make_error(ErrorCode::NonFinite, std::string(what) + ": start is not finite");
  }
  if (!is_finite(end)) {
    return make_error(ErrorCode::NonFinite, std::string(what) + ": " + end_name + " is not finite");
  }
  if (!is_finite(extent)) {
    return make_error(ErrorCode::NonFinite, std::string(what) + ": search extent is not finite");
  }
  if (extent.x < 0.0F || extent.y < 0.0F || extent.z < 0.0F) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(what) + ": search extent has a negative component");
  }
  return {};
}

}  // namespace

Result<std::optional<RaycastHit>> raycast(const Planner& planner, Vec3 start, Vec3 end,
                                          Vec3 search_extent) {
  LEAPNAV_TRY(check_inputs(start, end, search_extent, "raycast", "end"));
  LEAPNAV_TRY_ASSIGN(const std::optional<Location> from, planner.locate(start, search_extent));
  if (!from) return std::optional<RaycastHit>{};
  const mesh::NavMesh& nav = planner.mesh();
  const Vec2 a = xz(from->point);
  const Vec2 d = xz(end) - a;

  RaycastHit out;
  std::uint32_t poly = mesh::index(from->poly);
  std::uint32_t previous = mesh::kNoPoly;
  float t = 0.0F;
  // note: each step enters a new polygon, and t never decreases; the cap only guards against a
  // cycle through polygons meeting at one point when the segment passes exactly through it.
  const std::size_t max_steps = nav.polygon_count() + 1;
  for (std::size_t step = 0; step < max_steps; ++step) {
    out.visited.push_back(mesh::PolyId{poly});
    const std::uint32_t first = nav.poly_first[poly];
    const std::uint32_t last = nav.poly_first[poly + 1];
    // the smallest upper bound over the edges the segment heads out of (exact for a convex
    // polygon)
    float t_exit = std::numeric_limits<float>::infinity();
    for (std::uint32_t s = first; s < last; ++s) {
      const Vec2 v0 = xz(nav.vertices[nav.poly_vertices[s]]);
      const Vec2 v1 = xz(nav.vertices[nav.poly_vertices[s + 1 == last ? first : s + 1]]);
      const Vec2 e = v1 - v0;
      const float heading = cross(e, d);  // < 0: the segment heads out through this edge's line
      if (heading >= 0.0F) continue;
      t_exit = std::min(t_exit, cross(e, a - v0) / -heading);
    }
    // note: the edge it leaves through is the one nearest the exit point, not the one giving the
    // bound: collinear edges (straight corners) share a line and so a bound, and at a vertex two
    // edges do; ties prefer an edge that does not lead back to the previous polygon.
    std::uint32_t exit_slot = last;
    if (t_exit < 1.0F) {
      const Vec2 exit_point = a + d * std::max(t_exit, t);
      float best = std::numeric_limits<float>::infinity();
      for (std::uint32_t s = first; s < last; ++s) {
        const Vec2 v0 = xz(nav.vertices[nav.poly_vertices[s]]);
        const Vec2 v1 = xz(nav.vertices[nav.poly_vertices[s + 1 == last ? first : s + 1]]);
        const Vec2 e = v1 - v0;
        if (cross(e, d) >= 0.0F) continue;
        const float len2 = dot(e, e);
        const float u = len2 > 0.0F ? std::clamp(dot(exit_point - v0, e) / len2, 0.0F, 1.0F) : 0.0F;
        const Vec2 gap = exit_point - (v0 + e * u);
        const float dist2 = dot(gap, gap);
        const bool back = previous != mesh::kNoPoly && nav.poly_neighbors[s] == previous;
        const bool best_back = exit_slot != last && previous != mesh::kNoPoly &&
                               nav.poly_neighbors[exit_slot] == previous;
        if (dist2 < best || (dist2 == best && best_back && !back)) {
          best = dist2;
          exit_slot = s;
        }
      }
    }
    if (exit_slot == last || t_exit >= 1.0F) {
      out.t = 1.0F;
      break;
    }
    t = std::max(t, t_exit);
    const std::uint32_t next = nav.poly_neighbors[exit_slot];
    if (next == mesh::kNoPoly) {
      const Vec2 v0 = xz(nav.vertices[nav.poly_vertices[exit_slot]]);
      const Vec2 v1 =
          xz(nav.vertices[nav.poly_vertices[exit_slot + 1 == last ? first : exit_slot + 1]]);
      const Vec2 e = v1 - v0;
      const float len = length(e);
      out.hit = true;
      out.t = t;
      out.normal = len > 0.0F ? Vec2{-e.y / len, e.x / len} : Vec2{};
      break;
    }
    previous = poly;
    poly = next;
    out.t = t;
  }
  const Vec2 at = a + d * out.t;
  const mesh::PolyId last_poly = out.visited.back();
  float y = mesh::height_at(nav, last_poly, at.x, at.y);
  if (!std::isfinite(y)) y = from->point.y;
  out.point = {at.x, y, at.y};
  return std::optional<RaycastHit>{std::move(out)};
}

Result<std::optional<SurfaceMove>> move_along_surface(const Planner& planner, Vec3 start,
                                                      Vec3 target, Vec3 search_extent) {
  LEAPNAV_TRY(check_inputs(start, target, search_extent, "move_along_surface", "target"));
  LEAPNAV_TRY_ASSIGN(const std::optional<Location> from, planner.locate(start, search_extent));
  if (!from) return std::optional<SurfaceMove>{};
  const mesh::NavMesh& nav = planner.mesh();
  const Vec2 a = xz(from->point);
  const Vec2 goal = xz(target);
  const Vec2 mid = (a + goal) * 0.5F;
  const float radius = 0.5F * distance(a, goal) + 0.001F;
  const auto segment_distance2 = [](Vec2 p, Vec2 v0, Vec2 v1, Vec2& closest) {
    const Vec2 e = v1 - v0;
    const float len2 = dot(e, e);
    const float t = len2 > 0.0F ? std::clamp(dot(p - v0, e) / len2, 0.0F, 1.0F) : 0.0F;
    closest = v0 + e * t;
    const Vec2 d = p - closest;
    return dot(d, d);
  };

  std::vector<std::uint32_t> queue{mesh::index(from->poly)};
  std::vector<std::uint32_t> parent{mesh::kNoPoly};
  float best = std::numeric_limits<float>::infinity();
  Vec2 best_point = a;
  std::size_t best_node = 0;
  bool reached = false;
  for (std::size_t i = 0; i < queue.size() && !reached; ++i) {
    const std::uint32_t p = queue[i];
    const std::uint32_t first = nav.poly_first[p];
    const std::uint32_t last = nav.poly_first[p + 1];
    bool inside = true;
    for (std::uint32_t s = first; s < last; ++s) {
      const Vec2 v0 = xz(nav.vertices[nav.poly_vertices[s]]);
      const Vec2 v1 = xz(nav.vertices[nav.poly_vertices[s + 1 == last ? first : s + 1]]);
      if (cross(v1 - v0, goal - v0) < 0.0F) inside = false;
    }
    if (inside) {
      reached = true;
      best_point = goal;
      best_node = i;
      break;
    }
    for (std::uint32_t s = first; s < last; ++s) {
      const Vec2 v0 = xz(nav.vertices[nav.poly_vertices[s]]);
      const Vec2 v1 = xz(nav.vertices[nav.poly_vertices[s + 1 == last ? first : s + 1]]);
      const std::uint32_t n = nav.poly_neighbors[s];
      Vec2 closest;
      if (n == mesh::kNoPoly) {
        const float d2 = segment_distance2(goal, v0, v1, closest);
        if (d2 < best) {
          best = d2;
          best_point = closest;
          best_node = i;
        }
        continue;
      }
      if (segment_distance2(mid, v0, v1, closest) > radius * radius) continue;
      if (std::find(queue.begin(), queue.end(), n) != queue.end()) continue;
      queue.push_back(n);
      parent.push_back(static_cast<std::uint32_t>(i));
    }
  }
  SurfaceMove out;
  out.reached = reached;
  for (std::size_t node = best_node; node != mesh::kNoPoly; node = parent[node]) {
    out.visited.push_back(mesh::PolyId{queue[node]});
  }
  std::reverse(out.visited.begin(), out.visited.end());
  const mesh::PolyId end_poly = out.visited.back();
  float y = mesh::height_at(nav, end_poly, best_point.x, best_point.y);
  if (!std::isfinite(y)) y = from->point.y;
  out.point = {best_point.x, y, best_point.y};
  return std::optional<SurfaceMove>{std::move(out)};
}

Result<std::optional<Location>> closest_point(const Planner& planner, Vec3 point,
                                              Vec3 search_extent) {
  return planner.locate(point, search_extent);
}

}  // namespace leapnav::plan
