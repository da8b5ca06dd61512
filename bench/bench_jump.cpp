// Jump-link benchmark (thesis §8.1, Appendix A): generation time and link-set memory on the real
// levels with the thesis configuration, for C1-C3 and sample steps 1..16, at 1 thread and at all
// threads, with link counts and the exact soundness checker's failures. The navmesh build is
// excluded from the time, as in the thesis.
#include <chrono>
#include <iostream>
#include <iterator>
#include <sstream>

#include "harness.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::bench {

void run_jump_suite(const Options& options, Report& report) {
  const std::pair<const char*, jump::JumpConfig> configs[] = {
      {"C1", jump::kJumpC1}, {"C2", jump::kJumpC2}, {"C3", jump::kJumpC3}};
  for (const auto& scene : options.scenes) {
    const auto mesh = load_bench_scene(scene, options);
    if (!mesh) continue;
    const BuildConfig config = *named_config("thesis");
    const auto built = build_bench_navmesh(*mesh, config);
    if (!built) continue;
    for (const auto& [name, jump_config] : configs) {
      for (const int step : options.steps) {
        jump::JumpLinkOptions jump_options;
        jump_options.jumps = {jump_config};
        jump_options.step = step;
        jump_options.epsilon = 0.25F;
        std::optional<std::uint64_t> reference_hash;
        for (const int threads : options.threads) {
          std::vector<double> ms;
          std::vector<double> cpu;
          constexpr const char* kStages[] = {"jump_obstacles", "jump_samples", "jump_search",
                                             "jump_segments"};
          std::vector<double> stage_ms[std::size(kStages)];
          std::optional<jump::JumpLinkSet> last;
          const int repeat = step <= 2 ? std::max(1, options.repeat / 4) : options.repeat;
          for (int r = 0; r < repeat; ++r) {
            BuildContext ctx;
            ctx.set_threads(threads);
            const double c0 = process_cpu_ms();
            const auto t0 = std::chrono::steady_clock::now();
            auto links = jump::build_jump_links(built->voxels.solid, built->voxels.compact,
                                                built->navmesh, config.agent, jump_options, ctx);
            const auto t1 = std::chrono::steady_clock::now();
            if (!links) {
              std::cerr << "bench: " << links.error().message << '\n';
              break;
            }
            ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            cpu.push_back(process_cpu_ms() - c0);
            for (std::size_t st = 0; st < std::size(kStages); ++st)
              stage_ms[st].push_back(ctx.time_of(kStages[st]));
            const std::uint64_t hash = jump::content_hash(*links);
            if (!reference_hash) reference_hash = hash;
            if (hash != *reference_hash) {
              report.mismatch(scene + " " + name + " step " + std::to_string(step) + " threads " +
                              std::to_string(threads));
            }
            last = std::move(links).value();
          }
          if (!last) continue;
          std::ostringstream extra;
          extra << "jump=" << name << " step=" << step << " links=" << last->links.size()
                << " sample_points=" << last->stats.sample_points
                << " cells_visited=" << last->stats.cells_visited
                << " land_voxels=" << last->stats.land_voxels << " chains=" << last->stats.chains
                << " MB=" << static_cast<double>(last->memory_bytes()) / 1e6
                << " cpu_ms_median=" << summarize(cpu).median;
          for (std::size_t st = 0; st < std::size(kStages); ++st)
            extra << ' ' << kStages[st] << "_ms=" << summarize(stage_ms[st]).median;
          if (options.check_links && threads == options.threads.front()) {
            jump::LinkCheckOptions check;
            const auto result =
                jump::check_links(*last, *mesh, built->navmesh, config.agent, check);
            extra << " checked=" << result.links_checked << " unsound=" << result.links_failed
                  << " worst_penetration_m=" << result.worst_penetration;
          }
          report.add({scene, "thesis", std::string("jump_") + name + "_step" + std::to_string(step),
                      effective_threads(threads), summarize(ms), hash_to_hex(*reference_hash),
                      extra.str()});
        }
      }
    }
  }
}

}  // namespace leapnav::bench
