// Region outlines (pipeline.md §2): walk each region's boundary over cell edges, giving raw
// vertices at cell corners; simplify (keep region changes, Douglas-Peucker in between, split long
// border edges, straighten clear portals, drop degenerate segments) and bridge holes into the
// outer outline. Shared corners
// of adjacent regions get identical (x, y, z) so the polygon stage can weld them.
#pragma once

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh {

/// The simplified, hole-bridged outline(s) of every region of `regions` over `chf`.
///
/// Output contract (each Contour):
/// - vertices are grid corners, x in [0, width], z in [0, depth]; y is the highest floor among
///   the spans around that corner which are connected to the walking region's span there (so two
///   regions that meet at a corner through connected spans get the same y there);
/// - counter-clockwise in xz: the sum of x_i*z_{i+1} - x_{i+1}*z_i is positive; >= 3 vertices;
///   no zero-length edges; consecutive vertices differ in (x, z);
/// - vertices[i].neighbor_region is the region across the edge vertices[i] -> vertices[i+1]
///   (kNoRegion = border / wall). An edge that is a hole bridge has the contour's own region;
/// - the polygon is simple except that (a) after bridging a hole it runs along the bridge twice
///   (the bridge's two vertices appear twice each), (b) where the region touches itself or a
///   hole diagonally at a single cell corner, that corner appears twice, and (c) where a region
///   meets itself across an unconnected cell edge (a step higher than the climb inside one
///   region), the outline runs along that edge and back: a zero-width slit, like a bridge;
/// - a vertex where the neighbour region changes, or where three or more regions (kNoRegion
///   counting as one) meet, is always kept, and a chain shared by two regions is simplified
///   identically from both sides (same vertices with the same (x, y, z), reversed order);
/// - every raw vertex of a wall lies within max_edge_error_cells of the simplified outline; a
///   portal to another region is either simplified the same way or, as in Recast, one straight
///   edge between the vertices where the neighbour region changes: the latter when that chord
///   touches no other edge of either region (simplified, before hole bridging) but at its ends,
///   no such edge lies between the chord and the portal, and no other portal joins the same two
///   vertices (decided once per portal from both regions' first-pass outlines, so both regions
///   see the same edge); cells between a straight portal and its raw chain change sides between
///   the two regions only;
/// - raw holds the unsimplified walk: the outer loop followed by the hole loops (not bridged).
/// Contours are ordered by region id; a region normally has one contour (a region whose outline
/// walk yields several outer loops, e.g. pinched at a corner, gets one contour per loop).
/// Uses params.max_edge_error_cells (Douglas-Peucker tolerance, in cells) and
/// params.max_edge_len_cells (border edges longer than this are split; 0 = never).
/// A hole that cannot be bridged (no visible vertex) is dropped with a warning.
/// Deterministic for any ctx.threads(). Errors: InvalidArgument when `regions` does not match
/// `chf`; Cancelled.
[[nodiscard]] Result<ContourSet> build_contours(const voxel::CompactHeightfield& chf,
                                                const RegionField& regions,
                                                const VoxelParams& params, BuildContext& ctx);

/// Checks every contour: >= 3 vertices, positive orientation, coordinates within the grid,
/// no zero-length edges, neighbour region ids within the range of regions present, contours
/// ordered by region id. The message names the contour and vertex.
[[nodiscard]] Status validate(const ContourSet& contours);

/// A content hash of the grid and every contour (simplified and raw vertices).
[[nodiscard]] std::uint64_t content_hash(const ContourSet& contours);

}  // namespace leapnav::mesh
