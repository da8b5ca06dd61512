// Jump trajectories (spec §B6; the article omits the physics, so this closed form is leapnav's):
// from the feet point (c + 1/2, r), vertical speed v_y0 = sqrt(2·g·h) and
// y(t) = r + v_y0·t - g·t²/2; horizontal speed min(v_b + a·t, cap) in the jump's direction (held at
// cap from the start when v_b > cap), integrated in closed form; samples at t_k = k·dt,
// k = 1..floor(T/dt); a sample lies in tile (floor(x), floor(y)).
#pragma once

#include <vector>

#include "leapnav/platformer/params.hpp"
#include "leapnav/platformer/tile_map.hpp"

namespace leapnav::platformer {

/// One point of a trajectory [units: s, tiles].
struct TrajectorySample {
  double t = 0;
  double x = 0;
  double y = 0;
};

/// The jump a trajectory follows.
struct JumpShape {
  double height = 0;  ///< [units: tiles] [range: > 0]
  double speed = 0;   ///< horizontal speed cap [units: tiles/s] [range: > 0]
  int direction = 1;  ///< +1 right, -1 left
};

/// Position at time t of the jump from the feet of `start` [units: tiles].
[[nodiscard]] TrajectorySample jump_position(Tile start, const JumpShape& shape,
                                             const PlatformerParams& params, double t);

/// Horizontal distance covered after t seconds (always >= 0) [units: tiles].
[[nodiscard]] double jump_distance(const JumpShape& shape, const PlatformerParams& params,
                                   double t);

/// Time at which the falling branch of the jump reaches height `floor_y` (an absolute row
/// coordinate); the apex time when the jump never rises that high [units: s].
[[nodiscard]] double landing_time(Tile start, const JumpShape& shape,
                                  const PlatformerParams& params, double floor_y);

/// The tile a sample lies in.
[[nodiscard]] Tile sample_tile(const TrajectorySample& sample);

/// One trajectory: its shape and samples k = 1..sample_count(params).
struct JumpTrajectory {
  JumpShape shape;
  std::vector<TrajectorySample> samples;
};

/// The 2·h_div·s_div trajectories from one nav point in generation order: height ascending, then
/// speed ascending, right before left.
[[nodiscard]] std::vector<JumpTrajectory> jump_trajectories(Tile start,
                                                            const PlatformerParams& params);

}  // namespace leapnav::platformer
