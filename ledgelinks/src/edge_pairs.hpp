// Stage 1 of the ledge pass: the navmesh's boundary edges, their snapped vertical planes, and the
// pairs of edges that face each other across at most max_gap (Golodetz Listing 2, with snapped
// integer plane keys instead of the article's non-transitive tolerance comparator).
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::ledge::detail {

/// A boundary edge, from vertex p to vertex q of its polygon (CCW in xz, so the polygon lies to
/// its left and `normal` points out of it).
struct BoundaryEdge {
  std::uint32_t poly = 0;
  std::uint32_t slot = 0;  ///< index into NavMesh::poly_vertices of p
  Vec3 p;
  Vec3 q;
  double nx = 0.0;  ///< unit outward normal in xz
  double nz = 0.0;
  std::int32_t angle_bin = 0;   ///< snapped direction of the plane's line (mod 180 degrees)
  std::int64_t offset_bin = 0;  ///< snapped offset of the plane along the bin's normal
};

/// What pairing needs to know.
struct PairParams {
  double max_gap = 0.0;        ///< largest gap between the two edges [units: m]
  double min_gap = 0.0;        ///< most negative gap (overlapping edges) accepted [units: m]
  double max_angle_deg = 2.0;  ///< largest angle between the edge lines
  double min_overlap = 0.0;    ///< shortest common stretch [units: m]
  /// How far an outline vertex may lie off the straight boundary it simplifies; > 0 (tiled
  /// builds) widens the angle allowed for a pair by atan(outline_error / the shorter edge's
  /// length), up to max_total_angle_deg; 0: max_angle_deg alone [units: m].
  double outline_error = 0.0;
  double max_total_angle_deg = 0.0;  ///< [units: deg]
};

/// Boundary edges of `navmesh` with their plane keys, sorted by (angle_bin, offset_bin, then the
/// edge's coordinates): a total order on integers and exact floats, independent of polygon order.
[[nodiscard]] std::vector<BoundaryEdge> boundary_edges(const mesh::NavMesh& navmesh,
                                                       const PairParams& params);

/// Number of distinct (angle_bin, offset_bin) groups of sorted edges.
[[nodiscard]] std::uint64_t count_planes(const std::vector<BoundaryEdge>& edges);

/// The frame a pair of edges is measured in, exactly negated when e and f are swapped: n along
/// the mean of e's outward normal and -f's, u = n rotated by +90 degrees (along the line); the
/// edges' end positions along u and their common stretch [lo, hi].
struct PairFrame {
  double nx = 0.0;
  double nz = 0.0;
  double ux = 0.0;
  double uz = 0.0;
  double e0 = 0.0;  ///< along(e.p)
  double e1 = 0.0;  ///< along(e.q)
  double f0 = 0.0;  ///< along(f.p)
  double f1 = 0.0;  ///< along(f.q)
  double lo = 0.0;  ///< start of the overlap along u
  double hi = 0.0;  ///< end of the overlap along u (hi <= lo: none)
  [[nodiscard]] double along(Vec3 v) const { return ux * v.x + uz * v.z; }
  [[nodiscard]] double across(Vec3 v) const { return nx * v.x + nz * v.z; }
};
/// The frame of e and f (their normals must not be equal).
[[nodiscard]] PairFrame pair_frame(const BoundaryEdge& e, const BoundaryEdge& f);

/// The exact pair predicate, symmetric in e and f (see facing_pairs).
[[nodiscard]] bool edges_face(const BoundaryEdge& e, const BoundaryEdge& f,
                              const PairParams& params);

/// Unordered pairs (i < j of the sorted edges) of edges of different polygons whose outward
/// normals are opposite within max_angle_deg, each in front of the other by a gap in
/// [min_gap, max_gap], overlapping by more than min_overlap along the first edge. The pair set is
/// decided by an exact symmetric predicate; the plane keys only choose which edges are compared.
[[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint32_t>> facing_pairs(
    const std::vector<BoundaryEdge>& edges, const PairParams& params);

}  // namespace leapnav::ledge::detail
