// Compact link sets through the whole pipeline (thesis configuration, refined links): along a
// long gap the compact set keeps every polygon pair and every path within the detour bound of
// the full set's; a dominated link is removed; every kept link is on the lattice and passes the
// exact check; the "jlkq" file chunk round-trips bit for bit and its damage is reported; the
// output is identical for 1 and 2 threads.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

struct Scene {
  TriangleMesh triangles;
  BuildConfig config;
  mesh::BuildOutput built;
  JumpLinkSet full;  // refined
};

// Two platforms 1 m high and 16 m long (z) with a 3 m gap along x: C2 links at step 1.
Scene long_gap(int threads = 1) {
  io::SceneBuilder builder("long-gap");
  builder.add_box({0.0F, 0.0F, 0.0F}, {4.0F, 1.0F, 16.0F});
  builder.add_box({7.0F, 0.0F, 0.0F}, {11.0F, 1.0F, 16.0F});
  Scene s;
  s.triangles = builder.take();
  auto config = named_config("thesis");
  REQUIRE(config.ok());
  s.config = *config;
  BuildContext ctx;
  ctx.set_threads(threads);
  auto built = mesh::build_navmesh(s.triangles, s.config, ctx);
  REQUIRE(built.ok());
  s.built = std::move(built).value();
  JumpLinkOptions options;
  options.jumps = {kJumpC2};
  options.step = 1;
  auto links = build_jump_links(s.built.voxels.solid, s.built.voxels.compact, s.built.navmesh,
                                s.config.agent, options, ctx);
  REQUIRE(links.ok());
  REQUIRE(refine_links(*links, s.triangles, s.built.navmesh, s.config.agent, {}, ctx).ok());
  s.full = std::move(links).value();
  return s;
}

CompactLinks compact(const Scene& s, const JumpLinkSet& full, float detour, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  LinkCompactOptions options;
  options.detour = detour;
  auto out = compact_links(full, s.triangles, s.built.navmesh, s.config.agent, options, ctx);
  REQUIRE(out.ok());
  REQUIRE(validate_compact(out->set, s.built.navmesh).ok());
  return std::move(out).value();
}

double xz(Vec3 a, Vec3 b) {
  return std::hypot(double{a.x} - b.x, double{a.z} - b.z);
}

double to_segment(Vec3 p, Vec3 a, Vec3 b) {
  const double dx = double{b.x} - a.x;
  const double dz = double{b.z} - a.z;
  const double len2 = dx * dx + dz * dz;
  const double u =
      len2 > 0.0
          ? std::clamp(((double{p.x} - a.x) * dx + (double{p.z} - a.z) * dz) / len2, 0.0, 1.0)
          : 0.0;
  return std::hypot(double{p.x} - (a.x + u * dx), double{p.z} - (a.z + u * dz));
}

using GroupKey = std::pair<std::pair<std::uint32_t, std::uint32_t>, std::uint16_t>;
GroupKey group_of(const JumpLink& l) {
  return {{l.start_poly, l.land_poly}, l.config};
}

}  // namespace

TEST_SUITE("jumplinks.compact") {
  TEST_CASE("along a long gap the compact set keeps every polygon pair within the detour") {
    const Scene s = long_gap();
    REQUIRE(s.full.links.size() > 100);
    constexpr float kDetour = 1.0F;
    const CompactLinks c = compact(s, s.full, kDetour);
    CHECK(c.stats.links_in == s.full.links.size());
    CHECK(c.stats.links_out == c.set.links.size());
    CHECK(c.stats.groups_lost == 0);
    // starts 0.25 m apart along 15 m of edge: a 1 m cover keeps far fewer
    CHECK(c.set.links.size() * 4 < s.full.links.size());
    std::map<GroupKey, std::vector<const JumpLink*>> kept;
    for (const JumpLink& l : c.set.links) kept[group_of(l)].push_back(&l);
    // every full link has a kept link of its group within the detour (plus the lattice's
    // rounding, at most one quantum per coordinate)
    const double slack = 4.0 * c.set.quantum;
    for (const JumpLink& l : s.full.links) {
      const auto it = kept.find(group_of(l));
      REQUIRE(it != kept.end());
      double best = 1e30;
      for (const JumpLink* k : it->second)
        best = std::min(
            best, xz(l.start, k->start) + std::max(to_segment(l.land_a, k->land_a, k->land_b),
                                                   to_segment(l.land_b, k->land_a, k->land_b)));
      CHECK(best <= kDetour + slack);
    }
    const LinkCheckReport check = check_links(c.set, s.triangles, s.built.navmesh, s.config.agent);
    CHECK(check.links_checked == c.set.links.size());
    CHECK(check.links_failed == 0);
  }

  TEST_CASE("across a long gap compact paths stay within twice the detour of the full set's") {
    const Scene s = long_gap();
    constexpr float kDetour = 1.0F;
    const CompactLinks c = compact(s, s.full, kDetour);
    auto full_planner = plan::Planner::create(s.built.navmesh, &s.full);
    auto compact_planner = plan::Planner::create(s.built.navmesh, &c.set);
    REQUIRE(full_planner.ok());
    REQUIRE(compact_planner.ok());
    plan::NavQuery full_query(*full_planner);
    plan::NavQuery compact_query(*compact_planner);
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> z(0.5F, 15.5F);
    std::uniform_real_distribution<float> left(0.5F, 3.5F);
    double full_sum = 0.0;
    double compact_sum = 0.0;
    for (int i = 0; i < 60; ++i) {
      const Vec3 start{left(rng), 1.0F, z(rng)};
      const Vec3 goal{left(rng) + 7.0F, 1.0F, z(rng)};
      plan::Path full_path;
      plan::Path compact_path;
      REQUIRE(full_query.find_path(start, goal, {}, full_path).ok());
      REQUIRE(compact_query.find_path(start, goal, {}, compact_path).ok());
      REQUIRE(full_path.status == plan::PathStatus::Found);
      CHECK(compact_path.status == plan::PathStatus::Found);
      CHECK(compact_path.length <= full_path.length + 2.0F * kDetour + 0.01F);
      full_sum += full_path.length;
      compact_sum += compact_path.length;
    }
    // the bound is a worst case; on average the cover costs far less
    CHECK(compact_sum <= 1.02 * full_sum);
  }

  TEST_CASE("a dominated link is removed beside its dominator, even with detour 0") {
    const Scene s = long_gap();
    REQUIRE(!s.full.links.empty());
    // a group of one link plus a copy whose land segment is the second half of the original
    JumpLinkSet set;
    set.configs = s.full.configs;
    JumpLink link = s.full.links.front();
    for (const JumpLink& l : s.full.links) {
      if (xz(l.land_a, l.land_b) > 0.5) {
        link = l;
        break;
      }
    }
    REQUIRE(xz(link.land_a, link.land_b) > 0.5);
    JumpLink half = link;
    half.land_a = (link.land_a + link.land_b) * 0.5F;
    set.links = {half, link};
    index_links(set, s.built.navmesh.polygon_count());
    const CompactLinks c = compact(s, set, 0.0F);
    REQUIRE(c.set.links.size() == 1);
    const JumpLink& kept = c.set.links.front();
    // the dominator, on the lattice
    CHECK(xz(kept.land_a, link.land_a) <= c.set.quantum);
    CHECK(xz(kept.land_b, link.land_b) <= c.set.quantum);
    CHECK(xz(kept.start, link.start) <= c.set.quantum);
    CHECK(kept.start.y >= link.start.y - 1e-6F);
    CHECK(kept.start.y <= link.start.y + c.set.quantum + 1e-6F);
  }

  TEST_CASE("a compact set is saved as lattice integers and loads bit for bit") {
    const Scene s = long_gap();
    const CompactLinks c = compact(s, s.full, 0.5F);
    io::NavFile file;
    file.navmesh = s.built.navmesh;
    file.links = c.set;
    const std::vector<std::byte> bytes = io::encode_nav_file(file);
    auto loaded = io::decode_nav_file(bytes, "compact.lnav");
    REQUIRE(loaded.ok());
    REQUIRE(loaded->links.has_value());
    CHECK(loaded->links->quantum == c.set.quantum);
    CHECK(content_hash(*loaded->links) == content_hash(c.set));
    // far below the 46 bytes of a plain link
    const std::uint64_t link_bytes = io::jump_link_file_bytes(c.set);
    CHECK(link_bytes == bytes.size() - io::encode_navmesh(s.built.navmesh).size());
    CHECK(link_bytes < 20 * c.set.links.size() + 64);
    // the plain set's bytes are counted the same way
    io::NavFile plain = file;
    plain.links = s.full;
    const std::size_t navmesh_bytes = io::encode_navmesh(s.built.navmesh).size();
    CHECK(io::encode_nav_file(plain).size() - navmesh_bytes == io::jump_link_file_bytes(s.full));
  }

  TEST_CASE("compaction is identical for 1 and 2 threads") {
    const Scene s = long_gap();
    const CompactLinks one = compact(s, s.full, 0.5F, 1);
    const CompactLinks two = compact(s, s.full, 0.5F, 2);
    CHECK(content_hash(one.set) == content_hash(two.set));
    CHECK(one.stats.links_out == two.stats.links_out);
  }

  TEST_CASE("a coordinate beyond the lattice is refused naming the link") {
    Scene s = long_gap();
    REQUIRE(!s.full.links.empty());
    s.full.links.back().land_b.x = 40000.0F;  // 2^24 quanta of 2^-9 m is 32768 m
    BuildContext ctx;
    auto out = compact_links(s.full, s.triangles, s.built.navmesh, s.config.agent, {}, ctx);
    REQUIRE(!out.ok());
    CHECK(out.error().code == ErrorCode::InvalidArgument);
    CHECK(out.error().message.find("link " + std::to_string(s.full.links.size() - 1)) !=
          std::string::npos);
  }

  TEST_CASE("bad options are refused naming the field") {
    LinkCompactOptions options;
    options.detour = -1.0F;
    auto s = validate(options);
    REQUIRE(!s.ok());
    CHECK(s.error().message.find("detour") != std::string::npos);
    options = {};
    options.quantum_shift = 17;
    s = validate(options);
    REQUIRE(!s.ok());
    CHECK(s.error().message.find("quantum_shift") != std::string::npos);
  }
}
