// The jump arc of thesis Definition 4.3 as a function of horizontal distance t, and its exact
// intersection with axis-aligned boxes: over a t-interval a parabola's extremes are at the ends or
// at the vertex t = d/2, so the set of heights the arc takes over the interval is exact.
#pragma once

#include "leapnav/core/geometry.hpp"

namespace leapnav::jump {

/// Height of the arc above its start at horizontal distance t: (4h/d²)(d·t - t²) [units: m].
[[nodiscard]] double arc_height(double height, double distance, double t);

/// The closed interval of heights [low, high] the arc takes for t in [t0, t1] (t0 <= t1).
struct HeightRange {
  double low = 0.0;
  double high = 0.0;
};
[[nodiscard]] HeightRange arc_range(double height, double distance, double t0, double t1);

/// The t-interval [t0, t1] over which the ray from the origin in direction (cos θ, sin θ) crosses
/// the square [x0, x1] × [z0, z1]; empty (t0 > t1) when it misses. Slab method, exact up to
/// rounding of the division.
struct TInterval {
  double t0 = 1.0;
  double t1 = 0.0;
  [[nodiscard]] bool empty() const { return t0 > t1; }
};
[[nodiscard]] TInterval ray_square_interval(double dir_x, double dir_z, double x0, double x1,
                                            double z0, double z1);

/// True when the arc from the origin (start height 0) in horizontal direction dir (unit length)
/// passes through the interior of the box [x0, x1] × [y0, y1] × [z0, z1] (coordinates relative
/// to the start). Touching a face only is not a hit.
[[nodiscard]] bool arc_hits_box(double height, double distance, double dir_x, double dir_z,
                                double x0, double x1, double y0, double y1, double z0, double z1);

/// The jump distance d' of the arc with apex height h above `start` that lands on `land` on its
/// way down: d' = 2L / (1 + sqrt(1 - dy/h)), L the horizontal distance and dy = land.y - start.y.
/// Returns a negative value when no such arc exists (dy >= h, or L = 0).
[[nodiscard]] double fit_distance(double height, Vec3 start, Vec3 land);

}  // namespace leapnav::jump
