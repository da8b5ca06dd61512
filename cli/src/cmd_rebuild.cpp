// `leapnav rebuild`: an incremental tiled build. Loads the tile cache a `build --tile-size N
// --cache` wrote (and its link options, F.links, when the build had jump or ledge links or
// authored ladders), checks them against the old .lnav, rebuilds the tiles the changed box
// touches from the new scene (mesh::rebuild_tiled_navmesh), regenerates the jump links of the
// tiles within reach of them (jump::rebuild_tiled_jump_links, the others' links taken from the old
// .lnav), the ledge links and the ladders (kept in F.links), writes the new .lnav and the updated
// cache (both atomically), with optional stats JSON.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "common.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/tile_cache_file.hpp"
#include "leapnav/jumplinks/tile_links_rebuild.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/tile_cache.hpp"
#include "tile_link_sidecar.hpp"

namespace leapnav::cli {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Processor time of the process since `start` (all threads) [units: ms].
double cpu_ms_since(std::clock_t start) {
  return 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

// "minx,miny,minz,maxx,maxy,maxz" [units: m].
Result<AABB> parse_box(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::InvalidArgument,
                      "--changed: '" + std::string(text) + "' " + why +
                          " (expected minx,miny,minz,maxx,maxy,maxz in metres)");
  };
  std::vector<float> values;
  std::string item;
  std::istringstream in{std::string(text)};
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    float v = 0.0F;
    try {
      v = std::stof(item, &used);
    } catch (const std::exception&) {
      return bad("has a value that is not a number");
    }
    if (used != item.size()) return bad("has a value that is not a number");
    if (!std::isfinite(v)) return bad("has a value that is not finite");
    values.push_back(v);
  }
  if (values.size() != 6) return bad("does not have six values");
  AABB box;
  box.min = {values[0], values[1], values[2]};
  box.max = {values[3], values[4], values[5]};
  if (box.empty()) return bad("has a minimum above its maximum");
  return box;
}

// The configuration fields a .lnav keeps (CONF, agnt): the cache's must match the old file's.
bool same_stored_config(const BuildConfig& a, const BuildConfig& b) {
  return a.voxel == b.voxel && a.region == b.region && a.poly == b.poly &&
         a.agent.height == b.agent.height && a.agent.radius == b.agent.radius &&
         a.agent.max_climb == b.agent.max_climb && a.agent.max_slope_deg == b.agent.max_slope_deg &&
         a.agent.crouch_height == b.agent.crouch_height && a.agent.shape == b.agent.shape;
}

}  // namespace

void register_rebuild_command(CLI::App& root, Registry& registry) {
  struct Options {
    std::string old_nav;
    BuildOptions build;
    std::string cache;
    std::string changed;
    std::string output;
    std::string config;
    int tile_size = -1;
    bool check_outside = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand(
      "rebuild", "Rebuild the tiles of a tiled navmesh that an edit touches (needs build --cache)");
  app->add_option("old", options->old_nav, "The navmesh file the cache was written with (.lnav)")
      ->required();
  app->add_option("scene", options->build.scene,
                  "The new geometry: an OBJ file or builtin:NAME (as for build)")
      ->required();
  app->add_option("--cache", options->cache,
                  "Tile cache written by `build --tile-size N --cache`; updated in place")
      ->required();
  app->add_option("--changed", options->changed,
                  "Box around everything that changed, old and new: minx,miny,minz,maxx,maxy,maxz "
                  "[units: m]; geometry changed outside it is not looked for (see --check-outside)")
      ->required();
  app->add_flag("--check-outside", options->check_outside,
                "Also hash every tile's triangles and rebuild the tiles that changed outside "
                "--changed (a pass over the whole scene)");
  app->add_option("--output,-o", options->output, "Navmesh file to write (.lnav)")->required();
  app->add_option("--stats", options->build.stats_path,
                  "Write statistics as JSON to this file (- = stdout)");
  app->add_option("--config,-c", options->config,
                  "Optional check: the configuration the cache must have been built with");
  app->add_option(
      "--tile-size", options->tile_size,
      "Optional check: the tile size the cache must have been built with [units: cells]");
  app->add_option("--up", options->build.up, "Up axis of the OBJ input: y or z")
      ->check(CLI::IsMember({"y", "z"}))
      ->capture_default_str();
  app->add_option("--areas", options->build.areas,
                  "Area table (JSON) for an OBJ scene, as for build");
  app->add_option("--threads,-j", options->build.threads,
                  "Worker threads; 0 = all hardware threads")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  add_max_memory_option(*app, options->build.max_memory_mib);
  registry.push_back(
      {app, [options]() -> int {
         const BuildOptions& opt = options->build;
         const Clock::time_point start = Clock::now();
         auto box = parse_box(options->changed);
         if (!box) return report(box.error());
         const std::uint64_t limit = input_limit_bytes(opt.max_memory_mib);
         auto cache = io::load_tile_cache(options->cache, limit);
         if (!cache) return report(cache.error());
         // note: the file's bytes are kept for their trailing checksum (verified by the decoder)
         std::uint64_t old_checksum = 0;
         Result<io::NavFile> old = [&]() -> Result<io::NavFile> {
           LEAPNAV_TRY_ASSIGN(const std::string bytes, io::read_file(options->old_nav, limit));
           for (std::size_t i = 0; i < 8 && bytes.size() >= 8; ++i) {
             old_checksum |=
                 static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[bytes.size() - 8 + i]))
                 << (8U * i);
           }
           return io::decode_nav_file(std::as_bytes(std::span<const char>(bytes)),
                                      options->old_nav);
         }();
         if (!old) return report(old.error());
         const std::string& cache_name = options->cache;
         // the link options beside the cache (build --cache with --jump / --ledge-links)
         const std::filesystem::path side_path = sidecar_path(options->cache);
         std::optional<TileLinkSidecar> side;
         if (std::filesystem::exists(side_path)) {
           auto read = load_sidecar(side_path, limit);
           if (!read) return report(read.error());
           side = std::move(read).value();
         }
         const bool side_jumps = side && !side->links.jumps.jumps.empty();
         // note: ledge links and authored ladders share the file's ledge set
         const bool side_ledges = side && (side->ledge_links || side->authored);
         if (old->links.has_value() != side_jumps || old->ledges.has_value() != side_ledges) {
           return report(make_error(
               ErrorCode::InvalidArgument,
               options->old_nav + ": " + (old->links ? "carries jump links" : "has no jump links") +
                   " and " +
                   (old->ledges ? "ledge links or ladders" : "no ledge links or ladders") +
                   ", but " + side_path.string() +
                   (side ? " says " + std::string(side_jumps ? "with" : "without") +
                               " jump links and " + (side_ledges ? "with" : "without") +
                               " ledge links or ladders"
                         : " is missing (the cache was written without link data)") +
                   "; build again with --cache and the same link options"));
         }
         if (side && side->navmesh_hash != cache->navmesh_hash) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    side_path.string() + ": written for another navmesh than " +
                                        cache_name + "; build again with --cache"));
         }
         if (!same_stored_config(old->navmesh.config, cache->config)) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    cache_name + ": written with configuration '" +
                                        cache->config.name + "', " + options->old_nav +
                                        " with another ('" + old->navmesh.config.name + "')"));
         }
         BuildContext ctx;
         configure_context(ctx, opt);
         // the stitch pieces and the tiles' hash parts are derived data, not in the file: made
         // once per load (the parts from the old navmesh, whose hash they give)
         Clock::time_point at = Clock::now();
         if (Status prepared = mesh::prepare_stitch_pieces(*cache, ctx); !prepared.ok())
           return report(std::move(prepared).error());
         const double pieces_ms = ms_since(at);
         at = Clock::now();
         // the hash parts saved with the cache belong to the .lnav written beside it: taken when
         // the old file ends in that checksum, else made from the old navmesh (which must then
         // hash to the cache's navmesh hash)
         const bool parts_from_cache = cache->nav_file_checksum != 0 &&
                                       cache->nav_file_checksum == old_checksum &&
                                       cache->hash_parts.size() == cache->tiles.size() &&
                                       cache->tile_areas.size() == cache->tiles.size();
         std::uint64_t old_hash = cache->navmesh_hash;
         if (!parts_from_cache) {
           cache->hash_parts.clear();
           cache->tile_areas.clear();
           auto hashed = mesh::prepare_tile_hashes(*cache, old->navmesh, ctx);
           if (!hashed) return report(hashed.error());
           old_hash = *hashed;
         }
         const double hashes_ms = ms_since(at);
         if (old_hash != cache->navmesh_hash) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    cache_name + ": written for another navmesh (hash " +
                                        hash_to_hex(cache->navmesh_hash) + ") than " +
                                        options->old_nav + " (hash " + hash_to_hex(old_hash) +
                                        "); build again with --cache"));
         }
         std::optional<jump::TileLinksCache> link_cache;
         if (side_jumps) {
           auto made = jump::tile_links_cache_from_set(old->navmesh, cache->layout, *old->links,
                                                       side->links);
           if (!made)
             return report(
                 make_error(made.error().code, options->old_nav + ": " + made.error().message));
           link_cache = std::move(made).value();
         }
         old->links.reset();
         if (options->tile_size >= 0 && options->tile_size != cache->layout.tile_size) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    cache_name + ": built with tiles of " +
                                        std::to_string(cache->layout.tile_size) + " cells, not " +
                                        std::to_string(options->tile_size)));
         }
         if (!options->config.empty()) {
           auto config = io::resolve_config(options->config, limit);
           if (!config) return report(config.error());
           if (!(*config == cache->config)) {
             return report(make_error(ErrorCode::InvalidArgument,
                                      cache_name + ": built with configuration '" +
                                          cache->config.name + "', which differs from " +
                                          options->config));
           }
         }
         auto mesh = load_scene_arg(opt);
         if (!mesh) return report(mesh.error());
         const double load_ms = ms_since(start) - pieces_ms - hashes_ms;
         mesh::RebuildStats rs;
         at = Clock::now();
         // note: processor time beside the wall times, for measurements on a loaded machine
         std::clock_t cpu_at = std::clock();
         const std::vector<std::uint64_t> old_fingerprints = cache->fingerprints;
         // note: the cache is saved only after everything succeeded, so an error leaves the
         // file as it was
         // note: the old navmesh's arrays take the result (a splice in place)
         auto out = mesh::rebuild_tiled_navmesh(
             *mesh, *cache, *box, ctx, &rs,
             {.check_outside = options->check_outside, .previous = &old->navmesh});
         if (!out) return report(out.error());
         const double rebuild_ms = ms_since(at);
         const double rebuild_cpu_ms = cpu_ms_since(cpu_at);
         io::NavFile file{std::move(out->navmesh), std::nullopt};
         jump::LinkRebuildStats ls;
         double links_ms = 0.0;
         if (side_ledges) {
           at = Clock::now();
           auto ledges = ledges_and_ladders(file.navmesh, *mesh, side->ledge_links, side->authored,
                                            side_path.string(), ctx);
           if (!ledges) return report(ledges.error());
           file.ledges = std::move(ledges).value();
           links_ms += ms_since(at);
         }
         double links_cpu_ms = 0.0;
         if (link_cache) {
           at = Clock::now();
           cpu_at = std::clock();
           // the tiles the box touches and those whose input changed (every tile when the
           // layout changed: then the link rebuild relinks all by itself); the fingerprints alone
           // would do for correctness, the box makes the relinked set the one the user named
           std::vector<std::size_t> changed_tiles;
           if (!rs.layout_changed && old_fingerprints.size() == cache->fingerprints.size()) {
             changed_tiles = mesh::tiles_touching(out->layout, *box);
             for (std::size_t t = 0; t < old_fingerprints.size(); ++t) {
               if (old_fingerprints[t] != cache->fingerprints[t]) changed_tiles.push_back(t);
             }
           }
           auto links =
               jump::rebuild_tiled_jump_links(*mesh, file.navmesh, out->layout, changed_tiles,
                                              *link_cache, ctx, &ls, &rs.tiles_restitched);
           if (!links) return report(links.error());
           file.links = std::move(links->set);
           links_ms += ms_since(at);
           links_cpu_ms = cpu_ms_since(cpu_at);
         }
         at = Clock::now();
         auto saved = io::save_nav_file_sized(file, options->output);
         if (!saved) return report(saved.error());
         cache->nav_file_checksum = saved->checksum;
         const double write_ms = ms_since(at);
         at = Clock::now();
         if (auto s = io::save_tile_cache(*cache, options->cache); !s) return report(s.error());
         if (side) {
           side->navmesh_hash = cache->navmesh_hash;
           if (auto s = save_sidecar(*side, side_path); !s) return report(s.error());
         }
         const double cache_write_ms = ms_since(at);
         const std::string hash = hash_to_hex(cache->navmesh_hash);
         std::ostream& summary = summary_stream(opt.stats_path);
         summary << opt.scene << ": rebuilt " << rs.tiles_rebuilt << " of " << rs.tiles
                 << " tiles (" << rs.tiles_reused << " reused"
                 << (rs.layout_changed ? "; the world grid changed" : "") << "), "
                 << out->stats.polygons << " polygons";
         if (file.links) {
           summary << ", " << file.links->links.size() << " jump links (" << ls.tiles_relinked
                   << " tiles relinked, " << ls.tiles_reused << " reused)";
         }
         if (file.ledges) summary << ", " << file.ledges->links.size() << " ledge links";
         summary << ", hash " << hash << " -> " << options->output << '\n';
         if (!opt.stats_path.empty()) {
           nlohmann::json stats;
           stats["scene"] = opt.scene;
           stats["config"] = cache->config.name;
           stats["threads"] = opt.threads;
           stats["tile_size"] = cache->layout.tile_size;
           stats["tiles"] = rs.tiles;
           stats["tiles_rebuilt"] = rs.tiles_rebuilt;
           stats["tiles_reused"] = rs.tiles_reused;
           stats["hash_parts_from_cache"] = parts_from_cache;
           stats["tiles_outside_changed"] = rs.tiles_outside_changed;
           stats["tiles_listed"] = rs.tiles_listed;
           stats["layout_changed"] = rs.layout_changed;
           stats["polygons"] = out->stats.polygons;
           stats["vertices"] = out->stats.vertices;
           stats["regions"] = out->stats.regions;
           stats["portal_edges"] = out->stitch.portal_edges;
           stats["pieces_stitched"] = rs.pieces_stitched;
           stats["pieces_linked"] = rs.pieces_linked;
           stats["tiles_rehashed"] = rs.tiles_rehashed;
           stats["spliced_in_place"] = rs.spliced_in_place;
           stats["hash"] = hash;
           if (file.links) {
             stats["jump_links"] = file.links->links.size();
             stats["tiles_relinked"] = ls.tiles_relinked;
             stats["tiles_links_reused"] = ls.tiles_reused;
             stats["tiles_polygons_changed"] = ls.tiles_polygons_changed;
             stats["tiles_links_changed"] = ls.tiles_links_changed;
             nlohmann::json relinked = nlohmann::json::array();
             for (const jump::RelinkedTile& r : ls.relinked) {
               nlohmann::json tile;
               tile["tile"] = mesh::tile_name(out->layout, r.tile);
               tile["reason"] =
                   r.reason == jump::RelinkedTile::Reason::rebuilt ? "rebuilt" : "polygons";
               tile["cpu_ms"] = r.cpu_ms;
               tile["wall_ms"] = r.wall_ms;
               tile["links"] = r.links;
               tile["links_changed"] = r.links_changed;
               nlohmann::json stages;
               for (const auto& [stage, ms] : r.stages) stages[stage] = ms;
               tile["stages_ms"] = stages;
               relinked.push_back(tile);
             }
             stats["relinked_tiles"] = relinked;
           }
           if (file.ledges) stats["ledge_links"] = file.ledges->links.size();
           nlohmann::json times;
           times["load"] = load_ms;
           times["assign"] = rs.assign_ms;
           times["check"] = rs.check_ms;
           times["scan"] = rs.scan_ms;
           times["fingerprints"] = rs.fingerprint_ms;
           times["tiles"] = rs.tiles_ms;
           times["tile_stages"] = rs.tile_stage_ms;
           times["pieces_load"] = pieces_ms;
           times["hash_load"] = hashes_ms;
           times["stitch"] = rs.stitch_ms;
           times["stitch_pieces"] = rs.pieces_ms;
           times["splice"] = rs.splice_ms;
           times["validate"] = rs.validate_ms;
           times["hash"] = rs.hash_ms;
           times["rebuild"] = rebuild_ms;
           times["links"] = links_ms;
           times["rebuild_cpu"] = rebuild_cpu_ms;
           times["links_cpu"] = links_cpu_ms;
           times["write"] = write_ms;
           times["cache_write"] = cache_write_ms;
           times["total"] = ms_since(start);
           stats["times_ms"] = times;
           stats["timings_ms"] = timings_json(ctx);
           stats["warnings"] = ctx.warnings();
           if (auto s = write_json(opt.stats_path, stats); !s) return report(s.error());
         }
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
