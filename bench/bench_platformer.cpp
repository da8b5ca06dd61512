// Platformer nav-graph generation time (spec part B) on generated side-view levels from 100 x 50
// to 1000 x 200 tiles with the fixture parameters (18 trajectories of 48 samples per nav point):
// the whole build_nav_graph (wall time; the process CPU time in `extra`) and its jump stage, per
// thread count, with the graph's content hash.
#include <chrono>
#include <iostream>
#include <random>
#include <sstream>

#include "harness.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/platformer/nav_graph.hpp"

namespace leapnav::bench {
namespace {

// A level-like map: a floor with pits, floating platforms of 3-12 tiles and short walls.
platformer::TileMap generated_level(int width, int height, std::uint32_t seed) {
  std::mt19937 rng(seed);
  platformer::TileMap map = platformer::make_tile_map(width, height);
  const auto set = [&](int c, int r) {
    if (map.in_bounds(c, r)) map.solid[map.index(c, r)] = 1;
  };
  for (int c = 0; c < width; ++c) set(c, 0);
  for (int c = 8; c < width; c += 10 + static_cast<int>(rng() % 10)) {
    const int pit = 2 + static_cast<int>(rng() % 4);
    for (int k = 0; k < pit && c + k < width; ++k) map.solid[map.index(c + k, 0)] = 0;
  }
  const int platforms = width * height / 40;
  for (int n = 0; n < platforms; ++n) {
    const int length = 3 + static_cast<int>(rng() % 10);
    const int c = static_cast<int>(rng() % static_cast<std::uint32_t>(width));
    const int r = 2 + static_cast<int>(rng() % static_cast<std::uint32_t>(std::max(1, height - 4)));
    for (int k = 0; k < length; ++k) set(c + k, r);
  }
  for (int n = 0; n < platforms / 4; ++n) {
    const int c = static_cast<int>(rng() % static_cast<std::uint32_t>(width));
    const int r = static_cast<int>(rng() % static_cast<std::uint32_t>(height));
    const int tall = 2 + static_cast<int>(rng() % 4);
    for (int k = 0; k < tall; ++k) set(c, r + k);
  }
  map.name = "level:" + std::to_string(width) + "x" + std::to_string(height);
  return map;
}

}  // namespace

void run_platformer_suite(const Options& options, Report& report) {
  const std::vector<std::pair<int, int>> sizes{{100, 50}, {250, 100}, {500, 200}, {1000, 200}};
  const platformer::PlatformerParams params;
  for (const auto& [width, height] : sizes) {
    const platformer::TileMap map = generated_level(width, height, 28);
    std::string reference;
    for (const int threads : options.threads) {
      std::vector<double> total;
      std::vector<double> jump;
      std::vector<double> cpu;
      std::string hash;
      platformer::GraphCounts counts;
      for (int r = 0; r < std::max(3, options.repeat / 4); ++r) {
        BuildContext ctx;
        ctx.set_threads(threads);
        const double cpu_start = process_cpu_ms();
        const auto start = std::chrono::steady_clock::now();
        auto graph = platformer::build_nav_graph(map, params, ctx);
        const auto end = std::chrono::steady_clock::now();
        cpu.push_back(process_cpu_ms() - cpu_start);
        if (!graph) {
          std::cerr << "bench: " << graph.error().message << '\n';
          return;
        }
        total.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        jump.push_back(ctx.time_of("platformer_jump"));
        hash = hash_to_hex(platformer::content_hash(*graph));
        counts = platformer::count(*graph);
      }
      if (reference.empty()) reference = hash;
      if (hash != reference) report.mismatch(map.name + " threads " + std::to_string(threads));
      std::ostringstream extra;
      extra << "nav_points=" << counts.nav_points << " platforms=" << counts.platforms
            << " run=" << counts.run << " fall=" << counts.fall << " jump=" << counts.jump
            << " cpu_ms_median=" << summarize(cpu).median;
      const int shown = threads == 0 ? hardware_threads() : threads;
      report.add(
          {map.name, "fixture", "platformer_graph", shown, summarize(total), hash, extra.str()});
      report.add({map.name, "fixture", "platformer_jump", shown, summarize(jump), hash, ""});
    }
  }
}

}  // namespace leapnav::bench
