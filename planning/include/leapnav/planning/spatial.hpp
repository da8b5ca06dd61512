// Spatial queries over a Planner's mesh that engines use for spawning and AI: the polygons within a
// radius, a random point within a circle over the surface reachable from its centre (as Detour's
// findRandomPointAroundCircle, but uniform over the disc's part of the surface), and a random
// point anywhere reachable from a polygon. Random points are deterministic for a seed on every
// platform (raw std::mt19937_64 output, as plan::random_points).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"

namespace leapnav::plan {

/// The polygons whose xz outline comes within `radius` of the centre's xz (closed: touching
/// counts) and whose y bounds meet [center.y - height, center.y + height], by ascending id.
/// Errors on non-finite input or a negative radius or height.
[[nodiscard]] Result<std::vector<mesh::PolyId>> polygons_within_radius(const Planner& planner,
                                                                       Vec3 center, float radius,
                                                                       float height = 4.0F);

/// A random point of the surface within `radius` (xz) of `center`, uniform over that part of the
/// polygons that are within the radius and connected to the centre's polygon (located within
/// `search_extent`) by walking through such polygons. Rejection sampling: nullopt when the
/// centre is off the mesh or no point was accepted in 256 tries (a disc that barely meets the
/// mesh). Errors on non-finite input or a negative radius.
[[nodiscard]] Result<std::optional<MeshPoint>> random_point_in_circle(
    const Planner& planner, Vec3 center, float radius, std::uint64_t seed,
    Vec3 search_extent = {2.0F, 4.0F, 2.0F});

/// The nearest wall around a point (Detour's findDistanceToWall).
struct WallDistance {
  bool found = false;     ///< a wall lies within the radius
  float distance = 0.0F;  ///< xz distance to it, or the radius when none [units: m]
  Vec3 point;             ///< the nearest wall point (found only), at the centre's located height
  Vec2 normal;            ///< the wall's unit normal into the mesh (x, z) (found only)
};

/// The nearest boundary edge (wall) in xz among the polygons connected to the centre's polygon
/// (located within `search_extent`) through shared edges no farther from the centre than
/// `max_radius` and the nearest wall found so far (Detour's pruning; on a single-level surface
/// this is every polygon the disc up to the nearest wall meets).
/// nullopt when the centre is off the mesh. Errors on non-finite input or a negative radius.
[[nodiscard]] Result<std::optional<WallDistance>> distance_to_wall(
    const Planner& planner, Vec3 center, float max_radius, Vec3 search_extent = {2.0F, 4.0F, 2.0F});

/// A random point uniform over the area of the polygons reachable from `from` by walking (its
/// island). IndexOutOfRange when `from` is not a polygon of the mesh; nullopt when the island has
/// no area.
[[nodiscard]] Result<std::optional<MeshPoint>> random_point_reachable(const Planner& planner,
                                                                      mesh::PolyId from,
                                                                      std::uint64_t seed);

}  // namespace leapnav::plan
