// Jump links on tiled builds: the closed-form jump scenes (io/jump_scenes.hpp) built in tiles whose
// border lies on the gap's near edge, inside the gap and away from it give the same reachability
// with jumps as the untiled build (points on a 0.5 m lattice over the floors, directed graph
// search over walk and jump arcs); every link passes the exact check; a link is stored once, with
// the tile of its start point; 1 and 2 threads give the same set.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/planning/graph.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

struct Built {
  mesh::NavMesh navmesh;
  JumpLinkSet links;
  std::optional<mesh::TileLayout> layout;
  std::uint64_t cross_tile = 0;
};

BuildConfig thesis() {
  auto config = named_config("thesis");
  REQUIRE(config.ok());
  return *config;
}

TiledLinkOptions link_options(JumpConfig jump, bool compact) {
  TiledLinkOptions options;
  options.jumps.jumps = {jump};
  options.jumps.step = 1;
  options.compact = compact;
  return options;
}

// The untiled pipeline of `leapnav build --jump`: links, refinement, compaction.
Built build_untiled(const TriangleMesh& scene, const TiledLinkOptions& options) {
  const BuildConfig config = thesis();
  BuildContext ctx;
  auto built = mesh::build_navmesh(scene, config, ctx);
  REQUIRE(built.ok());
  auto links = build_jump_links(built->voxels.solid, built->voxels.compact, built->navmesh,
                                config.agent, options.jumps, ctx);
  REQUIRE(links.ok());
  REQUIRE(refine_links(*links, scene, built->navmesh, config.agent, options.refine, ctx).ok());
  Built out{std::move(built->navmesh), std::move(links).value(), std::nullopt, 0};
  if (options.compact) {
    auto compact =
        compact_links(out.links, scene, out.navmesh, config.agent, options.compact_options, ctx);
    REQUIRE(compact.ok());
    out.links = std::move(compact->set);
  }
  return out;
}

Built build_tiled(const TriangleMesh& scene, int tile_size, const TiledLinkOptions& options,
                  int threads = 1) {
  const BuildConfig config = thesis();
  BuildContext ctx;
  ctx.set_threads(threads);
  auto built = mesh::build_tiled_navmesh(scene, config, mesh::TileConfig{tile_size, -1}, ctx);
  REQUIRE(built.ok());
  auto links = build_tiled_jump_links(scene, built->navmesh, built->layout, options, ctx);
  REQUIRE_MESSAGE(links.ok(), (links.ok() ? "" : links.error().message));
  const Status status = validate(links->set, built->navmesh);
  CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
  return {std::move(built->navmesh), std::move(links->set), built->layout, links->cross_tile_links};
}

// The polygon whose closed xz outline holds (x, z) with its floor within 0.3 m of y, if any.
std::optional<std::uint32_t> locate(const mesh::NavMesh& nav, float x, float y, float z) {
  for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
    const auto verts = nav.polygon(mesh::PolyId{p});
    bool inside = true;
    for (std::size_t k = 0; k < verts.size() && inside; ++k) {
      const Vec3& a = nav.vertices[verts[k]];
      const Vec3& b = nav.vertices[verts[(k + 1) % verts.size()]];
      const double cross =
          (double{b.x} - a.x) * (double{z} - a.z) - (double{x} - a.x) * (double{b.z} - a.z);
      inside = cross >= 0.0;
    }
    if (inside && std::abs(mesh::height_at(nav, mesh::PolyId{p}, x, z) - y) < 0.3F) return p;
  }
  return std::nullopt;
}

// Polygons reachable from `from` over walk and jump arcs (directed).
std::vector<char> reachable(const plan::NavGraph& graph, std::uint32_t from) {
  std::vector<char> seen(graph.vertex_count(), 0);
  std::vector<std::uint32_t> stack{from};
  seen[from] = 1;
  while (!stack.empty()) {
    const std::uint32_t p = stack.back();
    stack.pop_back();
    for (std::uint32_t a = graph.out_begin(p); a < graph.out_end(p); ++a) {
      const std::uint32_t q = graph.arc_target[a];
      if (seen[q] == 0) {
        seen[q] = 1;
        stack.push_back(q);
      }
    }
  }
  return seen;
}

struct Reach {
  std::vector<std::vector<char>> pairs;  // [from point][to point]
  std::size_t points = 0;
};

// Reachability between the points (each on both meshes) with walking and jumping.
Reach reach_matrix(const Built& built, const std::vector<Vec3>& points) {
  const plan::NavGraph graph = plan::build_graph(built.navmesh, &built.links);
  Reach out;
  out.points = points.size();
  for (const Vec3& a : points) {
    const auto pa = locate(built.navmesh, a.x, a.y, a.z);
    REQUIRE(pa.has_value());
    const std::vector<char> seen = reachable(graph, *pa);
    std::vector<char> row;
    for (const Vec3& b : points) {
      const auto pb = locate(built.navmesh, b.x, b.y, b.z);
      REQUIRE(pb.has_value());
      row.push_back(seen[*pb]);
    }
    out.pairs.push_back(std::move(row));
  }
  return out;
}

// Lattice points (0.5 m) at the floor heights `tops` that both meshes hold.
std::vector<Vec3> common_points(const Built& a, const Built& b, const std::vector<float>& tops) {
  std::vector<Vec3> out;
  for (float x = 0.25F; x < 40.0F; x += 0.5F) {
    for (float z = 0.25F; z < io::kJumpSceneWidth; z += 0.5F) {
      for (const float y : tops) {
        if (locate(a.navmesh, x, y, z) && locate(b.navmesh, x, y, z)) out.push_back({x, y, z});
      }
    }
  }
  return out;
}

// Tile sizes whose first border (x = origin + n cs) lies on x_edge, inside (x_edge, x_far), and
// none of whose borders lies in [x_edge - 1, x_far + 1].
struct TileSizes {
  int on_edge = 0;
  int in_gap = 0;
  int off = 0;
};

TileSizes tile_sizes(const GridSpec& grid, float x_edge, float x_far) {
  const float cs = grid.cell_size;
  TileSizes out;
  out.on_edge = static_cast<int>(std::lround((x_edge - grid.origin.x) / cs));
  out.in_gap = static_cast<int>(std::floor((0.5F * (x_edge + x_far) - grid.origin.x) / cs));
  for (int n = 16; n < grid.width; ++n) {
    bool clear = true;
    for (int k = n; k < grid.width; k += n) {
      const float x = grid.origin.x + static_cast<float>(k) * cs;
      clear = clear && (x < x_edge - 1.0F || x > x_far + 1.0F);
    }
    if (clear) {
      out.off = n;
      break;
    }
  }
  return out;
}

// A gap-like scene: the near edge of the gap at x = 8, its far edge at x_far.
struct SceneCase {
  std::string spec;
  JumpConfig jump;
  float x_far = 0.0F;
  std::vector<float> tops;
  bool crossed = false;  // whether the closed form lets the agent jump from x < 8 to x > x_far
};

void check_scene(const SceneCase& c, bool compact) {
  CAPTURE(c.spec);
  CAPTURE(compact);
  auto scene = io::load_scene("builtin:" + c.spec);
  REQUIRE(scene.ok());
  const TiledLinkOptions options = link_options(c.jump, compact);
  const Built untiled = build_untiled(*scene, options);
  const TileSizes sizes = tile_sizes(untiled.navmesh.grid, io::kJumpPlatformLength, c.x_far);
  REQUIRE(sizes.on_edge >= 16);
  REQUIRE(sizes.in_gap >= 16);
  REQUIRE(sizes.off >= 16);
  for (const int tile_size : {sizes.on_edge, sizes.in_gap, sizes.off}) {
    CAPTURE(tile_size);
    const Built tiled = build_tiled(*scene, tile_size, options);
    REQUIRE(tiled.layout->tile_count() >= 2);
    const LinkCheckReport report = check_links(tiled.links, *scene, tiled.navmesh, thesis().agent);
    CHECK(report.links_checked == tiled.links.links.size());
    CHECK(report.links_failed == 0);
    const std::vector<Vec3> points = common_points(untiled, tiled, c.tops);
    REQUIRE(points.size() > 100);
    const Reach want = reach_matrix(untiled, points);
    const Reach got = reach_matrix(tiled, points);
    std::size_t mismatches = 0;
    std::size_t across = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      for (std::size_t j = 0; j < points.size(); ++j) {
        mismatches += want.pairs[i][j] != got.pairs[i][j] ? 1 : 0;
        if (points[i].x < io::kJumpPlatformLength && points[j].x > c.x_far)
          across += got.pairs[i][j] != 0 ? 1 : 0;
      }
    }
    MESSAGE(c.spec << " tiles of " << tile_size << ": " << points.size() << " points, "
                   << tiled.links.links.size() << " links (untiled " << untiled.links.links.size()
                   << "), " << tiled.cross_tile << " across tiles, " << across
                   << " pairs reached across the gap, " << mismatches << " mismatches");
    CHECK(mismatches == 0);
    CHECK((across > 0) == c.crossed);
  }
}

}  // namespace

TEST_SUITE("jumplinks.tiles") {
  TEST_CASE(
      "tiled jump scenes reach the same point pairs as untiled, tile border on the gap or off") {
    const float top = io::kJumpFloorTop;
    const std::vector<SceneCase> cases = {
        {"gap:1.25", kJumpC1, 9.25F, {top}, true},
        {"gap:2.5", kJumpC1, 10.5F, {top}, false},
        {"gap:5.75", kJumpC2, 13.75F, {top}, true},
        {"rise:0.5", kJumpC1, 8.5F, {top, top + 0.5F}, true},
        {"drop:1", kJumpC1, 8.5F, {top + 1.0F, top}, true},
    };
    for (const SceneCase& c : cases) check_scene(c, true);
    // the full (uncompacted) set too, on the border case that needs links across tiles most
    check_scene(cases[2], false);
  }

  TEST_CASE("a link across a tile border is stored once, with the tile of its start point") {
    auto scene = io::load_scene("builtin:gap:1.25");
    REQUIRE(scene.ok());
    const TiledLinkOptions options = link_options(kJumpC1, false);
    const Built untiled = build_untiled(*scene, options);
    const int on_edge = tile_sizes(untiled.navmesh.grid, io::kJumpPlatformLength, 9.25F).on_edge;
    const Built tiled = build_tiled(*scene, on_edge, options);
    const mesh::TileLayout& layout = *tiled.layout;
    const PolygonTiles tiles = polygon_tiles(tiled.navmesh, layout);
    REQUIRE(tiled.cross_tile > 0);
    std::uint64_t cross = 0;
    for (const JumpLink& l : tiled.links.links) {
      // the start point's column (its south-west corner) lies in the start polygon's tile
      const GridSpec& grid = layout.grid;
      const auto column_x =
          static_cast<int>(std::lround((l.start.x - grid.origin.x) / grid.cell_size));
      const auto column_z =
          static_cast<int>(std::lround((l.start.z - grid.origin.z) / grid.cell_size));
      const std::size_t start_tile = static_cast<std::size_t>(column_x / layout.tile_size) +
                                     static_cast<std::size_t>(column_z / layout.tile_size) *
                                         static_cast<std::size_t>(layout.tiles_x);
      CHECK(tiles.poly_tile[l.start_poly] == start_tile);
      cross += tiles.poly_tile[l.land_poly] != tiles.poly_tile[l.start_poly] ? 1 : 0;
    }
    CHECK(cross == tiled.cross_tile);
    // once: no two links with the same start, land segment and configuration
    std::vector<std::tuple<float, float, float, float, float, float, std::uint16_t>> keys;
    for (const JumpLink& l : tiled.links.links)
      keys.emplace_back(l.start.x, l.start.z, l.land_a.x, l.land_a.z, l.land_b.x, l.land_b.z,
                        l.config);
    std::sort(keys.begin(), keys.end());
    CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
    // every sample point of the tiled build is one of the untiled build's (same lattice)
    CHECK(tiled.links.stats.sample_points == untiled.links.stats.sample_points);
  }

  TEST_CASE("tiled jump links are identical for 1 and 2 threads") {
    auto scene = io::load_scene("builtin:gap:5.75");
    REQUIRE(scene.ok());
    const TiledLinkOptions options = link_options(kJumpC2, true);
    const Built one = build_tiled(*scene, 24, options, 1);
    const Built two = build_tiled(*scene, 24, options, 2);
    CHECK(!one.links.links.empty());
    CHECK(content_hash(one.links) == content_hash(two.links));
    CHECK(mesh::content_hash(one.navmesh) == mesh::content_hash(two.navmesh));
  }

  TEST_CASE("bad tiled link options name the field") {
    TiledLinkOptions options = link_options(kJumpC1, true);
    options.compact_options.detour = -1.0F;
    const Status status = validate(options);
    REQUIRE(!status.ok());
    CHECK(status.error().message.find("detour") != std::string::npos);
    options = link_options(kJumpC1, true);
    options.jumps.step = 0;
    CHECK(!validate(options).ok());
  }
}
