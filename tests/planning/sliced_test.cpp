// The sliced search (NavQuery::begin_path / update_path / finish_path) against the one-shot
// find_path: for seeded random start/goal pairs on the real levels (../shared/meshes, skipped when
// absent) and on a built-in grid with a gap crossed by jump links, with filters, and for budgets
// of 1, 7 and 1000 expansions per update, the finished path equals the one-shot path exactly and
// no update does more expansions than its budget. Misuse (update before begin, finish before
// done) is an InvalidArgument error, and a new begin abandons the search in progress.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/scenes.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;

namespace {

constexpr std::uint32_t kBudgets[] = {1, 7, 1000};

void check_same_path(const plan::Path& sliced, const plan::Path& once, const std::string& what) {
  INFO(what);
  REQUIRE(sliced.status == once.status);
  CHECK(sliced.corridor == once.corridor);
  REQUIRE(sliced.segments.size() == once.segments.size());
  for (std::size_t i = 0; i < once.segments.size(); ++i) {
    const plan::PathSegment& x = sliced.segments[i];
    const plan::PathSegment& y = once.segments[i];
    CHECK(x.kind == y.kind);
    CHECK(x.first == y.first);
    CHECK(x.last == y.last);
    CHECK(x.corridor_first == y.corridor_first);
    CHECK(x.corridor_last == y.corridor_last);
    CHECK(x.jump_height == y.jump_height);
    CHECK(x.jump_distance == y.jump_distance);
    CHECK(x.link == y.link);
  }
  REQUIRE(sliced.points.size() == once.points.size());
  for (std::size_t i = 0; i < once.points.size(); ++i) {
    CHECK(sliced.points[i].x == once.points[i].x);
    CHECK(sliced.points[i].y == once.points[i].y);
    CHECK(sliced.points[i].z == once.points[i].z);
  }
  CHECK(sliced.length == once.length);
  CHECK(sliced.length_3d == once.length_3d);
  CHECK(sliced.search_cost == once.search_cost);
  CHECK(sliced.nodes_expanded == once.nodes_expanded);
  CHECK(sliced.jump_count == once.jump_count);
}

struct Counts {
  int queries = 0;
  int found = 0;
  int partial = 0;
  int with_jumps = 0;
  int multi_update = 0;  ///< sliced runs that needed more than one update
};

/// The sliced search for a->b with every budget against query.find_path; counts what it saw.
void compare(plan::NavQuery& query, Vec3 a, Vec3 b, const plan::QueryOptions& options,
             Counts& counts) {
  auto once = query.find_path(a, b, options);
  REQUIRE(once.ok());
  ++counts.queries;
  if (once->status == plan::PathStatus::Found) ++counts.found;
  if (once->status == plan::PathStatus::Partial) ++counts.partial;
  if (once->jump_count > 0) ++counts.with_jumps;
  for (const std::uint32_t budget : kBudgets) {
    REQUIRE(query.begin_path(a, b, options).ok());
    std::uint64_t total = 0;
    int updates = 0;
    for (;;) {
      auto step = query.update_path(budget);
      REQUIRE(step.ok());
      REQUIRE(step->expanded <= budget);
      total += step->expanded;
      ++updates;
      if (step->done) break;
      // a paused update used its whole budget
      REQUIRE(step->expanded == budget);
      REQUIRE(updates < 1000000);
    }
    if (updates > 1) ++counts.multi_update;
    // a search run backwards and then again forwards (walk-only Partial) does more expansions
    // than the path reports; never fewer
    CHECK(total >= once->nodes_expanded);
    plan::Path sliced;
    REQUIRE(query.finish_path(sliced).ok());
    check_same_path(sliced, *once, "budget " + std::to_string(budget));
  }
}

void compare_random(const plan::Planner& planner, const plan::QueryOptions& options,
                    std::size_t pairs, std::uint64_t seed, Counts& counts) {
  plan::NavQuery query(planner);
  const auto points = plan::random_points(planner.mesh(), 2 * pairs, seed);
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    compare(query, points[i].point, points[i + 1].point, options, counts);
  }
}

/// A 16 x 12 grid of 1 m cells on y = 0 with column 7 removed except in row 11 (a long detour),
/// polygon areas 0/1 in a checker of 2 x 2 blocks, and jump links over the gap from column 6 to
/// column 8 in every other row (config 0, C2) and back from 8 to 6 in rows 1, 5, 9 (config 1, C1).
struct JumpGrid {
  mesh::NavMesh nav;
  jump::JumpLinkSet links;
};

JumpGrid make_jump_grid() {
  constexpr int kNx = 16;
  constexpr int kNz = 12;
  const auto keep = [](int i, int j) { return i != 7 || j == kNz - 1; };
  JumpGrid grid;
  grid.nav = test::grid_navmesh(kNx, kNz, 1.0F, keep);
  std::vector<int> poly_of(static_cast<std::size_t>(kNx) * kNz, -1);
  const auto cell = [](int i, int j) {
    return static_cast<std::size_t>(i) + (static_cast<std::size_t>(j) * kNx);
  };
  int next = 0;
  for (int j = 0; j < kNz; ++j) {
    for (int i = 0; i < kNx; ++i) {
      if (keep(i, j)) poly_of[cell(i, j)] = next++;
    }
  }
  const auto poly = [&](int i, int j) { return static_cast<std::uint32_t>(poly_of[cell(i, j)]); };
  for (int j = 0; j < kNz; ++j) {
    for (int i = 0; i < kNx; ++i) {
      if (keep(i, j))
        grid.nav.poly_area[poly(i, j)] = static_cast<std::uint8_t>(((i / 2) + (j / 2)) % 2);
    }
  }
  grid.links.configs = {jump::kJumpC2, jump::kJumpC1};
  for (int j = 0; j + 1 < kNz; j += 2) {
    const float z = static_cast<float>(j) + 0.5F;
    grid.links.links.push_back({{6.75F, 0.0F, z},
                                {8.25F, 0.0F, z - 0.25F},
                                {8.25F, 0.0F, z + 0.25F},
                                0,
                                poly(6, j),
                                poly(8, j)});
  }
  for (const int j : {1, 5, 9}) {
    const float z = static_cast<float>(j) + 0.5F;
    grid.links.links.push_back(
        {{8.25F, 0.0F, z}, {6.75F, 0.0F, z}, {6.75F, 0.0F, z}, 1, poly(8, j), poly(6, j)});
  }
  jump::index_links(grid.links, grid.nav.polygon_count());
  return grid;
}

}  // namespace

TEST_SUITE("plan.sliced") {
  TEST_CASE("sliced search equals the one-shot search on a grid with jump links and filters") {
    const JumpGrid grid = make_jump_grid();
    const auto valid = jump::validate(grid.links, grid.nav);
    INFO((valid.ok() ? std::string("ok") : valid.error().message));
    REQUIRE(valid.ok());
    auto planner = plan::Planner::create(grid.nav, &grid.links);
    REQUIRE(planner.ok());
    Counts counts;
    plan::QueryOptions plain;
    plain.jump_cost = 0.5F;
    compare_random(*planner, plain, 100, 11, counts);
    plan::QueryOptions filtered = plain;
    filtered.area_costs[1] = 3.0F;
    filtered.jump_configs = 1;  // C2 only: no way back over the gap by jumping
    filtered.crossing = plan::CrossingPoint::ClosestToLine;
    compare_random(*planner, filtered, 60, 12, counts);
    plan::QueryOptions walk = plain;
    walk.jumps = false;
    compare_random(*planner, walk, 40, 13, counts);
    plan::QueryOptions tight = plain;
    tight.max_nodes = 9;
    compare_random(*planner, tight, 40, 14, counts);
    plan::QueryOptions toward = plain;
    toward.crossing = plan::CrossingPoint::TowardGoal;
    compare_random(*planner, toward, 40, 15, counts);
    MESSAGE("grid: " << counts.queries << " queries, " << counts.found << " found, "
                     << counts.partial << " partial, " << counts.with_jumps << " with jumps, "
                     << counts.multi_update << " sliced runs over several updates");
    CHECK(counts.with_jumps >= 20);
    CHECK(counts.partial >= 5);
    CHECK(counts.multi_update >= 100);
  }

  TEST_CASE("sliced search equals the one-shot search on the real levels") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto level = test::build_shared_level(file, "default");
      if (!level) continue;
      mesh::NavMesh nav = level->built.navmesh;
      auto planner = plan::Planner::create(nav);
      REQUIRE(planner.ok());
      Counts counts;
      plan::QueryOptions options;
      compare_random(*planner, options, 300, 21, counts);
      plan::QueryOptions tight;
      tight.max_nodes = 40;
      compare_random(*planner, tight, 40, 22, counts);
      // the exact search, also cut short by the node limit
      plan::QueryOptions exact;
      exact.walk_search = plan::WalkSearch::Exact;
      compare_random(*planner, exact, 150, 25, counts);
      exact.max_nodes = 20;
      compare_random(*planner, exact, 40, 26, counts);
      // areas 0/1 at random, area 1 costs 2.5
      std::mt19937 rng(23);
      for (auto& area : nav.poly_area) area = static_cast<std::uint8_t>(rng() % 2);
      auto costly = plan::Planner::create(nav);
      REQUIRE(costly.ok());
      plan::QueryOptions costs;
      costs.area_costs[1] = 2.5F;
      compare_random(*costly, costs, 60, 24, counts);
      MESSAGE(std::string(file) << ": " << counts.queries << " queries, " << counts.found
                                << " found, " << counts.partial << " partial, "
                                << counts.multi_update << " sliced runs over several updates");
      // note: nav_test.obj has many small islands, so most random pairs have no path
      CHECK(counts.found >= 50);
      CHECK(counts.multi_update >= 50);
    }
  }

  TEST_CASE("update before begin and finish before done are InvalidArgument errors") {
    const JumpGrid grid = make_jump_grid();
    auto planner = plan::Planner::create(grid.nav, &grid.links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::Path path;
    auto early = query.update_path(5);
    REQUIRE_FALSE(early.ok());
    CHECK(early.error().code == ErrorCode::InvalidArgument);
    auto unfinished = query.finish_path(path);
    REQUIRE_FALSE(unfinished.ok());
    CHECK(unfinished.error().code == ErrorCode::InvalidArgument);

    const Vec3 a{0.5F, 0.0F, 0.5F};
    const Vec3 b{15.5F, 0.0F, 0.5F};
    plan::QueryOptions walk;
    walk.jumps = false;
    REQUIRE(query.begin_path(a, b, walk).ok());
    auto zero = query.update_path(0);
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.error().code == ErrorCode::InvalidArgument);
    auto step = query.update_path(1);
    REQUIRE(step.ok());
    REQUIRE_FALSE(step->done);
    auto premature = query.finish_path(path);
    REQUIRE_FALSE(premature.ok());
    CHECK(premature.error().code == ErrorCode::InvalidArgument);
    // the search survives the refused finish
    for (;;) {
      auto more = query.update_path(3);
      REQUIRE(more.ok());
      if (more->done) break;
    }
    REQUIRE(query.finish_path(path).ok());
    CHECK(path.status == plan::PathStatus::Found);
    // finished: a second finish, or an update, needs a new begin
    CHECK_FALSE(query.finish_path(path).ok());
    CHECK_FALSE(query.update_path(1).ok());
    // an invalid begin leaves no search behind
    CHECK_FALSE(query.begin_path({std::numeric_limits<float>::quiet_NaN(), 0.0F, 0.0F}, b).ok());
    CHECK_FALSE(query.update_path(1).ok());
  }

  TEST_CASE("a new begin abandons the search in progress") {
    const JumpGrid grid = make_jump_grid();
    auto planner = plan::Planner::create(grid.nav, &grid.links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const Vec3 a{0.5F, 0.0F, 0.5F};
    const Vec3 b{15.5F, 0.0F, 0.5F};
    const Vec3 c{2.5F, 0.0F, 10.5F};
    const Vec3 d{14.5F, 0.0F, 11.5F};
    auto expected = query.find_path(c, d);
    REQUIRE(expected.ok());
    REQUIRE(expected->status == plan::PathStatus::Found);
    REQUIRE(query.begin_path(a, b).ok());
    auto step = query.update_path(2);
    REQUIRE(step.ok());
    REQUIRE_FALSE(step->done);
    REQUIRE(query.begin_path(c, d).ok());
    for (;;) {
      auto more = query.update_path(2);
      REQUIRE(more.ok());
      if (more->done) break;
    }
    plan::Path path;
    REQUIRE(query.finish_path(path).ok());
    check_same_path(path, *expected, "after an abandoned search");
    // and a one-shot query abandons a sliced one too
    REQUIRE(query.begin_path(a, b).ok());
    REQUIRE(query.update_path(1).ok());
    auto again = query.find_path(c, d);
    REQUIRE(again.ok());
    check_same_path(*again, *expected, "one-shot after an abandoned search");
    CHECK_FALSE(query.update_path(1).ok());
  }
}
