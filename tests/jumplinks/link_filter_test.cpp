// The walkable-link filter (link_filter.hpp): closed-form walks on a hand-made mesh (two squares
// of one floor sharing an edge, a third across a gap), the drop rule at its boundary, whole
// groups, flags; on the real levels (dungeon, nav_test; skipped when absent), no query loses its
// path, and with whole groups every path whose unfiltered search used no dropped group costs
// exactly the same.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_filter.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/planning/path.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

// A = [0,2]x[0,2] and B = [2,4]x[0,2] share the edge x = 2; C = [6,8]x[0,2] stands alone.
mesh::NavMesh three_squares() {
  mesh::NavMesh m;
  m.vertices = {{0, 0, 0}, {2, 0, 0}, {4, 0, 0}, {4, 0, 2}, {2, 0, 2},
                {0, 0, 2}, {6, 0, 0}, {8, 0, 0}, {8, 0, 2}, {6, 0, 2}};
  m.poly_first = {0, 4, 8, 12};
  m.poly_vertices = {0, 1, 4, 5, 1, 2, 3, 4, 6, 7, 8, 9};
  const std::uint32_t n = mesh::kNoPoly;
  m.poly_neighbors = {n, 1, n, n, n, n, n, 0, n, n, n, n};
  m.poly_flags = {0, 0, 0};
  m.poly_area = {63, 63, 63};
  return m;
}

// Squares of side 2 at the given (column, row) cells (x = 2 * column, z = 2 * row), vertices
// welded, polygons across shared sides joined as neighbours.
mesh::NavMesh squares(const std::vector<std::pair<int, int>>& cells) {
  mesh::NavMesh m;
  const auto vertex = [&m](int x, int z) {
    const Vec3 v{static_cast<float>(x), 0.0F, static_cast<float>(z)};
    for (std::uint32_t i = 0; i < m.vertices.size(); ++i)
      if (m.vertices[i].x == v.x && m.vertices[i].z == v.z) return i;
    m.vertices.push_back(v);
    return static_cast<std::uint32_t>(m.vertices.size() - 1);
  };
  m.poly_first = {0};
  for (const auto& [c, r] : cells) {
    const int x = 2 * c;
    const int z = 2 * r;
    for (const auto& [vx, vz] : {std::pair{x, z}, {x + 2, z}, {x + 2, z + 2}, {x, z + 2}})
      m.poly_vertices.push_back(vertex(vx, vz));
    m.poly_first.push_back(static_cast<std::uint32_t>(m.poly_vertices.size()));
    m.poly_flags.push_back(0);
    m.poly_area.push_back(63);
  }
  m.poly_neighbors.assign(m.poly_vertices.size(), mesh::kNoPoly);
  for (std::uint32_t p = 0; p < cells.size(); ++p)
    for (std::uint32_t q = 0; q < cells.size(); ++q)
      for (std::uint32_t e = 0; e < 4; ++e)
        for (std::uint32_t f = 0; f < 4; ++f)
          if (p != q && m.poly_vertices[4 * p + e] == m.poly_vertices[4 * q + (f + 1) % 4] &&
              m.poly_vertices[4 * p + (e + 1) % 4] == m.poly_vertices[4 * q + f])
            m.poly_neighbors[4 * p + e] = q;
  return m;
}

JumpLink link(Vec3 start, Vec3 a, Vec3 b, std::uint32_t from, std::uint32_t to) {
  return JumpLink{start, a, b, 0, from, to};
}

JumpLinkSet set_of(std::vector<JumpLink> links, const mesh::NavMesh& m) {
  JumpLinkSet set;
  set.configs = {kJumpC1};
  set.links = std::move(links);
  index_links(set, m.polygon_count());
  return set;
}

void compare_paths(const char* file) {
  const auto level = test::build_shared_level(file, "default");
  if (!level) return;
  const mesh::NavMesh& navmesh = level->built.navmesh;
  JumpLinkOptions options;
  options.jumps = {kJumpC2};
  options.step = 4;
  BuildContext ctx;
  auto generated = build_jump_links(level->built.voxels.solid, level->built.voxels.compact, navmesh,
                                    level->config.agent, options, ctx);
  REQUIRE(generated.ok());
  const auto refined = [&](JumpLinkSet set) {
    REQUIRE(refine_links(set, level->triangles, navmesh, level->config.agent, {}, ctx).ok());
    return std::make_shared<const JumpLinkSet>(std::move(set));
  };
  // the filter is the same for 1 and 2 threads
  std::uint64_t hashes[2] = {0, 0};
  JumpLinkSet grouped;
  for (const int threads : {1, 2}) {
    BuildContext tctx;
    tctx.set_threads(threads);
    grouped = *generated;
    REQUIRE(filter_walkable_links(grouped, navmesh, LinkFilterOptions{}, tctx).ok());
    hashes[threads - 1] = content_hash(grouped);
  }
  CHECK(hashes[0] == hashes[1]);
  JumpLinkSet single = *generated;
  LinkFilterOptions per_link;
  per_link.whole_groups = false;
  REQUIRE(filter_walkable_links(single, navmesh, per_link, ctx).ok());
  CHECK(single.links.size() <= grouped.links.size());
  CHECK(grouped.links.size() < generated->links.size());
  const auto full = refined(*generated);
  const auto kept = refined(std::move(grouped));
  const auto few = refined(std::move(single));
  std::set<std::pair<std::uint32_t, std::uint32_t>> kept_groups;
  for (const JumpLink& l : kept->links) kept_groups.insert({l.start_poly, l.land_poly});
  auto shared_mesh = std::make_shared<const mesh::NavMesh>(navmesh);
  auto p_full = plan::Planner::create(shared_mesh, full);
  auto p_kept = plan::Planner::create(shared_mesh, kept);
  auto p_few = plan::Planner::create(shared_mesh, few);
  REQUIRE(p_full.ok());
  REQUIRE(p_kept.ok());
  REQUIRE(p_few.ok());
  plan::NavQuery q_full(*p_full);
  plan::NavQuery q_kept(*p_kept);
  plan::NavQuery q_few(*p_few);
  const std::vector<plan::MeshPoint> points = plan::random_points(navmesh, 800, 24);
  REQUIRE(points.size() == 800);
  std::size_t found = 0;
  std::size_t with_jumps = 0;
  std::size_t used_dropped = 0;
  double len_full = 0.0;
  double len_few = 0.0;
  for (std::size_t k = 0; k < 400; ++k) {
    const Vec3 a = points[k].point;
    const Vec3 b = points[k + 400].point;
    auto f = q_full.find_path(a, b);
    auto g = q_kept.find_path(a, b);
    auto h = q_few.find_path(a, b);
    REQUIRE(f.ok());
    REQUIRE(g.ok());
    REQUIRE(h.ok());
    // walking reaches the land polygon of every dropped link: nothing becomes unreachable
    CHECK(g->status == f->status);
    CHECK(h->status == f->status);
    if (f->status != plan::PathStatus::Found) continue;
    ++found;
    if (f->jump_count > 0) ++with_jumps;
    len_full += f->length;
    len_few += h->length;
    bool uses_dropped = false;
    for (const plan::PathSegment& s : f->segments) {
      if (s.kind != plan::SegmentKind::Jump) continue;
      const JumpLink& l = full->links[s.link];
      uses_dropped = uses_dropped || kept_groups.count({l.start_poly, l.land_poly}) == 0;
    }
    if (uses_dropped) {
      ++used_dropped;
      // walking replaces each dropped jump at no more than the jump's length + slack (= the
      // default jump cost): the filtered path is no longer than that
      CHECK(g->length <= f->length + kDefaultWalkSlack * static_cast<double>(f->jump_count) + 1e-3);
      continue;
    }
    // the kept groups are the unfiltered set's groups, link for link: A* on a subgraph that
    // holds the unfiltered optimum finds its cost
    CHECK(g->search_cost == doctest::Approx(f->search_cost).epsilon(1e-9));
  }
  const auto n = static_cast<double>(found);
  MESSAGE(std::string(file) << " C2 step 4: " << generated->links.size()
                            << " generated, whole groups " << kept->links.size() << ", per link "
                            << few->links.size() << " refined links (" << full->links.size()
                            << " unfiltered); " << found << " paths (" << with_jumps
                            << " with jumps, " << used_dropped
                            << " through a dropped group); mean length " << len_full / n
                            << " m unfiltered, " << len_few / n << " m per-link filter");
  CHECK(found > 200);
  CHECK(with_jumps > 0);
  // per link, the paths stay within a bound of the stated slack per jump; the mean barely moves
  CHECK(len_few / n <= len_full / n * 1.01);
}

}  // namespace

TEST_SUITE("jumplinks.filter") {
  TEST_CASE("walks on one floor are bounded through portal midpoints; a gap has no walk") {
    const mesh::NavMesh m = three_squares();
    const double inf = std::numeric_limits<double>::infinity();
    // (1,1) -> midpoint (2,1) -> (3,1): exactly 2
    CHECK(walk_bound(m, {1, 0, 1}, 0, {3, 0, 1}, {3, 0, 1}, 1, 10.0) == 2.0);
    // the farther end of the segment counts: 1 + |(2,1) - (3,1.8)|
    CHECK(walk_bound(m, {1, 0, 1}, 0, {3, 0, 1}, {3, 0, 1.8F}, 1, 10.0) ==
          doctest::Approx(1.0 + std::hypot(1.0, 0.8)).epsilon(1e-6));
    CHECK(walk_bound(m, {1, 0, 1}, 0, {7, 0, 1}, {7, 0, 1}, 2, 100.0) == inf);
    // the bound cuts the search: the portal at distance 1 is beyond 0.5
    CHECK(walk_bound(m, {1, 0, 1}, 0, {3, 0, 1}, {3, 0, 1}, 1, 0.5) == inf);
  }

  TEST_CASE("a link within one flat floor is dropped, one across the gap is kept") {
    const mesh::NavMesh m = three_squares();
    JumpLinkSet set = set_of({link({1, 0, 1}, {3, 0, 1}, {3, 0, 1.5F}, 0, 1),
                              link({1, 0, 1}, {7, 0, 1}, {7, 0, 1.5F}, 0, 2),
                              link({3, 0, 1}, {7, 0, 1}, {7, 0, 1}, 1, 2)},
                             m);
    BuildContext ctx;
    const auto stats = filter_walkable_links(set, m, LinkFilterOptions{}, ctx);
    REQUIRE(stats.ok());
    CHECK(stats->links_in == 3);
    CHECK(stats->links_dropped == 1);
    CHECK(stats->walks == 2);  // one per distinct start point
    REQUIRE(set.links.size() == 2);
    CHECK(set.links[0].land_poly == 2);
    CHECK(set.links[1].land_poly == 2);
    CHECK(validate(set, m).ok());
  }

  TEST_CASE("the rule's boundary: walk <= jump + slack drops, anything longer keeps") {
    const mesh::NavMesh m = three_squares();
    LinkFilterOptions options;
    options.slack = 0.0F;
    options.whole_groups = false;
    // walk 2 = chord 2: dropped; walk 1 + hypot(1, 0.5) > 2 = distance to the segment: kept
    JumpLinkSet set = set_of({link({1, 0, 1}, {3, 0, 1}, {3, 0, 1}, 0, 1),
                              link({1, 0, 1}, {3, 0, 1}, {3, 0, 1.5F}, 0, 1)},
                             m);
    JumpLinkSet grouped = set;
    BuildContext ctx;
    REQUIRE(filter_walkable_links(set, m, options, ctx).ok());
    REQUIRE(set.links.size() == 1);
    CHECK(set.links[0].land_b.z == 1.5F);
    // the same two links form one group: with whole groups the kept one keeps its group whole
    options.whole_groups = true;
    const auto stats = filter_walkable_links(grouped, m, options, ctx);
    REQUIRE(stats.ok());
    CHECK(stats->links_dropped == 0);
    CHECK(grouped.links.size() == 2);
    // with the default slack both save no walking, so the whole group goes
    options.slack = kDefaultWalkSlack;
    REQUIRE(filter_walkable_links(grouped, m, options, ctx).ok());
    CHECK(grouped.links.empty());
    CHECK(validate(grouped, m).ok());
  }

  TEST_CASE("flagged polygons are not walked through, off keeps everything, bad slack fails") {
    mesh::NavMesh m = three_squares();
    m.poly_flags[1] = mesh::kPolyFlagCrouch;
    JumpLinkSet set = set_of({link({1, 0, 1}, {3, 0, 1}, {3, 0, 1}, 0, 1)}, m);
    BuildContext ctx;
    REQUIRE(filter_walkable_links(set, m, LinkFilterOptions{}, ctx).ok());
    CHECK(set.links.size() == 1);
    m.poly_flags[1] = 0;
    LinkFilterOptions off;
    off.enabled = false;
    REQUIRE(filter_walkable_links(set, m, off, ctx).ok());
    CHECK(set.links.size() == 1);
    LinkFilterOptions bad;
    bad.slack = -1.0F;
    const auto refused = filter_walkable_links(set, m, bad, ctx);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("slack") != std::string::npos);
  }

  TEST_CASE("a straight walk across a portal drops a group the portal-midpoint walk keeps") {
    // a floor cut in two along x = 2 (as a tile border cuts one); the start is near the cut's end
    const mesh::NavMesh m = three_squares();
    const Vec3 s{0.5F, 0, 0.2F};
    const Vec3 a{3.5F, 0, 0.2F};
    const Vec3 b{3.5F, 0, 0.6F};
    const double jump = 3.0;  // dist(s, [a, b]): a is nearest
    // through the midpoint (2,1): |s - (2,1)| + max(|(2,1) - a|, |(2,1) - b|) = 1.7 + 1.7
    const double midpoint_walk = 2.0 * std::hypot(1.5, 0.8);
    // straight to a (3) and to b (hypot(3, 0.4)), joined along [a, b] (0.4) where they meet
    const double straight = 0.5 * (3.0 + std::hypot(3.0, 0.4) + 0.4);
    CHECK(walk_bound(m, s, 0, a, b, 1, 10.0) == doctest::Approx(straight).epsilon(1e-6));
    CHECK(straight < midpoint_walk);
    LinkFilterOptions options;
    options.slack = 0.25F;  // jump + slack = 3.25: between the straight and the midpoint walks
    REQUIRE(straight <= jump + options.slack);
    REQUIRE(midpoint_walk > jump + options.slack);
    JumpLinkSet set = set_of({link(s, a, b, 0, 1), link(s, {7, 0, 1}, {7, 0, 1}, 0, 2)}, m);
    BuildContext ctx;
    const auto stats = filter_walkable_links(set, m, options, ctx);
    REQUIRE(stats.ok());
    CHECK(stats->links_dropped == 1);
    REQUIRE(set.links.size() == 1);
    CHECK(set.links[0].land_poly == 2);
    // a landing exactly on the chord: straight walk = jump, dropped even with slack 0
    options.slack = 0.0F;
    JumpLinkSet chord = set_of({link(s, a, a, 0, 1)}, m);
    REQUIRE(filter_walkable_links(chord, m, options, ctx).ok());
    CHECK(chord.links.empty());
  }

  TEST_CASE(
      "a chord off the mesh is no walk; the corridor walk bends at the corner, exactly the "
      "shortest walk") {
    // an L: A = [0,2]x[0,2], B = [2,4]x[0,2], D = [2,4]x[2,4]; [0,2]x[2,4] is not walkable
    const mesh::NavMesh l = squares({{0, 0}, {1, 0}, {1, 1}});
    REQUIRE(l.poly_neighbors[1] == 1);
    const Vec3 s{0.5F, 0, 1.5F};
    const Vec3 t{3.5F, 0, 3.5F};
    // the chord (3.61) crosses the hole; the midpoint walk (2,1), (3,2) is 4.58; the shortest
    // walk bends at the corner (2,2): 3.70, which the corridor's crossings reach
    const double chord = std::hypot(3.0, 2.0);
    const double midpoints = std::hypot(1.5, 0.5) + std::hypot(1.0, 1.0) + std::hypot(0.5, 1.5);
    const double corner = std::hypot(1.5, 0.5) + std::hypot(1.5, 1.5);
    CHECK(corner < midpoints);
    CHECK(walk_bound(l, s, 0, t, t, 2, 20.0) == doctest::Approx(corner).epsilon(1e-6));
    LinkFilterOptions options;
    options.slack = 0.05F;  // chord + slack < the shortest walk: kept (a straight bound would drop)
    REQUIRE(chord + options.slack < corner - 0.04);
    JumpLinkSet corner_set = set_of({link(s, t, t, 0, 2)}, l);
    BuildContext ctx;
    REQUIRE(filter_walkable_links(corner_set, l, options, ctx).ok());
    CHECK(corner_set.links.size() == 1);
    options.slack = 0.15F;  // chord + slack >= the shortest walk (and < the midpoint walk): dropped
    REQUIRE(chord + options.slack > corner + 0.05);
    REQUIRE(chord + options.slack < midpoints);
    REQUIRE(filter_walkable_links(corner_set, l, options, ctx).ok());
    CHECK(corner_set.links.empty());
    // a row of three squares with the middle one flagged: the straight line crosses it, kept
    mesh::NavMesh row = squares({{0, 0}, {1, 0}, {2, 0}});
    row.poly_flags[1] = mesh::kPolyFlagCrouch;
    JumpLinkSet across = set_of({link({1, 0, 1}, {5, 0, 1}, {5, 0, 1}, 0, 2)}, row);
    REQUIRE(filter_walkable_links(across, row, LinkFilterOptions{}, ctx).ok());
    CHECK(across.links.size() == 1);
    CHECK(walk_bound(row, {1, 0, 1}, 0, {5, 0, 1}, {5, 0, 1}, 2, 100.0) ==
          std::numeric_limits<double>::infinity());
    // unflagged, the straight walk is the chord (4) and the link goes
    row.poly_flags[1] = 0;
    CHECK(walk_bound(row, {1, 0, 1}, 0, {5, 0, 1}, {5, 0, 1}, 2, 100.0) == doctest::Approx(4.0));
    REQUIRE(filter_walkable_links(across, row, LinkFilterOptions{}, ctx).ok());
    CHECK(across.links.empty());
    // a landing point off the land polygon's outline (beyond its far side) is not reached straight
    // (the ray leaves the polygon): the midpoint walk decides, as before
    CHECK(walk_bound(row, {1, 0, 1}, 0, {6.5F, 0, 1}, {6.5F, 0, 1}, 2, 100.0) ==
          doctest::Approx(1.0 + 2.0 + 2.5));
  }

  TEST_CASE(
      "real levels: no query loses its path; with whole groups the search cost is unchanged") {
    compare_paths("dungeon.obj");
    compare_paths("nav_test.obj");
  }
}
