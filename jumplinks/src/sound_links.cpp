// The jump-link pipeline of an untiled build (sound_links.hpp): the stages in the CLI's order,
// each on the previous one's output.
#include "leapnav/jumplinks/sound_links.hpp"

#include <string>
#include <utility>

namespace leapnav::jump {

Status validate(const SoundLinkOptions& options) {
  LEAPNAV_TRY(validate(options.jumps));
  if (!(options.refine.min_piece >= 0.0F)) {
    return make_error(ErrorCode::InvalidArgument, "jump links: refine.min_piece " +
                                                      std::to_string(options.refine.min_piece) +
                                                      " is not >= 0");
  }
  LEAPNAV_TRY(validate(options.filter));
  if (options.compact) LEAPNAV_TRY(validate(options.compact_options));
  return {};
}

Result<SoundLinks> build_sound_links(const TriangleMesh& level, const voxel::Heightfield& solid,
                                     const voxel::CompactHeightfield& open,
                                     const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                     const SoundLinkOptions& options, BuildContext& ctx) {
  LEAPNAV_TRY(validate(options));
  warn_unreachable_configs(options.jumps, navmesh.grid, ctx);
  auto links = build_jump_links(solid, open, navmesh, agent, options.jumps, ctx);
  if (!links) return links.error();
  SoundLinks out;
  // note: links that save no walking go before the costly refinement (link_filter.hpp)
  auto filtered = filter_walkable_links(*links, navmesh, options.filter, ctx);
  if (!filtered) return filtered.error();
  out.filter = *filtered;
  // note: endpoints on the triangles' surface, and only links that pass the exact check
  auto refined = refine_links(*links, level, navmesh, agent, options.refine, ctx);
  if (!refined) return refined.error();
  out.refine = *refined;
  if (options.compact) {
    auto compact = compact_links(*links, level, navmesh, agent, options.compact_options, ctx);
    if (!compact) return compact.error();
    out.compact = compact->stats;
    out.set = std::move(compact->set);
  } else {
    out.set = std::move(links).value();
  }
  return out;
}

Result<SoundLinks> build_sound_links(const TriangleMesh& level, const mesh::BuildOutput& built,
                                     const AgentConfig& agent, const SoundLinkOptions& options,
                                     BuildContext& ctx) {
  return build_sound_links(level, built.voxels.solid, built.voxels.compact, built.navmesh, agent,
                           options, ctx);
}

}  // namespace leapnav::jump
