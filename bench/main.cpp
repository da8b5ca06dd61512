// leapnav_bench: runs the benchmark suites and prints CSV plus a readable table.
//   leapnav_bench [--suite build,obj,query,jump,jumpquery,memory,platformer] [--repeat N]
//   [--threads 1,0] [--csv FILE] [--validate-hash]
// --validate-hash exits non-zero when an output hash differs between runs or thread counts; any
// scene that fails to load or build makes the exit status 1. --scenes takes dungeon, nav_test,
// built-in specs (city:4) and OBJ paths.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

#include "harness.hpp"

int main(int argc, char** argv) {
  using namespace leapnav::bench;
  Options options;
  options.shared_dir = LEAPNAV_SHARED_DIR;
  std::vector<std::string> suites{"build", "obj", "query", "jump"};
  std::string csv_path;
  CLI::App app{"leapnav benchmarks: CSV + table; never asserts a time"};
  app.add_option(
         "--suite", suites,
         "Suites to run: build, obj, query, jump, jumpquery, memory (fresh-page cost), platformer")
      ->delimiter(',');
  app.add_option("--repeat", options.repeat, "Repetitions per measurement")
      ->check(CLI::Range(1, 10000));
  app.add_option("--threads", options.threads, "Thread counts (0 = all)")->delimiter(',');
  app.add_option("--scenes", options.scenes,
                 "Levels: dungeon, nav_test (shared meshes), built-in specs (city:4) or OBJ paths")
      ->delimiter(',');
  app.add_option("--configs", options.configs, "Configurations")->delimiter(',');
  app.add_option("--city", options.city_sizes,
                 "Build suite: city:N sizes for scaling (1,2,4,8; none when --scenes is given)")
      ->delimiter(',');
  app.add_option("--steps", options.steps, "Jump sample steps (jump suite)")->delimiter(',');
  app.add_flag("!--no-check-links", options.check_links,
               "Skip the exact soundness check of the generated links (jump suite)");
  app.add_option("--queries", options.queries, "Random query pairs per level (query suite)");
  app.add_option("--jump-query-pool", options.jump_query_pool,
                 "Random pairs from which the jumpquery suite picks those whose step-1 path jumps");
  app.add_option("--compact-detours", options.compact_detours,
                 "Detours of the compact link sets (jumpquery suite) [units: m]")
      ->delimiter(',');
  app.add_option("--compact-steps", options.compact_steps,
                 "Sample steps whose sets also get compact rows (jumpquery suite)")
      ->delimiter(',');
  app.add_option("--reference-step", options.reference_step,
                 "Sample step of the jumpquery suite's reference set (queries whose path jumps "
                 "with it; length increases against it)")
      ->check(CLI::Range(1, 64));
  app.add_flag("--compact-without-runs", options.compact_without_runs,
               "Also evaluate each compact set built without runs (jumpquery suite)");
  app.add_option("--gap-queries", options.gap_queries,
                 "Of those, compared with the exact reference");
  app.add_option("--crossing", options.crossing,
                 "A* crossing model of the query suite: midpoint, line or toward-goal")
      ->check(CLI::IsMember({"midpoint", "line", "toward-goal"}));
  app.add_option("--tile-size", options.tile_size,
                 "Query suite: build in tiles of this many cells (0 = untiled)")
      ->check(CLI::Range(0, 4096));
  app.add_option("--max-nodes", options.max_nodes,
                 "Query suite: the A* node limit (0 = the default, 65536)");
  app.add_option("--walk-search", options.walk_search,
                 "Walking search of the query suite: exact (any-angle) or portals (A* over portal "
                 "crossings, then the funnel); the library's default when not given")
      ->check(CLI::IsMember({"exact", "portals"}));
  app.add_flag("!--no-landmarks", options.landmarks,
               "Query suite: the portal A*'s straight-line heuristic alone (no landmarks)");
  app.add_option("--terrain", options.terrain_sizes,
                 "Build suite: terrain:N sizes (1,2; none when --scenes is given)")
      ->delimiter(',');
  app.add_option("--shared", options.shared_dir, "The shared/ folder with meshes/");
  app.add_option("--csv", csv_path, "Also write the CSV to this file");
  app.add_flag("--validate-hash", options.validate_hash,
               "Fail when output hashes differ across runs/threads");
  CLI11_PARSE(app, argc, argv);
  // note: --scenes names every level to build; the scaling sets run with it only when asked for
  if (app.count("--scenes") > 0) {
    if (app.count("--city") == 0) options.city_sizes.clear();
    if (app.count("--terrain") == 0) options.terrain_sizes.clear();
  }

  Report report;
  for (const auto& suite : suites) {
    if (suite == "build") {
      run_build_suite(options, report);
    } else if (suite == "obj") {
      run_obj_suite(options, report);
    } else if (suite == "query") {
      run_query_suite(options, report);
    } else if (suite == "jump") {
      run_jump_suite(options, report);
    } else if (suite == "jumpquery") {
      run_jump_query_suite(options, report);
    } else if (suite == "memory") {
      run_memory_suite(options, report);
    } else if (suite == "platformer") {
      run_platformer_suite(options, report);
    } else {
      std::cerr << "bench: unknown suite " << suite << '\n';
      return 2;
    }
  }
  report.print_csv(std::cout);
  std::cout << '\n';
  report.print_table(std::cout);
  if (!csv_path.empty()) {
    std::ofstream csv(csv_path);
    report.print_csv(csv);
  }
  for (const auto& m : report.mismatches()) std::cerr << "bench: hash mismatch: " << m << '\n';
  if (failure_count() > 0) {
    std::cerr << "bench: " << failure_count() << " scene(s) failed to load or build\n";
    return 1;
  }
  if (options.validate_hash && !report.mismatches().empty()) return 1;
  return 0;
}
