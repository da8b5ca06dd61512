// Build benchmark: per-stage medians of the pipeline on the real levels (both configurations) and
// on city:N scenes of growing size, at 1 thread and at all threads, with output hashes.
#include <chrono>
#include <iostream>
#include <map>
#include <sstream>

#include "harness.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::bench {
namespace {

struct BuildRun {
  std::vector<std::pair<std::string, double>> stage_ms;
  double total_ms = 0;
  double cpu_ms = 0;
  std::uint64_t hash = 0;
  std::string counts;
  std::uint64_t bytes = 0;
};

template <class T>
std::uint64_t vector_bytes(const std::vector<T>& v) {
  return static_cast<std::uint64_t>(v.capacity()) * sizeof(T);
}

Result<BuildRun> run_once(const TriangleMesh& mesh, const BuildConfig& config, int threads) {
  BuildContext ctx;
  ctx.set_threads(threads);
  const double cpu0 = process_cpu_ms();
  const auto start = std::chrono::steady_clock::now();
  auto out = mesh::build_navmesh(mesh, config, ctx);
  const auto end = std::chrono::steady_clock::now();
  const double cpu1 = process_cpu_ms();
  if (!out) return std::move(out).error();
  BuildRun run;
  run.stage_ms = ctx.timings();
  // note: the voxel stages together, the figure compared with Recast's same stages.
  double voxel_ms = 0.0;
  for (const char* stage : {"rasterize", "filter", "compact", "erode", "distance_field"})
    voxel_ms += ctx.time_of(stage);
  run.stage_ms.emplace_back("voxel_stages", voxel_ms);
  run.total_ms = std::chrono::duration<double, std::milli>(end - start).count();
  run.cpu_ms = cpu1 - cpu0;
  run.hash = mesh::content_hash(out->navmesh);
  const auto& voxels = out->voxels;
  std::ostringstream counts;
  counts << "triangles=" << voxels.stats.triangles << " grid=" << voxels.compact.grid.width << "x"
         << voxels.compact.grid.depth << " compact_spans=" << voxels.stats.compact_spans
         << " walkable_spans=" << voxels.stats.walkable_spans << " regions=" << out->stats.regions
         << " polygons=" << out->stats.polygons << " navmesh_area=" << out->stats.navmesh_area;
  run.counts = counts.str();
  const auto& nav = out->navmesh;
  run.bytes = vector_bytes(voxels.solid.spans) + vector_bytes(voxels.solid.column_first) +
              vector_bytes(voxels.compact.spans) + vector_bytes(voxels.compact.column_first) +
              vector_bytes(voxels.compact.areas) + vector_bytes(voxels.compact.distance) +
              vector_bytes(out->regions.span_region) + vector_bytes(nav.vertices) +
              vector_bytes(nav.poly_vertices) + vector_bytes(nav.poly_neighbors) +
              vector_bytes(nav.height_samples) + vector_bytes(nav.span_poly) +
              vector_bytes(nav.span_column_first) + vector_bytes(nav.span_y);
  return run;
}

void bench_scene(const std::string& scene, const TriangleMesh& mesh, const BuildConfig& config,
                 const Options& options, Report& report) {
  std::optional<std::uint64_t> reference_hash;
  for (const int threads : options.threads) {
    std::map<std::string, std::vector<double>> per_stage;
    std::vector<std::string> stage_order;
    std::vector<double> totals;
    std::vector<double> cpu;
    BuildRun last;
    bool failed = false;
    for (int r = 0; r < options.repeat; ++r) {
      auto run = run_once(mesh, config, threads);
      if (!run) {
        record_failure(scene + " (" + config.name + "): " + run.error().message);
        failed = true;
        break;
      }
      for (const auto& [stage, ms] : run->stage_ms) {
        if (per_stage.find(stage) == per_stage.end()) stage_order.push_back(stage);
        per_stage[stage].push_back(ms);
      }
      totals.push_back(run->total_ms);
      cpu.push_back(run->cpu_ms);
      if (!reference_hash) reference_hash = run->hash;
      if (run->hash != *reference_hash) {
        report.mismatch(scene + "/" + config.name + " threads=" + std::to_string(threads) +
                        ": hash " + hash_to_hex(run->hash) + " != " + hash_to_hex(*reference_hash));
      }
      last = std::move(run).value();
    }
    if (failed) continue;
    const int t = effective_threads(threads);
    for (const auto& stage : stage_order) {
      report.add(
          {scene, config.name, stage, t, summarize(per_stage[stage]), hash_to_hex(last.hash), ""});
    }
    report.add({scene, config.name, "total", t, summarize(totals), hash_to_hex(last.hash),
                last.counts + " bytes=" + std::to_string(last.bytes) +
                    " cpu_ms_median=" + std::to_string(summarize(cpu).median)});
  }
}

}  // namespace

void run_build_suite(const Options& options, Report& report) {
  for (const auto& scene : options.scenes) {
    const auto mesh = load_bench_scene(scene, options);
    if (!mesh) continue;
    for (const auto& config_name : options.configs) {
      const auto config = named_config(config_name);
      if (!config) continue;
      bench_scene(scene, *mesh, *config, options, report);
    }
  }
  const auto config = named_config("default");
  std::vector<std::string> generated;
  for (const int n : options.city_sizes) generated.push_back("city:" + std::to_string(n));
  for (const int n : options.terrain_sizes) generated.push_back("terrain:" + std::to_string(n));
  for (const std::string& scene : generated) {
    const auto mesh = load_bench_scene(scene, options);
    if (!mesh) continue;
    bench_scene(scene, *mesh, *config, options, report);
  }
}

}  // namespace leapnav::bench
