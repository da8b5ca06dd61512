// Shared pieces of the leapnav command.
#include "common.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include "leapnav/io/area_table.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/file_io.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"

namespace leapnav::cli {
namespace {

// note: a bar only for interactive terminals, and only once a build has run for a second, so
// scripts and quick runs stay quiet.
class ProgressBar {
 public:
  void update(std::string_view stage, double fraction) {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - start_).count() < 1.0) return;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(std::lround(fraction * kWidth));
    std::string bar(static_cast<std::size_t>(std::clamp(filled, 0, kWidth)), '#');
    bar.resize(kWidth, ' ');
    std::fprintf(stderr, "\r%-16.*s [%s] %3d%%", static_cast<int>(stage.size()), stage.data(),
                 bar.c_str(), static_cast<int>(std::lround(fraction * 100.0)));
    shown_ = true;
  }
  ~ProgressBar() {
    if (shown_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool shown_ = false;
};

}  // namespace

int report(const Error& error) {
  std::cerr << "leapnav: error: " << error.message << " [" << to_string(error.code) << "]\n";
  return exit_code(error.code);
}

void add_build_options(CLI::App& app, BuildOptions& options) {
  app.add_option("scene", options.scene,
                 "Input: an OBJ file, or builtin:demo, builtin:city:N (see `leapnav scene --list`)")
      ->required();
  app.add_option("--config,-c", options.config,
                 "Build configuration: default, thesis, or a JSON file (fields as in `leapnav "
                 "config --show default`)")
      ->capture_default_str();
  app.add_option("--up", options.up, "Up axis of the OBJ input: y or z (z-up is converted to y-up)")
      ->check(CLI::IsMember({"y", "z"}))
      ->capture_default_str();
  app.add_option("--threads,-j", options.threads, "Worker threads; 0 = all hardware threads")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  add_max_memory_option(app, options.max_memory_mib);
}

void add_max_memory_option(CLI::App& app, double& max_memory_mib) {
  app.add_option("--max-memory", max_memory_mib,
                 "Refuse work that would allocate more than this, and input files larger than "
                 "half of it [units: MiB]; 0 = half of the machine's memory")
      ->check(check_finite)
      ->check(CLI::Range(0.0, 1e9));
}

std::uint64_t memory_limit_bytes(double max_memory_mib) {
  if (!(max_memory_mib > 0.0)) return BuildContext::default_memory_limit();
  return static_cast<std::uint64_t>(max_memory_mib * 1024.0 * 1024.0);
}

std::uint64_t input_limit_bytes(double max_memory_mib) {
  return io::max_file_bytes(memory_limit_bytes(max_memory_mib));
}

Result<TriangleMesh> load_scene_arg(const BuildOptions& options) {
  io::ObjOptions obj;
  obj.up = options.up == "z" ? io::UpAxis::Z : io::UpAxis::Y;
  obj.max_bytes = input_limit_bytes(options.max_memory_mib);
  if (!options.areas.empty()) {
    if (options.scene.rfind("builtin:", 0) == 0) {
      return make_error(ErrorCode::InvalidArgument, "--areas " + options.areas +
                                                        ": an area table maps the groups and "
                                                        "materials of an OBJ file; " +
                                                        options.scene + " has none");
    }
    LEAPNAV_TRY_ASSIGN(const io::AreaTable table,
                       io::load_area_table(options.areas, obj.max_bytes));
    obj.areas = &table;
    io::ObjStats stats;
    LEAPNAV_TRY_ASSIGN(TriangleMesh mesh, io::load_obj(options.scene, obj, &stats));
    for (const std::string& unused : stats.unused_area_names) {
      std::cerr << "leapnav: warning: " << options.areas << ": " << unused << " does not occur in "
                << options.scene << '\n';
    }
    return mesh;
  }
  return load_scene_within(options.scene, obj, memory_limit_bytes(options.max_memory_mib));
}

std::string check_finite(const std::string& text) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value))
    return "'" + text + "' is not a finite number";
  return {};
}

std::string check_unsigned(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return "'" + text + "' is not a whole number in 0..18446744073709551615";
  return {};
}

Result<TriangleMesh> load_scene_within(const std::string& scene, const io::ObjOptions& obj,
                                       std::uint64_t memory_limit) {
  constexpr std::string_view kPrefix = "builtin:";
  if (scene.rfind(kPrefix, 0) == 0) {
    BuildContext budget;
    budget.set_memory_limit(memory_limit);
    LEAPNAV_TRY(budget.check_memory(
        scene, io::builtin_scene_bytes(std::string_view(scene).substr(kPrefix.size()))));
  }
  return io::load_scene(scene, obj);
}

Result<BuildConfig> load_config_arg(const BuildOptions& options) {
  return io::resolve_config(options.config, input_limit_bytes(options.max_memory_mib));
}

void configure_context(BuildContext& ctx, const BuildOptions& options) {
  ctx.set_threads(options.threads);
  ctx.set_memory_limit(memory_limit_bytes(options.max_memory_mib));
  ctx.set_log_sink([](LogLevel level, std::string_view message) {
    if (level == LogLevel::Info) return;
    std::cerr << "leapnav: " << (level == LogLevel::Warning ? "warning: " : "error: ") << message
              << '\n';
  });
  if (isatty(STDERR_FILENO) != 0) {
    auto bar = std::make_shared<ProgressBar>();
    ctx.set_progress_sink(
        [bar](std::string_view stage, double fraction) { bar->update(stage, fraction); });
  }
}

Status write_text(const std::filesystem::path& path, std::string_view text) {
  return io::write_file_atomic(path, text);
}

std::ostream& summary_stream(const std::string& stats_path) {
  return stats_path == "-" ? std::cerr : std::cout;
}

Status write_json(const std::filesystem::path& path, const nlohmann::json& json) {
  const std::string text = json.dump(2) + "\n";
  if (path == "-") {
    std::cout << text;
    return {};
  }
  return write_text(path, text);
}

int write_png(const std::filesystem::path& svg) {
  std::filesystem::path png = svg;
  png.replace_extension(".png");
  const std::string svg_arg = svg.string();
  const std::string png_arg = png.string();
  // note: rsvg-convert writes the PNG to a pipe and the bytes go through write_file_atomic, so a
  // reader never sees a half-written PNG and a failed conversion leaves the old file as it was.
  int channel[2] = {-1, -1};
  if (::pipe2(channel, O_CLOEXEC) != 0) {
    std::cerr << "leapnav: error: " << png_arg << ": cannot create a pipe [io_error]\n";
    return kExitBadInput;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, channel[1], STDOUT_FILENO);
  // note: spawned directly (no shell), so file names are never interpreted.
  std::vector<char*> argv{const_cast<char*>("rsvg-convert"), const_cast<char*>(svg_arg.c_str()),
                          nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "rsvg-convert", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(channel[1]);
  if (spawned != 0) {
    ::close(channel[0]);
    std::cerr << "leapnav: error: --png needs rsvg-convert (Debian package librsvg2-bin; "
                 "scripts/setup.sh installs it) [io_error]\n";
    return kExitBadInput;
  }
  std::string bytes;
  char chunk[1 << 16];
  bool read_failed = false;
  for (;;) {
    const ssize_t n = ::read(channel[0], chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) read_failed = true;
    if (n <= 0) break;
    bytes.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(channel[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      read_failed) {
    std::cerr << "leapnav: error: rsvg-convert failed to write " << png_arg << " [io_error]\n";
    return kExitBadInput;
  }
  if (auto written = io::write_file_atomic(png, bytes); !written) return report(written.error());
  return kExitOk;
}

nlohmann::json timings_json(const BuildContext& ctx) {
  nlohmann::json timings = nlohmann::json::object();
  for (const auto& [stage, ms] : ctx.timings()) timings[stage] = ms;
  return timings;
}

}  // namespace leapnav::cli
