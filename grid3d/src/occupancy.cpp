// The bit-packed occupancy grid: construction, checks, hashing and the agent-box dilation
// (configuration space as in part A of the spec: grow the blocked set, then plan for a point).
#include "leapnav/grid3d/occupancy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "leapnav/core/hash.hpp"

namespace leapnav::grid3d {

void OccupancyGrid::set_blocked(VoxelCoord v, bool is_blocked) {
  LEAPNAV_ASSERT(in_bounds(v), "set_blocked outside the grid");
  const auto b = static_cast<std::uint64_t>(node(v) + guard_bits());
  const std::uint64_t bit = std::uint64_t{1} << (b & 63);
  if (is_blocked) {
    bits[b >> 6] |= bit;
  } else {
    bits[b >> 6] &= ~bit;
  }
}

std::uint64_t OccupancyGrid::blocked_count() const {
  std::uint64_t count = 0;
  for (int y = 0; y < height; ++y) {
    for (int z = 0; z < depth; ++z) {
      const std::int64_t row = node({0, y, z});
      for (int x = 0; x < width; ++x) count += blocked_node(row + x) ? 1U : 0U;
    }
  }
  return count;
}

Vec3 OccupancyGrid::center(VoxelCoord v) const {
  const float s = voxel_size;
  return {origin.x + (static_cast<float>(v.x) + 0.5F) * s,
          origin.y + (static_cast<float>(v.y) + 0.5F) * s,
          origin.z + (static_cast<float>(v.z) + 0.5F) * s};
}

VoxelCoord OccupancyGrid::voxel_at(Vec3 p) const {
  const auto axis = [this](float value, float lo) {
    const double t = std::floor((static_cast<double>(value) - lo) / voxel_size);
    if (!std::isfinite(t) || t < -1.0) return -1;
    return static_cast<int>(std::min(t, 2.0 * kMaxGridSide3));
  };
  return {axis(p.x, origin.x), axis(p.y, origin.y), axis(p.z, origin.z)};
}

Result<OccupancyGrid> make_grid(int width, int height, int depth, Vec3 origin, float voxel_size) {
  for (const int side : {width, height, depth}) {
    if (side < 1 || side > kMaxGridSide3) {
      return make_error(ErrorCode::InvalidArgument,
                        "voxel grid " + std::to_string(width) + " x " + std::to_string(height) +
                            " x " + std::to_string(depth) + ": every side must be in 1.." +
                            std::to_string(kMaxGridSide3));
    }
  }
  if (!(voxel_size > 0.0F) || !std::isfinite(voxel_size)) {
    return make_error(ErrorCode::InvalidArgument,
                      "voxel size " + std::to_string(voxel_size) + " must be positive and finite");
  }
  OccupancyGrid grid;
  grid.width = width;
  grid.height = height;
  grid.depth = depth;
  grid.origin = origin;
  grid.voxel_size = voxel_size;
  if (grid.voxel_count() > kMaxGridVoxels) {
    return make_error(ErrorCode::MemoryLimit,
                      "voxel grid " + std::to_string(width) + " x " + std::to_string(height) +
                          " x " + std::to_string(depth) + " has more than 2^34 voxels");
  }
  grid.bits.assign(static_cast<std::size_t>(grid.stream_words()), ~std::uint64_t{0});
  for (int y = 0; y < height; ++y) {
    for (int z = 0; z < depth; ++z) {
      // note: clear the row's run of width bits word by word.
      auto b = static_cast<std::uint64_t>(grid.node({0, y, z}) + grid.guard_bits());
      std::uint64_t left = static_cast<std::uint64_t>(width);
      while (left > 0) {
        const std::uint64_t offset = b & 63;
        const std::uint64_t take = std::min<std::uint64_t>(left, 64 - offset);
        const std::uint64_t run = take == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << take) - 1);
        grid.bits[b >> 6] &= ~(run << offset);
        b += take;
        left -= take;
      }
    }
  }
  return grid;
}

Status validate(const OccupancyGrid& grid) {
  if (grid.width < 1 || grid.height < 1 || grid.depth < 1) {
    return make_error(ErrorCode::Internal, "grid3d: empty extent");
  }
  if (static_cast<std::int64_t>(grid.bits.size()) != grid.stream_words()) {
    return make_error(ErrorCode::Internal, "grid3d: stream has " +
                                               std::to_string(grid.bits.size()) + " words, not " +
                                               std::to_string(grid.stream_words()));
  }
  const std::int64_t guard = grid.guard_bits();
  const std::int64_t total = static_cast<std::int64_t>(grid.bits.size()) * 64;
  for (std::int64_t b = 0; b < total; ++b) {
    const std::int64_t id = b - guard;
    const bool is_set = ((grid.bits[static_cast<std::size_t>(b >> 6)] >> (b & 63)) & 1U) != 0;
    if (is_set) continue;
    if (id < 0 || id >= grid.padded_count()) {
      return make_error(ErrorCode::Internal,
                        "grid3d: guard bit " + std::to_string(b) + " is not blocked");
    }
    const VoxelCoord v = grid.coord(id);
    if (!grid.in_bounds(v)) {
      return make_error(ErrorCode::Internal, "grid3d: border cell (" + std::to_string(v.x) + ", " +
                                                 std::to_string(v.y) + ", " + std::to_string(v.z) +
                                                 ") is not blocked");
    }
  }
  return {};
}

bool same_occupancy(const OccupancyGrid& a, const OccupancyGrid& b) {
  return a.width == b.width && a.height == b.height && a.depth == b.depth && a.origin == b.origin &&
         a.voxel_size == b.voxel_size && a.bits == b.bits;
}

std::uint64_t content_hash(const OccupancyGrid& grid) {
  ContentHasher hasher;
  hasher.add_pod(grid.width);
  hasher.add_pod(grid.height);
  hasher.add_pod(grid.depth);
  hasher.add_pod(grid.origin.x);
  hasher.add_pod(grid.origin.y);
  hasher.add_pod(grid.origin.z);
  hasher.add_pod(grid.voxel_size);
  hasher.add_vector(grid.bits);
  return hasher.digest();
}

namespace {

// Max filter of radius r along one axis of a byte volume (1 = blocked); cells within r of the
// ends see the outside, which is blocked.
void dilate_axis(std::vector<std::uint8_t>& cells, int count, std::int64_t stride,
                 std::int64_t lines, const std::vector<std::int64_t>& line_starts, int r) {
  if (r == 0) return;
  std::vector<std::uint8_t> line(static_cast<std::size_t>(count));
  std::vector<int> prefix(static_cast<std::size_t>(count) + 1);
  for (std::int64_t l = 0; l < lines; ++l) {
    const std::int64_t start = line_starts[static_cast<std::size_t>(l)];
    for (int i = 0; i < count; ++i)
      line[static_cast<std::size_t>(i)] = cells[static_cast<std::size_t>(start + i * stride)];
    prefix[0] = 0;
    for (int i = 0; i < count; ++i)
      prefix[static_cast<std::size_t>(i) + 1] =
          prefix[static_cast<std::size_t>(i)] + line[static_cast<std::size_t>(i)];
    for (int i = 0; i < count; ++i) {
      const int lo = i - r;
      const int hi = i + r;
      bool hit = lo < 0 || hi >= count;
      if (!hit)
        hit = prefix[static_cast<std::size_t>(hi) + 1] - prefix[static_cast<std::size_t>(lo)] > 0;
      cells[static_cast<std::size_t>(start + i * stride)] = hit ? 1 : 0;
    }
  }
}

}  // namespace

Result<OccupancyGrid> dilate(const OccupancyGrid& grid, const AgentBox& agent) {
  for (const int r : {agent.radius_x, agent.radius_y, agent.radius_z}) {
    if (r < 0 || r > 64) {
      return make_error(ErrorCode::InvalidArgument, "agent box radius " + std::to_string(r) +
                                                        " voxels is out of range (0..64)");
    }
  }
  const int w = grid.width;
  const int h = grid.height;
  const int d = grid.depth;
  const std::int64_t sz = w;
  const std::int64_t sy = static_cast<std::int64_t>(w) * d;
  std::vector<std::uint8_t> cells(grid.voxel_count());
  for (int y = 0; y < h; ++y) {
    for (int z = 0; z < d; ++z) {
      for (int x = 0; x < w; ++x) {
        cells[static_cast<std::size_t>(x + sz * z + sy * y)] =
            grid.blocked_node(grid.node({x, y, z})) ? 1 : 0;
      }
    }
  }
  std::vector<std::int64_t> starts;
  // x lines
  for (int y = 0; y < h; ++y)
    for (int z = 0; z < d; ++z) starts.push_back(sz * z + sy * y);
  dilate_axis(cells, w, 1, static_cast<std::int64_t>(starts.size()), starts, agent.radius_x);
  starts.clear();
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) starts.push_back(x + sy * y);
  dilate_axis(cells, d, sz, static_cast<std::int64_t>(starts.size()), starts, agent.radius_z);
  starts.clear();
  for (int z = 0; z < d; ++z)
    for (int x = 0; x < w; ++x) starts.push_back(x + sz * z);
  dilate_axis(cells, h, sy, static_cast<std::int64_t>(starts.size()), starts, agent.radius_y);
  LEAPNAV_TRY_ASSIGN(OccupancyGrid out, make_grid(w, h, d, grid.origin, grid.voxel_size));
  for (int y = 0; y < h; ++y) {
    for (int z = 0; z < d; ++z) {
      for (int x = 0; x < w; ++x) {
        if (cells[static_cast<std::size_t>(x + sz * z + sy * y)] != 0)
          out.set_blocked({x, y, z}, true);
      }
    }
  }
  return out;
}

}  // namespace leapnav::grid3d
