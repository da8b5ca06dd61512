// Runs of translated links in compact sets (link_compact.hpp, "Runs"; io chunk "jlkr"): two
// parallel roofs give one run per row of starts and land shape, a post in the gap splits the
// runs it blocks, every member passes the exact check as stored, runs round-trip bit for bit in
// far fewer bytes, each member stays within run_tolerance of the link it replaces, and the
// output does not depend on the thread count.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <map>
#include <string_view>
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

using namespace leapnav;
using namespace leapnav::jump;

namespace {

struct Roofs {
  TriangleMesh triangles;
  BuildConfig config;
  mesh::BuildOutput built;
  JumpLinkSet full;  // refined
};

// Roof A 4 m x 12 m (z) and roof B 4 m x 28 m, both 1 m high, 3 m apart along x; B reaches 8 m
// beyond A at either end, so every jump from A sees the same stretch of B's edge. With `post`, a
// 0.4 m post 6 m high stands in the gap at z = 6. C2 links at step 4 (1.2 m between starts).
Roofs parallel_roofs(bool post, int threads = 1) {
  io::SceneBuilder builder(post ? "roofs-post" : "roofs");
  builder.add_box({0.0F, 0.0F, 0.0F}, {4.0F, 1.0F, 12.0F});
  builder.add_box({7.0F, 0.0F, -8.0F}, {11.0F, 1.0F, 20.0F});
  if (post) builder.add_box({5.3F, 0.0F, 5.8F}, {5.7F, 6.0F, 6.2F});
  Roofs s;
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
  options.step = 4;
  auto links = build_jump_links(s.built.voxels.solid, s.built.voxels.compact, s.built.navmesh,
                                s.config.agent, options, ctx);
  REQUIRE(links.ok());
  REQUIRE(refine_links(*links, s.triangles, s.built.navmesh, s.config.agent, {}, ctx).ok());
  s.full = std::move(links).value();
  return s;
}

CompactLinks compact(const Roofs& s, bool runs, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  LinkCompactOptions options;
  options.runs = runs;
  auto out = compact_links(s.full, s.triangles, s.built.navmesh, s.config.agent, options, ctx);
  REQUIRE(out.ok());
  REQUIRE(validate_compact(out->set, s.built.navmesh).ok());
  return std::move(out).value();
}

using Lattice = std::array<std::int64_t, 9>;

Lattice lattice(const JumpLink& l, float q) {
  const std::array<float, 9> v = {l.start.x,  l.start.y,  l.start.z,  l.land_a.x, l.land_a.y,
                                  l.land_a.z, l.land_b.x, l.land_b.y, l.land_b.z};
  Lattice k{};
  for (std::size_t c = 0; c < 9; ++c) k[c] = lattice_index(v[c], q).value_or(0);
  return k;
}

bool same_group(const JumpLink& a, const JumpLink& b) {
  return a.start_poly == b.start_poly && a.land_poly == b.land_poly && a.config == b.config;
}

// Maximal runs of exact translates in file order (as the writer finds them): [first, last).
std::vector<std::pair<std::size_t, std::size_t>> runs_of(const JumpLinkSet& set) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  const auto& links = set.links;
  for (std::size_t k = 0; k < links.size();) {
    std::size_t end = k + 1;
    if (end < links.size() && same_group(links[k], links[end])) {
      const Lattice a = lattice(links[k], set.quantum);
      const Lattice b = lattice(links[end], set.quantum);
      const std::array<std::int64_t, 3> t = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      while (end < links.size() && same_group(links[k], links[end])) {
        const Lattice p = lattice(links[end - 1], set.quantum);
        const Lattice n = lattice(links[end], set.quantum);
        bool translate = true;
        for (std::size_t c = 0; c < 9; ++c) translate = translate && n[c] - p[c] == t[c % 3];
        if (!translate) break;
        ++end;
      }
    }
    out.emplace_back(k, end);
    k = end;
  }
  return out;
}

// The land segment's shape (land_a - start, land_b - land_a) and the start's x and height: the
// class of links that should share one run along z.
using Shape = std::array<std::int64_t, 8>;
Shape shape_of(const JumpLink& l, float q) {
  const Lattice k = lattice(l, q);
  return {k[0], k[1], k[3] - k[0], k[4] - k[1], k[5] - k[2], k[6] - k[3], k[7] - k[4], k[8] - k[5]};
}

// Links of group (a, b) by class, in file order.
std::map<Shape, std::vector<std::size_t>> classes(const JumpLinkSet& set, std::uint32_t a,
                                                  std::uint32_t b) {
  std::map<Shape, std::vector<std::size_t>> out;
  for (std::size_t k = 0; k < set.links.size(); ++k) {
    const JumpLink& l = set.links[k];
    if (l.start_poly == a && l.land_poly == b) out[shape_of(l, set.quantum)].push_back(k);
  }
  return out;
}

// The (start polygon, land polygon) pair of the group with the most links starting on roof A
// (x < 4).
std::pair<std::uint32_t, std::uint32_t> roof_a_to_b(const JumpLinkSet& set) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> count;
  for (const JumpLink& l : set.links)
    if (l.start.x < 4.0F && l.land_a.x > 7.0F) ++count[{l.start_poly, l.land_poly}];
  REQUIRE(!count.empty());
  auto best = count.begin();
  for (auto it = count.begin(); it != count.end(); ++it)
    if (it->second > best->second) best = it;
  return best->first;
}

std::size_t payload_at(const std::vector<std::byte>& b, std::string_view tag) {
  std::size_t at = 16;
  while (at + 12 <= b.size()) {
    if (std::memcmp(b.data() + at, tag.data(), 4) == 0) return at + 12;
    std::uint64_t size = 0;
    for (std::size_t i = 0; i < 8; ++i)
      size |= std::to_integer<std::uint64_t>(b[at + 4 + i]) << (8 * i);
    at += 12 + size;
  }
  return 0;
}

}  // namespace

TEST_SUITE("jumplinks.link_runs") {
  TEST_CASE("two parallel roofs give one run per row of starts and land shape") {
    const Roofs s = parallel_roofs(false);
    const CompactLinks c = compact(s, true);
    const auto [a, b] = roof_a_to_b(c.set);
    const auto by_class = classes(c.set, a, b);
    const auto runs = runs_of(c.set);
    std::size_t group_runs = 0;
    std::size_t longest = 0;
    for (const auto& [first, last] : runs) {
      if (c.set.links[first].start_poly != a || c.set.links[first].land_poly != b) continue;
      ++group_runs;
      longest = std::max(longest, last - first);
    }
    MESSAGE("roof A -> B: " << by_class.size() << " classes, " << group_runs << " runs, longest "
                            << longest << "; " << c.stats.runs << " runs in the set, "
                            << c.stats.run_refused << " members refused");
    // every class (start x and height, land shape) is one run: consecutive exact translates
    CHECK(group_runs == by_class.size());
    for (const auto& [shape, members] : by_class) {
      for (std::size_t i = 1; i < members.size(); ++i) CHECK(members[i] == members[i - 1] + 1);
    }
    // starts every 1.2 m along A's 12 m edge: long runs
    CHECK(longest >= 8);
    // every member as stored passes the exact check
    const LinkCheckReport report = check_links(c.set, s.triangles, s.built.navmesh, s.config.agent);
    CHECK(report.links_checked == c.set.links.size());
    CHECK(report.links_failed == 0);
  }

  TEST_CASE("a post in the gap splits the runs it blocks, and every member passes") {
    const Roofs open = parallel_roofs(false);
    const Roofs blocked = parallel_roofs(true);
    const CompactLinks c_open = compact(open, true);
    const CompactLinks c = compact(blocked, true);
    const auto runs = runs_of(c.set);
    // runs from roof A (x < 4) to roof B (x > 7) whose land segment lies straight across from
    // their starts
    std::size_t straight_across_runs = 0;
    std::size_t runs_below = 0;
    std::size_t runs_above = 0;
    for (const auto& [first, last] : runs) {
      const JumpLink& head = c.set.links[first];
      if (head.start.x > 4.0F || head.land_a.x < 7.0F) continue;
      // straight across: the land segment's z range holds the start's z
      const bool across = std::min(head.land_a.z, head.land_b.z) <= head.start.z + 1e-3F &&
                          std::max(head.land_a.z, head.land_b.z) >= head.start.z - 1e-3F;
      if (!across) continue;
      ++straight_across_runs;
      const float z_first = c.set.links[first].start.z;
      const float z_last = c.set.links[last - 1].start.z;
      // a straight-across run never crosses the post's z band (plus the agent's radius)
      const float r = blocked.config.agent.radius;
      CHECK((z_last < 5.8F - r || z_first > 6.2F + r));
      if (z_last < 5.8F - r) ++runs_below;
      if (z_first > 6.2F + r) ++runs_above;
    }
    MESSAGE("straight-across runs: " << straight_across_runs << " (" << runs_below << " below, "
                                     << runs_above << " above the post); runs " << c.stats.runs
                                     << " vs " << c_open.stats.runs << " without the post");
    CHECK(runs_below >= 1);
    CHECK(runs_above >= 1);
    CHECK(c.stats.runs > c_open.stats.runs);
    const LinkCheckReport report =
        check_links(c.set, blocked.triangles, blocked.built.navmesh, blocked.config.agent);
    CHECK(report.links_checked == c.set.links.size());
    CHECK(report.links_failed == 0);
  }

  TEST_CASE("runs round-trip bit for bit in far fewer bytes than the links one by one") {
    const Roofs s = parallel_roofs(false);
    const CompactLinks with_runs = compact(s, true);
    const CompactLinks without = compact(s, false);
    REQUIRE(with_runs.stats.runs > 0);
    io::NavFile file;
    file.navmesh = s.built.navmesh;
    file.links = with_runs.set;
    const std::vector<std::byte> bytes = io::encode_nav_file(file);
    CHECK(payload_at(bytes, "jlkr") != 0);
    CHECK(payload_at(bytes, "jlkq") == 0);
    auto loaded = io::decode_nav_file(bytes, "runs.lnav");
    REQUIRE(loaded.ok());
    REQUIRE(loaded->links.has_value());
    REQUIRE(loaded->links->links.size() == with_runs.set.links.size());
    for (std::size_t k = 0; k < with_runs.set.links.size(); ++k)
      CHECK(loaded->links->links[k] == with_runs.set.links[k]);
    CHECK(content_hash(*loaded->links) == content_hash(with_runs.set));
    CHECK(io::encode_nav_file(*loaded) == bytes);
    const std::uint64_t run_bytes = io::jump_link_file_bytes(with_runs.set);
    const std::uint64_t plain_bytes = io::jump_link_file_bytes(without.set);
    MESSAGE(with_runs.set.links.size()
            << " links: " << run_bytes << " bytes with runs, " << plain_bytes << " without");
    CHECK(with_runs.set.links.size() == without.set.links.size());
    CHECK(run_bytes * 3 < plain_bytes);
    // the set without runs round-trips too (the smaller of the two chunks)
    file.links = without.set;
    auto plain_loaded = io::decode_nav_file(io::encode_nav_file(file), "plain.lnav");
    REQUIRE(plain_loaded.ok());
    CHECK(content_hash(*plain_loaded->links) == content_hash(without.set));
  }

  TEST_CASE("each run member stays within run_tolerance of a kept link of its group") {
    const Roofs s = parallel_roofs(true);
    const CompactLinks with_runs = compact(s, true);
    const CompactLinks without = compact(s, false);
    const float tolerance = LinkCompactOptions{}.run_tolerance + 1e-6F;
    const auto near = [&](Vec3 p, Vec3 q) {
      return std::abs(p.x - q.x) <= tolerance && std::abs(p.y - q.y) <= tolerance &&
             std::abs(p.z - q.z) <= tolerance;
    };
    std::size_t unmatched = 0;
    for (const JumpLink& l : with_runs.set.links) {
      bool found = false;
      for (const JumpLink& k : without.set.links)
        found = found || (same_group(l, k) && near(l.start, k.start) && near(l.land_a, k.land_a) &&
                          near(l.land_b, k.land_b));
      unmatched += found ? 0 : 1;
    }
    CHECK(unmatched == 0);
    CHECK(with_runs.set.links.size() == without.set.links.size());
  }

  TEST_CASE("runs are identical for 1 and 2 threads") {
    const Roofs one_built = parallel_roofs(true, 1);
    const Roofs two_built = parallel_roofs(true, 2);
    const CompactLinks one = compact(one_built, true, 1);
    const CompactLinks two = compact(two_built, true, 2);
    CHECK(one.stats.runs > 0);
    CHECK(content_hash(one.set) == content_hash(two.set));
    CHECK(one.stats.runs == two.stats.runs);
    CHECK(one.stats.run_refused == two.stats.run_refused);
  }

  TEST_CASE("a negative run tolerance is refused naming the field") {
    LinkCompactOptions options;
    options.run_tolerance = -0.1F;
    const Status s = validate(options);
    REQUIRE(!s.ok());
    CHECK(s.error().message.find("run_tolerance") != std::string::npos);
  }
}
