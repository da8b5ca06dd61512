// Fuzz target: path queries with arbitrary points (far outside, NaN, on vertices and edges) on a
// fixed navmesh (the built-in demo level). Every answer is an error for invalid input or a path
// whose points are finite and whose status is consistent.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

#include "leapnav/core/assert.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"

namespace {

struct Fixture {
  leapnav::mesh::NavMesh navmesh;
  std::optional<leapnav::plan::Planner> planner;
};

Fixture& fixture() {
  static Fixture f = [] {
    Fixture out;
    leapnav::BuildContext ctx;
    auto built = leapnav::mesh::build_navmesh(*leapnav::io::builtin_scene("demo"),
                                              *leapnav::named_config("default"), ctx);
    LEAPNAV_ASSERT(built.ok(), "the demo scene must build");
    out.navmesh = std::move(built->navmesh);
    return out;
  }();
  if (!f.planner) {
    auto planner = leapnav::plan::Planner::create(f.navmesh);
    LEAPNAV_ASSERT(planner.ok(), "the demo navmesh must plan");
    f.planner.emplace(std::move(planner).value());
  }
  return f;
}

float read_float(const std::uint8_t*& data, std::size_t& size, const leapnav::mesh::NavMesh& m) {
  if (size == 0) return 0.0F;
  const std::uint8_t mode = *data++;
  --size;
  // note: mode picks raw bits (NaN, inf, huge), a mesh vertex coordinate, or a small offset, so
  // the fuzzer reaches vertices and edges as well as garbage.
  if (mode % 3 == 0 && size >= 4) {
    float f = 0.0F;
    std::memcpy(&f, data, 4);
    data += 4;
    size -= 4;
    return f;
  }
  if (mode % 3 == 1 && !m.vertices.empty() && size >= 2) {
    const std::size_t v = (static_cast<std::size_t>(data[0]) << 8U | data[1]) % m.vertices.size();
    data += 2;
    size -= 2;
    return m.vertices[v].x;
  }
  return static_cast<float>(mode) * 0.25F - 10.0F;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Fixture& f = fixture();
  leapnav::plan::NavQuery query(*f.planner);
  while (size > 0) {
    leapnav::Vec3 a{read_float(data, size, f.navmesh), read_float(data, size, f.navmesh),
                    read_float(data, size, f.navmesh)};
    leapnav::Vec3 b{read_float(data, size, f.navmesh), read_float(data, size, f.navmesh),
                    read_float(data, size, f.navmesh)};
    const auto path = query.find_path(a, b);
    if (!path.ok()) {
      LEAPNAV_ASSERT(!leapnav::is_finite(a) || !leapnav::is_finite(b),
                     "find_path refused finite points");
      continue;
    }
    for (const leapnav::Vec3& p : path->points) {
      LEAPNAV_ASSERT(leapnav::is_finite(p), "a path point is not finite");
    }
    const bool has_points = !path->points.empty();
    const bool should = path->status == leapnav::plan::PathStatus::Found ||
                        path->status == leapnav::plan::PathStatus::Partial;
    LEAPNAV_ASSERT(has_points == should, "path points do not match the status");
    LEAPNAV_ASSERT(std::isfinite(path->length) && path->length >= 0.0, "bad path length");
  }
  return 0;
}
