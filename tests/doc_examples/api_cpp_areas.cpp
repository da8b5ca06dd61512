// docs/api.md, the C++ block on areas. Given: level.obj, two slabs (doc_scenes.hpp) whose second
// slab is the OBJ group `water`, and areas.json mapping `water` to 9; `fail` prints the message
// and ends the example with 1. Checks: the table gives the second slab's triangles area 9, and the
// build has area-9 polygons on both slabs (the second by the table, the volume's on the first).
#include <algorithm>

#include "doc_scenes.hpp"

namespace {
int fail(const leapnav::Error& error) {
  std::fprintf(stderr, "api_cpp_areas: %s\n", error.message.c_str());
  return 1;
}
}  // namespace

int main() {
  {
    const leapnav::TriangleMesh slabs = doc::two_slabs();
    std::ofstream obj("level.obj");
    for (const auto& v : slabs.vertices) obj << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
    for (std::size_t t = 0; t < slabs.triangles.size(); ++t) {
      if (t == 0) obj << "g floor\n";
      if (t == slabs.triangles.size() / 2) obj << "g water\n";
      const auto& tri = slabs.triangles[t];
      obj << "f " << tri[0] + 1 << ' ' << tri[1] + 1 << ' ' << tri[2] + 1 << '\n';
    }
    std::ofstream("areas.json") << R"({"groups": {"water": 9}})";
  }

  // @example

  const auto& areas = level->areas;
  DOC_CHECK(areas.size() == 20 && std::count(areas.begin(), areas.end(), 9) == 10);
  leapnav::BuildContext ctx;
  auto built = leapnav::mesh::build_navmesh(*level, *leapnav::named_config("default"), ctx);
  if (!built) return fail(built.error());
  const auto& mesh = built->navmesh;
  bool water_left = false, water_right = false, ground_left = false;
  for (leapnav::mesh::PolyId p : mesh.polygon_ids()) {
    const auto index = static_cast<std::size_t>(p);
    float x = mesh.vertices[mesh.poly_vertices[mesh.poly_first[index]]].x;
    for (std::uint32_t k = mesh.poly_first[index]; k < mesh.poly_first[index + 1]; ++k)
      x = std::min(x, mesh.vertices[mesh.poly_vertices[k]].x);
    const bool left = x < 9.0F;
    water_left |= left && mesh.poly_area[index] == 9;
    water_right |= !left && mesh.poly_area[index] == 9;
    ground_left |= left && mesh.poly_area[index] == 63;
  }
  DOC_CHECK(water_left && water_right && ground_left);
  return doc::finish("api_cpp_areas");
}
