// Incremental tiled rebuilds: after adding a box in one tile, removing one, changing geometry
// across a tile border, an edit the changed box misses, and an edit that moves the world's
// bounds, the rebuilt navmesh is the full tiled build of the new geometry bit for bit (same
// .lnav bytes), and only the touched tiles are rebuilt. The cache file round-trips exactly and
// refuses damaged, truncated and other-version files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/io/tile_cache_file.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/tile_cache.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;

namespace {

struct Box {
  Vec3 min;
  Vec3 max;
};

// A 40 m x 40 m floor (134 columns of 0.3 m: tiles of 32 leave a narrow last row and column),
// a 5 m pillar in a corner that fixes the world's height, and the listed boxes.
TriangleMesh room(const std::vector<Box>& boxes) {
  io::SceneBuilder b("room");
  b.add_quad({0, 0, 0}, {0, 0, 40}, {40, 0, 40}, {40, 0, 0});
  b.add_box({0.5F, 0, 0.5F}, {1.5F, 5, 1.5F});
  for (const Box& box : boxes) b.add_box(box.min, box.max);
  return b.take();
}

AABB box_bounds(std::initializer_list<Box> boxes) {
  AABB out;
  for (const Box& b : boxes) {
    out.extend(b.min);
    out.extend(b.max);
  }
  return out;
}

mesh::TileConfig tiles_of(int size) {
  mesh::TileConfig tiles;
  tiles.tile_size = size;
  return tiles;
}

mesh::CachedTiledBuild build_cached(const TriangleMesh& scene, int tile_size, int threads = 0) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto out =
      mesh::build_tiled_navmesh_cached(scene, *named_config("default"), tiles_of(tile_size), ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return std::move(out).value();
}

mesh::TiledBuildOutput build_full(const TriangleMesh& scene, int tile_size) {
  BuildContext ctx;
  auto out = mesh::build_tiled_navmesh(scene, *named_config("default"), tiles_of(tile_size), ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return std::move(out).value();
}

// Rebuilds `cache` for `scene` after an edit inside `changed` and checks the result against a
// full tiled build of `scene`: same .lnav bytes, stats and stitch counts; the cache then equals
// the full build's cache (fingerprints and hash).
// With `previous` (the navmesh the cache stitches to), the rebuild splices into it in place,
// and *previous then holds the result for the next step.
mesh::RebuildStats rebuild_matches_full(const TriangleMesh& scene, mesh::TileCache& cache,
                                        const AABB& changed, int threads = 0,
                                        mesh::NavMesh* previous = nullptr) {
  BuildContext ctx;
  ctx.set_threads(threads);
  mesh::RebuildStats stats;
  mesh::RebuildOptions options;
  options.previous = previous;
  auto rebuilt = mesh::rebuild_tiled_navmesh(scene, cache, changed, ctx, &stats, options);
  INFO((rebuilt.ok() ? std::string() : rebuilt.error().message));
  REQUIRE(rebuilt.ok());
  const mesh::TiledBuildOutput full = build_full(scene, cache.layout.tile_size);
  CHECK(mesh::validate(rebuilt->navmesh).ok());
  CHECK(io::encode_navmesh(rebuilt->navmesh) == io::encode_navmesh(full.navmesh));
  CHECK(mesh::content_hash(rebuilt->navmesh) == mesh::content_hash(full.navmesh));
  CHECK(rebuilt->stats.regions == full.stats.regions);
  CHECK(rebuilt->stats.polygons == full.stats.polygons);
  CHECK(rebuilt->stats.navmesh_area == full.stats.navmesh_area);
  CHECK(rebuilt->stats.walkable_area == full.stats.walkable_area);
  CHECK(rebuilt->stitch.portal_edges == full.stitch.portal_edges);
  CHECK(rebuilt->stitch.welded_vertices == full.stitch.welded_vertices);
  CHECK(cache.navmesh_hash == mesh::content_hash(full.navmesh));
  CHECK(stats.tiles_rebuilt + stats.tiles_reused == stats.tiles);
  CHECK(mesh::validate(cache).ok());
  // the tiles' hash parts the rebuild kept or recomputed are those of a recomputation from
  // scratch, tile by tile
  // (and the tiles' polygon areas)
  mesh::TileCache fresh = cache;
  fresh.hash_parts.clear();
  fresh.tile_areas.clear();
  BuildContext hash_ctx;
  const auto recomputed = mesh::prepare_tile_hashes(fresh, rebuilt->navmesh, hash_ctx);
  REQUIRE(recomputed.ok());
  CHECK(*recomputed == cache.navmesh_hash);
  CHECK(fresh.hash_parts == cache.hash_parts);
  CHECK(fresh.tile_areas == cache.tile_areas);
  CHECK(stats.tiles_rehashed <= stats.tiles);
  CHECK(stats.spliced_in_place == (previous != nullptr && !stats.layout_changed));
  if (previous != nullptr) *previous = rebuilt->navmesh;
  return stats;
}

// Consecutive slices of every array of `nav`, cut at `cuts` + 1 random points (a slice may be
// empty; the cuts need not follow tiles).
std::vector<mesh::TileSlices> random_slices(const mesh::NavMesh& nav, std::size_t cuts,
                                            std::mt19937& rng) {
  const auto points = [&](std::size_t size) {
    std::vector<std::uint32_t> at{0, static_cast<std::uint32_t>(size)};
    for (std::size_t k = 0; k < cuts; ++k)
      at.push_back(static_cast<std::uint32_t>(rng() % (size + 1)));
    std::sort(at.begin(), at.end());
    return at;
  };
  const std::vector<std::uint32_t> v = points(nav.vertices.size());
  const std::vector<std::uint32_t> p = points(nav.polygon_count());
  const std::vector<std::uint32_t> s = points(nav.height_samples.size());
  std::vector<mesh::TileSlices> out;
  for (std::size_t k = 0; k + 1 < v.size(); ++k) {
    out.push_back({v[k], v[k + 1] - v[k], p[k], p[k + 1] - p[k], s[k], s[k + 1] - s[k]});
  }
  return out;
}

std::uint64_t hash_of_slices(const mesh::NavMesh& nav, std::span<const mesh::TileSlices> slices) {
  std::vector<mesh::TileHashPart> parts;
  for (const mesh::TileSlices& s : slices) parts.push_back(mesh::tile_hash_part(nav, s));
  return mesh::content_hash_of_parts(nav, parts);
}

const Box kBoxA{{10, 0, 10}, {12, 1.5F, 12}};
// inside tile (2, 2) (columns 64..95, x and z 19.2..28.8 m), farther than the border plus slack
// from every other tile
const Box kBoxB{{22, 0, 22}, {25, 1.5F, 25}};
// across the line x = 19.2 m between tiles (1, 0) and (2, 0)
const Box kBoxC{{18, 0, 4}, {21, 1, 6}};

// A 30 m x 10 m floor, a pillar, and a 2 m high walkway 2.4 m wide from x = 8.4 m: 6 m long
// its top keeps 28 spans after erosion, an island under min_region_area (64) crossing the line
// x = 9.6 m between tiles 1 and 2 of 16 cells; with `extended`, a second box continues it to
// x = 24 m (92 spans, no island). The extension lies beyond tile 1's border and slack.
TriangleMesh walkway(bool extended) {
  io::SceneBuilder b("walkway");
  b.add_quad({0, 0, 0}, {0, 0, 10}, {30, 0, 10}, {30, 0, 0});
  b.add_box({0.5F, 0, 0.5F}, {1.5F, 5, 1.5F});
  b.add_box({8.4F, 0, 4}, {14.4F, 2, 6.4F});
  if (extended) b.add_box({14.4F, 0, 4}, {24, 2, 6.4F});
  return b.take();
}
const Box kWalkwayExtension{{14.4F, 0, 4}, {24, 2, 6.4F}};

}  // namespace

TEST_SUITE("mesh.tile_rebuild") {
  TEST_CASE("a cached tiled build is the plain tiled build, bit for bit") {
    const TriangleMesh scene = room({kBoxA});
    const mesh::CachedTiledBuild cached = build_cached(scene, 32);
    const mesh::TiledBuildOutput full = build_full(scene, 32);
    CHECK(io::encode_navmesh(cached.output.navmesh) == io::encode_navmesh(full.navmesh));
    CHECK(cached.cache.navmesh_hash == mesh::content_hash(full.navmesh));
    CHECK(cached.cache.tiles.size() == 25);
    CHECK(mesh::validate(cached.cache).ok());
  }

  TEST_CASE("the one-pass fingerprints of a build are tile_fingerprint of each tile's triangles") {
    const TriangleMesh scene = room({kBoxA, kBoxC});
    const mesh::CachedTiledBuild cached = build_cached(scene, 32);
    const auto triangles = mesh::tile_triangles(scene, cached.cache.layout);
    REQUIRE(triangles.size() == cached.cache.fingerprints.size());
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      CHECK(cached.cache.fingerprints[t] ==
            mesh::tile_fingerprint(scene, triangles[t], cached.cache.layout, t));
    }
    // a different triangle order or one triangle less is another fingerprint
    std::vector<std::uint32_t> list = triangles[0];
    REQUIRE(list.size() >= 2);
    std::swap(list[0], list[1]);
    CHECK(mesh::tile_fingerprint(scene, list, cached.cache.layout, 0) !=
          cached.cache.fingerprints[0]);
    list.pop_back();
    CHECK(mesh::tile_fingerprint(scene, list, cached.cache.layout, 0) !=
          cached.cache.fingerprints[0]);
  }

  TEST_CASE("adding a box inside one tile rebuilds that tile only and equals the full build") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    const mesh::RebuildStats stats =
        rebuild_matches_full(room({kBoxA, kBoxB}), cached.cache, box_bounds({kBoxB}));
    CHECK(stats.tiles == 25);
    CHECK(stats.tiles_rebuilt == 1);
    CHECK(stats.tiles_reused == 24);
    CHECK(stats.tiles_outside_changed == 0);
    CHECK_FALSE(stats.layout_changed);
    // the box lies in tile (2, 2), the middle of 5 x 5: its 3 x 3 block of stitch pieces is made
    // again, nothing else
    CHECK(stats.pieces_stitched == 9);
    CHECK(stats.pieces_linked == 25);
  }

  TEST_CASE("a one-tile rebuild remakes the 3 x 3 stitch pieces around it and links the 5 x 5") {
    // 16-cell tiles of 4.8 m: 9 x 9 of them; a 0.3 m box in the middle of tile (4, 4), clear of
    // its neighbours' bordered rectangles (1.5 m border, 0.6 m of slack)
    const Box box{{21.45F, 0, 21.45F}, {21.75F, 1, 21.75F}};
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 16);
    REQUIRE(cached.cache.layout.tiles_x == 9);
    const mesh::RebuildStats stats =
        rebuild_matches_full(room({kBoxA, box}), cached.cache, box_bounds({box}));
    CHECK(stats.tiles == 81);
    CHECK(stats.tiles_rebuilt == 1);
    CHECK(stats.pieces_stitched == 9);
    CHECK(stats.pieces_linked == 25);
    // rehashed: the 25 linked tiles, and the tiles within one row (10 tiles) in tile order of
    // the rebuilt tile, whose size changed
    CHECK(stats.tiles_rehashed <= 25 + 21);
    CHECK(stats.tiles_rehashed > 25);
  }

  TEST_CASE(
      "removing a box, then an edit across a tile border, rebuild in place to the full build") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA, kBoxB}), 32);
    const std::uint64_t before = cached.cache.navmesh_hash;
    // kBoxA spans columns 33..40: tiles (1, 1) and the tiles within border + slack of it
    mesh::RebuildStats stats = rebuild_matches_full(room({kBoxB}), cached.cache,
                                                    box_bounds({kBoxA}), 0, &cached.output.navmesh);
    CHECK(stats.tiles_rebuilt >= 1);
    CHECK(stats.tiles_rebuilt < 25);
    CHECK(stats.tiles_outside_changed == 0);
    CHECK(cached.cache.navmesh_hash != before);
    // the cache now describes room({kBoxB}); change it again across the x = 19.2 m line
    stats = rebuild_matches_full(room({kBoxB, kBoxC}), cached.cache, box_bounds({kBoxC}), 1,
                                 &cached.output.navmesh);
    CHECK(stats.tiles_rebuilt >= 2);
    CHECK(stats.tiles_rebuilt < 25);
    CHECK(stats.tiles_outside_changed == 0);
  }

  TEST_CASE("random boxes added and removed anywhere rebuild in place to the full build") {
    // seeded: boxes land on tile lines and corners too; a box never needs tiles beyond those it
    // touches (no fingerprint-only rebuilds), and every step equals the full build
    std::mt19937 rng(24);
    std::uniform_real_distribution<float> pos(2.0F, 35.0F);
    std::uniform_real_distribution<float> size(0.3F, 4.0F);
    std::uniform_real_distribution<float> height(0.3F, 2.0F);
    std::vector<Box> boxes{kBoxA};
    mesh::CachedTiledBuild cached = build_cached(room(boxes), 32);
    for (int step = 0; step < 8; ++step) {
      CAPTURE(step);
      Box changed;
      if (step % 3 == 2) {
        const std::size_t k = rng() % boxes.size();
        changed = boxes[k];
        boxes.erase(boxes.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const float x = pos(rng);
        const float z = pos(rng);
        changed = {{x, 0, z}, {x + size(rng), height(rng), z + size(rng)}};
        boxes.push_back(changed);
      }
      // note: every other step splices into the previous navmesh in place
      const mesh::RebuildStats stats =
          rebuild_matches_full(room(boxes), cached.cache, box_bounds({changed}), step % 2,
                               step % 2 == 0 ? &cached.output.navmesh : nullptr);
      if (step % 2 == 1) cached.output = build_full(room(boxes), 32);
      CHECK(stats.tiles_outside_changed == 0);
      CHECK_FALSE(stats.layout_changed);
      CHECK(stats.tiles_rebuilt <= 9);
    }
  }

  TEST_CASE("a rebuild on 1 and 2 threads gives identical navmeshes and caches") {
    const mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32, 1);
    const TriangleMesh edited = room({kBoxA, kBoxC});
    std::vector<std::vector<std::byte>> files;
    std::vector<std::vector<std::byte>> caches;
    for (const int threads : {1, 2}) {
      mesh::TileCache cache = cached.cache;
      BuildContext ctx;
      ctx.set_threads(threads);
      mesh::RebuildStats stats;
      auto out =
          mesh::rebuild_tiled_navmesh(edited, cache, box_bounds({kBoxA, kBoxC}), ctx, &stats);
      REQUIRE(out.ok());
      CHECK(stats.tiles_rebuilt >= 2);
      files.push_back(io::encode_navmesh(out->navmesh));
      caches.push_back(io::encode_tile_cache(cache));
    }
    CHECK(files[0] == files[1]);
    CHECK(caches[0] == caches[1]);
  }

  TEST_CASE("tiles whose input changed outside the changed box are rebuilt too, with a warning") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    // the box names kBoxB's corner of the world, but kBoxA moved
    const TriangleMesh moved = room({{{10.5F, 0, 10}, {12.5F, 1.5F, 12}}});
    for (const bool check_outside : {false, true}) {
      mesh::TileCache cache = cached.cache;
      BuildContext ctx;
      mesh::RebuildStats stats;
      // note: without the full check the moved box is found all the same: kBoxA's tiles are
      // among those whose lists the rebuilt tiles' island windows read
      auto rebuilt = mesh::rebuild_tiled_navmesh(moved, cache, box_bounds({kBoxB}), ctx, &stats,
                                                 {.check_outside = check_outside});
      REQUIRE(rebuilt.ok());
      CHECK(stats.tiles_outside_changed > 0);
      CHECK(!ctx.warnings().empty());
      CHECK(stats.tiles_listed == (check_outside ? stats.tiles : stats.tiles_listed));
      CHECK(io::encode_navmesh(rebuilt->navmesh) ==
            io::encode_navmesh(build_full(moved, 32).navmesh));
    }
  }

  TEST_CASE(
      "the changed box is the contract: an edit far outside it is found by the full check "
      "only") {
    // an 80 m floor in 16-cell tiles (17 x 17) with a box near one corner; the edit moves the
    // box, the changed box names the opposite corner, out of every island window's reach
    const auto floor_with = [](const Box& box) {
      io::SceneBuilder b("floor");
      b.add_quad({0, 0, 0}, {0, 0, 80}, {80, 0, 80}, {80, 0, 0});
      b.add_box({0.5F, 0, 0.5F}, {1.5F, 5, 1.5F});
      b.add_box(box.min, box.max);
      return b.take();
    };
    const TriangleMesh before = floor_with(kBoxA);
    const TriangleMesh moved = floor_with({{10.5F, 0, 10}, {12.5F, 1.5F, 12}});
    mesh::CachedTiledBuild cached = build_cached(before, 16);
    const AABB far = box_bounds({{{78, 0, 78}, {78.5F, 1, 78.5F}}});
    mesh::TileCache cache = cached.cache;
    BuildContext ctx;
    mesh::RebuildStats stats;
    auto trusted = mesh::rebuild_tiled_navmesh(moved, cache, far, ctx, &stats);
    REQUIRE(trusted.ok());
    CHECK(stats.tiles_outside_changed == 0);
    CHECK(stats.tiles_listed < stats.tiles / 4);
    // the stale tiles are kept: the result is the old geometry's navmesh
    CHECK(io::encode_navmesh(trusted->navmesh) == io::encode_navmesh(cached.output.navmesh));
    cache = cached.cache;
    auto checked =
        mesh::rebuild_tiled_navmesh(moved, cache, far, ctx, &stats, {.check_outside = true});
    REQUIRE(checked.ok());
    CHECK(stats.tiles_outside_changed > 0);
    CHECK(stats.tiles_listed == stats.tiles);
    CHECK(io::encode_navmesh(checked->navmesh) ==
          io::encode_navmesh(build_full(moved, 16).navmesh));
  }

  TEST_CASE("an edit that moves the world's bounds rebuilds every tile and equals the full build") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    const Box outside{{40, 0, 10}, {43, 1, 12}};
    const mesh::NavMesh before = cached.output.navmesh;
    mesh::NavMesh previous = before;
    const mesh::RebuildStats stats = rebuild_matches_full(room({kBoxA, outside}), cached.cache,
                                                          box_bounds({outside}), 0, &previous);
    CHECK(stats.layout_changed);
    CHECK_FALSE(stats.spliced_in_place);
    CHECK(stats.tiles_rebuilt == stats.tiles);
    CHECK(stats.tiles_reused == 0);
  }

  TEST_CASE(
      "a previous navmesh that is not the cache's is left alone; the result is spliced whole") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    mesh::NavMesh other = build_full(room({kBoxA, kBoxC}), 32).navmesh;
    REQUIRE(other.polygon_count() != cached.output.navmesh.polygon_count());
    const mesh::NavMesh kept = other;
    BuildContext ctx;
    mesh::RebuildStats stats;
    mesh::RebuildOptions options;
    options.previous = &other;
    auto rebuilt = mesh::rebuild_tiled_navmesh(room({kBoxA, kBoxB}), cached.cache,
                                               box_bounds({kBoxB}), ctx, &stats, options);
    REQUIRE(rebuilt.ok());
    CHECK_FALSE(stats.spliced_in_place);
    CHECK(io::encode_navmesh(other) == io::encode_navmesh(kept));
    CHECK(io::encode_navmesh(rebuilt->navmesh) ==
          io::encode_navmesh(build_full(room({kBoxA, kBoxB}), 32).navmesh));
  }

  TEST_CASE("a bad changed box is an error and leaves the cache as it was") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    const std::vector<std::byte> before = io::encode_tile_cache(cached.cache);
    BuildContext ctx;
    AABB inverted;
    inverted.min = {5, 0, 5};
    inverted.max = {4, 1, 6};
    auto r = mesh::rebuild_tiled_navmesh(room({kBoxA}), cached.cache, inverted, ctx);
    CHECK_FALSE(r.ok());
    AABB nan_box = box_bounds({kBoxB});
    nan_box.max.x = std::numeric_limits<float>::quiet_NaN();
    r = mesh::rebuild_tiled_navmesh(room({kBoxA}), cached.cache, nan_box, ctx);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::NonFinite);
    CHECK(io::encode_tile_cache(cached.cache) == before);
  }

  TEST_CASE("a bad scene fails the rebuild with the full build's error wherever the fault lies") {
    // note: the rebuild checks the vertices in its pass for the bounds and the triangle indices
    // in its scan for the listed tiles; faults far from the changed box, or several at once, must
    // still give what validate, run first by the full build, reports
    const TriangleMesh good = room({kBoxA});
    mesh::CachedTiledBuild cached = build_cached(good, 32);
    const std::vector<std::byte> before = io::encode_tile_cache(cached.cache);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const auto last_vertex = static_cast<std::uint32_t>(good.vertices.size() - 1);
    const auto too_far = static_cast<std::uint32_t>(good.vertices.size());
    std::vector<std::pair<std::string, TriangleMesh>> bad;
    const auto add = [&](std::string name, auto&& edit) {
      TriangleMesh m = good;
      edit(m);
      bad.emplace_back(std::move(name), std::move(m));
    };
    add("NaN x, last vertex", [&](TriangleMesh& m) { m.vertices.back().x = nan; });
    add("inf y, first vertex", [&](TriangleMesh& m) { m.vertices.front().y = inf; });
    add("-inf z, a vertex no triangle uses", [&](TriangleMesh& m) {
      m.vertices.push_back({1, 1, -inf});
    });
    add("index past the end, last triangle",
        [&](TriangleMesh& m) { m.triangles.back()[2] = too_far; });
    add("index past the end, first triangle",
        [&](TriangleMesh& m) { m.triangles.front()[0] = 0xFFFFFFFFU; });
    add("bad index and a NaN vertex", [&](TriangleMesh& m) {
      m.triangles.back()[1] = too_far;
      m.vertices[last_vertex].z = nan;
    });
    add("too few areas", [&](TriangleMesh& m) { m.areas.assign(m.triangles.size() - 1, 1); });
    add("an area id over 63", [&](TriangleMesh& m) {
      m.areas.assign(m.triangles.size(), 1);
      m.areas.back() = 64;
    });
    add("bad index and a bad area", [&](TriangleMesh& m) {
      m.areas.assign(m.triangles.size(), 70);
      m.triangles.back()[0] = too_far;
    });
    add("an area volume with two corners", [&](TriangleMesh& m) {
      m.area_volumes.push_back({{{1, 1}, {2, 2}}, 0, 1, 5});
    });
    add("bad index and moved bounds", [&](TriangleMesh& m) {
      m.vertices.push_back({-30, 0, -30});
      m.triangles.back()[0] = too_far + 1;
    });
    const mesh::TileConfig tiles = tiles_of(32);
    // boxes: around the edit, far from every fault, and outside the world (no tile rebuilt)
    const std::vector<AABB> boxes{box_bounds({kBoxA}), box_bounds({kBoxB}),
                                  box_bounds({Box{{100, 0, 100}, {101, 1, 101}}})};
    // note: no structured binding (CAPTURE captures it in a lambda, which clang refuses)
    for (const auto& entry : bad) {
      const std::string& name = entry.first;
      const TriangleMesh& scene = entry.second;
      BuildContext full_ctx;
      const auto full = mesh::build_tiled_navmesh(scene, *named_config("default"), tiles, full_ctx);
      REQUIRE_FALSE(full.ok());
      for (const AABB& box : boxes) {
        for (const bool outside : {false, true}) {
          CAPTURE(name);
          CAPTURE(outside);
          BuildContext ctx;
          auto r = mesh::rebuild_tiled_navmesh(scene, cached.cache, box, ctx, nullptr,
                                               {.check_outside = outside, .previous = nullptr});
          REQUIRE_FALSE(r.ok());
          CHECK(r.error().code == full.error().code);
          CHECK(r.error().message == full.error().message);
          CHECK(io::encode_tile_cache(cached.cache) == before);
        }
      }
    }
    // and the cache still rebuilds the good scene to the full build
    rebuild_matches_full(good, cached.cache, box_bounds({kBoxA}));
  }

  TEST_CASE("a world bounded at -0 or +0 rebuilds to the full build's grid, bit for bit") {
    // note: the rebuild takes the bounds in lanes, out of order; a bound at zero must still be
    // the first zero in vertex order, as extend keeps it (the grid origin's bits reach the file)
    for (const bool negative_first : {false, true}) {
      for (const std::size_t extra : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
        CAPTURE(negative_first);
        CAPTURE(extra);
        const auto scene_of = [&](std::initializer_list<Box> boxes) {
          TriangleMesh m = room(boxes);
          // unused vertices at -0 (x, y and z) first or last, and a few to shift the lanes
          std::vector<Vec3> zeros(1 + extra, Vec3{-0.0F, -0.0F, -0.0F});
          if (negative_first) {
            for (auto& tri : m.triangles) {
              for (std::uint32_t& v : tri) v += static_cast<std::uint32_t>(zeros.size());
            }
            m.vertices.insert(m.vertices.begin(), zeros.begin(), zeros.end());
          } else {
            m.vertices.insert(m.vertices.end(), zeros.begin(), zeros.end());
          }
          return m;
        };
        const TriangleMesh before = scene_of({kBoxA});
        REQUIRE(std::signbit(before.bounds().min.x) == negative_first);
        mesh::CachedTiledBuild cached = build_cached(before, 32);
        const mesh::RebuildStats stats =
            rebuild_matches_full(scene_of({kBoxA, kBoxB}), cached.cache, box_bounds({kBoxB}));
        CHECK_FALSE(stats.layout_changed);
        CHECK(std::signbit(cached.cache.layout.grid.origin.x) == negative_first);
        // a new scene whose bound turns from one zero to the other gives another grid origin
        // (equal as floats, not in the file): every tile is rebuilt on the full build's grid
        mesh::CachedTiledBuild flipped = build_cached(scene_of({kBoxA}), 32);
        TriangleMesh other = scene_of({kBoxA, kBoxB});
        if (negative_first) {
          other.vertices.erase(other.vertices.begin(),
                               other.vertices.begin() + static_cast<std::ptrdiff_t>(1 + extra));
          for (auto& tri : other.triangles) {
            for (std::uint32_t& v : tri) v -= static_cast<std::uint32_t>(1 + extra);
          }
        } else {
          other.vertices.insert(other.vertices.begin(), Vec3{-0.0F, -0.0F, -0.0F});
          for (auto& tri : other.triangles) {
            for (std::uint32_t& v : tri) v += 1;
          }
        }
        REQUIRE(std::signbit(other.bounds().min.x) != negative_first);
        const mesh::RebuildStats flip_stats =
            rebuild_matches_full(other, flipped.cache, box_bounds({kBoxB}));
        CHECK(flip_stats.layout_changed);
        CHECK(std::signbit(flipped.cache.layout.grid.origin.x) != negative_first);
        // and the cache is the full cached build's, tile grids included (a kept tile would
        // carry the old zero's sign)
        CHECK(io::encode_tile_cache(flipped.cache) ==
              io::encode_tile_cache(build_cached(other, 32).cache));
      }
    }
  }

  TEST_CASE("a cache that does not match its layout or configuration fails validate and rebuild") {
    const mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    BuildContext ctx;
    mesh::TileCache missing = cached.cache;
    missing.tiles.pop_back();
    CHECK_FALSE(mesh::validate(missing).ok());
    CHECK_FALSE(mesh::rebuild_tiled_navmesh(room({kBoxA}), missing, box_bounds({kBoxB}), ctx).ok());
    mesh::TileCache other_config = cached.cache;
    other_config.tiles[3].mesh.config.agent.radius = 0.3F;
    const Status status = mesh::validate(other_config);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("tile (3, 0)") != std::string::npos);
    mesh::TileCache wrong_count = cached.cache;
    wrong_count.layout.tiles_x += 1;
    CHECK_FALSE(mesh::validate(wrong_count).ok());
  }

  TEST_CASE("the cache file round-trips: a rebuild from a loaded cache equals the full build") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    const std::vector<std::byte> bytes = io::encode_tile_cache(cached.cache);
    auto loaded = io::decode_tile_cache(bytes, "room.cache");
    INFO((loaded.ok() ? std::string() : loaded.error().message));
    REQUIRE(loaded.ok());
    CHECK(io::encode_tile_cache(*loaded) == bytes);
    CHECK(loaded->fingerprints == cached.cache.fingerprints);
    const mesh::RebuildStats stats =
        rebuild_matches_full(room({kBoxA, kBoxB}), *loaded, box_bounds({kBoxB}));
    CHECK(stats.tiles_rebuilt == 1);
    // as the CLI loads it: pieces, hash parts and tile areas made from the old navmesh, the
    // result spliced into it
    auto again = io::decode_tile_cache(bytes, "room.cache");
    REQUIRE(again.ok());
    CHECK(again->tile_areas.empty());
    BuildContext ctx;
    REQUIRE(mesh::prepare_stitch_pieces(*again, ctx).ok());
    const auto hash = mesh::prepare_tile_hashes(*again, cached.output.navmesh, ctx);
    REQUIRE(hash.ok());
    CHECK(*hash == again->navmesh_hash);
    CHECK(again->tile_areas == cached.cache.tile_areas);
    mesh::NavMesh previous = cached.output.navmesh;
    const mesh::RebuildStats spliced =
        rebuild_matches_full(room({kBoxA, kBoxB}), *again, box_bounds({kBoxB}), 0, &previous);
    CHECK(spliced.spliced_in_place);
  }

  TEST_CASE("a cache with a .lnav checksum keeps its hash parts and tile areas through the file") {
    mesh::CachedTiledBuild cached = build_cached(room({kBoxA}), 32);
    REQUIRE(cached.cache.hash_parts.size() == cached.cache.tiles.size());
    REQUIRE(cached.cache.tile_areas.size() == cached.cache.tiles.size());
    const std::vector<std::byte> without = io::encode_tile_cache(cached.cache);
    cached.cache.nav_file_checksum = 0x1234'5678'9ABC'DEF0ULL;
    const std::vector<std::byte> bytes = io::encode_tile_cache(cached.cache);
    CHECK(bytes.size() > without.size());
    auto loaded = io::decode_tile_cache(bytes, "room.cache");
    INFO((loaded.ok() ? std::string() : loaded.error().message));
    REQUIRE(loaded.ok());
    CHECK(loaded->nav_file_checksum == cached.cache.nav_file_checksum);
    CHECK(loaded->hash_parts == cached.cache.hash_parts);
    CHECK(loaded->tile_areas == cached.cache.tile_areas);
    CHECK(io::encode_tile_cache(*loaded) == bytes);
    // the parts give the navmesh's hash without hashing it; the rebuild from them is the full
    // build, and a rebuilt cache has no checksum until its .lnav is written
    CHECK(mesh::content_hash_of_parts(cached.output.navmesh, loaded->hash_parts) ==
          loaded->navmesh_hash);
    BuildContext ctx;
    REQUIRE(mesh::prepare_stitch_pieces(*loaded, ctx).ok());
    mesh::NavMesh previous = cached.output.navmesh;
    rebuild_matches_full(room({kBoxA, kBoxB}), *loaded, box_bounds({kBoxB}), 0, &previous);
    CHECK(loaded->nav_file_checksum == 0);
    // without the checksum nothing of them is written: the old layout
    auto plain = io::decode_tile_cache(without, "room.cache");
    REQUIRE(plain.ok());
    CHECK(plain->hash_parts.empty());
    CHECK(plain->tile_areas.empty());
  }

  TEST_CASE("a cache file whose tile mesh lies on the grid at -0 for the layout's +0 is refused") {
    // note: -0 == +0 as floats, but the origin's bits reach the .lnav: a tile on the other zero
    // is on another grid (as mesh::validate(TileCache) and the rebuild's layout check say)
    mesh::CachedTiledBuild cached = build_cached(room({}), 32);
    REQUIRE(cached.cache.layout.grid.origin.x == 0.0F);
    REQUIRE_FALSE(std::signbit(cached.cache.layout.grid.origin.x));
    cached.cache.tiles[2].mesh.grid.origin.x = -0.0F;
    REQUIRE(cached.cache.tiles[2].mesh.grid == cached.cache.layout.grid);
    auto r = io::decode_tile_cache(io::encode_tile_cache(cached.cache), "a.cache");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::CorruptFile);
    CHECK(r.error().message.find("a.cache") != std::string::npos);
    CHECK(r.error().message.find("tile 2: another grid") != std::string::npos);
  }

  TEST_CASE("damaged, truncated and other-version cache files are refused naming the file") {
    const std::vector<std::byte> bytes = io::encode_tile_cache(build_cached(room({}), 32).cache);
    std::vector<std::byte> flipped = bytes;
    flipped[bytes.size() / 2] ^= std::byte{0x10};
    auto r = io::decode_tile_cache(flipped, "a.cache");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::CorruptFile);
    CHECK(r.error().message.find("a.cache") != std::string::npos);
    const std::vector<std::byte> truncated(bytes.begin(), bytes.end() - 9);
    r = io::decode_tile_cache(truncated, "a.cache");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::CorruptFile);
    std::vector<std::byte> newer = bytes;
    newer[4] = static_cast<std::byte>(io::kTileCacheFormatVersion + 1);
    r = io::decode_tile_cache(newer, "a.cache");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::UnsupportedVersion);
    // an older cache (version 4 had no hash parts) is refused the same way: build it again
    std::vector<std::byte> older = bytes;
    older[4] = static_cast<std::byte>(io::kTileCacheFormatVersion - 1);
    r = io::decode_tile_cache(older, "a.cache");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::UnsupportedVersion);
    CHECK(r.error().message.find("build the cache again") != std::string::npos);
    std::vector<std::byte> lnav = io::encode_navmesh(build_full(room({}), 32).navmesh);
    r = io::decode_tile_cache(lnav, "a.lnav");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::CorruptFile);
    for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{40}}) {
      r = io::decode_tile_cache(std::span(bytes).first(n), "a.cache");
      CHECK_FALSE(r.ok());
    }
  }

  TEST_CASE("an edit of the dungeon level rebuilds a few tiles to the full build") {
    const auto path = test::shared_mesh("dungeon.obj");
    if (!path) return;
    auto level = io::load_obj(*path);
    REQUIRE(level.ok());
    mesh::CachedTiledBuild cached = build_cached(*level, 64);
    // a 1 m crate standing on the floor at the centre of the largest polygon
    const mesh::NavMesh& nav = cached.output.navmesh;
    REQUIRE(nav.polygon_count() > 0);
    mesh::PolyId largest{0};
    for (const mesh::PolyId p : nav.polygon_ids()) {
      if (mesh::polygon_area(nav, p) > mesh::polygon_area(nav, largest)) largest = p;
    }
    const Vec3 c = mesh::polygon_center(nav, largest);
    const Box crate{{c.x - 0.5F, c.y, c.z - 0.5F}, {c.x + 0.5F, c.y + 1, c.z + 0.5F}};
    TriangleMesh edited = *level;
    io::SceneBuilder b("crate");
    b.add_box(crate.min, crate.max);
    const TriangleMesh box = b.take();
    const auto offset = static_cast<std::uint32_t>(edited.vertices.size());
    edited.vertices.insert(edited.vertices.end(), box.vertices.begin(), box.vertices.end());
    for (const auto& t : box.triangles) {
      edited.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
      if (!edited.areas.empty()) edited.areas.push_back(kMaxAreaId);
    }
    const std::uint64_t before = cached.cache.navmesh_hash;
    const mesh::RebuildStats stats =
        rebuild_matches_full(edited, cached.cache, box_bounds({crate}));
    CHECK(cached.cache.navmesh_hash != before);
    CHECK_FALSE(stats.layout_changed);
    CHECK(stats.tiles_rebuilt >= 1);
    CHECK(stats.tiles_rebuilt <= 4);
    CHECK(stats.tiles_outside_changed == 0);
  }

  TEST_CASE("an edit beyond a tile's border that changes an island it measured rebuilds it") {
    // tile 1 holds one column of the walkway; whether that is an island depends on the walkway's
    // far end, 4 m past tile 1's border: the tile's island filter measured it there, and the
    // rebuild must redo tile 1 when the walkway is extended or cut back
    mesh::CachedTiledBuild cached = build_cached(walkway(false), 16);
    mesh::RebuildStats stats =
        rebuild_matches_full(walkway(true), cached.cache, box_bounds({kWalkwayExtension}));
    // note: tile column 1 (x 4.8..9.6 m) is not touched by the box; its tiles holding the
    // walkway are redone because of the columns their island filter read
    const std::size_t touched =
        mesh::tiles_touching(cached.cache.layout, box_bounds({kWalkwayExtension})).size();
    const auto readers = [&] {
      std::vector<std::size_t> out;
      for (std::size_t t = 0; t < cached.cache.tiles.size(); ++t) {
        if (cached.cache.tiles[t].island_reads.width() > 0) out.push_back(t);
      }
      return out;
    };
    CHECK(stats.tiles_outside_changed == 0);
    CHECK(stats.tiles_rebuilt > touched);
    CHECK_FALSE(readers().empty());
    stats = rebuild_matches_full(walkway(false), cached.cache, box_bounds({kWalkwayExtension}));
    CHECK(stats.tiles_outside_changed == 0);
    CHECK(stats.tiles_rebuilt > touched);
  }

  TEST_CASE(
      "a tile whose island filter reads its neighbours' triangles rebuilds alone to the full "
      "build") {
    // the rebuilt tile's island window reaches into tiles that are not rebuilt: their triangle
    // lists must be gathered for it all the same. Tiles (11, 4) and (12, 4) of city:3 at 16-cell
    // tiles came out different when only the rebuilt tile's list was gathered (found by
    // rebuilding every tile with island reads alone)
    const TriangleMesh scene = *io::builtin_scene("city:3");
    mesh::CachedTiledBuild cached = build_cached(scene, 16);
    const mesh::TileLayout& layout = cached.cache.layout;
    for (const std::size_t tx : {11, 12}) {
      const std::size_t t = tx + 4 * static_cast<std::size_t>(layout.tiles_x);
      INFO(mesh::tile_name(layout, t));
      CHECK(cached.cache.tiles[t].island_reads.width() > 0);
      // a point in the middle of the tile touches no other tile
      const mesh::TileRect r = layout.interior(t);
      const double cs = layout.grid.cell_size;
      const Vec3 mid{static_cast<float>(layout.grid.origin.x + (r.x0 + r.x1) * 0.5 * cs), 0.0F,
                     static_cast<float>(layout.grid.origin.z + (r.z0 + r.z1) * 0.5 * cs)};
      AABB box;
      box.extend(mid);
      REQUIRE(mesh::tiles_touching(layout, box) == std::vector<std::size_t>{t});
      const mesh::RebuildStats stats = rebuild_matches_full(scene, cached.cache, box);
      CHECK(stats.tiles_outside_changed == 0);
      CHECK(stats.tiles_listed > stats.tiles_rebuilt);
    }
  }

  TEST_CASE("the content hash composes from the parts of any consecutive slicing of the arrays") {
    std::mt19937 rng(2424);
    const mesh::TiledBuildOutput tiled = build_full(room({kBoxA, kBoxB, kBoxC}), 16);
    BuildContext ctx;
    auto untiled = mesh::build_navmesh(room({kBoxA, kBoxC}), *named_config("default"), ctx);
    REQUIRE(untiled.ok());
    const mesh::NavMesh& plain = untiled->navmesh;
    for (const mesh::NavMesh* nav : {&tiled.navmesh, &plain}) {
      REQUIRE(nav->polygon_count() > 10);
      const std::uint64_t hash = mesh::content_hash(*nav);
      for (const std::size_t cuts : {0, 1, 5, 40}) {
        CAPTURE(cuts);
        const std::vector<mesh::TileSlices> slices = random_slices(*nav, cuts, rng);
        CHECK(hash_of_slices(*nav, slices) == hash);
      }
    }
    // parts that do not cover the arrays, or lie outside them, give the direct hash
    const mesh::NavMesh& nav = tiled.navmesh;
    const std::uint64_t hash = mesh::content_hash(nav);
    std::vector<mesh::TileSlices> slices = random_slices(nav, 3, rng);
    slices.pop_back();
    CHECK(hash_of_slices(nav, slices) == hash);
    mesh::TileSlices outside{0, static_cast<std::uint32_t>(nav.vertices.size()) + 1, 0, 0, 0, 0};
    CHECK_FALSE(mesh::tile_hash_part(nav, outside).valid);
    CHECK(hash_of_slices(nav, std::vector<mesh::TileSlices>{outside}) == hash);
  }

  TEST_CASE("the content hash changes with any one field: vertices, polygons, heights, tiles") {
    const mesh::NavMesh base = build_full(room({kBoxA, kBoxB}), 32).navmesh;
    REQUIRE_FALSE(base.height_patches.empty());
    const std::uint64_t hash = mesh::content_hash(base);
    std::vector<mesh::NavMesh> changed(12, base);
    changed[0].vertices.back().y += 0.25F;
    changed[1].poly_first[1] += 1;
    changed[2].poly_vertices[5] ^= 1U;
    changed[3].poly_neighbors[0] =
        changed[3].poly_neighbors[0] == mesh::kNoPoly ? 0 : mesh::kNoPoly;
    changed[4].poly_region.back() += 1;
    changed[5].poly_area[0] ^= 1U;
    changed[6].poly_flags.back() ^= mesh::kPolyFlagCrouch;
    changed[7].poly_bounds[3].max.z += 1.0F;
    changed[8].height_patches[2].first += 1;
    changed[9].height_samples.back() += 0.1F;
    changed[10].tile_poly_first[1] += 1;
    changed[11].grid.origin.x += 1.0F;
    for (std::size_t k = 0; k < changed.size(); ++k) {
      CAPTURE(k);
      CHECK(mesh::content_hash(changed[k]) != hash);
    }
    // every NaN sample hashes alike; swapping two different vertices changes the hash
    mesh::NavMesh nan_a = base;
    mesh::NavMesh nan_b = base;
    nan_a.height_samples[0] = std::numeric_limits<float>::quiet_NaN();
    nan_b.height_samples[0] = -std::numeric_limits<float>::quiet_NaN();
    CHECK(mesh::content_hash(nan_a) == mesh::content_hash(nan_b));
    mesh::NavMesh swapped = base;
    std::swap(swapped.vertices[0], swapped.vertices[1]);
    CHECK(mesh::content_hash(swapped) != hash);
  }

  TEST_CASE("random edits on 16-cell tiles, spliced in place, keep every tile's hash part exact") {
    // 9 x 9 tiles; each step adds or removes a box, so tiles change their vertex and polygon
    // counts and every later tile's ids move: the parts kept must still be exact
    std::mt19937 rng(1624);
    std::uniform_real_distribution<float> pos(2.0F, 36.0F);
    std::uniform_real_distribution<float> size(0.3F, 2.5F);
    std::vector<Box> boxes{kBoxA};
    mesh::CachedTiledBuild cached = build_cached(room(boxes), 16);
    REQUIRE(cached.cache.hash_parts.size() == 81);
    for (int step = 0; step < 5; ++step) {
      CAPTURE(step);
      Box changed;
      if (step == 3) {
        changed = boxes.front();
        boxes.erase(boxes.begin());
      } else {
        const float x = pos(rng);
        const float z = pos(rng);
        changed = {{x, 0, z}, {x + size(rng), 1.0F, z + size(rng)}};
        boxes.push_back(changed);
      }
      const mesh::RebuildStats stats = rebuild_matches_full(
          room(boxes), cached.cache, box_bounds({changed}), step % 2, &cached.output.navmesh);
      CHECK(stats.tiles_rehashed >= stats.pieces_linked);
    }
  }

  TEST_CASE("validate_polygons checks the listed polygons as validate does, and only them") {
    const mesh::TiledBuildOutput full = build_full(room({kBoxA, kBoxB}), 32);
    mesh::NavMesh nav = full.navmesh;
    std::vector<std::uint32_t> all(nav.polygon_count());
    for (std::uint32_t p = 0; p < all.size(); ++p) all[p] = p;
    REQUIRE(mesh::validate(nav).ok());
    CHECK(mesh::validate_polygons(nav, all).ok());
    // polygon 0 repeats a vertex; the last polygon is not its neighbour
    const std::uint32_t last = all.back();
    for (const std::uint32_t q : nav.neighbors(mesh::PolyId{0})) REQUIRE(q != last);
    for (const std::uint32_t q : nav.neighbors(mesh::PolyId{last})) REQUIRE(q != 0);
    nav.poly_vertices[nav.poly_first[0] + 1] = nav.poly_vertices[nav.poly_first[0]];
    CHECK_FALSE(mesh::validate(nav).ok());
    CHECK_FALSE(mesh::validate_polygons(nav, all).ok());
    const std::vector<std::uint32_t> first{0};
    const Status broken = mesh::validate_polygons(nav, first);
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.error().message.find("polygon 0") != std::string::npos);
    CHECK(mesh::validate_polygons(nav, std::vector<std::uint32_t>{last}).ok());
    // the whole arrays are always checked, and a polygon id out of range is an error
    mesh::NavMesh short_first = full.navmesh;
    short_first.poly_region.pop_back();
    CHECK_FALSE(mesh::validate_polygons(short_first, std::vector<std::uint32_t>{last}).ok());
    CHECK_FALSE(mesh::validate_polygons(full.navmesh, std::vector<std::uint32_t>{last + 1}).ok());
  }
}
