// The ledge pass: the spec's configuration-space scenes G1-G3, G5 and G9 on hand-made polygon
// meshes (with coincident edges and with the 2 r gap of an eroded mesh), then whole builds of
// ledges exactly at each threshold and one cell beyond, a thin wall, stairs and a ramp, with the
// soundness check on.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/ledgelinks/ledge_check.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "ledgelinks/ledge_fixtures.hpp"

using namespace leapnav;
using namespace leapnav::ledge;

namespace {

/// A polygon given by its corners (CCW in xz); no adjacency (every edge is a boundary edge).
using Corners = std::vector<Vec3>;

mesh::NavMesh hand_mesh(const std::vector<Corners>& polygons, float climb, float jump_up,
                        float drop) {
  mesh::NavMesh m;
  m.config.agent.max_climb = climb;
  m.config.agent.max_jump_up = jump_up;
  m.config.agent.max_drop = drop;
  m.config.agent.radius = 0.3F;
  m.grid.cell_size = 0.1F;
  m.grid.cell_height = 0.1F;
  m.poly_first.push_back(0);
  for (const Corners& poly : polygons) {
    AABB box;
    for (const Vec3& v : poly) {
      m.poly_vertices.push_back(static_cast<std::uint32_t>(m.vertices.size()));
      m.poly_neighbors.push_back(mesh::kNoPoly);
      m.vertices.push_back(v);
      box.extend(v);
    }
    m.poly_first.push_back(static_cast<std::uint32_t>(m.poly_vertices.size()));
    m.poly_region.push_back(1);
    m.poly_area.push_back(63);
    m.poly_flags.push_back(0);
    m.poly_bounds.push_back(box);
  }
  return m;
}

/// The rectangle [x0, x1] x [z0, z1] at height y (y0 at z0, y1 at z1 for a ramp along z).
Corners rect(float x0, float x1, float z0, float z1, float y0, float y1) {
  return {{x0, y0, z0}, {x1, y0, z0}, {x1, y1, z1}, {x0, y1, z1}};
}

LedgeOptions unchecked(float max_gap, float walk_epsilon = 0.0F) {
  LedgeOptions o;
  o.max_gap = max_gap;
  o.walk_epsilon = walk_epsilon;
  o.check = false;
  return o;
}

LedgeLinkSet run(const mesh::NavMesh& m, const LedgeOptions& o,
                 const TriangleMesh* tris = nullptr) {
  BuildContext ctx;
  auto set = build_ledge_links(m, tris, o, ctx);
  REQUIRE(set.ok());
  REQUIRE(validate(*set, m).ok());
  return std::move(*set);
}

bool near(Vec3 a, Vec3 b, float tol = 1e-4F) {
  return std::abs(a.x - b.x) <= tol && std::abs(a.y - b.y) <= tol && std::abs(a.z - b.z) <= tol;
}

/// Whether the link's source segment is a-b (either orientation, to within tol: the thresholds'
/// 1e-4 m slack moves an end on a sloped edge) and its kind `kind`.
bool has_link(const LedgeLinkSet& set, LedgeKind kind, std::uint32_t from, std::uint32_t to, Vec3 a,
              Vec3 b, float tol = 1e-3F) {
  return std::any_of(set.links.begin(), set.links.end(), [&](const LedgeLink& l) {
    return l.kind == kind && l.source_poly == from && l.dest_poly == to &&
           ((near(l.source_a, a, tol) && near(l.source_b, b, tol)) ||
            (near(l.source_a, b, tol) && near(l.source_b, a, tol)));
  });
}

std::size_t count_kind(const LedgeLinkSet& set, LedgeKind kind) {
  return static_cast<std::size_t>(std::count_if(
      set.links.begin(), set.links.end(), [&](const LedgeLink& l) { return l.kind == kind; }));
}

/// Summed xz length of the source segments of links of `kind`.
double length_of(const LedgeLinkSet& set, LedgeKind kind) {
  double sum = 0.0;
  for (const LedgeLink& l : set.links)
    if (l.kind == kind) sum += distance(xz(l.source_a), xz(l.source_b));
  return sum;
}

/// Every link's rise (destination above source, at both ends) lies in its kind's range.
void check_rises(const LedgeLinkSet& set, const AgentConfig& agent, float walk_epsilon) {
  const float slack = 1e-3F;
  for (const LedgeLink& l : set.links) {
    for (const float rise : {l.dest_a.y - l.source_a.y, l.dest_b.y - l.source_b.y}) {
      switch (l.kind) {
        case LedgeKind::Walk:
          CHECK(std::abs(rise) <= walk_epsilon + slack);
          break;
        case LedgeKind::StepUp:
          CHECK(rise >= walk_epsilon - slack);
          CHECK(rise <= agent.max_climb + slack);
          break;
        case LedgeKind::StepDown:
          CHECK(-rise >= walk_epsilon - slack);
          CHECK(-rise <= agent.max_climb + slack);
          break;
        case LedgeKind::JumpUp:
          CHECK(rise >= agent.max_climb - slack);
          CHECK(rise <= agent.max_jump_up + slack);
          break;
        case LedgeKind::Drop:
          CHECK(-rise >= agent.max_climb - slack);
          CHECK(-rise <= agent.max_drop + slack);
          break;
        case LedgeKind::Ladder:
          FAIL("the pass never makes ladders");
          break;
      }
    }
  }
}

// ---- whole builds ------------------------------------------------------------------------------

using test::ledge_config;

struct Built {
  TriangleMesh triangles;
  mesh::BuildOutput out;
  LedgeLinkSet links;
};

Built build(TriangleMesh triangles, const BuildConfig& config, int threads = 1) {
  Built b;
  b.triangles = std::move(triangles);
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out = mesh::build_navmesh(b.triangles, config, ctx);
  REQUIRE(out.ok());
  b.out = std::move(*out);
  LedgeOptions o;
  auto set = build_ledge_links(b.out.navmesh, &b.triangles, o, ctx);
  REQUIRE(set.ok());
  REQUIRE(validate(*set, b.out.navmesh).ok());
  b.links = std::move(*set);
  check_rises(b.links, config.agent, o.walk_epsilon);
  CHECK(test::check_surface_rises(b.out.navmesh, b.links, o.walk_epsilon) == 0);
  return b;
}

/// A floor x 0..16, y 0..1 and a block x 8..16 standing `rise` above it (z 0..6).
TriangleMesh ledge_scene(float rise) {
  io::SceneBuilder s("ledge");
  s.add_box({0.0F, 0.0F, 0.0F}, {16.0F, 1.0F, 6.0F});
  s.add_box({8.0F, 1.0F, 0.0F}, {16.0F, 1.0F + rise, 6.0F});
  return s.take();
}

// The ledge's two eroded edges overlap over the scene width less a radius at each end.
constexpr double kLedgeWidth = 6.0 - 2 * 0.25;

}  // namespace

TEST_SUITE("ledgelinks.spec") {
  TEST_CASE("G1: a long edge facing two shorter ones gives exactly six directed walk links") {
    const mesh::NavMesh m = hand_mesh(
        {rect(0, 4, 0, 2, 0, 0), rect(0, 2, 2, 4, 0, 0), rect(2, 4, 2, 4, 0, 0)}, 0.5F, 0.5F, 0.5F);
    const LedgeLinkSet set = run(m, unchecked(0.1F));
    CHECK(set.links.size() == 6);
    CHECK(count_kind(set, LedgeKind::Walk) == 6);
    CHECK(has_link(set, LedgeKind::Walk, 0, 1, {0, 0, 2}, {2, 0, 2}));
    CHECK(has_link(set, LedgeKind::Walk, 1, 0, {0, 0, 2}, {2, 0, 2}));
    CHECK(has_link(set, LedgeKind::Walk, 0, 2, {2, 0, 2}, {4, 0, 2}));
    CHECK(has_link(set, LedgeKind::Walk, 2, 0, {2, 0, 2}, {4, 0, 2}));
    CHECK(has_link(set, LedgeKind::Walk, 1, 2, {2, 0, 2}, {2, 0, 4}));
    CHECK(has_link(set, LedgeKind::Walk, 2, 1, {2, 0, 2}, {2, 0, 4}));
  }

  TEST_CASE("G2: a 0.3 step gives one step-up and one step-down link; a 0.6 step gives none") {
    for (const float gap : {0.0F, 0.6F}) {
      CAPTURE(gap);
      const mesh::NavMesh m = hand_mesh(
          {rect(0, 2, 0, 2, 0, 0), rect(2 + gap, 4 + gap, 0, 2, 0.3F, 0.3F)}, 0.5F, 0.5F, 0.5F);
      const LedgeLinkSet set = run(m, unchecked(0.7F));
      CHECK(set.links.size() == 2);
      CHECK(has_link(set, LedgeKind::StepUp, 0, 1, {2, 0, 0}, {2, 0, 2}));
      CHECK(has_link(set, LedgeKind::StepDown, 1, 0, {2 + gap, 0.3F, 0}, {2 + gap, 0.3F, 2}));
      const mesh::NavMesh high = hand_mesh(
          {rect(0, 2, 0, 2, 0, 0), rect(2 + gap, 4 + gap, 0, 2, 0.6F, 0.6F)}, 0.5F, 0.5F, 0.5F);
      CHECK(run(high, unchecked(0.7F)).links.empty());
    }
  }

  TEST_CASE("G3: a ramp beside a floor gives step links over the half within the step height") {
    // B rises along z as y = z / 4 (the article's z = y / 4); no walk link, the degenerate
    // step-down interval at z = 0 is dropped
    const mesh::NavMesh m =
        hand_mesh({rect(0, 2, 0, 4, 0, 0), rect(2, 4, 0, 4, 0, 1)}, 0.5F, 0.5F, 0.5F);
    const LedgeLinkSet set = run(m, unchecked(0.1F));
    CHECK(set.links.size() == 2);
    CHECK(has_link(set, LedgeKind::StepUp, 0, 1, {2, 0, 0}, {2, 0, 2}));
    CHECK(has_link(set, LedgeKind::StepDown, 1, 0, {2, 0, 0}, {2, 0.5F, 2}));
    CHECK(count_kind(set, LedgeKind::Walk) == 0);
  }

  TEST_CASE("G5: a 1.0 ledge needs a jump-up threshold of 1.5; a 2.0 ledge gets nothing") {
    for (const float gap : {0.0F, 0.6F}) {
      CAPTURE(gap);
      const auto scene = [&](float y, float jump) {
        return hand_mesh({rect(0, 2, 0, 2, 0, 0), rect(2 + gap, 4 + gap, 0, 2, y, y)}, 0.5F, jump,
                         jump);
      };
      CHECK(run(scene(1.0F, 0.5F), unchecked(0.7F)).links.empty());
      const LedgeLinkSet set = run(scene(1.0F, 1.5F), unchecked(0.7F));
      CHECK(set.links.size() == 2);
      CHECK(has_link(set, LedgeKind::JumpUp, 0, 1, {2, 0, 0}, {2, 0, 2}));
      CHECK(has_link(set, LedgeKind::Drop, 1, 0, {2 + gap, 1, 0}, {2 + gap, 1, 2}));
      CHECK(run(scene(2.0F, 1.5F), unchecked(0.7F)).links.empty());
    }
  }

  TEST_CASE("G9: shuffled polygons and vertices moved by 1e-7 give the same link set") {
    // a 6 x 6 grid of 2 m platforms at random heights with 0.6 m gaps (an eroded mesh's gaps)
    std::mt19937 rng(27);
    std::uniform_int_distribution<int> level(0, 12);
    std::vector<Corners> polys;
    for (int i = 0; i < 6; ++i) {
      for (int j = 0; j < 6; ++j) {
        const float y = 0.25F * static_cast<float>(level(rng));
        const float x0 = 2.6F * static_cast<float>(i);
        const float z0 = 2.6F * static_cast<float>(j);
        polys.push_back(rect(x0, x0 + 2.0F, z0, z0 + 2.0F, y, y));
      }
    }
    const auto canonical = [](const mesh::NavMesh& m, const LedgeLinkSet& set) {
      // links by geometry: kind, and both segments rounded to 1e-4 m, source polygon centre
      std::vector<std::array<long, 14>> out;
      const auto r = [](float v) { return std::lround(static_cast<double>(v) * 1e4); };
      for (const LedgeLink& l : set.links) {
        const Vec3 c = m.vertices[m.poly_vertices[m.poly_first[l.source_poly]]];
        std::array<long, 14> k{static_cast<long>(l.kind),
                               r(l.source_a.x),
                               r(l.source_a.y),
                               r(l.source_a.z),
                               r(l.source_b.x),
                               r(l.source_b.y),
                               r(l.source_b.z),
                               r(l.dest_a.x),
                               r(l.dest_a.y),
                               r(l.dest_a.z),
                               r(l.dest_b.x),
                               r(l.dest_b.y),
                               r(l.dest_b.z),
                               r(c.x) + r(c.z) * 100000};
        out.push_back(k);
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    const mesh::NavMesh base = hand_mesh(polys, 0.75F, 1.5F, 2.0F);
    const LedgeLinkSet reference = run(base, unchecked(0.7F, 0.01F));
    CHECK(count_kind(reference, LedgeKind::JumpUp) > 0);
    CHECK(count_kind(reference, LedgeKind::StepUp) > 0);
    CHECK(count_kind(reference, LedgeKind::Walk) > 0);
    const auto want = canonical(base, reference);
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<Corners> shuffled = polys;
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      std::uniform_real_distribution<float> jitter(-1e-7F, 1e-7F);
      for (Corners& c : shuffled)
        for (Vec3& v : c) v = {v.x + jitter(rng), v.y + jitter(rng), v.z + jitter(rng)};
      const mesh::NavMesh m = hand_mesh(shuffled, 0.75F, 1.5F, 2.0F);
      CHECK(canonical(m, run(m, unchecked(0.7F, 0.01F))) == want);
    }
  }

  TEST_CASE("bad options are refused with the field's name") {
    const mesh::NavMesh m = hand_mesh({rect(0, 2, 0, 2, 0, 0)}, 0.5F, 0.5F, 0.5F);
    BuildContext ctx;
    LedgeOptions o;
    o.max_gap = -1.0F;
    auto bad = build_ledge_links(m, nullptr, o, ctx);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("max_gap") != std::string::npos);
    auto no_triangles = build_ledge_links(m, nullptr, LedgeOptions{}, ctx);
    REQUIRE_FALSE(no_triangles.ok());
    CHECK(no_triangles.error().code == ErrorCode::InvalidArgument);
  }
}

TEST_SUITE("ledgelinks.build") {
  TEST_CASE(
      "a ledge of exactly the climb is walked, one cell higher gives jump-up and drop links") {
    const Built at_climb = build(ledge_scene(0.75F), ledge_config());
    CHECK(count_kind(at_climb.links, LedgeKind::JumpUp) == 0);
    CHECK(count_kind(at_climb.links, LedgeKind::Drop) == 0);
    const Built above = build(ledge_scene(1.0F), ledge_config());
    CHECK(above.links.stats.facing_pairs > 0);
    CHECK(length_of(above.links, LedgeKind::JumpUp) == doctest::Approx(kLedgeWidth).epsilon(0.1));
    CHECK(length_of(above.links, LedgeKind::Drop) == doctest::Approx(kLedgeWidth).epsilon(0.1));
    for (const LedgeLink& l : above.links.links) {
      CHECK(l.source_poly != l.dest_poly);
      // the crossing spans the eroded gap: about 2 r, never more than max_gap
      const float gap = distance(xz(l.source_a), xz(l.dest_a));
      CHECK(gap >= 0.25F);
      CHECK(gap <= 1.5F);
    }
  }

  TEST_CASE("a ledge one cell below the climb is walked, one cell below max_jump_up is jumped") {
    CHECK(build(ledge_scene(0.5F), ledge_config()).links.links.empty());
    const Built below = build(ledge_scene(1.25F), ledge_config());
    CHECK(length_of(below.links, LedgeKind::JumpUp) == doctest::Approx(kLedgeWidth).epsilon(0.1));
    CHECK(length_of(below.links, LedgeKind::Drop) == doctest::Approx(kLedgeWidth).epsilon(0.1));
  }

  TEST_CASE("a ledge of exactly max_jump_up gets jump-up links, one cell higher only drops") {
    const Built at = build(ledge_scene(1.5F), ledge_config());
    CHECK(length_of(at.links, LedgeKind::JumpUp) == doctest::Approx(kLedgeWidth).epsilon(0.1));
    const Built above = build(ledge_scene(1.75F), ledge_config());
    CHECK(count_kind(above.links, LedgeKind::JumpUp) == 0);
    CHECK(length_of(above.links, LedgeKind::Drop) == doctest::Approx(kLedgeWidth).epsilon(0.1));
  }

  TEST_CASE("a ledge of exactly max_drop gets drop links, one cell deeper gets none") {
    const Built at = build(ledge_scene(2.0F), ledge_config());
    CHECK(length_of(at.links, LedgeKind::Drop) == doctest::Approx(kLedgeWidth).epsilon(0.1));
    CHECK(count_kind(at.links, LedgeKind::JumpUp) == 0);
    const Built below = build(ledge_scene(2.25F), ledge_config());
    CHECK(below.links.links.empty());
  }

  TEST_CASE("floors at one height on both sides of a thin wall are paired but never linked") {
    const Built wall = build(io::wall_scene(2.0F), ledge_config());
    CHECK(wall.links.stats.candidates > 0);
    CHECK(wall.links.links.empty());
    CHECK(wall.links.stats.links_dropped == wall.links.stats.candidates);
  }

  TEST_CASE("stairs with risers above the climb are linked tread to tread by jump-up links") {
    io::SceneBuilder s("stairs");
    s.add_box({0.0F, 0.0F, 0.0F}, {16.0F, 1.0F, 6.0F});
    s.add_stairs({4.0F, 1.0F, 3.0F}, {1.0F, 0.0F}, 6.0F, 3, 1.0F, 3.0F);
    const Built b = build(s.take(), ledge_config());
    // floor (y 1) -> tread 1 (y 2) -> tread 2 (y 3) -> tread 3 (y 4)
    for (int k = 0; k < 3; ++k) {
      CAPTURE(k);
      const float low = 1.0F + static_cast<float>(k);
      const bool found =
          std::any_of(b.links.links.begin(), b.links.links.end(), [&](const LedgeLink& l) {
            return l.kind == LedgeKind::JumpUp && std::abs(l.source_a.y - low) < 0.3F &&
                   std::abs(l.dest_a.y - (low + 1.0F)) < 0.3F;
          });
      CHECK(found);
    }
    // stairs within the climb are walked: no ledge links at all
    io::SceneBuilder low("low stairs");
    low.add_box({0.0F, 0.0F, 0.0F}, {16.0F, 1.0F, 6.0F});
    low.add_stairs({4.0F, 1.0F, 3.0F}, {1.0F, 0.0F}, 6.0F, 3, 0.5F, 3.0F);
    const Built walked = build(low.take(), ledge_config());
    // only the stairs' far end (x = 13), a 1.5 m cliff down to the floor, is a ledge
    CHECK(count_kind(walked.links, LedgeKind::JumpUp) > 0);
    for (const LedgeLink& l : walked.links.links) CHECK(std::min(l.source_a.x, l.dest_a.x) > 12.5F);
  }

  TEST_CASE("a ramp's side is linked to the floor beside it by rise: step, jump-up, nothing") {
    io::SceneBuilder s("ramp");
    s.add_box({0.0F, 0.0F, 0.0F}, {20.0F, 1.0F, 10.0F});
    // 10 m long, 3 m wide along +x at z 1.5..4.5, 20 degrees: the high end 3.64 m up
    s.add_ramp({4.0F, 1.0F, 3.0F}, {1.0F, 0.0F}, 10.0F, 3.0F, 20.0F);
    const Built b = build(s.take(), ledge_config());
    CHECK(count_kind(b.links, LedgeKind::JumpUp) > 0);
    CHECK(count_kind(b.links, LedgeKind::Drop) > 0);
    // no link reaches above the jump-up threshold: rises are checked by build(); the highest
    // destination of a jump-up is at most max_jump_up above the floor
    for (const LedgeLink& l : b.links.links)
      if (l.kind == LedgeKind::JumpUp)
        CHECK(std::max(l.dest_a.y, l.dest_b.y) <= 1.0F + 1.5F + 0.3F);
  }

  TEST_CASE("the link set does not depend on the thread count") {
    const Built one = build(ledge_scene(1.0F), ledge_config(), 1);
    const Built four = build(ledge_scene(1.0F), ledge_config(), 4);
    CHECK(content_hash(one.links) == content_hash(four.links));
    CHECK_FALSE(one.links.links.empty());
  }
}

TEST_SUITE("ledgelinks.check") {
  TEST_CASE("a crossing is refused exactly when a wall comes within the radius of its path") {
    // lower segment at x = 0 (z 0..2), upper at x = 0.6, 1 m higher; a vertical wall at x = w
    const AgentConfig agent{1.8F, 0.25F, 0.5F, 45.0F, 1.5F, 2.0F};
    for (const float w : {0.24F, 0.26F}) {
      CAPTURE(w);
      io::SceneBuilder s("wall");
      // the wall: a thin box whose near face is x = w, from y 0 to 0.9 (below the top: it is the
      // ledge's face), z -1..3
      s.add_box({w, -0.5F, -1.0F}, {w + 0.1F, 0.9F, 3.0F});
      const LedgeChecker checker(s.mesh(), agent, 0.1F);
      LedgeChecker::Scratch scratch;
      const bool free = checker.passes({0, 0, 0}, {0, 0, 2}, {0.6F, 1, 0}, {0.6F, 1, 2}, scratch);
      CHECK(free == (w > 0.25F));
    }
  }
}

TEST_SUITE("ledgelinks.surface") {
  TEST_CASE(
      "a drop beside walkable stairs that run along the ledge is bounded by the floor under its "
      "ends, not by the heights of its polygon's vertices") {
    // lower floor y 1; an upper block x 8..16 whose top stands 2.25 m above it (beyond max_drop
    // 2.0); beside the block's wall, stairs (0.25 m risers, walkable) rise along +z from z 6 to
    // 1 m. One straight boundary edge runs along the wall over floor and treads, so its vertices
    // sit on the floor and on the top tread while the floor under most of it is lower.
    io::SceneBuilder s("drop beside stairs");
    s.add_box({0.0F, 0.0F, 0.0F}, {16.0F, 1.0F, 14.0F});
    s.add_box({8.0F, 1.0F, 0.0F}, {16.0F, 3.25F, 14.0F});
    s.add_stairs({6.0F, 1.0F, 6.0F}, {0.0F, 1.0F}, 4.0F, 4, 0.25F, 1.0F);
    s.add_box({4.0F, 1.0F, 10.0F}, {8.0F, 2.0F, 14.0F});
    const TriangleMesh scene = s.take();
    BuildContext ctx;
    auto out = mesh::build_navmesh(scene, ledge_config(), ctx);
    REQUIRE(out.ok());
    auto set = build_ledge_links(out->navmesh, &scene, {}, ctx);
    REQUIRE(set.ok());
    // the treads (surface 1.5..2.25 under a top at 3.5) are 2.0 m down or less; the floor before
    // them (1.25) is 2.25 m down: drops over z 6..13.5 only (vertex heights gave z 3.75..13.5)
    CHECK(length_of(*set, LedgeKind::Drop) > 7.0);
    for (const LedgeLink& l : set->links)
      if (l.kind == LedgeKind::Drop) CHECK(std::min(l.source_a.z, l.source_b.z) >= 5.99F);
    CHECK(test::check_surface_rises(out->navmesh, *set, 0.01F) == 0);
  }

  TEST_CASE("demo's ledge links rise within their kind's range on the surface, untiled and tiled") {
    auto scene = io::load_scene("builtin:demo");
    REQUIRE(scene.ok());
    BuildConfig config = *named_config("default");
    BuildContext ctx;
    auto untiled = mesh::build_navmesh(*scene, config, ctx);
    REQUIRE(untiled.ok());
    auto links = build_ledge_links(untiled->navmesh, &*scene, {}, ctx);
    REQUIRE(links.ok());
    CHECK(test::check_surface_rises(untiled->navmesh, *links, 0.01F) == 0);
    for (const int tile : {16, 32, 64}) {
      CAPTURE(tile);
      auto tiled = mesh::build_tiled_navmesh(*scene, config, mesh::TileConfig{tile, -1}, ctx);
      REQUIRE(tiled.ok());
      auto tiled_links = build_ledge_links(tiled->navmesh, &*scene, tiled_ledge_options(), ctx);
      REQUIRE(tiled_links.ok());
      CHECK(test::check_surface_rises(tiled->navmesh, *tiled_links, 0.01F) == 0);
    }
  }
}
