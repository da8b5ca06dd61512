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
    double max_memory_mib = 0.0;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand(
      "scene", "Export a built-in scene as OBJ (`leapnav scene demo -o demo.obj`), or --list them");
  app->add_option(
      "name", options->name,
      "Scene: demo, city:N (N x N blocks, 1..256), terrain:N (N x N rolling-hill tiles, 1..256), "
      "jump scenes gap:W, rise:D, drop:D, ceiling:H, wall:H (metres), pillar");
  app->add_option("--output,-o", options->output, "OBJ file to write");
  app->add_flag("--list", options->list, "List the built-in scenes")
      ->excludes("--output")
      ->excludes("name");
  add_max_memory_option(*app, options->max_memory_mib);
  registry.push_back(
      {app, [options]() -> int {
         if (options->list) {
           // note: the forms, as builtin:<form> takes them ("gap" alone is refused)
           for (const auto& form : io::builtin_scene_forms()) std::cout << form << '\n';
           return kExitOk;
         }
         if (options->name.empty() || options->output.empty()) {
           std::cerr << "leapnav scene: give a scene name and -o <file.obj>, or --list\n";
           return kExitUsage;
         }
         // note: the OBJ text is built whole; a vertex line takes at most about
         // 4 times its 12 bytes, a face line 3 times: 5 times the mesh bounds both
         BuildContext budget;
         budget.set_memory_limit(memory_limit_bytes(options->max_memory_mib));
         if (Status fits = budget.check_memory(options->name + " and its OBJ text",
                                               5 * io::builtin_scene_bytes(options->name));
             !fits.ok())
           return report(fits.error());
         auto mesh = io::builtin_scene(options->name);
         if (!mesh) return report(mesh.error());
         if (auto status = io::write_obj(*mesh, options->output); !status)
           return report(status.error());
         std::cout << "scene " << options->name << ": " << mesh->vertices.size() << " vertices, "
                   << mesh->triangles.size() << " triangles -> " << options->output << '\n';
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
