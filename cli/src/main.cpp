// The leapnav command: one top-level handler; each subcommand parses, calls the library and maps
// errors to the documented exit codes (0 ok, 1 bad input, 2 usage, 3 internal error).
#include <exception>
#include <iostream>
#include <string>

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
  register_pack_command(app, registry);
  // note: CLI11 reports an unknown first word as "A subcommand is required", which does not name
  // it; a word that is neither an option nor a command is named here
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    bool known = false;
    for (const Command& command : registry) known = known || command.app->check_name(word);
    if (!known) {
      std::cerr << "leapnav: '" << word << "' is not a command (see leapnav --help)\n";
      return kExitUsage;
    }
  }
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
