// Jump trajectories in closed form (spec §B6; the physics is leapnav's choice, the article gives
// none): a ballistic rise from the feet point with v_y0 = sqrt(2·g·h), and a horizontal speed that
// starts at v_b and grows by a up to the jump's speed cap (or stays at the cap when v_b exceeds
// it).
#include "leapnav/platformer/trajectory.hpp"

#include <algorithm>
#include <cmath>

namespace leapnav::platformer {

double jump_distance(const JumpShape& shape, const PlatformerParams& params, double t) {
  const double cap = shape.speed;
  if (params.v_b >= cap) return cap * t;
  if (params.a <= 0) return params.v_b * t;
  const double t_cap = (cap - params.v_b) / params.a;
  if (t <= t_cap) return params.v_b * t + 0.5 * params.a * t * t;
  return params.v_b * t_cap + 0.5 * params.a * t_cap * t_cap + cap * (t - t_cap);
}

TrajectorySample jump_position(Tile start, const JumpShape& shape, const PlatformerParams& params,
                               double t) {
  const double vy0 = std::sqrt(2.0 * params.g * shape.height);
  TrajectorySample s;
  s.t = t;
  s.x = start.c + 0.5 + shape.direction * jump_distance(shape, params, t);
  s.y = start.r + vy0 * t - 0.5 * params.g * t * t;
  return s;
}

double landing_time(Tile start, const JumpShape& shape, const PlatformerParams& params,
                    double floor_y) {
  const double vy0 = std::sqrt(2.0 * params.g * shape.height);
  // y(t) = floor_y  <=>  g/2 t² - vy0 t + (floor_y - r) = 0; the larger root is the falling one
  const double disc = vy0 * vy0 - 2.0 * params.g * (floor_y - start.r);
  return (vy0 + std::sqrt(std::max(0.0, disc))) / params.g;
}

Tile sample_tile(const TrajectorySample& sample) {
  return {static_cast<int>(std::floor(sample.x)), static_cast<int>(std::floor(sample.y))};
}

std::vector<JumpTrajectory> jump_trajectories(Tile start, const PlatformerParams& params) {
  std::vector<JumpTrajectory> out;
  const int samples = sample_count(params);
  for (int i = 1; i <= params.h_div; ++i) {
    const double height = params.h_max * i / params.h_div;
    for (int j = 1; j <= params.s_div; ++j) {
      const double speed = params.v_max * j / params.s_div;
      for (const int direction : {1, -1}) {
        JumpTrajectory trajectory;
        trajectory.shape = {height, speed, direction};
        trajectory.samples.reserve(static_cast<std::size_t>(samples));
        for (int k = 1; k <= samples; ++k) {
          trajectory.samples.push_back(
              jump_position(start, trajectory.shape, params, k * params.dt));
        }
        out.push_back(std::move(trajectory));
      }
    }
  }
  return out;
}

}  // namespace leapnav::platformer
