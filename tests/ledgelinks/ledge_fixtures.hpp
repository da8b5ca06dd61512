// Shared by the ledge-link tests: the configuration their closed-form scenes are built with, and
// the check of every link's rise against the navmesh's surface.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>

#include "leapnav/core/config.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::test {

/// The thesis grid (cell 0.25 m, radius 0.25 m, height 1.8 m) with a climb of 3 cells, jump-up
/// 6 cells and drop 8 cells.
inline BuildConfig ledge_config() {
  BuildConfig c = *named_config("thesis");
  c.agent.max_climb = 0.75F;
  c.agent.max_jump_up = 1.5F;
  c.agent.max_drop = 2.0F;
  return c;
}

/// The floor under a link's end `end` on polygon `poly`, measured on the navmesh's surface (its
/// height detail, as paths are lifted): mesh::height_at at the end moved 1 mm into the link along
/// its segment and half a cell into the polygon, away from the facing point `facing` (or towards
/// the polygon's centre when the two coincide in xz).
inline float surface_under(const mesh::NavMesh& nav, std::uint32_t poly, Vec3 end, Vec3 other_end,
                           Vec3 facing) {
  const double run_x = double{other_end.x} - end.x;
  const double run_z = double{other_end.z} - end.z;
  const double run = std::hypot(run_x, run_z);
  double ax = 0.0;
  double az = 0.0;
  if (run > 0.0) {
    ax = run_x / run;
    az = run_z / run;
  }
  double nx = -az;
  double nz = ax;
  double away_x = double{end.x} - facing.x;
  double away_z = double{end.z} - facing.z;
  if (std::hypot(away_x, away_z) < 1e-4) {
    const Vec3 c = mesh::polygon_center(nav, mesh::PolyId{poly});
    away_x = double{c.x} - end.x;
    away_z = double{c.z} - end.z;
  }
  if (nx * away_x + nz * away_z < 0.0) {
    nx = -nx;
    nz = -nz;
  }
  const double in = 0.05 * nav.grid.cell_size;
  const double step = std::min(1e-3, 0.5 * run);
  const auto x = static_cast<float>(end.x + step * ax + in * nx);
  const auto z = static_cast<float>(end.z + step * az + in * nz);
  return mesh::height_at(nav, mesh::PolyId{poly}, x, z);
}

/// How many link ends have a rise, destination floor above source floor measured on the surface
/// (surface_under) at both ends of the link, outside the link kind's range (with 1 mm slack); each
/// one is also a failed CHECK.
inline std::size_t check_surface_rises(const mesh::NavMesh& nav, const ledge::LedgeLinkSet& set,
                                       float walk_epsilon) {
  const AgentConfig& agent = nav.config.agent;
  const float slack = 1e-3F;
  std::size_t bad = 0;
  for (const ledge::LedgeLink& l : set.links) {
    const float rises[2] = {
        surface_under(nav, l.dest_poly, l.dest_a, l.dest_b, l.source_a) -
            surface_under(nav, l.source_poly, l.source_a, l.source_b, l.dest_a),
        surface_under(nav, l.dest_poly, l.dest_b, l.dest_a, l.source_b) -
            surface_under(nav, l.source_poly, l.source_b, l.source_a, l.dest_b)};
    for (const float rise : rises) {
      bool ok = true;
      switch (l.kind) {
        case ledge::LedgeKind::Walk:
          ok = std::abs(rise) <= walk_epsilon + slack;
          break;
        case ledge::LedgeKind::StepUp:
          ok = rise >= walk_epsilon - slack && rise <= agent.max_climb + slack;
          break;
        case ledge::LedgeKind::StepDown:
          ok = -rise >= walk_epsilon - slack && -rise <= agent.max_climb + slack;
          break;
        case ledge::LedgeKind::JumpUp:
          ok = rise >= agent.max_climb - slack && rise <= agent.max_jump_up + slack;
          break;
        case ledge::LedgeKind::Drop:
          ok = -rise >= agent.max_climb - slack && -rise <= agent.max_drop + slack;
          break;
        case ledge::LedgeKind::Ladder:
          ok = false;
          break;
      }
      CHECK_MESSAGE(ok, "a ", ledge::to_string(l.kind), " link from (", l.source_a.x, ", ",
                    l.source_a.y, ", ", l.source_a.z, ") to (", l.dest_b.x, ", ", l.dest_b.y, ", ",
                    l.dest_b.z, ") rises ", rise, " m on the surface");
      if (!ok) ++bad;
    }
  }
  return bad;
}

}  // namespace leapnav::test
