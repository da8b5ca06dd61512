// Independent checks on paths with jumps: segment structure (walk and jump segments alternate,
// share their joining points, cover the corridor), walk segments inside their sub-corridors, each
// jump naming a stored link of its (start, land) polygon pair, starting at the link's start and
// landing on its land segment, with the configuration's h and the fitted d'; and the exact
// soundness check of each fitted arc (jump::check_links on a one-link set landing there).
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "leapnav/core/config.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/trajectory.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/path.hpp"
#include "planning/planning_checks.hpp"

namespace leapnav::test {

/// Distance from p to the 3-D segment [a, b].
inline double distance_to_segment(Vec3 p, Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(b.x) - a.x;
  const double dy = static_cast<double>(b.y) - a.y;
  const double dz = static_cast<double>(b.z) - a.z;
  const double len2 = dx * dx + dy * dy + dz * dz;
  double u = 0.0;
  if (len2 > 0.0) {
    u = ((static_cast<double>(p.x) - a.x) * dx + (static_cast<double>(p.y) - a.y) * dy +
         (static_cast<double>(p.z) - a.z) * dz) /
        len2;
    u = std::clamp(u, 0.0, 1.0);
  }
  const double ex = a.x + u * dx - p.x;
  const double ey = a.y + u * dy - p.y;
  const double ez = a.z + u * dz - p.z;
  return std::sqrt(ex * ex + ey * ey + ez * ez);
}

/// Whether consecutive corridor polygons p -> q are walk neighbours.
inline bool walk_adjacent(const mesh::NavMesh& nav, std::uint32_t p, std::uint32_t q) {
  for (std::uint32_t s = nav.poly_first[p]; s < nav.poly_first[p + 1]; ++s) {
    if (nav.poly_neighbors[s] == q) return true;
  }
  return false;
}

/// The first problem found with a Found or Partial path (links may be null for walk-only
/// paths), or an empty string when it is valid. Walk containment uses `tolerance` [m].
inline std::string jump_path_problem(const mesh::NavMesh& nav, const jump::JumpLinkSet* links,
                                     const plan::Path& path, float tolerance = 1e-3F) {
  std::ostringstream why;
  if (path.status != plan::PathStatus::Found && path.status != plan::PathStatus::Partial) {
    return path.points.empty() && path.segments.empty() ? "" : "points without a path";
  }
  if (path.points.size() < 2 || path.segments.empty()) return "fewer than 2 points or no segment";
  if (path.segments.front().first != 0) return "first segment does not start at point 0";
  if (path.segments.back().last + 1 != path.points.size()) return "last segment is not the end";
  if (path.segments.front().corridor_first != 0 ||
      path.segments.back().corridor_last + 1 != path.corridor.size()) {
    return "segments do not cover the corridor";
  }
  std::uint32_t jumps = 0;
  double length = 0.0;
  for (std::size_t i = 1; i < path.points.size(); ++i) {
    length += distance(xz(path.points[i - 1]), xz(path.points[i]));
  }
  if (std::fabs(length - path.length) > 1e-5 * std::max(1.0, length)) return "length mismatch";
  for (std::size_t k = 0; k < path.segments.size(); ++k) {
    const plan::PathSegment& seg = path.segments[k];
    why.str("");
    why << "segment " << k << ": ";
    const bool walk = k % 2 == 0;
    if (seg.kind != (walk ? plan::SegmentKind::Walk : plan::SegmentKind::Jump)) {
      return why.str() + "kinds do not alternate walk, jump, walk";
    }
    if (seg.last <= seg.first || seg.last >= path.points.size()) return why.str() + "bad points";
    if (seg.corridor_last < seg.corridor_first || seg.corridor_last >= path.corridor.size()) {
      return why.str() + "bad corridor range";
    }
    if (k > 0) {
      if (seg.first != path.segments[k - 1].last) return why.str() + "does not join";
      if (seg.corridor_first != path.segments[k - 1].corridor_last) {
        return why.str() + "corridor ranges do not join";
      }
    }
    if (walk) {
      for (std::uint32_t c = seg.corridor_first; c < seg.corridor_last; ++c) {
        if (!walk_adjacent(nav, mesh::index(path.corridor[c]), mesh::index(path.corridor[c + 1]))) {
          return why.str() + "corridor polygons not walk neighbours";
        }
      }
      plan::Path piece;
      piece.points.assign(path.points.begin() + seg.first, path.points.begin() + seg.last + 1);
      piece.corridor.assign(path.corridor.begin() + seg.corridor_first,
                            path.corridor.begin() + seg.corridor_last + 1);
      if (!path_inside_corridor(nav, piece, tolerance)) return why.str() + "leaves its corridor";
      if (!in_polygon(nav, piece.corridor.front(), xz(piece.points.front()), tolerance) ||
          !in_polygon(nav, piece.corridor.back(), xz(piece.points.back()), tolerance)) {
        return why.str() + "ends outside its first or last polygon";
      }
      continue;
    }
    ++jumps;
    if (links == nullptr) return why.str() + "a jump without links";
    if (seg.last != seg.first + 1) return why.str() + "a jump is not two points";
    if (seg.corridor_last != seg.corridor_first + 1) return why.str() + "a jump spans != 2 polys";
    if (seg.link >= links->links.size()) return why.str() + "link id out of range";
    const jump::JumpLink& link = links->links[seg.link];
    if (link.start_poly != mesh::index(path.corridor[seg.corridor_first]) ||
        link.land_poly != mesh::index(path.corridor[seg.corridor_last])) {
      return why.str() + "link does not join its corridor polygons";
    }
    const Vec3 start = path.points[seg.first];
    const Vec3 landing = path.points[seg.last];
    if (!(start == link.start)) return why.str() + "does not start at the link's start";
    if (distance_to_segment(landing, link.land_a, link.land_b) > 1e-4) {
      return why.str() + "landing not on the land segment";
    }
    const float h = links->configs[link.config].height;
    if (seg.jump_height != h) return why.str() + "jump height is not the configuration's";
    const double fitted = jump::fit_distance(h, start, landing);
    if (!(fitted > 0.0) || std::fabs(fitted - seg.jump_distance) > 1e-4 * std::max(1.0, fitted)) {
      return why.str() + "jump distance is not the fitted d'";
    }
  }
  if (jumps != path.jump_count) return "jump_count mismatch";
  return "";
}

/// Jumps of `path` whose fitted arc fails the exact soundness check (one-link set per jump with
/// land_a = land_b = the landing).
inline std::uint64_t unsound_jumps(const mesh::NavMesh& nav, const jump::JumpLinkSet& links,
                                   const plan::Path& path, const TriangleMesh& triangles,
                                   const AgentConfig& agent) {
  jump::JumpLinkSet set;
  set.configs = links.configs;
  for (const plan::PathSegment& seg : path.segments) {
    if (seg.kind != plan::SegmentKind::Jump) continue;
    jump::JumpLink link = links.links[seg.link];
    link.land_a = path.points[seg.last];
    link.land_b = path.points[seg.last];
    set.links.push_back(link);
  }
  if (set.links.empty()) return 0;
  jump::index_links(set, nav.polygon_count());
  jump::LinkCheckOptions options;
  options.threads = 1;
  return jump::check_links(set, triangles, nav, agent, options).links_failed;
}

}  // namespace leapnav::test
