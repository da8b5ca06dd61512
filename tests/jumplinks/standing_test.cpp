// The plane bound of the exact check (LinkCheckOptions::plane_bound) gives the same verdicts and
// depths as the check without it, in fewer regions, on links standing on slopes and stairs.
// The standing-pose shortcut of the exact check (LinkChecker::standing_fails) and the refinement
// that uses it: the shortcut agrees with the closed form beside a wall, every link it names fails
// check(), and refinement with it emits exactly what plain bisection with check() on every piece
// emits. Closed-form scene: a floor at 1 m, a wall at x [4.5, 5] and a step at x >= 7.5, with
// polygons that reach into the wall's and the step's radius zone (so standing poses there
// penetrate); random links across the wall (fixed seed).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

// Floor x [0, 10] z [0, 6] with its top at 1 m, a wall x [4.5, 5] of height `wall` above it and a
// step x [7.5, 10] 0.3 m high; polygon 0 reaches the wall face (x 4.5), polygon 1 spans from the
// wall's far face past the step's riser (x 5 .. 7.75), both at 1 m. The agent: radius 0.25 m,
// height 1.8 m.
test::JumpScene standing_scene(float wall) {
  return test::JumpSceneBuilder(48, 24)
      .box({0.0F, 0.0F, 0.0F}, {10.0F, 1.0F, 6.0F})
      .box({4.5F, 1.0F, 0.0F}, {5.0F, 1.0F + wall, 6.0F})
      .box({7.5F, 1.0F, 0.0F}, {10.0F, 1.3F, 6.0F})
      .polygon({0.25F, 0.25F, 4.5F, 5.75F, 1.0F})
      .polygon({5.0F, 0.25F, 7.75F, 5.75F, 1.0F})
      .build();
}

// Random links from polygon 0 near the wall to land segments on polygon 1, configuration 0.
std::vector<JumpLink> random_links(std::uint32_t seed, std::size_t n) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> start_x(3.8F, 4.5F);
  std::uniform_real_distribution<float> land_x(5.0F, 7.75F);
  std::uniform_real_distribution<float> any_z(1.0F, 5.0F);
  std::vector<JumpLink> links;
  for (std::size_t k = 0; k < n; ++k) {
    JumpLink link;
    link.start = {start_x(rng), 1.0F, any_z(rng)};
    link.land_a = {land_x(rng), 1.0F, any_z(rng)};
    link.land_b = {land_x(rng), 1.0F, any_z(rng)};
    link.start_poly = 0;
    link.land_poly = 1;
    link.config = 0;
    links.push_back(link);
  }
  return links;
}

// Plain bisection (the refinement's rule without the standing-pose shortcut): endpoints lifted,
// each piece checked exactly, failing pieces halved down to min_piece.
struct PlainEnd {
  Vec3 point;
  double lo = 0.0;
  double hi = 0.0;
};

class PlainRefiner {
 public:
  PlainRefiner(const LinkChecker& checker, const mesh::NavMesh& navmesh,
               const LinkRefineOptions& options, const JumpConfig& config)
      : checker_(checker), navmesh_(navmesh), options_(options), config_(config) {}

  void refine(const JumpLink& voxel_link, std::vector<JumpLink>& out) {
    JumpLink link = voxel_link;
    for (Vec3* p : {&link.start, &link.land_a, &link.land_b}) lift(*p, p->y, p->y);
    if (!checker_.check(link, config_, false, scratch_).failed()) {
      out.push_back(link);
      return;
    }
    pieces(link, {link.land_a, voxel_link.land_a.y, voxel_link.land_a.y},
           {link.land_b, voxel_link.land_b.y, voxel_link.land_b.y}, out);
  }

 private:
  void lift(Vec3& p, double lo, double hi) const {
    const double y = surface_height(checker_, navmesh_, p.x, p.z, lo, hi);
    if (!std::isnan(y)) p.y = static_cast<float>(y);
  }
  void pieces(const JumpLink& link, const PlainEnd& a, const PlainEnd& b,
              std::vector<JumpLink>& out) {
    const double len = std::hypot(static_cast<double>(b.point.x) - a.point.x,
                                  static_cast<double>(b.point.z) - a.point.z);
    if (len <= options_.min_piece) return;
    PlainEnd mid{(a.point + b.point) * 0.5F, std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    lift(mid.point, mid.lo, mid.hi);
    for (const auto& [p, q] : {std::pair{a, mid}, std::pair{mid, b}}) {
      JumpLink piece = link;
      piece.land_a = p.point;
      piece.land_b = q.point;
      if (!checker_.check(piece, config_, false, scratch_).failed())
        out.push_back(piece);
      else
        pieces(link, p, q, out);
    }
  }

  const LinkChecker& checker_;
  const mesh::NavMesh& navmesh_;
  const LinkRefineOptions& options_;
  const JumpConfig& config_;
  LinkChecker::Scratch scratch_;
};

}  // namespace

TEST_SUITE("jumplinks.check.standing") {
  TEST_CASE("a standing pose fails exactly where the cylinder reaches past the wall face") {
    const test::JumpScene scene = standing_scene(2.0F);
    const LinkChecker checker(scene.triangles, scene.navmesh, scene.config.agent, {});
    // the wall face is at x = 4.5, the radius 0.25 m: depth 0.25 - (4.5 - x), decided against
    // tolerance + 2 resolution + 1e-6 = 1.21e-4 m; the flat floor under the feet is no contact
    CHECK_FALSE(checker.standing_fails({2.0F, 1.0F, 3.0F}));
    CHECK_FALSE(checker.standing_fails({4.2499F, 1.0F, 3.0F}));
    CHECK_FALSE(checker.standing_fails({4.2501F, 1.0F, 3.0F}));  // 1e-4 m deep: forgiven
    CHECK(checker.standing_fails({4.2503F, 1.0F, 3.0F}));
    CHECK(checker.standing_fails({4.4F, 1.0F, 3.0F}));
    // the step's riser at x = 7.5 (0.3 m high, above the foot zone of a vertical face)
    CHECK_FALSE(checker.standing_fails({7.2F, 1.0F, 3.0F}));
    CHECK(checker.standing_fails({7.3F, 1.0F, 3.0F}));
    // standing on the step's top is no contact
    CHECK_FALSE(checker.standing_fails({8.5F, 1.3F, 3.0F}));
  }

  TEST_CASE("every random link with a failing start or landing pose fails the exact check") {
    for (const float wall : {0.3F, 2.0F}) {
      CAPTURE(wall);
      const test::JumpScene scene = standing_scene(wall);
      const LinkChecker checker(scene.triangles, scene.navmesh, scene.config.agent, {});
      LinkChecker::Scratch scratch;
      std::size_t named = 0;
      std::size_t named_collisions = 0;
      std::size_t passing = 0;
      for (const JumpLink& link : random_links(7U, 1500)) {
        const LinkVerdict verdict = checker.check(link, kJumpC1, false, scratch);
        passing += verdict.failed() ? 0 : 1;
        if (!checker.standing_fails(link.start) && !checker.standing_fails(link.land_a) &&
            !checker.standing_fails(link.land_b))
          continue;
        ++named;
        CHECK(verdict.failed());
        // the landing test passes for these (on the polygon, at its height): the branch and bound
        // found the witness
        if (!verdict.landing) {
          ++named_collisions;
          CHECK(verdict.collision);
        }
      }
      // the claim is tested on many links, also ones the landing test alone does not fail, and
      // the scene is not one where everything fails
      CHECK(named > 300);
      CHECK(named_collisions > 300);
      if (wall < 1.0F) CHECK(passing > 100);
    }
  }

  TEST_CASE("refinement emits exactly what plain bisection with the exact check emits") {
    const test::JumpScene scene = standing_scene(0.3F);
    JumpLinkSet set;
    set.configs = {kJumpC1};
    set.links = random_links(11U, 600);
    index_links(set, scene.navmesh.polygon_count());
    const LinkRefineOptions options;
    const LinkChecker checker(scene.triangles, scene.navmesh, scene.config.agent, options.check);
    std::vector<JumpLink> plain;
    PlainRefiner reference(checker, scene.navmesh, options, kJumpC1);
    for (const JumpLink& link : set.links) reference.refine(link, plain);
    BuildContext ctx;
    ctx.set_threads(1);
    auto stats =
        refine_links(set, scene.triangles, scene.navmesh, scene.config.agent, options, ctx);
    REQUIRE(stats.ok());
    // the random links do not come sorted by (start, land, config); both keep the input order
    CHECK(stats->links_failing > 100);
    CHECK(stats->links_shortened > 10);
    CHECK(stats->links_dropped > 10);
    REQUIRE(set.links.size() == plain.size());
    std::size_t differing = 0;
    for (std::size_t k = 0; k < plain.size(); ++k) differing += set.links[k] == plain[k] ? 0 : 1;
    CHECK(differing == 0);
  }
}

TEST_SUITE("jumplinks.check.plane_bound") {
  TEST_CASE("the plane bound keeps every verdict and depth and examines fewer regions") {
    // a platform, a 20 degree ramp and stairs beside a 0.3 m block: links generated by the
    // pipeline (lifted onto the slopes), then each jittered by up to 0.3 m so that many fail
    io::SceneBuilder builder("slopes");
    builder.add_box({0.0F, 0.0F, 0.0F}, {6.0F, 1.0F, 6.0F});
    builder.add_ramp({7.5F, 0.0F, 0.0F}, {1.0F, 0.0F}, 6.0F, 6.0F, 20.0F);
    builder.add_stairs({0.0F, 0.0F, 7.5F}, {1.0F, 0.0F}, 3.0F, 6, 0.2F, 0.5F);
    builder.add_box({4.0F, 0.0F, 7.5F}, {6.0F, 0.3F, 10.5F});
    const TriangleMesh triangles = builder.take();
    auto config = named_config("thesis");
    REQUIRE(config.ok());
    BuildContext ctx;
    ctx.set_threads(1);
    auto built = mesh::build_navmesh(triangles, *config, ctx);
    REQUIRE(built.ok());
    JumpLinkOptions options;
    options.jumps = {kJumpC1, kJumpC2};
    options.step = 2;
    auto links = build_jump_links(built->voxels.solid, built->voxels.compact, built->navmesh,
                                  config->agent, options, ctx);
    REQUIRE(links.ok());
    REQUIRE(refine_links(*links, triangles, built->navmesh, config->agent, {}, ctx).ok());
    REQUIRE(links->links.size() > 200);
    std::mt19937 rng(3U);
    std::uniform_real_distribution<float> jitter(-0.3F, 0.3F);
    std::vector<JumpLink> all = links->links;
    for (const JumpLink& link : links->links) {
      JumpLink moved = link;
      for (Vec3* p : {&moved.start, &moved.land_a, &moved.land_b}) {
        p->x += jitter(rng);
        p->z += jitter(rng);
        p->y += 0.1F * jitter(rng);
      }
      all.push_back(moved);
    }
    LinkCheckOptions with;
    LinkCheckOptions without;
    without.plane_bound = false;
    const LinkChecker a(triangles, built->navmesh, config->agent, with);
    const LinkChecker b(triangles, built->navmesh, config->agent, without);
    LinkChecker::Scratch scratch;
    std::uint64_t regions_with = 0;
    std::uint64_t regions_without = 0;
    std::size_t collisions = 0;
    std::size_t passing = 0;
    std::size_t mismatches = 0;
    for (const JumpLink& link : all) {
      const JumpConfig& jump = links->configs[link.config];
      const LinkVerdict va = a.check(link, jump, true, scratch);
      const LinkVerdict vb = b.check(link, jump, true, scratch);
      mismatches +=
          va.collision == vb.collision && va.landing == vb.landing && va.depth == vb.depth ? 0 : 1;
      CHECK(va.regions <= vb.regions);
      regions_with += va.regions;
      regions_without += vb.regions;
      collisions += vb.collision ? 1 : 0;
      passing += vb.failed() ? 0 : 1;
    }
    CHECK(mismatches == 0);
    // both kinds of verdict are tested, and the bound saves most of the work on these floors
    CHECK(collisions > 50);
    CHECK(passing > 200);
    CHECK(regions_with * 3 < regions_without * 2);
  }
}
