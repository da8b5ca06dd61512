// Geometry value types shared by every stage. World units are metres and y is up; the xz plane is
// the ground plane. Storage is float; computations that need it promote to double locally.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace leapnav {

/// A point or vector in world space (metres, y up).
struct Vec3 {
  float x = 0.0F;
  float y = 0.0F;
  float z = 0.0F;

  friend constexpr Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend constexpr Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend constexpr Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
  friend constexpr Vec3 operator*(float s, Vec3 a) { return a * s; }
  friend constexpr bool operator==(Vec3 a, Vec3 b) = default;
};

/// A point or vector in a 2-D plane; for the ground plane, (x, y) holds world (x, z).
struct Vec2 {
  float x = 0.0F;
  float y = 0.0F;

  friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend constexpr Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
  friend constexpr bool operator==(Vec2 a, Vec2 b) = default;
};

[[nodiscard]] constexpr float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
[[nodiscard]] constexpr Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
[[nodiscard]] inline float length(Vec3 a) {
  return std::sqrt(dot(a, a));
}
[[nodiscard]] inline float distance(Vec3 a, Vec3 b) {
  return length(b - a);
}
[[nodiscard]] constexpr float dot(Vec2 a, Vec2 b) {
  return a.x * b.x + a.y * b.y;
}
/// The z component of the 3-D cross product of (a, 0) and (b, 0); > 0 when b is left of a.
[[nodiscard]] constexpr float cross(Vec2 a, Vec2 b) {
  return a.x * b.y - a.y * b.x;
}
[[nodiscard]] inline float length(Vec2 a) {
  return std::sqrt(dot(a, a));
}
[[nodiscard]] inline float distance(Vec2 a, Vec2 b) {
  return length(b - a);
}
/// The distance in the plane from (px, pz) to the segment (ax, az)-(bx, bz), in double (a
/// degenerate segment is its point a).
[[nodiscard]] inline double segment_distance_2d(double px, double pz, double ax, double az,
                                                double bx, double bz) {
  const double dx = bx - ax;
  const double dz = bz - az;
  const double len2 = dx * dx + dz * dz;
  double t = 0.0;
  if (len2 > 0.0) t = std::clamp(((px - ax) * dx + (pz - az) * dz) / len2, 0.0, 1.0);
  return std::hypot(ax + t * dx - px, az + t * dz - pz);
}
/// The ground-plane projection of a world point: (x, z).
[[nodiscard]] constexpr Vec2 xz(Vec3 p) {
  return {p.x, p.z};
}

[[nodiscard]] inline bool is_finite(Vec3 v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

/// An axis-aligned box; empty (min > max) when default-constructed.
struct AABB {
  Vec3 min{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
           std::numeric_limits<float>::max()};
  Vec3 max{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest(),
           std::numeric_limits<float>::lowest()};

  [[nodiscard]] constexpr bool empty() const {
    return min.x > max.x || min.y > max.y || min.z > max.z;
  }
  constexpr void extend(Vec3 p) {
    min = {std::min(min.x, p.x), std::min(min.y, p.y), std::min(min.z, p.z)};
    max = {std::max(max.x, p.x), std::max(max.y, p.y), std::max(max.z, p.z)};
  }
  constexpr void merge(const AABB& b) {
    if (b.empty()) return;
    extend(b.min);
    extend(b.max);
  }
  [[nodiscard]] constexpr Vec3 size() const { return max - min; }
  [[nodiscard]] constexpr bool contains(Vec3 p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && p.z >= min.z &&
           p.z <= max.z;
  }
  friend constexpr bool operator==(const AABB& a, const AABB& b) = default;
};

}  // namespace leapnav
