// Internal to mesh/: whole-array checks that the stages run on their inputs and validate() runs
// on a navmesh. Each accumulates a flag without an early exit and is kept out of line: inlined
// into a large checking function, g++ 12 -O3 left such loops scalar (about 4x slower). The
// callers locate the offending element only when a check fails.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace leapnav::mesh::detail {

/// Whether some v[i] is +-infinity.
[[gnu::noinline]] inline bool any_infinite(const float* v, std::size_t n) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  unsigned found = 0;
  for (std::size_t i = 0; i < n; ++i) found |= static_cast<unsigned>(std::fabs(v[i]) == kInf);
  return found != 0;
}

/// Whether some v[i] < v[i - 1].
[[gnu::noinline]] inline bool any_decrease(const std::uint32_t* v, std::size_t n) {
  unsigned found = 0;
  for (std::size_t i = 1; i < n; ++i) found |= static_cast<unsigned>(v[i] < v[i - 1]);
  return found != 0;
}

/// Whether some v[i] > limit.
[[gnu::noinline]] inline bool any_above(const std::uint16_t* v, std::size_t n,
                                        std::uint16_t limit) {
  unsigned found = 0;
  for (std::size_t i = 0; i < n; ++i) found |= static_cast<unsigned>(v[i] > limit);
  return found != 0;
}

/// Whether some v[i] is neither below `count` nor the all-ones "none" value (whose + 1 wraps to
/// 0).
[[gnu::noinline]] inline bool any_index_out_of_range(const std::uint32_t* v, std::size_t n,
                                                     std::uint32_t count) {
  unsigned found = 0;
  for (std::size_t i = 0; i < n; ++i) found |= static_cast<unsigned>(v[i] + 1U > count);
  return found != 0;
}

}  // namespace leapnav::mesh::detail
