// `leapnav sample`, `leapnav path` and `leapnav paths`: random points and path queries on a saved
// navmesh, over its jump links when the file has them. Paths print as JSON: {"status", "length",
// "segments": [{"kind": "walk", "points"[, "posture": "crouch"]} | {"kind": "jump", "points":
// [start, landing], "h", "d", "link"}], "polygons"}; a jump's "link" is the link's index in
// `leapnav export`'s "links". Ledge and ladder crossings are segments of two points with kind
// "step_up", "step_down", "jump_up", "drop", "ladder" (or "walk" for a crossing between floors at
// one height) and a "link" index into the planner's merged link set (docs/ledge_links.md).
#include <charconv>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

#include "common.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/text_format.hpp"
#include "leapnav/planning/ledge_planner.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/sample.hpp"
#include "query_input.hpp"

namespace leapnav::cli {

Result<Vec3> parse_point(std::string_view text, std::string_view what) {
  Vec3 p;
  float* fields[3] = {&p.x, &p.y, &p.z};
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t end = i < 2 ? text.find(',', pos) : text.size();
    if (end == std::string_view::npos) break;
    const std::string_view field = text.substr(pos, end - pos);
    const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), *fields[i]);
    if (ec == std::errc::result_out_of_range && ptr == field.data() + field.size()) {
      return make_error(ErrorCode::NonFinite, std::string(what) + ": '" + std::string(text) +
                                                  "': " + std::string(field) +
                                                  " is out of a float's range");
    }
    if (ec != std::errc() || ptr != field.data() + field.size() || field.empty()) break;
    if (i == 2) return p;
    pos = end + 1;
  }
  return make_error(ErrorCode::InvalidArgument,
                    std::string(what) + ": '" + std::string(text) + "' is not a point x,y,z");
}

void add_jump_query_options(CLI::App& app, JumpQueryOptions& options) {
  app.add_option("--jump-cost", options.jump_cost,
                 "Extra cost of a jump in the global search [units: m] (default " +
                     std::to_string(plan::kDefaultJumpCost).substr(0, 3) +
                     ": a jump must save that much walking)")
      ->check(check_finite)
      ->check(CLI::Range(0.0, 1.0e6));
  app.add_flag("--no-jumps", options.no_jumps, "Walk only, even when the file has jump links");
  app.add_flag("--no-ledge-links", options.no_ledge_links,
               "Plan without ledge and ladder links, even when the file has them");
  app.add_flag("--no-crouch", options.no_crouch,
               "Never enter crouch polygons (built with agent.crouch_height)");
  app.add_option("--crouch-cost", options.crouch_cost,
                 "Cost multiplier of walking across crouch polygons (default 1)")
      ->check(check_finite)
      ->check(CLI::Range(1.0e-6, 1.0e6));
}

void query_options_need_from(CLI::App& app) {
  for (const char* name :
       {"--jump-cost", "--no-jumps", "--no-ledge-links", "--no-crouch", "--crouch-cost"}) {
    app.get_option(name)->needs("--from");
  }
}

plan::QueryOptions query_options(const JumpQueryOptions& options) {
  plan::QueryOptions q;
  q.jumps = !options.no_jumps;
  q.ledge_links = !options.no_ledge_links;
  if (options.jump_cost >= 0.0) q.jump_cost = static_cast<float>(options.jump_cost);
  q.crouch = !options.no_crouch;
  q.crouch_cost = static_cast<float>(options.crouch_cost);
  return q;
}

Result<plan::Planner> planner_for(const io::NavFile& nav) {
  return plan::create_planner(std::make_shared<const mesh::NavMesh>(nav.navmesh),
                              nav.links ? &*nav.links : nullptr,
                              nav.ledges ? &*nav.ledges : nullptr);
}

/// Floats as `leapnav export` writes them (a jump's start is then textually equal to its
/// exported link's start).
double json_float(float value) {
  return io::json_number(value);
}

nlohmann::json point_json(Vec3 p) {
  return nlohmann::json::array({json_float(p.x), json_float(p.y), json_float(p.z)});
}

nlohmann::json path_json(const plan::Path& path) {
  nlohmann::json j;
  j["status"] = std::string(plan::to_string(path.status));
  j["length"] = path.length;
  j["segments"] = nlohmann::json::array();
  for (const plan::PathSegment& s : path.segments) {
    nlohmann::json seg;
    seg["kind"] = std::string(plan::to_string(s.kind));
    seg["points"] = nlohmann::json::array();
    for (std::uint32_t i = s.first; i <= s.last; ++i)
      seg["points"].push_back(point_json(path.points[i]));
    if (s.kind == plan::SegmentKind::Walk && s.posture == plan::Posture::Crouch)
      seg["posture"] = "crouch";
    if (s.kind == plan::SegmentKind::Jump) {
      seg["h"] = json_float(s.jump_height);
      seg["d"] = json_float(s.jump_distance);
    }
    if (s.link != plan::kNoLink) seg["link"] = s.link;
    j["segments"].push_back(seg);
  }
  j["polygons"] = nlohmann::json::array();
  for (const mesh::PolyId p : path.corridor) j["polygons"].push_back(mesh::index(p));
  // note: only when tiles are unloaded, so other outputs stay as they were
  if (path.blocked_by_unloaded_tiles) j["blocked_by_unloaded_tiles"] = true;
  if (path.unloaded_tile != plan::kNoTile) j["unloaded_tile"] = path.unloaded_tile;
  return j;
}

void register_path_commands(CLI::App& root, Registry& registry) {
  struct SampleOptions {
    std::string file;
    std::size_t count = 10;
    std::uint64_t seed = 1;
    double max_memory_mib = 0.0;
  };
  auto sample = std::make_shared<SampleOptions>();
  CLI::App* sample_app = root.add_subcommand(
      "sample", "Random points on a navmesh, area-weighted and seeded: one 'x y z' per line");
  sample_app->add_option("file", sample->file, "Navmesh file (.lnav)")->required();
  sample_app->add_option("--count,-n", sample->count, "How many points")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  sample_app->add_option("--seed", sample->seed, "Random seed [range: 0..2^64-1]")
      ->capture_default_str()
      ->check(check_unsigned);
  add_max_memory_option(*sample_app, sample->max_memory_mib);
  registry.push_back({sample_app, [sample]() -> int {
                        auto navmesh = io::load_navmesh(sample->file, io::LinkPolicy::Drop,
                                                        input_limit_bytes(sample->max_memory_mib));
                        if (!navmesh) return report(navmesh.error());
                        // note: the points and their text (about 40 bytes a line) are held
                        // whole; estimated before they are made
                        BuildContext ctx;
                        ctx.set_memory_limit(memory_limit_bytes(sample->max_memory_mib));
                        if (Status fits = ctx.check_memory(
                                "sample: " + std::to_string(sample->count) + " points",
                                std::uint64_t{sample->count} * (sizeof(plan::MeshPoint) + 48));
                            !fits.ok())
                          return report(fits.error());
                        std::ostringstream out;
                        out << std::setprecision(9);
                        const auto points =
                            plan::random_points(*navmesh, sample->count, sample->seed);
                        for (const auto& mp : points)
                          out << mp.point.x << ' ' << mp.point.y << ' ' << mp.point.z << '\n';
                        std::cout << out.str();
                        // note: an empty navmesh is a result (exit 0), but no points for a count
                        // asked is said
                        if (points.size() < sample->count) {
                          std::cerr << "leapnav: warning: " << sample->file
                                    << ": the navmesh has no area, so no points\n";
                        }
                        return kExitOk;
                      }});

  struct PathOptions {
    std::string file;
    std::string from;
    std::string to;
    bool json = false;
    double max_memory_mib = 0.0;
    JumpQueryOptions jumps;
    std::vector<std::uint32_t> unload_tiles;
  };
  auto path = std::make_shared<PathOptions>();
  CLI::App* path_app = root.add_subcommand("path", "Plan a path between two points on a navmesh");
  path_app->add_option("file", path->file, "Navmesh file (.lnav)")->required();
  path_app->add_option("--from", path->from, "Start point x,y,z [units: m]")->required();
  path_app->add_option("--to", path->to, "Goal point x,y,z [units: m]")->required();
  path_app->add_flag("--json", path->json, "Print the path as JSON");
  path_app
      ->add_option("--unload-tiles", path->unload_tiles,
                   "Tiles (indices of a tiled build) to unload before the query: i,j,...")
      ->delimiter(',');
  add_jump_query_options(*path_app, path->jumps);
  add_max_memory_option(*path_app, path->max_memory_mib);
  registry.push_back(
      {path_app, [path]() -> int {
         auto start = parse_point(path->from, "--from");
         if (!start) {
           std::cerr << "leapnav path: " << start.error().message << '\n';
           return kExitUsage;
         }
         auto goal = parse_point(path->to, "--to");
         if (!goal) {
           std::cerr << "leapnav path: " << goal.error().message << '\n';
           return kExitUsage;
         }
         auto nav = io::load_nav_file(path->file, input_limit_bytes(path->max_memory_mib));
         if (!nav) return report(nav.error());
         auto planner = planner_for(*nav);
         if (!planner) return report(planner.error());
         for (const std::uint32_t t : path->unload_tiles) {
           if (Status s = planner->unload_tile(t); !s.ok())
             return report(make_error(s.error().code, path->file + ": " + s.error().message));
         }
         plan::NavQuery query(*planner);
         auto result = query.find_path(*start, *goal, query_options(path->jumps));
         if (!result) return report(result.error());
         if (path->json) {
           std::cout << path_json(*result).dump() << '\n';
         } else {
           std::cout << plan::to_string(result->status) << ": length " << result->length << " m, "
                     << result->points.size() << " points, " << result->corridor.size()
                     << " polygons, " << result->jump_count << " jumps\n";
           if (result->unloaded_tile != plan::kNoTile) {
             std::cout << "  start or goal in unloaded tile " << result->unloaded_tile << '\n';
           } else if (result->blocked_by_unloaded_tiles) {
             std::cout << "  blocked by unloaded tiles\n";
           }
           for (const plan::PathSegment& seg : result->segments) {
             if (seg.kind == plan::SegmentKind::Jump) {
               std::cout << "  jump (link " << seg.link << ", h " << seg.jump_height << " m, d "
                         << seg.jump_distance << " m)\n";
             } else if (seg.link != plan::kNoLink) {
               std::cout << "  " << plan::to_string(seg.kind) << " (link " << seg.link << ")\n";
             } else if (seg.posture == plan::Posture::Crouch) {
               std::cout << "  crouch\n";
             }
             for (std::uint32_t i = seg.first; i <= seg.last; ++i) {
               if (i == seg.first && &seg != &result->segments.front()) continue;
               const Vec3 p = result->points[i];
               std::cout << "  " << p.x << ' ' << p.y << ' ' << p.z << '\n';
             }
           }
         }
         return kExitOk;
       }});

  struct PathsOptions {
    std::string file;
    std::string queries;
    int threads = 0;
    double max_memory_mib = 0.0;
    JumpQueryOptions jumps;
  };
  auto paths = std::make_shared<PathsOptions>();
  CLI::App* paths_app = root.add_subcommand("paths",
                                            "Batch path queries: one 'x1 y1 z1 x2 y2 z2' per line "
                                            "in; one JSON line per query and a summary out");
  paths_app->add_option("file", paths->file, "Navmesh file (.lnav)")->required();
  paths_app->add_option("queries", paths->queries, "Query file (- = stdin)")->required();
  paths_app->add_option("--threads,-j", paths->threads, "Worker threads; 0 = all")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  add_jump_query_options(*paths_app, paths->jumps);
  add_max_memory_option(*paths_app, paths->max_memory_mib);
  registry.push_back(
      {paths_app, [paths]() -> int {
         auto nav = io::load_nav_file(paths->file, input_limit_bytes(paths->max_memory_mib));
         if (!nav) return report(nav.error());
         auto reader = QueryReader::open(paths->queries);
         if (!reader) return report(reader.error());
         auto planner = planner_for(*nav);
         if (!planner) return report(planner.error());
         // note: queries are read, answered and printed a batch at a time, so memory stays
         // bounded for any number of queries; an error stops at its line, after the answers to
         // the lines before it.
         constexpr std::size_t kBatch = 4096;
         std::vector<plan::PathRequest> requests;
         std::map<std::string, std::size_t> counts;
         std::size_t queries = 0;
         std::size_t with_jumps = 0;
         double ms = 0.0;
         for (;;) {
           if (Status read = reader->next_batch(requests, kBatch); !read.ok()) {
             std::cout.flush();
             return report(read.error());
           }
           if (requests.empty()) break;
           const auto start = std::chrono::steady_clock::now();
           const auto results =
               plan::find_paths(*planner, requests, query_options(paths->jumps), paths->threads);
           const auto end = std::chrono::steady_clock::now();
           ms += std::chrono::duration<double, std::milli>(end - start).count();
           queries += requests.size();
           std::string out;
           for (const auto& r : results) {
             if (r.ok()) {
               out += path_json(*r).dump();
               ++counts[std::string(plan::to_string(r->status))];
               if (r->jump_count > 0) ++with_jumps;
             } else {
               out +=
                   nlohmann::json{{"status", "invalid_input"}, {"error", r.error().message}}.dump();
               ++counts["invalid_input"];
             }
             out += '\n';
           }
           std::cout << out;
         }
         nlohmann::json summary{
             {"summary", true},
             {"queries", queries},
             {"counts", counts},
             {"with_jumps", with_jumps},
             {"total_ms", ms},
             {"us_per_query", queries == 0 ? 0.0 : 1000.0 * ms / static_cast<double>(queries)},
             {"threads", paths->threads == 0 ? hardware_threads() : paths->threads}};
         std::cout << summary.dump() << '\n';
         std::cout.flush();
         if (!std::cout) return report(make_error(ErrorCode::IoError, "stdout: write failed"));
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
