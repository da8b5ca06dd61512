// leapnav_bench_stream: a tile pack streamed through stream::TileWorld.
//   leapnav_bench_stream world.lnavpack [--lnav world.lnav] [--windows 3,5,10,0] [--repeat 5]
//                        [--queries 200]
// Per square window of w x w tiles around the middle of the tile grid (0 = every tile): the time
// to load it into an empty world (set_loaded), to move it one tile along x (reads a column of
// new tiles, frees one, assembles the window again), to unload one tile; the world's
// resident_bytes, its loaded blocks' and its snapshot's bytes, and the heap growth glibc reports
// (mallinfo2) against the empty world; the median time of random queries between points on
// polygons of the window. With --lnav, the same file loaded whole (load_nav_file and a Planner)
// for comparison. Medians over --repeat runs. Prints CSV, never asserts.
#include <malloc.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/streaming/tile_pack.hpp"
#include "leapnav/streaming/tile_world.hpp"

namespace {

using namespace leapnav;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::uint64_t heap_bytes() {
  return mallinfo2().uordblks;
}

// The w x w window of tiles whose lower corner is (x0, z0), clipped to the grid.
std::vector<std::uint32_t> window(const stream::WorldLayout& layout, int x0, int z0, int w) {
  std::vector<std::uint32_t> out;
  for (int z = std::max(z0, 0); z < std::min(z0 + w, layout.tiles_z); ++z) {
    for (int x = std::max(x0, 0); x < std::min(x0 + w, layout.tiles_x); ++x)
      out.push_back(static_cast<std::uint32_t>(z * layout.tiles_x + x));
  }
  return out;
}

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"leapnav_bench_stream: streaming a tile pack"};
  std::string pack;
  std::string lnav;
  std::vector<int> windows{3, 5, 10, 0};
  int repeat = 5;
  int queries = 200;
  app.add_option("pack", pack, "Tile pack (.lnavpack)")->required();
  app.add_option("--lnav", lnav, "The .lnav the pack was made from (whole-world comparison)");
  app.add_option("--windows", windows, "Window sides in tiles (0 = all)")->delimiter(',');
  app.add_option("--repeat", repeat, "Runs per measurement (median)");
  app.add_option("--queries", queries, "Random queries per window");
  CLI11_PARSE(app, argc, argv);

  auto source = stream::PackTileSource::open(pack);
  if (!source) {
    std::fprintf(stderr, "%s\n", source.error().message.c_str());
    return 1;
  }
  const stream::WorldLayout& layout = (*source)->layout();
  std::printf("pack,%s,file_bytes,%llu,tiles,%u,header_bytes,%llu\n", pack.c_str(),
              static_cast<unsigned long long>((*source)->file_bytes()), layout.tile_count(),
              static_cast<unsigned long long>((*source)->memory_bytes()));
  std::printf(
      "window,tiles,polygons,links,load_ms,step_ms,unload_ms,resident_bytes,block_bytes,"
      "snapshot_bytes,heap_bytes,query_us,found,no_path\n");
  for (const int side : windows) {
    const int w = side <= 0 ? std::max(layout.tiles_x, layout.tiles_z) : side;
    const int x0 = side <= 0 ? 0 : (layout.tiles_x - w) / 2;
    const int z0 = side <= 0 ? 0 : (layout.tiles_z - w) / 2;
    const std::vector<std::uint32_t> tiles = window(layout, x0, z0, w);
    const std::vector<std::uint32_t> moved = window(layout, x0 + 1, z0, w);
    std::vector<double> load_ms;
    std::vector<double> step_ms;
    std::vector<double> unload_ms;
    std::uint64_t resident = 0;
    std::uint64_t blocks = 0;
    std::uint64_t snapshot = 0;
    std::uint64_t heap = 0;
    std::size_t polygons = 0;
    std::size_t links = 0;
    std::vector<double> query_us;
    int found = 0;
    int no_path = 0;
    for (int r = 0; r < repeat; ++r) {
      const std::uint64_t heap0 = heap_bytes();
      auto world = stream::TileWorld::create(*source);
      if (!world) {
        std::fprintf(stderr, "%s\n", world.error().message.c_str());
        return 1;
      }
      auto t0 = Clock::now();
      if (Status s = world->set_loaded(tiles); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        return 1;
      }
      load_ms.push_back(ms_since(t0));
      heap = heap_bytes() - heap0;
      resident = world->resident_bytes();
      blocks = world->block_bytes();
      const auto snap = world->snapshot();
      snapshot = snap->memory_bytes();
      if (snap->planner() != nullptr) {
        polygons = snap->planner()->mesh().polygon_count();
        links = snap->planner()->links() != nullptr ? snap->planner()->links()->links.size() : 0;
      }
      if (r == 0 && snap->planner() != nullptr) {
        const mesh::NavMesh& m = snap->planner()->mesh();
        std::mt19937 rng(17);
        std::uniform_int_distribution<std::uint32_t> pick(
            0, static_cast<std::uint32_t>(m.polygon_count() - 1));
        for (int q = 0; q < queries; ++q) {
          const Vec3 a = point_in(m, pick(rng), rng);
          const Vec3 b = point_in(m, pick(rng), rng);
          const auto q0 = Clock::now();
          auto path = snap->find_path(a, b);
          query_us.push_back(ms_since(q0) * 1000.0);
          if (path && path->status == plan::PathStatus::Found) ++found;
          if (path && path->status == plan::PathStatus::NoPath) ++no_path;
        }
      }
      if (side > 0) {
        t0 = Clock::now();
        (void)world->set_loaded(moved);
        step_ms.push_back(ms_since(t0));
      }
      t0 = Clock::now();
      (void)world->unload_tile(side > 0 ? moved[moved.size() / 2] : tiles[tiles.size() / 2]);
      unload_ms.push_back(ms_since(t0));
    }
    std::printf("%d,%zu,%zu,%zu,%.3f,%.3f,%.3f,%llu,%llu,%llu,%llu,%.1f,%d,%d\n", side,
                tiles.size(), polygons, links, median(load_ms), median(step_ms), median(unload_ms),
                static_cast<unsigned long long>(resident), static_cast<unsigned long long>(blocks),
                static_cast<unsigned long long>(snapshot), static_cast<unsigned long long>(heap),
                median(query_us), found, no_path);
    std::fflush(stdout);
  }
  if (!lnav.empty()) {
    std::vector<double> load_ms;
    std::uint64_t heap = 0;
    std::uint64_t bytes = 0;
    for (int r = 0; r < repeat; ++r) {
      const std::uint64_t heap0 = heap_bytes();
      const auto t0 = Clock::now();
      auto file = io::load_nav_file(lnav);
      if (!file) {
        std::fprintf(stderr, "%s\n", file.error().message.c_str());
        return 1;
      }
      auto mesh = std::make_shared<const mesh::NavMesh>(std::move(file->navmesh));
      std::shared_ptr<const jump::JumpLinkSet> set;
      if (file->links) set = std::make_shared<const jump::JumpLinkSet>(std::move(*file->links));
      auto planner = plan::Planner::create(mesh, set);
      load_ms.push_back(ms_since(t0));
      heap = heap_bytes() - heap0;
      bytes = planner->memory_bytes() + (set ? set->memory_bytes() : 0);
    }
    std::printf("whole_lnav,%s,load_ms,%.3f,heap_bytes,%llu,planner_and_links_bytes,%llu\n",
                lnav.c_str(), median(load_ms), static_cast<unsigned long long>(heap),
                static_cast<unsigned long long>(bytes));
  }
  return 0;
}
