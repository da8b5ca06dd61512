// Postures (seeds spec A8, area variant; G7): a crouching agent walks under a low arch through
// crouch polygons whose border with the standing floor lies where the standing mesh ends (the
// arch's footprint grown by the radius), and a query that forbids crouching finds no path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "io/svg_checks.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/render.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/validate.hpp"
#include "leapnav/planning/query.hpp"
#include "support/shared_data.hpp"
#include "voxel/scenes.hpp"

using namespace leapnav;

namespace {

/// G7 in y-up: a 10 x 4 m floor at y = 0 and a slab y in [1.2, 2] over x in [4, 6], z in [0, 4].
TriangleMesh archway() {
  TriangleMesh mesh;
  mesh.name = "archway";
  voxel::test::add_quad(mesh, 0.0F, 0.0F, 10.0F, 4.0F, 0.0F);
  voxel::test::add_box(mesh, {4.0F, 1.2F, 0.0F}, {6.0F, 2.0F, 4.0F});
  return mesh;
}

/// Standing height 1.8 m, crouching 1.0 m, radius 0.3 m on 0.1 m cells.
BuildConfig archway_config(float crouch_height) {
  BuildConfig config = *named_config("default");
  config.voxel = {0.1F, 0.1F};
  config.agent.height = 1.8F;
  config.agent.radius = 0.3F;
  config.agent.max_climb = 0.4F;
  config.agent.crouch_height = crouch_height;
  config.region.min_region_area = 0.64F;
  config.region.merge_region_area = 4.0F;
  return config;
}

mesh::BuildOutput build(const TriangleMesh& input, const BuildConfig& config) {
  BuildContext ctx;
  auto built = mesh::build_navmesh(input, config, ctx);
  REQUIRE_MESSAGE(built.ok(), (built.ok() ? "" : built.error().message));
  return std::move(*built);
}

bool crouch(const mesh::NavMesh& nav, std::uint32_t p) {
  return (nav.poly_flags[p] & mesh::kPolyFlagCrouch) != 0;
}

/// The x range of polygon p's vertices.
std::pair<float, float> x_range(const mesh::NavMesh& nav, std::uint32_t p) {
  float lo = 1e30F;
  float hi = -1e30F;
  for (const auto v : nav.polygon(mesh::PolyId{p})) {
    lo = std::min(lo, nav.vertices[v].x);
    hi = std::max(hi, nav.vertices[v].x);
  }
  return {lo, hi};
}

}  // namespace

TEST_SUITE("mesh.postures") {
  TEST_CASE(
      "the archway's crouch polygons fill the standing mesh's gap, bordered at x = 3.7, 6.3") {
    const mesh::BuildOutput out = build(archway(), archway_config(1.0F));
    const mesh::NavMesh& nav = out.navmesh;
    const Status valid = mesh::validate_against(nav, out.voxels.compact, nav.config);
    REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
    constexpr float kCell = 0.1F;
    double crouch_area = 0.0;
    int crouch_polygons = 0;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
      // note: named variables, not a structured binding (clang cannot capture one)
      const std::pair<float, float> range = x_range(nav, p);
      const float lo = range.first;
      const float hi = range.second;
      CAPTURE(p);
      CAPTURE(lo);
      CAPTURE(hi);
      if (nav.vertices[nav.polygon(mesh::PolyId{p})[0]].y > 1.0F) {
        CHECK_FALSE(crouch(nav, p));  // the top of the slab is open to the sky
        continue;
      }
      // the floor: crouch polygons exactly in [3.7, 6.3] (to a cell), standing ones outside
      if (crouch(nav, p)) {
        ++crouch_polygons;
        crouch_area += mesh::polygon_area(nav, mesh::PolyId{p});
        CHECK(lo >= 3.7F - kCell - 1e-4F);
        CHECK(hi <= 6.3F + kCell + 1e-4F);
      } else {
        CHECK((hi <= 3.7F + kCell + 1e-4F || lo >= 6.3F - kCell - 1e-4F));
      }
      CHECK(nav.poly_area[p] == voxel::kWalkableArea);
    }
    CHECK(crouch_polygons > 0);
    // 2.6 m wide, 3.4 m deep (the floor's border eroded by 0.3 m)
    CHECK(crouch_area == doctest::Approx(2.6 * 3.4).epsilon(0.05));
  }

  TEST_CASE("standing only there is no path through the archway; crouching crosses 2 transitions") {
    const TriangleMesh input = archway();
    const Vec3 from{1.0F, 0.0F, 2.0F};
    const Vec3 to{9.0F, 0.0F, 2.0F};
    {
      // a standing agent: the floor under the arch is not walkable at all
      const mesh::BuildOutput out = build(input, archway_config(0.0F));
      auto path = plan::find_path(out.navmesh, from, to);
      REQUIRE(path.ok());
      CHECK(path->status == plan::PathStatus::NoPath);
      for (std::uint32_t p = 0; p < out.navmesh.polygon_count(); ++p)
        CHECK_FALSE(crouch(out.navmesh, p));
    }
    const mesh::BuildOutput out = build(input, archway_config(1.0F));
    auto planner = plan::Planner::create(out.navmesh);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions standing;
    standing.crouch = false;
    auto blocked = query.find_path(from, to, standing);
    REQUIRE(blocked.ok());
    CHECK(blocked->status == plan::PathStatus::NoPath);

    auto path = query.find_path(from, to);
    REQUIRE(path.ok());
    REQUIRE(path->status == plan::PathStatus::Found);
    // stand, crouch, stand: two crouch transitions, at the ends of the standing mesh
    REQUIRE(path->segments.size() == 3);
    CHECK(path->segments[0].posture == plan::Posture::Stand);
    CHECK(path->segments[1].posture == plan::Posture::Crouch);
    CHECK(path->segments[2].posture == plan::Posture::Stand);
    for (std::size_t k = 1; k < path->segments.size(); ++k) {
      CHECK(path->segments[k].first == path->segments[k - 1].last);
      CHECK(path->segments[k].corridor_first == path->segments[k - 1].corridor_last + 1);
    }
    CHECK(path->segments.front().first == 0);
    CHECK(path->segments.back().last + 1 == path->points.size());
    CHECK(path->segments.back().corridor_last + 1 == path->corridor.size());
    int transitions = 0;
    for (std::size_t k = 0; k + 1 < path->corridor.size(); ++k)
      transitions += crouch(out.navmesh, mesh::index(path->corridor[k])) !=
                     crouch(out.navmesh, mesh::index(path->corridor[k + 1]));
    CHECK(transitions == 2);
    const Vec3 enter = path->points[path->segments[1].first];
    const Vec3 leave = path->points[path->segments[1].last];
    CHECK(enter.x == doctest::Approx(3.7).epsilon(0.03));
    CHECK(leave.x == doctest::Approx(6.3).epsilon(0.03));
    CHECK(std::abs(enter.y - 0.1F) <= 0.1F + 1e-4F);  // the floor's voxel top, to a cell
    // every segment's polygons have its posture
    for (const plan::PathSegment& s : path->segments) {
      for (std::uint32_t k = s.corridor_first; k <= s.corridor_last; ++k)
        CHECK(crouch(out.navmesh, mesh::index(path->corridor[k])) ==
              (s.posture == plan::Posture::Crouch));
    }
    // the straight path: cutting it at the transitions keeps its length
    CHECK(path->length == doctest::Approx(8.0).epsilon(1e-4));
    CHECK(path->points.size() == 4);
  }

  TEST_CASE("pictures draw crouch polygons in their own colour with a legend row") {
    const mesh::BuildOutput out = build(archway(), archway_config(1.0F));
    const mesh::NavMesh& nav = out.navmesh;
    std::size_t crouch_polygons = 0;
    for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) crouch_polygons += crouch(nav, p);
    REQUIRE(crouch_polygons > 0);
    for (const io::FillMode fill : {io::FillMode::Region, io::FillMode::Height}) {
      io::RenderOptions options;
      options.fill = fill;
      const std::string svg = io::render_svg(nav, options);
      test::check_numbers(svg);
      CHECK(test::count_of(svg, "data-crouch=\"1\" fill=\"#4b1d6e\"") == crouch_polygons);
      CHECK(test::count_of(svg, "fill=\"#4b1d6e\"") == crouch_polygons + 1);  // + the swatch
      CHECK(test::count_of(svg, std::to_string(crouch_polygons) + " crouch polygon") == 1);
    }
    // without crouch polygons the picture has no crouch colour and no such row
    const mesh::BuildOutput standing = build(archway(), archway_config(0.0F));
    const std::string svg = io::render_svg(standing.navmesh, {});
    CHECK(test::count_of(svg, "#4b1d6e") == 0);
    CHECK(test::count_of(svg, "crouch") == 0);
  }

  TEST_CASE("the navmesh file keeps crouch_height and shape; other files carry no agnt chunk") {
    BuildConfig config = archway_config(1.0F);
    config.agent.shape = AgentShape::Box;
    const mesh::BuildOutput out = build(archway(), config);
    const auto bytes = io::encode_navmesh(out.navmesh);
    auto back = io::decode_navmesh(bytes, "arch.lnav");
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
    CHECK(back->config == out.navmesh.config);
    CHECK(mesh::content_hash(*back) == mesh::content_hash(out.navmesh));
    const auto has_agent_chunk = [](const std::vector<std::byte>& data) {
      const std::string text(reinterpret_cast<const char*>(data.data()), data.size());
      return text.find("agnt") != std::string::npos;
    };
    CHECK(has_agent_chunk(bytes));
    const mesh::BuildOutput standing = build(archway(), archway_config(0.0F));
    CHECK_FALSE(has_agent_chunk(io::encode_navmesh(standing.navmesh)));
  }

  TEST_CASE("a damaged agnt chunk is a corrupt file naming the chunk and the problem") {
    const mesh::BuildOutput out = build(archway(), archway_config(1.0F));
    const std::vector<std::byte> good = io::encode_navmesh(out.navmesh);
    const std::string text(reinterpret_cast<const char*>(good.data()), good.size());
    const std::size_t tag = text.find("agnt");
    REQUIRE(tag != std::string::npos);
    const std::size_t payload = tag + 12;  // tag, u64 size
    // patches bytes of the payload and the checksum after it
    const auto patched = [&](std::size_t at, const void* value, std::size_t size) {
      std::vector<std::byte> bytes = good;
      std::memcpy(bytes.data() + payload + at, value, size);
      ContentHasher hasher;
      hasher.add_bytes(bytes.data(), bytes.size() - 8);
      const std::uint64_t sum = hasher.digest();
      std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);  // little-endian host
      return bytes;
    };
    const std::uint8_t shape = 7;
    auto bad_shape = io::decode_navmesh(patched(4, &shape, 1), "arch.lnav");
    REQUIRE_FALSE(bad_shape.ok());
    CHECK(bad_shape.error().code == ErrorCode::CorruptFile);
    CHECK(bad_shape.error().message.find("'agnt'") != std::string::npos);
    CHECK(bad_shape.error().message.find("unknown agent shape 7") != std::string::npos);
    const float too_high = 5.0F;
    auto bad_crouch = io::decode_navmesh(patched(0, &too_high, 4), "arch.lnav");
    REQUIRE_FALSE(bad_crouch.ok());
    CHECK(bad_crouch.error().message.find("agent.crouch_height") != std::string::npos);
  }

  TEST_CASE("crouch builds of the real levels pass the navmesh checks; crouch polygons are low") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      CAPTURE(file);
      const auto path = test::shared_mesh(file);
      if (!path) continue;
      auto triangles = io::load_obj(path->string());
      REQUIRE(triangles.ok());
      BuildConfig config = *named_config("default");
      config.agent.crouch_height = 1.2F;
      const mesh::BuildOutput out = build(*triangles, config);
      const mesh::NavMesh& nav = out.navmesh;
      const Status valid = mesh::validate_against(nav, out.voxels.compact, config);
      CHECK_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
      // every crouch polygon's spans: under a ceiling lower than the agent (or within the
      // radius of one); every standing polygon's spans have the standing clearance
      const voxel::CompactHeightfield& chf = out.voxels.compact;
      const int standing = derive_voxel_params(config).standing_height;
      std::size_t crouch_polygons = 0;
      for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) crouch_polygons += crouch(nav, p);
      // note: dungeon's low places are all smaller than region.min_region_area
      if (std::string(file) == "nav_test.obj") CHECK(crouch_polygons > 0);
      std::size_t low_in_crouch = 0;
      for (std::size_t s = 0; s < chf.spans.size(); ++s) {
        const std::uint32_t p = nav.span_poly[s];
        if (p == mesh::kNoPoly) continue;
        const bool low = int{chf.spans[s].clearance} < standing;
        if (low) CHECK(crouch(nav, p));
        low_in_crouch += low ? 1 : 0;
        CHECK(((chf.areas[s] & voxel::kCrouchAreaBit) != 0) == crouch(nav, p));
      }
      if (std::string(file) == "nav_test.obj") CHECK(low_in_crouch > 0);
      MESSAGE(file << ": " << crouch_polygons << " crouch polygons of " << nav.polygon_count());
    }
  }
}
