// `leapnav voxelize`: the voxel stage alone, with a summary and optional stats JSON.
#include <iostream>

#include "common.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/voxel/voxelize.hpp"

namespace leapnav::cli {

/// The voxel stage's statistics as JSON (shared with `leapnav build`).
nlohmann::json voxel_stats_json(const voxel::VoxelOutput& out) {
  nlohmann::json j;
  j["triangles"] = out.stats.triangles;
  j["walkable_triangles"] = out.stats.walkable_triangles;
  j["degenerate_triangles"] = out.stats.degenerate_triangles;
  j["grid"] = {out.compact.grid.width, out.compact.grid.depth};
  j["spans"] = out.stats.spans;
  j["compact_spans"] = out.stats.compact_spans;
  j["walkable_spans"] = out.stats.walkable_spans;
  return j;
}

void register_voxelize_command(CLI::App& root, Registry& registry) {
  auto options = std::make_shared<BuildOptions>();
  CLI::App* app = root.add_subcommand(
      "voxelize", "Rasterize a scene into the walkable compact heightfield and print a summary");
  add_build_options(*app, *options);
  app->add_option("--stats", options->stats_path,
                  "Write statistics as JSON to this file (- = stdout)");
  registry.push_back({app, [options]() -> int {
                        auto mesh = load_scene_arg(*options);
                        if (!mesh) return report(mesh.error());
                        auto config = load_config_arg(*options);
                        if (!config) return report(config.error());
                        BuildContext ctx;
                        configure_context(ctx, *options);
                        auto out = voxel::voxelize(*mesh, *config, ctx);
                        if (!out) return report(out.error());
                        nlohmann::json stats = voxel_stats_json(*out);
                        stats["scene"] = options->scene;
                        stats["config"] = config->name;
                        stats["threads"] = options->threads;
                        stats["timings_ms"] = timings_json(ctx);
                        stats["hash"] = hash_to_hex(voxel::content_hash(out->compact));
                        std::ostream& summary = summary_stream(options->stats_path);
                        summary << options->scene << ": " << out->stats.triangles << " triangles ("
                                << out->stats.walkable_triangles << " walkable, "
                                << out->stats.degenerate_triangles << " degenerate), grid "
                                << out->compact.grid.width << " x " << out->compact.grid.depth
                                << ", " << out->stats.spans << " spans, "
                                << out->stats.compact_spans << " open walkable spans, "
                                << out->stats.walkable_spans << " after erosion, hash "
                                << stats["hash"].get<std::string>() << '\n';
                        if (!options->stats_path.empty()) {
                          if (auto s = write_json(options->stats_path, stats); !s)
                            return report(s.error());
                        }
                        return kExitOk;
                      }});
}

}  // namespace leapnav::cli
