// Binary glTF 2.0 export. Geometry is gathered per node into flat float/uint32 arrays (positions,
// linear RGB colours, indices), then laid out in one buffer (each node's views back to back,
// 4-byte aligned) and serialised by tinygltf as GLB. Jump arcs follow the thesis's parabola
// (§7.2): y(t) = 4h/d'^2 (d' t - t^2) above the take-off, t the horizontal distance along the
// jump, d' fitted so the arc passes through the landing (jump::fit_distance).
// note: tinygltf is used header-only (no images, no file system), so the io library gains no link
// dependency; its implementation is compiled in this file alone.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include "leapnav/io/gltf.hpp"

#include <tiny_gltf.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <sstream>

#include "leapnav/io/render.hpp"
#include "leapnav/jumplinks/trajectory.hpp"

namespace leapnav::io {
namespace {

using Rgb = std::array<float, 3>;

/// "#rrggbb" (sRGB) as linear RGB, the colour space of glTF's COLOR_0 and baseColorFactor.
Rgb linear_rgb(const std::string& hex) {
  Rgb out{0.0F, 0.0F, 0.0F};
  if (hex.size() != 7 || hex[0] != '#') return out;
  for (std::size_t c = 0; c < 3; ++c) {
    const unsigned long v = std::stoul(hex.substr(1 + 2 * c, 2), nullptr, 16);
    const double s = static_cast<double>(v) / 255.0;
    const double l = s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    out[c] = static_cast<float>(l);
  }
  return out;
}

/// One node's geometry: positions, per-vertex colours and indices (triangles or line pairs).
struct Geometry {
  std::vector<float> positions;
  std::vector<float> colors;
  std::vector<std::uint32_t> indices;

  [[nodiscard]] std::uint32_t vertex_count() const {
    return static_cast<std::uint32_t>(positions.size() / 3);
  }
  std::uint32_t add(Vec3 p, const Rgb& color) {
    const std::uint32_t i = vertex_count();
    positions.insert(positions.end(), {p.x, p.y, p.z});
    colors.insert(colors.end(), color.begin(), color.end());
    return i;
  }
  void line(std::uint32_t a, std::uint32_t b) { indices.insert(indices.end(), {a, b}); }
  /// A polyline through `points` as separate LINES segments.
  void polyline(const std::vector<Vec3>& points, const Rgb& color) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::uint32_t v = add(points[i], color);
      if (i > 0) line(v - 1, v);
    }
  }
};

/// Points of the jump arc with apex `height` from `start` to `land`, segments + 1 of them (both
/// ends included); a straight line when no arc of that height passes through both.
std::vector<Vec3> jump_arc(Vec3 start, Vec3 land, double height, double distance, int segments) {
  const double dx = double(land.x) - start.x;
  const double dz = double(land.z) - start.z;
  const double dy = double(land.y) - start.y;
  const double horizontal = std::hypot(dx, dz);
  if (!(distance > 0.0)) distance = jump::fit_distance(height, start, land);
  const bool arc = distance > 0.0 && horizontal > 0.0 && height > 0.0;
  std::vector<Vec3> out;
  out.reserve(static_cast<std::size_t>(segments) + 1);
  for (int i = 0; i <= segments; ++i) {
    const double f = static_cast<double>(i) / segments;
    const double t = f * horizontal;
    const double rise =
        arc ? 4.0 * height / (distance * distance) * (distance * t - t * t) : f * dy;
    out.push_back({static_cast<float>(start.x + f * dx), static_cast<float>(start.y + rise),
                   static_cast<float>(start.z + f * dz)});
  }
  // note: the last point is the landing itself, not the parabola evaluated in floating point
  out.back() = land;
  return out;
}

class GlbWriter {
 public:
  GlbWriter() {
    model_.asset.version = "2.0";
    model_.asset.generator = "leapnav";
    model_.buffers.emplace_back();
    model_.scenes.emplace_back();
    model_.defaultScene = 0;
  }

  /// A material: lit grey (unlit = false) or unlit white that shows the vertex colours.
  int material(const std::string& name, bool unlit, double grey) {
    tinygltf::Material m;
    m.name = name;
    m.pbrMetallicRoughness.baseColorFactor = {grey, grey, grey, 1.0};
    m.pbrMetallicRoughness.metallicFactor = 0.0;
    m.pbrMetallicRoughness.roughnessFactor = 1.0;
    m.doubleSided = true;
    if (unlit) {
      m.extensions["KHR_materials_unlit"] = tinygltf::Value(tinygltf::Value::Object());
      if (std::find(model_.extensionsUsed.begin(), model_.extensionsUsed.end(),
                    "KHR_materials_unlit") == model_.extensionsUsed.end())
        model_.extensionsUsed.emplace_back("KHR_materials_unlit");
    }
    model_.materials.push_back(std::move(m));
    return static_cast<int>(model_.materials.size()) - 1;
  }

  /// A root node named `name` with one primitive of `geometry` (mode TRIANGLES or LINES).
  void node(const std::string& name, const Geometry& geometry, int mode, int material,
            tinygltf::Value extras = {}) {
    // note: glTF accessors hold at least one element, so a node without geometry is left out
    if (geometry.indices.empty()) return;
    tinygltf::Primitive primitive;
    primitive.mode = mode;
    primitive.material = material;
    const std::uint32_t n = geometry.vertex_count();
    std::vector<double> lo(3, 0.0);
    std::vector<double> hi(3, 0.0);
    for (std::uint32_t v = 0; v < n; ++v) {
      for (std::size_t c = 0; c < 3; ++c) {
        const double x = geometry.positions[3 * v + c];
        lo[c] = v == 0 ? x : std::min(lo[c], x);
        hi[c] = v == 0 ? x : std::max(hi[c], x);
      }
    }
    primitive.attributes["POSITION"] =
        accessor(view(geometry.positions, TINYGLTF_TARGET_ARRAY_BUFFER),
                 TINYGLTF_COMPONENT_TYPE_FLOAT, n, TINYGLTF_TYPE_VEC3, lo, hi);
    if (!geometry.colors.empty())
      primitive.attributes["COLOR_0"] =
          accessor(view(geometry.colors, TINYGLTF_TARGET_ARRAY_BUFFER),
                   TINYGLTF_COMPONENT_TYPE_FLOAT, n, TINYGLTF_TYPE_VEC3, {}, {});
    primitive.indices = accessor(view(geometry.indices, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER),
                                 TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, geometry.indices.size(),
                                 TINYGLTF_TYPE_SCALAR, {}, {});
    tinygltf::Mesh mesh;
    mesh.name = name;
    mesh.primitives.push_back(std::move(primitive));
    model_.meshes.push_back(std::move(mesh));
    tinygltf::Node node;
    node.name = name;
    node.mesh = static_cast<int>(model_.meshes.size()) - 1;
    node.extras = std::move(extras);
    model_.nodes.push_back(std::move(node));
    model_.scenes[0].nodes.push_back(static_cast<int>(model_.nodes.size()) - 1);
  }

  [[nodiscard]] Result<std::string> finish() {
    model_.buffers[0].data = std::move(bin_);
    std::ostringstream out(std::ios::binary);
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToStream(&model_, out, false, true))
      return make_error(ErrorCode::Internal, "gltf: tinygltf could not serialise the model");
    return out.str();
  }

 private:
  template <typename T>
  int view(const std::vector<T>& data, int target) {
    static_assert(sizeof(T) == 4);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = bin_.size();
    v.byteLength = data.size() * sizeof(T);
    v.target = target;
    bin_.resize(bin_.size() + v.byteLength);
    if (v.byteLength > 0) std::memcpy(bin_.data() + v.byteOffset, data.data(), v.byteLength);
    model_.bufferViews.push_back(v);
    return static_cast<int>(model_.bufferViews.size()) - 1;
  }

  int accessor(int buffer_view, int component, std::size_t count, int type, std::vector<double> lo,
               std::vector<double> hi) {
    tinygltf::Accessor a;
    a.bufferView = buffer_view;
    a.componentType = component;
    a.count = count;
    a.type = type;
    a.minValues = std::move(lo);
    a.maxValues = std::move(hi);
    model_.accessors.push_back(std::move(a));
    return static_cast<int>(model_.accessors.size()) - 1;
  }

  tinygltf::Model model_;
  std::vector<unsigned char> bin_;
};

Status check_options(const GltfOptions& options) {
  if (!(options.lift >= 0.0F && options.lift <= 10.0F))
    return make_error(ErrorCode::InvalidArgument, "gltf: lift = " + std::to_string(options.lift) +
                                                      " is out of range (0..10 m)");
  if (options.arc_segments < 2 || options.arc_segments > 256)
    return make_error(ErrorCode::InvalidArgument,
                      "gltf: arc_segments = " + std::to_string(options.arc_segments) +
                          " is out of range (2..256)");
  return {};
}

Status check_level(const TriangleMesh& level) {
  const std::string name = level.name.empty() ? "level" : level.name;
  for (std::size_t v = 0; v < level.vertices.size(); ++v)
    if (!is_finite(level.vertices[v]))
      return make_error(ErrorCode::NonFinite,
                        name + ": vertex " + std::to_string(v) + " is not finite");
  for (std::size_t t = 0; t < level.triangles.size(); ++t)
    for (const std::uint32_t i : level.triangles[t])
      if (i >= level.vertices.size())
        return make_error(ErrorCode::IndexOutOfRange,
                          name + ": triangle " + std::to_string(t) + " index " + std::to_string(i) +
                              " out of range (" + std::to_string(level.vertices.size()) +
                              " vertices)");
  return {};
}

Status check_path(const std::vector<GltfPathSegment>& path) {
  for (std::size_t s = 0; s < path.size(); ++s) {
    for (const Vec3& p : path[s].points)
      if (!is_finite(p))
        return make_error(ErrorCode::NonFinite,
                          "gltf: path segment " + std::to_string(s) + " has a non-finite point");
    if (path[s].jump && path[s].points.size() < 2)
      return make_error(ErrorCode::InvalidArgument,
                        "gltf: path segment " + std::to_string(s) + " is a jump with " +
                            std::to_string(path[s].points.size()) + " points (needs 2)");
  }
  return {};
}

Geometry level_geometry(const TriangleMesh& level) {
  Geometry g;
  g.positions.reserve(level.vertices.size() * 3);
  for (const Vec3& v : level.vertices) g.positions.insert(g.positions.end(), {v.x, v.y, v.z});
  g.indices.reserve(level.triangles.size() * 3);
  // note: OBJ levels are wound counter-clockwise seen from outside, as glTF wants
  for (const auto& t : level.triangles) g.indices.insert(g.indices.end(), t.begin(), t.end());
  return g;
}

Geometry navmesh_geometry(const mesh::NavMesh& m, const GltfOptions& options) {
  Geometry g;
  const Vec3 lift{0.0F, options.lift, 0.0F};
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    const auto poly = m.polygon(mesh::PolyId{p});
    const std::uint16_t key = options.fill == GltfFill::Region
                                  ? (p < m.poly_region.size() ? m.poly_region[p] : 0)
                                  : (p < m.poly_area.size() ? m.poly_area[p] : 0);
    const Rgb color = linear_rgb(region_color(key));
    const std::uint32_t first = g.vertex_count();
    for (const std::uint32_t v : poly) g.add(m.vertices[v] + lift, color);
    // note: the polygons are counter-clockwise in (x, z), which is clockwise seen from +y; the
    // fan is reversed so that the triangles face up
    for (std::uint32_t k = 1; k + 1 < poly.size(); ++k)
      g.indices.insert(g.indices.end(), {first, first + k + 1, first + k});
  }
  return g;
}

Geometry edge_geometry(const mesh::NavMesh& m, const GltfOptions& options) {
  Geometry g;
  const Vec3 lift{0.0F, 1.5F * options.lift, 0.0F};
  const Rgb boundary = linear_rgb("#1a1a1a");
  const Rgb internal = linear_rgb("#f4f4f4");
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    const auto poly = m.polygon(mesh::PolyId{p});
    const auto nbs = m.neighbors(mesh::PolyId{p});
    for (std::size_t k = 0; k < poly.size(); ++k) {
      // note: an edge between two polygons is written once, by the lower-numbered polygon
      if (nbs[k] != mesh::kNoPoly && nbs[k] < p) continue;
      const Rgb& color = nbs[k] == mesh::kNoPoly ? boundary : internal;
      const std::uint32_t a = g.add(m.vertices[poly[k]] + lift, color);
      const std::uint32_t b = g.add(m.vertices[poly[(k + 1) % poly.size()]] + lift, color);
      g.line(a, b);
    }
  }
  return g;
}

Geometry link_geometry(const jump::JumpLinkSet& links, const GltfOptions& options,
                       std::vector<std::uint32_t>& drawn_ids) {
  Geometry g;
  const std::size_t n = links.links.size();
  const std::size_t drawn = options.max_links == 0 ? n : std::min(n, options.max_links);
  std::vector<Rgb> colors;
  for (std::size_t c = 0; c < links.configs.size(); ++c)
    colors.push_back(linear_rgb(jump_config_color(c)));
  for (std::size_t i = 0; i < drawn; ++i) {
    // note: link ids are 32-bit and i < drawn <= n, so i * n fits in 64 bits exactly
    const auto k = static_cast<std::size_t>(std::uint64_t{i} * n / drawn);
    const jump::JumpLink& l = links.links[k];
    const jump::JumpConfig& config = links.configs[l.config];
    const Vec3 middle = (l.land_a + l.land_b) * 0.5F;
    g.polyline(jump_arc(l.start, middle, config.height, -1.0, options.arc_segments),
               colors[l.config]);
    g.line(g.add(l.land_a, colors[l.config]), g.add(l.land_b, colors[l.config]));
    drawn_ids.push_back(static_cast<std::uint32_t>(k));
  }
  return g;
}

Geometry path_geometry(const std::vector<GltfPathSegment>& path, const GltfOptions& options) {
  Geometry g;
  const Vec3 lift{0.0F, 3.0F * options.lift, 0.0F};
  const Rgb walk = linear_rgb("#d62728");
  const Rgb jump = linear_rgb("#e377c2");
  for (const GltfPathSegment& s : path) {
    std::vector<Vec3> points;
    if (s.jump) {
      points = jump_arc(s.points.front(), s.points.back(), s.jump_height, s.jump_distance,
                        options.arc_segments);
    } else {
      points = s.points;
    }
    for (Vec3& p : points) p = p + lift;
    g.polyline(points, s.jump ? jump : walk);
  }
  return g;
}

}  // namespace

Result<std::string> export_gltf(const mesh::NavMesh& navmesh, const GltfContent& content,
                                const GltfOptions& options) {
  LEAPNAV_TRY(check_options(options));
  if (content.level != nullptr) LEAPNAV_TRY(check_level(*content.level));
  if (content.links != nullptr) {
    for (std::size_t k = 0; k < content.links->links.size(); ++k)
      if (content.links->links[k].config >= content.links->configs.size())
        return make_error(ErrorCode::IndexOutOfRange,
                          "gltf: jump link " + std::to_string(k) + " has configuration " +
                              std::to_string(content.links->links[k].config) + " of " +
                              std::to_string(content.links->configs.size()));
  }
  if (content.path != nullptr) LEAPNAV_TRY(check_path(*content.path));

  GlbWriter writer;
  if (content.level != nullptr && !content.level->triangles.empty()) {
    const int grey = writer.material("level", false, 0.55);
    writer.node("level", level_geometry(*content.level), TINYGLTF_MODE_TRIANGLES, grey);
  }
  if (navmesh.polygon_count() > 0) {
    const int unlit = writer.material("navmesh", true, 1.0);
    tinygltf::Value::Object extras;
    extras["polygons"] = tinygltf::Value(static_cast<int>(navmesh.polygon_count()));
    extras["fill"] =
        tinygltf::Value(std::string(options.fill == GltfFill::Region ? "region" : "area"));
    writer.node("navmesh", navmesh_geometry(navmesh, options), TINYGLTF_MODE_TRIANGLES, unlit,
                tinygltf::Value(std::move(extras)));
    const int lines = writer.material("lines", true, 1.0);
    writer.node("navmesh_edges", edge_geometry(navmesh, options), TINYGLTF_MODE_LINE, lines);
    if (content.links != nullptr && !content.links->links.empty()) {
      std::vector<std::uint32_t> ids;
      const Geometry links = link_geometry(*content.links, options, ids);
      tinygltf::Value::Array id_values;
      id_values.reserve(ids.size());
      for (const std::uint32_t id : ids) id_values.emplace_back(static_cast<int>(id));
      tinygltf::Value::Array configs;
      for (std::size_t c = 0; c < content.links->configs.size(); ++c) {
        tinygltf::Value::Object config;
        config["label"] = tinygltf::Value(jump_config_label(content.links->configs[c]));
        config["color"] = tinygltf::Value(jump_config_color(c));
        configs.emplace_back(std::move(config));
      }
      tinygltf::Value::Object link_extras;
      link_extras["link_ids"] = tinygltf::Value(std::move(id_values));
      link_extras["segments_per_link"] = tinygltf::Value(options.arc_segments + 1);
      link_extras["configs"] = tinygltf::Value(std::move(configs));
      writer.node("links", links, TINYGLTF_MODE_LINE, lines,
                  tinygltf::Value(std::move(link_extras)));
    }
    if (content.path != nullptr && !content.path->empty()) {
      writer.node("path", path_geometry(*content.path, options), TINYGLTF_MODE_LINE, lines);
    }
  }
  return writer.finish();
}

}  // namespace leapnav::io
