// `leapnav scene`: list the built-in scenes or export one as OBJ.
#include <iostream>

#include "common.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"

namespace leapnav::cli {

void register_scene_commands(CLI::App& root, Registry& registry) {
  struct Options {
    std::string name;
    std::string output;
    bool list = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand(
      "scene", "Export a built-in scene as OBJ (`leapnav scene demo -o demo.obj`), or --list them");
  app->add_option(
      "name", options->name,
      "Scene: demo, city:N (N x N blocks, 1..256), terrain:N (N x N rolling-hill tiles, 1..256), "
      "jump scenes gap:W, rise:D, drop:D, ceiling:H, wall:H (metres), pillar");
  app->add_option("--output,-o", options->output, "OBJ file to write");
  app->add_flag("--list", options->list, "List the built-in scenes");
  registry.push_back({app, [options]() -> int {
                        if (options->list) {
                          for (const auto& name : io::builtin_scene_names())
                            std::cout << name << '\n';
                          return kExitOk;
                        }
                        if (options->name.empty() || options->output.empty()) {
                          std::cerr
                              << "leapnav scene: give a scene name and -o <file.obj>, or --list\n";
                          return kExitUsage;
                        }
                        auto mesh = io::builtin_scene(options->name);
                        if (!mesh) return report(mesh.error());
                        if (auto status = io::write_obj(*mesh, options->output); !status)
                          return report(status.error());
                        std::cout << "scene " << options->name << ": " << mesh->vertices.size()
                                  << " vertices, " << mesh->triangles.size() << " triangles -> "
                                  << options->output << '\n';
                        return kExitOk;
                      }});
}

}  // namespace leapnav::cli
