// Zhao-Saalfeld sleeve-fitting line simplification (Zhao & Saalfeld 1997; thesis §5.5): one pass
// over the chain keeping, from the last fixed vertex, the sector of directions that pass within
// epsilon of every skipped vertex; O(1) work per input vertex.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/core/geometry.hpp"

namespace leapnav::jump {

/// Simplifies the open chain `points` (ground-plane coordinates). Returns the indices of the kept
/// vertices (first and last always kept, increasing). Guarantee: every input vertex lies within
/// `epsilon` of the output segment spanning it. Besides the angular sleeve, a vertex may only
/// replace the chain's end when it is at least as far from the anchor as every skipped vertex,
/// which makes the distance to the segment (not only to its ray) at most epsilon.
/// `operations`, when given, receives the number of constant-time steps taken (for linearity
/// tests). epsilon > 0.
[[nodiscard]] std::vector<std::uint32_t> zhao_saalfeld(std::span<const Vec2> points, float epsilon,
                                                       std::uint64_t* operations = nullptr);

}  // namespace leapnav::jump
