// docs/api.md, the C++ block. Given: the arrays of two 8 x 8 m slabs with a 2 m gap along x
// (doc_scenes.hpp), every triangle ground; start on the first slab, goal on the second; a few
// points for the spatial queries; `fail` prints the message and ends the example with 1.
// Checks what the block's comments say: the saved file is the CLI's byte for byte, the path is
// found with a jump, the sliced search gives find_path's path, the queries succeed.
#include "doc_scenes.hpp"

namespace {
int fail(const leapnav::Error& error) {
  std::fprintf(stderr, "api_cpp: %s\n", error.message.c_str());
  return 1;
}
int frames = 0;
void wait_for_next_frame() {
  ++frames;
}
}  // namespace

int main() {
  const leapnav::TriangleMesh slabs = doc::two_slabs();
  const std::vector<leapnav::Vec3> vertices = slabs.vertices;
  const std::vector<std::array<std::uint32_t, 3>> triangles = slabs.triangles;
  const std::vector<std::uint8_t> per_triangle_area_ids(triangles.size(), 63);
  doc::write_obj(slabs, "level.obj");
  const leapnav::Vec3 start{2.0F, 0.0F, 4.0F}, goal{16.0F, 0.0F, 4.0F};
  const leapnav::Vec3 end{7.0F, 0.0F, 7.0F}, point{4.0F, 0.5F, 4.0F}, centre{4.0F, 0.0F, 4.0F};
  const leapnav::Vec3 position{4.0F, 0.0F, 4.0F}, wanted{12.0F, 0.0F, 4.0F};
  const std::uint64_t seed = 1;

  // @example

  DOC_CHECK(saved);
  DOC_CHECK(!links->set.links.empty());
  if (doc::run_cli("build level.obj --jump C2 --step 4 -o cli.lnav"))
    DOC_CHECK(doc::read_bytes("cli.lnav") == doc::read_bytes("level.lnav"));
  DOC_CHECK(file->links.has_value());
  DOC_CHECK(path && path->status == leapnav::plan::PathStatus::Found && path->jump_count == 1);
  DOC_CHECK(sliced_status && sliced.points == path->points && sliced.length == path->length);
  DOC_CHECK(hit && hit->has_value());  // the ray leaves the slab before x = 7 ... or hits its edge
  DOC_CHECK(near && near->has_value());
  DOC_CHECK(polys && !polys->empty());
  DOC_CHECK(spawn && spawn->has_value());
  DOC_CHECK(slid && slid->has_value());
  DOC_CHECK(wall && wall->has_value());
  return doc::finish("api_cpp");
}
