// The leapnav command: one top-level handler; each subcommand parses, calls the library and maps
// errors to the documented exit codes (0 ok, 1 bad input, 2 usage, 3 internal error).
#include <exception>
#include <iostream>

#include "common.hpp"

int main(int argc, char** argv) {
  using namespace leapnav::cli;
  CLI::App app{
      "leapnav: navigation meshes with jump links.\n"
      "Exit codes: 0 ok, 1 bad input (file, configuration, query), 2 usage, 3 internal error."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "leapnav 0.1.0");
  Registry registry;
  register_scene_commands(app, registry);
  register_voxelize_command(app, registry);
  register_build_command(app, registry);
  register_rebuild_command(app, registry);
  register_navmesh_commands(app, registry);
  register_path_commands(app, registry);
  register_check_links_command(app, registry);
  register_view_command(app, registry);
  register_platformer_command(app, registry);
  register_fly_command(app, registry);
  register_config_command(app, registry);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  try {
    for (const Command& command : registry) {
      if (command.app->parsed()) return command.run();
    }
  } catch (const std::bad_alloc&) {
    std::cerr << "leapnav: error: out of memory [memory_limit]\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "leapnav: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
  return kExitUsage;
}
