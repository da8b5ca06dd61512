// Conversions between the occupancy grid and leapnav's solid heightfield (a run-length occupancy
// grid per column), and MovingAI's voxel benchmark files (.3dmap, .3dscen; Brewer & Sturtevant,
// SoCS 2018, as read by HOG2's VoxelGrid).
//
// .3dmap axis convention: the header `voxel W H D` gives the extents of the file's x, y and z;
// HOG2 stores voxel (x, y, z) at index x + W * (z + D * y), so y is its layer (slowest) axis.
// leapnav takes the file's (x, y, z) as its own voxel (x, y, z) unchanged: the file's y becomes
// leapnav's up axis. Costs, corner rules and the heuristic are symmetric under axis permutations,
// so a .3dscen's optimal costs hold whichever axis the map's author meant as up.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/file_read.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/grid3d/occupancy.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::grid3d {

/// Resamples a solid heightfield into cubic voxels of edge voxel_size (world origin kept): voxel
/// (i, j, k) is blocked iff some solid span overlaps its box with positive volume (conservative:
/// a voxel partly covered by solid is blocked). Free space above the field's top is free up to the
/// field's height bound. Extents are ceil(field extent / voxel_size). When voxel_size equals the
/// field's cell size and cell height the mapping is one to one. Errors: InvalidArgument
/// (non-positive size, a grid out of range), MemoryLimit.
[[nodiscard]] Result<OccupancyGrid> from_heightfield(const voxel::Heightfield& field,
                                                     float voxel_size);

/// The grid as a solid heightfield with cell size = cell height = voxel_size: one span per
/// vertical run of blocked voxels (area kNullArea). Lossless: from_heightfield(to_heightfield(g),
/// g.voxel_size) equals g. Errors: InvalidArgument when height exceeds 16-bit span heights.
[[nodiscard]] Result<voxel::Heightfield> to_heightfield(const OccupancyGrid& grid);

/// Parses .3dmap text (`voxel W H D` then one blocked `x y z` per line, 0-based; `rev_voxel W H D`
/// lists free voxels instead). `name` prefixes error messages ("name:line: ..."). Voxel size 1,
/// origin 0. Errors: ParseError (header, malformed line), IndexOutOfRange (a voxel outside the
/// extent), InvalidArgument / MemoryLimit (extent), EmptyInput.
[[nodiscard]] Result<OccupancyGrid> parse_3dmap(std::string_view text, std::string_view name);
/// Reads a .3dmap file of at most `max_bytes` bytes (read_file: IoError when it cannot be read,
/// MemoryLimit past the bound, naming the path).
[[nodiscard]] Result<OccupancyGrid> read_3dmap(const std::filesystem::path& path,
                                               std::uint64_t max_bytes = default_max_file_bytes());
/// The grid as .3dmap text (`voxel W H D`, then the blocked voxels in HOG2 index order).
[[nodiscard]] std::string write_3dmap(const OccupancyGrid& grid);

/// One .3dscen query: start, goal and the file's optimal cost (valid under the nocut rule).
struct ScenarioEntry {
  VoxelCoord start;
  VoxelCoord goal;
  double cost = 0.0;
  std::uint32_t line = 0;  ///< line in the file, for messages
};
/// A .3dscen file: `version N`, the map's file name, then `sx sy sz tx ty tz cost h-error [...]`.
struct Scenario {
  std::string map_name;
  std::vector<ScenarioEntry> entries;
};
/// Parses .3dscen text; errors name "name:line". Errors: ParseError, EmptyInput.
[[nodiscard]] Result<Scenario> parse_3dscen(std::string_view text, std::string_view name);
/// Reads a .3dscen file of at most `max_bytes` bytes (errors as read_3dmap's).
[[nodiscard]] Result<Scenario> read_3dscen(const std::filesystem::path& path,
                                           std::uint64_t max_bytes = default_max_file_bytes());

}  // namespace leapnav::grid3d

namespace leapnav {
struct TriangleMesh;
class BuildContext;
}  // namespace leapnav

namespace leapnav::grid3d {

/// A scene's occupancy at voxel_size: the triangles rasterized into a solid heightfield with
/// cubic cells over the mesh bounds (leapnav's voxel stage, so a voxel is solid iff a triangle
/// passes through it; closed meshes are hollow), then from_heightfield. Errors: the rasterizer's
/// (NonFinite, EmptyInput, MemoryLimit, ...), InvalidArgument for the size [range: 0.001..100 m].
[[nodiscard]] Result<OccupancyGrid> voxelize_scene(const TriangleMesh& mesh, float voxel_size,
                                                   BuildContext& ctx);

}  // namespace leapnav::grid3d
