// The voxel stage end to end (pipeline.md §1): validate the inputs, make the grid over the mesh
// bounds, then marking + rasterization, the three filters, the compact heightfield, erosion and
// the distance field, each timed in the BuildContext under its stage name.
#include "leapnav/voxel/voxelize.hpp"

#include <string>

#include "leapnav/core/grid.hpp"
#include "leapnav/voxel/compact.hpp"
#include "leapnav/voxel/distance_field.hpp"
#include "leapnav/voxel/erode.hpp"
#include "leapnav/voxel/filters.hpp"
#include "leapnav/voxel/mark_areas.hpp"
#include "leapnav/voxel/rasterize.hpp"
#include "leapnav/voxel/walkable.hpp"

namespace leapnav::voxel {

Result<VoxelOutput> voxelize(const TriangleMesh& mesh, const BuildConfig& config,
                             BuildContext& ctx) {
  LEAPNAV_TRY(validate(config));
  LEAPNAV_TRY(validate(mesh));
  if (mesh.triangles.empty())
    return make_error(ErrorCode::EmptyInput, mesh.label() + ": the mesh has no triangles");
  const VoxelParams params = derive_voxel_params(config);
  LEAPNAV_TRY_ASSIGN(const GridSpec grid,
                     make_grid(mesh.bounds(), params.cell_size, params.cell_height));
  return voxelize_on_grid(mesh, grid, config, ctx);
}

Result<VoxelOutput> voxelize_on_grid(const TriangleMesh& mesh, const GridSpec& grid,
                                     const BuildConfig& config, BuildContext& ctx) {
  return voxelize_window(mesh, GridWindow{grid, 0, 0, grid.width, grid.depth}, config, ctx);
}

Result<VoxelOutput> voxelize_window(const TriangleMesh& mesh, const GridWindow& window,
                                    const BuildConfig& config, BuildContext& ctx,
                                    DistanceField distance) {
  LEAPNAV_TRY(validate(config));
  LEAPNAV_TRY(validate(mesh));
  if (mesh.triangles.empty())
    return make_error(ErrorCode::EmptyInput, mesh.label() + ": the mesh has no triangles");
  const VoxelParams params = derive_voxel_params(config);
  LEAPNAV_TRY(ctx.check_cancel("rasterize"));

  ctx.progress("voxel", 0.0);
  VoxelOutput out;
  out.stats.triangles = mesh.triangles.size();
  {
    auto timer = ctx.scoped_timer("rasterize");
    LEAPNAV_TRY_ASSIGN(const TriangleAreas areas, mark_walkable_triangles(mesh, params, ctx));
    out.stats.walkable_triangles = areas.walkable;
    out.stats.degenerate_triangles = areas.degenerate;
    LEAPNAV_TRY_ASSIGN(out.solid, rasterize_window(mesh, areas, window, params, ctx));
  }
  out.stats.spans = out.solid.spans.size();
  {
    ctx.progress("voxel", 0.6);
    auto timer = ctx.scoped_timer("filter");
    LEAPNAV_TRY_ASSIGN(out.solid, filter_walkable(std::move(out.solid), params, ctx));
  }
  {
    ctx.progress("voxel", 0.7);
    auto timer = ctx.scoped_timer("compact");
    LEAPNAV_TRY_ASSIGN(out.compact, build_compact(out.solid, params, ctx));
  }
  out.stats.compact_spans = out.compact.spans.size();
  {
    ctx.progress("voxel", 0.8);
    auto timer = ctx.scoped_timer("erode");
    LEAPNAV_TRY_ASSIGN(out.compact, erode(std::move(out.compact), params, ctx));
  }
  if (!mesh.area_volumes.empty()) {
    auto timer = ctx.scoped_timer("mark_areas");
    LEAPNAV_TRY_ASSIGN(out.compact,
                       mark_area_volumes(std::move(out.compact), mesh.area_volumes, ctx));
  }
  if (distance == DistanceField::compute) {
    ctx.progress("voxel", 0.9);
    auto timer = ctx.scoped_timer("distance_field");
    LEAPNAV_TRY_ASSIGN(out.compact, distance_field(std::move(out.compact), ctx));
  }
  ctx.progress("voxel", 1.0);
  for (const std::uint8_t area : out.compact.areas) out.stats.walkable_spans += area != kNullArea;
  if (out.stats.walkable_spans == 0)
    ctx.warn(mesh.label() + ": no walkable area after filtering and erosion");
  return out;
}

}  // namespace leapnav::voxel
