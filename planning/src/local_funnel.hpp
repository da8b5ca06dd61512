// The funnel engine behind the walk and jump parts of a path with jumps (thesis §6.2): the simple
// stupid funnel's four events over a corridor's portals, started either at a point (a walk) or at
// a jump start with the land segment as the first portal (the modified funnel, one or two
// funnels). It can stop before the target is known, so that the next link is chosen from the
// funnel's state (§6.2.2), then be finished at that link's start. Buffers are reused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/planning/funnel.hpp"
#include "leapnav/planning/jump_funnel.hpp"

namespace leapnav::plan::detail {

/// > 0 when c lies left of the ray a -> b (twice the signed area of a, b, c, in doubles).
[[nodiscard]] inline double orient(Vec2 a, Vec2 b, Vec2 c) {
  const double abx = static_cast<double>(b.x) - a.x;
  const double aby = static_cast<double>(b.y) - a.y;
  const double acx = static_cast<double>(c.x) - a.x;
  const double acy = static_cast<double>(c.y) - a.y;
  return abx * acy - aby * acx;
}

/// |s - v| + |v - t| for v = shortest_via_segment(s, a, b, t).
[[nodiscard]] double via_length(Vec2 s, Vec2 a, Vec2 b, Vec2 t);

/// The length of the shortest chain s -> segment [a1, b1] -> segment [a2, b2] -> t, approximated
/// from above by a few rounds of alternating Theorem 6.1 steps.
[[nodiscard]] double chain_length(Vec2 s, Vec2 a1, Vec2 b1, Vec2 a2, Vec2 b2, Vec2 t);

struct FunnelState {
  Vec2 apex;
  Vec2 left;
  Vec2 right;
  std::size_t left_index = 0;
  std::size_t right_index = 0;
};

class LocalFunnel {
 public:
  /// A walk from `start` through `portals` (which must outlive the run).
  void start_walk(Vec2 start, std::span<const Portal> portals);
  /// A jump corridor: from jump start `start`, second vertex on [land_a, land_b]. `target` may be
  /// null when it is not known yet (then a one-polygon corridor keeps both funnels).
  void start_jump(Vec2 start, Vec2 land_a, Vec2 land_b, std::span<const Portal> portals,
                  const Vec2* target);
  /// Processes the portals up to (without a target) or through (with one) the target.
  void advance();
  /// Estimated length from the funnel's state to x (§6.2.2), up to a constant shared by every x.
  [[nodiscard]] double estimate(Vec2 x) const;
  /// Sets the target when not known yet and completes the corners.
  void finish(Vec2 target);

  [[nodiscard]] const std::vector<Corner>& corners() const { return corners_; }
  [[nodiscard]] JumpFunnelCase jump_case() const { return case_; }
  /// The single live funnel (after advance() of a walk run, for backward funnels).
  [[nodiscard]] const FunnelState& state() const { return funnel_[0]; }

 private:
  enum class Event : std::uint8_t { None, CornerLeft, CornerRight };
  [[nodiscard]] Vec2 left_of(std::size_t i) const;
  [[nodiscard]] Vec2 right_of(std::size_t i) const;
  [[nodiscard]] FunnelState land_funnel(Vec2 apex) const;
  [[nodiscard]] double land_side(Vec2 p) const;
  void choose_case1(Vec2 target);
  [[nodiscard]] Event step(FunnelState& f, std::size_t i) const;
  void restart(FunnelState& f, Event event);
  void emit(Vec2 p, std::size_t slot);
  [[nodiscard]] static double funnel_estimate(const FunnelState& f, Vec2 x);

  std::span<const Portal> portals_;
  std::vector<Corner> corners_;
  FunnelState funnel_[2];
  bool two_ = false;
  bool jump_ = false;
  bool landing_pending_ = false;
  bool case1_pending_ = false;
  bool have_target_ = false;
  Vec2 target_;
  Vec2 start_;
  Vec2 land_a_;
  Vec2 land_b_;
  Vec2 mirror_;
  double start_side_ = 0.0;
  std::size_t i_ = 1;
  JumpFunnelCase case_ = JumpFunnelCase::Case1b;
};

}  // namespace leapnav::plan::detail
