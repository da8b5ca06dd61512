// Benchmark harness: statistics, CSV and table output, scene loading.
#include "harness.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <utility>

#include "leapnav/core/context.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"

namespace leapnav::bench {

Summary summarize(std::vector<double> values) {
  Summary s;
  s.n = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  const std::size_t mid = values.size() / 2;
  s.median = values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  const auto p99_index =
      static_cast<std::size_t>(std::llround(0.99 * static_cast<double>(values.size() - 1)));
  s.p99 = values[std::min(p99_index, values.size() - 1)];
  return s;
}

void Report::add(Row row) {
  rows_.push_back(std::move(row));
}

void Report::print_csv(std::ostream& out) const {
  out << "scene,config,stage,threads,n,ms_min,ms_median,ms_mean,ms_p99,ms_max,hash,extra\n";
  out << std::setprecision(6);
  for (const Row& r : rows_) {
    out << r.scene << ',' << r.config << ',' << r.stage << ',' << r.threads << ',' << r.ms.n << ','
        << r.ms.min << ',' << r.ms.median << ',' << r.ms.mean << ',' << r.ms.p99 << ',' << r.ms.max
        << ',' << r.hash << ',' << r.extra << '\n';
  }
}

void Report::print_table(std::ostream& out) const {
  char line[512];
  std::snprintf(line, sizeof line, "%-12s %-8s %-22s %3s %10s %10s %10s  %s\n", "scene", "config",
                "stage", "thr", "min ms", "median ms", "p99 ms", "notes");
  out << line;
  for (const Row& r : rows_) {
    std::snprintf(line, sizeof line, "%-12s %-8s %-22s %3d %10.3f %10.3f %10.3f  %s\n",
                  r.scene.c_str(), r.config.c_str(), r.stage.c_str(), r.threads, r.ms.min,
                  r.ms.median, r.ms.p99, r.extra.c_str());
    out << line;
  }
}

namespace {
// note: the one piece of process state of the benchmark, read once by main at exit
std::atomic<std::size_t> failures{0};
}  // namespace

void record_failure(const std::string& message) {
  std::cerr << "bench: error: " << message << '\n';
  failures.fetch_add(1);
}

std::size_t failure_count() {
  return failures.load();
}

std::optional<TriangleMesh> load_bench_scene(const std::string& name, const Options& options) {
  if (name == "dungeon" || name == "nav_test") {
    const auto path = options.shared_dir / "meshes" / (name + ".obj");
    if (!std::filesystem::is_regular_file(path)) {
      std::cerr << "bench: skipped " << name << ": " << path.string() << " is absent\n";
      return std::nullopt;
    }
    auto mesh = io::load_obj(path);
    if (!mesh) {
      record_failure(mesh.error().message);
      return std::nullopt;
    }
    return std::move(mesh).value();
  }
  const bool is_file = name.ends_with(".obj") || name.find('/') != std::string::npos;
  auto mesh = is_file ? io::load_obj(name) : io::builtin_scene(name);
  if (!mesh) {
    record_failure(name + ": " + mesh.error().message);
    return std::nullopt;
  }
  return std::move(mesh).value();
}

std::optional<mesh::BuildOutput> build_bench_navmesh(const TriangleMesh& mesh,
                                                     const BuildConfig& config) {
  BuildContext ctx;
  auto built = mesh::build_navmesh(mesh, config, ctx);
  if (!built) {
    record_failure(mesh.name + ": " + built.error().message);
    return std::nullopt;
  }
  return std::move(built).value();
}

double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

int effective_threads(int threads) {
  return threads <= 0 ? hardware_threads() : threads;
}

}  // namespace leapnav::bench
