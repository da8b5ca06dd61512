// Authored ladders (ladders.hpp): ends attached to the nearest polygon within reach.
#include "leapnav/ledgelinks/ladders.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace leapnav::ledge {
namespace {

/// Distance in xz from p to polygon `poly` (0 inside).
double xz_distance(const mesh::NavMesh& m, std::uint32_t poly, Vec2 p) {
  const std::uint32_t first = m.poly_first[poly];
  const std::uint32_t last = m.poly_first[poly + 1];
  bool inside = true;
  double best = std::numeric_limits<double>::infinity();
  for (std::uint32_t s = first; s < last; ++s) {
    const Vec2 a = xz(m.vertices[m.poly_vertices[s]]);
    const Vec2 b = xz(m.vertices[m.poly_vertices[s + 1 == last ? first : s + 1]]);
    const double ex = static_cast<double>(b.x) - a.x;
    const double ez = static_cast<double>(b.y) - a.y;
    const double px = static_cast<double>(p.x) - a.x;
    const double pz = static_cast<double>(p.y) - a.y;
    if (ex * pz - ez * px < 0.0) inside = false;
    const double len2 = ex * ex + ez * ez;
    const double t = len2 > 0.0 ? std::clamp((px * ex + pz * ez) / len2, 0.0, 1.0) : 0.0;
    best = std::min(best, std::hypot(px - t * ex, pz - t * ez));
  }
  return inside ? 0.0 : best;
}

std::string point_text(Vec3 p) {
  std::ostringstream out;
  out << '(' << p.x << ", " << p.y << ", " << p.z << ')';
  return out.str();
}

}  // namespace

Result<std::vector<LedgeLink>> ladder_links(const mesh::NavMesh& navmesh,
                                            const std::vector<Ladder>& ladders,
                                            const LadderOptions& options) {
  if (!(std::isfinite(options.climb_speed) && options.climb_speed > 0.0F))
    return make_error(ErrorCode::InvalidArgument, "ladders: climb_speed must be finite and > 0");
  const AgentConfig& agent = navmesh.config.agent;
  const double reach_xz = static_cast<double>(agent.radius) + navmesh.grid.cell_size;
  const double reach_y =
      std::max(static_cast<double>(agent.max_climb), 2.0 * navmesh.grid.cell_height);
  std::vector<LedgeLink> out;
  for (std::size_t i = 0; i < ladders.size(); ++i) {
    const Ladder& ladder = ladders[i];
    std::uint32_t ends[2] = {0, 0};
    for (int end = 0; end < 2; ++end) {
      const Vec3 p = end == 0 ? ladder.bottom : ladder.top;
      const std::string name =
          "ladder " + std::to_string(i) + ": " + (end == 0 ? "bottom " : "top ") + point_text(p);
      if (!is_finite(p)) return make_error(ErrorCode::InvalidArgument, name + " is not finite");
      double best = std::numeric_limits<double>::infinity();
      std::uint32_t best_poly = mesh::kNoPoly;
      for (std::uint32_t poly = 0; poly < navmesh.polygon_count(); ++poly) {
        const AABB& b = navmesh.poly_bounds[poly];
        if (p.x < b.min.x - reach_xz || p.x > b.max.x + reach_xz || p.z < b.min.z - reach_xz ||
            p.z > b.max.z + reach_xz)
          continue;
        const double dxz = xz_distance(navmesh, poly, xz(p));
        if (dxz > reach_xz) continue;
        const double h = mesh::height_at(navmesh, mesh::PolyId{poly}, p.x, p.z);
        if (!std::isfinite(h)) continue;
        const double dy = std::abs(h - p.y);
        if (dy > reach_y) continue;
        const double d = std::hypot(dxz, dy);
        if (d < best) {
          best = d;
          best_poly = poly;
        }
      }
      if (best_poly == mesh::kNoPoly) {
        std::ostringstream why;
        why << name << " is not on the navmesh (no polygon within " << reach_xz
            << " m horizontally and " << reach_y << " m vertically)";
        return make_error(ErrorCode::InvalidArgument, why.str());
      }
      ends[end] = best_poly;
    }
    if (ends[0] == ends[1])
      return make_error(
          ErrorCode::InvalidArgument,
          "ladder " + std::to_string(i) + ": both ends are on polygon " + std::to_string(ends[0]));
    const float cost = distance(ladder.bottom, ladder.top) / options.climb_speed;
    LedgeLink up;
    up.kind = LedgeKind::Ladder;
    up.source_poly = ends[0];
    up.dest_poly = ends[1];
    up.source_a = up.source_b = ladder.bottom;
    up.dest_a = up.dest_b = ladder.top;
    up.cost = cost;
    LedgeLink down = up;
    down.source_poly = ends[1];
    down.dest_poly = ends[0];
    down.source_a = down.source_b = ladder.top;
    down.dest_a = down.dest_b = ladder.bottom;
    out.push_back(up);
    out.push_back(down);
  }
  return out;
}

}  // namespace leapnav::ledge
