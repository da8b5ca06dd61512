// Crouching in queries: a crouch strip against a standing detour is taken exactly while
// crouch_cost times its length is cheaper (closed-form break-even, the same rule as area costs, on
// top of them); crouch = false never enters a crouch polygon, and include_flags does not treat the
// crouch flag as a user flag; walk segments are cut at each crouch transition.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;

namespace {

std::uint32_t poly_at(const plan::Planner& planner, float x, float z) {
  const auto at = planner.locate({x, 0.0F, z}, {0.01F, 1.0F, 0.01F});
  REQUIRE(at.ok());
  REQUIRE(at->has_value());
  return mesh::index((*at)->poly);
}

/// The filter test's grid: 5 x 4 cells of 1 m without rows 1-2 of columns 1-3, the cells 1-3 of
/// row 0 (the strip) flagged crouch.
struct Strip {
  mesh::NavMesh nav;
  std::vector<std::uint32_t> strip;
};

Strip crouch_strip() {
  Strip out;
  out.nav = test::grid_navmesh(
      5, 4, 1.0F, [](int i, int j) { return !(i >= 1 && i <= 3 && (j == 1 || j == 2)); });
  auto planner = plan::Planner::create(out.nav);
  REQUIRE(planner.ok());
  for (const float x : {1.5F, 2.5F, 3.5F}) out.strip.push_back(poly_at(*planner, x, 0.5F));
  for (const std::uint32_t p : out.strip) out.nav.poly_flags[p] = mesh::kPolyFlagCrouch;
  return out;
}

/// Whether convex polygon p's closed xz outline contains q, to 1e-4 m (either winding).
bool contains(const mesh::NavMesh& nav, std::uint32_t p, Vec2 q) {
  const auto verts = nav.polygon(mesh::PolyId{p});
  bool left = true;
  bool right = true;
  for (std::size_t k = 0; k < verts.size(); ++k) {
    const Vec2 a = xz(nav.vertices[verts[k]]);
    const Vec2 b = xz(nav.vertices[verts[(k + 1) % verts.size()]]);
    const float side = cross(b - a, q - a) / std::max(distance(a, b), 1e-6F);
    left = left && side >= -1e-4F;
    right = right && side <= 1e-4F;
  }
  return left || right;
}

bool crosses(const plan::Path& path, const std::vector<std::uint32_t>& polys) {
  return std::any_of(path.corridor.begin(), path.corridor.end(), [&](auto p) {
    return std::find(polys.begin(), polys.end(), mesh::index(p)) != polys.end();
  });
}

}  // namespace

TEST_SUITE("plan.postures") {
  TEST_CASE("a crouch strip is crossed exactly while crouch cost x area cost beats the detour") {
    // start (0.5, 0.5), goal (4.5, 0.5): through the strip 0.5 + 3 c a + 0.5 (c the crouch cost,
    // a the area cost), the detour 7 + 2 (0.5) + 2 sqrt(0.5)
    const Strip s = crouch_strip();
    auto planner = plan::Planner::create(s.nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    const double detour = 8.0 + 2.0 * std::sqrt(0.5);
    const double break_even = (detour - 1.0) / 3.0;  // 2.4714
    for (const float area : {1.0F, 2.0F}) {
      for (const float c : {0.5F, 1.0F, 1.2F, 1.3F, 2.4F, 2.55F, 10.0F}) {
        CAPTURE(area);
        CAPTURE(c);
        plan::QueryOptions options;
        options.crouch_cost = c;
        options.area_costs[s.nav.poly_area[s.strip[0]]] = area;
        auto path = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
        REQUIRE(path.ok());
        REQUIRE(path->status == plan::PathStatus::Found);
        // note: the area cost also applies to every other polygon of the grid (one area id)
        const double through = area * (1.0 + 3.0 * c);
        const double around = area * detour;
        const bool crossed = crosses(*path, s.strip);
        CHECK(crossed == (c < break_even));
        CHECK(path->search_cost == doctest::Approx(std::min(through, around)).epsilon(1e-5));
        if (crossed) {
          // stand, crouch, stand, cut on the strip's borders x = 1 and x = 4
          REQUIRE(path->segments.size() == 3);
          CHECK(path->segments[1].posture == plan::Posture::Crouch);
          CHECK(path->points[path->segments[1].first].x == doctest::Approx(1.0));
          CHECK(path->points[path->segments[1].last].x == doctest::Approx(4.0));
          CHECK(path->length == doctest::Approx(4.0));
        } else {
          REQUIRE(path->segments.size() == 1);
          CHECK(path->segments[0].posture == plan::Posture::Stand);
        }
      }
    }
  }

  TEST_CASE("crouch = false never enters a crouch polygon; include_flags ignores the crouch flag") {
    const Strip s = crouch_strip();
    auto planner = plan::Planner::create(s.nav);
    REQUIRE(planner.ok());
    plan::NavQuery query(*planner);
    plan::QueryOptions options;
    options.crouch_cost = 0.1F;  // the strip would be far cheaper
    options.include_flags = 0x0001;
    auto with = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
    REQUIRE(with.ok());
    CHECK(crosses(*with, s.strip));
    options.crouch = false;
    auto without = query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options);
    REQUIRE(without.ok());
    REQUIRE(without->status == plan::PathStatus::Found);
    CHECK_FALSE(crosses(*without, s.strip));
    // a goal in a crouch polygon has no path when crouching is forbidden
    auto goal = query.find_path({0.5F, 0.0F, 3.5F}, {2.5F, 0.0F, 0.5F}, options);
    REQUIRE(goal.ok());
    CHECK(goal->status == plan::PathStatus::NoPath);
    // bad crouch costs are invalid input
    for (const float bad : {0.0F, -1.0F, std::nanf(""), INFINITY}) {
      options.crouch_cost = bad;
      CHECK_FALSE(query.find_path({0.5F, 0.0F, 0.5F}, {4.5F, 0.0F, 0.5F}, options).ok());
    }
  }

  TEST_CASE("random crouch flags: every walk segment has one posture, segments join and cover") {
    // grid meshes put many path corners exactly on portal ends, where cuts coincide with corners
    int cut_paths = 0;
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      auto nav = test::random_grid_navmesh(14, 14, 0.15F, seed);
      std::mt19937 rng(seed);
      std::uniform_int_distribution<int> pick(0, 2);
      for (auto& flags : nav.poly_flags) flags = pick(rng) == 0 ? mesh::kPolyFlagCrouch : 0;
      auto planner = plan::Planner::create(nav);
      REQUIRE(planner.ok());
      plan::NavQuery query(*planner);
      const auto ends = plan::random_points(nav, 80, seed);
      for (std::size_t q = 0; q + 1 < ends.size(); q += 2) {
        CAPTURE(seed);
        CAPTURE(q);
        auto path = query.find_path(ends[q].point, ends[q + 1].point);
        REQUIRE(path.ok());
        if (path->status != plan::PathStatus::Found) continue;
        const plan::Path& p = *path;
        REQUIRE_FALSE(p.segments.empty());
        CHECK(p.segments.front().first == 0);
        CHECK(p.segments.front().corridor_first == 0);
        CHECK(p.segments.back().last + 1 == p.points.size());
        CHECK(p.segments.back().corridor_last + 1 == p.corridor.size());
        double length = 0.0;
        for (std::size_t i = 1; i < p.points.size(); ++i)
          length += distance(xz(p.points[i - 1]), xz(p.points[i]));
        CHECK(p.length == doctest::Approx(length).epsilon(1e-6));
        cut_paths += p.segments.size() > 1 ? 1 : 0;
        for (std::size_t k = 0; k < p.segments.size(); ++k) {
          const plan::PathSegment& s = p.segments[k];
          CHECK(s.kind == plan::SegmentKind::Walk);
          CHECK(s.last > s.first);
          CHECK(s.corridor_last >= s.corridor_first);
          if (k > 0) {
            CHECK(s.first == p.segments[k - 1].last);
            CHECK(s.corridor_first == p.segments[k - 1].corridor_last + 1);
            CHECK(s.posture != p.segments[k - 1].posture);
          }
          // the middle of every piece lies in a polygon of the segment with its posture (a
          // polygon of the other posture may join a segment where the path only touches it)
          for (std::uint32_t i = s.first; i < s.last; ++i) {
            const Vec2 mid = (xz(p.points[i]) + xz(p.points[i + 1])) * 0.5F;
            if (distance(xz(p.points[i]), xz(p.points[i + 1])) < 1e-4F) continue;
            bool matched = false;
            for (std::uint32_t c = s.corridor_first; c <= s.corridor_last && !matched; ++c) {
              const auto poly = mesh::index(p.corridor[c]);
              const bool crouch = (nav.poly_flags[poly] & mesh::kPolyFlagCrouch) != 0;
              matched = crouch == (s.posture == plan::Posture::Crouch) && contains(nav, poly, mid);
            }
            CHECK(matched);
          }
        }
      }
    }
    CHECK(cut_paths > 20);
  }
}
