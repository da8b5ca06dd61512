// Generated flying worlds (spec C.3, T11 random fill and the T12 building).
#include "leapnav/grid3d/scenes.hpp"

#include <string>

namespace leapnav::grid3d {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

Result<OccupancyGrid> random_grid(int width, int height, int depth, double fill,
                                  std::uint64_t seed) {
  if (!(fill >= 0.0 && fill <= 1.0)) {
    return make_error(ErrorCode::InvalidArgument,
                      "random_grid: fill " + std::to_string(fill) + " is out of range (0..1)");
  }
  LEAPNAV_TRY_ASSIGN(OccupancyGrid grid, make_grid(width, height, depth));
  // note: compare the top 53 bits with fill * 2^53 so the result does not depend on libstdc++'s
  // distributions.
  const auto threshold = static_cast<std::uint64_t>(fill * 9007199254740992.0);
  std::uint64_t state = seed;
  for (int y = 0; y < height; ++y) {
    for (int z = 0; z < depth; ++z) {
      for (int x = 0; x < width; ++x) {
        if ((splitmix64(state) >> 11) < threshold) grid.set_blocked({x, y, z}, true);
      }
    }
  }
  return grid;
}

Result<OccupancyGrid> building_grid(int width, int depth, int storeys, int storey_height) {
  if (width < 8 || depth < 8 || storey_height < 2 || storeys < 1 || storeys > 1000) {
    return make_error(
        ErrorCode::InvalidArgument,
        "building_grid: needs W, D >= 8, storey height >= 2 and 1..1000 storeys (got " +
            std::to_string(width) + " x " + std::to_string(depth) + ", " + std::to_string(storeys) +
            " x " + std::to_string(storey_height) + ")");
  }
  const int w = width;
  const int d = depth;
  const int s = storey_height;
  const int h = storeys * s + 1;
  LEAPNAV_TRY_ASSIGN(OccupancyGrid grid, make_grid(w, h, d));
  for (int y = 0; y < h; ++y) {
    const bool slab = y % s == 0;
    const int f = y / s;
    for (int z = 0; z < d; ++z) {
      for (int x = 0; x < w; ++x) {
        bool blocked = x == 0 || z == 0 || x == w - 1 || z == d - 1;
        if (!blocked && slab) {
          blocked = true;
          if (f >= 1 && f <= storeys - 1) {
            const bool hole = f % 2 == 1 ? (x >= 1 && x <= 2 && z >= 1 && z <= 2)
                                         : (x >= w - 3 && x <= w - 2 && z >= d - 3 && z <= d - 2);
            blocked = !hole;
          }
        } else if (!blocked) {
          if (x == w / 2) {
            const int door = f % 2 == 0 ? d / 4 : 3 * d / 4 - 1;
            blocked = z < door || z > door + 1;
          } else if (z == d / 2 && x < w / 2) {
            blocked = x < w / 4 || x > w / 4 + 1;
          }
        }
        if (blocked) grid.set_blocked({x, y, z}, true);
      }
    }
  }
  return grid;
}

}  // namespace leapnav::grid3d
