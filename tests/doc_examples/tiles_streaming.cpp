// docs/tiles.md, "Streaming". Given: `using namespace leapnav;` (the block names plan::
// unqualified); `fail` prints the message and ends the example with 1; tiled_mesh, a 30 x 30 m
// floor built in 16-column tiles (7 x 7 tiles of 4.8 m); start at a polygon of tile 12, goal at the
// far corner. Checks what the block's comments say: an index >= tile_count() is InvalidArgument;
// after the unload the path is NoPath, blocked, unloaded_tile == 12; after the load the path is the
// one before the unload, bit for bit.
#include "doc_scenes.hpp"

using namespace leapnav;

namespace {
// note: the error handling the block calls (docs/api.md's convention)
int fail(const Error& error) {
  std::fprintf(stderr, "tiles_streaming: %s\n", error.message.c_str());
  return 1;
}
}  // namespace

int main() {
  TriangleMesh floor;
  floor.name = "floor";
  doc::add_box(floor, {0.0F, -0.5F, 0.0F}, {30.0F, 0.0F, 30.0F});
  BuildContext ctx;
  auto tiled =
      mesh::build_tiled_navmesh(floor, *named_config("default"), mesh::TileConfig{16}, ctx);
  if (!tiled) return fail(tiled.error());
  const mesh::NavMesh& tiled_mesh = tiled->navmesh;
  DOC_CHECK(tiled_mesh.tile_poly_first.size() == 50 &&
            tiled_mesh.tile_poly_first[12] < tiled_mesh.tile_poly_first[13]);
  // the start: the centroid of tile 12's first polygon
  Vec3 start{0.0F, 0.0F, 0.0F};
  {
    const std::uint32_t p = tiled_mesh.tile_poly_first[12];
    const std::uint32_t first = tiled_mesh.poly_first[p], last = tiled_mesh.poly_first[p + 1];
    for (std::uint32_t k = first; k < last; ++k) {
      start.x +=
          tiled_mesh.vertices[tiled_mesh.poly_vertices[k]].x / static_cast<float>(last - first);
      start.z +=
          tiled_mesh.vertices[tiled_mesh.poly_vertices[k]].z / static_cast<float>(last - first);
    }
  }
  const Vec3 goal{29.0F, 0.0F, 29.0F};
  auto before = plan::Planner::create(tiled_mesh);
  if (!before) return 1;
  auto before_path = plan::NavQuery(*before).find_path(start, goal);
  DOC_CHECK(before_path && before_path->status == plan::PathStatus::Found);

  // @example

  DOC_CHECK(path && path->status == plan::PathStatus::NoPath && path->blocked_by_unloaded_tiles &&
            path->unloaded_tile == 12);
  auto beyond = planner->unload_tile(planner->tile_count());
  DOC_CHECK(!beyond && beyond.error().code == ErrorCode::InvalidArgument);
  auto reloaded = plan::NavQuery(*planner).find_path(start, goal);
  DOC_CHECK(reloaded && reloaded->points == before_path->points &&
            reloaded->length == before_path->length && reloaded->corridor == before_path->corridor);
  return doc::finish("tiles_streaming");
}
