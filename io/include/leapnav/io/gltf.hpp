// Binary glTF 2.0 (.glb) export of a navmesh for 3-D viewers (three.js, Blender, game editors):
// the level's triangles, the navmesh polygons (fans, slightly lifted, coloured per vertex by region
// or area), their edges, jump links as arcs sampled from their parabola (thesis §7.2) with their
// land segments, and a path's walk polyline and jump arcs. Positions are world metres, y up, as
// glTF wants. Written with tinygltf (Debian's libtinygltf-dev).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::io {

/// How the navmesh polygons are coloured.
enum class GltfFill : std::uint8_t {
  Region,  ///< region_color(poly_region[p]), as the SVG pictures
  Area,    ///< region_color(poly_area[p]): one colour per area id
};

/// One piece of a path: a walk polyline, or a jump from points.front() to points.back().
struct GltfPathSegment {
  bool jump = false;
  std::vector<Vec3> points;    ///< walk: the corners; jump: take-off and landing [units: m]
  float jump_height = 0.0F;    ///< jump: apex above the take-off, h [units: m]
  float jump_distance = 0.0F;  ///< jump: the arc's distance d' (y(t) = 4h/d'^2 (d' t - t^2)) [m]
};

/// What goes into the file besides the navmesh. Pointers may be null (the node is then absent).
struct GltfContent {
  const TriangleMesh* level = nullptr;                 ///< node "level" (grey triangles)
  const jump::JumpLinkSet* links = nullptr;            ///< node "links"; must pass jump::validate
  const std::vector<GltfPathSegment>* path = nullptr;  ///< node "path" (when not empty)
};

struct GltfOptions {
  GltfFill fill = GltfFill::Region;
  /// Lift of the navmesh above the polygons' own heights, so it shows above the level's floor;
  /// edges are lifted 1.5x and the path 3x as much [units: m] [range: 0..10].
  float lift = 0.05F;
  /// Most links drawn [range: >= 0; 0 draws all]; a larger set is subsampled evenly by id, links
  /// floor(i * N / max_links) for i = 0 .. max_links - 1, as jump_link_overlays.
  std::size_t max_links = 0;
  /// Line segments per jump arc [range: 2..256].
  int arc_segments = 16;
};

/// The file as bytes (binary glTF 2.0: a 12-byte header, a JSON chunk, a BIN chunk). One scene
/// whose root nodes, in this order and each only when present, are:
///   "level"          TRIANGLES, POSITION, indices; a grey lit material
///   "navmesh"        TRIANGLES, POSITION, COLOR_0 (linear RGB), indices; unlit. Polygon p gives
///                    size(p) - 2 triangles, fans from its first vertex, in polygon order (so
///                    triangle t belongs to the polygon whose fan range holds t), wound
///                    counter-clockwise seen from above (+y)
///   "navmesh_edges"  LINES, POSITION, COLOR_0, indices: every polygon edge once, boundary edges
///                    dark, edges between polygons light
///   "links"          LINES, POSITION, COLOR_0 (jump_config_color of the link's configuration),
///                    indices. Per drawn link, arc_segments + 1 segments: the arc from its start to
///                    the middle of its land segment (a straight line when no arc of height h
///                    reaches it), then the land segment. extras: {"link_ids": [...],
///                    "segments_per_link": S, "configs": [{"label", "color"}, ...]}
///   "path"           LINES, POSITION, COLOR_0, indices: walk segments red, jump arcs pink
/// Every accessor of POSITION carries min and max. The navmesh node's extras hold {"polygons",
/// "fill"}. Errors (invalid_argument, index_out_of_range, non_finite) name the offending input:
/// options out of range, a level triangle index, a link's configuration, a non-finite point.
[[nodiscard]] Result<std::string> export_gltf(const mesh::NavMesh& navmesh,
                                              const GltfContent& content = {},
                                              const GltfOptions& options = {});

}  // namespace leapnav::io
