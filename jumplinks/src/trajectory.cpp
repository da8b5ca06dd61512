// The jump arc (thesis Definition 4.3) and its exact intersection with boxes: the arc height is
// a concave quadratic in t, so over [t0, t1] its minimum is at an end and its maximum at an end
// or at the vertex t = d/2.
#include "leapnav/jumplinks/trajectory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace leapnav::jump {

double arc_height(double height, double distance, double t) {
  return 4.0 * height / (distance * distance) * (distance * t - t * t);
}

HeightRange arc_range(double height, double distance, double t0, double t1) {
  const double y0 = arc_height(height, distance, t0);
  const double y1 = arc_height(height, distance, t1);
  HeightRange range{std::min(y0, y1), std::max(y0, y1)};
  const double vertex = 0.5 * distance;
  if (t0 < vertex && vertex < t1) range.high = height;
  return range;
}

TInterval ray_square_interval(double dir_x, double dir_z, double x0, double x1, double z0,
                              double z1) {
  TInterval out{0.0, std::numeric_limits<double>::infinity()};
  const auto slab = [&out](double dir, double lo, double hi) {
    if (dir == 0.0) {
      if (0.0 < lo || 0.0 > hi) out = TInterval{};
      return;
    }
    double a = lo / dir;
    double b = hi / dir;
    if (a > b) std::swap(a, b);
    out.t0 = std::max(out.t0, a);
    out.t1 = std::min(out.t1, b);
  };
  slab(dir_x, x0, x1);
  if (out.empty()) return out;
  slab(dir_z, z0, z1);
  return out;
}

bool arc_hits_box(double height, double distance, double dir_x, double dir_z, double x0, double x1,
                  double y0, double y1, double z0, double z1) {
  const TInterval span = ray_square_interval(dir_x, dir_z, x0, x1, z0, z1);
  if (span.empty() || span.t0 >= span.t1) return false;
  const HeightRange range = arc_range(height, distance, span.t0, span.t1);
  return range.high > y0 && range.low < y1;
}

double fit_distance(double height, Vec3 start, Vec3 land) {
  const double dx = static_cast<double>(land.x) - start.x;
  const double dz = static_cast<double>(land.z) - start.z;
  const double along = std::sqrt(dx * dx + dz * dz);
  const double dy = static_cast<double>(land.y) - start.y;
  if (along <= 0.0 || dy >= height) return -1.0;
  return 2.0 * along / (1.0 + std::sqrt(1.0 - dy / height));
}

}  // namespace leapnav::jump
