// Island labels answer queries between islands before any search: the planner's labels against a
// breadth-first flood fill over the mesh's polygon neighbours on a tiled city (many islands:
// roofs, courtyards), and pairs on different islands give NoPath with no node expanded.

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "leapnav/planning/graph.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "support/tiled_scene.hpp"

using namespace leapnav;

namespace {

// Component per polygon by breadth-first search over poly_neighbors, numbered in visit order.
std::vector<std::uint32_t> flood_fill(const mesh::NavMesh& nav) {
  constexpr std::uint32_t kUnset = 0xFFFFFFFFU;
  std::vector<std::uint32_t> component(nav.polygon_count(), kUnset);
  std::uint32_t next = 0;
  for (std::uint32_t seed = 0; seed < nav.polygon_count(); ++seed) {
    if (component[seed] != kUnset) continue;
    std::queue<std::uint32_t> open;
    open.push(seed);
    component[seed] = next;
    while (!open.empty()) {
      const std::uint32_t p = open.front();
      open.pop();
      for (std::uint32_t s = nav.poly_first[p]; s < nav.poly_first[p + 1]; ++s) {
        const std::uint32_t q = nav.poly_neighbors[s];
        if (q == mesh::kNoPoly || component[q] != kUnset) continue;
        component[q] = next;
        open.push(q);
      }
    }
    ++next;
  }
  return component;
}

}  // namespace

TEST_SUITE("planning.islands") {
  TEST_CASE(
      "island labels on a tiled city equal a flood fill, and pairs across islands are "
      "answered without a search") {
    const mesh::NavMesh nav = test::tiled_builtin_navmesh("city:3", 48);
    auto planner = plan::Planner::create(nav);
    REQUIRE(planner.ok());
    const std::vector<std::uint32_t> fill = flood_fill(nav);
    // the labels are the same partition: a one-to-one map between the two numberings
    std::map<std::uint32_t, std::uint32_t> to_fill;
    std::map<std::uint32_t, std::uint32_t> to_label;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      const std::uint32_t label = planner->island(mesh::PolyId{p});
      const auto [a, new_a] = to_fill.emplace(label, fill[p]);
      const auto [b, new_b] = to_label.emplace(fill[p], label);
      CHECK(a->second == fill[p]);
      CHECK(b->second == label);
    }
    CHECK(to_fill.size() > 10);  // roofs and courtyards are islands of their own

    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.walk_search = plan::WalkSearch::Portals;
    const auto points = plan::random_points(nav, 400, 17);
    int across = 0;
    int within = 0;
    for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
      plan::Path path;
      REQUIRE(query.find_path(points[i].point, points[i + 1].point, options, path).ok());
      if (fill[mesh::index(points[i].poly)] != fill[mesh::index(points[i + 1].poly)]) {
        ++across;
        CHECK(path.status == plan::PathStatus::NoPath);
        CHECK(path.nodes_expanded == 0);
      } else {
        ++within;
        CHECK(path.status == plan::PathStatus::Found);
      }
    }
    CHECK(across > 20);
    CHECK(within > 20);
  }

  TEST_CASE(
      "strong components: same id exactly when mutually reachable, and a component's id is "
      "above every component it reaches") {
    // a graph of arcs alone (strong_components reads only arc_first and arc_target)
    const auto make = [](std::size_t n,
                         const std::vector<std::pair<std::uint32_t, std::uint32_t>>& arcs) {
      plan::NavGraph g;
      g.arc_first.assign(n + 1, 0);
      for (const auto& [a, b] : arcs) ++g.arc_first[a + 1];
      for (std::size_t v = 0; v < n; ++v) g.arc_first[v + 1] += g.arc_first[v];
      g.arc_target.resize(arcs.size());
      std::vector<std::uint32_t> fill(g.arc_first.begin(), g.arc_first.end() - 1);
      for (const auto& [a, b] : arcs) g.arc_target[fill[a]++] = b;
      return g;
    };
    // closed form: {2, 3} completes first, then {0, 1}, then {4}
    std::vector<std::uint32_t> component;
    const plan::NavGraph small = make(5, {{0, 1}, {1, 0}, {1, 2}, {2, 3}, {3, 2}, {4, 0}});
    CHECK(plan::strong_components(small, component) == 3);
    CHECK(component == std::vector<std::uint32_t>{1, 1, 0, 0, 2});

    // random sparse graphs against reachability by breadth-first search
    std::mt19937 rng(7);
    for (int round = 0; round < 20; ++round) {
      constexpr std::uint32_t n = 40;
      std::uniform_int_distribution<std::uint32_t> vertex(0, n - 1);
      std::vector<std::pair<std::uint32_t, std::uint32_t>> arcs;
      for (int k = 0; k < 55; ++k) arcs.emplace_back(vertex(rng), vertex(rng));
      const plan::NavGraph g = make(n, arcs);
      const std::uint32_t count = plan::strong_components(g, component);
      std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
      for (std::uint32_t s = 0; s < n; ++s) {
        std::queue<std::uint32_t> open;
        open.push(s);
        reach[s][s] = 1;
        while (!open.empty()) {
          const std::uint32_t v = open.front();
          open.pop();
          for (std::uint32_t a = g.out_begin(v); a < g.out_end(v); ++a) {
            if (reach[s][g.arc_target[a]] == 0) {
              reach[s][g.arc_target[a]] = 1;
              open.push(g.arc_target[a]);
            }
          }
        }
      }
      for (std::uint32_t a = 0; a < n; ++a) {
        REQUIRE(component[a] < count);
        for (std::uint32_t b = 0; b < n; ++b) {
          const bool both = reach[a][b] != 0 && reach[b][a] != 0;
          CHECK((component[a] == component[b]) == both);
          if (reach[a][b] != 0 && !both) CHECK(component[a] > component[b]);
        }
      }
    }
  }
}
