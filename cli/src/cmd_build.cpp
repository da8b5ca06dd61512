// `leapnav build`: the whole pipeline, scene to .lnav file, with optional stats JSON.
#include <iostream>

#include "common.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::cli {

nlohmann::json voxel_stats_json(const voxel::VoxelOutput& out);

void register_build_command(CLI::App& root, Registry& registry) {
  struct Options {
    BuildOptions build;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand("build", "Build the navmesh of a scene and save it (.lnav)");
  add_build_options(*app, options->build);
  app->add_option("--output,-o", options->output, "Navmesh file to write (.lnav)")->required();
  app->add_option("--stats", options->build.stats_path,
                  "Write statistics as JSON to this file (- = stdout)");
  registry.push_back({app, [options]() -> int {
                        const BuildOptions& opt = options->build;
                        auto mesh = load_scene_arg(opt);
                        if (!mesh) return report(mesh.error());
                        auto config = load_config_arg(opt);
                        if (!config) return report(config.error());
                        BuildContext ctx;
                        configure_context(ctx, opt);
                        auto out = mesh::build_navmesh(*mesh, *config, ctx);
                        if (!out) return report(out.error());
                        if (auto s = io::save_navmesh(out->navmesh, options->output); !s)
                          return report(s.error());
                        const std::string hash = hash_to_hex(mesh::content_hash(out->navmesh));
                        std::cout << opt.scene << ": " << out->stats.polygons << " polygons, "
                                  << out->stats.vertices << " vertices, " << out->stats.regions
                                  << " regions, navmesh area " << out->stats.navmesh_area
                                  << " m2 (walkable " << out->stats.walkable_area << " m2), hash "
                                  << hash << " -> " << options->output << '\n';
                        if (!opt.stats_path.empty()) {
                          nlohmann::json stats = voxel_stats_json(out->voxels);
                          stats["scene"] = opt.scene;
                          stats["config"] = config->name;
                          stats["threads"] = opt.threads;
                          stats["regions"] = out->stats.regions;
                          stats["polygons"] = out->stats.polygons;
                          stats["vertices"] = out->stats.vertices;
                          stats["navmesh_area"] = out->stats.navmesh_area;
                          stats["walkable_area"] = out->stats.walkable_area;
                          stats["timings_ms"] = timings_json(ctx);
                          stats["hash"] = hash;
                          stats["warnings"] = ctx.warnings();
                          if (auto s = write_json(opt.stats_path, stats); !s)
                            return report(s.error());
                        }
                        return kExitOk;
                      }});
}

}  // namespace leapnav::cli
