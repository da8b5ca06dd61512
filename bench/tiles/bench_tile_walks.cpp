// leapnav_bench_tile_walks: a tiled build against the untiled build of the same level.
//   leapnav_bench_tile_walks --scenes demo,city:3,dungeon --tile-sizes 16,32,64 [--pairs 500]
// Per scene and tile size: walkable and polygon area of both builds, ledge links (count and
// summed source length), and random point pairs planned on both meshes, walking only and with
// the ledge links: pairs sampled on the untiled mesh and, as many again, on the tiled mesh
// (points a tiled build keeps that the untiled one does not show up there), reachability
// mismatches and the planner's mean path length, also over the pairs whose untiled path crosses a
// ledge link. Tiled builds pair ledge edges as `leapnav build --tile-size` does
// (ledge::tiled_ledge_options); `--ledge-pairing untiled` gives them the untiled pairing. Prints
// one CSV line per (scene, tile size, links, sample side). Never asserts anything.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/planning/ledge_planner.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"

namespace {

using namespace leapnav;

struct Built {
  std::shared_ptr<const mesh::NavMesh> nav;
  ledge::LedgeLinkSet ledges;
  mesh::MeshStats stats;
  double ledge_length = 0.0;
};

Result<TriangleMesh> load(const std::string& spec, const std::string& shared) {
  if (spec == "dungeon" || spec == "nav_test")
    return io::load_obj(shared + "/meshes/" + spec + ".obj");
  if (std::filesystem::path(spec).extension() == ".obj") return io::load_obj(spec);
  return io::builtin_scene(spec);
}

Result<Built> build(const TriangleMesh& level, int tile_size, bool untiled_pairing) {
  BuildContext ctx;
  mesh::TileConfig tiles;
  tiles.tile_size = tile_size;
  LEAPNAV_TRY_ASSIGN(mesh::TiledBuildOutput out,
                     mesh::build_tiled_navmesh(level, *named_config("default"), tiles, ctx));
  Built b;
  b.stats = out.stats;
  const ledge::LedgeOptions options =
      tile_size > 0 && !untiled_pairing ? ledge::tiled_ledge_options() : ledge::LedgeOptions{};
  LEAPNAV_TRY_ASSIGN(b.ledges, ledge::build_ledge_links(out.navmesh, &level, options, ctx));
  for (const ledge::LedgeLink& l : b.ledges.links)
    b.ledge_length += std::hypot(l.source_b.x - l.source_a.x, l.source_b.z - l.source_a.z);
  b.nav = std::make_shared<const mesh::NavMesh>(std::move(out.navmesh));
  return b;
}

bool off_mesh(const plan::Path& p) {
  return p.status == plan::PathStatus::StartNotOnMesh ||
         p.status == plan::PathStatus::GoalNotOnMesh;
}

bool crosses_link(const plan::Path& p) {
  for (const plan::PathSegment& s : p.segments)
    if (s.link != plan::kNoLink) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> scenes{"city:3", "demo", "rise:0.5", "dungeon", "nav_test"};
  std::vector<int> sizes{16, 24, 32, 64};
  std::size_t pairs = 500;
  CLI::App app{"tiled against untiled builds: areas, ledge links, reachability, path length"};
  app.add_option("--scenes", scenes, "Levels: dungeon, nav_test, built-in specs, OBJ paths")
      ->delimiter(',');
  app.add_option("--tile-sizes", sizes, "Tile sizes [cells]")->delimiter(',');
  app.add_option("--pairs", pairs, "Point pairs per sample side")->check(CLI::Range(1, 100000));
  std::string pairing = "tiled";
  app.add_option("--ledge-pairing", pairing,
                 "Ledge-edge pairing of the tiled builds: tiled (as leapnav build) or untiled")
      ->check(CLI::IsMember({"tiled", "untiled"}));
  CLI11_PARSE(app, argc, argv);
  std::printf(
      "scene,tile_size,walkable_untiled,walkable_tiled,poly_area_untiled,poly_area_tiled,"
      "ledge_links_untiled,ledge_links_tiled,ledge_length_untiled,ledge_length_tiled,links,"
      "sampled_on,pairs_on_both,off_untiled,off_tiled,reach_mismatches,found,"
      "mean_length_untiled,mean_length_tiled,length_diff_percent,ledge_pairs,"
      "ledge_mean_length_untiled,ledge_mean_length_tiled,ledge_length_diff_percent,"
      "crossings_untiled,untiled_crossings_made_tiled,crossings_tiled,tiled_crossings_made_"
      "untiled\n");
  int status = 0;
  for (const std::string& spec : scenes) {
    auto level = load(spec, LEAPNAV_SHARED_DIR);
    if (!level) {
      std::fprintf(stderr, "%s: %s\n", spec.c_str(), level.error().message.c_str());
      status = 1;
      continue;
    }
    auto untiled = build(*level, 0, false);
    if (!untiled) {
      std::fprintf(stderr, "%s: %s\n", spec.c_str(), untiled.error().message.c_str());
      status = 1;
      continue;
    }
    for (const int tile_size : sizes) {
      auto tiled = build(*level, tile_size, pairing == "untiled");
      if (!tiled) {
        std::fprintf(stderr, "%s: %s\n", spec.c_str(), tiled.error().message.c_str());
        status = 1;
        continue;
      }
      const int covered_u = static_cast<int>(ledge::crossings_made(untiled->ledges, tiled->ledges));
      const int covered_t = static_cast<int>(ledge::crossings_made(tiled->ledges, untiled->ledges));
      for (const bool with_ledges : {false, true}) {
        auto pu =
            plan::create_planner(untiled->nav, nullptr, with_ledges ? &untiled->ledges : nullptr);
        auto pt = plan::create_planner(tiled->nav, nullptr, with_ledges ? &tiled->ledges : nullptr);
        if (!pu || !pt) {
          std::fprintf(stderr, "%s: no planner\n", spec.c_str());
          return 3;
        }
        plan::NavQuery qu(*pu);
        plan::NavQuery qt(*pt);
        for (const bool on_tiled : {false, true}) {
          const auto points =
              plan::random_points(on_tiled ? *tiled->nav : *untiled->nav, 2 * pairs, 7);
          int both = 0;
          int off_untiled = 0;
          int off_tiled = 0;
          int mismatches = 0;
          int found = 0;
          double lu = 0.0;
          double lt = 0.0;
          int ledge_pairs = 0;
          double llu = 0.0;
          double llt = 0.0;
          for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
            plan::Path a;
            plan::Path b;
            if (!qu.find_path(points[i].point, points[i + 1].point, {}, a).ok() ||
                !qt.find_path(points[i].point, points[i + 1].point, {}, b).ok())
              return 3;
            if (off_mesh(a) || off_mesh(b)) {
              off_untiled += off_mesh(a) ? 1 : 0;
              off_tiled += off_mesh(b) ? 1 : 0;
              continue;
            }
            ++both;
            const bool fa = a.status == plan::PathStatus::Found;
            const bool fb = b.status == plan::PathStatus::Found;
            if (fa != fb) {
              ++mismatches;
              continue;
            }
            if (!fa) continue;
            ++found;
            lu += a.length;
            lt += b.length;
            if (crosses_link(a)) {
              ++ledge_pairs;
              llu += a.length;
              llt += b.length;
            }
          }
          std::printf(
              "%s,%d,%.2f,%.2f,%.2f,%.2f,%zu,%zu,%.2f,%.2f,%s,%s,%d,%d,%d,%d,%d,%.4f,%.4f,%+.3f,%d,"
              "%.4f,%.4f,%+.3f,%zu,%d,%zu,%d\n",
              spec.c_str(), tile_size, untiled->stats.walkable_area, tiled->stats.walkable_area,
              untiled->stats.navmesh_area, tiled->stats.navmesh_area, untiled->ledges.links.size(),
              tiled->ledges.links.size(), untiled->ledge_length, tiled->ledge_length,
              with_ledges ? "walk+ledges" : "walk", on_tiled ? "tiled" : "untiled", both,
              off_untiled, off_tiled, mismatches, found, lu / std::max(1, found),
              lt / std::max(1, found), lu > 0.0 ? 100.0 * (lt - lu) / lu : 0.0, ledge_pairs,
              llu / std::max(1, ledge_pairs), llt / std::max(1, ledge_pairs),
              llu > 0.0 ? 100.0 * (llt - llu) / llu : 0.0, 11 * untiled->ledges.links.size(),
              covered_u, 11 * tiled->ledges.links.size(), covered_t);
          std::fflush(stdout);
        }
      }
    }
  }
  return status;
}
