// Paths with jumps on a closed-form scene: a U of floor boxes (two 4 m wide arms joined at the
// far end by a bridge) with a 2 m pit between the arms' near ends. Links over the pit (C2) make
// the 6 m jump path beat the ~40 m walk; a C1 link group joins the arms half way. Checks the
// global choice, the exact points of the chosen jump, jump cost and configuration options,
// equality with the walk-only planner when jumps are off, the batch API, and every jump path's
// validity and soundness.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "leapnav/io/scene_builder.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/planning/graph.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/jump_checks.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;

namespace {

struct UScene {
  mesh::NavMesh nav;
  TriangleMesh triangles;
  jump::JumpLinkSet links;
  AgentConfig agent{1.8F, 0.25F, 0.5F, 45.0F};
};

/// Polygons: 0 near-left [0,4]x[0,4], 1 left arm [0,4]x[4,20], 2 [0,4]x[20,22], 3 bridge
/// [4,6]x[20,22], 4 [6,10]x[20,22], 5 right arm [6,10]x[4,20], 6 near-right [6,10]x[0,4]; all at
/// y = 0 on boxes 1 m deep. Links: C2 (config 0) from 0 to 6 and back, starts 0.25 m from the pit
/// at z = 1, 2, 3, land segments 0.25 m beyond it for z in [0.5, 3.5]; C1 (config 1) from 1 to 5
/// at z = 12 landing on z in [11, 13].
UScene make_u_scene() {
  UScene scene;
  const float xs[4] = {0.0F, 4.0F, 6.0F, 10.0F};
  const float zs[4] = {0.0F, 4.0F, 20.0F, 22.0F};
  std::vector<Vec3> vertices;
  for (const float z : zs) {
    for (const float x : xs) vertices.push_back({x, 0.0F, z});
  }
  const auto v = [](int i, int j) { return static_cast<std::uint32_t>(i + 4 * j); };
  const auto quad = [&](int i0, int j0, int i1, int j1) {
    return std::vector<std::uint32_t>{v(i0, j0), v(i1, j0), v(i1, j1), v(i0, j1)};
  };
  scene.nav = test::make_navmesh(
      vertices, {quad(0, 0, 1, 1), quad(0, 1, 1, 2), quad(0, 2, 1, 3), quad(1, 2, 2, 3),
                 quad(2, 2, 3, 3), quad(2, 1, 3, 2), quad(2, 0, 3, 1)});
  io::SceneBuilder builder("u-scene");
  builder.add_box({0.0F, -1.0F, 0.0F}, {4.0F, 0.0F, 22.0F});
  builder.add_box({4.0F, -1.0F, 20.0F}, {6.0F, 0.0F, 22.0F});
  builder.add_box({6.0F, -1.0F, 0.0F}, {10.0F, 0.0F, 22.0F});
  scene.triangles = builder.take();
  scene.links.configs = {jump::kJumpC2, jump::kJumpC1};
  for (const float z : {1.0F, 2.0F, 3.0F}) {
    scene.links.links.push_back(
        {{3.75F, 0.0F, z}, {6.25F, 0.0F, 0.5F}, {6.25F, 0.0F, 3.5F}, 0, 0, 6});
    scene.links.links.push_back(
        {{6.25F, 0.0F, z}, {3.75F, 0.0F, 3.5F}, {3.75F, 0.0F, 0.5F}, 0, 6, 0});
  }
  scene.links.links.push_back(
      {{3.75F, 0.0F, 12.0F}, {6.25F, 0.0F, 11.0F}, {6.25F, 0.0F, 13.0F}, 1, 1, 5});
  jump::index_links(scene.links, scene.nav.polygon_count());
  return scene;
}

plan::Path must_find(plan::NavQuery& query, Vec3 a, Vec3 b, const plan::QueryOptions& options) {
  plan::Path path;
  REQUIRE(query.find_path(a, b, options, path).ok());
  return path;
}

bool same_path(const plan::Path& a, const plan::Path& b) {
  if (a.status != b.status || a.points.size() != b.points.size() || a.corridor != b.corridor ||
      a.segments.size() != b.segments.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    if (!(a.points[i] == b.points[i])) return false;
  }
  return a.length == b.length;
}

}  // namespace

TEST_SUITE("planning.jumps") {
  TEST_CASE("the navigation graph gets one jump arc per link group") {
    const UScene scene = make_u_scene();
    REQUIRE(mesh::validate(scene.nav).ok());
    REQUIRE(jump::validate(scene.links, scene.nav).ok());
    const plan::NavGraph graph = plan::build_graph(scene.nav, &scene.links);
    CHECK(plan::validate(graph, scene.nav, &scene.links).ok());
    CHECK_FALSE(plan::validate(graph, scene.nav).ok());  // jump arcs need the link set
    int jumps = 0;
    for (std::size_t a = 0; a < graph.arc_count(); ++a) {
      if (graph.arc_kind[a] == plan::EdgeKind::Jump) ++jumps;
    }
    CHECK(jumps == 3);  // 0 -> 6, 1 -> 5, 6 -> 0
    CHECK(graph.arc_count() == 12 + 3);
  }

  TEST_CASE("a gap that saves a long walk is jumped, at the exact best link") {
    const UScene scene = make_u_scene();
    auto planner = plan::Planner::create(scene.nav, &scene.links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const plan::Path path = must_find(query, {2.0F, 0.0F, 2.0F}, {8.0F, 0.0F, 2.0F}, {});
    REQUIRE(path.status == plan::PathStatus::Found);
    CHECK(test::jump_path_problem(scene.nav, &scene.links, path) == "");
    REQUIRE(path.jump_count == 1);
    REQUIRE(path.points.size() == 4);
    CHECK(path.points[1] == Vec3{3.75F, 0.0F, 2.0F});
    CHECK(std::fabs(path.points[2].x - 6.25F) <= 1e-5F);
    CHECK(std::fabs(path.points[2].z - 2.0F) <= 1e-5F);
    CHECK(path.length == doctest::Approx(6.0).epsilon(1e-6));
    const plan::PathSegment& hop = path.segments[1];
    CHECK(scene.links.links[hop.link].start == Vec3{3.75F, 0.0F, 2.0F});
    CHECK(hop.jump_height == jump::kJumpC2.height);
    CHECK(hop.jump_distance == doctest::Approx(2.5).epsilon(1e-5));  // level jump: d' = L
    // A* cost: 1.75 to the takeoff, 2.5 across, the 4 m jump cost, 1.75 to the goal
    CHECK(path.search_cost == doctest::Approx(10.0).epsilon(1e-5));
    CHECK(query.last_search_cost() == doctest::Approx(10.0).epsilon(1e-5));
    CHECK(test::unsound_jumps(scene.nav, scene.links, path, scene.triangles, scene.agent) == 0);
    // and back again over the reverse links
    const plan::Path back = must_find(query, {8.0F, 0.0F, 3.0F}, {2.0F, 0.0F, 3.0F}, {});
    CHECK(test::jump_path_problem(scene.nav, &scene.links, back) == "");
    CHECK(back.jump_count == 1);
    CHECK(back.length == doctest::Approx(6.0).epsilon(1e-6));
  }

  TEST_CASE("with a huge jump cost or jumps off, the gap is walked around like walk-only") {
    const UScene scene = make_u_scene();
    auto with_links = plan::Planner::create(scene.nav, &scene.links);
    auto walk_only = plan::Planner::create(scene.nav);
    REQUIRE(with_links.ok());
    REQUIRE(walk_only.ok());
    plan::NavQuery jq(*with_links);
    plan::NavQuery wq(*walk_only);
    const Vec3 a{2.0F, 0.0F, 2.0F};
    const Vec3 b{8.0F, 0.0F, 2.0F};
    const plan::Path walked = must_find(wq, a, b, {});
    CHECK(walked.length > 36.0);
    plan::QueryOptions costly;
    costly.jump_cost = 1000.0F;
    const plan::Path around = must_find(jq, a, b, costly);
    CHECK(around.jump_count == 0);
    CHECK(test::jump_path_problem(scene.nav, &scene.links, around) == "");
    CHECK(same_path(around, walked));
    plan::QueryOptions off;
    off.jumps = false;
    CHECK(same_path(must_find(jq, a, b, off), walked));
    plan::QueryOptions none;
    none.jump_configs = 0;
    CHECK(same_path(must_find(jq, a, b, none), walked));
  }

  TEST_CASE("jumps off gives exactly the walk-only planner's paths, single and batched") {
    const UScene scene = make_u_scene();
    auto with_links = plan::Planner::create(scene.nav, &scene.links);
    auto walk_only = plan::Planner::create(scene.nav);
    REQUIRE(with_links.ok());
    REQUIRE(walk_only.ok());
    const auto points = plan::random_points(scene.nav, 200, 17);
    std::vector<plan::PathRequest> requests;
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      requests.push_back({points[i].point, points[i + 1].point});
    }
    plan::QueryOptions off;
    off.jumps = false;
    const auto expected = plan::find_paths(*walk_only, requests, {}, 1);
    const auto got = plan::find_paths(*with_links, requests, off, 2);
    const auto jumping = plan::find_paths(*with_links, requests, {}, 2);
    plan::NavQuery query(*with_links);
    int jump_paths = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      REQUIRE(expected[i].ok());
      REQUIRE(got[i].ok());
      REQUIRE(jumping[i].ok());
      CAPTURE(i);
      CHECK(same_path(*got[i], *expected[i]));
      CHECK(test::jump_path_problem(scene.nav, &scene.links, *jumping[i]) == "");
      CHECK(same_path(*jumping[i], must_find(query, requests[i].start, requests[i].goal, {})));
      CHECK(jumping[i]->length <= expected[i]->length + 4.0 * jumping[i]->jump_count + 1e-3);
      if (jumping[i]->jump_count > 0) {
        ++jump_paths;
        CHECK(test::unsound_jumps(scene.nav, scene.links, *jumping[i], scene.triangles,
                                  scene.agent) == 0);
      }
    }
    CHECK(jump_paths >= 10);
  }

  TEST_CASE("a group whose configurations are not allowed is not traversable") {
    const UScene scene = make_u_scene();
    auto planner = plan::Planner::create(scene.nav, &scene.links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const Vec3 a{2.0F, 0.0F, 12.0F};
    const Vec3 b{8.0F, 0.0F, 12.0F};
    const plan::Path both = must_find(query, a, b, {});
    CHECK(test::jump_path_problem(scene.nav, &scene.links, both) == "");
    REQUIRE(both.jump_count == 1);
    CHECK(scene.links.links[both.segments[1].link].config == 1);
    CHECK(both.segments[1].jump_height == jump::kJumpC1.height);
    plan::QueryOptions c2_only;
    c2_only.jump_configs = 1;  // configuration 0 (C2) only
    const plan::Path path = must_find(query, a, b, c2_only);
    CHECK(test::jump_path_problem(scene.nav, &scene.links, path) == "");
    for (const plan::PathSegment& seg : path.segments) {
      if (seg.kind == plan::SegmentKind::Jump) CHECK(scene.links.links[seg.link].config == 0);
    }
    CHECK(path.length > both.length + 4.0);
  }

  TEST_CASE("jump arcs are directed: a one-way jump joins islands in one direction only") {
    // only the two near quads, no walk connection; links from 0 to 1 only
    const auto nav = test::make_navmesh({{0.0F, 0.0F, 0.0F},
                                         {4.0F, 0.0F, 0.0F},
                                         {4.0F, 0.0F, 4.0F},
                                         {0.0F, 0.0F, 4.0F},
                                         {6.0F, 0.0F, 0.0F},
                                         {10.0F, 0.0F, 0.0F},
                                         {10.0F, 0.0F, 4.0F},
                                         {6.0F, 0.0F, 4.0F}},
                                        {{0, 1, 2, 3}, {4, 5, 6, 7}});
    jump::JumpLinkSet links;
    links.configs = {jump::kJumpC2};
    links.links.push_back({{3.75F, 0.0F, 2.0F}, {6.25F, 0.0F, 1.0F}, {6.25F, 0.0F, 3.0F}, 0, 0, 1});
    jump::index_links(links, nav.polygon_count());
    auto planner = plan::Planner::create(nav, &links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const plan::Path there = must_find(query, {1.0F, 0.0F, 1.0F}, {9.0F, 0.0F, 3.0F}, {});
    CHECK(there.status == plan::PathStatus::Found);
    CHECK(there.jump_count == 1);
    CHECK(test::jump_path_problem(nav, &links, there) == "");
    const plan::Path back = must_find(query, {9.0F, 0.0F, 3.0F}, {1.0F, 0.0F, 1.0F}, {});
    CHECK(back.status == plan::PathStatus::NoPath);
    CHECK(back.nodes_expanded == 0);  // rejected by reachability before A*
    plan::QueryOptions off;
    off.jumps = false;
    CHECK(must_find(query, {1.0F, 0.0F, 1.0F}, {9.0F, 0.0F, 3.0F}, off).status ==
          plan::PathStatus::NoPath);
  }

  TEST_CASE("bad jump options and link sets are errors") {
    const UScene scene = make_u_scene();
    auto planner = plan::Planner::create(scene.nav, &scene.links);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions negative;
    negative.jump_cost = -1.0F;
    CHECK_FALSE(query.find_path({2.0F, 0.0F, 2.0F}, {8.0F, 0.0F, 2.0F}, negative).ok());
    plan::QueryOptions nan;
    nan.jump_cost = std::nanf("");
    CHECK_FALSE(query.find_path({2.0F, 0.0F, 2.0F}, {8.0F, 0.0F, 2.0F}, nan).ok());
    jump::JumpLinkSet broken = scene.links;
    broken.links[0].land_poly = 99;
    CHECK_FALSE(plan::Planner::create(scene.nav, &broken).ok());
  }
}
