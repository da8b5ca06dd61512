// Grid construction from world bounds.
#include "leapnav/core/grid.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

namespace leapnav {

AABB GridSpec::bounds() const {
  AABB box;
  box.min = origin;
  box.max = corner_to_world(width, height, depth);
  return box;
}

bool same_grid_bits(const GridSpec& a, const GridSpec& b) {
  const auto bits = [](float v) { return std::bit_cast<std::uint32_t>(v); };
  return bits(a.origin.x) == bits(b.origin.x) && bits(a.origin.y) == bits(b.origin.y) &&
         bits(a.origin.z) == bits(b.origin.z) && bits(a.cell_size) == bits(b.cell_size) &&
         bits(a.cell_height) == bits(b.cell_height) && a.width == b.width && a.depth == b.depth &&
         a.height == b.height;
}

Result<GridSpec> make_grid(const AABB& bounds, float cell_size, float cell_height) {
  if (bounds.empty() || !is_finite(bounds.min) || !is_finite(bounds.max))
    return make_error(ErrorCode::NonFinite, "grid: the scene bounds are empty or not finite");
  if (!(cell_size > 0.0F) || !(cell_height > 0.0F))
    return make_error(ErrorCode::InvalidArgument, "grid: cell sizes must be positive");
  const Vec3 size = bounds.size();
  const double w = std::floor(static_cast<double>(size.x) / cell_size + 0.5);
  const double d = std::floor(static_cast<double>(size.z) / cell_size + 0.5);
  const double h = std::ceil(static_cast<double>(size.y) / cell_height);
  if (w > kMaxGridSide || d > kMaxGridSide) {
    return make_error(ErrorCode::InvalidArgument,
                      "grid: the scene spans " + std::to_string(w) + " x " + std::to_string(d) +
                          " cells, more than the limit of " + std::to_string(kMaxGridSide) +
                          " per side (scene too large for the cell size)");
  }
  if (h > kMaxGridHeight - 1) {
    return make_error(
        ErrorCode::InvalidArgument,
        "grid: the scene is " + std::to_string(h) + " cell heights tall, more than the limit of " +
            std::to_string(kMaxGridHeight - 1) + " (scene too tall for the cell height)");
  }
  GridSpec grid;
  grid.origin = bounds.min;
  grid.cell_size = cell_size;
  grid.cell_height = cell_height;
  grid.width = std::max(1, static_cast<int>(w));
  grid.depth = std::max(1, static_cast<int>(d));
  grid.height = static_cast<int>(h) + 1;
  return grid;
}

}  // namespace leapnav
