// The voxel stage end to end: walkable marking, rasterization, the three
// filters, the compact heightfield, erosion by the agent radius and the distance field.
#pragma once

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/voxel/heightfield.hpp"
#include "leapnav/voxel/rasterize.hpp"

namespace leapnav::voxel {

/// Counts reported by voxelize().
struct VoxelStats {
  std::uint64_t triangles = 0;             ///< triangles in the input mesh
  std::uint64_t walkable_triangles = 0;    ///< triangles within the slope limit
  std::uint64_t degenerate_triangles = 0;  ///< zero-area triangles, dropped
  std::uint64_t spans = 0;                 ///< solid spans after merging
  std::uint64_t compact_spans = 0;         ///< open walkable spans before erosion
  std::uint64_t walkable_spans = 0;        ///< open walkable spans after erosion
};

/// What the voxel stage hands on: the filtered solid heightfield (the jump-link stage builds its
/// obstacle field from it), the eroded compact heightfield with its distance field, and counts.
struct VoxelOutput {
  Heightfield solid;
  CompactHeightfield compact;
  VoxelStats stats;
};

/// Runs the voxel stage on `mesh` with `config` on a grid covering the mesh bounds
/// (make_grid(mesh.bounds(), cell_size, cell_height)). Validates the config and the mesh first.
/// Times the stages "rasterize" (marking included), "filter", "compact", "erode" and
/// "distance_field" in ctx, reports progress as ("voxel", 0..1) and runs on ctx.threads(). A mesh
/// with no walkable area gives empty compact spans and a warning, not an error. Errors:
/// InvalidArgument (config, grid too large), NonFinite, IndexOutOfRange, EmptyInput (no triangles),
/// MemoryLimit, Cancelled.
[[nodiscard]] Result<VoxelOutput> voxelize(const TriangleMesh& mesh, const BuildConfig& config,
                                           BuildContext& ctx);

/// The voxel stage on a given grid instead of one over the mesh bounds (a tile of a larger grid:
/// the parts of triangles outside `grid` are skipped). voxelize(mesh, config, ctx) is this with
/// make_grid(mesh.bounds(), ...). Same timers and errors as voxelize.
[[nodiscard]] Result<VoxelOutput> voxelize_on_grid(const TriangleMesh& mesh, const GridSpec& grid,
                                                   const BuildConfig& config, BuildContext& ctx);

/// The voxel stage on a window of a grid (a tile with its border): rasterized with
/// rasterize_window, so each column inside window.world gets the spans the whole grid's
/// rasterization gives it; the filters, erosion and distance field then run on the window alone.
/// voxelize_on_grid(mesh, grid, ...) is this with the whole grid as window. Same timers and
/// errors as voxelize.
/// Whether voxelize_window computes the compact heightfield's distance field (regions need it;
/// the jump-link search reads the spans only).
enum class DistanceField : std::uint8_t { compute, skip };

[[nodiscard]] Result<VoxelOutput> voxelize_window(const TriangleMesh& mesh,
                                                  const GridWindow& window,
                                                  const BuildConfig& config, BuildContext& ctx,
                                                  DistanceField distance = DistanceField::compute);

}  // namespace leapnav::voxel
