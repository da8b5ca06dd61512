// Surface queries engines use beside paths: a raycast along the mesh (as Detour's raycast: walk the
// segment's xz projection from polygon to polygon through shared edges, clipping it against each
// convex polygon exactly, Cyrus-Beck, until it leaves through a boundary edge or ends), and the
// closest point on the mesh with its height.
#pragma once

#include <optional>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/query.hpp"

namespace leapnav::plan {

/// What a raycast along the surface found.
struct RaycastHit {
  /// True when the segment leaves the mesh through a boundary edge (a wall) before its end.
  bool hit = false;
  /// The fraction of the segment start -> end (in xz) travelled on the mesh: the wall's
  /// crossing when hit, else 1 [range: 0..1].
  float t = 1.0F;
  /// The point at t, lifted onto the last visited polygon with mesh::height_at [units: m].
  Vec3 point;
  /// Hit only: the wall's unit normal in xz, pointing into the mesh (x, z); (0, 0) otherwise.
  Vec2 normal;
  /// The polygons the segment crossed, the start's polygon first.
  std::vector<mesh::PolyId> visited;
};

/// Casts the segment start -> end along the mesh surface from the polygon that locate() finds for
/// `start` (within `search_extent`; the start is first moved to the located point, so the cast
/// begins on the mesh). Only the xz projection matters for the walk; the surface it follows is the
/// one connected to the start's polygon, so it never jumps to another floor. nullopt when no
/// polygon is near the start. Errors on non-finite input or a negative extent.
[[nodiscard]] Result<std::optional<RaycastHit>> raycast(const Planner& planner, Vec3 start,
                                                        Vec3 end,
                                                        Vec3 search_extent = {2.0F, 4.0F, 2.0F});

/// Where a move along the surface ends.
struct SurfaceMove {
  /// The target when the surface connects it to the start within the search disc, else the
  /// point of a wall (boundary edge) of the visited polygons nearest the target; lifted with
  /// mesh::height_at [units: m].
  Vec3 point;
  bool reached = false;  ///< point is the target (its xz)
  /// The polygons from the start's to the polygon of `point` (breadth-first parents).
  std::vector<mesh::PolyId> visited;
};

/// Moves from `start` towards `target` along the surface, sliding along walls (as Detour's
/// moveAlongSurface): a breadth-first search over polygons whose shared edges come within half
/// the move's length (plus 1 mm) of its midpoint, from the start's polygon (located within
/// `search_extent`). nullopt when the start is off the mesh. Errors on non-finite input.
[[nodiscard]] Result<std::optional<SurfaceMove>> move_along_surface(
    const Planner& planner, Vec3 start, Vec3 target, Vec3 search_extent = {2.0F, 4.0F, 2.0F});

/// The point of the mesh nearest `point` within `search_extent` (Planner::locate) with the
/// surface height there: Location::point.y is the floor height at the located xz.
[[nodiscard]] Result<std::optional<Location>> closest_point(const Planner& planner, Vec3 point,
                                                            Vec3 search_extent = {2.0F, 4.0F,
                                                                                  2.0F});

}  // namespace leapnav::plan
