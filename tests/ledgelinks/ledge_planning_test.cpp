// Ledge and ladder links in planning (through the merged jump-link set), in the .lnav file, and
// authored ladders: the spec's G8 (ground and roof joined only by a ladder).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/links_file.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/ledgelinks/ladders.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/ledge_planner.hpp"
#include "leapnav/planning/query.hpp"
#include "ledgelinks/ledge_fixtures.hpp"

using namespace leapnav;

namespace {

BuildConfig config() {
  return test::ledge_config();
}

struct Level {
  TriangleMesh triangles;
  mesh::NavMesh navmesh;
  ledge::LedgeLinkSet ledges;
};

Level build(TriangleMesh triangles, bool ledges = true) {
  Level level;
  level.triangles = std::move(triangles);
  BuildContext ctx;
  auto out = mesh::build_navmesh(level.triangles, config(), ctx);
  REQUIRE(out.ok());
  level.navmesh = std::move(out->navmesh);
  if (ledges) {
    auto set = ledge::build_ledge_links(level.navmesh, &level.triangles, {}, ctx);
    REQUIRE(set.ok());
    level.ledges = std::move(*set);
  }
  return level;
}

plan::Path find(const Level& level, Vec3 from, Vec3 to, bool ledge_links = true) {
  auto planner = plan::create_planner(std::make_shared<const mesh::NavMesh>(level.navmesh), nullptr,
                                      &level.ledges);
  REQUIRE(planner.ok());
  plan::NavQuery query(*planner);
  plan::QueryOptions options;
  options.ledge_links = ledge_links;
  auto path = query.find_path(from, to, options);
  REQUIRE(path.ok());
  return *path;
}

std::vector<plan::SegmentKind> kinds(const plan::Path& path) {
  std::vector<plan::SegmentKind> out;
  for (const plan::PathSegment& s : path.segments) out.push_back(s.kind);
  return out;
}

/// A floor x 0..16, y 0..1 and a block x 8..16 standing `rise` above it (z 0..6).
TriangleMesh ledge_scene(float rise) {
  io::SceneBuilder s("ledge");
  s.add_box({0.0F, 0.0F, 0.0F}, {16.0F, 1.0F, 6.0F});
  s.add_box({8.0F, 1.0F, 0.0F}, {16.0F, 1.0F + rise, 6.0F});
  return s.take();
}

/// G8: a ground floor x 0..20 and a roof x 10..20, 3 m up on four pillars' worth of solid
/// (a box x 10..20, y 1..4), no stairs.
TriangleMesh roof_scene() {
  io::SceneBuilder s("roof");
  s.add_box({0.0F, 0.0F, 0.0F}, {20.0F, 1.0F, 6.0F});
  s.add_box({10.0F, 1.0F, 0.0F}, {20.0F, 4.0F, 6.0F});
  return s.take();
}

}  // namespace

TEST_SUITE("ledgelinks.planning") {
  TEST_CASE("a path climbs a ledge by a jump-up link and comes down by a drop link") {
    const Level level = build(ledge_scene(1.25F));
    const Vec3 low{2.0F, 1.0F, 3.0F};
    const Vec3 high{14.0F, 2.25F, 3.0F};
    const plan::Path up = find(level, low, high);
    REQUIRE(up.status == plan::PathStatus::Found);
    CHECK(kinds(up) == std::vector<plan::SegmentKind>{plan::SegmentKind::Walk,
                                                      plan::SegmentKind::JumpUp,
                                                      plan::SegmentKind::Walk});
    // the crossing goes straight across the eroded gap, from the low floor to the high one
    const plan::PathSegment& hop = up.segments[1];
    CHECK(hop.last == hop.first + 1);
    CHECK(up.points[hop.last].y - up.points[hop.first].y == doctest::Approx(1.25).epsilon(0.01));
    CHECK(std::abs(up.points[hop.last].z - up.points[hop.first].z) < 1e-3F);
    CHECK(hop.link != plan::kNoLink);
    const plan::Path down = find(level, high, low);
    REQUIRE(down.status == plan::PathStatus::Found);
    CHECK(kinds(down)[1] == plan::SegmentKind::Drop);
    // without ledge links the two floors are not connected
    CHECK(find(level, low, high, false).status == plan::PathStatus::NoPath);
    CHECK(find(level, high, low, false).status == plan::PathStatus::NoPath);
  }

  TEST_CASE("a drop deeper than max_jump_up is one-way: down by a drop, never back up") {
    const Level level = build(ledge_scene(1.75F));
    const Vec3 low{2.0F, 1.0F, 3.0F};
    const Vec3 high{14.0F, 2.75F, 3.0F};
    CHECK(find(level, high, low).status == plan::PathStatus::Found);
    CHECK(find(level, low, high).status == plan::PathStatus::NoPath);
  }

  TEST_CASE("G8: ground and roof are joined only by the ladder, whose cost is its length / speed") {
    Level level = build(roof_scene(), false);
    const Vec3 ground{2.0F, 1.0F, 3.0F};
    const Vec3 roof{18.0F, 4.0F, 3.0F};
    CHECK(find(level, ground, roof).status == plan::PathStatus::NoPath);
    // the ladder stands against the roof's face x = 10: bottom on the ground r + a cell away,
    // top on the roof just behind its edge
    ledge::LadderOptions options;
    options.climb_speed = 0.5F;
    const std::vector<ledge::Ladder> ladders{{{9.5F, 1.0F, 3.0F}, {10.5F, 4.0F, 3.0F}}};
    auto links = ledge::ladder_links(level.navmesh, ladders, options);
    REQUIRE(links.ok());
    REQUIRE(links->size() == 2);
    CHECK((*links)[0].kind == ledge::LedgeKind::Ladder);
    CHECK((*links)[0].source_poly == (*links)[1].dest_poly);
    const float length = distance(ladders[0].bottom, ladders[0].top);
    CHECK((*links)[0].cost == doctest::Approx(length / 0.5F));
    level.ledges.links = *links;
    ledge::sort_links(level.ledges.links);
    const plan::Path up = find(level, ground, roof);
    REQUIRE(up.status == plan::PathStatus::Found);
    const std::vector<plan::SegmentKind> up_kinds = kinds(up);
    CHECK(std::count(up_kinds.begin(), up_kinds.end(), plan::SegmentKind::Ladder) == 1);
    // cost: the walk to the ladder's foot, the ladder, the walk from its top (all in xz; the
    // ladder's xz run counted once as its length and once in its cost / speed)
    const double walk =
        distance(xz(ground), xz(ladders[0].bottom)) + distance(xz(ladders[0].top), xz(roof));
    CHECK(up.search_cost == doctest::Approx(walk + 1.0 + length / 0.5).epsilon(1e-3));
    CHECK(find(level, roof, ground).status == plan::PathStatus::Found);
    CHECK(find(level, ground, roof, false).status == plan::PathStatus::NoPath);
  }

  TEST_CASE("a ladder end off the mesh is an error naming the ladder and the end") {
    const Level level = build(roof_scene(), false);
    const std::vector<ledge::Ladder> ladders{{{9.5F, 1.0F, 3.0F}, {10.5F, 4.0F, 3.0F}},
                                             {{9.5F, 1.0F, 3.0F}, {30.0F, 4.0F, 3.0F}}};
    auto links = ledge::ladder_links(level.navmesh, ladders, {});
    REQUIRE_FALSE(links.ok());
    CHECK(links.error().code == ErrorCode::InvalidArgument);
    CHECK(links.error().message.find("ladder 1: top (30, 4, 3) is not on the navmesh") == 0);
  }

  TEST_CASE("links files: ladders read back, bad input names the key or the ladder") {
    auto ok = io::parse_links_json(
        R"({"ladders": [{"bottom": [1, 2, 3], "top": [4, 5, 6]}], "climb_speed": 0.25})", "l.json");
    REQUIRE(ok.ok());
    REQUIRE(ok->ladders.size() == 1);
    CHECK(ok->ladders[0].top.z == 6.0F);
    CHECK(ok->ladder_options.climb_speed == 0.25F);
    const auto error_of = [](const char* text) {
      auto r = io::parse_links_json(text, "l.json");
      REQUIRE_FALSE(r.ok());
      return r.error().message;
    };
    CHECK(error_of(R"({"ladders": [{"bottom": [1, 2, 3]}]})") ==
          "l.json: ladder 0: top is missing");
    CHECK(error_of(R"({"ladders": [{"bottom": [1, 2], "top": [1, 2, 3]}]})") ==
          "l.json: ladder 0: bottom must be an array of three numbers");
    CHECK(error_of(R"({"ladder": []})") ==
          "l.json: unknown key 'ladder' (known: ladders, climb_speed)");
    CHECK(error_of(R"({"climb_speed": 0})") == "l.json: climb_speed must be a number in (0, 1e6]");
    CHECK(io::parse_links_json("{", "l.json").error().code == ErrorCode::ParseError);
    // a number past a double was an uncaught parser exception (exit 3 from the CLI)
    CHECK(error_of(R"({"climb_speed": 1e400})") ==
          "l.json: climb_speed = 1e400 is out of range (not representable as a double)");
    CHECK(error_of(R"({"ladders": [{"bottom": [1, 2, 3], "top": [4, 5, 6], "top": [7, 8, 9]}]})") ==
          "l.json: ladders.[].top is given twice");
  }

  TEST_CASE("ledge links and the agent's ledge thresholds survive a save and load") {
    const Level level = build(ledge_scene(1.25F));
    REQUIRE_FALSE(level.ledges.links.empty());
    io::NavFile file{level.navmesh, std::nullopt, level.ledges};
    auto back = io::decode_nav_file(io::encode_nav_file(file), "mem");
    REQUIRE(back.ok());
    REQUIRE(back->ledges.has_value());
    CHECK(ledge::content_hash(*back->ledges) == ledge::content_hash(level.ledges));
    CHECK(back->navmesh.config.agent.max_jump_up == 1.5F);
    CHECK(back->navmesh.config.agent.max_drop == 2.0F);
    // navmesh-only readers refuse to drop them silently
    auto plain = io::decode_navmesh(io::encode_nav_file(file), "mem", io::LinkPolicy::Refuse);
    CHECK_FALSE(plain.ok());
    // a file without ledge links and with the default thresholds has the bytes it had before
    mesh::NavMesh defaults = level.navmesh;
    defaults.config.agent.max_jump_up = AgentConfig{}.max_jump_up;
    defaults.config.agent.max_drop = AgentConfig{}.max_drop;
    const auto bytes = io::encode_navmesh(defaults);
    const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    CHECK(text.find("lagt") == std::string::npos);
    CHECK(text.find("ldge") == std::string::npos);
    // a byte changed in the ledge chunk fails the whole file (its checksum no longer matches)
    auto damaged = io::encode_nav_file(file);
    const std::string all(reinterpret_cast<const char*>(damaged.data()), damaged.size());
    const std::size_t at = all.find("ldge");
    REQUIRE(at != std::string::npos);
    damaged[at + 12 + 8] = std::byte{0x7F};  // the first link's kind
    auto bad = io::decode_nav_file(damaged, "mem");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::CorruptFile);
  }
}
