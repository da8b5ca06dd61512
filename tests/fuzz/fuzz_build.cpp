// Fuzz target: the whole build on small random triangle soups with random valid configurations.
// Input bytes are decoded into a configuration (cell sizes, agent) and up to 64 triangles in a
// 20 m box; any result must be an error or a navmesh that passes validate().
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "leapnav/core/assert.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/mesh/build.hpp"

namespace {

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  [[nodiscard]] bool empty() const { return pos_ >= size_; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  /// A value in [lo, hi] from one byte.
  float unit(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(byte()) / 255.0F; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  leapnav::BuildConfig config = *leapnav::named_config(in.byte() % 2 == 0 ? "default" : "thesis");
  config.voxel.cell_size = in.unit(0.2F, 0.6F);
  config.voxel.cell_height = in.unit(0.1F, 0.4F);
  config.agent.height = in.unit(0.5F, 3.0F);
  config.agent.radius = in.unit(0.0F, 1.0F);
  config.agent.max_climb = in.unit(0.0F, 1.5F);
  config.agent.max_slope_deg = in.unit(0.0F, 89.0F);
  config.poly.max_verts_per_poly = 3 + in.byte() % 10;
  config.poly.detail_sample_dist = std::max(config.voxel.cell_size, config.poly.detail_sample_dist);
  if (!leapnav::validate(config).ok()) return 0;

  leapnav::TriangleMesh mesh;
  mesh.name = "fuzz";
  const int triangles = 1 + in.byte() % 64;
  for (int t = 0; t < triangles && !in.empty(); ++t) {
    for (int k = 0; k < 3; ++k) {
      mesh.vertices.push_back({in.unit(0, 20), in.unit(0, 6), in.unit(0, 20)});
    }
    const auto base = static_cast<std::uint32_t>(mesh.vertices.size() - 3);
    mesh.triangles.push_back({base, base + 1, base + 2});
  }
  // a floor under everything so that most inputs produce a mesh
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  mesh.vertices.insert(mesh.vertices.end(), {{0, 0, 0}, {0, 0, 20}, {20, 0, 20}, {20, 0, 0}});
  mesh.triangles.push_back({base, base + 1, base + 2});
  mesh.triangles.push_back({base, base + 2, base + 3});

  leapnav::BuildContext ctx;
  ctx.set_threads(1);
  ctx.set_memory_limit(std::uint64_t{512} << 20U);
  const auto out = leapnav::mesh::build_navmesh(mesh, config, ctx);
  if (out.ok()) {
    LEAPNAV_ASSERT(leapnav::mesh::validate(out->navmesh).ok(), "build produced an invalid navmesh");
  }
  return 0;
}
