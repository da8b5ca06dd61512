// An independent, deliberately plain re-implementation of Pignole's generator (spec §B3-B7) for
// the platformer tests: its own walkability, platform labels, trajectory closed form and link
// rule, with a switch for the pseudo-code's missing stop at a landing. It works on tile
// coordinates only and shares no code with leapnav::platformer beyond the map and parameter types.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

#include "leapnav/platformer/params.hpp"
#include "leapnav/platformer/tile_map.hpp"

namespace leapnav::platformer::test {

struct OracleJump {
  int from_c, from_r, to_c, to_r;
  int height_index, speed_index, direction;  // i in 1..h_div, j in 1..s_div, +1/-1
  friend bool operator<(const OracleJump& a, const OracleJump& b) {
    return std::tie(a.from_r, a.from_c, a.to_r, a.to_c, a.height_index, a.speed_index,
                    a.direction) <
           std::tie(b.from_r, b.from_c, b.to_r, b.to_c, b.height_index, b.speed_index, b.direction);
  }
  friend bool operator==(const OracleJump& a, const OracleJump& b) { return !(a < b) && !(b < a); }
};

class Oracle {
 public:
  Oracle(const TileMap& map, const PlatformerParams& p) : map_(map), p_(p) {
    label_.assign(map.solid.size(), -1);
    int next = 0;
    for (int r = 0; r < map.height; ++r) {
      for (int c = 0; c < map.width; ++c) {
        if (!walkable(c, r)) continue;
        label_[map.index(c, r)] =
            (c > 0 && walkable(c - 1, r)) ? label_[map.index(c - 1, r)] : next++;
      }
    }
    platforms_ = next;
  }

  [[nodiscard]] bool solid(int c, int r) const { return map_.is_solid(c, r); }
  [[nodiscard]] bool walkable(int c, int r) const {
    if (!map_.in_bounds(c, r) || !solid(c, r - 1)) return false;
    for (int k = 0; k < p_.collider_h; ++k)
      if (solid(c, r + k)) return false;
    return true;
  }
  [[nodiscard]] bool space(int c, int r) const {
    for (int dc = -(p_.collider_w - 1) / 2; dc <= p_.collider_w / 2; ++dc)
      for (int k = 0; k < p_.collider_h; ++k)
        if (solid(c + dc, r + k)) return false;
    return true;
  }
  [[nodiscard]] int platform(int c, int r) const {
    return map_.in_bounds(c, r) ? label_[map_.index(c, r)] : -1;
  }
  [[nodiscard]] int platforms() const { return platforms_; }

  // x and y of the feet at time t of jump (i, j, dir) from tile (c, r).
  [[nodiscard]] std::pair<double, double> at(int c, int r, int i, int j, int dir, double t) const {
    const double h = p_.h_max * i / p_.h_div;
    const double cap = p_.v_max * j / p_.s_div;
    // horizontal: speed v(t) = min(v_b + a t, cap), or cap throughout when v_b >= cap
    double dist = 0;
    if (p_.v_b >= cap) {
      dist = cap * t;
    } else {
      const double reach = p_.a > 0 ? (cap - p_.v_b) / p_.a : 1e300;
      dist = t < reach ? p_.v_b * t + p_.a * t * t / 2
                       : p_.v_b * reach + p_.a * reach * reach / 2 + cap * (t - reach);
    }
    const double vy = std::sqrt(2 * p_.g * h);
    return {c + 0.5 + dir * dist, r + vy * t - p_.g * t * t / 2};
  }

  [[nodiscard]] int samples() const {
    return static_cast<int>(std::floor(p_.T / p_.dt * (1 + 1e-9)));
  }

  // Jump links by B7; `stop_at_landing` false is the pseudo-code as printed.
  [[nodiscard]] std::vector<OracleJump> jumps(bool stop_at_landing) const {
    std::vector<OracleJump> out;
    for (int r = 0; r < map_.height; ++r) {
      for (int c = 0; c < map_.width; ++c) {
        if (!walkable(c, r)) continue;
        std::vector<int> reached;
        for (int i = 1; i <= p_.h_div; ++i) {
          for (int j = 1; j <= p_.s_div; ++j) {
            for (int dir : {1, -1}) {
              double prev = r;
              for (int k = 1; k <= samples(); ++k) {
                const auto [x, y] = at(c, r, i, j, dir, k * p_.dt);
                const int qc = static_cast<int>(std::floor(x));
                const int qr = static_cast<int>(std::floor(y));
                const double before = prev;
                prev = y;
                if (qc == c && qr == r) continue;
                const int pq = platform(qc, qr);
                const bool lands = pq >= 0 && y < before && y - qr <= p_.distance_max &&
                                   space(qc, qr) && pq != platform(c, r) &&
                                   std::find(reached.begin(), reached.end(), pq) == reached.end();
                if (lands) {
                  out.push_back({c, r, qc, qr, i, j, dir});
                  reached.push_back(pq);
                  if (stop_at_landing) break;
                } else if (!space(qc, qr) || k == samples()) {
                  break;
                }
              }
            }
          }
        }
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  const TileMap& map_;
  PlatformerParams p_;
  std::vector<int> label_;
  int platforms_ = 0;
};

}  // namespace leapnav::platformer::test
