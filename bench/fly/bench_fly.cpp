// leapnav_bench_fly: the thesis's experiments for flying agents (Ranttila 2019 ch. 7; spec C.2,
// C.3) with A* and JPS-3D (P, D, PD) on the grid3d planner: open space (93^3), random fill 0-80 %,
// the ten-storey building (T12, 64 x 64) and the real levels voxelised at 0.25 m; per query the
// A* time / variant time ratio, expansions, voxels touched, cost equality with A*, memory; plus
// A* expansions per second and a --validate-rules run of the forced-neighbour tables against the
// 3x3x3 oracle. Prints CSV (--csv) and a readable table; never asserts a time.
//   leapnav_bench_fly [--suite open,fill,building,levels,rate,rules] [--repeat N] [--queries N]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <time.h>

#include "leapnav/core/context.hpp"
#include "leapnav/grid3d/convert.hpp"
#include "leapnav/grid3d/neighbourhood.hpp"
#include "leapnav/grid3d/scenes.hpp"
#include "leapnav/grid3d/search.hpp"
#include "leapnav/io/scenes.hpp"

using namespace leapnav;
using namespace leapnav::grid3d;

namespace {

struct Variant {
  Algorithm algorithm;
  int depth;
  bool shared = false;  // the budget covers sub-sweeps too (the thesis's counter)
  [[nodiscard]] std::string name() const {
    std::string n(to_string(algorithm));
    if (algorithm == Algorithm::JpsD || algorithm == Algorithm::JpsPD)
      n += "-k" + std::to_string(depth);
    if (shared) n += "-all";
    return n;
  }
};

struct Options {
  int repeat = 3;
  int queries = 230;
  int fill_queries = 60;
  int fill_side = 64;
  std::vector<int> rate_sides{128};
  int level_queries = 100;
  std::vector<int> depths{1, 8};
  std::vector<std::string> variants;  // names to run besides astar; empty = all
  bool word_sweeps = true;
  CornerRule corners = CornerRule::Cut;
  std::uint64_t rules = 2000000;
  std::uint64_t sweeps = 1000000;
  std::string shared_dir;
};

struct Query {
  VoxelCoord s;
  VoxelCoord t;
  double cost = 0.0;  // A*'s
};

// note: the machine is shared (load far above its two cores), so queries are timed by the
// thread's CPU clock, not the wall clock; cache and memory effects of other processes remain.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Measured {
  FlyPath path;
  double ms = 0.0;  // median of the repeats
};

Measured measure(FlyPlanner& planner, const Query& q, const SearchConfig& config, int repeat) {
  Measured m;
  std::vector<double> times;
  for (int r = 0; r < repeat; ++r) {
    const double t0 = cpu_ms();
    auto path = planner.find_path(q.s, q.t, config);
    const double t1 = cpu_ms();
    if (!path.ok()) {
      std::cerr << "bench_fly: " << path.error().message << '\n';
      std::exit(3);
    }
    times.push_back(t1 - t0);
    m.path = std::move(path).value();
  }
  m.ms = median(times);
  return m;
}

// The voxels 26-connected (target free) to `seed`: the air around a level, not the pockets
// inside closed geometry, which would make unreachable queries search the whole component.
std::vector<std::uint8_t> component_of(const OccupancyGrid& grid, VoxelCoord seed) {
  std::vector<std::uint8_t> in(static_cast<std::size_t>(grid.padded_count()), 0);
  std::vector<std::int64_t> stack{grid.node(seed)};
  in[static_cast<std::size_t>(stack.back())] = 1;
  while (!stack.empty()) {
    const std::int64_t n = stack.back();
    stack.pop_back();
    for (int c = 0; c < 27; ++c) {
      if (c == kCentre) continue;
      const Offset3 o = cell_offset(c);
      const std::int64_t m = n + o.dx + o.dy * grid.stride_y() + o.dz * grid.stride_z();
      if (in[static_cast<std::size_t>(m)] != 0 || grid.blocked_node(m)) continue;
      in[static_cast<std::size_t>(m)] = 1;
      stack.push_back(m);
    }
  }
  return in;
}

// Random reachable queries (A* finds a path), seeded; from `component` when given.
std::vector<Query> pick_queries(const OccupancyGrid& grid, FlyPlanner& planner, int count,
                                std::uint64_t seed, CornerRule corners, int min_distance = 0,
                                const std::vector<std::uint8_t>* component = nullptr) {
  std::mt19937_64 rng(seed);
  std::vector<Query> out;
  const auto pick = [&]() {
    for (int tries = 0; tries < 100000; ++tries) {
      const VoxelCoord v{static_cast<int>(rng() % static_cast<std::uint64_t>(grid.width)),
                         static_cast<int>(rng() % static_cast<std::uint64_t>(grid.height)),
                         static_cast<int>(rng() % static_cast<std::uint64_t>(grid.depth))};
      if (grid.blocked(v)) continue;
      if (component != nullptr && (*component)[static_cast<std::size_t>(grid.node(v))] == 0)
        continue;
      return v;
    }
    return VoxelCoord{-1, -1, -1};
  };
  for (int attempt = 0; attempt < count * 20 && static_cast<int>(out.size()) < count; ++attempt) {
    Query q{pick(), pick(), 0.0};
    if (!grid.in_bounds(q.s) || !grid.in_bounds(q.t)) break;
    if (octile(q.s, q.t) < min_distance) continue;
    auto path = planner.find_path(q.s, q.t, {Algorithm::AStar, corners, 8});
    if (!path.ok() || path->status != FlyStatus::Found) continue;
    q.cost = path->cost;
    out.push_back(q);
  }
  return out;
}

struct Stats {
  std::string suite, scene, variant;
  std::size_t queries = 0;
  std::size_t cost_mismatch = 0;
  double median_ms = 0, total_ms = 0;
  double ratio_median = 0;  // median over queries of A* ms / variant ms
  double ratio_total = 0;   // sum A* ms / sum variant ms
  double expanded_mean = 0, touched_mean = 0;
  double expansions_per_s = 0;
  std::uint64_t memory = 0;
  std::vector<std::pair<double, double>> length_ratio;  // (A* cost, ratio) per query
};

std::string g_csv;
std::ofstream g_csv_file;

void flush_csv() {
  if (g_csv_file.is_open()) {
    g_csv_file << g_csv;
    g_csv_file.flush();
  }
  g_csv.clear();
}

void emit(const Stats& s) {
  std::ostringstream line;
  line << s.suite << ',' << s.scene << ',' << s.variant << ',' << s.queries << ','
       << s.cost_mismatch << ',' << s.median_ms << ',' << s.total_ms << ',' << s.ratio_median << ','
       << s.ratio_total << ',' << s.expanded_mean << ',' << s.touched_mean << ','
       << s.expansions_per_s << ',' << s.memory << '\n';
  g_csv += line.str();
  std::printf("%-9s %-16s %-10s %5zu %4zu %9.4f %10.2f %9.4f %9.4f %11.1f %12.1f %8.2f %9.1f\n",
              s.suite.c_str(), s.scene.c_str(), s.variant.c_str(), s.queries, s.cost_mismatch,
              s.median_ms, s.total_ms, s.ratio_median, s.ratio_total, s.expanded_mean,
              s.touched_mean, s.expansions_per_s / 1e6, static_cast<double>(s.memory) / 1048576.0);
  std::fflush(stdout);
  flush_csv();
}

void header() {
  std::printf("%-9s %-16s %-10s %5s %4s %9s %10s %9s %9s %11s %12s %8s %9s\n", "suite", "scene",
              "variant", "n", "diff", "med_ms", "total_ms", "ratio_md", "ratio_tot", "expanded",
              "touched", "Mexp/s", "mem_MiB");
}

// Length bins of the ratio (the thesis plots the ratio against path length).
void emit_bins(const Stats& s, double bin) {
  std::vector<std::vector<double>> bins;
  for (const auto& [length, ratio] : s.length_ratio) {
    const auto b = static_cast<std::size_t>(length / bin);
    if (bins.size() <= b) bins.resize(b + 1);
    bins[b].push_back(ratio);
  }
  std::printf("  %s %s ratio by path length:", s.scene.c_str(), s.variant.c_str());
  for (std::size_t b = 0; b < bins.size(); ++b) {
    if (bins[b].empty()) continue;
    std::printf(" [%g,%g):%.3g(n=%zu)", static_cast<double>(b) * bin,
                static_cast<double>(b + 1) * bin, median(bins[b]), bins[b].size());
    std::ostringstream line;
    line << "bin," << s.suite << ',' << s.scene << ',' << s.variant << ','
         << static_cast<double>(b) * bin << ',' << static_cast<double>(b + 1) * bin << ','
         << bins[b].size() << ',' << median(bins[b]) << '\n';
    g_csv += line.str();
  }
  std::printf("\n");
  flush_csv();
}

void run_scene(const std::string& suite, const std::string& scene, const OccupancyGrid& grid,
               const std::vector<Query>& queries, const Options& options, double bin) {
  std::vector<Variant> variants{{Algorithm::AStar, 0}, {Algorithm::Jps, 0}, {Algorithm::JpsP, 0}};
  for (const int k : options.depths) variants.push_back({Algorithm::JpsD, k});
  for (const int k : options.depths) variants.push_back({Algorithm::JpsPD, k});
  for (const int k : options.depths) variants.push_back({Algorithm::JpsPD, k, true});
  std::vector<double> astar_ms(queries.size());
  if (!options.variants.empty()) {
    std::erase_if(variants, [&](const Variant& v) {
      return v.algorithm != Algorithm::AStar &&
             std::find(options.variants.begin(), options.variants.end(), v.name()) ==
                 options.variants.end();
    });
  }
  for (const Variant& v : variants) {
    FlyPlanner planner(grid);
    const SearchConfig config{v.algorithm, options.corners, std::max(1, v.depth), v.shared,
                              options.word_sweeps};
    Stats s;
    s.suite = suite;
    s.scene = scene;
    s.variant = v.name();
    s.queries = queries.size();
    std::vector<double> ms;
    std::vector<double> ratios;
    double expanded = 0;
    double touched = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const Measured m = measure(planner, queries[i], config, options.repeat);
      if (m.path.status != FlyStatus::Found || std::abs(m.path.cost - queries[i].cost) > 1e-9) {
        ++s.cost_mismatch;
      }
      if (v.algorithm == Algorithm::AStar) astar_ms[i] = m.ms;
      ms.push_back(m.ms);
      const double ratio = astar_ms[i] / std::max(m.ms, 1e-6);
      ratios.push_back(ratio);
      s.length_ratio.emplace_back(queries[i].cost, ratio);
      expanded += static_cast<double>(m.path.expanded);
      touched += static_cast<double>(m.path.touched);
    }
    s.median_ms = median(ms);
    for (const double t : ms) s.total_ms += t;
    double astar_total = 0;
    for (const double t : astar_ms) astar_total += t;
    s.ratio_median = median(ratios);
    s.ratio_total = astar_total / std::max(s.total_ms, 1e-9);
    const double n = std::max<double>(1.0, static_cast<double>(queries.size()));
    s.expanded_mean = expanded / n;
    s.touched_mean = touched / n;
    s.expansions_per_s = expanded / std::max(s.total_ms * 1e-3, 1e-12);
    s.memory = grid.memory_bytes() + planner.memory_bytes();
    emit(s);
    if (bin > 0 && v.algorithm != Algorithm::AStar) emit_bins(s, bin);
  }
}

void run_open(const Options& options) {
  auto grid = make_grid(93, 93, 93);
  FlyPlanner planner(*grid);
  const auto queries = pick_queries(*grid, planner, options.queries, 93, options.corners);
  run_scene("open", "open93", *grid, queries, options, 20.0);
}

void run_fill(const Options& options) {
  const int n = options.fill_side;
  for (const double fill :
       {0.0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8}) {
    auto grid = random_grid(n, n, n, fill, 1000 + static_cast<std::uint64_t>(fill * 1000));
    FlyPlanner planner(*grid);
    const auto queries =
        pick_queries(*grid, planner, options.fill_queries, 7, options.corners, n / 4);
    char name[32];
    std::snprintf(name, sizeof(name), "fill%.1f%%", fill * 100.0);
    run_scene("fill", name, *grid, queries, options, 0.0);
  }
}

void run_building(const Options& options) {
  auto grid = building_grid(64, 64, 10, 4);
  FlyPlanner planner(*grid);
  const auto queries = pick_queries(*grid, planner, options.queries, 10, options.corners);
  run_scene("building", "building64x10", *grid, queries, options, 50.0);
}

void run_levels(const Options& options) {
  for (const std::string level : {"dungeon", "nav_test"}) {
    const std::string path = options.shared_dir + "/meshes/" + level + ".obj";
    auto mesh = io::load_scene(path, {});
    if (!mesh) {
      std::printf("levels: %s skipped (%s)\n", level.c_str(), mesh.error().message.c_str());
      continue;
    }
    BuildContext ctx;
    const auto t0 = std::chrono::steady_clock::now();
    auto grid = voxelize_scene(*mesh, 0.25F, ctx);
    const auto t1 = std::chrono::steady_clock::now();
    if (!grid) {
      std::printf("levels: %s failed (%s)\n", level.c_str(), grid.error().message.c_str());
      continue;
    }
    std::printf(
        "levels: %s at 0.25 m: %d x %d x %d voxels, %llu blocked, grid %.2f MiB, "
        "voxelised in %.0f ms\n",
        level.c_str(), grid->width, grid->height, grid->depth,
        static_cast<unsigned long long>(grid->blocked_count()),
        static_cast<double>(grid->memory_bytes()) / 1048576.0,
        std::chrono::duration<double, std::milli>(t1 - t0).count());
    FlyPlanner planner(*grid);
    // note: the top layer is above every triangle, so its centre lies in the open air.
    const VoxelCoord air{grid->width / 2, grid->height - 1, grid->depth / 2};
    const std::vector<std::uint8_t> component = component_of(*grid, air);
    std::uint64_t air_voxels = 0;
    for (const std::uint8_t c : component) air_voxels += c;
    std::printf("levels: %s: %llu voxels in the air component\n", level.c_str(),
                static_cast<unsigned long long>(air_voxels));
    const auto queries =
        pick_queries(*grid, planner, options.level_queries, 25, options.corners, 0, &component);
    run_scene("levels", level, *grid, queries, options, 100.0);
  }
}

// One cube of the rate suite.
void run_rate_scene(const Options& options, int side, double fill) {
  auto grid = random_grid(side, side, side, fill, 5);
  FlyPlanner planner(*grid);
  const auto queries =
      pick_queries(*grid, planner, 20, 3, options.corners, std::min(100, side * 25 / 32));
  double ms = 0;
  double expanded = 0;
  for (const Query& q : queries) {
    const Measured m = measure(planner, q, {Algorithm::AStar, options.corners, 8}, options.repeat);
    ms += m.ms;
    expanded += static_cast<double>(m.path.expanded);
  }
  Stats s;
  s.suite = "rate";
  char name[32];
  std::snprintf(name, sizeof(name), "%d^3 fill%.0f%%", side, fill * 100.0);
  s.scene = name;
  s.variant = "astar";
  s.queries = queries.size();
  s.total_ms = ms;
  s.expanded_mean = expanded / std::max<double>(1.0, static_cast<double>(queries.size()));
  s.expansions_per_s = expanded / std::max(ms * 1e-3, 1e-12);
  s.memory = grid->memory_bytes() + planner.memory_bytes();
  emit(s);
}

// A* expansions per second on long queries through random fill: cubes of the --rate-sides (128
// by default), queries of octile distance >= min(100, 25/32 of the side).
void run_rate(const Options& options) {
  for (const int side : options.rate_sides) {
    for (const double fill : {0.0, 0.1, 0.3}) {
      run_rate_scene(options, side, fill);
    }
  }
}

// The word sweeps against the one-voxel loop: random jumps (every direction, both corner rules,
// plain, P, D and shared-budget configurations, goals on and off the row) on random grids whose
// longest side spans one to three windows; every jump's result, voxel and steps must agree.
void run_sweeps(const Options& options) {
  std::mt19937_64 rng(62);
  std::uint64_t probes = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t found = 0;
  std::uint64_t grids = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (probes < options.sweeps) {
    int side[3] = {3 + static_cast<int>(rng() % 14), 3 + static_cast<int>(rng() % 14),
                   3 + static_cast<int>(rng() % 14)};
    side[grids % 3] = 40 + static_cast<int>(rng() % 160);
    const double fill = 0.6 * static_cast<double>(rng() % 1000) / 1000.0;
    auto grid = random_grid(side[0], side[1], side[2], fill, rng());
    ++grids;
    FlyPlanner planner(*grid);
    for (int q = 0; q < 2000 && probes < options.sweeps; ++q) {
      const VoxelCoord from{static_cast<int>(rng() % side[0]), static_cast<int>(rng() % side[1]),
                            static_cast<int>(rng() % side[2])};
      if (grid->blocked(from)) continue;
      VoxelCoord goal{static_cast<int>(rng() % side[0]), static_cast<int>(rng() % side[1]),
                      static_cast<int>(rng() % side[2])};
      const int pick = static_cast<int>(rng() % 4);
      if (pick == 0) goal = {goal.x, from.y, from.z};
      if (pick == 1) goal = {from.x, goal.y, from.z};
      if (pick == 2) goal = {from.x, from.y, goal.z};
      int dir = static_cast<int>(rng() % 26);
      if (dir >= kCentre) ++dir;
      static constexpr Algorithm kAlgorithms[] = {Algorithm::Jps, Algorithm::JpsP, Algorithm::JpsD,
                                                  Algorithm::JpsPD};
      static constexpr int kDepths[] = {1, 2, 3, 8, 70};
      SearchConfig config{kAlgorithms[rng() % 4],
                          (rng() & 1U) != 0 ? CornerRule::Cut : CornerRule::NoCut,
                          kDepths[rng() % 5], (rng() & 1U) != 0, true};
      const auto word = planner.probe_jump(from, dir, goal, config);
      config.word_sweeps = false;
      const auto voxel = planner.probe_jump(from, dir, goal, config);
      ++probes;
      found += word.found ? 1 : 0;
      mismatches +=
          (word.found != voxel.found || !(word.at == voxel.at) || word.touched != voxel.touched)
              ? 1
              : 0;
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  std::printf(
      "sweeps: %llu random jumps on %llu random grids, %llu returned a jump point, %llu "
      "mismatches between word and one-voxel sweeps, %.1f s\n",
      static_cast<unsigned long long>(probes), static_cast<unsigned long long>(grids),
      static_cast<unsigned long long>(found), static_cast<unsigned long long>(mismatches),
      std::chrono::duration<double>(t1 - t0).count());
  g_csv += "sweeps," + std::to_string(probes) + "," + std::to_string(grids) + "," +
           std::to_string(found) + "," + std::to_string(mismatches) + "\n";
}

// The forced-neighbour tables against the oracle on random neighbourhoods consistent with the
// arrival (parent free; under nocut the arriving move's box free), every direction in turn.
void run_rules(const Options& options) {
  std::mt19937_64 rng(20190601);
  for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
    const ForcedTable& table = ForcedTable::get(rule);
    std::uint64_t mismatches = 0;
    std::uint64_t nonempty = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < options.rules; ++i) {
      int d = static_cast<int>(i % 26);
      if (d >= kCentre) ++d;
      const double fill = static_cast<double>(rng() % 1000) / 1000.0 * 0.8;
      CellMask blocked = 0;
      for (int c = 0; c < 27; ++c) {
        if (c != kCentre && static_cast<double>(rng() >> 11) * 0x1.0p-53 < fill)
          blocked |= CellMask{1} << c;
      }
      blocked &= ~(CellMask{1} << reverse(d));
      if (rule == CornerRule::NoCut) blocked &= ~move_box(reverse(d));
      const CellMask want = forced_oracle(d, blocked, rule);
      nonempty += want != 0 ? 1 : 0;
      mismatches += want != table.forced(d, blocked) ? 1 : 0;
    }
    const auto t1 = std::chrono::steady_clock::now();
    std::printf(
        "rules %-5s: %llu random neighbourhoods (all 26 directions), %llu with forced "
        "neighbours, %llu mismatches against the oracle, %zu path masks, %.1f s\n",
        std::string(to_string(rule)).c_str(), static_cast<unsigned long long>(options.rules),
        static_cast<unsigned long long>(nonempty), static_cast<unsigned long long>(mismatches),
        table.path_mask_count(), std::chrono::duration<double>(t1 - t0).count());
    g_csv += "rules," + std::string(to_string(rule)) + "," + std::to_string(options.rules) + "," +
             std::to_string(nonempty) + "," + std::to_string(mismatches) + "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  options.shared_dir = LEAPNAV_SHARED_DIR;
  std::vector<std::string> suites{"open", "fill", "building", "levels", "rate"};
  std::string csv_path;
  std::string corners = "cut";
  CLI::App app{"leapnav flying-agent benchmark (A* vs JPS-3D); CSV + table, never asserts a time"};
  app.add_option("--suite", suites, "open, fill, building, levels, rate, rules, sweeps")
      ->delimiter(',');
  app.add_option("--repeat", options.repeat, "Timed runs per query (median)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--queries", options.queries, "Queries in open space and the building");
  app.add_option("--fill-queries", options.fill_queries, "Queries per fill rate");
  app.add_option("--fill-side", options.fill_side, "Side of the random-fill cube");
  app.add_option("--rate-sides", options.rate_sides, "Sides of the rate suite's cubes")
      ->delimiter(',');
  app.add_option("--level-queries", options.level_queries, "Queries per real level");
  app.add_option("--depths", options.depths, "Depth limits K of the D variants")->delimiter(',');
  app.add_option("--variants", options.variants,
                 "Only these variants besides astar (e.g. jps,jps-pd-k8-all)")
      ->delimiter(',');
  app.add_flag("!--voxel-sweeps", options.word_sweeps,
               "JPS straight jumps one voxel per step (the reference) instead of 62 per word");
  app.add_option("--corners", corners, "cut or nocut")->check(CLI::IsMember({"cut", "nocut"}));
  app.add_option("--rules", options.rules, "Random neighbourhoods per rule (rules suite)");
  app.add_option("--sweeps", options.sweeps, "Random jumps (sweeps suite)");
  app.add_option("--shared", options.shared_dir, "The shared/ folder with meshes/");
  app.add_option("--csv", csv_path, "Also write the CSV to this file");
  CLI11_PARSE(app, argc, argv);
  options.corners = corners == "cut" ? CornerRule::Cut : CornerRule::NoCut;
  std::printf(
      "corners %s, repeat %d (median per query, thread CPU time); ratio = A* ms / variant ms, > 1 "
      "= "
      "faster than A*\n",
      corners.c_str(), options.repeat);
  header();
  if (!csv_path.empty()) g_csv_file.open(csv_path);
  g_csv =
      "suite,scene,variant,queries,cost_mismatch,median_ms,total_ms,ratio_median,ratio_total,"
      "expanded_mean,touched_mean,expansions_per_s,memory_bytes\n";
  for (const std::string& suite : suites) {
    if (suite == "open") {
      run_open(options);
    } else if (suite == "fill") {
      run_fill(options);
    } else if (suite == "building") {
      run_building(options);
    } else if (suite == "levels") {
      run_levels(options);
    } else if (suite == "rate") {
      run_rate(options);
    } else if (suite == "rules") {
      run_rules(options);
    } else if (suite == "sweeps") {
      run_sweeps(options);
    } else {
      std::cerr << "bench_fly: unknown suite " << suite << '\n';
      return 2;
    }
  }
  flush_csv();
  return 0;
}
