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

/// A window of whole columns of a larger grid (a tile with its border): world columns
/// [x0, x0 + width) and rows [z0, z0 + depth) of `world`; they may reach past its edges.
struct GridWindow {
  GridSpec world;
  int x0 = 0;
  int z0 = 0;
  int width = 0;
  int depth = 0;
  /// The window as a grid of its own: `world` with origin at corner (x0, z0) (corner_to_world)
  /// and the window's width and depth.
  [[nodiscard]] GridSpec grid() const;
};

/// rasterize() into a window of a grid: every column of the window inside `window.world` gets
/// exactly the spans rasterize(mesh, areas, window.world, ...) gives that column (triangles are
/// clipped in world-grid coordinates at the world grid's planes, by the same steps), so tiles
/// rasterize as the whole grid does. Columns past the world grid's edges get the geometry there.
/// The result's grid is window.grid(). rasterize(grid) is this with the whole grid as window.
/// Same errors as rasterize.
[[nodiscard]] Result<Heightfield> rasterize_window(const TriangleMesh& mesh,
                                                   const TriangleAreas& areas,
                                                   const GridWindow& window,
                                                   const VoxelParams& params, BuildContext& ctx);

}  // namespace leapnav::voxel
