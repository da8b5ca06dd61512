// Top-down SVG renderer: world (x, z) maps to picture (right, down) at a fixed scale; polygons are
// painted in ascending mean height with partial opacity, each followed by its own edges, so upper
// levels lie over lower ones without hiding them. Numbers use std::to_chars (locale-independent).
// Jump link overlays subsample large link sets evenly by id and colour them per configuration.
#include "leapnav/io/render.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

namespace leapnav::io {
namespace {

constexpr float kMargin = 20.0F;
constexpr float kFooterLine = 18.0F;
constexpr float kMaxPictureSide = 16384.0F;

std::string num(double v) {
  char buffer[48];
  const auto [end, ec] =
      std::to_chars(buffer, buffer + sizeof(buffer), v, std::chars_format::fixed, 2);
  if (ec != std::errc()) return "0";
  std::string s(buffer, end);
  if (s == "-0.00") s = "0.00";
  return s;
}

std::string hex_color(double r, double g, double b) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "#";
  for (const double c : {r, g, b}) {
    const int v = std::clamp(static_cast<int>(std::lround(c * 255.0)), 0, 255);
    out += kHex[v >> 4];
    out += kHex[v & 15];
  }
  return out;
}

/// HSL (h in degrees, s and l in 0..1) as "#rrggbb".
std::string hsl(double h, double s, double l) {
  const double c = (1.0 - std::abs(2.0 * l - 1.0)) * s;
  const double hp = std::fmod(h, 360.0) / 60.0;
  const double x = c * (1.0 - std::abs(std::fmod(hp, 2.0) - 1.0));
  double r = 0;
  double g = 0;
  double b = 0;
  if (hp < 1) {
    r = c, g = x;
  } else if (hp < 2) {
    r = x, g = c;
  } else if (hp < 3) {
    g = c, b = x;
  } else if (hp < 4) {
    g = x, b = c;
  } else if (hp < 5) {
    r = x, b = c;
  } else {
    r = c, b = x;
  }
  const double m = l - 0.5 * c;
  return hex_color(r + m, g + m, b + m);
}

/// A blue -> teal -> green -> yellow ramp for t in [0, 1].
std::string height_color(double t) {
  static constexpr std::array<std::array<double, 3>, 5> kStops = {{{0.19, 0.15, 0.55},
                                                                   {0.16, 0.45, 0.70},
                                                                   {0.13, 0.66, 0.55},
                                                                   {0.55, 0.80, 0.25},
                                                                   {0.99, 0.88, 0.15}}};
  t = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
  const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
  const double f = t - static_cast<double>(i);
  const auto& a = kStops[i];
  const auto& b = kStops[i + 1];
  return hex_color(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f);
}

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// 1, 2 or 5 times a power of ten, the longest not above `limit`.
double nice_length(double limit) {
  if (!(limit > 0.0)) return 1.0;
  const double p = std::pow(10.0, std::floor(std::log10(limit)));
  for (const double m : {5.0, 2.0, 1.0})
    if (m * p <= limit) return m * p;
  return p;
}

class Picture {
 public:
  Picture(float min_x, float min_z, float scale) : min_x_(min_x), min_z_(min_z), scale_(scale) {}
  [[nodiscard]] double px(float x) const { return kMargin + (double(x) - min_x_) * scale_; }
  [[nodiscard]] double py(float z) const { return kMargin + (double(z) - min_z_) * scale_; }
  [[nodiscard]] std::string point(Vec3 v) const { return num(px(v.x)) + "," + num(py(v.z)); }

 private:
  float min_x_;
  float min_z_;
  float scale_;
};

std::string stroke_style(const Overlay& o) {
  std::string s = " stroke=\"" + escape(o.color) + "\" stroke-width=\"" + num(o.width) +
                  "\" stroke-opacity=\"" + num(std::clamp(o.opacity, 0.0F, 1.0F)) +
                  "\" stroke-linecap=\"round\" stroke-linejoin=\"round\"";
  if (o.dashed) s += " stroke-dasharray=\"" + num(3.0 * o.width) + "," + num(2.0 * o.width) + "\"";
  return s;
}

void draw_overlay(std::string& out, const Overlay& o, const Picture& pic) {
  const std::string opacity = num(std::clamp(o.opacity, 0.0F, 1.0F));
  switch (o.kind) {
    case OverlayKind::Polyline: {
      if (o.points.size() < 2) break;
      out += "<polyline class=\"overlay-polyline\" fill=\"none\"" + stroke_style(o) + " points=\"";
      for (std::size_t i = 0; i < o.points.size(); ++i)
        out += (i ? " " : "") + pic.point(o.points[i]);
      out += "\"/>\n";
      break;
    }
    case OverlayKind::Points:
      for (const Vec3& p : o.points)
        out += "<circle class=\"overlay-point\" cx=\"" + num(pic.px(p.x)) + "\" cy=\"" +
               num(pic.py(p.z)) + "\" r=\"" + num(o.radius) + "\" fill=\"" + escape(o.color) +
               "\" fill-opacity=\"" + opacity + "\" stroke=\"#000000\" stroke-width=\"0.5\"/>\n";
      break;
    case OverlayKind::Segments:
      for (std::size_t i = 0; i + 1 < o.points.size(); i += 2)
        out += "<line class=\"overlay-segment\" x1=\"" + num(pic.px(o.points[i].x)) + "\" y1=\"" +
               num(pic.py(o.points[i].z)) + "\" x2=\"" + num(pic.px(o.points[i + 1].x)) +
               "\" y2=\"" + num(pic.py(o.points[i + 1].z)) + "\"" + stroke_style(o) + "/>\n";
      break;
    case OverlayKind::Arcs:
      for (std::size_t i = 0; i + 1 < o.points.size(); i += 2) {
        const double ax = pic.px(o.points[i].x);
        const double ay = pic.py(o.points[i].z);
        const double bx = pic.px(o.points[i + 1].x);
        const double by = pic.py(o.points[i + 1].z);
        const double dx = bx - ax;
        const double dy = by - ay;
        // note: a jump is straight when seen from above; bending it sideways by a quarter of its
        // length tells it apart from a walked segment, and the arrowhead gives its direction.
        const double cx = 0.5 * (ax + bx) - 0.25 * dy;
        const double cy = 0.5 * (ay + by) + 0.25 * dx;
        out += "<path class=\"overlay-arc\" fill=\"none\"" + stroke_style(o) + " d=\"M" + num(ax) +
               "," + num(ay) + " Q" + num(cx) + "," + num(cy) + " " + num(bx) + "," + num(by) +
               "\"/>\n";
        const double tx = bx - cx;
        const double ty = by - cy;
        const double len = std::hypot(tx, ty);
        if (len <= 1e-9) continue;
        const double ux = tx / len;
        const double uy = ty / len;
        const double size = 2.5 * o.radius;
        const double lx = bx - ux * size - uy * size * 0.5;
        const double ly = by - uy * size + ux * size * 0.5;
        const double rx = bx - ux * size + uy * size * 0.5;
        const double ry = by - uy * size - ux * size * 0.5;
        out += "<polygon class=\"overlay-arrow\" fill=\"" + escape(o.color) + "\" fill-opacity=\"" +
               opacity + "\" points=\"" + num(bx) + "," + num(by) + " " + num(lx) + "," + num(ly) +
               " " + num(rx) + "," + num(ry) + "\"/>\n";
      }
      break;
  }
}

/// The float's shortest round-trip decimal ("2.5").
std::string short_num(float v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

/// The fill of crouch polygons in every fill mode: a dark violet, darker than any region colour
/// (their lightness is 0.6 or 0.7).
constexpr std::string_view kCrouchColor = "#4b1d6e";

}  // namespace

std::string region_color(std::uint16_t region) {
  return hsl(std::fmod(region * 137.50776405, 360.0), 0.62, region % 2 == 0 ? 0.60 : 0.70);
}

std::string jump_config_label(const jump::JumpConfig& config) {
  const std::string parameters = "h " + short_num(config.height) + " m, d " +
                                 short_num(config.distance) + " m, max fall " +
                                 short_num(config.max_fall) + " m";
  static constexpr std::array<std::pair<const char*, jump::JumpConfig>, 3> kPresets = {
      {{"C1", jump::kJumpC1}, {"C2", jump::kJumpC2}, {"C3", jump::kJumpC3}}};
  for (const auto& [name, preset] : kPresets)
    if (config == preset) return std::string(name) + " (" + parameters + ")";
  return "(" + parameters + ")";
}

std::string jump_config_color(std::size_t config) {
  static constexpr std::array<const char*, 8> kPalette = {
      "#d62728", "#1f4fb4", "#7b2fa8", "#e06c00", "#0b7a3e", "#8c564b", "#c2187c", "#0f8a9c"};
  return kPalette[config % kPalette.size()];
}

std::vector<Overlay> jump_link_overlays(const jump::JumpLinkSet& links,
                                        const JumpLinkOverlayOptions& options) {
  const std::size_t n = links.links.size();
  const std::size_t drawn = options.max_links == 0 ? n : std::min(n, options.max_links);
  const std::size_t configs = links.configs.size();
  std::vector<Overlay> arcs(configs);
  std::vector<Overlay> segments(configs);
  std::vector<Overlay> starts(configs);
  std::vector<std::size_t> total(configs, 0);
  std::vector<std::size_t> shown(configs, 0);
  for (const jump::JumpLink& l : links.links)
    if (l.config < configs) ++total[l.config];
  for (std::size_t i = 0; i < drawn; ++i) {
    // note: link ids are 32-bit and i < drawn <= n, so i * n fits in 64 bits exactly
    const auto k = static_cast<std::size_t>(std::uint64_t{i} * n / drawn);
    const jump::JumpLink& l = links.links[k];
    if (l.config >= configs) continue;
    ++shown[l.config];
    arcs[l.config].points.push_back(l.start);
    arcs[l.config].points.push_back(l.land_a);
    if (!(l.land_b == l.land_a)) {
      arcs[l.config].points.push_back(l.start);
      arcs[l.config].points.push_back(l.land_b);
    }
    segments[l.config].points.push_back(l.land_a);
    segments[l.config].points.push_back(l.land_b);
    starts[l.config].points.push_back(l.start);
  }
  std::vector<Overlay> out;
  for (std::size_t c = 0; c < configs; ++c) {
    if (shown[c] == 0) continue;
    const std::string color = jump_config_color(c);
    const jump::JumpConfig& jc = links.configs[c];
    Overlay& arc = arcs[c];
    arc.kind = OverlayKind::Arcs;
    arc.color = color;
    arc.width = options.arc_width;
    arc.radius = std::max(1.0F, 1.2F * options.arc_width);
    arc.opacity = options.opacity;
    arc.label = "jump " + jump_config_label(jc) + ": " + std::to_string(shown[c]) + " of " +
                std::to_string(total[c]) + " links; dot start, bar land segment, arcs to its ends";
    Overlay& segment = segments[c];
    segment.kind = OverlayKind::Segments;
    segment.color = color;
    segment.width = options.segment_width;
    segment.opacity = options.opacity;
    Overlay& start = starts[c];
    start.kind = OverlayKind::Points;
    start.color = color;
    start.radius = options.point_radius;
    start.opacity = options.opacity;
    out.push_back(std::move(arc));
    out.push_back(std::move(segment));
    out.push_back(std::move(start));
  }
  return out;
}

std::string ledge_kind_color(ledge::LedgeKind kind) {
  switch (kind) {
    case ledge::LedgeKind::Walk:
      return "#8c564b";
    case ledge::LedgeKind::StepUp:
      return "#2ca02c";
    case ledge::LedgeKind::StepDown:
      return "#98df8a";
    case ledge::LedgeKind::JumpUp:
      return "#ff7f0e";
    case ledge::LedgeKind::Drop:
      return "#9467bd";
    case ledge::LedgeKind::Ladder:
      return "#17becf";
  }
  return "#000000";
}

std::vector<Overlay> ledge_link_overlays(const ledge::LedgeLinkSet& links) {
  std::vector<Overlay> by_kind(ledge::kLedgeKindCount);
  std::vector<std::size_t> count(ledge::kLedgeKindCount, 0);
  const auto mid = [](Vec3 a, Vec3 b) { return (a + b) * 0.5F; };
  for (const ledge::LedgeLink& l : links.links) {
    const auto k = static_cast<std::size_t>(l.kind);
    ++count[k];
    by_kind[k].points.push_back(l.source_a);
    by_kind[k].points.push_back(l.source_b);
    by_kind[k].points.push_back(mid(l.source_a, l.source_b));
    by_kind[k].points.push_back(mid(l.dest_a, l.dest_b));
  }
  std::vector<Overlay> out;
  for (std::size_t k = 0; k < by_kind.size(); ++k) {
    if (count[k] == 0) continue;
    const auto kind = static_cast<ledge::LedgeKind>(k);
    Overlay& o = by_kind[k];
    o.kind = OverlayKind::Segments;
    o.color = ledge_kind_color(kind);
    o.width = 2.0F;
    o.opacity = 0.9F;
    o.label = std::string(ledge::to_string(kind)) + " links: " + std::to_string(count[k]);
    out.push_back(std::move(o));
  }
  return out;
}

std::string render_svg(const mesh::NavMesh& m, const RenderOptions& options) {
  const std::size_t polys = m.polygon_count();
  AABB box;
  for (std::size_t p = 0; p < polys; ++p)
    for (const std::uint32_t v : m.polygon(mesh::PolyId{static_cast<std::uint32_t>(p)}))
      box.extend(m.vertices[v]);
  for (const Overlay& o : options.overlays)
    for (const Vec3& v : o.points)
      if (is_finite(v)) box.extend(v);
  if (box.empty()) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"240\" height=\"60\">\n"
           "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
           "<text x=\"20\" y=\"35\" font-family=\"sans-serif\" font-size=\"14\">empty navmesh"
           "</text>\n</svg>\n";
  }
  const double extent_x = std::max(1e-3, double(box.max.x) - box.min.x);
  const double extent_z = std::max(1e-3, double(box.max.z) - box.min.z);
  double scale = options.pixels_per_metre > 0.0F
                     ? options.pixels_per_metre
                     : std::max(1, options.max_size_px) / std::max(extent_x, extent_z);
  scale = std::min(scale, kMaxPictureSide / std::max(extent_x, extent_z));
  const Picture pic(box.min.x, box.min.z, static_cast<float>(scale));

  // legend rows: the fill line, the axis line, one per distinct overlay label
  std::vector<const Overlay*> labelled;
  std::set<std::string> labels;
  for (const Overlay& o : options.overlays)
    if (!o.label.empty() && labels.insert(o.label).second) labelled.push_back(&o);
  const double draw_w = extent_x * scale + 2 * kMargin;
  const double draw_h = extent_z * scale + 2 * kMargin;
  const double width = std::max(draw_w, 520.0);
  // note: crouch polygons (mesh::kPolyFlagCrouch) get one colour and a legend row of their own
  std::size_t crouch_polys = 0;
  for (std::size_t p = 0; p < polys && p < m.poly_flags.size(); ++p)
    crouch_polys += (m.poly_flags[p] & mesh::kPolyFlagCrouch) != 0 ? 1 : 0;
  const double footer =
      kFooterLine * (3.0 + static_cast<double>(labelled.size()) + (crouch_polys > 0 ? 1.0 : 0.0)) +
      12.0;
  const double height = draw_h + footer;

  // polygon heights and painting order (low to high, ties by index)
  std::vector<double> mean_y(polys, 0.0);
  double lo = 0.0;
  double hi = 0.0;
  for (std::size_t p = 0; p < polys; ++p) {
    const auto poly = m.polygon(mesh::PolyId{static_cast<std::uint32_t>(p)});
    double sum = 0.0;
    for (const std::uint32_t v : poly) sum += m.vertices[v].y;
    mean_y[p] = poly.empty() ? 0.0 : sum / static_cast<double>(poly.size());
    lo = p == 0 ? mean_y[p] : std::min(lo, mean_y[p]);
    hi = p == 0 ? mean_y[p] : std::max(hi, mean_y[p]);
  }
  std::vector<std::size_t> order(polys);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return mean_y[a] < mean_y[b]; });

  std::string out;
  out.reserve(polys * 400 + 4096);
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
         num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out += "<g id=\"navmesh\">\n";
  const std::string fill_opacity = num(std::clamp(options.polygon_opacity, 0.0F, 1.0F));
  std::set<std::uint16_t> regions;
  for (const std::size_t p : order) {
    const mesh::PolyId id{static_cast<std::uint32_t>(p)};
    const auto poly = m.polygon(id);
    const auto nbs = m.neighbors(id);
    const std::uint16_t region = p < m.poly_region.size() ? m.poly_region[p] : 0;
    regions.insert(region);
    const bool crouch = p < m.poly_flags.size() && (m.poly_flags[p] & mesh::kPolyFlagCrouch) != 0;
    const std::string fill =
        crouch ? std::string(kCrouchColor)
               : (options.fill == FillMode::Region
                      ? region_color(region)
                      : height_color(hi > lo ? (mean_y[p] - lo) / (hi - lo) : 0.5));
    out += "<polygon class=\"poly\" data-poly=\"" + std::to_string(p) + "\" data-region=\"" +
           std::to_string(region) + (crouch ? "\" data-crouch=\"1" : "") + "\" fill=\"" + fill +
           "\" fill-opacity=\"" + fill_opacity + "\" points=\"";
    for (std::size_t k = 0; k < poly.size(); ++k)
      out += (k ? " " : "") + pic.point(m.vertices[poly[k]]);
    out += "\"/>\n";
    for (std::size_t k = 0; k < poly.size(); ++k) {
      const Vec3 a = m.vertices[poly[k]];
      const Vec3 b = m.vertices[poly[(k + 1) % poly.size()]];
      const bool boundary = nbs[k] == mesh::kNoPoly;
      out += std::string("<line class=\"") + (boundary ? "boundary" : "internal") + "\" x1=\"" +
             num(pic.px(a.x)) + "\" y1=\"" + num(pic.py(a.z)) + "\" x2=\"" + num(pic.px(b.x)) +
             "\" y2=\"" + num(pic.py(b.z)) +
             (boundary ? "\" stroke=\"#1a1a1a\" stroke-width=\"1.6\" stroke-linecap=\"round\"/>\n"
                       : "\" stroke=\"#ffffff\" stroke-opacity=\"0.85\" stroke-width=\"0.7\"/>\n");
    }
  }
  out += "</g>\n<g id=\"overlays\">\n";
  for (const Overlay& o : options.overlays) draw_overlay(out, o, pic);
  out += "</g>\n";

  // footer: scale bar, axis note, fill legend, overlay legend
  const std::string font = "font-family=\"sans-serif\" font-size=\"12\" fill=\"#1a1a1a\"";
  double y = draw_h + kFooterLine;
  const double bar_m = nice_length(std::min(150.0, width / 3.0) / scale);
  const double bar_px = bar_m * scale;
  out += "<g id=\"scale\">\n";
  out += "<rect x=\"" + num(kMargin) + "\" y=\"" + num(y - 10) + "\" width=\"" + num(bar_px) +
         "\" height=\"6\" fill=\"#1a1a1a\"/>\n";
  char bar_text[32];
  const auto [bar_end, bar_ec] = std::to_chars(bar_text, bar_text + sizeof(bar_text), bar_m);
  out += "<text x=\"" + num(kMargin + bar_px + 8) + "\" y=\"" + num(y - 2) + "\" " + font + ">" +
         std::string(bar_text, bar_ec == std::errc() ? bar_end : bar_text) + " m</text>\n";
  if (!options.title.empty())
    out += "<text x=\"" + num(width - kMargin) + "\" y=\"" + num(y - 2) +
           "\" text-anchor=\"end\" " + font + " font-weight=\"bold\">" + escape(options.title) +
           "</text>\n";
  out += "</g>\n<g id=\"legend\">\n";
  y += kFooterLine;
  out += "<text x=\"" + num(kMargin) + "\" y=\"" + num(y) + "\" " + font +
         ">top-down: x to the right (east), z downwards (south), north up; height y out of the "
         "page</text>\n";
  y += kFooterLine;
  if (options.fill == FillMode::Region) {
    out += "<text x=\"" + num(kMargin) + "\" y=\"" + num(y) + "\" " + font + ">" +
           std::to_string(polys) + " polygons, " + std::to_string(regions.size()) +
           " regions (one colour each); higher polygons drawn over lower ones, translucent"
           "</text>\n";
  } else {
    const double ramp_w = 160;
    for (int i = 0; i < 16; ++i)
      out += "<rect x=\"" + num(kMargin + ramp_w * i / 16.0) + "\" y=\"" + num(y - 10) +
             "\" width=\"" + num(ramp_w / 16.0 + 0.5) + "\" height=\"12\" fill=\"" +
             height_color(i / 15.0) + "\"/>\n";
    out += "<text x=\"" + num(kMargin + ramp_w + 8) + "\" y=\"" + num(y) + "\" " + font +
           ">height " + num(lo) + " m to " + num(hi) + " m (polygon mean); " +
           std::to_string(polys) + " polygons, higher drawn over lower, translucent</text>\n";
  }
  if (crouch_polys > 0) {
    y += kFooterLine;
    out += "<rect x=\"" + num(kMargin) + "\" y=\"" + num(y - 10) +
           "\" width=\"24\" height=\"12\" fill=\"" + std::string(kCrouchColor) +
           "\" fill-opacity=\"" + fill_opacity + "\"/>\n";
    out += "<text x=\"" + num(kMargin + 32) + "\" y=\"" + num(y) + "\" " + font + ">" +
           std::to_string(crouch_polys) +
           (crouch_polys == 1 ? " crouch polygon" : " crouch polygons") +
           " (clearance below the agent height)" + "</text>\n";
  }
  for (const Overlay* o : labelled) {
    y += kFooterLine;
    out += "<line x1=\"" + num(kMargin) + "\" y1=\"" + num(y - 4) + "\" x2=\"" + num(kMargin + 24) +
           "\" y2=\"" + num(y - 4) + "\"" + stroke_style(*o) + "/>\n";
    out += "<text x=\"" + num(kMargin + 32) + "\" y=\"" + num(y) + "\" " + font + ">" +
           escape(o->label) + "</text>\n";
  }
  out += "</g>\n</svg>\n";
  return out;
}

}  // namespace leapnav::io
