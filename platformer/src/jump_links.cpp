// Jump links by simulated trajectories (spec §B6, B7): from every nav point, 2·h_div·s_div
// trajectories in generation order (height ascending, speed ascending, right before left), each
// walked sample by sample. A sample outside the start tile lands in tile q when q is walkable, the
// sample is falling, it is at most distance_max above q's floor, the collider fits on q, and q's
// platform is neither the start's nor one already reached from this start. The trajectory stops
// at its landing (the pseudo-code walks on through it), at a sample whose tile lacks space for the
// collider, or after its last sample. So each (start, platform) pair gets at most one link: the
// lowest, then slowest jump that reaches it.
#include <algorithm>
#include <cmath>

#include "leapnav/core/parallel.hpp"
#include "leapnav/platformer/nav_graph.hpp"
#include "leapnav/platformer/trajectory.hpp"

namespace leapnav::platformer {
namespace {

// The jump links of one start nav point, appended to `out` in generation order.
void jumps_from(const TileMap& map, const NavGraph& graph, const PlatformerParams& params,
                NavPointId start_id, std::vector<PlatformId>& reached, std::vector<NavLink>& out) {
  const NavPoint& start = graph.point(start_id);
  const int samples = sample_count(params);
  reached.clear();
  for (int i = 1; i <= params.h_div; ++i) {
    const double height = params.h_max * i / params.h_div;
    for (int j = 1; j <= params.s_div; ++j) {
      const double speed = params.v_max * j / params.s_div;
      for (const int direction : {1, -1}) {
        const JumpShape shape{height, speed, direction};
        // note: the same expressions as jump_position (bit for bit), with the square root hoisted
        const double vy0 = std::sqrt(2.0 * params.g * height);
        double previous_y = start.tile.r;
        for (int k = 1; k <= samples; ++k) {
          const double t = k * params.dt;
          TrajectorySample s;
          s.x = start.tile.c + 0.5 + direction * jump_distance(shape, params, t);
          s.y = start.tile.r + vy0 * t - 0.5 * params.g * t * t;
          const Tile q = sample_tile(s);
          const double y_before = previous_y;
          previous_y = s.y;
          if (q == start.tile) continue;
          const bool space = is_enough_space(map, q, params);
          const NavPointId target = graph.point_of(q);
          if (target != kNoNavPoint && s.y < y_before && s.y - q.r <= params.distance_max &&
              space) {
            const PlatformId platform = graph.point(target).platform;
            if (platform != start.platform &&
                std::find(reached.begin(), reached.end(), platform) == reached.end()) {
              NavLink link;
              link.kind = LinkKind::Jump;
              link.from = start_id;
              link.to = target;
              link.cost = landing_time(start.tile, shape, params, q.r);
              link.jump = {height, speed, params.v_b, params.a, direction, k};
              out.push_back(link);
              reached.push_back(platform);
              break;  // note: the jump ends at its landing (B7's missing stop)
            }
          }
          if (!space) break;
        }
      }
    }
  }
}

}  // namespace

Result<std::vector<NavLink>> jump_links(const TileMap& map, const NavGraph& graph,
                                        const PlatformerParams& params, BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("platformer jump links"));
  constexpr std::size_t kGrain = 256;
  std::vector<NavLink> links = parallel_reduce(
      ctx.threads(), 0, graph.points.size(), kGrain, std::vector<NavLink>{},
      [&](std::size_t begin, std::size_t end) {
        std::vector<NavLink> chunk;
        if (ctx.cancelled()) return chunk;
        std::vector<PlatformId> reached;
        for (std::size_t p = begin; p < end; ++p) {
          jumps_from(map, graph, params, NavPointId{static_cast<std::uint32_t>(p)}, reached, chunk);
        }
        return chunk;
      },
      [](std::vector<NavLink> acc, std::vector<NavLink> chunk) {
        acc.insert(acc.end(), chunk.begin(), chunk.end());
        return acc;
      });
  LEAPNAV_TRY(ctx.check_cancel("platformer jump links"));
  return links;
}

}  // namespace leapnav::platformer
