// Paths with jumps on the real levels (../shared/meshes, skipped when absent): thesis navmesh, C2
// links at step 4, seeded random queries. Every path passes the jump path checker, jumps off
// equals the walk-only planner, a minimum number of queries jump, and a bounded sample of the
// jumps' fitted arcs passes the exact soundness check against the level's triangles.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/jump_checks.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;

namespace {

struct JumpLevel {
  TriangleMesh triangles;
  BuildConfig config;
  mesh::NavMesh nav;
  jump::JumpLinkSet links;
};

std::optional<JumpLevel> build_jump_level(const char* file) {
  const auto path = test::shared_mesh(file);
  if (!path) return std::nullopt;
  JumpLevel level;
  auto triangles = io::load_obj(path->string());
  REQUIRE(triangles.ok());
  level.triangles = std::move(triangles).value();
  auto config = named_config("thesis");
  REQUIRE(config.ok());
  level.config = *config;
  BuildContext ctx;
  auto built = mesh::build_navmesh(level.triangles, level.config, ctx);
  REQUIRE(built.ok());
  jump::JumpLinkOptions options;
  options.jumps = {jump::kJumpC2};
  options.step = 4;
  auto links = jump::build_jump_links(built->voxels.solid, built->voxels.compact, built->navmesh,
                                      level.config.agent, options, ctx);
  REQUIRE(links.ok());
  level.nav = std::move(built->navmesh);
  level.links = std::move(links).value();
  REQUIRE(jump::validate(level.links, level.nav).ok());
  return level;
}

void check_jump_level(const char* file, std::uint64_t seed, int min_jump_paths) {
  const auto level = build_jump_level(file);
  if (!level) return;
  auto with_links = plan::Planner::create(level->nav, &level->links);
  auto walk_only = plan::Planner::create(level->nav);
  REQUIRE(with_links.ok());
  REQUIRE(walk_only.ok());
  REQUIRE(plan::validate(with_links->graph(), level->nav, &level->links).ok());
  plan::NavQuery jq(*with_links);
  plan::NavQuery wq(*walk_only);
  const auto points = plan::random_points(level->nav, 400, seed);
  int found = 0;
  int walk_found = 0;
  int jump_paths = 0;
  int jumps = 0;
  int checked = 0;
  std::uint64_t unsound = 0;
  plan::QueryOptions off;
  off.jumps = false;
  // note: the walking search costs compared with jump paths' are the portal A*'s
  off.walk_search = plan::WalkSearch::Portals;
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    const Vec3 a = points[i].point;
    const Vec3 b = points[i + 1].point;
    plan::Path path;
    plan::Path walked;
    plan::Path no_jumps;
    REQUIRE(jq.find_path(a, b, {}, path).ok());
    REQUIRE(wq.find_path(a, b, off, walked).ok());
    REQUIRE(jq.find_path(a, b, off, no_jumps).ok());
    CAPTURE(i);
    CHECK(no_jumps.points == walked.points);
    CHECK(no_jumps.status == walked.status);
    const std::string problem = test::jump_path_problem(level->nav, &level->links, path, 2e-3F);
    CHECK_MESSAGE(problem.empty(), problem);
    if (walked.status == plan::PathStatus::Found) ++walk_found;
    if (path.status != plan::PathStatus::Found) continue;
    ++found;
    if (walked.status == plan::PathStatus::Found) {
      // a jump path never costs more than walking (A* found the cheaper one)
      CHECK(path.search_cost <= walked.search_cost + 1e-3);
    }
    if (path.jump_count == 0) continue;
    ++jump_paths;
    jumps += static_cast<int>(path.jump_count);
    if (checked < 20) {
      ++checked;
      unsound += test::unsound_jumps(level->nav, level->links, path, level->triangles,
                                     level->config.agent);
    }
  }
  MESSAGE(std::string(file) << ": " << level->links.links.size() << " C2 links, " << found
                            << " found of " << points.size() / 2 << " (walking " << walk_found
                            << "), " << jump_paths << " with jumps (" << jumps
                            << " jumps), soundness-checked " << checked << " paths, unsound jumps "
                            << unsound);
  CHECK(found >= walk_found);
  CHECK(jump_paths >= min_jump_paths);
  CHECK(unsound == 0);
}

}  // namespace

TEST_SUITE("planning.jump_levels") {
  TEST_CASE("dungeon: paths with C2 jumps are valid and sound") {
    // measured: 2 of 200 queries jump (dungeon has few gaps worth 4 m)
    check_jump_level("dungeon.obj", 5, 1);
  }
  TEST_CASE("nav_test: paths with C2 jumps are valid and sound") {
    // measured: 145 of 200 queries jump
    check_jump_level("nav_test.obj", 6, 60);
  }
}
