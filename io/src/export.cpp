// JSON and OBJ exports of a NavMesh; the JSON is built with nlohmann::ordered_json so keys keep
// the documented order and the output is byte-identical for identical meshes.
#include "leapnav/io/export.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "leapnav/io/config_file.hpp"
#include "leapnav/io/text_format.hpp"

namespace leapnav::io {
namespace {

using Json = nlohmann::ordered_json;

double exact(float value) {
  return json_number(value);
}

Json vec3(Vec3 v) {
  return Json::array({exact(v.x), exact(v.y), exact(v.z)});
}

void append_vertex(std::string& out, Vec3 v) {
  append_obj_vertex(out, v);
}

}  // namespace

std::string export_navmesh_json(const mesh::NavMesh& m, const jump::JumpLinkSet* links) {
  Json root;
  Json vertices = Json::array();
  for (const Vec3& v : m.vertices) vertices.push_back(vec3(v));
  root["vertices"] = std::move(vertices);
  Json polygons = Json::array();
  for (std::size_t p = 0; p < m.polygon_count(); ++p) {
    const mesh::PolyId id{static_cast<std::uint32_t>(p)};
    Json poly;
    Json verts = Json::array();
    for (const std::uint32_t v : m.polygon(id)) verts.push_back(v);
    Json neighbors = Json::array();
    for (const std::uint32_t q : m.neighbors(id)) {
      if (q == mesh::kNoPoly) {
        neighbors.push_back(-1);
      } else {
        neighbors.push_back(q);
      }
    }
    poly["vertices"] = std::move(verts);
    poly["neighbors"] = std::move(neighbors);
    poly["region"] = p < m.poly_region.size() ? m.poly_region[p] : 0;
    poly["area"] = p < m.poly_area.size() ? m.poly_area[p] : 0;
    poly["flags"] = p < m.poly_flags.size() ? m.poly_flags[p] : 0;
    polygons.push_back(std::move(poly));
  }
  root["polygons"] = std::move(polygons);
  root["config"] = Json::parse(config_to_json(m.config));
  Json grid;
  grid["origin"] = vec3(m.grid.origin);
  grid["cell_size"] = exact(m.grid.cell_size);
  grid["cell_height"] = exact(m.grid.cell_height);
  grid["width"] = m.grid.width;
  grid["depth"] = m.grid.depth;
  grid["height"] = m.grid.height;
  root["grid"] = std::move(grid);
  if (links != nullptr) {
    Json out = Json::array();
    for (const jump::JumpLink& l : links->links) {
      Json link;
      link["start"] = vec3(l.start);
      link["land"] = Json::array({vec3(l.land_a), vec3(l.land_b)});
      // note: validate guarantees the index; the fallback keeps a bad set from reading out of range
      const jump::JumpConfig c =
          l.config < links->configs.size() ? links->configs[l.config] : jump::JumpConfig{};
      link["h"] = exact(c.height);
      link["d"] = exact(c.distance);
      link["max_fall"] = exact(c.max_fall);
      link["start_polygon"] = l.start_poly;
      link["land_polygon"] = l.land_poly;
      out.push_back(std::move(link));
    }
    root["links"] = std::move(out);
  }
  return root.dump() + "\n";
}

std::string export_navmesh_obj(const mesh::NavMesh& m, const jump::JumpLinkSet* links) {
  std::string out = "# leapnav navmesh: " + std::to_string(m.vertices.size()) + " vertices, " +
                    std::to_string(m.polygon_count()) + " polygons (config " + m.config.name +
                    ")\n";
  for (const Vec3& v : m.vertices) append_vertex(out, v);
  // group faces per region, regions ascending, polygons in index order within a region
  std::map<std::uint16_t, std::vector<std::size_t>> by_region;
  for (std::size_t p = 0; p < m.polygon_count(); ++p)
    by_region[p < m.poly_region.size() ? m.poly_region[p] : 0].push_back(p);
  for (const auto& [region, polys] : by_region) {
    out += "g region_" + std::to_string(region) + "\n";
    for (const std::size_t p : polys) {
      const auto poly = m.polygon(mesh::PolyId{static_cast<std::uint32_t>(p)});
      out += 'f';
      // note: reversed: OBJ viewers expect faces counter-clockwise seen from above (+y), and a
      // polygon counter-clockwise in (x, z) is clockwise seen from above.
      for (std::size_t k = poly.size(); k-- > 0;) out += " " + std::to_string(poly[k] + 1);
      out += '\n';
    }
  }
  if (links != nullptr) {
    out += "g jump_links\n";
    std::size_t next = m.vertices.size() + 1;  // OBJ indices are 1-based
    for (std::size_t k = 0; k < links->links.size(); ++k) {
      const jump::JumpLink& l = links->links[k];
      out += "# link " + std::to_string(k) + "\n";
      append_vertex(out, l.start);
      append_vertex(out, l.land_a);
      append_vertex(out, l.land_b);
      const std::string s = std::to_string(next);
      const std::string a = std::to_string(next + 1);
      const std::string b = std::to_string(next + 2);
      out += "l " + s + ' ' + a + "\nl " + s + ' ' + b + "\nl " + a + ' ' + b + '\n';
      next += 3;
    }
  }
  return out;
}

}  // namespace leapnav::io
