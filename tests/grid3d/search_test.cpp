// A* and JPS-3D with P, D and PD against an independent Dijkstra (spec T11) and the scenes with
// exact answers T5-T10 and T12.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include "leapnav/grid3d/scenes.hpp"
#include "leapnav/grid3d/search.hpp"

using namespace leapnav;
using namespace leapnav::grid3d;

namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrt3 = 1.7320508075688772;

// Plain Dijkstra over a bool volume, written without the planner's data structures.
double dijkstra(const OccupancyGrid& grid, VoxelCoord s, VoxelCoord t, CornerRule rule) {
  const int w = grid.width;
  const int h = grid.height;
  const int d = grid.depth;
  const auto index = [&](int x, int y, int z) {
    return (static_cast<std::size_t>(y) * d + z) * w + x;
  };
  const auto free_at = [&](int x, int y, int z) { return !grid.blocked({x, y, z}); };
  std::vector<double> dist(static_cast<std::size_t>(w) * h * d,
                           std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  dist[index(s.x, s.y, s.z)] = 0.0;
  open.push({0.0, index(s.x, s.y, s.z)});
  while (!open.empty()) {
    const auto [g, i] = open.top();
    open.pop();
    if (g > dist[i]) continue;
    const int x = static_cast<int>(i % w);
    const int z = static_cast<int>((i / w) % d);
    const int y = static_cast<int>(i / (static_cast<std::size_t>(w) * d));
    if (x == t.x && y == t.y && z == t.z) return g;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dz = -1; dz <= 1; ++dz) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          bool ok = free_at(x + dx, y + dy, z + dz);
          if (rule == CornerRule::NoCut) {
            for (int ax = 0; ax <= (dx != 0); ++ax)
              for (int ay = 0; ay <= (dy != 0); ++ay)
                for (int az = 0; az <= (dz != 0); ++az)
                  ok = ok && free_at(x + ax * dx, y + ay * dy, z + az * dz);
          }
          if (!ok) continue;
          const int axes = (dx != 0) + (dy != 0) + (dz != 0);
          const double ng = g + (axes == 1 ? 1.0 : (axes == 2 ? kSqrt2 : kSqrt3));
          const std::size_t j = index(x + dx, y + dy, z + dz);
          if (ng < dist[j]) {
            dist[j] = ng;
            open.push({ng, j});
          }
        }
      }
    }
  }
  return -1.0;
}

FlyPath plan(FlyPlanner& planner, VoxelCoord s, VoxelCoord t, Algorithm algorithm,
             CornerRule rule = CornerRule::Cut, int depth = 8) {
  auto path = planner.find_path(s, t, {algorithm, rule, depth});
  REQUIRE(path.ok());
  return std::move(path).value();
}

OccupancyGrid empty_box(int n) {
  auto grid = make_grid(n, n, n);
  REQUIRE(grid.ok());
  return std::move(grid).value();
}

struct Variant {
  Algorithm algorithm;
  int depth;
  bool shared = false;
};

}  // namespace

TEST_SUITE("grid3d.search") {
  TEST_CASE("every variant finds Dijkstra's cost on seeded random grids under both corner rules") {
    // T11: 5^3-16^3, fill 0-80 %, K in {1, 2, 3, 8}; each path checked step by step.
    const std::vector<Variant> variants{
        {Algorithm::AStar, 8},       {Algorithm::Jps, 8},        {Algorithm::JpsP, 8},
        {Algorithm::JpsD, 1},        {Algorithm::JpsD, 2},       {Algorithm::JpsD, 3},
        {Algorithm::JpsD, 8},        {Algorithm::JpsPD, 1},      {Algorithm::JpsPD, 3},
        {Algorithm::JpsPD, 8},       {Algorithm::JpsD, 1, true}, {Algorithm::JpsD, 3, true},
        {Algorithm::JpsPD, 2, true}, {Algorithm::JpsPD, 8, true}};
    std::mt19937_64 rng(26);
    int queries = 0;
    int found = 0;
    for (int trial = 0; trial < 120; ++trial) {
      const int w = 5 + static_cast<int>(rng() % 12);
      const int h = 5 + static_cast<int>(rng() % 12);
      const int d = 5 + static_cast<int>(rng() % 12);
      const double fill = 0.8 * static_cast<double>(trial % 17) / 16.0;
      auto made = random_grid(w, h, d, fill, rng());
      REQUIRE(made.ok());
      const OccupancyGrid& grid = *made;
      FlyPlanner planner(grid);
      for (int q = 0; q < 4; ++q) {
        const auto pick = [&]() {
          for (int tries = 0; tries < 200; ++tries) {
            const VoxelCoord v{static_cast<int>(rng() % w), static_cast<int>(rng() % h),
                               static_cast<int>(rng() % d)};
            if (!grid.blocked(v)) return v;
          }
          return VoxelCoord{-1, -1, -1};
        };
        const VoxelCoord s = pick();
        const VoxelCoord t = pick();
        if (!grid.in_bounds(s) || !grid.in_bounds(t)) continue;
        for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
          const double want = dijkstra(grid, s, t, rule);
          ++queries;
          found += want >= 0.0 ? 1 : 0;
          for (const Variant v : variants) {
            auto found_path = planner.find_path(s, t, {v.algorithm, rule, v.depth, v.shared});
            REQUIRE(found_path.ok());
            const FlyPath& path = *found_path;
            // the one-voxel reference sweeps: the same search step for step
            auto reference = planner.find_path(s, t, {v.algorithm, rule, v.depth, v.shared, false});
            REQUIRE(reference.ok());
            CHECK(reference->expanded == path.expanded);
            CHECK(reference->touched == path.touched);
            CHECK(reference->points == path.points);
            CAPTURE(trial);
            CAPTURE(v.shared);
            CAPTURE(to_string(v.algorithm));
            CAPTURE(v.depth);
            CAPTURE(to_string(rule));
            if (want < 0.0) {
              CHECK(path.status == FlyStatus::NoPath);
            } else {
              REQUIRE(path.status == FlyStatus::Found);
              CHECK(std::abs(path.cost - want) <= 1e-9);
              const Status valid = check_path(grid, s, t, path, rule);
              CHECK_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
            }
          }
        }
      }
    }
    CHECK(queries > 800);
    CHECK(found > queries / 3);
  }

  TEST_CASE(
      "word sweeps give the one-voxel loop's jump points, steps and budgets on random grids") {
    // rows longer than one 64-bit window along each axis in turn; every direction, both corner
    // rules, plain / depth-limited / shared-budget jumps, goals on and off the jump's row
    std::mt19937_64 rng(2614);
    int probes = 0;
    int found = 0;
    for (int trial = 0; trial < 36; ++trial) {
      int side[3] = {3 + static_cast<int>(rng() % 10), 3 + static_cast<int>(rng() % 10),
                     3 + static_cast<int>(rng() % 10)};
      side[trial % 3] = 60 + static_cast<int>(rng() % 80);
      const double fill = 0.5 * static_cast<double>(trial % 9) / 8.0;
      auto made = random_grid(side[0], side[1], side[2], fill, rng());
      REQUIRE(made.ok());
      const OccupancyGrid& grid = *made;
      FlyPlanner planner(grid);
      for (int q = 0; q < 60; ++q) {
        const VoxelCoord from{static_cast<int>(rng() % side[0]), static_cast<int>(rng() % side[1]),
                              static_cast<int>(rng() % side[2])};
        if (grid.blocked(from)) continue;
        VoxelCoord goal{static_cast<int>(rng() % side[0]), static_cast<int>(rng() % side[1]),
                        static_cast<int>(rng() % side[2])};
        if (q % 3 == 0) goal = {goal.x, from.y, from.z};
        if (q % 3 == 1) goal = {from.x, from.y, goal.z};
        for (int d = 0; d < 27; ++d) {
          if (d == kCentre) continue;
          for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
            for (const Variant v : {Variant{Algorithm::Jps, 8}, Variant{Algorithm::JpsPD, 3},
                                    Variant{Algorithm::JpsD, 70}, Variant{Algorithm::JpsP, 8},
                                    Variant{Algorithm::JpsPD, 5, true}}) {
              SearchConfig config{v.algorithm, rule, v.depth, v.shared};
              const auto word = planner.probe_jump(from, d, goal, config);
              config.word_sweeps = false;
              const auto scalar = planner.probe_jump(from, d, goal, config);
              CAPTURE(trial);
              CAPTURE(d);
              REQUIRE(word.found == scalar.found);
              CHECK(word.at == scalar.at);
              CHECK(word.touched == scalar.touched);
              ++probes;
              found += word.found ? 1 : 0;
            }
          }
        }
      }
    }
    CHECK(probes > 50000);
    CHECK(found > probes / 10);
  }

  TEST_CASE("T5: a 3-axis jump in an empty box steps into exactly (N-1)^3 voxels") {
    for (const int n : {4, 6, 10}) {
      const OccupancyGrid grid = empty_box(n);
      FlyPlanner planner(grid);
      const auto probe = planner.probe_jump({0, 0, 0}, cell_index(1, 1, 1), {n - 1, n - 1, n - 1},
                                            {Algorithm::Jps, CornerRule::Cut, 8});
      CHECK(probe.found);
      CHECK(probe.at == VoxelCoord{n - 1, n - 1, n - 1});
      CHECK(probe.touched == static_cast<std::uint64_t>((n - 1) * (n - 1) * (n - 1)));
    }
  }

  TEST_CASE("T6: a sub-sweep that finds the goal makes the diagonal voxel a jump point") {
    const OccupancyGrid grid = empty_box(10);
    FlyPlanner planner(grid);
    const SearchConfig jps{Algorithm::Jps, CornerRule::Cut, 8};
    auto probe = planner.probe_jump({0, 0, 0}, cell_index(1, 1, 1), {9, 3, 3}, jps);
    CHECK(probe.found);
    CHECK(probe.at == VoxelCoord{3, 3, 3});
    CHECK(plan(planner, {0, 0, 0}, {9, 3, 3}, Algorithm::Jps).cost ==
          doctest::Approx(3 * kSqrt3 + 6).epsilon(1e-12));
    probe = planner.probe_jump({0, 0, 0}, cell_index(1, 1, 1), {9, 9, 2}, jps);
    CHECK(probe.at == VoxelCoord{2, 2, 2});
  }

  TEST_CASE("T7: a depth limit of 4 returns the fourth diagonal voxel and keeps the cost") {
    const OccupancyGrid grid = empty_box(10);
    FlyPlanner planner(grid);
    // note: C1-O2 as the spec writes it (only the top-level direction spends the budget)
    const auto probe = planner.probe_jump({0, 0, 0}, cell_index(1, 1, 1), {9, 9, 9},
                                          {Algorithm::JpsD, CornerRule::Cut, 4, false});
    CHECK(probe.at == VoxelCoord{4, 4, 4});
    for (const Algorithm a : {Algorithm::JpsD, Algorithm::JpsPD}) {
      CHECK(std::abs(plan(planner, {0, 0, 0}, {9, 9, 9}, a, CornerRule::Cut, 4).cost - 9 * kSqrt3) <
            1e-9);
    }
  }

  TEST_CASE("T8: the jump point beside one obstacle depends on the corner rule") {
    OccupancyGrid grid = empty_box(10);
    grid.set_blocked({4, 5, 4}, true);
    FlyPlanner planner(grid);
    const int d = cell_index(1, 0, 0);
    auto probe =
        planner.probe_jump({0, 5, 5}, d, {-1, -1, -1}, {Algorithm::Jps, CornerRule::Cut, 8});
    CHECK(probe.at == VoxelCoord{4, 5, 5});
    probe = planner.probe_jump({0, 5, 5}, d, {-1, -1, -1}, {Algorithm::Jps, CornerRule::NoCut, 8});
    CHECK(probe.at == VoxelCoord{5, 5, 5});
  }

  TEST_CASE("T9: an empty 10^3 box has 512 free-bit voxels; a voxel beside a wall has none") {
    OccupancyGrid grid = empty_box(10);
    CHECK(FlyPlanner(grid).free_voxel_count() == 512);
    for (int x = 0; x < 10; ++x)
      for (int y = 0; y < 10; ++y) grid.set_blocked({x, y, 3}, true);
    FlyPlanner planner(grid);
    // the slab z = 3 lies parallel to an x sweep at z = 4: no forced neighbour, yet not free
    const auto probe = planner.probe_jump({1, 5, 4}, cell_index(1, 0, 0), {-1, -1, -1},
                                          {Algorithm::Jps, CornerRule::Cut, 8});
    CHECK_FALSE(probe.found);
    CHECK(planner.free_voxel_count() == 8 * 8 * (1 + 4));  // z = 1 and z in 5..8
  }

  TEST_CASE("T9b: the exact free bit keeps a second query on the same planner optimal") {
    auto made = make_grid(10, 1, 3);  // spec (x, y, z) = leapnav (x, z, y); z thickness 1
    REQUIRE(made.ok());
    OccupancyGrid grid = std::move(made).value();
    for (int x = 4; x <= 9; ++x) grid.set_blocked({x, 0, 1}, true);
    FlyPlanner planner(grid);
    for (const Algorithm a : {Algorithm::JpsP, Algorithm::JpsPD}) {
      CHECK(std::abs(plan(planner, {0, 0, 0}, {9, 0, 0}, a).cost - 9.0) < 1e-9);
      const FlyPath second = plan(planner, {9, 0, 0}, {2, 0, 2}, a);
      REQUIRE(second.status == FlyStatus::Found);
      CHECK(std::abs(second.cost - (5 + 2 * kSqrt2)) < 1e-9);
    }
  }

  TEST_CASE("T10: canonical JPS solves the scene where the literal definition finds no path") {
    OccupancyGrid grid = empty_box(5);
    grid.set_blocked({1, 1, 3}, true);
    FlyPlanner planner(grid);
    for (const Algorithm a :
         {Algorithm::AStar, Algorithm::Jps, Algorithm::JpsP, Algorithm::JpsD, Algorithm::JpsPD}) {
      const FlyPath path = plan(planner, {1, 0, 3}, {1, 2, 3}, a, CornerRule::Cut, 1);
      REQUIRE(path.status == FlyStatus::Found);
      CHECK(std::abs(path.cost - 2 * kSqrt2) < 1e-9);
    }
  }

  TEST_CASE("T12: the 12 x 12 three-storey building has 809 free voxels and a 27.5133 path") {
    auto made = building_grid(12, 12, 3, 4);
    REQUIRE(made.ok());
    const OccupancyGrid& grid = *made;
    CHECK(grid.height == 13);
    CHECK(grid.voxel_count() - grid.blocked_count() == 809);
    FlyPlanner planner(grid);
    for (const Variant v : {Variant{Algorithm::AStar, 8}, Variant{Algorithm::Jps, 8},
                            Variant{Algorithm::JpsD, 3}, Variant{Algorithm::JpsPD, 3}}) {
      const FlyPath path =
          plan(planner, {10, 1, 10}, {10, 9, 10}, v.algorithm, CornerRule::Cut, v.depth);
      REQUIRE(path.status == FlyStatus::Found);
      CHECK(path.cost == doctest::Approx(27.5133).epsilon(1e-5));
      CHECK(std::abs(path.cost - dijkstra(grid, {10, 1, 10}, {10, 9, 10}, CornerRule::Cut)) < 1e-9);
    }
  }

  TEST_CASE("JPS expands fewer nodes than A* but touches more voxels in an open box") {
    const OccupancyGrid grid = empty_box(16);
    FlyPlanner planner(grid);
    const FlyPath astar = plan(planner, {0, 0, 0}, {15, 9, 4}, Algorithm::AStar);
    const FlyPath jps = plan(planner, {0, 0, 0}, {15, 9, 4}, Algorithm::Jps);
    CHECK(std::abs(astar.cost - jps.cost) < 1e-9);
    CHECK(jps.expanded < astar.expanded);
    CHECK(jps.touched > astar.touched);
  }

  TEST_CASE("endpoints outside the grid or blocked give their own status, not an error") {
    OccupancyGrid grid = empty_box(4);
    grid.set_blocked({1, 1, 1}, true);
    FlyPlanner planner(grid);
    CHECK(plan(planner, {-1, 0, 0}, {0, 0, 0}, Algorithm::Jps).status == FlyStatus::StartOutside);
    CHECK(plan(planner, {0, 0, 0}, {0, 4, 0}, Algorithm::Jps).status == FlyStatus::GoalOutside);
    CHECK(plan(planner, {1, 1, 1}, {0, 0, 0}, Algorithm::Jps).status == FlyStatus::StartBlocked);
    CHECK(plan(planner, {0, 0, 0}, {1, 1, 1}, Algorithm::AStar).status == FlyStatus::GoalBlocked);
    const FlyPath same = plan(planner, {2, 2, 2}, {2, 2, 2}, Algorithm::JpsPD);
    CHECK(same.status == FlyStatus::Found);
    CHECK(same.cost == 0.0);
    auto bad = planner.find_path({0, 0, 0}, {3, 3, 3}, {Algorithm::JpsD, CornerRule::Cut, 0});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::InvalidArgument);
  }
}
