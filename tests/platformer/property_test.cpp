// Seeded property tests of the invariants of spec §B.3 over random maps and parameters, against
// the independent generator in oracle.hpp: the same jump links; every stored jump re-simulated
// reaches its destination while falling without a sample in a solid tile before; at most one jump
// per (start, destination platform); falls land on the first walkable tile below; types follow
// the run-length rule; A* costs equal Dijkstra's and the heuristic never overestimates.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>

#include "fixtures.hpp"
#include "leapnav/platformer/planner.hpp"
#include "oracle.hpp"

using namespace leapnav;
using namespace leapnav::platformer;
using namespace leapnav::platformer::test;

namespace {

TileMap random_map(std::mt19937& rng, int max_w, int max_h) {
  std::uniform_int_distribution<int> w(3, max_w);
  std::uniform_int_distribution<int> h(3, max_h);
  TileMap map = make_tile_map(w(rng), h(rng));
  map.name = "random";
  const int density = std::uniform_int_distribution<int>(15, 45)(rng);
  std::uniform_int_distribution<int> percent(0, 99);
  for (auto& s : map.solid) s = percent(rng) < density ? 1 : 0;
  return map;
}

PlatformerParams random_params(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  PlatformerParams p;
  p.a = 20.0 * u(rng);
  p.v_max = 1.0 + 9.0 * u(rng);
  p.v_b = 4.0 * u(rng);
  p.h_max = 0.5 + 4.0 * u(rng);
  p.g = 5.0 + 40.0 * u(rng);
  p.h_div = std::uniform_int_distribution<int>(1, 4)(rng);
  p.s_div = std::uniform_int_distribution<int>(1, 4)(rng);
  p.dt = 0.01 + 0.05 * u(rng);
  p.T = 0.5 + 1.5 * u(rng);
  p.distance_max = 0.2 + 0.8 * u(rng);
  p.collider_w = std::uniform_int_distribution<int>(1, 2)(rng);
  p.collider_h = std::uniform_int_distribution<int>(1, 2)(rng);
  return p;
}

std::vector<OracleJump> jumps_as_oracle(const NavGraph& graph, const PlatformerParams& p) {
  std::vector<OracleJump> out;
  for (const NavLink& l : graph.links) {
    if (l.kind != LinkKind::Jump) continue;
    const Tile a = graph.point(l.from).tile;
    const Tile b = graph.point(l.to).tile;
    out.push_back(
        {a.c, a.r, b.c, b.r, static_cast<int>(std::lround(l.jump.height * p.h_div / p.h_max)),
         static_cast<int>(std::lround(l.jump.speed * p.s_div / p.v_max)), l.jump.direction});
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Re-simulates every jump with the oracle's closed form and checks B.3's flight invariants.
void check_flights(const NavGraph& graph, const TileMap& map, const PlatformerParams& p,
                   const Oracle& oracle) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const NavLink& l : graph.links) {
    if (l.kind != LinkKind::Jump) continue;
    const Tile a = graph.point(l.from).tile;
    const Tile b = graph.point(l.to).tile;
    const int i = static_cast<int>(std::lround(l.jump.height * p.h_div / p.h_max));
    const int j = static_cast<int>(std::lround(l.jump.speed * p.s_div / p.v_max));
    double previous = a.r;
    for (int k = 1; k <= l.jump.landing_sample; ++k) {
      const auto [x, y] = oracle.at(a.c, a.r, i, j, l.jump.direction, k * p.dt);
      const int qc = static_cast<int>(std::floor(x));
      const int qr = static_cast<int>(std::floor(y));
      if (k < l.jump.landing_sample) {
        if (!(qc == a.c && qr == a.r)) REQUIRE_FALSE(map.is_solid(qc, qr));
      } else {
        CHECK(Tile{qc, qr} == b);
        CHECK(y < previous);
        CHECK(y - qr <= p.distance_max);
      }
      previous = y;
    }
    CHECK(graph.point(l.to).platform != graph.point(l.from).platform);
    CHECK(pairs
              .insert({static_cast<std::uint32_t>(l.from),
                       static_cast<std::uint32_t>(graph.point(l.to).platform)})
              .second);
  }
}

void check_points_and_falls(const NavGraph& graph, const TileMap& map, const Oracle& oracle) {
  for (int r = 0; r < map.height; ++r) {
    for (int c = 0; c < map.width; ++c) {
      const NavPointId id = graph.point_of({c, r});
      REQUIRE((id != kNoNavPoint) == oracle.walkable(c, r));
      if (id == kNoNavPoint) continue;
      const bool left = oracle.walkable(c - 1, r);
      const bool right = oracle.walkable(c + 1, r);
      const NavPointType type = graph.point(id).type;
      CHECK(type == (!left && !right ? NavPointType::Solo
                     : !left         ? NavPointType::LeftEdge
                     : !right        ? NavPointType::RightEdge
                                     : NavPointType::Platform));
      CHECK(static_cast<int>(graph.point(id).platform) == oracle.platform(c, r));
    }
  }
  // falls: recompute the expected set from the rule
  std::set<std::pair<std::pair<int, int>, std::pair<int, int>>> expected;
  for (const NavPoint& p : graph.points) {
    const auto [c, r] = p.tile;
    for (const int dc : {-1, 1}) {
      if (oracle.walkable(c + dc, r) || oracle.solid(c + dc, r)) continue;
      for (int row = r - 1; row >= 0 && !oracle.solid(c + dc, row); --row) {
        if (oracle.walkable(c + dc, row)) {
          expected.insert({{c, r}, {c + dc, row}});
          break;
        }
      }
    }
  }
  std::set<std::pair<std::pair<int, int>, std::pair<int, int>>> actual;
  for (const LinkView& l : links_of(graph, LinkKind::Fall)) {
    actual.insert({{l.from.c, l.from.r}, {l.to.c, l.to.r}});
  }
  CHECK(actual == expected);
}

}  // namespace

TEST_SUITE("platformer.properties") {
  TEST_CASE("on 300 random maps with the fixture parameters the links equal the oracle's") {
    std::mt19937 rng(2028);
    const PlatformerParams params;
    for (int n = 0; n < 300; ++n) {
      const TileMap map = random_map(rng, 20, 10);
      CAPTURE(to_text(map));
      const NavGraph graph = build_checked(map, params);
      const Oracle oracle(map, params);
      check_points_and_falls(graph, map, oracle);
      CHECK(jumps_as_oracle(graph, params) == oracle.jumps(true));
      check_flights(graph, map, params, oracle);
    }
  }

  TEST_CASE("on 300 random maps with random parameters the B.3 invariants hold") {
    std::mt19937 rng(3003);
    for (int n = 0; n < 300; ++n) {
      const TileMap map = random_map(rng, 16, 10);
      const PlatformerParams params = random_params(rng);
      CAPTURE(to_text(map));
      CAPTURE(to_json_text(params));
      const NavGraph graph = build_checked(map, params);
      const Oracle oracle(map, params);
      check_points_and_falls(graph, map, oracle);
      CHECK(jumps_as_oracle(graph, params) == oracle.jumps(true));
      check_flights(graph, map, params, oracle);
    }
  }

  TEST_CASE("A* costs equal Dijkstra's and the heuristic never overestimates, on random maps") {
    std::mt19937 rng(4004);
    int found = 0;
    for (int n = 0; n < 60; ++n) {
      const TileMap map = random_map(rng, 18, 10);
      const PlatformerParams params = n % 2 == 0 ? PlatformerParams{} : random_params(rng);
      const NavGraph graph = build_checked(map, params);
      if (graph.points.empty()) continue;
      const double rate = heuristic_rate(graph);
      std::vector<std::vector<double>> all;
      for (std::size_t s = 0; s < graph.points.size(); ++s) {
        all.push_back(dijkstra_costs(graph, NavPointId{static_cast<std::uint32_t>(s)}));
      }
      for (std::size_t s = 0; s < graph.points.size(); ++s) {
        for (std::size_t t = 0; t < graph.points.size(); ++t) {
          const Tile a = graph.points[s].tile;
          const Tile b = graph.points[t].tile;
          const double exact = all[s][t];
          // admissible: h(s) <= the true cost to the goal t
          if (std::isfinite(exact)) CHECK(rate * std::abs(a.c - b.c) <= exact + 1e-12);
          auto path = find_path(graph, a, b);
          REQUIRE(path.ok());
          if (!std::isfinite(exact)) {
            CHECK(path->status == PathStatus::NoPath);
            continue;
          }
          REQUIRE(path->status == PathStatus::Found);
          ++found;
          CHECK(path->cost == doctest::Approx(exact).epsilon(1e-12));
          double sum = 0;
          Tile at = a;
          for (const PathStep& step : path->steps) {
            CHECK(step.from == at);
            CHECK(graph.links[step.link].cost == step.cost);
            sum += step.cost;
            at = step.to;
          }
          CHECK(at == b);
          CHECK(sum == doctest::Approx(path->cost).epsilon(1e-12));
        }
      }
    }
    CHECK(found > 1000);
  }

  TEST_CASE("the graph is identical for 1, 2 and 4 threads") {
    std::mt19937 rng(5005);
    for (int n = 0; n < 3; ++n) {
      const TileMap map = random_map(rng, 300, 60);
      const PlatformerParams params;
      std::uint64_t reference = 0;
      for (const int threads : {1, 2, 4}) {
        BuildContext ctx;
        ctx.set_threads(threads);
        auto graph = build_nav_graph(map, params, ctx);
        REQUIRE(graph.ok());
        if (threads == 1) reference = content_hash(*graph);
        CHECK(content_hash(*graph) == reference);
      }
    }
  }
}
