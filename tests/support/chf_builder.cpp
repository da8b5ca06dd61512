// Test fixture: CompactHeightfield from ASCII maps (see chf_builder.hpp). The distance field is
// computed by relaxing until nothing changes, which is slow but obviously the chamfer distance.
#include "support/chf_builder.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace leapnav::test {

namespace {

struct RawSpan {
  int y = 0;
  std::uint8_t area = voxel::kNullArea;
};

}  // namespace

voxel::CompactHeightfield make_chf(const std::vector<ChfLayer>& layers, const ChfOptions& options) {
  int width = 0;
  int depth = 0;
  for (const ChfLayer& layer : layers) {
    depth = std::max(depth, static_cast<int>(layer.rows.size()));
    for (const std::string& row : layer.rows) width = std::max(width, static_cast<int>(row.size()));
  }
  std::vector<std::vector<RawSpan>> columns(static_cast<std::size_t>(width * depth));
  for (const ChfLayer& layer : layers) {
    for (std::size_t z = 0; z < layer.rows.size(); ++z) {
      for (std::size_t x = 0; x < layer.rows[z].size(); ++x) {
        const char ch = layer.rows[z][x];
        RawSpan span{layer.base, voxel::kWalkableArea};
        if (ch >= '0' && ch <= '9') {
          span.y = layer.base + (ch - '0');
        } else if (ch == 'x') {
          span.area = voxel::kNullArea;
        } else if (ch == 'b') {
          span.area = kSecondArea;
        } else if (ch != '.') {
          continue;
        }
        columns[x + z * static_cast<std::size_t>(width)].push_back(span);
      }
    }
  }

  voxel::CompactHeightfield chf;
  chf.grid.origin = {0.0F, 0.0F, 0.0F};
  chf.grid.cell_size = options.cell_size;
  chf.grid.cell_height = options.cell_height;
  chf.grid.width = width;
  chf.grid.depth = depth;
  chf.grid.height = 1024;
  chf.walkable_height = options.walkable_height;
  chf.walkable_climb = options.walkable_climb;
  chf.column_first.push_back(0);
  for (auto& column : columns) {
    std::sort(column.begin(), column.end(),
              [](const RawSpan& a, const RawSpan& b) { return a.y < b.y; });
    for (std::size_t k = 0; k < column.size(); ++k) {
      voxel::CompactSpan span;
      span.y = static_cast<std::uint16_t>(column[k].y);
      span.clearance = k + 1 < column.size()
                           ? static_cast<std::uint16_t>(column[k + 1].y - column[k].y - 1)
                           : voxel::kUnboundedClearance;
      chf.spans.push_back(span);
      chf.areas.push_back(column[k].area);
    }
    chf.column_first.push_back(static_cast<std::uint32_t>(chf.spans.size()));
  }

  // connections: the lowest span of the neighbour column within climb and with enough overlap
  const auto top = [](const voxel::CompactSpan& s) {
    return s.clearance == voxel::kUnboundedClearance ? std::numeric_limits<int>::max()
                                                     : s.y + s.clearance;
  };
  for (int z = 0; z < depth; ++z) {
    for (int x = 0; x < width; ++x) {
      const std::size_t c = chf.grid.column_index(x, z);
      for (std::uint32_t i = chf.first(c); i < chf.end(c); ++i) {
        for (int dir = 0; dir < 4; ++dir) {
          const int nx = x + voxel::dir_dx(dir);
          const int nz = z + voxel::dir_dz(dir);
          if (!chf.grid.in_bounds(nx, nz)) continue;
          const std::size_t nc = chf.grid.column_index(nx, nz);
          for (std::uint32_t j = chf.first(nc); j < chf.end(nc); ++j) {
            const voxel::CompactSpan& a = chf.spans[i];
            const voxel::CompactSpan& b = chf.spans[j];
            const int overlap = std::min(top(a), top(b)) - std::max<int>(a.y, b.y);
            if (std::abs(a.y - b.y) <= options.walkable_climb &&
                overlap >= options.walkable_height) {
              chf.spans[i].neighbor[static_cast<std::size_t>(dir)] =
                  static_cast<std::uint8_t>(j - chf.first(nc));
              break;
            }
          }
        }
      }
    }
  }

  // chamfer distance by relaxation to a fixed point
  const std::size_t n = chf.spans.size();
  constexpr std::uint16_t kFar = 0xFFFF;
  chf.distance.assign(n, kFar);
  std::vector<int> span_x(n);
  std::vector<int> span_z(n);
  for (int z = 0; z < depth; ++z) {
    for (int x = 0; x < width; ++x) {
      const std::size_t c = chf.grid.column_index(x, z);
      for (std::uint32_t i = chf.first(c); i < chf.end(c); ++i) {
        span_x[i] = x;
        span_z[i] = z;
      }
    }
  }
  const auto link = [&](std::uint32_t i, int dir) -> std::int64_t {
    if (chf.spans[i].neighbor[static_cast<std::size_t>(dir)] == voxel::kNotConnected) return -1;
    return chf.neighbor_index(span_x[i], span_z[i], i, dir);
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    if (chf.areas[i] == voxel::kNullArea) {
      chf.distance[i] = 0;
      continue;
    }
    int walkable_links = 0;
    for (int dir = 0; dir < 4; ++dir) {
      const std::int64_t j = link(i, dir);
      if (j >= 0 && chf.areas[static_cast<std::size_t>(j)] != voxel::kNullArea) ++walkable_links;
    }
    if (walkable_links < 4) chf.distance[i] = 0;
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (chf.areas[i] == voxel::kNullArea) continue;
      int best = chf.distance[i];
      for (int dir = 0; dir < 4; ++dir) {
        const std::int64_t j = link(i, dir);
        if (j < 0) continue;
        const auto ju = static_cast<std::uint32_t>(j);
        best = std::min(best, chf.distance[ju] + 2);
        const std::int64_t d = link(ju, (dir + 1) & 3);
        if (d >= 0) best = std::min(best, chf.distance[static_cast<std::uint32_t>(d)] + 3);
      }
      if (best < chf.distance[i]) {
        chf.distance[i] = static_cast<std::uint16_t>(best);
        changed = true;
      }
    }
  }
  chf.max_distance = 0;
  for (const std::uint16_t d : chf.distance) {
    if (d != kFar) chf.max_distance = std::max(chf.max_distance, d);
  }
  return chf;
}

voxel::CompactHeightfield make_chf(const std::vector<std::string>& rows,
                                   const ChfOptions& options) {
  return make_chf(std::vector<ChfLayer>{ChfLayer{0, rows}}, options);
}

}  // namespace leapnav::test
