// The navmesh pipeline end to end: voxelize, watershed regions, contours,
// polygons, height detail and the span → polygon map, with a timer per stage and a cancel check
// between stages. Deterministic: the output does not depend on thread count or triangle order.
#pragma once

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/voxel/voxelize.hpp"

namespace leapnav::mesh {

/// Counts of a build.
struct MeshStats {
  std::uint64_t regions = 0;
  std::uint64_t polygons = 0;
  std::uint64_t vertices = 0;
  double navmesh_area = 0;   ///< summed polygon area in xz [units: m²]
  double walkable_area = 0;  ///< eroded walkable spans (area != kNullArea) × cs² [units: m²]
};

/// Every intermediate of a build, for later stages (jump links use voxels.solid) and pictures.
struct BuildOutput {
  voxel::VoxelOutput voxels;
  RegionField regions;
  ContourSet contours;
  NavMesh navmesh;  ///< config = the build's config; heights and span map filled in
  MeshStats stats;
};

/// Builds the navmesh of `mesh`. Validates the config. Timers (besides the voxel stage's):
/// "regions", "contours", "polygons", "heights", "span_map"; with more than one thread the last
/// two run side by side, so their times overlap. Errors: those of the stages
/// (InvalidArgument, NonFinite, IndexOutOfRange, EmptyInput, MemoryLimit, Cancelled) and
/// Internal when the produced NavMesh fails validate().
[[nodiscard]] Result<BuildOutput> build_navmesh(const TriangleMesh& mesh, const BuildConfig& config,
                                                BuildContext& ctx);

/// Whether `scene` can be the scene `navmesh` was built from (tiled or not, rebuilt or not): the
/// grid make_grid gives over the scene's bounds with the navmesh configuration's cell sizes must
/// be the navmesh's grid bit for bit. A necessary condition, checked in one pass over the
/// vertices, that catches another scene before work that trusts the pairing (check_links would
/// otherwise sweep every link through unrelated triangles, for minutes, or pass links whose
/// scene has no triangles near them). Errors: InvalidArgument naming the scene and both grids,
/// or make_grid's error when the scene's bounds give no grid.
[[nodiscard]] Status check_built_from(const NavMesh& navmesh, const TriangleMesh& scene);

}  // namespace leapnav::mesh
