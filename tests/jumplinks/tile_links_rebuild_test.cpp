// Jump links in incremental tiled rebuilds: on the closed-form gap scenes with C1 and C2 links, a
// box added near the gap on a tile border (within jump range of it) and removed again, the
// rebuilt mesh and link set equal a full tiled build of the new geometry bit for bit (links,
// index, groups, counters), the updated cache equals a fresh build's cache, 1 and 2 threads agree,
// and a cache that does not fit is refused. On city:2 (32-cell tiles, C2 at step 4), seeded random
// boxes added one after another relink to the full build's links, relinking only tiles within
// link reach of a changed tile, and hashing again only the tiles the mesh rebuild restitched; a
// box on a city:6 street (64-cell tiles) whose edit changes two neighbours' polygons as well. The
// read radius's filter-walk margin: a change 0.1 m inside it relinks a tile, 0.1 m outside not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/jumplinks/tile_links_rebuild.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/tile_cache.hpp"
#include "leapnav/mesh/tiles.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

constexpr int kTileSize = 16;  // 4 m tiles of 0.25 m cells: borders near and across the gap

BuildConfig thesis() {
  auto config = named_config("thesis");
  REQUIRE(config.ok());
  return *config;
}

TiledLinkOptions link_options(JumpConfig jump) {
  TiledLinkOptions options;
  options.jumps.jumps = {jump};
  options.jumps.step = 1;
  options.compact = true;
  return options;
}

// `scene` with an axis-aligned box (12 triangles) appended.
TriangleMesh with_box(const TriangleMesh& scene, Vec3 lo, Vec3 hi) {
  TriangleMesh out = scene;
  const auto base = static_cast<std::uint32_t>(out.vertices.size());
  for (int k = 0; k < 8; ++k) {
    out.vertices.push_back(
        {(k & 1) != 0 ? hi.x : lo.x, (k & 2) != 0 ? hi.y : lo.y, (k & 4) != 0 ? hi.z : lo.z});
  }
  // faces as quads of corner bits, outward winding is irrelevant to voxelization here but kept
  const int quads[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1},
                           {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
  for (const auto& q : quads) {
    const auto v = [&](int i) { return base + static_cast<std::uint32_t>(q[i]); };
    out.triangles.push_back({v(0), v(2), v(1)});
    out.triangles.push_back({v(0), v(3), v(2)});
    if (!out.areas.empty()) {
      out.areas.push_back(out.areas.front());
      out.areas.push_back(out.areas.front());
    }
  }
  return out;
}

// builtin:`spec` with a 4 m pillar in a corner that fixes the world's height (the edits stay
// below it, so the grid does not change) and the far platform extended from x = `from_x` to
// x = 40 m (tiles beyond C2's reach).
TriangleMesh gap_world(const std::string& spec, float from_x) {
  auto loaded = io::load_scene("builtin:" + spec);
  REQUIRE(loaded.ok());
  return with_box(with_box(*loaded, {0.0F, 1.0F, 0.0F}, {0.5F, 4.0F, 0.5F}), {from_x, 0.0F, 0.0F},
                  {40.0F, 1.0F, 6.0F});
}

struct Full {
  mesh::CachedTiledBuild mesh;
  CachedTiledLinks links;
};

Full build_full(const TriangleMesh& scene, const TiledLinkOptions& options, int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto built =
      mesh::build_tiled_navmesh_cached(scene, thesis(), mesh::TileConfig{kTileSize, -1}, ctx);
  REQUIRE(built.ok());
  auto links = build_tiled_jump_links_cached(scene, built->output.navmesh, built->output.layout,
                                             options, ctx);
  REQUIRE_MESSAGE(links.ok(), (links.ok() ? "" : links.error().message));
  return {std::move(built).value(), std::move(links).value()};
}

void check_same_links(const TiledLinks& a, const TiledLinks& b) {
  CHECK(a.set.links == b.set.links);
  CHECK(a.set.poly_first == b.set.poly_first);
  CHECK(a.set.group_land_poly == b.set.group_land_poly);
  CHECK(a.set.group_first == b.set.group_first);
  CHECK(a.set.quantum == b.set.quantum);
  CHECK(content_hash(a.set) == content_hash(b.set));
  CHECK(a.set.stats.sample_points == b.set.stats.sample_points);
  CHECK(a.set.stats.cells_visited == b.set.stats.cells_visited);
  CHECK(a.set.stats.land_voxels == b.set.stats.land_voxels);
  CHECK(a.set.stats.chains == b.set.stats.chains);
  CHECK(a.set.stats.links_failing == b.set.stats.links_failing);
  CHECK(a.cross_tile_links == b.cross_tile_links);
  CHECK(a.max_search_columns == b.max_search_columns);
}

void check_same_cache(const TileLinksCache& a, const TileLinksCache& b) {
  CHECK(a.polygon_hashes == b.polygon_hashes);
  CHECK(a.border_hashes == b.border_hashes);
  CHECK(a.polygons.poly_tile == b.polygons.poly_tile);
  CHECK(a.polygons.tile_polys == b.polygons.tile_polys);
  REQUIRE(a.tiles.size() == b.tiles.size());
  for (std::size_t t = 0; t < a.tiles.size(); ++t) {
    CHECK(a.tiles[t].set.links == b.tiles[t].set.links);
    CHECK(a.tiles[t].search_polygons == b.tiles[t].search_polygons);
  }
  CHECK(a.polygon_reads == b.polygon_reads);
  CHECK(a.polygon_boxes == b.polygon_boxes);
  CHECK(a.neighbor_first == b.neighbor_first);
  CHECK(a.neighbors == b.neighbors);
}

// Tiles whose input fingerprint differs between two caches of the same layout.
std::vector<std::size_t> changed_tiles(const std::vector<std::uint64_t>& before,
                                       const std::vector<std::uint64_t>& after) {
  std::vector<std::size_t> out;
  REQUIRE(before.size() == after.size());
  for (std::size_t t = 0; t < before.size(); ++t) {
    if (before[t] != after[t]) out.push_back(t);
  }
  return out;
}

// The box spanning two corners.
AABB box_between(const Vec3& lo, const Vec3& hi) {
  AABB box;
  box.extend(lo);
  box.extend(hi);
  return box;
}

// The mesh half of a rebuild: `state`'s mesh cache updated for `scene` after an edit inside
// `box`, and the tiles whose input fingerprint changed.
struct MeshEdit {
  Result<mesh::TiledBuildOutput> output;
  std::vector<std::size_t> rebuilt;
};
MeshEdit rebuild_mesh(Full& state, const TriangleMesh& scene, const AABB& box, BuildContext& ctx,
                      mesh::RebuildStats* stats = nullptr) {
  const std::vector<std::uint64_t> before = state.mesh.cache.fingerprints;
  auto output = mesh::rebuild_tiled_navmesh(scene, state.mesh.cache, box, ctx, stats);
  std::vector<std::size_t> rebuilt;
  if (output.ok()) rebuilt = changed_tiles(before, state.mesh.cache.fingerprints);
  return {std::move(output), std::move(rebuilt)};
}

// Rebuilds `state` (mesh and links) for `scene` after an edit inside `box`, checks the result
// against a full build of `scene`, and returns the link rebuild's counters.
LinkRebuildStats rebuild_and_check(Full& state, const TriangleMesh& scene, const AABB& box,
                                   const TiledLinkOptions& options, int threads) {
  BuildContext ctx;
  ctx.set_threads(threads);
  MeshEdit edit = rebuild_mesh(state, scene, box, ctx);
  auto& mesh_out = edit.output;
  const std::vector<std::size_t>& rebuilt = edit.rebuilt;
  REQUIRE_MESSAGE(mesh_out.ok(), (mesh_out.ok() ? "" : mesh_out.error().message));
  CHECK(!rebuilt.empty());
  LinkRebuildStats stats;
  auto links = rebuild_tiled_jump_links(scene, mesh_out->navmesh, mesh_out->layout, rebuilt,
                                        state.links.cache, ctx, &stats);
  REQUIRE_MESSAGE(links.ok(), (links.ok() ? "" : links.error().message));
  const Full full = build_full(scene, options);
  CHECK(mesh::content_hash(mesh_out->navmesh) == mesh::content_hash(full.mesh.output.navmesh));
  check_same_links(*links, full.links.links);
  check_same_cache(state.links.cache, full.links.cache);
  CHECK(validate(state.links.cache).ok());
  state.links.links = std::move(links).value();
  return stats;
}

struct EditCase {
  const char* spec;
  JumpConfig jump;
  Vec3 lo;
  Vec3 hi;
};

void check_edit(const EditCase& c, int threads) {
  const TriangleMesh scene = gap_world(c.spec, 21.75F);
  const TiledLinkOptions options = link_options(c.jump);
  Full state = build_full(scene, options, threads);
  REQUIRE(!state.links.links.set.links.empty());
  const TriangleMesh edited = with_box(scene, c.lo, c.hi);
  const AABB box = box_between(c.lo, c.hi);
  const LinkRebuildStats added = rebuild_and_check(state, edited, box, options, threads);
  CHECK(!added.layout_changed);
  CHECK(added.tiles_relinked > 0);
  CHECK(added.tiles_reused > 0);
  CHECK(added.tiles_relinked + added.tiles_reused == added.tiles);
  MESSAGE(std::string(c.spec) << ": box added, " << added.tiles_relinked << " of " << added.tiles
                              << " tiles relinked, " << added.tiles_polygons_changed
                              << " with changed polygons");
  const LinkRebuildStats removed = rebuild_and_check(state, scene, box, options, threads);
  CHECK(removed.tiles_reused > 0);
}

// The tiles whose links the rule says to build again, brute force over all tiles and pairs: those
// whose link search rectangle overlaps the interior of a rebuilt tile or of a tile whose own
// polygon hash changed, or of two neighbouring tiles whose border hash between them changed.
std::uint64_t tiles_in_reach(const mesh::TileLayout& layout,
                             const std::vector<std::size_t>& rebuilt, const TileLinksCache& before,
                             const TileLinksCache& after, int reach) {
  const std::size_t count = layout.tile_count();
  const auto nx = static_cast<int>(layout.tiles_x);
  std::vector<bool> dirty(count, false);
  for (const std::size_t t : rebuilt) dirty[t] = true;
  for (std::size_t t = 0; t < count; ++t) {
    if (before.polygon_hashes[t] != after.polygon_hashes[t]) dirty[t] = true;
  }
  std::uint64_t n = 0;
  for (std::size_t t = 0; t < count; ++t) {
    const mesh::TileRect r = link_search_rect(layout, t, reach);
    const auto in_rect = [&](std::size_t u) {
      const mesh::TileRect i = layout.interior(u);
      return r.x0 < i.x1 && i.x0 < r.x1 && r.z0 < i.z1 && i.z0 < r.z1;
    };
    bool relink = false;
    for (std::size_t u = 0; u < count && !relink; ++u) {
      if (!in_rect(u)) continue;
      if (dirty[u]) relink = true;
      for (std::size_t v = 0; v < count && !relink; ++v) {
        const int dx = static_cast<int>(v % layout.tiles_x) - static_cast<int>(u % layout.tiles_x);
        const int dz = static_cast<int>(v) / nx - static_cast<int>(u) / nx;
        if (v == u || dx < -1 || dx > 1 || dz < -1 || dz > 1 || !in_rect(v)) continue;
        int d = (dz + 1) * 3 + (dx + 1);
        if (d > 4) --d;
        const std::size_t k = u * kBorderDirections + static_cast<std::size_t>(d);
        if (before.border_hashes[k] != after.border_hashes[k]) relink = true;
      }
    }
    n += relink ? 1 : 0;
  }
  return n;
}

// The tiles the relink rule names, brute force from the two meshes themselves: those whose link
// search rectangle overlaps the interior of a rebuilt tile, and those whose interior grown by
// link_read_radius meets the xz bounds of a polygon that lost its equal (same read hash) in its
// tile, before or after (polygons matched as multisets per tile, not in order: this counts at
// most the tiles the rule relinks; both agree when no tile's kept polygons change order).
// The xz boxes (as AABBs) of the polygons that lost their equal (same read hash) in their tile,
// before or after, matched as multisets per tile.
std::vector<AABB> changed_polygon_boxes(const mesh::TileLayout& layout, const mesh::NavMesh& before,
                                        const mesh::NavMesh& after) {
  const PolygonTiles pb = polygon_tiles(before, layout);
  const PolygonTiles pa = polygon_tiles(after, layout);
  std::vector<AABB> changed;
  const auto box = [](const mesh::NavMesh& nav, std::uint32_t p) {
    AABB b;
    for (const std::uint32_t v : nav.polygon(mesh::PolyId{p})) b.extend(nav.vertices[v]);
    return b;
  };
  for (std::size_t u = 0; u < layout.tile_count(); ++u) {
    std::vector<std::uint64_t> hb;
    std::vector<std::uint64_t> ha;
    for (std::uint32_t i = pb.tile_first[u]; i < pb.tile_first[u + 1]; ++i)
      hb.push_back(polygon_read_hash(before, pb.tile_polys[i]));
    for (std::uint32_t i = pa.tile_first[u]; i < pa.tile_first[u + 1]; ++i)
      ha.push_back(polygon_read_hash(after, pa.tile_polys[i]));
    for (std::uint32_t i = pb.tile_first[u]; i < pb.tile_first[u + 1]; ++i) {
      const std::uint64_t h = hb[i - pb.tile_first[u]];
      if (std::count(hb.begin(), hb.end(), h) > std::count(ha.begin(), ha.end(), h))
        changed.push_back(box(before, pb.tile_polys[i]));
    }
    for (std::uint32_t i = pa.tile_first[u]; i < pa.tile_first[u + 1]; ++i) {
      const std::uint64_t h = ha[i - pa.tile_first[u]];
      if (std::count(ha.begin(), ha.end(), h) > std::count(hb.begin(), hb.end(), h))
        changed.push_back(box(after, pa.tile_polys[i]));
    }
  }
  return changed;
}

// How far the interior of tile t lies from box b in xz: the least grow of the interior on every
// side that makes it meet b (the relink rule's test) [units: m].
double interior_distance(const mesh::TileLayout& layout, std::size_t t, const AABB& b) {
  const mesh::TileRect in = layout.interior(t);
  const double cs = layout.grid.cell_size;
  const double x0 = layout.grid.origin.x + in.x0 * cs;
  const double x1 = layout.grid.origin.x + in.x1 * cs;
  const double z0 = layout.grid.origin.z + in.z0 * cs;
  const double z1 = layout.grid.origin.z + in.z1 * cs;
  const double dx = std::max({0.0, x0 - double{b.max.x}, double{b.min.x} - x1});
  const double dz = std::max({0.0, z0 - double{b.max.z}, double{b.min.z} - z1});
  return std::max(dx, dz);
}

// Whether the link search rectangle of tile t overlaps the interior of a tile of `rebuilt`.
bool reads_rebuilt(const mesh::TileLayout& layout, std::size_t t,
                   const std::vector<std::size_t>& rebuilt, int reach) {
  const mesh::TileRect r = link_search_rect(layout, t, reach);
  for (const std::size_t u : rebuilt) {
    const mesh::TileRect i = layout.interior(u);
    if (r.x0 < i.x1 && i.x0 < r.x1 && r.z0 < i.z1 && i.z0 < r.z1) return true;
  }
  return false;
}

std::uint64_t tiles_reading_changes(const mesh::TileLayout& layout,
                                    const std::vector<std::size_t>& rebuilt,
                                    const mesh::NavMesh& before, const mesh::NavMesh& after,
                                    const TiledLinkOptions& options, int reach) {
  const std::vector<AABB> changed = changed_polygon_boxes(layout, before, after);
  const double radius = link_read_radius(options, layout, reach);
  std::uint64_t n = 0;
  for (std::size_t t = 0; t < layout.tile_count(); ++t) {
    bool relink = reads_rebuilt(layout, t, rebuilt, reach);
    for (const AABB& b : changed) relink = relink || interior_distance(layout, t, b) <= radius;
    n += relink ? 1 : 0;
  }
  return n;
}

// Seeded random boxes added to builtin:`spec` one after another, C2 at step 4 in tiles of
// `tile_size` cells: each rebuild against a full build, the relinked count against the rule.
// `fixed`, when not empty, gives the boxes (lo, hi pairs) instead.
void random_edits(const char* spec, int tile_size, int edits, unsigned seed,
                  const std::vector<std::pair<Vec3, Vec3>>& fixed = {},
                  std::uint64_t expect_skipped = 0) {
  auto loaded = io::load_scene(std::string("builtin:") + spec);
  REQUIRE(loaded.ok());
  auto config = named_config("default");
  REQUIRE(config.ok());
  TiledLinkOptions options;
  options.jumps.jumps = {kJumpC2};
  options.jumps.step = 4;
  options.compact = true;
  const auto build = [&](const TriangleMesh& scene) {
    BuildContext ctx;
    auto built =
        mesh::build_tiled_navmesh_cached(scene, *config, mesh::TileConfig{tile_size, -1}, ctx);
    REQUIRE(built.ok());
    auto links = build_tiled_jump_links_cached(scene, built->output.navmesh, built->output.layout,
                                               options, ctx);
    REQUIRE(links.ok());
    return Full{std::move(built).value(), std::move(links).value()};
  };
  TriangleMesh scene = *loaded;
  Full state = build(scene);
  const AABB bounds = scene.bounds();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(bounds.min.x + 2.0F, bounds.max.x - 4.0F);
  std::uniform_real_distribution<float> size(0.4F, 3.0F);
  std::uniform_real_distribution<float> height(0.3F, 2.5F);
  std::uint64_t relinked = 0;
  std::uint64_t links_changed = 0;
  std::uint64_t skipped = 0;  // tiles the tile-level rule relinks and the polygon rule does not
  for (int edit = 0; edit < edits; ++edit) {
    CAPTURE(edit);
    Vec3 lo{pos(rng), 0.0F, pos(rng)};  // the streets are at y = 0
    Vec3 hi{lo.x + size(rng), height(rng), lo.z + size(rng)};
    if (!fixed.empty()) std::tie(lo, hi) = fixed[static_cast<std::size_t>(edit)];
    const AABB box = box_between(lo, hi);
    scene = with_box(scene, lo, hi);
    BuildContext ctx;
    mesh::RebuildStats mesh_stats;
    MeshEdit mesh_edit = rebuild_mesh(state, scene, box, ctx, &mesh_stats);
    auto& mesh_out = mesh_edit.output;
    const std::vector<std::size_t>& changed = mesh_edit.rebuilt;
    REQUIRE(mesh_out.ok());
    REQUIRE(mesh_out->layout.grid == state.mesh.output.layout.grid);
    // as the CLI passes them: the tiles the box touches and those whose input changed
    std::vector<std::size_t> rebuilt = mesh::tiles_touching(mesh_out->layout, box);
    rebuilt.insert(rebuilt.end(), changed.begin(), changed.end());
    const TileLinksCache old_cache = state.links.cache;
    LinkRebuildStats stats;
    // only the restitched tiles hashed again (check_same_cache compares every hash with a
    // fresh build's)
    CHECK(mesh_stats.tiles_restitched.size() < state.mesh.output.layout.tile_count());
    auto links =
        rebuild_tiled_jump_links(scene, mesh_out->navmesh, mesh_out->layout, rebuilt,
                                 state.links.cache, ctx, &stats, &mesh_stats.tiles_restitched);
    REQUIRE_MESSAGE(links.ok(), (links.ok() ? "" : links.error().message));
    const Full full = build(scene);
    CHECK(mesh::content_hash(mesh_out->navmesh) == mesh::content_hash(full.mesh.output.navmesh));
    check_same_links(*links, full.links.links);
    check_same_cache(state.links.cache, full.links.cache);
    CHECK(validate(state.links.cache).ok());
    // the relinked tiles are those the rule names, and no more
    const int reach =
        jump_reach_cells(options.jumps, config->agent, mesh_out->layout.grid.cell_size);
    // at least what the brute-force rule names from the two meshes, at most the tile-level rule
    // (every tile within reach of a tile whose stitched polygons changed)
    const std::uint64_t tile_rule =
        tiles_in_reach(mesh_out->layout, rebuilt, old_cache, full.links.cache, reach);
    const std::uint64_t polygon_rule = tiles_reading_changes(
        mesh_out->layout, rebuilt, state.mesh.output.navmesh, mesh_out->navmesh, options, reach);
    CHECK(polygon_rule <= stats.tiles_relinked);
    CHECK(stats.tiles_relinked <= tile_rule);
    skipped += tile_rule - stats.tiles_relinked;
    CHECK(stats.tiles_links_changed <= stats.tiles_relinked);
    CHECK(stats.tiles_reused > 0);
    // one record per relinked tile, ascending, with its new links' count and changed flag
    REQUIRE(stats.relinked.size() == stats.tiles_relinked);
    std::uint64_t flagged = 0;
    for (std::size_t i = 0; i < stats.relinked.size(); ++i) {
      const RelinkedTile& r = stats.relinked[i];
      if (i > 0) CHECK(stats.relinked[i - 1].tile < r.tile);
      CHECK(r.links == full.links.cache.tiles[r.tile].set.links.size());
      CHECK(r.cpu_ms >= 0.0);
      if (!r.links_changed) CHECK(r.links == old_cache.tiles[r.tile].set.links.size());
      flagged += r.links_changed ? 1 : 0;
    }
    CHECK(flagged == stats.tiles_links_changed);
    relinked += stats.tiles_relinked;
    links_changed += stats.tiles_links_changed;
    state.mesh.output = std::move(mesh_out).value();
    state.links.links = std::move(links).value();
  }
  MESSAGE(std::string(spec) << ", " << edits << " boxes: " << relinked << " tiles relinked, "
                            << links_changed << " of them with other links than before, " << skipped
                            << " fewer than the tile-level rule");
  CHECK(links_changed > 0);
  CHECK(skipped >= expect_skipped);
}

}  // namespace

// Tile t's links with the polygons of `nav` in `flagged` made unwalkable (flag 1).
std::vector<JumpLink> links_with_flags(const TriangleMesh& scene,
                                       std::span<const std::uint32_t> triangles,
                                       const mesh::NavMesh& nav, const PolygonTiles& tiles,
                                       const mesh::TileLayout& layout, std::size_t t,
                                       const TiledLinkOptions& options,
                                       const std::vector<std::uint32_t>& flagged) {
  mesh::NavMesh copy = nav;
  copy.poly_flags.resize(copy.polygon_count(), 0);
  for (const std::uint32_t p : flagged) copy.poly_flags[p] = 1;
  BuildContext ctx;
  auto out = build_tile_jump_links(scene, triangles, copy, tiles, layout, t, options, ctx);
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message));
  return out->set.links;
}

TEST_SUITE("jumplinks.tile_rebuild") {
  TEST_CASE("polygons beyond a tile's read radius do not change its links; nearer ones can") {
    // city:3, 32-cell tiles (the neighbourhood spans 5 x 5 tiles, so it holds polygons far from
    // the tile), C2 at step 4. For every third tile with links: every polygon whose xz box lies
    // beyond link_read_radius of the tile's interior made unwalkable gives the same links (the
    // filter's walks, the span map and the checks never reach them); the polygons outside the
    // interior but within the radius made unwalkable change some tiles' links (the comparison
    // sees what the links read)
    auto loaded = io::load_scene("builtin:city:3");
    REQUIRE(loaded.ok());
    auto config = named_config("default");
    REQUIRE(config.ok());
    TiledLinkOptions options;
    options.jumps.jumps = {kJumpC2};
    options.jumps.step = 4;
    options.compact = true;
    BuildContext ctx;
    auto built = mesh::build_tiled_navmesh_cached(*loaded, *config, mesh::TileConfig{32, -1}, ctx);
    REQUIRE(built.ok());
    const mesh::NavMesh& nav = built->output.navmesh;
    const mesh::TileLayout& layout = built->output.layout;
    const PolygonTiles tiles = polygon_tiles(nav, layout);
    const int reach = jump_reach_cells(options.jumps, config->agent, layout.grid.cell_size);
    mesh::TileLayout padded = layout;
    padded.border = layout.border + reach;
    const auto triangles = mesh::tile_triangles(*loaded, padded);
    const double radius = link_read_radius(options, layout, reach);
    const double cs = layout.grid.cell_size;
    // the grown interior (world xz) against a polygon's vertex box
    const auto beyond = [&](std::size_t t, std::uint32_t p, double grow) {
      const mesh::TileRect in = layout.interior(t);
      AABB b;
      for (const std::uint32_t v : nav.polygon(mesh::PolyId{p})) b.extend(nav.vertices[v]);
      return b.max.x < layout.grid.origin.x + in.x0 * cs - grow ||
             b.min.x > layout.grid.origin.x + in.x1 * cs + grow ||
             b.max.z < layout.grid.origin.z + in.z0 * cs - grow ||
             b.min.z > layout.grid.origin.z + in.z1 * cs + grow;
    };
    std::uint64_t far_flagged = 0;
    std::uint64_t tested = 0;
    std::uint64_t near_changed = 0;
    for (std::size_t t = 0; t < layout.tile_count(); t += 3) {
      CAPTURE(t);
      const std::vector<JumpLink> base =
          links_with_flags(*loaded, triangles[t], nav, tiles, layout, t, options, {});
      if (base.empty()) continue;
      ++tested;
      std::vector<std::uint32_t> far;
      std::vector<std::uint32_t> near;
      for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
        if (beyond(t, p, radius)) {
          far.push_back(p);
        } else if (beyond(t, p, 0.0)) {
          near.push_back(p);
        }
      }
      far_flagged += far.size();
      CHECK(links_with_flags(*loaded, triangles[t], nav, tiles, layout, t, options, far) == base);
      if (!near.empty() &&
          links_with_flags(*loaded, triangles[t], nav, tiles, layout, t, options, near) != base)
        ++near_changed;
    }
    MESSAGE("city:3: " << tested << " tiles, " << far_flagged
                       << " polygons beyond the read radius flagged in all, " << near_changed
                       << " tiles changed by flags outside the interior within the radius");
    CHECK(tested > 0);
    CHECK(far_flagged > 0);
    CHECK(near_changed > 0);
  }

  TEST_CASE("a box added near the gap on a tile border and removed relinks to the full build") {
    // the gap's near edge is x = 8; the tile lines of 4 m tiles run through the scene at 4 m
    // steps from the grid origin, and z = 3.0..3.5 straddles the middle of the 6 m wide scene
    const std::vector<EditCase> cases{
        {"gap:1.25", kJumpC1, {7.2F, 1.0F, 3.6F}, {7.7F, 2.4F, 4.4F}},
        {"gap:5.75", kJumpC2, {14.0F, 1.0F, 3.6F}, {14.6F, 2.4F, 4.4F}},
    };
    for (const EditCase& c : cases) {
      const std::string spec = c.spec;
      CAPTURE(spec);
      check_edit(c, 1);
    }
  }

  TEST_CASE(
      "a change just inside the filter-walk margin of the read radius relinks a tile, just "
      "outside it does not; both rebuilds equal the full build") {
    // link_read_radius is the larger of the search rectangle's margin and the farthest landing
    // plus the walkable filter's slack (the filter's walks), plus a cell. With the slack set so
    // that the walk term decides, a tile with links whose interior lies d from the nearest
    // changed polygon (and whose rectangle reaches no rebuilt tile) is relinked when the radius
    // is d + 0.1 m and kept when it is d - 0.1 m; the rebuilt links equal the full build's
    // either way (the kept tile's walks read nothing that changed)
    const TriangleMesh scene = gap_world("gap:1.25", 21.75F);
    const Vec3 lo{30.2F, 1.0F, 2.6F};
    const Vec3 hi{30.8F, 2.4F, 3.4F};
    const TriangleMesh edited = with_box(scene, lo, hi);
    TiledLinkOptions options = link_options(kJumpC1);
    // the changed polygons and the rebuilt tiles do not depend on the link options
    Full probe = build_full(scene, options);
    const mesh::NavMesh before = probe.mesh.output.navmesh;
    const mesh::TileLayout layout = probe.mesh.output.layout;
    BuildContext ctx;
    const MeshEdit edit = rebuild_mesh(probe, edited, box_between(lo, hi), ctx);
    REQUIRE(edit.output.ok());
    const std::vector<AABB> changed = changed_polygon_boxes(layout, before, edit.output->navmesh);
    REQUIRE(!changed.empty());
    const int reach = jump_reach_cells(options.jumps, thesis().agent, layout.grid.cell_size);
    std::size_t tile = layout.tile_count();
    double d = std::numeric_limits<double>::infinity();
    for (std::size_t t = 0; t < layout.tile_count(); ++t) {
      if (probe.links.cache.tiles[t].set.links.empty() ||
          reads_rebuilt(layout, t, edit.rebuilt, reach))
        continue;
      for (const AABB& b : changed) {
        if (const double dt = interior_distance(layout, t, b); dt < d) {
          d = dt;
          tile = t;
        }
      }
    }
    REQUIRE(tile < layout.tile_count());
    const double cs = layout.grid.cell_size;
    const double land = link_land_radius(options.jumps, layout.grid.cell_size);
    TiledLinkOptions unfiltered = options;
    unfiltered.filter.enabled = false;
    // the rectangle's margin alone falls well short of the tile: only the walk term reaches it
    CHECK(d > link_read_radius(unfiltered, layout, reach) + 1.0);
    MESSAGE("tile " << tile << " lies " << d << " m from the nearest changed polygon; without the "
                    << "filter the read radius is " << link_read_radius(unfiltered, layout, reach)
                    << " m");
    for (const double delta : {0.1, -0.1}) {
      CAPTURE(delta);
      options.filter.slack = static_cast<float>(d + delta - cs - land);
      REQUIRE(std::abs(link_read_radius(options, layout, reach) - (d + delta)) < 1e-4);
      Full state = build_full(scene, options);
      const LinkRebuildStats stats =
          rebuild_and_check(state, edited, box_between(lo, hi), options, 1);
      const auto it = std::find_if(stats.relinked.begin(), stats.relinked.end(),
                                   [&](const RelinkedTile& r) { return r.tile == tile; });
      if (delta > 0.0) {
        REQUIRE(it != stats.relinked.end());
        CHECK(it->reason == RelinkedTile::Reason::polygons);
      } else {
        CHECK(it == stats.relinked.end());
      }
    }
  }

  TEST_CASE("a link rebuild on 1 and 2 threads gives identical sets and caches") {
    check_edit({"gap:5.75", kJumpC2, {7.0F, 1.0F, 1.8F}, {7.6F, 2.4F, 2.4F}}, 2);
  }

  TEST_CASE("a link cache made from a joined set (as a file keeps it) rebuilds to the full links") {
    const TriangleMesh scene = gap_world("gap:1.25", 17.25F);
    const TiledLinkOptions options = link_options(kJumpC1);
    Full state = build_full(scene, options);
    auto from_set = tile_links_cache_from_set(state.mesh.output.navmesh, state.mesh.output.layout,
                                              state.links.links.set, options);
    REQUIRE(from_set.ok());
    CHECK(validate(*from_set).ok());
    REQUIRE(from_set->tiles.size() == state.links.cache.tiles.size());
    for (std::size_t t = 0; t < from_set->tiles.size(); ++t)
      CHECK(from_set->tiles[t].set.links == state.links.cache.tiles[t].set.links);
    CHECK(from_set->polygon_hashes == state.links.cache.polygon_hashes);
    CHECK(from_set->border_hashes == state.links.cache.border_hashes);
    CHECK(from_set->polygon_reads == state.links.cache.polygon_reads);
    CHECK(from_set->polygon_boxes == state.links.cache.polygon_boxes);
    state.links.cache = std::move(from_set).value();
    const Vec3 lo{7.2F, 1.0F, 3.6F};
    const Vec3 hi{7.7F, 2.4F, 4.4F};
    const AABB box = box_between(lo, hi);
    const TriangleMesh edited = with_box(scene, lo, hi);
    BuildContext ctx;
    MeshEdit edit = rebuild_mesh(state, edited, box, ctx);
    auto& mesh_out = edit.output;
    const std::vector<std::size_t>& rebuilt = edit.rebuilt;
    REQUIRE(mesh_out.ok());
    LinkRebuildStats stats;
    auto links = rebuild_tiled_jump_links(edited, mesh_out->navmesh, mesh_out->layout, rebuilt,
                                          state.links.cache, ctx, &stats);
    REQUIRE(links.ok());
    CHECK(stats.tiles_reused > 0);
    const Full full = build_full(edited, options);
    CHECK(links->set.links == full.links.links.set.links);
    CHECK(links->set.poly_first == full.links.links.set.poly_first);
    CHECK(content_hash(links->set) == content_hash(full.links.links.set));
    // a set with other configurations is refused
    TiledLinkOptions other = link_options(kJumpC2);
    CHECK(!tile_links_cache_from_set(state.mesh.output.navmesh, state.mesh.output.layout,
                                     full.links.links.set, other)
               .ok());
  }

  TEST_CASE("a link cache that does not fit the layout or holds foreign links is refused") {
    auto scene = io::load_scene("builtin:gap:1.25");
    REQUIRE(scene.ok());
    Full state = build_full(*scene, link_options(kJumpC1));
    TileLinksCache bad = state.links.cache;
    bad.tiles.pop_back();
    Status status = validate(bad);
    REQUIRE(!status.ok());
    CHECK(status.error().message.find("tile link sets") != std::string::npos);
    bad = state.links.cache;
    for (TileLinks& t : bad.tiles) {
      if (!t.set.links.empty()) {
        t.set.links.front().start_poly = static_cast<std::uint32_t>(bad.polygons.poly_tile.size());
        break;
      }
    }
    status = validate(bad);
    REQUIRE(!status.ok());
    CHECK(status.error().message.find("outside the tile") != std::string::npos);
    // a rebuild with a bad cache fails and leaves the cache alone
    BuildContext ctx;
    const std::vector<std::size_t> rebuilt{0};
    auto out = rebuild_tiled_jump_links(*scene, state.mesh.output.navmesh, state.mesh.output.layout,
                                        rebuilt, bad, ctx);
    CHECK(!out.ok());
    const std::vector<std::size_t> out_of_range{state.mesh.output.layout.tile_count()};
    auto out2 =
        rebuild_tiled_jump_links(*scene, state.mesh.output.navmesh, state.mesh.output.layout,
                                 out_of_range, state.links.cache, ctx);
    REQUIRE(!out2.ok());
    CHECK(out2.error().message.find("rebuilt tile") != std::string::npos);
  }

  TEST_CASE("random boxes added to a city one after another relink to the full build's links") {
    // 32-cell tiles: the link reach (40 cells with the border) spans 5 x 5 tiles
    random_edits("city:2", 32, 6, 24);
  }

  TEST_CASE("a box on a city:6 street that changes two neighbours' polygons relinks their blocks") {
    // 64-cell tiles: 3 x 3 blocks. Tile (6, 6) edited; the own polygons of (5, 6) and (6, 5)
    // change too (island filter, stitching) although neither lies in the box's tiles: their
    // blocks are relinked as well, 15 tiles (the count is checked against the rule)
    random_edits("city:6", 64, 1, 0, {{{121.0F, 0.0F, 118.0F}, {122.0F, 1.5F, 119.0F}}});
  }

  TEST_CASE(
      "a box near a tile border relinks no tile whose reads stay clear of the changed polygons") {
    // 64-cell tiles, the box 14 cells above the lower border of tile (7, 4) (where the city:25
    // edit of the bench sits in its tile): the polygons of the tile below change too, but none
    // within the read radius (about 49 cells) of the row below it, which the tile-level rule
    // relinked: 12 tiles relinked by that rule, 9 by the polygon rule, with the full build's
    // links and cache
    random_edits("city:6", 64, 1, 0, {{{141.5F, 0.0F, 81.0F}, {142.5F, 1.5F, 82.0F}}}, 3);
  }

  TEST_CASE(
      "a rebuild that finds a kept link naming a changed polygon fails and leaves the cache") {
    const TriangleMesh scene = gap_world("gap:1.25", 17.25F);
    Full state = build_full(scene, link_options(kJumpC1));
    // on the far platform in the first row of tiles, away from the gap's links
    const Vec3 lo{30.0F, 1.0F, 1.0F};
    const Vec3 hi{30.5F, 2.4F, 1.8F};
    const AABB box = box_between(lo, hi);
    const TriangleMesh edited = with_box(scene, lo, hi);
    BuildContext ctx;
    MeshEdit edit = rebuild_mesh(state, edited, box, ctx);
    auto& mesh_out = edit.output;
    const std::vector<std::size_t>& rebuilt = edit.rebuilt;
    REQUIRE(mesh_out.ok());
    // a tile with links two or more tiles from the edited one (kept: C1's reach is under a
    // tile); its first link now lands in a polygon of the edited tile (a polygon of the cached
    // mesh, so validate still accepts the cache)
    const mesh::TileLayout& layout = mesh_out->layout;
    const GridSpec& grid = layout.grid;
    const auto tile_of = [&](float x, float z) {
      const auto ts = static_cast<std::size_t>(layout.tile_size);
      return static_cast<std::size_t>((x - grid.origin.x) / grid.cell_size) / ts +
             static_cast<std::size_t>((z - grid.origin.z) / grid.cell_size) / ts *
                 static_cast<std::size_t>(layout.tiles_x);
    };
    const std::size_t edited_tile = tile_of(30.25F, 1.4F);
    const auto nx = static_cast<std::size_t>(layout.tiles_x);
    TileLinksCache bad = state.links.cache;
    REQUIRE(bad.polygons.tile_first[edited_tile] < bad.polygons.tile_first[edited_tile + 1]);
    std::size_t far = bad.tiles.size();
    for (std::size_t t = 0; t < bad.tiles.size(); ++t) {
      const std::size_t dx =
          t % nx > edited_tile % nx ? t % nx - edited_tile % nx : edited_tile % nx - t % nx;
      if (dx >= 2 && !bad.tiles[t].set.links.empty()) far = t;
    }
    REQUIRE(far < bad.tiles.size());
    // later in tile order than the edited tile, so kept tiles before it are renumbered (and must
    // be mapped back) when the error is found
    REQUIRE(far > edited_tile + 1);
    bad.tiles[far].set.links.front().land_poly =
        bad.polygons.tile_polys[bad.polygons.tile_first[edited_tile]];
    REQUIRE(validate(bad).ok());
    const TileLinksCache copy = bad;
    auto out = rebuild_tiled_jump_links(edited, mesh_out->navmesh, layout, rebuilt, bad, ctx);
    REQUIRE(!out.ok());
    CHECK(out.error().code == ErrorCode::Internal);
    CHECK(out.error().message.find("refers to a tile whose polygons changed") != std::string::npos);
    check_same_cache(bad, copy);
    CHECK(bad.layout.grid == copy.layout.grid);
    // and the untouched cache still rebuilds to the full build
    auto good = rebuild_tiled_jump_links(edited, mesh_out->navmesh, layout, rebuilt,
                                         state.links.cache, ctx);
    REQUIRE(good.ok());
    const Full full = build_full(edited, link_options(kJumpC1));
    check_same_links(*good, full.links.links);
  }

  TEST_CASE("a box that widens the world relinks every tile of the new layout to the full build") {
    const TriangleMesh scene = gap_world("gap:1.25", 17.25F);
    const TiledLinkOptions options = link_options(kJumpC1);
    Full state = build_full(scene, options);
    // a platform past the far end: the grid grows by several tiles
    const Vec3 lo{40.0F, 0.0F, 0.0F};
    const Vec3 hi{52.0F, 1.0F, 6.0F};
    const AABB box = box_between(lo, hi);
    const TriangleMesh edited = with_box(scene, lo, hi);
    BuildContext ctx;
    mesh::RebuildStats mesh_stats;
    auto mesh_out = mesh::rebuild_tiled_navmesh(edited, state.mesh.cache, box, ctx, &mesh_stats);
    REQUIRE(mesh_out.ok());
    REQUIRE(mesh_stats.layout_changed);
    REQUIRE(mesh_out->layout.tile_count() > state.mesh.output.layout.tile_count());
    LinkRebuildStats stats;
    auto links =
        rebuild_tiled_jump_links(edited, mesh_out->navmesh, mesh_out->layout, {}, state.links.cache,
                                 ctx, &stats, &mesh_stats.tiles_restitched);
    REQUIRE_MESSAGE(links.ok(), (links.ok() ? "" : links.error().message));
    CHECK(stats.layout_changed);
    CHECK(stats.tiles_relinked == mesh_out->layout.tile_count());
    const Full full = build_full(edited, options);
    check_same_links(*links, full.links.links);
    check_same_cache(state.links.cache, full.links.cache);
  }
}
