// Streaming tiles into a running planner: a 30 m floor built in 5 x 5 tiles, paths across
// unloaded tiles (detour or NoPath with the reason), reloading restores the paths exactly, no
// path ever enters an unloaded tile (checked against a breadth-first search over the loaded
// polygons), ends in unloaded tiles, and the .lnav "tile" chunk.

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/planning/query.hpp"
#include "support/tiled_scene.hpp"

using namespace leapnav;

namespace {

// A 30 m x 30 m floor (100 columns of 0.3 m) in tiles of 20 columns (6 m): 5 x 5 tiles.
const mesh::NavMesh& tiled_floor() {
  static const mesh::NavMesh mesh = [] {
    io::SceneBuilder b("floor");
    b.add_quad({0, 0, 0}, {0, 0, 30}, {30, 0, 30}, {30, 0, 0});
    mesh::TileConfig tiles;
    tiles.tile_size = 20;
    BuildContext ctx;
    auto out = mesh::build_tiled_navmesh(b.take(), *named_config("default"), tiles, ctx);
    REQUIRE(out.ok());
    return std::move(out).value().navmesh;
  }();
  return mesh;
}

std::uint32_t tile_at(const plan::Planner& planner, float x, float z) {
  auto loc = planner.locate({x, 0.0F, z}, {0.5F, 1.0F, 0.5F});
  REQUIRE(loc.ok());
  REQUIRE(loc->has_value());
  return planner.tile_of((*loc)->poly);
}

void check_loaded(const plan::Planner& planner, const plan::Path& path) {
  for (const mesh::PolyId p : path.corridor) CHECK(planner.tile_loaded(planner.tile_of(p)));
}

// Whether polygon `to` is reachable from `from` over polygons of loaded tiles (walking).
bool reachable_loaded(const plan::Planner& planner, mesh::PolyId from, mesh::PolyId to) {
  const mesh::NavMesh& m = planner.mesh();
  std::vector<char> seen(m.polygon_count(), 0);
  std::queue<std::uint32_t> open;
  open.push(mesh::index(from));
  seen[mesh::index(from)] = 1;
  while (!open.empty()) {
    const std::uint32_t p = open.front();
    open.pop();
    if (p == mesh::index(to)) return true;
    for (const std::uint32_t q : m.neighbors(mesh::PolyId{p})) {
      if (q == mesh::kNoPoly || seen[q] != 0) continue;
      if (!planner.tile_loaded(planner.tile_of(mesh::PolyId{q}))) continue;
      seen[q] = 1;
      open.push(q);
    }
  }
  return false;
}

bool same_path(const plan::Path& a, const plan::Path& b) {
  if (a.status != b.status || a.corridor != b.corridor || a.points.size() != b.points.size())
    return false;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    if (!(a.points[i] == b.points[i])) return false;
  }
  return true;
}

}  // namespace

TEST_SUITE("plan.streaming") {
  TEST_CASE("a tiled build records each tile's polygon range and an untiled build none") {
    const mesh::NavMesh& m = tiled_floor();
    REQUIRE(m.tile_poly_first.size() == 26);
    CHECK(m.tile_poly_first.front() == 0);
    CHECK(m.tile_poly_first.back() == m.polygon_count());
    auto planner = plan::Planner::create(m);
    REQUIRE(planner.ok());
    CHECK(planner->tile_count() == 25);
    // every tile of the floor holds polygons, and each polygon lies inside its tile's range
    for (std::size_t t = 0; t + 1 < m.tile_poly_first.size(); ++t) {
      CHECK(m.tile_poly_first[t] < m.tile_poly_first[t + 1]);
      for (std::uint32_t p = m.tile_poly_first[t]; p < m.tile_poly_first[t + 1]; ++p)
        CHECK(planner->tile_of(mesh::PolyId{p}) == t);
    }

    io::SceneBuilder b("floor");
    b.add_quad({0, 0, 0}, {0, 0, 30}, {30, 0, 30}, {30, 0, 0});
    BuildContext ctx;
    auto untiled = mesh::build_tiled_navmesh(b.take(), *named_config("default"), {}, ctx);
    REQUIRE(untiled.ok());
    CHECK(untiled->navmesh.tile_poly_first.empty());
    auto flat = plan::Planner::create(untiled->navmesh);
    REQUIRE(flat.ok());
    CHECK(flat->tile_count() == 0);
    CHECK(flat->tile_of(mesh::PolyId{0}) == plan::kNoTile);
    const Status bad = flat->unload_tile(0);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("no tiles") != std::string::npos);
  }

  TEST_CASE("unload_tile and load_tile reject a tile index out of range, naming it") {
    auto planner = plan::Planner::create(tiled_floor());
    REQUIRE(planner.ok());
    const Status bad = planner->unload_tile(25);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("tile 25") != std::string::npos);
    CHECK(bad.error().message.find("25 tiles") != std::string::npos);
    CHECK_FALSE(planner->load_tile(1000).ok());
    CHECK_FALSE(planner->tile_loaded(25));
    CHECK(planner->tile_loaded(0));
  }

  TEST_CASE("a path detours around an unloaded tile and fails with the reason across a cut") {
    auto made = plan::Planner::create(tiled_floor());
    REQUIRE(made.ok());
    plan::Planner planner = *made;
    const Vec3 start{2.0F, 0.0F, 15.0F};
    const Vec3 goal{28.0F, 0.0F, 15.0F};
    for (const auto search : {plan::WalkSearch::Portals, plan::WalkSearch::Exact}) {
      CAPTURE(static_cast<int>(search));
      plan::QueryOptions options;
      options.walk_search = search;
      plan::NavQuery query(planner);
      auto before = query.find_path(start, goal, options);
      REQUIRE(before.ok());
      REQUIRE(before->status == plan::PathStatus::Found);
      CHECK(before->length == doctest::Approx(26.0).epsilon(1e-3));

      // the middle tile: the path goes around it, longer
      const std::uint32_t middle = tile_at(planner, 15.0F, 15.0F);
      REQUIRE(planner.unload_tile(middle).ok());
      CHECK_FALSE(planner.tile_loaded(middle));
      auto detour = query.find_path(start, goal, options);
      REQUIRE(detour.ok());
      REQUIRE(detour->status == plan::PathStatus::Found);
      CHECK(detour->length > before->length + 0.5);
      check_loaded(planner, *detour);

      // the whole middle column of tiles: no way across
      std::set<std::uint32_t> column;
      for (const float z : {3.0F, 9.0F, 15.0F, 21.0F, 27.0F})
        column.insert(tile_at(planner, 15.0F, z));
      REQUIRE(column.size() == 5);
      for (const std::uint32_t t : column) REQUIRE(planner.unload_tile(t).ok());
      auto cut = query.find_path(start, goal, options);
      REQUIRE(cut.ok());
      CHECK(cut->status == plan::PathStatus::NoPath);
      CHECK(cut->blocked_by_unloaded_tiles);
      CHECK(cut->unloaded_tile == plan::kNoTile);
      CHECK(cut->corridor.empty());

      // loading them again restores the original path exactly
      for (const std::uint32_t t : column) REQUIRE(planner.load_tile(t).ok());
      auto after = query.find_path(start, goal, options);
      REQUIRE(after.ok());
      CHECK(same_path(*before, *after));
      CHECK_FALSE(after->blocked_by_unloaded_tiles);
    }
  }

  TEST_CASE("a start or goal in an unloaded tile gets NoPath naming that tile") {
    auto made = plan::Planner::create(tiled_floor());
    REQUIRE(made.ok());
    plan::Planner planner = *made;
    const std::uint32_t corner = tile_at(planner, 2.0F, 2.0F);
    const std::uint32_t far = tile_at(planner, 28.0F, 28.0F);
    REQUIRE(planner.unload_tile(corner).ok());
    REQUIRE(planner.unload_tile(corner).ok());  // twice: no change
    plan::NavQuery query(planner);
    auto from = query.find_path({2.0F, 0.0F, 2.0F}, {28.0F, 0.0F, 28.0F});
    REQUIRE(from.ok());
    CHECK(from->status == plan::PathStatus::NoPath);
    CHECK(from->blocked_by_unloaded_tiles);
    CHECK(from->unloaded_tile == corner);
    REQUIRE(planner.load_tile(corner).ok());
    REQUIRE(planner.unload_tile(far).ok());
    auto to = query.find_path({2.0F, 0.0F, 2.0F}, {28.0F, 0.0F, 28.0F});
    REQUIRE(to.ok());
    CHECK(to->status == plan::PathStatus::NoPath);
    CHECK(to->unloaded_tile == far);
    // a copy of the planner shares the tile state
    plan::Planner copy = planner;
    CHECK_FALSE(copy.tile_loaded(far));
    REQUIRE(copy.load_tile(far).ok());
    CHECK(planner.tile_loaded(far));
    auto found = query.find_path({2.0F, 0.0F, 2.0F}, {28.0F, 0.0F, 28.0F});
    REQUIRE(found.ok());
    CHECK(found->status == plan::PathStatus::Found);
    CHECK(found->unloaded_tile == plan::kNoTile);
  }

  TEST_CASE(
      "random queries never cross an unloaded tile and find a path exactly when one exists "
      "over loaded polygons") {
    auto made = plan::Planner::create(tiled_floor());
    REQUIRE(made.ok());
    plan::Planner planner = *made;
    std::mt19937 rng(24);
    std::uniform_int_distribution<std::uint32_t> pick_tile(0, 24);
    std::uniform_real_distribution<float> coord(0.5F, 29.5F);
    int found = 0;
    int blocked = 0;
    int in_unloaded = 0;
    for (int round = 0; round < 4; ++round) {
      for (std::uint32_t t = 0; t < 25; ++t) REQUIRE(planner.load_tile(t).ok());
      for (int k = 0; k < 7; ++k) REQUIRE(planner.unload_tile(pick_tile(rng)).ok());
      plan::NavQuery query(planner);
      for (int i = 0; i < 60; ++i) {
        const Vec3 start{coord(rng), 0.0F, coord(rng)};
        const Vec3 goal{coord(rng), 0.0F, coord(rng)};
        plan::QueryOptions options;
        options.walk_search = i % 2 == 0 ? plan::WalkSearch::Portals : plan::WalkSearch::Exact;
        auto path = query.find_path(start, goal, options);
        REQUIRE(path.ok());
        auto s = planner.locate(start, options.search_extent);
        auto g = planner.locate(goal, options.search_extent);
        REQUIRE((s.ok() && g.ok() && s->has_value() && g->has_value()));
        const std::uint32_t ts = planner.tile_of((*s)->poly);
        const std::uint32_t tg = planner.tile_of((*g)->poly);
        check_loaded(planner, *path);
        if (!planner.tile_loaded(ts) || !planner.tile_loaded(tg)) {
          ++in_unloaded;
          CHECK(path->status == plan::PathStatus::NoPath);
          CHECK(path->unloaded_tile == (planner.tile_loaded(ts) ? tg : ts));
          continue;
        }
        const bool oracle = reachable_loaded(planner, (*s)->poly, (*g)->poly);
        CHECK(oracle == (path->status == plan::PathStatus::Found));
        if (path->status == plan::PathStatus::Found) ++found;
        if (path->status == plan::PathStatus::NoPath) {
          CHECK(path->blocked_by_unloaded_tiles);
          ++blocked;
        }
      }
    }
    MESSAGE(found << " found, " << blocked << " blocked, " << in_unloaded
                  << " with an end in an unloaded tile");
    CHECK(found > 0);
    CHECK(in_unloaded > 0);
  }
}

TEST_SUITE("plan.streaming") {
  TEST_CASE("a jump into an unloaded tile is never taken") {
    const test::TiledWorld gap = test::tiled_gap_world();
    auto made = plan::Planner::create(gap.mesh, gap.link_set());
    REQUIRE(made.ok());
    plan::Planner planner = *made;
    const Vec3 start{2.0F, io::kJumpFloorTop, 3.0F};
    const Vec3 goal{io::kJumpPlatformLength + 1.0F + 7.5F, io::kJumpFloorTop, 3.0F};
    plan::NavQuery query(planner);
    auto before = query.find_path(start, goal);
    REQUIRE(before.ok());
    REQUIRE(before->status == plan::PathStatus::Found);
    REQUIRE(before->jump_count > 0);
    std::uint32_t land = plan::kNoTile;
    for (const plan::PathSegment& seg : before->segments) {
      if (seg.kind == plan::SegmentKind::Jump)
        land = planner.tile_of(before->corridor[seg.corridor_last]);
    }
    REQUIRE(land != plan::kNoTile);
    REQUIRE(land != planner.tile_of(before->corridor.back()));
    REQUIRE(planner.unload_tile(land).ok());
    auto after = query.find_path(start, goal);
    REQUIRE(after.ok());
    check_loaded(planner, *after);
    CHECK_FALSE(same_path(*before, *after));
    MESSAGE("with the landing tile unloaded: " << plan::to_string(after->status) << ", "
                                               << after->jump_count << " jumps");
    if (after->status == plan::PathStatus::NoPath) CHECK(after->blocked_by_unloaded_tiles);
    REQUIRE(planner.load_tile(land).ok());
    auto again = query.find_path(start, goal);
    REQUIRE(again.ok());
    CHECK(same_path(*before, *again));
  }
}

TEST_SUITE("io.tiles") {
  TEST_CASE("the tile chunk round-trips and a bad tile range is refused with a message") {
    const mesh::NavMesh& m = tiled_floor();
    auto back = io::decode_navmesh(io::encode_navmesh(m), "floor.lnav");
    REQUIRE(back.ok());
    CHECK(back->tile_poly_first == m.tile_poly_first);

    mesh::NavMesh bad = m;
    std::swap(bad.tile_poly_first[3], bad.tile_poly_first[4]);
    auto refused = io::decode_navmesh(io::encode_navmesh(bad), "bad.lnav");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("tile_poly_first") != std::string::npos);
    CHECK(refused.error().message.find("bad.lnav") != std::string::npos);

    // an untiled mesh carries no tile chunk: its file is what it was before the chunk existed
    mesh::NavMesh untiled = m;
    untiled.tile_poly_first.clear();
    const auto with = io::encode_navmesh(m);
    const auto without = io::encode_navmesh(untiled);
    CHECK(with.size() == without.size() + 12 + 8 + 4 * m.tile_poly_first.size());
    auto plain = io::decode_navmesh(without, "plain.lnav");
    REQUIRE(plain.ok());
    CHECK(plain->tile_poly_first.empty());
  }
}
