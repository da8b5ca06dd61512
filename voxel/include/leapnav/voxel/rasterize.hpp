// Triangle rasterization into solid spans (pipeline.md §1, thesis §3.1): each triangle is clipped
// to the row slabs of the grid, then to the column slabs of each row; a clipped polygon's y extent
// gives a span. Fragments are merged per column in a canonical order, so the output does not
// depend on triangle order or thread count.
#pragma once

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/voxel/heightfield.hpp"
#include "leapnav/voxel/walkable.hpp"

namespace leapnav::voxel {

/// Rasterizes every non-dropped triangle of `mesh` (areas from mark_walkable_triangles) into
/// `grid`. A clipped polygon with y range [ymin, ymax] (world) gives the fragment
/// [floor((ymin - origin.y) / ch), ceil((ymax - origin.y) / ch)), at least one cell tall and
/// clamped to [0, grid.height]; parts outside the grid are skipped. Per column, all fragments are
/// sorted by (min, max, area) and merged in that order: overlapping or touching spans merge; the
/// merged area is the larger id when the tops are within params.walkable_climb of each other,
/// else the area of the span with the higher top. Runs in bands of rows on ctx.threads().
/// Errors: InvalidArgument when areas does not match the mesh or the grid is empty;
/// IndexOutOfRange; MemoryLimit (checked before allocating the column tables, the worst case of
/// the per-band fragment buffers, and the spans); Cancelled.
[[nodiscard]] Result<Heightfield> rasterize(const TriangleMesh& mesh, const TriangleAreas& areas,
                                            const GridSpec& grid, const VoxelParams& params,
                                            BuildContext& ctx);

}  // namespace leapnav::voxel
