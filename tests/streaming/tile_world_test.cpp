// The streaming world against the masked planner (plan::Planner::unload_tile on the whole mesh):
// under random load sets, every query's status, unloaded tile, blocked flag and cost agree;
// jump links into unloaded tiles are never taken; memory falls when tiles are unloaded; and
// queries on one thread while another loads and unloads (a TSan lane runs *thread* tests).

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "leapnav/planning/ledge_planner.hpp"
#include "leapnav/streaming/tile_world.hpp"
#include "streaming/stream_scenes.hpp"

using namespace leapnav;

namespace {

stream::TileWorld make_world(const test::TiledWorld& w) {
  auto blocks = stream::split_tiles(w.mesh, w.link_set(), w.ledge_set());
  REQUIRE(blocks.ok());
  auto world = stream::TileWorld::create(
      std::make_shared<stream::MemoryTileSource>(std::move(blocks).value()));
  REQUIRE(world.ok());
  return std::move(world).value();
}

// A random point inside polygon p (a convex combination of its vertices), on its floor.
Vec3 point_in(const mesh::NavMesh& m, std::uint32_t p, std::mt19937& rng) {
  std::uniform_real_distribution<float> weight(0.05F, 1.0F);
  double x = 0.0;
  double z = 0.0;
  double total = 0.0;
  for (const std::uint32_t v : m.polygon(mesh::PolyId{p})) {
    const double w = weight(rng);
    x += w * m.vertices[v].x;
    z += w * m.vertices[v].z;
    total += w;
  }
  const auto fx = static_cast<float>(x / total);
  const auto fz = static_cast<float>(z / total);
  return {fx, mesh::height_at(m, mesh::PolyId{p}, fx, fz), fz};
}

struct Tally {
  int found = 0;
  int blocked = 0;
  int unloaded_end = 0;
  int no_path = 0;
  int ledge_paths = 0;     ///< found paths with a ledge, drop or ladder segment
  int filter_blocked = 0;  ///< crouch off: blocked in the world, not in the masked planner
};

bool crosses_ledge(const plan::Path& path) {
  for (const plan::PathSegment& seg : path.segments) {
    if (seg.kind != plan::SegmentKind::Walk && seg.kind != plan::SegmentKind::Jump) return true;
  }
  return false;
}

// Random load sets; queries between random polygons' interior points, compared with the
// masked planner.
Tally compare_with_masked(const test::TiledWorld& w, const std::vector<plan::QueryOptions>& opts,
                          int rounds, int queries, unsigned seed) {
  stream::TileWorld world = make_world(w);
  auto made = plan::create_planner(std::make_shared<const mesh::NavMesh>(w.mesh), w.link_set(),
                                   w.ledge_set());
  REQUIRE(made.ok());
  plan::Planner masked = *made;
  plan::NavQuery masked_query(masked);
  const std::uint32_t tiles = world.tile_count();
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uint32_t> pick_poly(
      0, static_cast<std::uint32_t>(w.mesh.polygon_count() - 1));
  Tally tally;
  for (int round = 0; round < rounds; ++round) {
    // every tile loaded in round 0, then random sets from dense to sparse
    const double share = round == 0 ? 1.0 : 0.9 - 0.6 * (round % 4) / 3.0;
    std::bernoulli_distribution coin(share);
    std::vector<std::uint32_t> load;
    for (std::uint32_t t = 0; t < tiles; ++t) {
      if (coin(rng)) {
        load.push_back(t);
        REQUIRE(masked.load_tile(t).ok());
      } else {
        REQUIRE(masked.unload_tile(t).ok());
      }
    }
    // half the rounds through set_loaded, half tile by tile
    if (round % 2 == 0) {
      REQUIRE(world.set_loaded(load).ok());
    } else {
      for (std::uint32_t t = 0; t < tiles; ++t) {
        if (masked.tile_loaded(t)) {
          REQUIRE(world.load_tile(t).ok());
        } else {
          REQUIRE(world.unload_tile(t).ok());
        }
      }
    }
    for (std::uint32_t t = 0; t < tiles; ++t)
      REQUIRE(world.tile_loaded(t) == masked.tile_loaded(t));
    const auto snap = world.snapshot();
    for (int i = 0; i < queries; ++i) {
      const Vec3 start = point_in(w.mesh, pick_poly(rng), rng);
      const Vec3 goal = point_in(w.mesh, pick_poly(rng), rng);
      const plan::QueryOptions& options = opts[static_cast<std::size_t>(i) % opts.size()];
      auto expected = masked_query.find_path(start, goal, options);
      auto got = snap->find_path(start, goal, options);
      REQUIRE(expected.ok());
      REQUIRE(got.ok());
      CAPTURE(round);
      CAPTURE(i);
      CHECK(got->status == expected->status);
      CHECK(got->unloaded_tile == expected->unloaded_tile);
      if (options.crouch) {
        CHECK(got->blocked_by_unloaded_tiles == expected->blocked_by_unloaded_tiles);
      } else {
        // note: by design (docs/tiles.md) the world's flag says the whole world connects the
        // ends, the masked planner's that its search met an unloaded polygon; a filter that
        // cuts the world's connection (no crouching) makes them differ one way only
        if (expected->blocked_by_unloaded_tiles) CHECK(got->blocked_by_unloaded_tiles);
        tally.filter_blocked +=
            got->blocked_by_unloaded_tiles != expected->blocked_by_unloaded_tiles ? 1 : 0;
      }
      if (expected->status == plan::PathStatus::Found && got->status == plan::PathStatus::Found) {
        // note: equal costs, not equal bits: the snapshot's landmarks (ALT heuristic) differ
        // from the whole mesh's, so among paths of equal cost another may be found, its cost
        // summed in another order
        CHECK(got->search_cost == doctest::Approx(expected->search_cost).epsilon(1e-5));
        CHECK(got->jump_count == expected->jump_count);
        CHECK(crosses_ledge(*got) == crosses_ledge(*expected));
        tally.ledge_paths += crosses_ledge(*got) ? 1 : 0;
        for (const mesh::PolyId p : got->corridor)
          CHECK(snap->tile_loaded(snap->polygon_tile(p).first));
        ++tally.found;
      }
      if (expected->status == plan::PathStatus::NoPath) {
        ++tally.no_path;
        tally.blocked += expected->blocked_by_unloaded_tiles ? 1 : 0;
        tally.unloaded_end += expected->unloaded_tile != plan::kNoTile ? 1 : 0;
      }
    }
  }
  return tally;
}

}  // namespace

TEST_SUITE("stream.world") {
  TEST_CASE("queries on the streamed floor equal the masked planner's under random load sets") {
    plan::QueryOptions exact;
    exact.walk_search = plan::WalkSearch::Exact;
    const Tally t =
        compare_with_masked(test::stream_floor(), {plan::QueryOptions{}, exact}, 12, 60, 7);
    MESSAGE(t.found << " found, " << t.no_path << " no path (" << t.blocked << " blocked, "
                    << t.unloaded_end << " with an end in an unloaded tile)");
    CHECK(t.found > 100);
    CHECK(t.blocked > t.unloaded_end);
    CHECK(t.unloaded_end > 20);
  }

  TEST_CASE("queries on streamed city:2 equal the masked planner's under random load sets") {
    plan::QueryOptions exact;
    exact.walk_search = plan::WalkSearch::Exact;
    const Tally t =
        compare_with_masked(test::stream_city(), {plan::QueryOptions{}, exact}, 10, 80, 11);
    MESSAGE(t.found << " found, " << t.no_path << " no path (" << t.blocked << " blocked, "
                    << t.unloaded_end << " with an end in an unloaded tile)");
    CHECK(t.found > 40);
    CHECK(t.blocked > 0);
  }

  TEST_CASE("queries on streamed demo equal the masked planner's under random load sets") {
    plan::QueryOptions exact;
    exact.walk_search = plan::WalkSearch::Exact;
    const Tally t =
        compare_with_masked(test::stream_demo(), {plan::QueryOptions{}, exact}, 10, 60, 13);
    MESSAGE(t.found << " found, " << t.no_path << " no path (" << t.blocked << " blocked, "
                    << t.unloaded_end << " with an end in an unloaded tile)");
    CHECK(t.found > 40);
    CHECK(t.blocked > 0);
  }

  TEST_CASE("with jump links across a tile border the streamed world equals the masked planner") {
    plan::QueryOptions walk;
    walk.jumps = false;
    const Tally t =
        compare_with_masked(test::stream_gap(), {plan::QueryOptions{}, walk}, 16, 40, 5);
    MESSAGE(t.found << " found, " << t.no_path << " no path (" << t.blocked << " blocked, "
                    << t.unloaded_end << " with an end in an unloaded tile)");
    CHECK(t.found > 50);
  }

  TEST_CASE("with one-way C2 jump links on city:2 the streamed world equals the masked planner") {
    plan::QueryOptions walk;
    walk.jumps = false;
    const Tally t =
        compare_with_masked(test::stream_city_jumps(), {plan::QueryOptions{}, walk}, 8, 60, 21);
    MESSAGE(t.found << " found, " << t.no_path << " no path (" << t.blocked << " blocked, "
                    << t.unloaded_end << " with an end in an unloaded tile)");
    CHECK(t.found > 40);
  }

  TEST_CASE("a jump whose landing tile is unloaded is never taken") {
    const test::TiledWorld& gap = test::stream_gap();
    stream::TileWorld world = make_world(gap);
    std::vector<std::uint32_t> all(world.tile_count());
    for (std::uint32_t t = 0; t < world.tile_count(); ++t) all[t] = t;
    REQUIRE(world.set_loaded(all).ok());
    const Vec3 start{2.0F, io::kJumpFloorTop, 3.0F};
    const Vec3 goal{io::kJumpPlatformLength + 1.0F + 7.5F, io::kJumpFloorTop, 3.0F};
    auto before = world.find_path(start, goal);
    REQUIRE(before.ok());
    REQUIRE(before->status == plan::PathStatus::Found);
    REQUIRE(before->jump_count > 0);
    const auto snap = world.snapshot();
    std::uint32_t land = stream::kNoTile;
    for (const plan::PathSegment& seg : before->segments) {
      if (seg.kind == plan::SegmentKind::Jump)
        land = snap->polygon_tile(before->corridor[seg.corridor_last]).first;
    }
    REQUIRE(land != stream::kNoTile);
    REQUIRE(land != snap->polygon_tile(before->corridor.back()).first);
    REQUIRE(land != snap->polygon_tile(before->corridor.front()).first);
    REQUIRE(world.unload_tile(land).ok());
    auto after = world.find_path(start, goal);
    REQUIRE(after.ok());
    const auto now = world.snapshot();
    for (const mesh::PolyId p : after->corridor) CHECK(now->polygon_tile(p).first != land);
    // no link of the snapshot lands in the unloaded tile
    REQUIRE(now->planner() != nullptr);
    REQUIRE(now->planner()->links() != nullptr);
    for (const jump::JumpLink& l : now->planner()->links()->links)
      CHECK(now->polygon_tile(mesh::PolyId{l.land_poly}).first != land);
    if (after->status == plan::PathStatus::NoPath) CHECK(after->blocked_by_unloaded_tiles);
    REQUIRE(world.load_tile(land).ok());
    auto again = world.find_path(start, goal);
    REQUIRE(again.ok());
    CHECK(again->search_cost == before->search_cost);
    CHECK(again->points == before->points);
  }

  TEST_CASE("unloading frees memory: one tile of city:2 holds a small share of the whole") {
    stream::TileWorld world = make_world(test::stream_city());
    const std::uint64_t empty = world.resident_bytes();
    std::vector<std::uint32_t> all(world.tile_count());
    for (std::uint32_t t = 0; t < world.tile_count(); ++t) all[t] = t;
    REQUIRE(world.set_loaded(all).ok());
    const std::uint64_t full = world.resident_bytes();
    const std::uint64_t full_blocks = world.block_bytes();
    const std::uint32_t middle = world.tile_count() / 2;
    const std::uint32_t keep[] = {middle};
    REQUIRE(world.set_loaded(keep).ok());
    const std::uint64_t one = world.resident_bytes();
    // note: the memory source keeps every block itself; what the world holds beyond it
    const std::uint64_t source = empty;
    MESSAGE("empty " << empty << " B, all " << full << " B, one tile " << one << " B");
    CHECK(full > source);
    CHECK(one - source < (full - source) / 20);
    CHECK(world.block_bytes() < full_blocks / 20);
    REQUIRE(world.unload_tile(middle).ok());
    CHECK(world.block_bytes() == 0);
    CHECK(world.resident_bytes() == empty);
  }

  TEST_CASE("snapshot ids map to (tile, polygon in the tile) and back") {
    stream::TileWorld world = make_world(test::stream_floor());
    const std::uint32_t keep[] = {3, 7, 8, 20};
    REQUIRE(world.set_loaded(keep).ok());
    const auto snap = world.snapshot();
    REQUIRE(snap->planner() != nullptr);
    const mesh::NavMesh& m = snap->planner()->mesh();
    const mesh::NavMesh& whole = test::stream_floor().mesh;
    for (const mesh::PolyId p : m.polygon_ids()) {
      const auto [tile, local] = snap->polygon_tile(p);
      CHECK(snap->tile_loaded(tile));
      REQUIRE(snap->tile_polygon(tile, local).has_value());
      CHECK(*snap->tile_polygon(tile, local) == p);
      // the same polygon as in the whole mesh
      const mesh::PolyId w{whole.tile_poly_first[tile] + local};
      CHECK(m.poly_bounds[mesh::index(p)] == whole.poly_bounds[mesh::index(w)]);
    }
    CHECK_FALSE(snap->tile_polygon(0, 0).has_value());
    CHECK_FALSE(world.load_tile(25).ok());
    CHECK_FALSE(world.unload_tile(99).ok());
    const std::uint32_t bad[] = {1, 30};
    CHECK_FALSE(world.set_loaded(bad).ok());
    CHECK(world.snapshot() == snap);  // a refused change publishes nothing
  }

  TEST_CASE(
      "with jump-up, drop and ladder links across tile borders the streamed world equals the "
      "masked planner") {
    plan::QueryOptions no_ledges;
    no_ledges.ledge_links = false;
    plan::QueryOptions no_jumps;  // ledge links stay on: only jump configurations are masked
    no_jumps.jumps = false;
    const Tally t = compare_with_masked(test::stream_ledges(),
                                        {plan::QueryOptions{}, no_ledges, no_jumps}, 16, 45, 31);
    MESSAGE(t.found << " found (" << t.ledge_paths << " over ledge links), " << t.no_path
                    << " no path (" << t.blocked << " blocked, " << t.unloaded_end
                    << " with an end in an unloaded tile)");
    CHECK(t.found > 50);
    CHECK(t.ledge_paths > 10);
    CHECK(t.blocked > t.unloaded_end);
  }

  TEST_CASE("the one-way drop: a tile between the ends unloaded blocks the way down, not up") {
    const test::TiledWorld& w = test::stream_ledges();
    stream::TileWorld world = make_world(w);
    // tiles of 4.8 m, 7 along x: A's start in column 0, B's middle in column 3, C in column 5
    const Vec3 a{2.0F, 2.0F, 1.0F};
    const Vec3 c{26.0F, 1.0F, 1.0F};
    std::vector<std::uint32_t> load;
    for (std::uint32_t t = 0; t < world.tile_count(); ++t) {
      if (t % 7 != 3) load.push_back(t);  // column 3 (x 14.4..19.2, on B) unloaded
    }
    REQUIRE(world.set_loaded(load).ok());
    auto down = world.find_path(a, c);
    REQUIRE(down.ok());
    CHECK(down->status == plan::PathStatus::NoPath);
    CHECK(down->blocked_by_unloaded_tiles);
    auto up = world.find_path(c, a);
    REQUIRE(up.ok());
    CHECK(up->status == plan::PathStatus::NoPath);
    CHECK_FALSE(up->blocked_by_unloaded_tiles);  // no way up from C in the whole world
    std::vector<std::uint32_t> all(world.tile_count());
    for (std::uint32_t t = 0; t < world.tile_count(); ++t) all[t] = t;
    REQUIRE(world.set_loaded(all).ok());
    auto whole = world.find_path(a, c);
    REQUIRE(whole.ok());
    CHECK(whole->status == plan::PathStatus::Found);
    CHECK(crosses_ledge(*whole));
  }

  TEST_CASE(
      "crouch polygons stream: with and without crouching the world answers as the masked "
      "planner") {
    plan::QueryOptions stand;
    stand.crouch = false;
    plan::QueryOptions costly;
    costly.crouch_cost = 3.0F;
    const Tally t = compare_with_masked(test::stream_archway(),
                                        {plan::QueryOptions{}, stand, costly}, 12, 45, 41);
    MESSAGE(t.found << " found, " << t.no_path << " no path (" << t.blocked << " blocked, "
                    << t.unloaded_end << " with an end in an unloaded tile), " << t.filter_blocked
                    << " blocked only in the world (crouching off)");
    CHECK(t.found > 50);
    CHECK(t.no_path > 0);
  }
}
