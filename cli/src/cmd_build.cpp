// `leapnav build`: the whole pipeline, scene to .lnav file, with optional stats JSON.
#include <iostream>

#include "common.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/mesh/build.hpp"

namespace leapnav::cli {

nlohmann::json voxel_stats_json(const voxel::VoxelOutput& out);

Result<jump::JumpConfig> parse_jump(std::string_view spec) {
  if (spec == "C1") return jump::kJumpC1;
  if (spec == "C2") return jump::kJumpC2;
  if (spec == "C3") return jump::kJumpC3;
  auto point = parse_point(spec, "--jump");
  if (!point) {
    return make_error(ErrorCode::InvalidArgument,
                      "--jump: '" + std::string(spec) + "' is not h,d,max_fall or C1, C2, C3");
  }
  jump::JumpConfig config{point->x, point->y, point->z};
  if (auto s = jump::validate(config); !s) return std::move(s).error();
  return config;
}

void register_build_command(CLI::App& root, Registry& registry) {
  struct Options {
    BuildOptions build;
    std::string output;
    std::vector<std::string> jumps;
    int step = 1;
    float epsilon = 0.25F;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand("build", "Build the navmesh of a scene and save it (.lnav)");
  add_build_options(*app, options->build);
  app->add_option("--output,-o", options->output, "Navmesh file to write (.lnav)")->required();
  app->add_option("--stats", options->build.stats_path,
                  "Write statistics as JSON to this file (- = stdout)");
  app->add_option("--areas", options->build.areas,
                  "Area table (JSON) for an OBJ scene: {\"groups\": {name: id}, \"materials\": "
                  "{name: id}, \"default\": id}, ids 0..63 (0 = not walkable, 63 = ground)");
  app->add_option("--jump", options->jumps,
                  "Generate jump links for a jump h,d,max_fall [units: m], or a thesis preset C1 "
                  "(1,2.5,2.5), C2 (3,7.5,7.5), C3 (5,12.5,12.5); repeat for several");
  app->add_option(
         "--step", options->step,
         "Jump sample spacing: columns whose grid x and z are multiples of this [units: cells]")
      ->check(CLI::Range(1, 1 << 16))
      ->capture_default_str();
  app->add_option("--epsilon", options->epsilon,
                  "Zhao-Saalfeld tolerance of land segments [units: m]")
      ->capture_default_str();
  registry.push_back(
      {app, [options]() -> int {
         const BuildOptions& opt = options->build;
         auto mesh = load_scene_arg(opt);
         if (!mesh) return report(mesh.error());
         auto config = load_config_arg(opt);
         if (!config) return report(config.error());
         BuildContext ctx;
         configure_context(ctx, opt);
         jump::JumpLinkOptions jump_options;
         jump_options.step = options->step;
         jump_options.epsilon = options->epsilon;
         for (const std::string& spec : options->jumps) {
           auto jump = parse_jump(spec);
           if (!jump) return report(jump.error());
           jump_options.jumps.push_back(*jump);
         }
         if (!jump_options.jumps.empty()) {
           if (auto s = jump::validate(jump_options); !s) return report(s.error());
         }
         auto out = mesh::build_navmesh(*mesh, *config, ctx);
         if (!out) return report(out.error());
         io::NavFile file{std::move(out->navmesh), std::nullopt};
         if (!jump_options.jumps.empty()) {
           auto links = jump::build_jump_links(out->voxels.solid, out->voxels.compact, file.navmesh,
                                               config->agent, jump_options, ctx);
           if (!links) return report(links.error());
           // note: endpoints on the triangles' surface, and only links that pass
           // the exact check (link_refine.hpp)
           auto refined = jump::refine_links(*links, *mesh, file.navmesh, config->agent, {}, ctx);
           if (!refined) return report(refined.error());
           file.links = std::move(links).value();
         }
         // note: the voxel output, regions and contours are released before the file is encoded
         // (a second copy of the navmesh), so the encoding does not add to the build's peak
         std::optional<nlohmann::json> voxel_stats;
         if (!opt.stats_path.empty()) voxel_stats = voxel_stats_json(out->voxels);
         out->voxels = {};
         out->regions = {};
         out->contours = {};
         if (auto s = io::save_nav_file(file, options->output); !s) return report(s.error());
         const mesh::NavMesh& navmesh = file.navmesh;
         const std::string hash = hash_to_hex(mesh::content_hash(navmesh));
         std::cout << opt.scene << ": " << out->stats.polygons << " polygons, "
                   << out->stats.vertices << " vertices, " << out->stats.regions
                   << " regions, navmesh area " << out->stats.navmesh_area << " m2 (walkable "
                   << out->stats.walkable_area << " m2), hash " << hash;
         if (file.links) {
           std::cout << ", " << file.links->links.size() << " jump links from "
                     << file.links->stats.sample_points << " sample points ("
                     << file.links->memory_bytes() << " bytes; " << file.links->stats.links_failing
                     << " failed the exact check on the surface: "
                     << file.links->stats.links_shortened << " shortened, "
                     << file.links->stats.links_dropped << " dropped)";
         }
         std::cout << " -> " << options->output << '\n';
         if (!opt.stats_path.empty()) {
           nlohmann::json stats = std::move(*voxel_stats);
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
           if (file.links) {
             stats["sample_points"] = file.links->stats.sample_points;
             stats["jump_links"] = file.links->links.size();
             stats["jump_bytes"] = file.links->memory_bytes();
             stats["jump_links_failing"] = file.links->stats.links_failing;
             stats["jump_links_shortened"] = file.links->stats.links_shortened;
             stats["jump_links_dropped"] = file.links->stats.links_dropped;
             stats["jump_surface_misses"] = file.links->stats.surface_misses;
             stats["jump_hash"] = hash_to_hex(jump::content_hash(*file.links));
             stats["step"] = jump_options.step;
             stats["epsilon"] = jump_options.epsilon;
           }
           stats["warnings"] = ctx.warnings();
           if (auto s = write_json(opt.stats_path, stats); !s) return report(s.error());
         }
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
