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
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::cli {
namespace {

nlohmann::json info_json(const mesh::NavMesh& navmesh, const std::string& file) {
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
    j["bounds"] = {{bounds.min.x, bounds.min.y, bounds.min.z}, {bounds.max.x, bounds.max.y, bounds.max.z}};
  }
  j["config"] = nlohmann::json::parse(io::config_to_json(navmesh.config));
  j["hash"] = hash_to_hex(mesh::content_hash(navmesh));
  const Status valid = mesh::validate(navmesh);
  j["valid"] = valid.ok();
  if (!valid.ok()) j["validation_error"] = valid.error().message;
  return j;
}

}  // namespace

void register_navmesh_commands(CLI::App& root, Registry& registry) {
  struct InfoOptions {
    std::string file;
    bool json = false;
  };
  auto info = std::make_shared<InfoOptions>();
  CLI::App* info_app = root.add_subcommand("info", "Counts, configuration, bounds and validation of a navmesh file");
  info_app->add_option("file", info->file, "Navmesh file (.lnav)")->required();
  info_app->add_flag("--json", info->json, "Print JSON");
  registry.push_back({info_app, [info]() -> int {
                        auto navmesh = io::load_navmesh(info->file);
                        if (!navmesh) return report(navmesh.error());
                        const nlohmann::json j = info_json(*navmesh, info->file);
                        if (info->json) {
                          std::cout << j.dump(2) << '\n';
                        } else {
                          std::cout << info->file << ": " << j["polygons"] << " polygons, "
                                    << j["vertices"] << " vertices, " << j["regions"] << " regions, area "
                                    << j["navmesh_area"].get<double>() << " m2\n"
                                    << "  config " << navmesh->config.name << ": cell "
                                    << navmesh->config.voxel.cell_size << " x "
                                    << navmesh->config.voxel.cell_height << " m, agent height "
                                    << navmesh->config.agent.height << " m, radius "
                                    << navmesh->config.agent.radius << " m, climb "
                                    << navmesh->config.agent.max_climb << " m, slope "
                                    << navmesh->config.agent.max_slope_deg << " deg\n";
                          if (j.contains("bounds")) std::cout << "  bounds " << j["bounds"].dump() << '\n';
                          std::cout << "  hash " << j["hash"].get<std::string>() << "\n  validation: "
                                    << (j["valid"].get<bool>() ? std::string("ok")
                                                               : j["validation_error"].get<std::string>())
                                    << '\n';
                        }
                        return j["valid"].get<bool>() ? kExitOk : kExitInternal;
                      }});

  struct ExportOptions {
    std::string file;
    std::string output;
  };
  auto exp = std::make_shared<ExportOptions>();
  CLI::App* export_app = root.add_subcommand("export", "Export a navmesh as JSON or OBJ (by the output's extension)");
  export_app->add_option("file", exp->file, "Navmesh file (.lnav)")->required();
  export_app->add_option("--output,-o", exp->output, "Output: .json or .obj")->required();
  registry.push_back({export_app, [exp]() -> int {
                        auto navmesh = io::load_navmesh(exp->file);
                        if (!navmesh) return report(navmesh.error());
                        const std::string ext = std::filesystem::path(exp->output).extension().string();
                        std::string text;
                        if (ext == ".json") text = io::export_navmesh_json(*navmesh);
                        else if (ext == ".obj") text = io::export_navmesh_obj(*navmesh);
                        else {
                          std::cerr << "leapnav export: the output must end in .json or .obj\n";
                          return kExitUsage;
                        }
                        if (auto s = write_text(exp->output, text); !s) return report(s.error());
                        return kExitOk;
                      }});

  struct RenderCliOptions {
    std::string file;
    std::string output;
    std::string fill = "region";
    bool png = false;
    int size = 1024;
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
  render_app->add_flag("--png", render->png, "Also write a PNG next to the SVG (needs rsvg-convert)");
  registry.push_back({render_app, [render]() -> int {
                        auto navmesh = io::load_navmesh(render->file);
                        if (!navmesh) return report(navmesh.error());
                        io::RenderOptions options;
                        options.fill = render->fill == "height" ? io::FillMode::Height : io::FillMode::Region;
                        options.max_size_px = render->size;
                        options.title = std::filesystem::path(render->file).filename().string();
                        if (auto s = write_text(render->output, io::render_svg(*navmesh, options)); !s)
                          return report(s.error());
                        if (render->png) return write_png(render->output);
                        return kExitOk;
                      }});
}

}  // namespace leapnav::cli
