// Side-on SVG of a platformer nav graph: solid tiles (with the solid frame outside the map), nav
// points coloured by type, run links, fall links (across to the side column, then down), jump arcs
// through their simulated samples up to the landing sample, and a path drawn on top.
#include "leapnav/platformer/svg.hpp"

#include <cstdio>
#include <string>

#include "leapnav/platformer/trajectory.hpp"

namespace leapnav::platformer {
namespace {

class Canvas {
 public:
  Canvas(const TileMap& map, double tile_pixels) : height_(map.height), px_(tile_pixels) {}
  [[nodiscard]] double x(double tile_x) const { return (tile_x + 1.0) * px_; }
  [[nodiscard]] double y(double tile_y) const { return (height_ + 1.0 - tile_y) * px_; }
  [[nodiscard]] double px() const { return px_; }

 private:
  int height_;
  double px_;
};

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

const char* type_colour(NavPointType type) {
  switch (type) {
    case NavPointType::LeftEdge:
      return "#2e7d32";
    case NavPointType::RightEdge:
      return "#c62828";
    case NavPointType::Solo:
      return "#6a1b9a";
    case NavPointType::Platform:
      return "#1565c0";
    case NavPointType::None:
      return "#000000";
  }
  return "#000000";
}

// The points a link is drawn through [units: tiles].
std::vector<std::pair<double, double>> link_points(const NavGraph& graph,
                                                   const PlatformerParams& params,
                                                   const NavLink& link) {
  const Tile a = graph.point(link.from).tile;
  const Tile b = graph.point(link.to).tile;
  std::vector<std::pair<double, double>> points{{a.c + 0.5, a.r + 0.5}};
  if (link.kind == LinkKind::Fall) {
    points.emplace_back(b.c + 0.5, a.r + 0.5);
  } else if (link.kind == LinkKind::Jump) {
    const JumpShape shape{link.jump.height, link.jump.speed, link.jump.direction};
    // note: the arc is the feet's path lifted by half a tile, so it starts at the point's centre
    for (int k = 1; k <= link.jump.landing_sample; ++k) {
      const TrajectorySample s = jump_position(a, shape, params, k * params.dt);
      points.emplace_back(s.x, s.y + 0.5);
    }
  }
  points.emplace_back(b.c + 0.5, b.r + 0.5);
  return points;
}

std::string polyline(const Canvas& canvas, const std::vector<std::pair<double, double>>& points,
                     const std::string& style) {
  std::string out = "<polyline fill=\"none\" " + style + " points=\"";
  for (const auto& [px, py] : points) out += num(canvas.x(px)) + "," + num(canvas.y(py)) + " ";
  out += "\"/>\n";
  return out;
}

}  // namespace

std::string render_svg(const TileMap& map, const NavGraph& graph, const PlatformerParams& params,
                       const SvgOptions& options) {
  const Canvas canvas(map, options.tile_pixels);
  const double w = (map.width + 2) * canvas.px();
  const double h = (map.height + 2) * canvas.px();
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" +
                    num(h) + "\" viewBox=\"0 0 " + num(w) + " " + num(h) +
                    "\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n";
  // solid tiles in horizontal runs, the frame included
  svg += "<g fill=\"#8d8d8d\" stroke=\"none\">\n";
  for (int r = -1; r <= map.height; ++r) {
    int c = -1;
    while (c <= map.width) {
      if (!map.is_solid(c, r)) {
        ++c;
        continue;
      }
      int end = c + 1;
      while (end <= map.width && map.is_solid(end, r)) ++end;
      svg += "<rect x=\"" + num(canvas.x(c)) + "\" y=\"" + num(canvas.y(r + 1)) + "\" width=\"" +
             num((end - c) * canvas.px()) + "\" height=\"" + num(canvas.px()) + "\"/>\n";
      c = end;
    }
  }
  svg += "</g>\n";
  const std::string stroke = num(canvas.px() / 16);
  if (options.links) {
    for (const NavLink& link : graph.links) {
      if (link.kind == LinkKind::Run && graph.point(link.to).tile.c < graph.point(link.from).tile.c)
        continue;  // one line per run pair
      const char* style = link.kind == LinkKind::Run ? "stroke=\"#455a64\""
                          : link.kind == LinkKind::Fall
                              ? "stroke=\"#0277bd\" stroke-dasharray=\"4 3\""
                          : link.jump.direction > 0 ? "stroke=\"#ef6c00\" stroke-opacity=\"0.45\""
                                                    : "stroke=\"#8e24aa\" stroke-opacity=\"0.45\"";
      svg += polyline(canvas, link_points(graph, params, link),
                      std::string(style) + " stroke-width=\"" + stroke + "\"");
    }
  }
  if (options.path != nullptr && options.path->status == PathStatus::Found) {
    for (const PathStep& step : options.path->steps) {
      svg += polyline(canvas, link_points(graph, params, graph.links[step.link]),
                      "stroke=\"#d50000\" stroke-linejoin=\"round\" stroke-width=\"" +
                          num(canvas.px() / 6) + "\"");
    }
  }
  for (const NavPoint& p : graph.points) {
    svg += "<circle cx=\"" + num(canvas.x(p.tile.c + 0.5)) + "\" cy=\"" +
           num(canvas.y(p.tile.r + 0.5)) + "\" r=\"" + num(canvas.px() / 5) + "\" fill=\"" +
           type_colour(p.type) + "\"/>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace leapnav::platformer
