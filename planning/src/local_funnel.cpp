// The funnel engine of a path with jumps (thesis §6.2.1, §6.2.2). Slots: 0 is the start (a walk)
// or the land segment (a jump), 1..n the portals, n + 1 the target. A jump run emits the landing
// before its first corner: a land end when the funnel restarts there, else the Theorem 6.1 point
// for the corner, which is the thesis's cut of apex -> corner with the segment (the mirrored apex's
// cut equals the cut of the start with the corner mirrored). With two funnels, one that collapses
// while the other lives is dropped; when both collapse, the one whose corner lies on its side of
// the land segment's line restarts.
#include "local_funnel.hpp"

#include <algorithm>
#include <cmath>

namespace leapnav::plan {
namespace detail {
namespace {

double dist(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(b.x) - a.x;
  const double dz = static_cast<double>(b.y) - a.y;
  return std::sqrt(dx * dx + dz * dz);
}

double sign_of(double v) {
  return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0);
}

}  // namespace

double via_length(Vec2 s, Vec2 a, Vec2 b, Vec2 t) {
  const Vec2 v = shortest_via_segment(s, a, b, t);
  return dist(s, v) + dist(v, t);
}

double chain_length(Vec2 s, Vec2 a1, Vec2 b1, Vec2 a2, Vec2 b2, Vec2 t) {
  const Vec2 mid1{0.5F * (a1.x + b1.x), 0.5F * (a1.y + b1.y)};
  Vec2 v2 = shortest_via_segment(mid1, a2, b2, t);
  Vec2 v1 = shortest_via_segment(s, a1, b1, v2);
  for (int round = 0; round < 3; ++round) {
    v2 = shortest_via_segment(v1, a2, b2, t);
    v1 = shortest_via_segment(s, a1, b1, v2);
  }
  return dist(s, v1) + dist(v1, v2) + dist(v2, t);
}

Vec2 LocalFunnel::left_of(std::size_t i) const {
  return i <= portals_.size() ? portals_[i - 1].left : target_;
}
Vec2 LocalFunnel::right_of(std::size_t i) const {
  return i <= portals_.size() ? portals_[i - 1].right : target_;
}

void LocalFunnel::start_walk(Vec2 start, std::span<const Portal> portals) {
  portals_ = portals;
  corners_.clear();
  corners_.push_back({start, 0});
  funnel_[0] = {start, start, start, 0, 0};
  two_ = false;
  jump_ = false;
  landing_pending_ = false;
  case1_pending_ = false;
  have_target_ = false;
  start_ = start;
  i_ = 1;
}

FunnelState LocalFunnel::land_funnel(Vec2 apex) const {
  // note: the left end is the one left of the ray from the apex to the other end.
  if (orient(apex, land_a_, land_b_) >= 0.0) return {apex, land_b_, land_a_, 0, 0};
  return {apex, land_a_, land_b_, 0, 0};
}

double LocalFunnel::land_side(Vec2 p) const {
  return orient(land_a_, land_b_, p) * start_side_;
}

void LocalFunnel::choose_case1(Vec2 target) {
  const double dx = static_cast<double>(land_b_.x) - land_a_.x;
  const double dz = static_cast<double>(land_b_.y) - land_a_.y;
  const double len = std::sqrt(dx * dx + dz * dz);
  const double side = orient(land_a_, land_b_, target);
  const double along = len > 0.0 ? ((static_cast<double>(target.x) - land_a_.x) * dx +
                                    (static_cast<double>(target.y) - land_a_.y) * dz) /
                                       (len * len)
                                 : 0.0;
  two_ = false;
  case1_pending_ = false;
  if (std::fabs(side) <= 1e-6 * std::max(len, 1e-6) && along >= 0.0 && along <= 1.0) {
    case_ = JumpFunnelCase::Case1a;
    funnel_[0] = land_funnel(start_);
  } else if (side * start_side_ <= 0.0) {
    case_ = JumpFunnelCase::Case1b;
    funnel_[0] = land_funnel(start_);
  } else {
    case_ = JumpFunnelCase::Case1c;
    funnel_[0] = land_funnel(mirror_);
  }
}

void LocalFunnel::start_jump(Vec2 start, Vec2 land_a, Vec2 land_b, std::span<const Portal> portals,
                             const Vec2* target) {
  portals_ = portals;
  corners_.clear();
  corners_.push_back({start, 0});
  jump_ = true;
  landing_pending_ = true;
  case1_pending_ = false;
  have_target_ = target != nullptr;
  if (have_target_) target_ = *target;
  start_ = start;
  land_a_ = land_a;
  land_b_ = land_b;
  i_ = 1;
  const double dx = static_cast<double>(land_b.x) - land_a.x;
  const double dz = static_cast<double>(land_b.y) - land_a.y;
  const double len2 = dx * dx + dz * dz;
  const double cross = orient(land_a, land_b, start);
  start_side_ = sign_of(cross);
  if (len2 > 0.0) {
    const double k = 2.0 * cross / len2;
    mirror_ = {static_cast<float>(start.x + k * dz), static_cast<float>(start.y - k * dx)};
  } else {
    mirror_ = start;
  }
  if (portals.empty()) {
    if (have_target_) {
      choose_case1(target_);
    } else {
      case_ = JumpFunnelCase::Case1b;
      case1_pending_ = true;
      two_ = false;
      funnel_[0] = land_funnel(start_);
    }
    return;
  }
  const double sl = land_side(portals.front().left);
  const double sr = land_side(portals.front().right);
  if (sl <= 0.0 && sr <= 0.0) {
    case_ = JumpFunnelCase::Case2a;
    two_ = false;
    funnel_[0] = land_funnel(start_);
  } else if (sl >= 0.0 && sr >= 0.0) {
    case_ = JumpFunnelCase::Case2b;
    two_ = false;
    funnel_[0] = land_funnel(mirror_);
  } else {
    case_ = JumpFunnelCase::Case2c;
    two_ = true;
    funnel_[0] = land_funnel(start_);
    funnel_[1] = land_funnel(mirror_);
  }
}

LocalFunnel::Event LocalFunnel::step(FunnelState& f, std::size_t i) const {
  const Vec2 l = left_of(i);
  const Vec2 r = right_of(i);
  // right leg: tighten when r is on or left of it
  if (orient(f.apex, f.right, r) >= 0.0) {
    if (f.apex == f.right || f.apex == f.left || orient(f.apex, f.left, r) < 0.0) {
      f.right = r;
      f.right_index = i;
    } else {
      return Event::CornerLeft;
    }
  }
  // left leg: tighten when l is on or right of it
  if (orient(f.apex, f.left, l) <= 0.0) {
    if (f.apex == f.left || f.apex == f.right || orient(f.apex, f.right, l) > 0.0) {
      f.left = l;
      f.left_index = i;
    } else {
      return Event::CornerRight;
    }
  }
  return Event::None;
}

void LocalFunnel::emit(Vec2 p, std::size_t slot) {
  if (landing_pending_) {
    landing_pending_ = false;
    const Vec2 landing = slot == 0 ? p : shortest_via_segment(start_, land_a_, land_b_, p);
    corners_.push_back({landing, 0});
    if (slot == 0) return;
  }
  if (!(corners_.back().point == p)) {
    corners_.push_back({p, static_cast<std::uint32_t>(slot == 0 ? 0 : slot - 1)});
  }
}

void LocalFunnel::restart(FunnelState& f, Event event) {
  const bool left = event == Event::CornerLeft;
  const Vec2 p = left ? f.left : f.right;
  const std::size_t k = left ? f.left_index : f.right_index;
  emit(p, k);
  f = {p, p, p, k, k};
  i_ = k;
}

void LocalFunnel::advance() {
  const std::size_t end = portals_.size() + (have_target_ ? 2 : 1);
  while (i_ < end) {
    if (two_) {
      const Event e0 = step(funnel_[0], i_);
      const Event e1 = step(funnel_[1], i_);
      if (e0 != Event::None && e1 == Event::None) {
        two_ = false;
        funnel_[0] = funnel_[1];
      } else if (e0 == Event::None && e1 != Event::None) {
        two_ = false;
      } else if (e0 != Event::None) {
        two_ = false;
        const Vec2 c0 = e0 == Event::CornerLeft ? funnel_[0].left : funnel_[0].right;
        const Vec2 c1 = e1 == Event::CornerLeft ? funnel_[1].left : funnel_[1].right;
        Event event = e0;
        if (land_side(c0) > 0.0 && land_side(c1) >= 0.0) {
          funnel_[0] = funnel_[1];
          event = e1;
        }
        restart(funnel_[0], event);
      }
    } else {
      const Event e = step(funnel_[0], i_);
      if (e != Event::None) restart(funnel_[0], e);
    }
    ++i_;
  }
}

double LocalFunnel::funnel_estimate(const FunnelState& f, Vec2 x) {
  if (f.left == f.apex && f.right == f.apex) return dist(f.apex, x);
  return via_length(f.apex, f.left, f.right, x);
}

double LocalFunnel::estimate(Vec2 x) const {
  if (case1_pending_) return via_length(start_, land_a_, land_b_, x);
  if (!two_) return funnel_estimate(funnel_[0], x);
  const FunnelState& f1 = funnel_[0];
  const FunnelState& f2 = funnel_[1];
  Vec2 p1;
  Vec2 p2;
  bool shared = true;
  if (f1.left == f2.left || f1.left == f2.right) {
    p1 = f1.right;
    p2 = f1.left == f2.left ? f2.right : f2.left;
  } else if (f1.right == f2.left || f1.right == f2.right) {
    p1 = f1.left;
    p2 = f1.right == f2.left ? f2.right : f2.left;
  } else {
    shared = false;
  }
  if (shared) return chain_length(start_, land_a_, land_b_, p1, p2, x);
  return std::min(funnel_estimate(f1, x), funnel_estimate(f2, x));
}

void LocalFunnel::finish(Vec2 target) {
  if (!have_target_) {
    have_target_ = true;
    target_ = target;
    if (case1_pending_) choose_case1(target);
  }
  advance();
  if (two_) {
    two_ = false;
    if (land_side(target_) > 0.0) funnel_[0] = funnel_[1];
  }
  if (landing_pending_) {
    landing_pending_ = false;
    corners_.push_back({shortest_via_segment(start_, land_a_, land_b_, target_), 0});
  }
  const std::size_t keep = jump_ ? 2 : 1;  // the start and (after a jump) the landing stay
  const auto last = static_cast<std::uint32_t>(portals_.size());
  if (corners_.size() > keep && corners_.back().point == target_) {
    corners_.back().corridor_index = last;
  } else {
    corners_.push_back({target_, last});
  }
}

}  // namespace detail

Vec2 shortest_via_segment(Vec2 s, Vec2 a, Vec2 b, Vec2 t) {
  const double dx = static_cast<double>(b.x) - a.x;
  const double dz = static_cast<double>(b.y) - a.y;
  const double len2 = dx * dx + dz * dz;
  if (len2 <= 0.0) return a;
  const double side_s = detail::orient(a, b, s);
  const double side_t = detail::orient(a, b, t);
  double tx = t.x;
  double tz = t.y;
  if (side_s * side_t > 0.0) {
    const double k = 2.0 * side_t / len2;
    tx += k * dz;
    tz -= k * dx;
  }
  // cut s -> t' with the line a + u (b - a)
  const double ex = tx - s.x;
  const double ez = tz - s.y;
  const double denom = dx * ez - dz * ex;
  const double asx = static_cast<double>(s.x) - a.x;
  const double asz = static_cast<double>(s.y) - a.y;
  double u = 0.0;
  if (denom != 0.0) {
    u = (asx * ez - asz * ex) / denom;
  } else {
    u = (asx * dx + asz * dz) / len2;
  }
  u = std::clamp(u, 0.0, 1.0);
  return {static_cast<float>(a.x + u * dx), static_cast<float>(a.y + u * dz)};
}

JumpFunnelCase jump_funnel(Vec2 start, Vec2 land_a, Vec2 land_b, std::span<const Portal> portals,
                           Vec2 target, std::vector<Corner>& corners) {
  detail::LocalFunnel run;
  run.start_jump(start, land_a, land_b, portals, &target);
  run.finish(target);
  corners = run.corners();
  return run.jump_case();
}

}  // namespace leapnav::plan
