// Top-down SVG pictures of a navmesh. The view looks down the y axis: world x to the right, world
// z downwards, so -z ("north") is up. Polygons are filled by region (distinct colours from a
// golden-angle hue walk) or by height (a blue-to-yellow ramp) and drawn from the lowest to the
// highest (by mean vertex height) with partial opacity and an outline, so a floor under a bridge
// or a second storey still shows through, and the upper level's outline stays visible on top.
// Boundary edges are dark and thick, edges between polygons light and thin. A footer holds a scale
// bar, the axis note and the legend. Later stages add their own drawings through Overlay;
// jump_link_overlays draws a jump link set (start dots, land segments, arcs to the segment ends).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::io {

/// How polygons are coloured.
enum class FillMode : std::uint8_t {
  Region,  ///< one colour per watershed region
  Height,  ///< by the polygon's mean vertex height, with a ramp in the legend
};

/// What an overlay draws.
enum class OverlayKind : std::uint8_t {
  Polyline,  ///< a line through `points` in order (a path)
  Points,    ///< a dot of `radius` pixels at each point (path corners, samples)
  Arcs,      ///< consecutive pairs (from, to) drawn as curved arrows (jumps): points 2k -> 2k+1
  Segments,  ///< consecutive pairs drawn as separate straight lines: points 2k -- 2k+1
};

/// A drawing on top of the navmesh, in world coordinates (only x and z are used for position;
/// y is ignored by the top-down view). Overlays are drawn in list order after the polygons.
struct Overlay {
  OverlayKind kind = OverlayKind::Polyline;
  std::vector<Vec3> points;       ///< [units: m]
  std::string color = "#d62728";  ///< any SVG colour ("#rrggbb", "red")
  float width = 2.0F;             ///< line width [units: px]
  float radius = 3.0F;            ///< dot radius (Points) and arrowhead size (Arcs) [units: px]
  float opacity = 1.0F;           ///< [range: 0..1]
  bool dashed = false;
  std::string label;  ///< shown in the legend when not empty (once per distinct label)
};

struct RenderOptions {
  FillMode fill = FillMode::Region;
  /// Picture scale [units: px per m]; 0 fits the longer side of the mesh into max_size_px.
  float pixels_per_metre = 0.0F;
  int max_size_px = 1024;         ///< longer side of the drawing area when fitting [units: px]
  float polygon_opacity = 0.75F;  ///< fill opacity [range: 0..1]
  std::string title;              ///< drawn in the footer when not empty
  std::vector<Overlay> overlays;
};

/// The picture as an SVG document. Inside `<g id="navmesh">`, each polygon (in painting order) is
/// `<polygon class="poly" data-poly="P" data-region="R" .../>` followed by its edges as
/// `<line class="boundary"/>` or `<line class="internal"/>`; overlays follow in
/// `<g id="overlays">`, then `<g id="scale">` and `<g id="legend">`. An empty mesh (and no overlay)
/// gives a small picture saying so.
[[nodiscard]] std::string render_svg(const mesh::NavMesh& navmesh, const RenderOptions& options);

/// Options of jump_link_overlays.
struct JumpLinkOverlayOptions {
  /// Most links drawn [range: >= 0; 0 draws all]. A larger set is subsampled evenly by id: links
  /// floor(i * N / max_links) for i = 0 .. max_links - 1 (deterministic).
  std::size_t max_links = 400;
  float arc_width = 1.0F;      ///< jump arc line width [units: px]
  float segment_width = 2.5F;  ///< land segment line width [units: px]
  float point_radius = 1.8F;   ///< start dot radius [units: px]
  float opacity = 0.75F;       ///< [range: 0..1]
};

/// The fill colour of watershed region `region` in pictures, "#rrggbb": distinct colours for
/// consecutive ids (golden-angle hue steps, alternating lightness).
[[nodiscard]] std::string region_color(std::uint16_t region);

/// The colour of jump configuration `config` in pictures (a fixed palette of 8, repeating).
[[nodiscard]] std::string jump_config_color(std::size_t config);

/// A jump configuration's name in pictures and legends: its preset's name when it is one of the
/// thesis's configurations, "C2 (h 3 m, d 7.5 m, max fall 7.5 m)", else its parameters alone,
/// "(h 2 m, d 5 m, max fall 2 m)". Numbers in shortest round-trip form.
[[nodiscard]] std::string jump_config_label(const jump::JumpConfig& config);

/// Overlays drawing the (subsampled) links, per jump configuration that has drawn links, in
/// configuration order: an Arcs overlay from each start to both ends of its land segment (one
/// arc when the ends coincide), a Segments overlay of the land segments, and a Points overlay of
/// the start points, all in jump_config_color(c). The arcs carry the legend label
/// "jump <jump_config_label>: K of N links; ..." (K drawn of the configuration's N), e.g.
/// "jump C2 (h 3 m, d 7.5 m, max fall 7.5 m): ...". An empty set gives no overlays.
[[nodiscard]] std::vector<Overlay> jump_link_overlays(const jump::JumpLinkSet& links,
                                                      const JumpLinkOverlayOptions& options = {});

/// The colour of a ledge link kind in pictures and of the path segments of that kind: walk
/// #8c564b, step_up #2ca02c, step_down #98df8a, jump_up #ff7f0e, drop #9467bd, ladder #17becf.
[[nodiscard]] std::string ledge_kind_color(ledge::LedgeKind kind);

/// Overlays drawing ledge and ladder links, one Segments overlay per kind that has links (kind
/// order), in ledge_kind_color: each link as its source segment and the crossing from the
/// source segment's midpoint to the destination segment's midpoint. The legend label is
/// "<kind> links: N" (N links of that kind). An empty set gives no overlays.
[[nodiscard]] std::vector<Overlay> ledge_link_overlays(const ledge::LedgeLinkSet& links);

}  // namespace leapnav::io
