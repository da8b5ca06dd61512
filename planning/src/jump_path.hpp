// Local planning of a path with jumps (thesis §6.2): the corridor is split into sub-corridors at
// the jump arcs; a walk funnel runs on the first, the modified funnel on each later one, and the
// link of each jump is chosen greedily when the funnel reaches the end of its sub-corridor.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/planning/path.hpp"
#include "leapnav/planning/query.hpp"
#include "local_funnel.hpp"
#include "planner_impl.hpp"

namespace leapnav::plan::detail {

/// Reused buffers of the jump path assembly.
struct JumpPathScratch {
  LocalFunnel run;
  LocalFunnel back;
  std::vector<Portal> portals;              ///< walk portals of the whole corridor, as walked
  std::vector<Portal> reversed;             ///< one sub-corridor's portals walked backwards
  std::vector<std::uint32_t> jump_at;       ///< per jump: corridor index of its start polygon
  std::vector<std::uint32_t> jump_group;    ///< per jump: the link group
  std::vector<std::uint32_t> portal_split;  ///< per jump: portals before it
  std::vector<double> run_forward;          ///< per run of the group: forward estimate
  std::vector<double> run_bound;            ///< per run: lower bound of its links' scores
};

/// Fills out.points, out.segments, out.length, out.length_3d and out.jump_count from the corridor
/// already in out.corridor and the search's arcs (in walking order, `arcs.size()` =
/// corridor size - 1). `start` is the located start, `end` the goal (or the Partial end).
void assemble_jump_path(const Planner::Impl& impl, std::span<const std::uint32_t> arcs, Vec3 start,
                        Vec3 end, const QueryOptions& options, JumpPathScratch& scratch, Path& out);

}  // namespace leapnav::plan::detail
