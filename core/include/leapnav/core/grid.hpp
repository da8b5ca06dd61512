// The voxel grid every intermediate structure carries: origin, cell sizes and extent.
// Column (x, z) covers [origin.x + x*cs, origin.x + (x+1)*cs) × [origin.z + z*cs, ...); height
// index h means origin.y + h*ch.
#pragma once

#include <cstdint>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav {

/// Largest height index a span may have (spans store 16-bit heights).
inline constexpr int kMaxGridHeight = 0xFFFF;
/// Largest number of columns in either direction.
inline constexpr int kMaxGridSide = 1 << 16;

struct GridSpec {
  Vec3 origin;               ///< world position of cell (0, 0) at height 0 [units: m]
  float cell_size = 0.0F;    ///< [units: m]
  float cell_height = 0.0F;  ///< [units: m]
  int width = 0;             ///< cells along x
  int depth = 0;             ///< cells along z
  int height = 0;            ///< height levels along y (spans lie in [0, height])

  [[nodiscard]] std::int64_t column_count() const {
    return static_cast<std::int64_t>(width) * depth;
  }
  [[nodiscard]] std::size_t column_index(int x, int z) const {
    return static_cast<std::size_t>(x) +
           static_cast<std::size_t>(z) * static_cast<std::size_t>(width);
  }
  [[nodiscard]] bool in_bounds(int x, int z) const {
    return x >= 0 && z >= 0 && x < width && z < depth;
  }
  /// World bounds of the whole grid.
  [[nodiscard]] AABB bounds() const;
  /// The world position of grid corner (x, z) at height level y: origin + (x cs, y ch, z cs),
  /// added in double and rounded to float once, so a corner far from the world origin is the
  /// float nearest to its exact position [units: m].
  [[nodiscard]] Vec3 corner_to_world(double x, double y, double z) const {
    return {static_cast<float>(double{origin.x} + x * double{cell_size}),
            static_cast<float>(double{origin.y} + y * double{cell_height}),
            static_cast<float>(double{origin.z} + z * double{cell_size})};
  }
  /// The world height of height level y (origin.y + y ch, in double, rounded once) [units: m].
  [[nodiscard]] float level_to_world(double y) const {
    return static_cast<float>(double{origin.y} + y * double{cell_height});
  }
  friend bool operator==(const GridSpec&, const GridSpec&) = default;
};

/// Whether two grids are equal bit for bit: a bound at -0 and one at +0 compare equal as floats
/// but give grid origins (and files) with another sign bit, so a grid read from a file or made
/// from another scene is the same grid only when its bits match (operator== compares floats).
[[nodiscard]] bool same_grid_bits(const GridSpec& a, const GridSpec& b);

/// A grid covering `bounds` with the given cell sizes (width = round(size.x / cs), as Recast does,
/// at least 1). Errors when the bounds are not finite or the grid exceeds kMaxGridSide columns or
/// kMaxGridHeight levels.
[[nodiscard]] Result<GridSpec> make_grid(const AABB& bounds, float cell_size, float cell_height);

}  // namespace leapnav
