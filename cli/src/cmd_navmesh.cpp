// `leapnav info`, `leapnav export` and `leapnav render`: look at a saved navmesh.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "common.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/export.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/render.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/query.hpp"

namespace leapnav::cli {
namespace {

nlohmann::json info_json(const io::NavFile& nav, const std::string& file) {
  const mesh::NavMesh& navmesh = nav.navmesh;
  AABB bounds;
  for (const Vec3& v : navmesh.vertices) bounds.extend(v);
  double area = 0.0;
  for (std::uint32_t p = 0; p < navmesh.polygon_count(); ++p)
    area += mesh::polygon_area(navmesh, mesh::PolyId{p});
  nlohmann::json j;
  j["file"] = file;
  j["polygons"] = navmesh.polygon_count();
  j["vertices"] = navmesh.vertices.size();
  std::uint32_t max_region = 0;
  for (const auto r : navmesh.poly_region) max_region = std::max<std::uint32_t>(max_region, r);
  j["regions"] = max_region;
  j["navmesh_area"] = area;
  j["grid"] = {navmesh.grid.width, navmesh.grid.depth};
  if (!bounds.empty()) {
    j["bounds"] = {{bounds.min.x, bounds.min.y, bounds.min.z},
                   {bounds.max.x, bounds.max.y, bounds.max.z}};
  }
  j["config"] = nlohmann::json::parse(io::config_to_json(navmesh.config));
  j["hash"] = hash_to_hex(mesh::content_hash(navmesh));
  Status valid = mesh::validate(navmesh);
  if (nav.links) {
    j["jump_links"] = nav.links->links.size();
    // note: as in the build's stats: the bytes the links add to the file, and apart from them
    // the bytes they take in memory
    j["jump_bytes"] = io::jump_link_file_bytes(*nav.links);
    j["jump_memory_bytes"] = nav.links->memory_bytes();
    nlohmann::json configs = nlohmann::json::array();
    for (const auto& c : nav.links->configs)
      configs.push_back({{"h", c.height}, {"d", c.distance}, {"max_fall", c.max_fall}});
    j["jump_configs"] = configs;
    j["jump_hash"] = hash_to_hex(jump::content_hash(*nav.links));
    if (valid.ok()) valid = jump::validate(*nav.links, navmesh);
  }
  if (nav.ledges) {
    nlohmann::json kinds = nlohmann::json::object();
    for (const ledge::LedgeLink& l : nav.ledges->links) {
      const std::string kind(ledge::to_string(l.kind));
      kinds[kind] = kinds.value(kind, 0) + 1;
    }
    j["ledge_links"] = nav.ledges->links.size();
    j["ledge_kinds"] = kinds;
    j["ledge_hash"] = hash_to_hex(ledge::content_hash(*nav.ledges));
    if (valid.ok()) valid = ledge::validate(*nav.ledges, navmesh);
  }
  j["valid"] = valid.ok();
  if (!valid.ok()) j["validation_error"] = valid.error().message;
  return j;
}

}  // namespace

void add_path_overlays(const mesh::NavMesh& navmesh, const plan::Path& path,
                       io::RenderOptions& options) {
  io::Overlay corridor;
  corridor.kind = io::OverlayKind::Polyline;
  corridor.color = "#1f77b4";
  corridor.width = 1.5F;
  corridor.opacity = 0.8F;
  corridor.dashed = true;
  for (const mesh::PolyId p : path.corridor) {
    io::Overlay outline = corridor;
    for (const std::uint32_t v : navmesh.polygon(p)) outline.points.push_back(navmesh.vertices[v]);
    if (!outline.points.empty()) outline.points.push_back(outline.points.front());
    if (&p == &path.corridor.front()) outline.label = "corridor";
    options.overlays.push_back(std::move(outline));
  }
  for (const plan::PathSegment& s : path.segments) {
    io::Overlay line;
    const bool crossing = s.link != plan::kNoLink && s.kind != plan::SegmentKind::Jump;
    line.kind =
        s.kind == plan::SegmentKind::Jump ? io::OverlayKind::Arcs : io::OverlayKind::Polyline;
    line.width = 3.0F;
    line.label = std::string(plan::to_string(s.kind));
    switch (s.kind) {
      case plan::SegmentKind::Walk:
        line.color = crossing ? io::ledge_kind_color(ledge::LedgeKind::Walk) : "#d62728";
        if (crossing) line.label = "walk (ledge link)";
        break;
      case plan::SegmentKind::Jump:
        line.color = "#e377c2";
        break;
      case plan::SegmentKind::StepUp:
        line.color = io::ledge_kind_color(ledge::LedgeKind::StepUp);
        break;
      case plan::SegmentKind::StepDown:
        line.color = io::ledge_kind_color(ledge::LedgeKind::StepDown);
        break;
      case plan::SegmentKind::JumpUp:
        line.color = io::ledge_kind_color(ledge::LedgeKind::JumpUp);
        break;
      case plan::SegmentKind::Drop:
        line.color = io::ledge_kind_color(ledge::LedgeKind::Drop);
        break;
      case plan::SegmentKind::Ladder:
        line.color = io::ledge_kind_color(ledge::LedgeKind::Ladder);
        break;
    }
    for (std::uint32_t i = s.first; i <= s.last; ++i) line.points.push_back(path.points[i]);
    options.overlays.push_back(std::move(line));
  }
  io::Overlay corners;
  corners.kind = io::OverlayKind::Points;
  corners.color = "#000000";
  corners.radius = 3.5F;
  corners.points = path.points;
  corners.label = "path corners";
  options.overlays.push_back(std::move(corners));
}

void register_navmesh_commands(CLI::App& root, Registry& registry) {
  struct InfoOptions {
    std::string file;
    double max_memory_mib = 0.0;
    bool json = false;
  };
  auto info = std::make_shared<InfoOptions>();
  CLI::App* info_app =
      root.add_subcommand("info", "Counts, configuration, bounds and validation of a navmesh file");
  info_app->add_option("file", info->file, "Navmesh file (.lnav)")->required();
  info_app->add_flag("--json", info->json, "Print JSON");
  add_max_memory_option(*info_app, info->max_memory_mib);
  registry.push_back(
      {info_app, [info]() -> int {
         auto nav = io::load_nav_file(info->file, input_limit_bytes(info->max_memory_mib));
         if (!nav) return report(nav.error());
         const mesh::NavMesh* navmesh = &nav->navmesh;
         const nlohmann::json j = info_json(*nav, info->file);
         if (info->json) {
           std::cout << j.dump(2) << '\n';
         } else {
           std::cout << info->file << ": " << j["polygons"] << " polygons, " << j["vertices"]
                     << " vertices, " << j["regions"] << " regions, area "
                     << j["navmesh_area"].get<double>() << " m2\n"
                     << "  config " << navmesh->config.name << ": cell "
                     << navmesh->config.voxel.cell_size << " x "
                     << navmesh->config.voxel.cell_height << " m, agent height "
                     << navmesh->config.agent.height << " m, radius "
                     << navmesh->config.agent.radius << " m, climb "
                     << navmesh->config.agent.max_climb << " m, slope "
                     << navmesh->config.agent.max_slope_deg << " deg\n";
           if (j.contains("bounds")) std::cout << "  bounds " << j["bounds"].dump() << '\n';
           if (nav->ledges) {
             std::cout << "  ledge links " << nav->ledges->links.size() << ' '
                       << j["ledge_kinds"].dump() << '\n';
           }
           if (nav->links) {
             std::cout << "  jump links " << nav->links->links.size() << " ("
                       << j["jump_bytes"].get<std::uint64_t>() << " bytes in the file, "
                       << j["jump_memory_bytes"].get<std::uint64_t>()
                       << " in memory), configurations " << j["jump_configs"].dump() << '\n';
           }
           std::cout << "  hash " << j["hash"].get<std::string>() << "\n  validation: "
                     << (j["valid"].get<bool>() ? std::string("ok")
                                                : j["validation_error"].get<std::string>())
                     << '\n';
         }
         return j["valid"].get<bool>() ? kExitOk : kExitInternal;
       }});

  struct ExportOptions {
    std::string file;
    double max_memory_mib = 0.0;
    std::string output;
    bool links = false;
    GltfCliOptions gltf;
  };
  auto exp = std::make_shared<ExportOptions>();
  CLI::App* export_app = root.add_subcommand(
      "export", "Export a navmesh as JSON, OBJ or binary glTF (by the output's extension)");
  export_app
      ->add_option("file", exp->file,
                   "Navmesh file (.lnav); its jump links are included (.glb: with --links)")
      ->required();
  export_app->add_option("--output,-o", exp->output, "Output: .json, .obj or .glb")->required();
  export_app->add_flag("--links", exp->links, "glTF: draw the file's jump links as arcs");
  add_gltf_options(*export_app, exp->gltf);
  export_app->get_option("--max-links")->needs("--links");
  add_max_memory_option(*export_app, exp->max_memory_mib);
  registry.push_back(
      {export_app, [exp, export_app]() -> int {
         const std::string ext = std::filesystem::path(exp->output).extension().string();
         // note: the glTF options draw into the .glb only; given with a .json or .obj output they
         // would be silently ignored
         if (ext == ".json" || ext == ".obj") {
           for (const char* name :
                {"--links", "--scene", "--up", "--fill", "--from", "--to", "--max-links",
                 "--jump-cost", "--no-jumps", "--no-ledge-links", "--no-crouch", "--crouch-cost"}) {
             if (export_app->count(name) != 0) {
               std::cerr << "leapnav export: " << name << " applies to a .glb output only, not "
                         << exp->output << '\n';
               return kExitUsage;
             }
           }
         }
         auto nav = io::load_nav_file(exp->file, input_limit_bytes(exp->max_memory_mib));
         if (!nav) return report(nav.error());
         const jump::JumpLinkSet* links = nav->links ? &*nav->links : nullptr;
         std::string text;
         if (ext == ".json") {
           text = io::export_navmesh_json(nav->navmesh, links);
         } else if (ext == ".obj") {
           text = io::export_navmesh_obj(nav->navmesh, links);
         } else if (ext == ".glb") {
           if (exp->links && !nav->links) {
             return report(
                 make_error(ErrorCode::InvalidArgument, exp->file + ": has no jump links (build it "
                                                                    "with --jump)"));
           }
           if (const int usage = check_gltf_points(exp->gltf); usage != kExitOk) return usage;
           auto glb = make_glb(*nav, exp->gltf, exp->links, exp->max_memory_mib);
           if (!glb) return report(glb.error());
           text = std::move(*glb);
         } else {
           std::cerr << "leapnav export: the output must end in .json, .obj or .glb\n";
           return kExitUsage;
         }
         if (auto s = write_text(exp->output, text); !s) return report(s.error());
         return kExitOk;
       }});

  struct RenderCliOptions {
    std::string file;
    double max_memory_mib = 0.0;
    std::string output;
    std::string fill = "region";
    bool png = false;
    int size = 1024;
    std::string from;
    std::string to;
    bool links = false;
    std::size_t max_links = 400;
    JumpQueryOptions jumps;
  };
  auto render = std::make_shared<RenderCliOptions>();
  CLI::App* render_app = root.add_subcommand("render", "Draw a navmesh top-down as SVG (and PNG)");
  render_app->add_option("file", render->file, "Navmesh file (.lnav)")->required();
  render_app->add_option("--output,-o", render->output, "SVG file to write")->required();
  render_app->add_option("--fill", render->fill, "Colour polygons by region or height")
      ->check(CLI::IsMember({"region", "height"}))
      ->capture_default_str();
  render_app->add_option("--size", render->size, "Longer side of the picture [units: px]")
      ->check(CLI::Range(64, 16384))
      ->capture_default_str();
  render_app->add_flag("--png", render->png,
                       "Also write a PNG next to the SVG (needs rsvg-convert)");
  render_app->add_option("--from", render->from, "Draw the path from this point x,y,z [units: m]");
  render_app->add_option("--to", render->to, "... to this point x,y,z (with --from)");
  add_jump_query_options(*render_app, render->jumps);
  render_app->add_flag("--links", render->links,
                       "Draw the file's jump links (start points, land segments, arcs) and ledge "
                       "links (source segment and crossing, one colour per kind)");
  render_app
      ->add_option("--max-links", render->max_links,
                   "Most jump links drawn (evenly subsampled); 0 = all")
      ->capture_default_str()
      ->check(check_unsigned)
      ->needs("--links");
  query_options_need_from(*render_app);
  add_max_memory_option(*render_app, render->max_memory_mib);
  registry.push_back(
      {render_app, [render]() -> int {
         if (std::filesystem::path(render->output).extension() == ".png") {
           std::cerr << "leapnav render: -o " << render->output
                     << ": the output is SVG; give -o <file.svg> --png for a PNG beside it\n";
           return kExitUsage;
         }
         auto nav = io::load_nav_file(render->file, input_limit_bytes(render->max_memory_mib));
         if (!nav) return report(nav.error());
         const mesh::NavMesh* navmesh = &nav->navmesh;
         io::RenderOptions options;
         if (render->links) {
           if (!nav->links && !nav->ledges) {
             return report(make_error(ErrorCode::InvalidArgument,
                                      render->file + ": has no jump or ledge links (build it with "
                                                     "--jump or --ledge-links)"));
           }
           if (nav->links) {
             io::JumpLinkOverlayOptions link_options;
             link_options.max_links = render->max_links;
             options.overlays = io::jump_link_overlays(*nav->links, link_options);
           }
           if (nav->ledges) {
             for (io::Overlay& o : io::ledge_link_overlays(*nav->ledges))
               options.overlays.push_back(std::move(o));
           }
         }
         options.fill = render->fill == "height" ? io::FillMode::Height : io::FillMode::Region;
         options.max_size_px = render->size;
         options.title = std::filesystem::path(render->file).filename().string();
         if (!render->from.empty() || !render->to.empty()) {
           auto start = parse_point(render->from, "--from");
           auto goal = parse_point(render->to, "--to");
           if (!start || !goal) {
             std::cerr << "leapnav render: "
                       << (start ? goal.error().message : start.error().message)
                       << " (--from and --to take x,y,z points)\n";
             return kExitUsage;
           }
           auto planner = planner_for(*nav);
           if (!planner) return report(planner.error());
           plan::NavQuery query(*planner);
           auto path = query.find_path(*start, *goal, query_options(render->jumps));
           if (!path) return report(path.error());
           add_path_overlays(*navmesh, *path, options);
           std::cout << "path: " << plan::to_string(path->status) << ", length " << path->length
                     << " m, " << path->jump_count << " jumps\n";
         }
         if (auto s = write_text(render->output, io::render_svg(*navmesh, options)); !s)
           return report(s.error());
         if (render->png) return write_png(render->output);
         return kExitOk;
       }});
}

void register_check_links_command(CLI::App& root, Registry& registry) {
  struct Options {
    std::string file;
    double max_memory_mib = 0.0;
    std::string scene;
    std::string up = "y";
    bool json = false;
    int threads = 0;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand(
      "check-links",
      "Check every jump link of a navmesh file exactly against the scene's triangles: the agent's "
      "cylinder swept along fitted arcs to points of each land segment, and its standing pose at "
      "the landing; exit 1 when any link fails (after the report), 0 when all pass");
  app->add_option("file", opt->file, "Navmesh file with jump links (.lnav)")->required();
  app->add_option("scene", opt->scene, "The scene it was built from (OBJ or builtin:...)")
      ->required();
  app->add_option("--up", opt->up, "Up axis of the OBJ input: y or z")
      ->check(CLI::IsMember({"y", "z"}))
      ->capture_default_str();
  app->add_option("--threads,-j", opt->threads, "Worker threads; 0 = all")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  app->add_flag("--json", opt->json, "Print the report as JSON");
  add_max_memory_option(*app, opt->max_memory_mib);
  registry.push_back(
      {app, [opt]() -> int {
         auto nav = io::load_nav_file(opt->file, input_limit_bytes(opt->max_memory_mib));
         if (!nav) return report(nav.error());
         if (!nav->links) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    opt->file + ": has no jump links (build it with --jump)"));
         }
         io::ObjOptions obj;
         obj.up = opt->up == "z" ? io::UpAxis::Z : io::UpAxis::Y;
         obj.max_bytes = input_limit_bytes(opt->max_memory_mib);
         auto scene = load_scene_within(opt->scene, obj, memory_limit_bytes(opt->max_memory_mib));
         if (!scene) return report(scene.error());
         // note: another scene is refused before the check, which would otherwise sweep every
         // link through unrelated triangles (minutes on a large file) or pass links that have no
         // triangles near them
         if (Status s = mesh::check_built_from(nav->navmesh, *scene); !s.ok())
           return report(make_error(s.error().code, opt->file + ": " + s.error().message +
                                                        " (give the scene and --up it was built "
                                                        "with)"));
         jump::LinkCheckOptions check;
         check.threads = opt->threads;
         const auto r =
             jump::check_links(*nav->links, *scene, nav->navmesh, nav->navmesh.config.agent, check);
         nlohmann::json j{
             {"links_checked", r.links_checked},       {"links_failed", r.links_failed},
             {"regions_examined", r.regions_examined}, {"collision_failures", r.collision_failures},
             {"landing_failures", r.landing_failures}, {"worst_penetration", r.worst_penetration},
             {"failed_links", r.failed_links}};
         if (opt->json) {
           std::cout << j.dump(2) << '\n';
         } else {
           std::cout << opt->file << ": " << r.links_checked << " links checked ("
                     << r.regions_examined << " regions), " << r.links_failed << " failing ("
                     << r.collision_failures << " collisions, " << r.landing_failures
                     << " landings), worst penetration " << r.worst_penetration << " m\n";
         }
         if (r.links_failed > 0) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    opt->file + ": " + std::to_string(r.links_failed) + " of " +
                                        std::to_string(r.links_checked) +
                                        " jump links fail the exact check against " + opt->scene));
         }
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
