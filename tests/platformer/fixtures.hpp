// The spec's platformer fixtures P1-P6 (seeds-002-004.md §B.3) and helpers shared by the
// platformer tests. The default PlatformerParams are the fixtures' parameters.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "leapnav/platformer/nav_graph.hpp"
#include "leapnav/platformer/tile_map.hpp"

namespace leapnav::platformer::test {

inline const char* const kP1 = "platformer 6 3\n######\n#....#\n######\n";
inline const char* const kP2 = "platformer 5 4\n#####\n#...#\n#.#.#\n#####\n";
inline const char* const kP3 =
    "platformer 7 6\n#.....#\n#.....#\n#.....#\n#...###\n#...###\n#######\n";
inline const char* const kP4 =
    "platformer 7 8\n#.....#\n#.....#\n#.....#\n#...###\n#...###\n#...###\n#...###\n#######\n";
inline const char* const kP5 = "platformer 7 5\n#######\n#.....#\n#...###\n#...###\n#######\n";
inline const char* const kP6 =
    "platformer 12 4\n#..........#\n#..........#\n#..........#\n####....####\n";

/// Parses a fixture (REQUIREs success).
inline TileMap fixture_map(const char* text, const char* name = "fixture") {
  auto map = parse_tile_map(text, name);
  REQUIRE_MESSAGE(map.ok(), (map.ok() ? std::string() : map.error().message));
  return std::move(map).value();
}

/// Builds the graph of a map and REQUIREs it to pass validate().
inline NavGraph build_checked(const TileMap& map, const PlatformerParams& params = {}) {
  BuildContext ctx;
  ctx.set_threads(1);
  auto graph = build_nav_graph(map, params, ctx);
  REQUIRE_MESSAGE(graph.ok(), (graph.ok() ? std::string() : graph.error().message));
  const Status valid = validate(*graph, map, params);
  REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? std::string() : valid.error().message));
  return std::move(graph).value();
}

/// A link in a form that compares and prints well: "jump (1,1)->(2,2) h=1.1 s=2.1 d=1".
struct LinkView {
  LinkKind kind;
  Tile from, to;
  double h = 0, speed = 0;
  int direction = 0;
};

inline std::vector<LinkView> links_of(const NavGraph& graph, LinkKind kind) {
  std::vector<LinkView> out;
  for (const NavLink& l : graph.links) {
    if (l.kind != kind) continue;
    out.push_back({l.kind, graph.point(l.from).tile, graph.point(l.to).tile, l.jump.height,
                   l.jump.speed, l.jump.direction});
  }
  return out;
}

inline std::string describe(const std::vector<LinkView>& links) {
  std::string out;
  for (const LinkView& l : links) {
    out += std::string(to_string(l.kind)) + " (" + std::to_string(l.from.c) + "," +
           std::to_string(l.from.r) + ")->(" + std::to_string(l.to.c) + "," +
           std::to_string(l.to.r) + ")";
    if (l.kind == LinkKind::Jump) {
      out += " h=" + std::to_string(l.h) + " s=" + std::to_string(l.speed) +
             " d=" + std::to_string(l.direction);
    }
    out += "\n";
  }
  return out;
}

}  // namespace leapnav::platformer::test
