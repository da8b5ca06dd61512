// `leapnav build`: the whole pipeline, scene to .lnav file, with optional stats JSON.
#include <array>
#include <iostream>
#include <optional>

#include "common.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/links_file.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/tile_cache_file.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_filter.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/jumplinks/sound_links.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/ledgelinks/ladders.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tile_cache.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "tile_link_sidecar.hpp"

namespace leapnav::cli {

nlohmann::json voxel_stats_json(const voxel::VoxelOutput& out);

Result<jump::JumpConfig> parse_jump(std::string_view spec) {
  if (spec == "C1") return jump::kJumpC1;
  if (spec == "C2") return jump::kJumpC2;
  if (spec == "C3") return jump::kJumpC3;
  auto point = parse_point(spec, "--jump");
  if (!point) {
    if (point.error().code == ErrorCode::NonFinite) return std::move(point).error();
    return make_error(ErrorCode::InvalidArgument,
                      "--jump: '" + std::string(spec) + "' is not h,d,max_fall or C1, C2, C3");
  }
  jump::JumpConfig config{point->x, point->y, point->z};
  if (auto s = jump::validate(config); !s) {
    return make_error(s.error().code, "--jump " + std::string(spec) + ": " + s.error().message);
  }
  return config;
}

namespace {

// The authored links file of --links, when given.
Result<std::optional<io::AuthoredLinks>> read_authored(const std::string& links_file,
                                                       const BuildOptions& opt) {
  if (links_file.empty()) return std::optional<io::AuthoredLinks>{};
  LEAPNAV_TRY_ASSIGN(io::AuthoredLinks read,
                     io::load_links_file(links_file, input_limit_bytes(opt.max_memory_mib)));
  return std::optional<io::AuthoredLinks>{std::move(read)};
}

// `leapnav build --tile-size N`: the tiled build, saved without a span map; with jump links built
// per tile (tile_links.hpp) when links.jumps.jumps is not empty, and ledge links / ladders on the
// stitched mesh when asked for.
int run_tiled_build(const TriangleMesh& mesh, const BuildConfig& config,
                    const mesh::TileConfig& tiles, const jump::TiledLinkOptions& links,
                    bool ledge_links, const std::string& links_file, const BuildOptions& opt,
                    const std::string& output, const std::string& cache_path, BuildContext& ctx) {
  auto authored = read_authored(links_file, opt);
  if (!authored) return report(authored.error());
  mesh::TiledBuildOutput built;
  std::optional<mesh::TileCache> cache;
  if (cache_path.empty()) {
    auto tiled = mesh::build_tiled_navmesh(mesh, config, tiles, ctx);
    if (!tiled) return report(tiled.error());
    built = std::move(tiled).value();
  } else {
    // note: the working data goes to its own file (written after the .lnav, whose checksum it
    // keeps); the .lnav stays runtime data only
    auto cached = mesh::build_tiled_navmesh_cached(mesh, config, tiles, ctx);
    if (!cached) return report(cached.error());
    cache = std::move(cached->cache);
    built = std::move(cached->output);
  }
  mesh::TiledBuildOutput* out = &built;
  io::NavFile file{std::move(out->navmesh), std::nullopt};
  {
    auto ledges = ledges_and_ladders(file.navmesh, mesh, ledge_links, *authored, links_file, ctx);
    if (!ledges) return report(ledges.error());
    file.ledges = std::move(*ledges);
  }
  std::optional<jump::TiledLinks> tiled_links;
  if (!links.jumps.jumps.empty()) {
    auto made = jump::build_tiled_jump_links(mesh, file.navmesh, out->layout, links, ctx);
    if (!made) return report(made.error());
    tiled_links = std::move(made).value();
    file.links = std::move(tiled_links->set);
  }
  auto saved = io::save_nav_file_sized(file, output);
  if (!saved) return report(saved.error());
  if (cache) {
    // the tiles' hash parts are those of the navmesh just written: saved with its checksum
    cache->nav_file_checksum = saved->checksum;
    if (auto s = io::save_tile_cache(*cache, cache_path); !s) return report(s.error());
    // the link options beside the cache, so `rebuild` regenerates the links the same way
    TileLinkSidecar sidecar{links, ledge_links, *authored, mesh::content_hash(file.navmesh)};
    if (auto s = save_sidecar(sidecar, sidecar_path(cache_path)); !s) return report(s.error());
  }
  const std::string hash = hash_to_hex(mesh::content_hash(file.navmesh));
  const mesh::TileLayout& layout = out->layout;
  const std::uint64_t jump_bytes = saved->jump_link_bytes;
  std::ostream& summary = summary_stream(opt.stats_path);
  summary << opt.scene << ": " << out->stats.polygons << " polygons, " << out->stats.vertices
          << " vertices, " << out->stats.regions << " regions in " << layout.tile_count()
          << " tiles of " << layout.tile_size << " cells (border " << layout.border << "; "
          << out->stitch.portal_edges << " portals between tiles), navmesh area "
          << out->stats.navmesh_area << " m2, hash " << hash;
  if (file.links) {
    summary << ", " << file.links->links.size() << (links.compact ? " compact" : " full")
            << " jump links from " << file.links->stats.sample_points << " sample points ("
            << tiled_links->cross_tile_links << " landing in another tile; " << jump_bytes
            << " bytes in the file; " << tiled_links->refine.links_failing
            << " failed the exact check on the surface: " << tiled_links->refine.links_shortened
            << " shortened, " << tiled_links->refine.links_dropped << " dropped)";
  }
  if (file.ledges) {
    summary << ", " << file.ledges->links.size() << " ledge links ("
            << file.ledges->stats.links_dropped << " of " << file.ledges->stats.candidates
            << " candidates failed the check)";
  }
  summary << " -> " << output << '\n';
  if (!opt.stats_path.empty()) {
    nlohmann::json stats;
    stats["scene"] = opt.scene;
    stats["config"] = config.name;
    stats["threads"] = opt.threads;
    stats["tile_size"] = layout.tile_size;
    stats["tile_border"] = layout.border;
    stats["tiles"] = layout.tile_count();
    stats["tiles_x"] = layout.tiles_x;
    stats["tiles_z"] = layout.tiles_z;
    stats["regions"] = out->stats.regions;
    stats["polygons"] = out->stats.polygons;
    stats["vertices"] = out->stats.vertices;
    stats["navmesh_area"] = out->stats.navmesh_area;
    stats["walkable_area"] = out->stats.walkable_area;
    stats["portal_edges"] = out->stitch.portal_edges;
    stats["welded_vertices"] = out->stitch.welded_vertices;
    stats["inserted_corners"] = out->stitch.inserted_corners;
    stats["split_polygons"] = out->stitch.split_polygons;
    if (file.links) {
      stats["sample_points"] = file.links->stats.sample_points;
      stats["jump_links"] = file.links->links.size();
      stats["jump_bytes"] = jump_bytes;
      stats["jump_memory_bytes"] = file.links->memory_bytes();
      stats["jump_link_set"] = links.compact ? "compact" : "full";
      if (links.compact) {
        stats["jump_links_full"] = tiled_links->compact.links_in;
        stats["jump_groups"] = tiled_links->compact.groups;
        stats["jump_groups_lost"] = tiled_links->compact.groups_lost;
        stats["jump_lattice_failing"] = tiled_links->compact.lattice_failing;
        stats["jump_detour"] = links.compact_options.detour;
        stats["jump_runs"] = tiled_links->compact.runs;
        stats["jump_run_links"] = tiled_links->compact.run_links;
        stats["jump_run_refused"] = tiled_links->compact.run_refused;
      }
      stats["jump_links_generated"] = tiled_links->filter.links_in;
      stats["jump_links_walkable"] = tiled_links->filter.links_dropped;
      stats["jump_links_failing"] = tiled_links->refine.links_failing;
      stats["jump_links_shortened"] = tiled_links->refine.links_shortened;
      stats["jump_links_dropped"] = tiled_links->refine.links_dropped;
      stats["jump_cross_tile_links"] = tiled_links->cross_tile_links;
      stats["jump_max_search_columns"] = tiled_links->max_search_columns;
      stats["jump_hash"] = hash_to_hex(jump::content_hash(*file.links));
      stats["step"] = links.jumps.step;
      stats["epsilon"] = links.jumps.epsilon;
    }
    if (file.ledges) {
      stats["ledge_links"] = file.ledges->links.size();
      stats["ledge_candidates"] = file.ledges->stats.candidates;
      stats["ledge_links_dropped"] = file.ledges->stats.links_dropped;
      stats["ledge_hash"] = hash_to_hex(ledge::content_hash(*file.ledges));
    }
    stats["timings_ms"] = timings_json(ctx);
    stats["hash"] = hash;
    stats["warnings"] = ctx.warnings();
    if (auto s = write_json(opt.stats_path, stats); !s) return report(s.error());
  }
  return kExitOk;
}

}  // namespace

void register_build_command(CLI::App& root, Registry& registry) {
  struct Options {
    BuildOptions build;
    std::string output;
    std::vector<std::string> jumps;
    int step = 1;
    float epsilon = 0.25F;
    std::string link_set = "compact";
    float detour = jump::LinkCompactOptions{}.detour;
    bool no_link_runs = false;
    bool keep_walkable_links = false;
    std::string walkable_filter = "groups";
    mesh::TileConfig tiles;
    std::string cache;
    bool ledge_links = false;
    std::string links_file;
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
  CLI::Option* jump_option = app->add_option(
      "--jump", options->jumps,
      "Generate jump links for a jump h,d,max_fall [units: m], or a thesis preset C1 "
      "(1,2.5,2.5), C2 (3,7.5,7.5), C3 (5,12.5,12.5); repeat for several");
  app->add_option(
         "--step", options->step,
         "Jump sample spacing: columns whose grid x and z are multiples of this [units: cells]")
      ->check(CLI::Range(1, 1 << 16))
      ->capture_default_str();
  app->add_option("--epsilon", options->epsilon,
                  "Zhao-Saalfeld tolerance of land segments [units: m]")
      ->check(check_finite)
      ->check(CLI::Range(0.0, 1.0e3))
      ->capture_default_str();
  app->add_option("--link-set", options->link_set,
                  "Jump links written: full (every refined link) or compact (a cover of them "
                  "within --detour, on a 2 mm lattice; docs/jump_links.md)")
      ->check(CLI::IsMember({"full", "compact"}))
      ->capture_default_str();
  app->add_option("--detour", options->detour,
                  "Compact link sets: a path through a left-out link grows by at most twice "
                  "this [units: m]")
      ->check(CLI::Range(0.0F, 1000.0F))
      ->capture_default_str();
  app->add_flag("--no-link-runs", options->no_link_runs,
                "Compact link sets: keep the kept links as they are instead of arranging them "
                "into runs of translates (larger files; docs/jump_links.md)");
  app->add_flag("--keep-walkable-links", options->keep_walkable_links,
                "Keep jump links that save no walking (by default a link is dropped before "
                "refinement when walking reaches its landing within the jump's length + 4 m; "
                "docs/jump_links.md)");
  app->add_option("--walkable-filter", options->walkable_filter,
                  "Drop walkable links by whole groups (paths unchanged) or one by one (links: "
                  "far smaller sets, a path may grow by up to 4 m per jump; docs/jump_links.md)")
      ->check(CLI::IsMember({"groups", "links"}))
      ->capture_default_str();
  // note: an option that shapes jump links means nothing without --jump: a usage error rather
  // than silently ignored
  for (const char* name : {"--step", "--epsilon", "--link-set", "--detour", "--no-link-runs",
                           "--keep-walkable-links", "--walkable-filter"}) {
    app->get_option(name)->needs(jump_option);
  }
  app->get_option("--keep-walkable-links")->excludes("--walkable-filter");
  CLI::Option* tile_size_option =
      app->add_option("--tile-size", options->tiles.tile_size,
                      "Build in square tiles of this many cells, in parallel, stitched into one "
                      "navmesh; 0 = one tile [units: cells] [range: 0 or 16..65536]")
          ->capture_default_str();
  app->add_option("--tile-border", options->tiles.border,
                  "Cells voxelized around each tile; -1 = agent radius + 3 [units: cells]")
      ->capture_default_str()
      ->needs(tile_size_option);
  app->add_option("--cache", options->cache,
                  "With --tile-size: also write the build's working data (per-tile meshes and "
                  "input fingerprints) to this file, for `leapnav rebuild`");
  app->add_flag("--ledge-links", options->ledge_links,
                "Generate ledge links: step, jump-up (agent.max_jump_up) and drop (agent.max_drop) "
                "links between facing boundary edges, each checked against the triangles");
  app->add_option("--links", options->links_file,
                  "Authored links, JSON: {\"ladders\": [{\"bottom\": [x,y,z], \"top\": "
                  "[x,y,z]}], \"climb_speed\": 0.5}");
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
         if (options->tiles.tile_size != 0) {
           if (auto s = mesh::validate(options->tiles, *config); !s) return report(s.error());
           jump::TiledLinkOptions links;
           links.jumps = jump_options;
           links.compact = options->link_set == "compact";
           links.compact_options.detour = options->detour;
           links.compact_options.runs = !options->no_link_runs;
           links.filter.enabled = !options->keep_walkable_links;
           links.filter.whole_groups = options->walkable_filter == "groups";
           return run_tiled_build(*mesh, *config, options->tiles, links, options->ledge_links,
                                  options->links_file, opt, options->output, options->cache, ctx);
         }
         if (!options->cache.empty()) {
           return report(make_error(
               ErrorCode::InvalidArgument,
               "--cache " + options->cache + ": a tile cache needs a tiled build (--tile-size N)"));
         }
         std::optional<io::AuthoredLinks> authored;
         if (!options->links_file.empty()) {
           auto read =
               io::load_links_file(options->links_file, input_limit_bytes(opt.max_memory_mib));
           if (!read) return report(read.error());
           authored = std::move(read).value();
         }
         auto out = mesh::build_navmesh(*mesh, *config, ctx);
         if (!out) return report(out.error());
         io::NavFile file{std::move(out->navmesh), std::nullopt};
         std::optional<jump::LinkCompactStats> compact_stats;
         jump::LinkFilterStats filter_stats;
         if (options->ledge_links || authored) {
           ledge::LedgeLinkSet ledges;
           if (options->ledge_links) {
             auto built = ledge::build_ledge_links(file.navmesh, &*mesh, {}, ctx);
             if (!built) return report(built.error());
             ledges = std::move(built).value();
           }
           if (authored) {
             auto ladders =
                 ledge::ladder_links(file.navmesh, authored->ladders, authored->ladder_options);
             if (!ladders) {
               return report(make_error(ladders.error().code,
                                        options->links_file + ": " + ladders.error().message));
             }
             for (const ledge::LedgeLink& l : *ladders) ledges.links.push_back(l);
             ledge::sort_links(ledges.links);
           }
           file.ledges = std::move(ledges);
         }
         if (!jump_options.jumps.empty()) {
           jump::SoundLinkOptions link_options;
           link_options.jumps = jump_options;
           link_options.filter.enabled = !options->keep_walkable_links;
           link_options.filter.whole_groups = options->walkable_filter == "groups";
           link_options.compact = options->link_set == "compact";
           link_options.compact_options.detour = options->detour;
           link_options.compact_options.runs = !options->no_link_runs;
           auto links = jump::build_sound_links(*mesh, out->voxels.solid, out->voxels.compact,
                                                file.navmesh, config->agent, link_options, ctx);
           if (!links) return report(links.error());
           filter_stats = links->filter;
           compact_stats = links->compact;
           file.links = std::move(links->set);
         }
         // note: the voxel output, regions and contours are released before the file is encoded
         // (a second copy of the navmesh), so the encoding does not add to the build's peak
         std::optional<nlohmann::json> voxel_stats;
         if (!opt.stats_path.empty()) voxel_stats = voxel_stats_json(out->voxels);
         out->voxels = {};
         out->regions = {};
         out->contours = {};
         auto saved = io::save_nav_file_sized(file, options->output);
         if (!saved) return report(saved.error());
         const mesh::NavMesh& navmesh = file.navmesh;
         const std::string hash = hash_to_hex(mesh::content_hash(navmesh));
         std::ostream& summary = summary_stream(opt.stats_path);
         summary << opt.scene << ": " << out->stats.polygons << " polygons, " << out->stats.vertices
                 << " vertices, " << out->stats.regions << " regions, navmesh area "
                 << out->stats.navmesh_area << " m2 (walkable " << out->stats.walkable_area
                 << " m2), hash " << hash;
         // note: the bytes the links add to the file, whatever their encoding
         const std::uint64_t jump_bytes = saved->jump_link_bytes;
         if (file.links) {
           summary << ", " << file.links->links.size() << ' ' << options->link_set
                   << " jump links from " << file.links->stats.sample_points << " sample points ("
                   << jump_bytes << " bytes in the file; " << file.links->stats.links_failing
                   << " failed the exact check on the surface: "
                   << file.links->stats.links_shortened << " shortened, "
                   << file.links->stats.links_dropped << " dropped)";
         }
         std::array<std::size_t, ledge::kLedgeKindCount> kind_counts{};
         if (file.ledges) {
           for (const ledge::LedgeLink& l : file.ledges->links)
             ++kind_counts[static_cast<std::size_t>(l.kind)];
           summary << ", " << file.ledges->links.size() << " ledge links (";
           for (int k = 0; k < ledge::kLedgeKindCount; ++k)
             summary << (k > 0 ? ", " : "") << kind_counts[static_cast<std::size_t>(k)] << ' '
                     << ledge::to_string(static_cast<ledge::LedgeKind>(k));
           summary << "; " << file.ledges->stats.links_dropped << " of "
                   << file.ledges->stats.candidates << " candidates failed the check)";
         }
         summary << " -> " << options->output << '\n';
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
             stats["jump_bytes"] = jump_bytes;
             stats["jump_memory_bytes"] = file.links->memory_bytes();
             stats["jump_link_set"] = options->link_set;
             if (compact_stats) {
               stats["jump_links_full"] = compact_stats->links_in;
               stats["jump_groups"] = compact_stats->groups;
               stats["jump_groups_lost"] = compact_stats->groups_lost;
               stats["jump_lattice_failing"] = compact_stats->lattice_failing;
               stats["jump_detour"] = options->detour;
               stats["jump_runs"] = compact_stats->runs;
               stats["jump_run_links"] = compact_stats->run_links;
               stats["jump_run_refused"] = compact_stats->run_refused;
             }
             stats["jump_links_generated"] = filter_stats.links_in;
             stats["jump_links_walkable"] = filter_stats.links_dropped;
             stats["jump_links_failing"] = file.links->stats.links_failing;
             stats["jump_links_shortened"] = file.links->stats.links_shortened;
             stats["jump_links_dropped"] = file.links->stats.links_dropped;
             stats["jump_surface_misses"] = file.links->stats.surface_misses;
             stats["jump_hash"] = hash_to_hex(jump::content_hash(*file.links));
             stats["step"] = jump_options.step;
             stats["epsilon"] = jump_options.epsilon;
           }
           if (file.ledges) {
             nlohmann::json kinds;
             for (int k = 0; k < ledge::kLedgeKindCount; ++k)
               kinds[std::string(ledge::to_string(static_cast<ledge::LedgeKind>(k)))] =
                   kind_counts[static_cast<std::size_t>(k)];
             stats["ledge_links"] = file.ledges->links.size();
             stats["ledge_kinds"] = kinds;
             stats["ledge_boundary_edges"] = file.ledges->stats.boundary_edges;
             stats["ledge_facing_pairs"] = file.ledges->stats.facing_pairs;
             stats["ledge_candidates"] = file.ledges->stats.candidates;
             stats["ledge_links_failing"] = file.ledges->stats.links_failing;
             stats["ledge_links_dropped"] = file.ledges->stats.links_dropped;
             stats["ledge_hash"] = hash_to_hex(ledge::content_hash(*file.ledges));
           }
           stats["warnings"] = ctx.warnings();
           if (auto s = write_json(opt.stats_path, stats); !s) return report(s.error());
         }
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
