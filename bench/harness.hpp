// Benchmark harness: repeated timing with robust statistics, CSV rows and a readable table.
// Timings come from BuildContext stage timers or a steady clock; nothing here asserts a time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::bench {

/// Summary statistics of repeated measurements [units: as measured].
struct Summary {
  std::size_t n = 0;
  double min = 0, median = 0, mean = 0, p99 = 0, max = 0;
};
[[nodiscard]] Summary summarize(std::vector<double> values);

/// One CSV row: scene,config,stage,threads,n,ms_min,ms_median,ms_mean,ms_p99,ms_max,hash,extra.
struct Row {
  std::string scene, config, stage;
  int threads = 1;
  Summary ms;
  std::string hash;
  std::string extra;  ///< free-form key=value pairs (counts, sizes)
};

/// Options shared by the suites.
struct Options {
  int repeat = 20;
  std::vector<int> threads{1, 0};
  std::vector<std::string> scenes{"dungeon", "nav_test"};
  std::vector<std::string> configs{"default", "thesis"};
  std::vector<int> city_sizes{1, 2, 4, 8};
  std::vector<int> terrain_sizes{1, 2};  ///< rolling terrain, where the heights stage is timed
  std::filesystem::path shared_dir;
  bool validate_hash = false;
  std::size_t queries = 10000;     ///< random pairs per level in the query suite
  std::size_t gap_queries = 1000;  ///< of which compared with the exact reference
  /// The query suite's A* crossing model: midpoint, line (closest to start-goal), toward-goal.
  std::string crossing = "midpoint";
  /// The query suite's build: tiles of this many cells (0 = untiled), as `build --tile-size`.
  int tile_size = 0;
  /// The query suite's A* node limit (QueryOptions::max_nodes; 0 = the default, 65536).
  std::uint32_t max_nodes = 0;
  /// The query suite's walking search: exact (any-angle) or portals (A* + funnel); empty for
  /// the library's default.
  std::string walk_search;
  /// The query suite's QueryOptions::landmarks (false: the straight-line heuristic alone).
  bool landmarks = true;
  std::vector<int> steps{1, 2, 4, 6, 8, 10, 12, 14, 16};  ///< jump sample steps
  bool check_links = true;  ///< run the exact soundness checker on every generated link set
  /// Random pairs from which the jump-query suite picks the queries whose step-1 path jumps.
  std::size_t jump_query_pool = 400000;
  /// Detours of the compact link sets the jump-query suite derives from the step-1 set [units: m].
  std::vector<float> compact_detours{0.5F, 0.75F, 1.0F};
  /// Sample steps whose sets also get compact rows (jumpquery suite).
  std::vector<int> compact_steps{1};
  /// The step whose set picks the jumpquery queries (those its path jumps on) and is the
  /// reference of the length increase (jumpquery suite).
  int reference_step = 1;
  /// Also evaluate every compact set built without runs (jumpquery suite).
  bool compact_without_runs = false;
};

/// Collects rows, prints them as CSV and as a table, and records hash mismatches.
class Report {
 public:
  void add(Row row);
  void mismatch(std::string what) { mismatches_.push_back(std::move(what)); }
  [[nodiscard]] const std::vector<std::string>& mismatches() const { return mismatches_; }
  void print_csv(std::ostream& out) const;
  void print_table(std::ostream& out) const;

 private:
  std::vector<Row> rows_;
  std::vector<std::string> mismatches_;
};

/// Prints a failed load or build on stderr and counts it: the benchmark then exits non-zero.
void record_failure(const std::string& message);
/// How many failures record_failure() has counted.
[[nodiscard]] std::size_t failure_count();

/// Loads "dungeon" / "nav_test" from the shared meshes, an OBJ file (a name ending in ".obj" or
/// holding a '/'), or a built-in scene spec ("city:4"). nullopt with a message on stderr when a
/// shared mesh is absent (a skip), or after record_failure() when the file or spec is bad.
[[nodiscard]] std::optional<TriangleMesh> load_bench_scene(const std::string& name,
                                                           const Options& options);

/// The navmesh build of a benchmark scene (default thread count), or nullopt after
/// record_failure().
[[nodiscard]] std::optional<mesh::BuildOutput> build_bench_navmesh(const TriangleMesh& mesh,
                                                                   const BuildConfig& config);

/// CPU time consumed by this process so far, all threads [units: ms]. On a shared, loaded machine
/// the single-threaded CPU time is the robust measure of work; wall time includes waiting.
[[nodiscard]] double process_cpu_ms();

/// The thread count printed for `threads` (0 = all hardware threads).
[[nodiscard]] int effective_threads(int threads);

void run_build_suite(const Options& options, Report& report);
void run_obj_suite(const Options& options, Report& report);
void run_query_suite(const Options& options, Report& report);
void run_jump_suite(const Options& options, Report& report);
void run_jump_query_suite(const Options& options, Report& report);
void run_memory_suite(const Options& options, Report& report);
void run_platformer_suite(const Options& options, Report& report);

}  // namespace leapnav::bench
