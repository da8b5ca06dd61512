// A scene's triangles to the flying grid: leapnav's rasterizer at cubic cells, then the
// heightfield resampling (identity at equal sizes).
#include <string>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/grid3d/convert.hpp"
#include "leapnav/voxel/rasterize.hpp"
#include "leapnav/voxel/walkable.hpp"

namespace leapnav::grid3d {

Result<OccupancyGrid> voxelize_scene(const TriangleMesh& mesh, float voxel_size,
                                     BuildContext& ctx) {
  if (!(voxel_size >= 0.001F && voxel_size <= 100.0F)) {
    return make_error(ErrorCode::InvalidArgument, "--voxel: " + std::to_string(voxel_size) +
                                                      " m is out of range (0.001..100 m)");
  }
  LEAPNAV_TRY(validate(mesh));
  BuildConfig config;
  config.voxel.cell_size = voxel_size;
  config.voxel.cell_height = voxel_size;
  const VoxelParams params = derive_voxel_params(config);
  LEAPNAV_TRY_ASSIGN(const GridSpec spec,
                     ::leapnav::make_grid(mesh.bounds(), voxel_size, voxel_size));
  LEAPNAV_TRY_ASSIGN(const voxel::TriangleAreas areas,
                     voxel::mark_walkable_triangles(mesh, params, ctx));
  LEAPNAV_TRY_ASSIGN(const voxel::Heightfield field,
                     voxel::rasterize(mesh, areas, spec, params, ctx));
  return from_heightfield(field, voxel_size);
}

}  // namespace leapnav::grid3d
