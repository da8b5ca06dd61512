// Shared pieces of the leapnav command: the command registry, error reporting with exit codes,
// loading scenes and configurations from arguments, the progress bar and JSON output.
#pragma once

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/obj.hpp"

namespace leapnav::cli {

/// Exit codes of the leapnav command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;

/// A subcommand: its parser and what runs when it was chosen.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};
using Registry = std::vector<Command>;

/// Prints "leapnav: error: <message>" to stderr and returns the error's exit code.
int report(const Error& error);

/// A CLI11 check for an unsigned 64-bit option: "" when `text` is one, else the message. CLI11's
/// conversion alone wraps a negative value and saturates one past 2^64 - 1.
[[nodiscard]] std::string check_unsigned(const std::string& text);

/// A CLI11 check for a number option: "" when `text` is a finite number, else the message (a NaN
/// passes CLI11's ranges, since it compares false with both ends).
[[nodiscard]] std::string check_finite(const std::string& text);

/// Options every building command shares.
struct BuildOptions {
  std::string scene;
  std::string config = "default";
  std::string up = "y";
  int threads = 0;
  double max_memory_mib = 0.0;  ///< 0 = the default limit
  std::string stats_path;
  std::string areas;  ///< an area table (JSON) for an OBJ scene; empty: none
};
/// Adds --max-memory [units: MiB] (0 = the default limit) to a subcommand that reads input.
void add_max_memory_option(CLI::App& app, double& max_memory_mib);
/// The memory limit for a --max-memory value (0 = BuildContext::default_memory_limit()).
[[nodiscard]] std::uint64_t memory_limit_bytes(double max_memory_mib);
/// The largest input file a command reads under a --max-memory value (io::max_file_bytes).
[[nodiscard]] std::uint64_t input_limit_bytes(double max_memory_mib);

/// Adds <scene>, --config, --up, --threads, --max-memory to a subcommand.
void add_build_options(CLI::App& app, BuildOptions& options);

/// The scene named by a command argument: "builtin:NAME[:ARGS]" or an OBJ file.
[[nodiscard]] Result<TriangleMesh> load_scene_arg(const BuildOptions& options);
/// io::load_scene, with a generated scene's size (io::builtin_scene_bytes) checked against the
/// memory limit before it is generated.
[[nodiscard]] Result<TriangleMesh> load_scene_within(const std::string& scene,
                                                     const io::ObjOptions& obj,
                                                     std::uint64_t memory_limit);
/// The configuration named by --config: "default", "thesis" or a JSON file.
[[nodiscard]] Result<BuildConfig> load_config_arg(const BuildOptions& options);
/// Applies --threads and --max-memory, and a progress bar on stderr when it is a terminal.
void configure_context(BuildContext& ctx, const BuildOptions& options);

/// Where a command prints its summary line: stdout, or stderr when `stats_path` is "-" (--stats
/// writes its JSON to stdout, which then holds the JSON alone).
[[nodiscard]] std::ostream& summary_stream(const std::string& stats_path);
/// Writes JSON (pretty, trailing newline) to a file, or stdout when the path is "-".
[[nodiscard]] Status write_json(const std::filesystem::path& path, const nlohmann::json& json);
/// Writes text to a file atomically (io::write_file_atomic).
[[nodiscard]] Status write_text(const std::filesystem::path& path, std::string_view text);
/// Per-stage timings as a JSON object {"stage": ms, ...}.
[[nodiscard]] nlohmann::json timings_json(const BuildContext& ctx);

/// Converts an SVG file to a PNG beside it (same name, .png) with rsvg-convert; returns an exit
/// code.
int write_png(const std::filesystem::path& svg);

void register_scene_commands(CLI::App& root, Registry& registry);
void register_voxelize_command(CLI::App& root, Registry& registry);
void register_build_command(CLI::App& root, Registry& registry);
void register_rebuild_command(CLI::App& root, Registry& registry);
void register_navmesh_commands(CLI::App& root, Registry& registry);
void register_path_commands(CLI::App& root, Registry& registry);
void register_check_links_command(CLI::App& root, Registry& registry);
void register_platformer_command(CLI::App& root, Registry& registry);
void register_fly_command(CLI::App& root, Registry& registry);
void register_config_command(CLI::App& root, Registry& registry);
void register_pack_command(CLI::App& root, Registry& registry);

}  // namespace leapnav::cli
namespace leapnav::io {
struct RenderOptions;
struct NavFile;
}  // namespace leapnav::io
namespace leapnav::mesh {
struct NavMesh;
}
namespace leapnav::plan {
struct Path;
struct QueryOptions;
class Planner;
}  // namespace leapnav::plan
namespace leapnav::cli {
/// Draws a path (walk polylines, jump arcs, corners) and its corridor over a navmesh picture.
void add_path_overlays(const mesh::NavMesh& navmesh, const plan::Path& path,
                       io::RenderOptions& options);

/// Parses "x,y,z" (an option's value); the error names the option.
[[nodiscard]] Result<Vec3> parse_point(std::string_view text, std::string_view what);

/// Query options every path-planning command shares: --jump-cost, --no-jumps.
struct JumpQueryOptions {
  double jump_cost = -1.0;  ///< negative: the library default
  bool no_jumps = false;
  bool no_ledge_links = false;
  bool no_crouch = false;
  double crouch_cost = 1.0;
};
/// Adds --jump-cost, --no-jumps, --no-ledge-links, --no-crouch and --crouch-cost to a subcommand.
void add_jump_query_options(CLI::App& app, JumpQueryOptions& options);
/// Where the path is optional (render, export .glb, view): --jump-cost, --no-jumps,
/// --no-ledge-links, --no-crouch and --crouch-cost need --from (a usage error without it rather
/// than ignored). Call after add_jump_query_options and after adding --from.
void query_options_need_from(CLI::App& app);
/// The planner's query options for these command options.
[[nodiscard]] plan::QueryOptions query_options(const JumpQueryOptions& options);
/// A planner over a navmesh file's polygons and, when it has them, its jump links.
[[nodiscard]] Result<plan::Planner> planner_for(const io::NavFile& nav);

/// Options of the glTF output (`export -o x.glb`, `view`): --scene, --up, --fill, --from, --to,
/// --max-links, --jump-cost, --no-jumps.
struct GltfCliOptions {
  std::string scene;
  std::string up = "y";
  std::string fill = "region";
  std::string from;
  std::string to;
  std::size_t max_links = 2000;
  JumpQueryOptions jumps;
};
void add_gltf_options(CLI::App& app, GltfCliOptions& options);
/// kExitOk, or kExitUsage after printing why when --from or --to is not a point x,y,z.
[[nodiscard]] int check_gltf_points(const GltfCliOptions& options);
/// The navmesh file as binary glTF with the level, its links (when `with_links`) and the path;
/// the --scene level is read under --max-memory (`max_memory_mib`) as every command's input is.
[[nodiscard]] Result<std::string> make_glb(const io::NavFile& nav, const GltfCliOptions& options,
                                           bool with_links, double max_memory_mib);
void register_view_command(CLI::App& root, Registry& registry);

}  // namespace leapnav::cli
