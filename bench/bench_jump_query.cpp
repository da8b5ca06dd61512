// Path queries with jumps (thesis §8.2): on the real levels with the thesis configuration and C2
// links, the per-query time of locate + A* over walk and jump edges + the modified funnel, and the
// usefulness experiment: queries whose path with step-1 links contains a jump are replanned with
// the links of coarser sample steps and with compact sets derived from the step-1 set; per set,
// the fraction with no path and the mean relative increase of the path length over the step-1
// path (--reference-step picks another reference, --compact-steps the sets that also get compact
// rows, --compact-without-runs adds each compact set without runs). Every set is refined (endpoints
// on the surface, each link passing the exact check) as `leapnav build` writes it; its bytes are
// those it adds to a .lnav file.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <span>
#include <sstream>

#include "harness.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"

namespace leapnav::bench {
namespace {

bool has_jump(const plan::Path& path) {
  return std::any_of(path.segments.begin(), path.segments.end(),
                     [](const plan::PathSegment& s) { return s.kind == plan::SegmentKind::Jump; });
}

Summary to_ms(Summary us) {
  for (double* v : {&us.min, &us.median, &us.mean, &us.p99, &us.max}) *v /= 1000.0;
  return us;
}

/// Times one query per request (after a warm-up) and records lengths and statuses.
struct QueryRun {
  std::vector<double> us;
  std::vector<double> length;  ///< negative when no path was found
  std::vector<bool> jumped;
  ContentHasher hash;
};

QueryRun run_queries(const plan::Planner& planner, std::span<const plan::PathRequest> requests,
                     const plan::QueryOptions& query_options) {
  QueryRun run;
  plan::NavQuery query(planner);
  plan::Path path;
  for (std::size_t i = 0; i < std::min<std::size_t>(requests.size(), 200); ++i)
    (void)query.find_path(requests[i].start, requests[i].goal, query_options, path);
  run.us.resize(requests.size());
  run.length.resize(requests.size());
  run.jumped.resize(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status status = query.find_path(requests[i].start, requests[i].goal, query_options, path);
    const auto t1 = std::chrono::steady_clock::now();
    run.us[i] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    const bool found = status.ok() && path.status == plan::PathStatus::Found;
    run.length[i] = found ? path.length : -1.0;
    run.jumped[i] = found && has_jump(path);
    run.hash.add_pod(run.length[i]);
  }
  return run;
}

}  // namespace

void run_jump_query_suite(const Options& options, Report& report) {
  for (const auto& scene : options.scenes) {
    const auto mesh = load_bench_scene(scene, options);
    if (!mesh) continue;
    const BuildConfig config = *named_config("thesis");
    const auto built = build_bench_navmesh(*mesh, config);
    if (!built) continue;
    const mesh::NavMesh& navmesh = built->navmesh;
    const auto points = plan::random_points(navmesh, 2 * options.jump_query_pool, 4242);
    std::vector<plan::PathRequest> pool(options.jump_query_pool);
    for (std::size_t i = 0; i < pool.size(); ++i)
      pool[i] = {points[2 * i].point, points[2 * i + 1].point};

    plan::QueryOptions query_options;
    std::vector<plan::PathRequest> selected;  // queries whose reference path jumps
    std::vector<double> reference_length;
    std::vector<int> steps = options.steps;
    // the reference step first (it picks the queries), then the others ascending
    const int reference_step = options.reference_step;
    std::erase(steps, reference_step);
    std::sort(steps.begin(), steps.end());
    steps.insert(steps.begin(), reference_step);
    // evaluates one link set; false when it cannot be planned over
    const auto evaluate = [&](const std::string& label, const jump::JumpLinkSet& links,
                              double build_ms, bool reference) {
      auto planner = plan::Planner::create(navmesh, &links);
      if (!planner) {
        std::cerr << "bench: " << planner.error().message << '\n';
        return false;
      }
      // per-query time over the whole random pool (jumping or not)
      const std::size_t timed = std::min(options.queries, pool.size());
      const QueryRun all = run_queries(*planner, std::span(pool).first(timed), query_options);
      if (reference) {
        // the first options.queries pairs of the pool whose reference path contains a jump
        plan::NavQuery query(*planner);
        plan::Path path;
        for (std::size_t i = 0; i < pool.size() && selected.size() < options.queries; ++i) {
          const Status status = query.find_path(pool[i].start, pool[i].goal, query_options, path);
          if (!status.ok() || path.status != plan::PathStatus::Found || !has_jump(path)) continue;
          selected.push_back(pool[i]);
          reference_length.push_back(path.length);
        }
      }
      const QueryRun run = run_queries(*planner, selected, query_options);
      std::size_t no_path = 0;
      std::size_t still_jumping = 0;
      double increase_sum = 0.0;
      double increase_max = 0.0;
      std::size_t compared = 0;
      for (std::size_t i = 0; i < selected.size(); ++i) {
        if (run.length[i] < 0.0) {
          ++no_path;
          continue;
        }
        if (run.jumped[i]) ++still_jumping;
        if (reference_length[i] > 1e-6) {
          const double increase = run.length[i] / reference_length[i] - 1.0;
          increase_sum += increase;
          increase_max = std::max(increase_max, increase);
          ++compared;
        }
      }
      const double n = static_cast<double>(std::max<std::size_t>(selected.size(), 1));
      const Summary s_all = summarize(all.us);
      const Summary s_sel = summarize(run.us);
      std::ostringstream extra;
      extra << "jump=C2 set=" << label << " links=" << links.links.size()
            << " bytes=" << io::jump_link_file_bytes(links) << " build_ms=" << build_ms
            << " timed_queries=" << timed << " us_median=" << s_all.median
            << " us_p99=" << s_all.p99 << " jump_queries=" << selected.size()
            << " of_pool=" << pool.size() << " jump_us_median=" << s_sel.median
            << " jump_us_p99=" << s_sel.p99
            << " no_path_fraction=" << static_cast<double>(no_path) / n
            << " still_jumping_fraction=" << static_cast<double>(still_jumping) / n
            << " mean_increase_pct="
            << (compared > 0 ? 100.0 * increase_sum / static_cast<double>(compared) : 0.0)
            << " max_increase_pct=" << 100.0 * increase_max;
      report.add({scene, "thesis", "jump_query_" + label, 1, to_ms(s_all),
                  hash_to_hex(run.hash.digest()), extra.str()});
      return true;
    };

    for (const int step : steps) {
      jump::JumpLinkOptions jump_options;
      jump_options.jumps = {jump::kJumpC2};
      jump_options.step = step;
      jump_options.epsilon = 0.25F;
      BuildContext ctx;
      const auto t0 = std::chrono::steady_clock::now();
      auto links = jump::build_jump_links(built->voxels.solid, built->voxels.compact, navmesh,
                                          config.agent, jump_options, ctx);
      if (!links) {
        std::cerr << "bench: " << links.error().message << '\n';
        break;
      }
      auto refined = jump::refine_links(*links, *mesh, navmesh, config.agent, {}, ctx);
      if (!refined) {
        std::cerr << "bench: " << refined.error().message << '\n';
        break;
      }
      const double build_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (!evaluate("step" + std::to_string(step), *links, build_ms, step == reference_step)) break;
      if (std::find(options.compact_steps.begin(), options.compact_steps.end(), step) ==
          options.compact_steps.end())
        continue;
      for (const float detour : options.compact_detours) {
        for (const bool runs : {true, false}) {
          if (!runs && !options.compact_without_runs) continue;
          jump::LinkCompactOptions compact_options;
          compact_options.detour = detour;
          compact_options.runs = runs;
          const auto c0 = std::chrono::steady_clock::now();
          auto compact =
              jump::compact_links(*links, *mesh, navmesh, config.agent, compact_options, ctx);
          if (!compact) {
            std::cerr << "bench: " << compact.error().message << '\n';
            break;
          }
          const double compact_ms =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c0)
                  .count();
          std::ostringstream label;
          if (step != 1) label << "step" << step << "-";
          label << "compact" << detour << (runs ? "" : "-noruns");
          if (!evaluate(label.str(), compact->set, build_ms + compact_ms, false)) break;
        }
      }
    }
  }
}

}  // namespace leapnav::bench
