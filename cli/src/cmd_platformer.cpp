// `leapnav platformer`: the side-view platformer nav graph of a tile map (spec part B): nav
// points, run / fall / jump links, a path between two tiles, an SVG picture, or the map extruded
// to a 3-D level for `leapnav build --jump`. JSON shapes:
//   graph: {"nav_points": [{"tile": [c, r], "platform": i, "type": "..."}], "platforms": n,
//           "links": [{"kind", "from": [c, r], "to": [c, r], "time",
//                      "h", "speed", "direction" (jumps only)}]}
//   path (with --from/--to): {"status", "cost", "steps": [{"kind", "from", "to", "time", ...}]}
#include <charconv>
#include <iomanip>
#include <iostream>

#include "common.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/platformer/heightfield_slice.hpp"
#include "leapnav/platformer/nav_graph.hpp"
#include "leapnav/platformer/planner.hpp"
#include "leapnav/platformer/svg.hpp"

namespace leapnav::cli {
namespace {

using platformer::LinkKind;
using platformer::NavGraph;
using platformer::NavLink;
using platformer::Tile;

struct PlatformerOptions {
  std::string map;
  std::string params;
  bool json = false;
  std::string from;
  std::string to;
  std::string svg;
  bool png = false;
  std::string obj;
  double tile_size = 1.0;
  double depth = 3.0;
  int threads = 0;
  double max_memory_mib = 0.0;  // 0 = the default limit
};

// "c,r" -> a tile; nullopt with a usage message when malformed.
std::optional<Tile> parse_tile(const std::string& text, std::string_view option) {
  Tile t;
  const std::size_t comma = text.find(',');
  const auto whole = [](std::string_view s, int& out) {
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
  };
  if (comma == std::string::npos || !whole(std::string_view(text).substr(0, comma), t.c) ||
      !whole(std::string_view(text).substr(comma + 1), t.r)) {
    std::cerr << "leapnav platformer: " << option << ": '" << text
              << "' is not a tile c,r (two whole numbers)\n";
    return std::nullopt;
  }
  return t;
}

nlohmann::json tile_json(Tile t) {
  return nlohmann::json::array({t.c, t.r});
}

nlohmann::json link_json(const NavGraph& graph, const NavLink& link) {
  nlohmann::json j;
  j["kind"] = std::string(platformer::to_string(link.kind));
  j["from"] = tile_json(graph.point(link.from).tile);
  j["to"] = tile_json(graph.point(link.to).tile);
  j["time"] = link.cost;
  if (link.kind == LinkKind::Jump) {
    j["h"] = link.jump.height;
    j["speed"] = link.jump.speed;
    j["direction"] = link.jump.direction;
  }
  return j;
}

nlohmann::json graph_json(const NavGraph& graph) {
  nlohmann::json j;
  j["nav_points"] = nlohmann::json::array();
  for (const platformer::NavPoint& p : graph.points) {
    j["nav_points"].push_back({{"tile", tile_json(p.tile)},
                               {"platform", static_cast<std::uint32_t>(p.platform)},
                               {"type", std::string(platformer::to_string(p.type))}});
  }
  j["platforms"] = graph.platform_count;
  j["links"] = nlohmann::json::array();
  for (const NavLink& link : graph.links) j["links"].push_back(link_json(graph, link));
  return j;
}

nlohmann::json path_json(const NavGraph& graph, const platformer::PlatformerPath& path) {
  nlohmann::json j;
  j["status"] = std::string(platformer::to_string(path.status));
  j["cost"] = path.cost;
  j["steps"] = nlohmann::json::array();
  for (const platformer::PathStep& step : path.steps) {
    j["steps"].push_back(link_json(graph, graph.links[step.link]));
  }
  return j;
}

std::string tile_text(Tile t) {
  return "(" + std::to_string(t.c) + "," + std::to_string(t.r) + ")";
}

void print_link(const NavGraph& graph, const NavLink& link) {
  std::cout << platformer::to_string(link.kind) << ' ' << tile_text(graph.point(link.from).tile)
            << " -> " << tile_text(graph.point(link.to).tile) << " time " << link.cost;
  if (link.kind == LinkKind::Jump) {
    std::cout << " h " << link.jump.height << " speed " << link.jump.speed << " direction "
              << link.jump.direction;
  }
  std::cout << '\n';
}

int run_platformer(const PlatformerOptions& o) {
  if (o.from.empty() != o.to.empty()) {
    std::cerr << "leapnav platformer: --from and --to go together\n";
    return kExitUsage;
  }
  if (o.png && o.svg.empty()) {
    std::cerr << "leapnav platformer: --png needs --svg <out.svg>\n";
    return kExitUsage;
  }
  std::optional<Tile> from;
  std::optional<Tile> to;
  if (!o.from.empty()) {
    from = parse_tile(o.from, "--from");
    to = parse_tile(o.to, "--to");
    if (!from || !to) return kExitUsage;
  }
  auto map = platformer::load_tile_map(o.map, input_limit_bytes(o.max_memory_mib));
  if (!map) return report(map.error());
  platformer::PlatformerParams params;
  if (!o.params.empty()) {
    auto loaded = platformer::load_params(o.params, input_limit_bytes(o.max_memory_mib));
    if (!loaded) return report(loaded.error());
    params = *loaded;
  }
  if (!o.obj.empty()) {
    const platformer::ExtrudeOptions extrude{static_cast<float>(o.tile_size),
                                             static_cast<float>(o.depth), true};
    const TriangleMesh mesh = platformer::extrude_tile_map(*map, extrude);
    if (auto status = io::write_obj(mesh, o.obj); !status) return report(status.error());
    std::cerr << "platformer: " << o.obj << ": " << mesh.triangles.size() << " triangles (tiles as "
              << o.tile_size << " m boxes, corridor " << o.depth << " m deep, solid frame)\n";
  }
  BuildContext ctx;
  ctx.set_threads(o.threads);
  ctx.set_memory_limit(memory_limit_bytes(o.max_memory_mib));
  auto graph = platformer::build_nav_graph(*map, params, ctx);
  if (!graph) return report(graph.error());
  if (auto valid = platformer::validate(*graph, *map, params); !valid) return report(valid.error());
  std::optional<platformer::PlatformerPath> path;
  if (from) {
    auto found = platformer::find_path(*graph, *from, *to);
    if (!found) {
      return report(make_error(found.error().code, o.map + ": " + found.error().message));
    }
    path = std::move(found).value();
  }
  if (!o.svg.empty()) {
    platformer::SvgOptions svg_options;
    svg_options.path = path ? &*path : nullptr;
    if (auto status = write_text(o.svg, platformer::render_svg(*map, *graph, params, svg_options));
        !status) {
      return report(status.error());
    }
    if (o.png) {
      if (const int code = write_png(o.svg); code != kExitOk) return code;
    }
  }
  if (o.json) {
    const nlohmann::json j = path ? path_json(*graph, *path) : graph_json(*graph);
    if (auto status = write_json("-", j); !status) return report(status.error());
    return kExitOk;
  }
  const platformer::GraphCounts counts = platformer::count(*graph);
  std::cout << std::setprecision(6) << "platformer " << o.map << ": " << map->width << " x "
            << map->height << " tiles, " << counts.nav_points << " nav points, " << counts.platforms
            << " platforms, links: " << counts.run << " run, " << counts.fall << " fall, "
            << counts.jump << " jump (" << ctx.time_of("platformer_jump") << " ms for the jumps)\n";
  if (path) {
    std::cout << "path " << platformer::to_string(path->status) << ", cost " << path->cost << " s, "
              << path->steps.size() << " steps\n";
    for (const platformer::PathStep& step : path->steps) {
      print_link(*graph, graph->links[step.link]);
    }
    return kExitOk;
  }
  for (const platformer::NavPoint& p : graph->points) {
    std::cout << "nav point " << tile_text(p.tile) << " platform "
              << static_cast<std::uint32_t>(p.platform) << ' ' << platformer::to_string(p.type)
              << '\n';
  }
  for (const NavLink& link : graph->links) print_link(*graph, link);
  return kExitOk;
}

}  // namespace

void register_platformer_command(CLI::App& root, Registry& registry) {
  auto o = std::make_shared<PlatformerOptions>();
  CLI::App* app = root.add_subcommand(
      "platformer",
      "Side-view platformer navigation of a tile map ('platformer W H', then H rows of '#' solid "
      "/ '.' free, top row first; tile (c, r) counts rows from the bottom; outside is solid): nav "
      "points, run / fall / jump links, paths, pictures");
  app->add_option("map", o->map, "Tile map file")->required();
  app->add_option("--params", o->params,
                  "JSON parameters {a, v_max, v_b, h_max, g, h_div, s_div, dt, T, distance_max, "
                  "collider: [w, h]} [units: tiles, s]; missing keys keep their defaults "
                  "(docs/platformer.md)");
  app->add_flag("--json", o->json, "Print the graph (or, with --from/--to, the path) as JSON");
  app->add_option("--from", o->from, "Start tile c,r (column from the left, row from the bottom)");
  app->add_option("--to", o->to, "Goal tile c,r");
  app->add_option("--svg", o->svg, "Draw the map, nav points, links and path side-on");
  app->add_flag("--png", o->png, "Also convert the SVG to PNG (needs rsvg-convert)");
  app->add_option("--obj", o->obj,
                  "Also write the map extruded to a 3-D level (tiles as boxes, a solid frame) for "
                  "`leapnav build`");
  app->add_option("--tile-size", o->tile_size, "Box edge for --obj [units: m]")
      ->needs("--obj")
      ->check(check_finite)
      ->check(CLI::Range(0.01, 100.0));
  app->add_option("--depth", o->depth, "Corridor depth for --obj [units: m]")
      ->needs("--obj")
      ->check(check_finite)
      ->check(CLI::Range(0.01, 1000.0));
  app->add_option("--threads", o->threads, "Threads for the jump links (0 = all)")
      ->check(CLI::Range(0, 1024));
  add_max_memory_option(*app, o->max_memory_mib);
  registry.push_back({app, [o]() { return run_platformer(*o); }});
}

}  // namespace leapnav::cli
