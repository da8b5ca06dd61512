// Query benchmark: seeded random start/goal pairs per level and configuration:
// per-query time of locate + A* + funnel (median, mean, p99 µs), success fraction, the optimality
// gap against the exact visibility-graph reference, and batch throughput at 1 and N threads.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>
#include <sstream>

#include "harness.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/reference.hpp"
#include "leapnav/planning/sample.hpp"

namespace leapnav::bench {

namespace {

// This thread's CPU time [units: µs].
double thread_cpu_us() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

// The query measurements of one level in one configuration.
void query_scene(const std::string& scene, const TriangleMesh& mesh, const BuildConfig& config,
                 const Options& options, Report& report) {
  BuildContext ctx;
  mesh::TileConfig tiles;
  tiles.tile_size = options.tile_size;
  // note: tile_size 0 is build_navmesh bit for bit
  auto built = mesh::build_tiled_navmesh(mesh, config, tiles, ctx);
  if (!built) {
    record_failure(scene + " (" + config.name + "): " + built.error().message);
    return;
  }
  const mesh::NavMesh& navmesh = built->navmesh;
  plan::QueryOptions query_options;
  if (options.max_nodes > 0) query_options.max_nodes = options.max_nodes;
  if (options.crossing == "line") query_options.crossing = plan::CrossingPoint::ClosestToLine;
  if (options.crossing == "toward-goal") query_options.crossing = plan::CrossingPoint::TowardGoal;
  if (options.walk_search == "exact") query_options.walk_search = plan::WalkSearch::Exact;
  if (options.walk_search == "portals") query_options.walk_search = plan::WalkSearch::Portals;
  query_options.landmarks = options.landmarks;
  const auto create_t0 = std::chrono::steady_clock::now();
  auto planner = plan::Planner::create(navmesh);
  const auto create_t1 = std::chrono::steady_clock::now();
  if (!planner) {
    record_failure(scene + ": " + planner.error().message);
    return;
  }
  {
    Summary c;
    c.min = c.median = c.mean = c.p99 = c.max =
        std::chrono::duration<double, std::milli>(create_t1 - create_t0).count();
    std::ostringstream sizes;
    sizes << "arcs=" << planner->graph().arc_count();
    report.add({scene, config.name, "planner_create", 1, c, "", sizes.str()});
  }
  const std::size_t n = options.queries;
  const auto points = plan::random_points(navmesh, 2 * n, 12345);
  std::vector<plan::PathRequest> requests(n);
  for (std::size_t i = 0; i < n; ++i) requests[i] = {points[2 * i].point, points[2 * i + 1].point};

  plan::NavQuery query(*planner);
  plan::Path path;
  for (std::size_t i = 0; i < std::min<std::size_t>(n, 200); ++i)  // warm the buffers
    (void)query.find_path(requests[i].start, requests[i].goal, query_options, path);
  std::vector<double> us(n);
  std::vector<double> us_found;
  std::vector<double> cpu_us_found;     // this thread's CPU time: less noisy on a shared machine
  std::vector<double> cpu_us_per_poly;  // of found queries, per polygon of the corridor
  std::size_t found = 0;
  std::size_t partial = 0;  // the node limit was reached (the goal is on the start's island)
  std::size_t no_path = 0;
  double expanded = 0.0;
  double found_length = 0.0;  // sum over the Found paths [units: m]
  ContentHasher corridors;    // the corridors of every Found path, in order
  ContentHasher lengths;
  for (std::size_t i = 0; i < n; ++i) {
    const double c0 = thread_cpu_us();
    const auto t0 = std::chrono::steady_clock::now();
    const Status status = query.find_path(requests[i].start, requests[i].goal, query_options, path);
    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = thread_cpu_us();
    us[i] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    if (status.ok() && path.status == plan::PathStatus::Found) {
      ++found;
      us_found.push_back(us[i]);
      cpu_us_found.push_back(c1 - c0);
      cpu_us_per_poly.push_back((c1 - c0) / static_cast<double>(path.corridor.size()));
      expanded += path.nodes_expanded;
      found_length += path.length;
      for (const mesh::PolyId p : path.corridor) corridors.add_pod(mesh::index(p));
    }
    if (status.ok() && path.status == plan::PathStatus::Partial) ++partial;
    if (status.ok() && path.status == plan::PathStatus::NoPath) ++no_path;
    lengths.add_pod(path.length);
  }
  const Summary s = summarize(us);
  std::ostringstream extra;
  extra << "queries=" << n
        << " found_fraction=" << static_cast<double>(found) / static_cast<double>(n)
        << " polygons=" << navmesh.polygon_count() << " tile_size=" << options.tile_size
        << " max_nodes=" << query_options.max_nodes << " partial=" << partial
        << " no_path=" << no_path << " us_mean=" << s.mean;
  // note: rows are in ms like every other row; the extra column restates them in µs.
  Summary ms = s;
  for (double* v : {&ms.min, &ms.median, &ms.mean, &ms.p99, &ms.max}) *v /= 1000.0;
  const Summary f = summarize(us_found);
  extra << " us_median=" << s.median << " us_p99=" << s.p99 << " found_us_median=" << f.median
        << " found_us_mean=" << f.mean << " found_us_p99=" << f.p99
        << " found_cpu_us_median=" << summarize(cpu_us_found).median
        << " found_cpu_us_p99=" << summarize(cpu_us_found).p99
        << " found_expanded_mean=" << (found > 0 ? expanded / static_cast<double>(found) : 0.0)
        << " found_length_mean=" << (found > 0 ? found_length / static_cast<double>(found) : 0.0)
        << " found_corridor_hash=" << hash_to_hex(corridors.digest())
        << " found_cpu_us_per_corridor_poly_median=" << summarize(cpu_us_per_poly).median;
  report.add({scene, config.name, "query_walk", 1, ms, hash_to_hex(lengths.digest()), extra.str()});

  // optimality gap on a subset: the exact reference is far slower than the planner
  const std::size_t gap_n = std::min<std::size_t>(n, options.gap_queries);
  // note: only when compared: the reference's visibility graph takes minutes on city:25
  std::optional<plan::ExactReference> reference;
  if (gap_n > 0) reference.emplace(navmesh);
  double excess_sum = 0.0;
  double excess_max = 0.0;
  std::vector<double> excesses;
  std::size_t compared = 0;
  for (std::size_t i = 0; i < gap_n; ++i) {
    if (!query.find_path(requests[i].start, requests[i].goal, query_options, path).ok()) continue;
    if (path.status != plan::PathStatus::Found) continue;
    const auto exact = reference->shortest_path(xz(path.points.front()), path.corridor.front(),
                                                xz(path.points.back()), path.corridor.back());
    if (!exact || exact->length <= 1e-6) continue;
    const double excess = std::max(0.0, path.length / exact->length - 1.0) * 100.0;
    excess_sum += excess;
    excess_max = std::max(excess_max, excess);
    excesses.push_back(excess);
    ++compared;
  }
  std::ostringstream gap;
  gap << "compared=" << compared
      << " mean_excess_pct=" << (compared > 0 ? excess_sum / static_cast<double>(compared) : 0.0)
      << " p99_excess_pct=" << summarize(excesses).p99 << " max_excess_pct=" << excess_max
      << " over_5pct="
      << std::count_if(excesses.begin(), excesses.end(), [](double e) { return e > 5.0; });
  report.add({scene, config.name, "optimality_gap", 1, Summary{}, "", gap.str()});

  // the landmark heuristic against the straight line alone: same A* cost, mostly the same paths
  // (the portal A* only: the exact search takes no landmarks)
  if (query_options.landmarks && query_options.walk_search == plan::WalkSearch::Portals) {
    plan::QueryOptions straight = query_options;
    straight.landmarks = false;
    plan::Path other;
    std::size_t pairs = 0;
    std::size_t status_differ = 0;
    std::size_t corridor_differ = 0;
    double cost_rel_max = 0.0;
    double length_sum = 0.0;
    double other_length_sum = 0.0;
    double length_rel_max = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!query.find_path(requests[i].start, requests[i].goal, query_options, path).ok() ||
          !query.find_path(requests[i].start, requests[i].goal, straight, other).ok()) {
        continue;
      }
      if (path.status != other.status) ++status_differ;
      if (path.status != plan::PathStatus::Found || other.status != plan::PathStatus::Found)
        continue;
      ++pairs;
      if (path.corridor != other.corridor) ++corridor_differ;
      const double scale = std::max(other.search_cost, 1e-9);
      cost_rel_max = std::max(cost_rel_max, std::abs(path.search_cost - other.search_cost) / scale);
      length_sum += path.length;
      other_length_sum += other.length;
      length_rel_max = std::max(
          length_rel_max, std::abs(path.length - other.length) / std::max(other.length, 1e-9));
    }
    std::ostringstream alt;
    alt.precision(9);
    alt << "found_pairs=" << pairs << " status_differ=" << status_differ
        << " corridor_differ=" << corridor_differ << " search_cost_rel_diff_max=" << cost_rel_max
        << " length_mean=" << (pairs > 0 ? length_sum / static_cast<double>(pairs) : 0.0)
        << " straight_length_mean="
        << (pairs > 0 ? other_length_sum / static_cast<double>(pairs) : 0.0)
        << " length_rel_diff_max=" << length_rel_max;
    report.add({scene, config.name, "landmarks_vs_straight", 1, Summary{}, "", alt.str()});
  }

  for (const int threads : options.threads) {
    std::vector<double> batch_ms;
    for (int r = 0; r < 5; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto results = plan::find_paths(*planner, requests, query_options, threads);
      const auto t1 = std::chrono::steady_clock::now();
      batch_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    const Summary b = summarize(batch_ms);
    std::ostringstream qps;
    qps << "queries=" << n << " queries_per_s=" << static_cast<double>(n) / (b.median / 1000.0);
    report.add({scene, config.name, "query_batch", effective_threads(threads), b, "", qps.str()});
  }
}

}  // namespace

void run_query_suite(const Options& options, Report& report) {
  for (const auto& scene : options.scenes) {
    const auto mesh = load_bench_scene(scene, options);
    if (!mesh) continue;
    for (const auto& config_name : options.configs) {
      const auto config = named_config(config_name);
      if (!config) {
        record_failure("unknown configuration " + config_name);
        continue;
      }
      query_scene(scene, *mesh, *config, options, report);
    }
  }
}

}  // namespace leapnav::bench
