// Contours to convex polygons (pipeline.md §2 "Polygons"): ear-clipping triangulation of each
// contour in exact integer grid-corner coordinates, vertex welding across contours, greedy merging
// of triangles into convex polygons along the longest shared edge (on small contours replaced by
// the fewest-polygon partition of the same triangles where that keeps the portal-midpoint paths
// through the contour as short), and edge adjacency.
// Invariants: polygons are convex (a corner may be straight, 180 degrees, where a merge joined two
// collinear edges) and counter-clockwise in xz (positive shoelace over (x, z)),
// have 3..max_verts_per_poly vertices, and adjacency is symmetric.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/types.hpp"

namespace leapnav::mesh {

/// Contour vertices at the same grid corner whose heights differ by at most this many cell
/// heights become one navmesh vertex (the first one met, in contour order, keeps its height);
/// Recast uses the same tolerance.
inline constexpr int kWeldHeightCells = 2;

/// A point of a polygon to triangulate, in integer grid-corner coordinates (x, z).
struct GridPoint {
  std::int32_t x = 0;
  std::int32_t z = 0;
  friend bool operator==(const GridPoint&, const GridPoint&) = default;
};

/// The triangles of one simple polygon as indices into its points, each counter-clockwise.
struct Triangulation {
  std::vector<std::array<std::uint32_t, 3>> triangles;
  /// True when the strict and the loose (touching allowed) ear tests both failed and some ears
  /// were cut without the diagonal test; the triangles may then overlap.
  bool fell_back = false;
};

/// Ear clipping of a counter-clockwise polygon (positive shoelace over (x, z)). Robust to
/// collinear points (no zero-area triangle is produced), to repeated points and to a polygon
/// touching itself along a bridge. Always terminates: every step removes one vertex. Cuts the ear
/// with the shortest diagonal first. Consecutive repeated points are skipped.
[[nodiscard]] Triangulation triangulate_polygon(std::span<const GridPoint> points);

/// Builds the polygon part of a NavMesh from contours: grid, vertices (world units:
/// x = origin.x + ix * cs, y = origin.y + iy * ch, z = origin.z + iz * cs), poly_first,
/// poly_vertices, poly_neighbors, poly_region, poly_area, poly_flags (0) and poly_bounds (of the
/// vertices). Height detail and the span map are left empty; config is default-constructed except
/// config.poly.max_verts_per_poly = params.max_verts_per_poly.
/// Polygons are ordered by contour, and within a contour by merge order. Contours whose
/// triangulation needed the fallback are reported through ctx.warn.
[[nodiscard]] Result<NavMesh> build_polygons(const ContourSet& contours, const VoxelParams& params,
                                             BuildContext& ctx);

}  // namespace leapnav::mesh
