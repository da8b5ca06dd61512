// `leapnav view` and `leapnav export ... -o out.glb`: a navmesh file (with its links, a level and a
// path when asked) as binary glTF, and a self-contained browser viewer folder around it:
// index.html and viewer.js (the bundle built from viewer/ by scripts/viewer.sh), scene.glb, and
// scene.js, which carries the .glb (base64) and the navmesh JSON for inspection and the path tool,
// so the page opens from file:// without any network.
#include <filesystem>
#include <iostream>
#include <system_error>

#include "common.hpp"
#include "leapnav/io/export.hpp"
#include "leapnav/io/gltf.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/planning/query.hpp"

#ifndef LEAPNAV_VIEWER_DIST
#define LEAPNAV_VIEWER_DIST ""
#endif

namespace leapnav::cli {
namespace {

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 3; ++k)
      v = (v << 8) | (k < n ? static_cast<std::uint8_t>(bytes[i + k]) : 0U);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63U] : '=';
  }
  return out;
}

/// The viewer bundle's folder: --viewer-dir, else $LEAPNAV_VIEWER_DIST, else the source tree's
/// viewer/dist (compiled in).
std::filesystem::path viewer_dist(const std::string& option) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("LEAPNAV_VIEWER_DIST"); env != nullptr && *env != '\0')
    return env;
  return LEAPNAV_VIEWER_DIST;
}

}  // namespace

void add_gltf_options(CLI::App& app, GltfCliOptions& options) {
  app.add_option("--scene", options.scene,
                 "glTF: the level the file was built from (OBJ or builtin:...), drawn in grey");
  app.add_option("--up", options.up, "glTF: up axis of the --scene OBJ: y or z")
      ->check(CLI::IsMember({"y", "z"}))
      ->capture_default_str();
  app.add_option("--fill", options.fill, "glTF: colour polygons by region or area")
      ->check(CLI::IsMember({"region", "area"}))
      ->capture_default_str();
  app.add_option("--from", options.from, "glTF: draw the path from this point x,y,z [units: m]");
  app.add_option("--to", options.to, "... to this point x,y,z (with --from)");
  app.add_option("--max-links", options.max_links,
                 "glTF: most jump links drawn (evenly subsampled); 0 = all")
      ->capture_default_str()
      ->check(check_unsigned);
  add_jump_query_options(app, options.jumps);
  query_options_need_from(app);
}

int check_gltf_points(const GltfCliOptions& options) {
  if (options.from.empty() && options.to.empty()) return kExitOk;
  auto start = parse_point(options.from, "--from");
  auto goal = parse_point(options.to, "--to");
  if (start && goal) return kExitOk;
  std::cerr << "leapnav: " << (start ? goal.error().message : start.error().message)
            << " (--from and --to take x,y,z points)\n";
  return kExitUsage;
}

Result<std::string> make_glb(const io::NavFile& nav, const GltfCliOptions& options, bool with_links,
                             double max_memory_mib) {
  io::GltfContent content;
  std::optional<TriangleMesh> level;
  if (!options.scene.empty()) {
    io::ObjOptions obj;
    obj.up = options.up == "z" ? io::UpAxis::Z : io::UpAxis::Y;
    obj.max_bytes = input_limit_bytes(max_memory_mib);
    LEAPNAV_TRY_ASSIGN(level,
                       load_scene_within(options.scene, obj, memory_limit_bytes(max_memory_mib)));
    content.level = &*level;
  }
  if (with_links && nav.links) content.links = &*nav.links;
  std::vector<io::GltfPathSegment> segments;
  if (!options.from.empty() || !options.to.empty()) {
    LEAPNAV_TRY_ASSIGN(const Vec3 start, parse_point(options.from, "--from"));
    LEAPNAV_TRY_ASSIGN(const Vec3 goal, parse_point(options.to, "--to"));
    LEAPNAV_TRY_ASSIGN(const plan::Planner planner, planner_for(nav));
    plan::NavQuery query(planner);
    LEAPNAV_TRY_ASSIGN(const plan::Path path,
                       query.find_path(start, goal, query_options(options.jumps)));
    std::cout << "path: " << plan::to_string(path.status) << ", length " << path.length << " m, "
              << path.jump_count << " jumps\n";
    for (const plan::PathSegment& s : path.segments) {
      io::GltfPathSegment out;
      out.jump = s.kind == plan::SegmentKind::Jump;
      out.jump_height = s.jump_height;
      out.jump_distance = s.jump_distance;
      for (std::uint32_t i = s.first; i <= s.last; ++i) out.points.push_back(path.points[i]);
      segments.push_back(std::move(out));
    }
    content.path = &segments;
  }
  io::GltfOptions gltf;
  gltf.fill = options.fill == "area" ? io::GltfFill::Area : io::GltfFill::Region;
  gltf.max_links = options.max_links;
  return io::export_gltf(nav.navmesh, content, gltf);
}

void register_view_command(CLI::App& root, Registry& registry) {
  struct ViewOptions {
    std::string file;
    std::string output;
    std::string viewer_dir;
    double max_memory_mib = 0.0;
    GltfCliOptions gltf;
  };
  auto opt = std::make_shared<ViewOptions>();
  opt->gltf.max_links = 3000;
  CLI::App* app = root.add_subcommand(
      "view",
      "Write a self-contained 3-D browser viewer of a navmesh file: index.html, viewer.js, "
      "scene.glb and scene.js in one folder (open index.html; no network needed)");
  app->add_option("file", opt->file, "Navmesh file (.lnav); its jump links are shown")->required();
  app->add_option("--output,-o", opt->output,
                  "Folder to write (created; default: the file's name with _view)");
  app->add_option("--viewer-dir", opt->viewer_dir,
                  "Folder with the built viewer (index.html, viewer.js); default "
                  "$LEAPNAV_VIEWER_DIST or the source tree's viewer/dist");
  add_gltf_options(*app, opt->gltf);
  add_max_memory_option(*app, opt->max_memory_mib);
  registry.push_back(
      {app, [opt]() -> int {
         auto nav = io::load_nav_file(opt->file, input_limit_bytes(opt->max_memory_mib));
         if (!nav) return report(nav.error());
         const std::filesystem::path dist = viewer_dist(opt->viewer_dir);
         for (const char* name : {"index.html", "viewer.js"}) {
           if (!std::filesystem::is_regular_file(dist / name)) {
             return report(
                 make_error(ErrorCode::IoError,
                            (dist / name).string() +
                                ": no such file; build the viewer with scripts/viewer.sh "
                                "(npm ci and npm run build in viewer/) or pass --viewer-dir"));
           }
         }
         if (const int usage = check_gltf_points(opt->gltf); usage != kExitOk) return usage;
         auto glb = make_glb(*nav, opt->gltf, true, opt->max_memory_mib);
         if (!glb) return report(glb.error());
         std::filesystem::path out = opt->output;
         if (out.empty()) {
           out = opt->file;
           out.replace_extension();
           out += "_view";
         }
         std::error_code ec;
         std::filesystem::create_directories(out, ec);
         if (ec) {
           return report(
               make_error(ErrorCode::IoError,
                          out.string() + ": cannot create the folder (" + ec.message() + ")"));
         }
         for (const char* name : {"index.html", "viewer.js"}) {
           std::filesystem::copy_file(dist / name, out / name,
                                      std::filesystem::copy_options::overwrite_existing, ec);
           if (ec) {
             return report(
                 make_error(ErrorCode::IoError,
                            (out / name).string() + ": cannot write (" + ec.message() + ")"));
           }
         }
         if (auto s = write_text(out / "scene.glb", *glb); !s) return report(s.error());
         const jump::JumpLinkSet* links = nav->links ? &*nav->links : nullptr;
         nlohmann::json title = std::filesystem::path(opt->file).filename().string();
         std::string js =
             "window.LEAPNAV_DATA = {\"title\": " + title.dump() + ",\n\"jump_cost\": " +
             std::to_string(opt->gltf.jumps.jump_cost >= 0.0 ? opt->gltf.jumps.jump_cost
                                                             : double{plan::kDefaultJumpCost}) +
             ",\n\"glb\": \"" + base64(*glb) +
             "\",\n\"nav\": " + io::export_navmesh_json(nav->navmesh, links) + "};\n";
         if (auto s = write_text(out / "scene.js", js); !s) return report(s.error());
         std::cout << "viewer: " << (out / "index.html").string() << " (" << glb->size()
                   << " bytes of glTF)\n";
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
