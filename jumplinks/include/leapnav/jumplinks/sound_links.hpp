// The whole jump-link pipeline of an untiled build in one call: the voxel search
// (build_jump_links), the walkable-link filter (link_filter.hpp), the refinement against the
// triangles (link_refine.hpp) and, by default, the compaction (link_compact.hpp). Every link of the
// result passes the exact check (link_check.hpp) on the level's triangles; it is the set the CLI's
// untiled `leapnav build --jump ...` writes for the same options, and the set the C API and the
// Python module build. Deterministic for any thread count (each stage is).
#pragma once

#include <optional>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_filter.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::jump {

/// Options of the pipeline; the defaults are the CLI's.
struct SoundLinkOptions {
  JumpLinkOptions jumps;     ///< configurations (at least one), step, epsilon
  LinkFilterOptions filter;  ///< on by default, whole groups (--keep-walkable-links turns it off)
  LinkRefineOptions refine;  ///< endpoints on the surface, exact check
  bool compact = true;       ///< true: the compact set (--link-set compact); false: every link
  LinkCompactOptions compact_options;  ///< detour, runs (--detour, --no-link-runs)
};

/// Checks every stage's options; the message names the field.
[[nodiscard]] Status validate(const SoundLinkOptions& options);

/// The links and the counters of each stage.
struct SoundLinks {
  JumpLinkSet set;  ///< indexed; compact (quantum > 0) when options.compact
  LinkFilterStats filter;
  LinkRefineStats refine;
  std::optional<LinkCompactStats> compact;  ///< set when options.compact
};

/// Runs build_jump_links on (solid, open, navmesh), then filter_walkable_links,
/// refine_links against `level` and, with options.compact, compact_links. `level` is the triangle
/// mesh the navmesh was built from, solid and open the voxel stage's output for it. Timers and
/// cancellation: those of the stages. Errors: InvalidArgument for bad options (validate), and
/// the stages' errors (MemoryLimit, Cancelled, ...).
[[nodiscard]] Result<SoundLinks> build_sound_links(
    const TriangleMesh& level, const voxel::Heightfield& solid,
    const voxel::CompactHeightfield& open, const mesh::NavMesh& navmesh, const AgentConfig& agent,
    const SoundLinkOptions& options, BuildContext& ctx);

/// The same on the output of mesh::build_navmesh(level, config, ctx), with config.agent.
[[nodiscard]] Result<SoundLinks> build_sound_links(const TriangleMesh& level,
                                                   const mesh::BuildOutput& built,
                                                   const AgentConfig& agent,
                                                   const SoundLinkOptions& options,
                                                   BuildContext& ctx);

}  // namespace leapnav::jump
