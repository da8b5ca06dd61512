// A uniform cubic occupancy grid for flying agents (Ranttila 2019, spec seeds-002-004 C1-G, C.3):
// each voxel free or blocked, one bit per voxel. Storage is one bit stream over the grid padded by
// a blocked border of one voxel on every side (so a 3x3x3 neighbourhood never leaves the stream),
// x fastest, then z, then y (up): bit index px + PW * (pz + PD * py) after a blocked guard.
// Invariant (validate): the border, the guard and the tail are blocked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::grid3d {

/// A voxel position; y is up (leapnav's convention), x and z span the ground plane.
struct VoxelCoord {
  int x = 0;
  int y = 0;
  int z = 0;
  friend constexpr bool operator==(VoxelCoord, VoxelCoord) = default;
};

/// Largest side accepted by make_grid (voxels).
inline constexpr int kMaxGridSide3 = 1 << 16;
/// Largest voxel count accepted by make_grid.
inline constexpr std::uint64_t kMaxGridVoxels = std::uint64_t{1} << 34;

/// The occupancy grid. Out of bounds counts as blocked.
struct OccupancyGrid {
  int width = 0;            ///< voxels along x
  int height = 0;           ///< voxels along y (up)
  int depth = 0;            ///< voxels along z
  Vec3 origin;              ///< world position of voxel (0, 0, 0)'s minimum corner [units: m]
  float voxel_size = 1.0F;  ///< edge of a voxel [units: m]
  /// The padded bit stream (1 = blocked); see the file comment. Size from stream_words().
  std::vector<std::uint64_t> bits;

  /// Padded extents and strides of the stream.
  [[nodiscard]] std::int64_t padded_width() const { return width + 2; }
  [[nodiscard]] std::int64_t padded_depth() const { return depth + 2; }
  [[nodiscard]] std::int64_t padded_height() const { return height + 2; }
  [[nodiscard]] std::int64_t stride_z() const { return padded_width(); }
  [[nodiscard]] std::int64_t stride_y() const { return padded_width() * padded_depth(); }
  /// Number of padded cells: valid node ids are [0, padded_count()).
  [[nodiscard]] std::int64_t padded_count() const { return stride_y() * padded_height(); }
  /// Blocked guard bits in front of node id 0 (a multiple of 64, at least one y layer).
  [[nodiscard]] std::int64_t guard_bits() const {
    return ((stride_y() + stride_z() + 64) / 64) * 64;
  }
  /// Words the stream needs (guard, cells, guard, and one spare word for unaligned reads).
  [[nodiscard]] std::int64_t stream_words() const {
    return (2 * guard_bits() + padded_count() + 63) / 64 + 1;
  }

  [[nodiscard]] bool in_bounds(VoxelCoord v) const {
    return v.x >= 0 && v.y >= 0 && v.z >= 0 && v.x < width && v.y < height && v.z < depth;
  }
  /// The padded node id of an in-bounds voxel.
  [[nodiscard]] std::int64_t node(VoxelCoord v) const {
    return (v.x + 1) + stride_z() * (v.z + 1) + stride_y() * (v.y + 1);
  }
  /// The voxel of a node id (may be a border cell: then a coordinate is -1 or the extent).
  [[nodiscard]] VoxelCoord coord(std::int64_t node_id) const {
    const std::int64_t py = node_id / stride_y();
    const std::int64_t rest = node_id - py * stride_y();
    const std::int64_t pz = rest / stride_z();
    const std::int64_t px = rest - pz * stride_z();
    return {static_cast<int>(px - 1), static_cast<int>(py - 1), static_cast<int>(pz - 1)};
  }
  /// Whether the cell with this padded node id is blocked (border cells are).
  [[nodiscard]] bool blocked_node(std::int64_t node_id) const {
    const auto b = static_cast<std::uint64_t>(node_id + guard_bits());
    return ((bits[b >> 6] >> (b & 63)) & 1U) != 0;
  }
  /// Whether a voxel is blocked; out of bounds is blocked.
  [[nodiscard]] bool blocked(VoxelCoord v) const { return !in_bounds(v) || blocked_node(node(v)); }
  /// Sets an in-bounds voxel's state.
  void set_blocked(VoxelCoord v, bool is_blocked);

  /// Voxels blocked / free inside the bounds.
  [[nodiscard]] std::uint64_t blocked_count() const;
  [[nodiscard]] std::uint64_t voxel_count() const {
    return static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) *
           static_cast<std::uint64_t>(depth);
  }
  /// Bytes held by the bit stream.
  [[nodiscard]] std::uint64_t memory_bytes() const { return bits.size() * sizeof(std::uint64_t); }

  /// World centre of a voxel.
  [[nodiscard]] Vec3 center(VoxelCoord v) const;
  /// The voxel containing a world point (may be out of bounds; non-finite gives out of bounds).
  [[nodiscard]] VoxelCoord voxel_at(Vec3 p) const;
};

/// An all-free grid of the given extent (the border blocked). Errors: InvalidArgument when a side
/// is < 1 or > kMaxGridSide3; MemoryLimit when the voxel count exceeds kMaxGridVoxels.
[[nodiscard]] Result<OccupancyGrid> make_grid(int width, int height, int depth, Vec3 origin = {},
                                              float voxel_size = 1.0F);

/// Checks the stream size and that guard, border and tail bits are blocked; names the first bad
/// cell.
[[nodiscard]] Status validate(const OccupancyGrid& grid);

/// Equality of extents, placement and every in-bounds voxel.
[[nodiscard]] bool same_occupancy(const OccupancyGrid& a, const OccupancyGrid& b);

/// A content hash of extents, placement and the stream.
[[nodiscard]] std::uint64_t content_hash(const OccupancyGrid& grid);

/// Half extents of an agent's box in voxels: the agent centred on voxel v occupies
/// [v - r, v + r] per axis. {0, 0, 0} is a point agent.
struct AgentBox {
  int radius_x = 0;  ///< [units: voxels] [range: 0..64]
  int radius_y = 0;  ///< [units: voxels] [range: 0..64]
  int radius_z = 0;  ///< [units: voxels] [range: 0..64]
};

/// Configuration space for a box agent: a voxel is blocked in the result iff the agent's box
/// centred there overlaps a blocked voxel or leaves the grid (out of bounds is blocked). A
/// separable max filter, one pass per axis. Errors: InvalidArgument for a radius out of range.
[[nodiscard]] Result<OccupancyGrid> dilate(const OccupancyGrid& grid, const AgentBox& agent);

}  // namespace leapnav::grid3d
