// Area volumes over the compact heightfield: per volume, the columns whose centre the convex
// polygon contains (sign of the edge cross products, either winding), then the walkable spans of
// those columns whose floor lies in [min_y, max_y].
#include "leapnav/voxel/mark_areas.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace leapnav::voxel {
namespace {

bool contains(const std::vector<Vec2>& polygon, Vec2 p) {
  bool negative = false;
  bool positive = false;
  for (std::size_t k = 0; k < polygon.size(); ++k) {
    const Vec2 a = polygon[k];
    const Vec2 b = polygon[(k + 1) % polygon.size()];
    const float c = cross(b - a, p - a);
    negative = negative || c < 0.0F;
    positive = positive || c > 0.0F;
  }
  return !(negative && positive);
}

}  // namespace

Result<CompactHeightfield> mark_area_volumes(CompactHeightfield compact,
                                             std::span<const AreaVolume> volumes,
                                             BuildContext& ctx) {
  TriangleMesh check;
  check.name = "area volumes";
  check.area_volumes.assign(volumes.begin(), volumes.end());
  LEAPNAV_TRY(validate_areas(check));
  const GridSpec& grid = compact.grid;
  for (const AreaVolume& volume : volumes) {
    LEAPNAV_TRY(ctx.check_cancel("mark_areas"));
    float min_x = volume.polygon[0].x;
    float max_x = min_x;
    float min_z = volume.polygon[0].y;
    float max_z = min_z;
    for (const Vec2 c : volume.polygon) {
      min_x = std::min(min_x, c.x);
      max_x = std::max(max_x, c.x);
      min_z = std::min(min_z, c.y);
      max_z = std::max(max_z, c.y);
    }
    // note: clamped in float before the cast, so far-away volumes cannot overflow an int
    const auto cell = [&](float v, float origin, int size) {
      const float c = std::floor((v - origin) / grid.cell_size);
      return static_cast<int>(std::clamp(c, -1.0F, static_cast<float>(size)));
    };
    const int x0 = std::max(0, cell(min_x, grid.origin.x, grid.width));
    const int x1 = std::min(grid.width - 1, cell(max_x, grid.origin.x, grid.width));
    const int z0 = std::max(0, cell(min_z, grid.origin.z, grid.depth));
    const int z1 = std::min(grid.depth - 1, cell(max_z, grid.origin.z, grid.depth));
    for (int z = z0; z <= z1; ++z) {
      for (int x = x0; x <= x1; ++x) {
        const Vec2 centre{grid.origin.x + (static_cast<float>(x) + 0.5F) * grid.cell_size,
                          grid.origin.z + (static_cast<float>(z) + 0.5F) * grid.cell_size};
        if (!contains(volume.polygon, centre)) continue;
        const std::size_t column = grid.column_index(x, z);
        for (std::uint32_t s = compact.first(column); s < compact.end(column); ++s) {
          if (compact.areas[s] == kNullArea) continue;
          const float y = grid.origin.y + static_cast<float>(compact.spans[s].y) * grid.cell_height;
          // note: a crouch span stays one (the ceiling is physical); area 0 still removes it
          if (y >= volume.min_y && y <= volume.max_y)
            compact.areas[s] =
                volume.area == kNullArea
                    ? kNullArea
                    : static_cast<std::uint8_t>(volume.area | (compact.areas[s] & kCrouchAreaBit));
        }
      }
    }
  }
  return compact;
}

}  // namespace leapnav::voxel
