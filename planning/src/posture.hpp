// Internal: crouch transitions along a path (seeds spec A8, area variant). Walk segments whose
// corridor passes between standing and crouch polygons (mesh::kPolyFlagCrouch) are split where
// the path crosses each such portal, so every walk segment has one posture.
#pragma once

#include <span>

#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/funnel.hpp"
#include "leapnav/planning/path.hpp"

namespace leapnav::plan::detail {

/// Sets the posture of every walk segment of `out` and splits those that cross a crouch
/// transition at the crossing (a point on the path's polyline, lifted with mesh::height_at on the
/// polygon entered). portals[i] is the portal between out.corridor[i] and out.corridor[i + 1].
/// Polygons the polyline only touches at a point (two cuts at one point) join the piece around
/// them. Without crouch polygons on the corridor `out` is left exactly as it is. When points are
/// inserted, length and length_3d are summed again over the new polyline.
void split_postures(const mesh::NavMesh& nav, std::span<const Portal> portals, Path& out);

}  // namespace leapnav::plan::detail
