// `leapnav fly`: shortest paths for a flying point agent on a voxel grid (grid3d), from a scene
// (voxelized at --voxel metres; points in world coordinates) or a MovingAI .3dmap (points in voxel
// coordinates). One query (--from/--to), a batch (--queries, one JSON line per query) or a
// .3dscen scenario file (--scen, compared with its optimal costs, which hold under nocut).
#include <charconv>
#include <chrono>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "common.hpp"
#include "leapnav/grid3d/convert.hpp"
#include "leapnav/grid3d/search.hpp"
#include "query_input.hpp"

namespace leapnav::cli {
namespace {

struct FlyOptions {
  std::string input;
  std::string from;
  std::string to;
  std::string algo = "jps-pd";
  std::string corners;  // empty: cut, or nocut with --scen
  int depth = 32;
  bool depth_all = false;  // the default; kept so that scripts naming it still run
  bool depth_top = false;
  double voxel = 0.25;
  std::string agent;
  std::string queries;
  std::string scen;
  std::string up = "y";
  bool json = false;
  double max_memory_mib = 0.0;                   // 0 = the default limit
  std::vector<std::string> depth_options_given;  // --depth, --depth-all, --depth-top as given
};

bool is_map(const std::string& input) {
  return input.size() >= 6 && input.compare(input.size() - 6, 6, ".3dmap") == 0;
}

struct World {
  grid3d::OccupancyGrid grid;
  bool voxel_coordinates = false;  // .3dmap: points are voxel indices
};

Result<World> load_world(const FlyOptions& options) {
  World world;
  if (is_map(options.input)) {
    LEAPNAV_TRY_ASSIGN(
        world.grid, grid3d::read_3dmap(options.input, input_limit_bytes(options.max_memory_mib)));
    world.voxel_coordinates = true;
  } else {
    BuildOptions build;
    build.scene = options.input;
    build.up = options.up;
    build.max_memory_mib = options.max_memory_mib;
    LEAPNAV_TRY_ASSIGN(const TriangleMesh mesh, load_scene_arg(build));
    BuildContext ctx;
    ctx.set_memory_limit(memory_limit_bytes(options.max_memory_mib));
    LEAPNAV_TRY_ASSIGN(world.grid,
                       grid3d::voxelize_scene(mesh, static_cast<float>(options.voxel), ctx));
  }
  if (!options.agent.empty()) {
    int r[3] = {0, 0, 0};
    std::size_t pos = 0;
    bool ok = true;
    for (int i = 0; i < 3 && ok; ++i) {
      const std::size_t end = i < 2 ? options.agent.find(',', pos) : options.agent.size();
      ok = end != std::string::npos;
      if (!ok) break;
      const auto [ptr, ec] =
          std::from_chars(options.agent.data() + pos, options.agent.data() + end, r[i]);
      ok = ec == std::errc() && ptr == options.agent.data() + end && end > pos;
      pos = end + 1;
    }
    if (!ok) {
      return make_error(ErrorCode::InvalidArgument,
                        "--agent: '" + options.agent + "' is not rx,ry,rz (voxels)");
    }
    LEAPNAV_TRY_ASSIGN(world.grid, grid3d::dilate(world.grid, {r[0], r[1], r[2]}));
  }
  return world;
}

// A query point: voxel indices for a .3dmap (integers), else a world position.
Result<grid3d::VoxelCoord> to_voxel(const World& world, Vec3 p, std::string_view what) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
    return make_error(ErrorCode::NonFinite, std::string(what) + " is not finite");
  }
  if (world.voxel_coordinates) {
    if (p.x != std::floor(p.x) || p.y != std::floor(p.y) || p.z != std::floor(p.z) ||
        std::abs(p.x) > 1e9F || std::abs(p.y) > 1e9F || std::abs(p.z) > 1e9F) {
      return make_error(ErrorCode::InvalidArgument,
                        std::string(what) + " must be integer voxel coordinates on a .3dmap");
    }
    return grid3d::VoxelCoord{static_cast<int>(p.x), static_cast<int>(p.y), static_cast<int>(p.z)};
  }
  return world.grid.voxel_at(p);
}

nlohmann::json point_json(const World& world, grid3d::VoxelCoord v) {
  if (world.voxel_coordinates) return nlohmann::json::array({v.x, v.y, v.z});
  const Vec3 c = world.grid.center(v);
  return nlohmann::json::array({c.x, c.y, c.z});
}

nlohmann::json path_json(const World& world, const grid3d::FlyPath& path, double ms) {
  nlohmann::json j;
  j["status"] = std::string(grid3d::to_string(path.status));
  j["cost"] = path.cost;
  if (!world.voxel_coordinates) j["length_m"] = path.cost * world.grid.voxel_size;
  j["expanded"] = path.expanded;
  j["touched"] = path.touched;
  j["ms"] = ms;
  j["points"] = nlohmann::json::array();
  for (const grid3d::VoxelCoord v : path.points) j["points"].push_back(point_json(world, v));
  return j;
}

struct Timed {
  grid3d::FlyPath path;
  double ms = 0.0;
};

Result<Timed> timed_query(grid3d::FlyPlanner& planner, grid3d::VoxelCoord s, grid3d::VoxelCoord t,
                          const grid3d::SearchConfig& config) {
  const auto t0 = std::chrono::steady_clock::now();
  LEAPNAV_TRY_ASSIGN(grid3d::FlyPath path, planner.find_path(s, t, config));
  const auto t1 = std::chrono::steady_clock::now();
  return Timed{std::move(path), std::chrono::duration<double, std::milli>(t1 - t0).count()};
}

int run_fly(const FlyOptions& options) {
  const int modes = (!options.from.empty() || !options.to.empty() ? 1 : 0) +
                    (options.queries.empty() ? 0 : 1) + (options.scen.empty() ? 0 : 1);
  if (modes != 1 || (!options.from.empty() && options.to.empty()) ||
      (options.from.empty() && !options.to.empty())) {
    std::cerr << "leapnav fly: give --from and --to, or --queries FILE, or --scen FILE\n"
                 "Run with --help for more information.\n";
    return kExitUsage;
  }
  auto algorithm = grid3d::parse_algorithm(options.algo);
  if (!algorithm) return report(algorithm.error());
  // note: astar, jps and jps-p have no depth limit; a depth option would be silently ignored
  if (*algorithm != grid3d::Algorithm::JpsD && *algorithm != grid3d::Algorithm::JpsPD &&
      !options.depth_options_given.empty()) {
    std::cerr << "leapnav fly: " << options.depth_options_given.front()
              << " applies to jps-d and jps-pd only, not to --algo " << options.algo << '\n';
    return kExitUsage;
  }
  grid3d::SearchConfig config;
  config.algorithm = *algorithm;
  config.depth = options.depth;
  config.depth_includes_sub_sweeps = !options.depth_top;
  const std::string corners =
      options.corners.empty() ? (options.scen.empty() ? "cut" : "nocut") : options.corners;
  auto rule = grid3d::parse_corner_rule(corners);
  if (!rule) return report(rule.error());
  config.corners = *rule;
  if (auto s = grid3d::validate(config); !s) return report(s.error());
  if (!options.scen.empty() && config.corners == grid3d::CornerRule::Cut) {
    std::cerr << "leapnav: warning: a .3dscen's optimal costs hold under --corners nocut\n";
  }
  auto world = load_world(options);
  if (!world) return report(world.error());
  grid3d::FlyPlanner planner(world->grid);

  if (!options.from.empty()) {
    auto from = parse_point(options.from, "--from");
    auto to = parse_point(options.to, "--to");
    if (!from || !to) {
      std::cerr << "leapnav: error: " << (!from ? from.error().message : to.error().message)
                << "\nRun with --help for more information.\n";
      return kExitUsage;
    }
    auto s = to_voxel(*world, *from, "--from");
    if (!s) return report(s.error());
    auto t = to_voxel(*world, *to, "--to");
    if (!t) return report(t.error());
    auto r = timed_query(planner, *s, *t, config);
    if (!r) return report(r.error());
    if (options.json) {
      nlohmann::json j = path_json(*world, r->path, r->ms);
      j["algo"] = options.algo;
      j["corners"] = corners;
      std::cout << j.dump() << '\n';
    } else {
      std::cout << grid3d::to_string(r->path.status) << ": cost " << r->path.cost << " voxels";
      if (!world->voxel_coordinates) {
        std::cout << " (" << r->path.cost * world->grid.voxel_size << " m)";
      }
      std::cout << ", " << r->path.points.size() << " points, " << r->path.expanded << " expanded, "
                << r->path.touched << " voxels touched, " << r->ms << " ms (" << options.algo
                << ", " << corners << ", grid " << world->grid.width << " x " << world->grid.height
                << " x " << world->grid.depth << ")\n";
    }
    return kExitOk;
  }

  if (!options.queries.empty()) {
    // note: the queries are read as a stream with bounded lines (as `paths` reads them), so a
    // pipe or device without line ends is refused instead of read whole
    auto reader = QueryReader::open(options.queries);
    if (!reader) return report(reader.error());
    std::vector<plan::PathRequest> batch;
    std::uint64_t found = 0;
    std::uint64_t total = 0;
    for (;;) {
      if (auto status = reader->next_batch(batch, 1); !status) return report(status.error());
      if (batch.empty()) break;
      const Vec3 from = batch.front().start;
      const Vec3 to = batch.front().goal;
      nlohmann::json j;
      auto s = to_voxel(*world, from, "start");
      auto t = to_voxel(*world, to, "goal");
      if (!s || !t) {
        j = {{"status", "invalid_input"}, {"error", (!s ? s.error() : t.error()).message}};
      } else {
        auto r = timed_query(planner, *s, *t, config);
        if (!r) return report(r.error());
        found += r->path.status == grid3d::FlyStatus::Found ? 1 : 0;
        j = path_json(*world, r->path, r->ms);
      }
      ++total;
      std::cout << j.dump() << '\n';
    }
    std::cerr << "leapnav fly: " << total << " queries, " << found << " found\n";
    return kExitOk;
  }

  auto scenario = grid3d::read_3dscen(options.scen, input_limit_bytes(options.max_memory_mib));
  if (!scenario) return report(scenario.error());
  double worst = 0.0;
  std::uint64_t differ = 0;
  std::uint64_t missing = 0;
  double total_ms = 0.0;
  for (const grid3d::ScenarioEntry& e : scenario->entries) {
    auto r = timed_query(planner, e.start, e.goal, config);
    if (!r) return report(r.error());
    total_ms += r->ms;
    const bool found = r->path.status == grid3d::FlyStatus::Found;
    const double diff = found ? r->path.cost - e.cost : 0.0;
    missing += found ? 0 : 1;
    worst = std::max(worst, std::abs(diff));
    // note: .3dscen files print costs with a few decimals; 1e-3 separates rounding from error.
    differ += found && std::abs(diff) > 1e-3 ? 1 : 0;
    if (options.json) {
      nlohmann::json j = path_json(*world, r->path, r->ms);
      j["line"] = e.line;
      j["optimal"] = e.cost;
      j["difference"] = diff;
      std::cout << j.dump() << '\n';
    }
  }
  std::cout << options.scen << ": " << scenario->entries.size() << " queries, " << missing
            << " without a path, " << differ << " differing from the optimal cost by more than "
            << "1e-3, largest difference " << worst << ", " << total_ms << " ms in total ("
            << options.algo << ", " << corners << ")\n";
  return kExitOk;
}

}  // namespace

void register_fly_command(CLI::App& root, Registry& registry) {
  auto options = std::make_shared<FlyOptions>();
  CLI::App* app = root.add_subcommand(
      "fly", "Shortest paths for a flying agent on a voxel grid (A* or 3-D Jump Point Search)");
  app->add_option("input", options->input,
                  "A scene (OBJ or builtin:NAME, voxelized at --voxel) or a MovingAI .3dmap")
      ->required();
  app->add_option("--from", options->from,
                  "Start x,y,z: world coordinates for a scene, voxel indices for a .3dmap");
  app->add_option("--to", options->to, "Goal x,y,z (as --from)");
  app->add_option("--queries", options->queries,
                  "A file of queries 'sx sy sz tx ty tz' per line; prints one JSON line each");
  app->add_option("--scen", options->scen,
                  "A MovingAI .3dscen file for the .3dmap: compares with its optimal costs");
  app->add_option("--algo", options->algo, "astar, jps, jps-p, jps-d or jps-pd (default)");
  app->add_option("--depth", options->depth,
                  "Depth limit K of jps-d and jps-pd (default 32) [units: steps]")
      ->check(CLI::Range(1, 1000000));
  auto* depth_all = app->add_flag("--depth-all", options->depth_all,
                                  "jps-d, jps-pd: sub-sweeps spend the same budget of K steps as "
                                  "the top-level jump (the thesis's counter; the default)");
  app->add_flag("--depth-top", options->depth_top,
                "jps-d, jps-pd: only the top-level jump spends the budget, sub-sweeps run free "
                "(spec C1-O2 as written; slower than A* in open space)")
      ->excludes(depth_all);
  app->add_option("--corners", options->corners,
                  "cut (a diagonal move needs its target free; default) or nocut (every voxel of "
                  "the move's box free; the default with --scen)");
  app->add_option("--voxel", options->voxel, "Voxel size for a scene [units: m] (default 0.25)")
      ->check(CLI::Range(0.001, 100.0));
  app->add_option("--agent", options->agent,
                  "Agent box half extents rx,ry,rz [units: voxels]: plan in configuration space");
  app->add_option("--up", options->up, "Up axis of an OBJ scene: y or z")
      ->check(CLI::IsMember({"y", "z"}));
  app->add_flag("--json", options->json, "Print the path as JSON");
  add_max_memory_option(*app, options->max_memory_mib);
  registry.push_back({app, [options, app]() -> int {
                        // note: options a voxel map does not read are usage errors rather
                        // than silently ignored
                        for (const char* name : {"--voxel", "--up"}) {
                          if (is_map(options->input) && app->count(name) != 0) {
                            std::cerr << "leapnav fly: " << name
                                      << " applies to a scene only, not to the voxel map "
                                      << options->input << '\n';
                            return kExitUsage;
                          }
                        }
                        options->depth_options_given.clear();
                        for (const char* name : {"--depth", "--depth-all", "--depth-top"}) {
                          if (app->count(name) != 0)
                            options->depth_options_given.emplace_back(name);
                        }
                        return run_fly(*options);
                      }});
}

}  // namespace leapnav::cli
