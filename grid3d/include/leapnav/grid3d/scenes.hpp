// Generated flying worlds for tests and the benchmark (spec C.3): seeded random fill and the
// storeyed building of test T12. Deterministic on every platform (own integer RNG).
#pragma once

#include <cstdint>

#include "leapnav/core/result.hpp"
#include "leapnav/grid3d/occupancy.hpp"

namespace leapnav::grid3d {

/// Each voxel blocked with probability fill (0..1), from a splitmix64 stream seeded with seed, in
/// x, then z, then y order. Errors as make_grid, InvalidArgument for fill outside [0, 1].
[[nodiscard]] Result<OccupancyGrid> random_grid(int width, int height, int depth, double fill,
                                                std::uint64_t seed);

/// The T12 building, W x D in plan, storeys of S voxels (S - 1 free layers) and F storeys: height
/// F * S + 1 along y (up). Outer walls; slabs at y = f * S, the ground and the roof closed, floors
/// 1 <= f <= F - 1 with a 2 x 2 stair hole at x, z in 1..2 (odd f) or x in W-3..W-2, z in D-3..D-2
/// (even f). Per storey f (between slabs f and f + 1) a wall x = W/2 with a 2-wide door at
/// z in [D/4, D/4 + 1] (even f) or [3D/4 - 1, 3D/4] (odd f), and a wall z = D/2 for x < W/2 with a
/// door at x in [W/4, W/4 + 1]. Spec axes (x, y, z up) map to leapnav (x, z, y). Errors:
/// InvalidArgument when W or D < 8, S < 2 or F < 1.
[[nodiscard]] Result<OccupancyGrid> building_grid(int width, int depth, int storeys,
                                                  int storey_height = 4);

}  // namespace leapnav::grid3d
