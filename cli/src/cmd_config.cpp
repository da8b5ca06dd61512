// `leapnav config`: print a build configuration (named or from a JSON file) as the JSON that
// --config reads, or list the named configurations.
#include <iostream>
#include <memory>
#include <string>

#include "common.hpp"
#include "leapnav/io/config_file.hpp"

namespace leapnav::cli {

void register_config_command(CLI::App& root, Registry& registry) {
  struct Options {
    std::string show;
    std::string output;
    bool list = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* app = root.add_subcommand(
      "config",
      "Print a build configuration as the JSON --config reads (`leapnav config --show default`), "
      "or --list the named ones");
  app->add_option("--show", options->show,
                  "Configuration to print: default, thesis, or a JSON file (printed complete, "
                  "every field)");
  app->add_option("--output,-o", options->output, "Write the JSON to this file instead of stdout");
  app->add_flag("--list", options->list, "List the named configurations")
      ->excludes("--show")
      ->excludes("--output");
  registry.push_back({app, [options]() -> int {
                        if (options->list) {
                          for (const auto name : named_config_names()) std::cout << name << '\n';
                          return kExitOk;
                        }
                        if (options->show.empty()) {
                          std::cerr << "leapnav config: give --show <name|file.json>, or --list\n";
                          return kExitUsage;
                        }
                        auto config = io::resolve_config(options->show);
                        if (!config) return report(config.error());
                        const std::string json = io::config_to_json(*config);
                        if (options->output.empty()) {
                          std::cout << json;
                          if (json.empty() || json.back() != '\n') std::cout << '\n';
                          return kExitOk;
                        }
                        if (auto status = write_text(options->output, json); !status)
                          return report(status.error());
                        return kExitOk;
                      }});
}

}  // namespace leapnav::cli
