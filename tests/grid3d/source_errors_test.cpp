// The negative halves of spec tests T9b and T10: the two readings of the thesis that leapnav does
// not implement, run inside a search, fail where the spec says they fail. The searches here are a
// plain JPS-3D written for this test (A* over jump points, `cut` corner rule, no depth limit) whose
// forced-neighbour test and free flag are pluggable:
// - T10: forced neighbours by the thesis's Definition 2 read literally (any path from the parent
//   that avoids x, forced_oracle(..., OracleRule::Literal)) against the canonical rule (C1-F);
// - T9b: the thesis's lazy `free` flag (set on n-1 when three consecutive nodes n-2, n-1, n of a
//   straight sweep had no forced neighbour; a flagged node skips the forced-neighbour test; flags
//   kept between queries) against a fresh flag set per query.
// The reference search with the canonical rule and no flag returns A*'s cost on every scene here,
// so a wrong answer comes from the reading under test, not from the harness.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <vector>

#include "leapnav/grid3d/neighbourhood.hpp"
#include "leapnav/grid3d/occupancy.hpp"
#include "leapnav/grid3d/search.hpp"

using namespace leapnav;
using namespace leapnav::grid3d;

namespace {

constexpr double kSqrt2 = 1.4142135623730951;

struct Reading {
  OracleRule forced_rule = OracleRule::Canonical;
  std::vector<char>* lazy_free = nullptr;  ///< the thesis's flags, kept by the caller; null: none
};

class ReferenceJps {
 public:
  ReferenceJps(const OccupancyGrid& grid, Reading reading) : grid_(grid), reading_(reading) {}

  /// The path cost, or nullopt when the search finds no path.
  std::optional<double> cost(VoxelCoord start, VoxelCoord goal) {
    using Item = std::tuple<double, double, std::size_t, int>;  // f, g, voxel, arrival direction
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    std::vector<char> closed(voxels(), 0);
    open.emplace(octile(start, goal), 0.0, index(start), -1);
    while (!open.empty()) {
      const auto [f, g, at, dir] = open.top();
      open.pop();
      if (closed[at] != 0) continue;
      closed[at] = 1;
      const VoxelCoord x = coord(at);
      if (x == goal) return g;
      const CellMask around = blocked_around(x);
      CellMask moves = 0;
      if (dir < 0) {
        moves = legal_moves(around, CornerRule::Cut);
      } else {
        moves = natural_moves(dir, around, CornerRule::Cut) | forced_at(x, dir);
      }
      for (int c = 0; c < 27; ++c) {
        if (c == kCentre || ((moves >> c) & 1U) == 0) continue;
        int steps = 0;
        const std::optional<VoxelCoord> y = jump(x, c, goal, steps);
        if (!y || closed[index(*y)] != 0) continue;
        const double ng = g + steps * move_cost(c);
        open.emplace(ng + octile(*y, goal), ng, index(*y), c);
      }
    }
    return std::nullopt;
  }

 private:
  [[nodiscard]] std::size_t voxels() const {
    return static_cast<std::size_t>(grid_.width) * static_cast<std::size_t>(grid_.height) *
           static_cast<std::size_t>(grid_.depth);
  }
  [[nodiscard]] std::size_t index(VoxelCoord v) const {
    return (static_cast<std::size_t>(v.y) * static_cast<std::size_t>(grid_.depth) +
            static_cast<std::size_t>(v.z)) *
               static_cast<std::size_t>(grid_.width) +
           static_cast<std::size_t>(v.x);
  }
  [[nodiscard]] VoxelCoord coord(std::size_t i) const {
    const auto w = static_cast<std::size_t>(grid_.width);
    const auto d = static_cast<std::size_t>(grid_.depth);
    return {static_cast<int>(i % w), static_cast<int>(i / (w * d)), static_cast<int>((i / w) % d)};
  }
  static VoxelCoord step(VoxelCoord v, int dir) {
    const Offset3 o = cell_offset(dir);
    return {v.x + o.dx, v.y + o.dy, v.z + o.dz};
  }
  static double octile(VoxelCoord a, VoxelCoord b) {
    std::array<int, 3> d{std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)};
    std::sort(d.begin(), d.end());
    return d[0] * std::sqrt(3.0) + (d[1] - d[0]) * kSqrt2 + (d[2] - d[1]);
  }
  [[nodiscard]] CellMask blocked_around(VoxelCoord v) const {
    CellMask mask = 0;
    for (int c = 0; c < 27; ++c) {
      if (c != kCentre && grid_.blocked(step(v, c))) mask |= CellMask{1} << c;
    }
    return mask;
  }
  [[nodiscard]] CellMask forced_at(VoxelCoord v, int dir) const {
    if (reading_.lazy_free != nullptr && (*reading_.lazy_free)[index(v)] != 0) return 0;
    return forced_oracle(dir, blocked_around(v), CornerRule::Cut, reading_.forced_rule);
  }

  // Sweeps from x along dir (x itself excluded); `steps` receives the number of moves.
  std::optional<VoxelCoord> jump(VoxelCoord x, int dir, VoxelCoord goal, int& steps) {
    const bool straight = axis_count(dir) == 1;
    int quiet_run = 0;  // consecutive swept nodes without a forced neighbour (straight sweeps)
    VoxelCoord at = x;
    steps = 0;
    while (true) {
      const VoxelCoord next = step(at, dir);
      if (grid_.blocked(next)) return std::nullopt;
      ++steps;
      if (next == goal) return next;
      if (forced_at(next, dir) != 0) return next;
      if (straight && reading_.lazy_free != nullptr) {
        if (++quiet_run >= 3) (*reading_.lazy_free)[index(at)] = 1;  // n-2, n-1 = at, n = next
      }
      if (!straight) {
        for (int sub = 0; sub < 27; ++sub) {
          if (sub == kCentre || sub == dir || !is_subdirection(sub, dir)) continue;
          int sub_steps = 0;
          if (jump(next, sub, goal, sub_steps)) return next;
        }
      }
      at = next;
    }
  }

  const OccupancyGrid& grid_;
  Reading reading_;
};

OccupancyGrid grid_of(int width, int height, int depth) {
  auto made = make_grid(width, height, depth);
  REQUIRE(made.ok());
  return std::move(made).value();
}

double astar_cost(const OccupancyGrid& grid, VoxelCoord s, VoxelCoord t) {
  FlyPlanner planner(grid);
  const auto path = planner.find_path(s, t, {Algorithm::AStar, CornerRule::Cut, 8});
  REQUIRE(path.ok());
  REQUIRE(path->status == FlyStatus::Found);
  return path->cost;
}

}  // namespace

TEST_SUITE("grid3d.source_errors") {
  TEST_CASE("T10: the literal Definition 2 finds no path where canonical JPS finds 2 sqrt 2") {
    OccupancyGrid grid = grid_of(5, 5, 5);
    grid.set_blocked({1, 1, 3}, true);
    const VoxelCoord start{1, 0, 3};
    const VoxelCoord goal{1, 2, 3};
    CHECK(std::abs(astar_cost(grid, start, goal) - 2 * kSqrt2) < 1e-9);

    const auto canonical = ReferenceJps(grid, {OracleRule::Canonical, nullptr}).cost(start, goal);
    REQUIRE(canonical.has_value());
    CHECK(std::abs(*canonical - 2 * kSqrt2) < 1e-9);

    const auto literal = ReferenceJps(grid, {OracleRule::Literal, nullptr}).cost(start, goal);
    CHECK_FALSE(literal.has_value());
  }

  TEST_CASE("T9b: lazy free flags kept between queries lose a path that a fresh flag set finds") {
    // spec (x, y, z) = leapnav (x, z, y): 10 x 3 x 1, blocked {(x, 1, 0) : 4 <= x <= 9}
    OccupancyGrid grid = grid_of(10, 1, 3);
    for (int x = 4; x <= 9; ++x) grid.set_blocked({x, 0, 1}, true);
    const VoxelCoord a{0, 0, 0};
    const VoxelCoord b{9, 0, 0};
    const VoxelCoord c{2, 0, 2};
    const double optimal = 5 + 2 * kSqrt2;
    CHECK(std::abs(astar_cost(grid, b, c) - optimal) < 1e-9);

    // the reference search without flags answers both queries optimally
    ReferenceJps exact(grid, {OracleRule::Canonical, nullptr});
    REQUIRE(exact.cost(a, b).has_value());
    CHECK(std::abs(*exact.cost(a, b) - 9.0) < 1e-9);
    REQUIRE(exact.cost(b, c).has_value());
    CHECK(std::abs(*exact.cost(b, c) - optimal) < 1e-9);

    const std::size_t voxels = 10 * 3;
    // a fresh flag set per query: still optimal
    {
      std::vector<char> flags(voxels, 0);
      const auto second = ReferenceJps(grid, {OracleRule::Canonical, &flags}).cost(b, c);
      REQUIRE(second.has_value());
      CHECK(std::abs(*second - optimal) < 1e-9);
    }
    // flags kept from the first query, as the thesis allows for a static world: no path
    std::vector<char> flags(voxels, 0);
    ReferenceJps lazy(grid, {OracleRule::Canonical, &flags});
    const auto first = lazy.cost(a, b);
    REQUIRE(first.has_value());
    CHECK(std::abs(*first - 9.0) < 1e-9);
    CHECK(flags[4] != 0);  // (4, 0, 0): flagged on the +x sweep, a jump point for a -x sweep
    CHECK_FALSE(lazy.cost(b, c).has_value());
  }
}
