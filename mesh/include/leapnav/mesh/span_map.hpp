// Span → polygon map (pipeline.md §2, thesis §5.3): for every walkable span, the polygon of its
// region that contains the span's sample corner, so jump links can start from voxel corners and
// know which polygon they leave from. Regions are height fields, so a column holds at most one
// span per region and the polygons of a region never stack.
#pragma once

#include <cstdint>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh {

/// The span → polygon map of a NavMesh (moved into NavMesh::span_column_first / span_y /
/// span_poly; see NavMesh for the rule).
struct SpanMap {
  std::vector<std::uint32_t> column_first;
  std::vector<std::uint16_t> span_y;
  std::vector<std::uint32_t> span_poly;
};

/// Maps every walkable span with a region to the lowest-numbered polygon of that region whose
/// closed xz outline contains the span's (min x, min z) column corner; kNoPoly otherwise.
[[nodiscard]] Result<SpanMap> build_span_map(const NavMesh& polygons,
                                             const voxel::CompactHeightfield& field,
                                             const RegionField& regions, BuildContext& ctx);

}  // namespace leapnav::mesh
