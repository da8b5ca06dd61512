// The query filter as the A* search reads it: per-polygon cost multipliers from the area costs
// (times the crouch cost on crouch polygons), whether a polygon may be entered (flags, excluded
// areas, crouching allowed), and the heuristic's scale min(1, smallest area cost) *
// min(1, crouch cost), which keeps the straight-line heuristic admissible and consistent.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/path.hpp"

namespace leapnav::plan::detail {

/// Checks the area costs (each > 0 and not NaN; +infinity excludes) and the crouch cost, and
/// returns the heuristic's scale for them, min(1, smallest area cost) * min(1, crouch cost).
[[nodiscard]] inline Result<float> check_filter(const QueryOptions& options) {
  // note: one branch-free pass over the costs' bits (it vectorises): the bits of a float in
  // (0, +infinity] lie in [1, 0x7F800000] and order as the floats do; 0, negative values and NaN
  // lie outside, and bits - 1 wraps +0 round to the top
  constexpr std::uint32_t kInfinityBits = 0x7F800000U;
  std::uint32_t worst = 0;
  std::uint32_t least = kInfinityBits;
  for (const float c : options.area_costs) {
    const auto bits = std::bit_cast<std::uint32_t>(c);
    worst = std::max(worst, bits - 1U);
    least = std::min(least, bits);
  }
  if (worst >= kInfinityBits) {
    for (std::size_t a = 0; a < options.area_costs.size(); ++a) {
      const float c = options.area_costs[a];
      if (std::isnan(c) || c <= 0.0F) {
        return make_error(ErrorCode::InvalidArgument, "find_path: area cost " + std::to_string(a) +
                                                          " must be > 0 (or +infinity to exclude)");
      }
    }
  }
  if (!(std::isfinite(options.crouch_cost) && options.crouch_cost > 0.0F))
    return make_error(ErrorCode::InvalidArgument, "find_path: crouch cost " +
                                                      std::to_string(options.crouch_cost) +
                                                      " must be > 0 and finite");
  return std::min(1.0F, std::bit_cast<float>(least)) * std::min(1.0F, options.crouch_cost);
}

/// Which tiles of a tiled mesh are loaded (Planner::load_tile / unload_tile): one atomic flag per
/// tile, written by those calls and read by queries, so they may run concurrently.
struct TileState {
  explicit TileState(const std::vector<std::uint32_t>& tile_poly_first)
      : poly_tile(tile_poly_first.back()), unloaded(tile_poly_first.size() - 1) {
    for (std::size_t t = 0; t + 1 < tile_poly_first.size(); ++t) {
      for (std::uint32_t p = tile_poly_first[t]; p < tile_poly_first[t + 1]; ++p)
        poly_tile[p] = static_cast<std::uint32_t>(t);
    }
  }
  [[nodiscard]] bool poly_unloaded(std::uint32_t p) const {
    return unloaded[poly_tile[p]].load(std::memory_order_relaxed) != 0;
  }

  std::vector<std::uint32_t> poly_tile;             ///< per polygon, its tile
  std::vector<std::atomic<std::uint8_t>> unloaded;  ///< per tile, 1 when unloaded
  std::atomic<std::uint32_t> unloaded_count{0};     ///< tiles unloaded
};

class Filter {
 public:
  /// `src` and `dst` (the search's end polygons) may always be entered, unless their tile is
  /// unloaded: no polygon of an unloaded tile (`tiles`, null when untiled) is ever entered.
  /// `heuristic_scale` is check_filter's result for `options`.
  Filter(const QueryOptions& options, const mesh::NavMesh& nav, std::uint32_t src,
         std::uint32_t dst, float heuristic_scale, const TileState* tiles = nullptr)
      : scale(heuristic_scale), options_(options), nav_(nav), src_(src), dst_(dst), tiles_(tiles) {}

  /// The cost multiplier of walking across polygon p.
  [[nodiscard]] float cost(std::uint32_t p) const {
    const float c = options_.area_costs[nav_.poly_area[p]];
    // note: an excluded start polygon (infinite cost) may still be left, at unit cost
    const float area = std::isfinite(c) ? c : 1.0F;
    return (nav_.poly_flags[p] & mesh::kPolyFlagCrouch) != 0 ? area * options_.crouch_cost : area;
  }
  [[nodiscard]] bool enterable(std::uint32_t p) const {
    if (tiles_ != nullptr && tiles_->poly_unloaded(p)) {
      refused_unloaded_ = true;
      return false;
    }
    return p == src_ || p == dst_ || passes_filter(options_, nav_, p);
  }
  /// Whether enterable() has refused a polygon of an unloaded tile since construction.
  [[nodiscard]] bool refused_unloaded() const { return refused_unloaded_; }

  float scale = 1.0F;  ///< multiplies the straight-line heuristic

 private:
  const QueryOptions& options_;
  const mesh::NavMesh& nav_;
  std::uint32_t src_;
  std::uint32_t dst_;
  const TileState* tiles_;
  // note: mutable, set by the const enterable() the searches call (one query's filter, one thread)
  mutable bool refused_unloaded_ = false;
};

}  // namespace leapnav::plan::detail
