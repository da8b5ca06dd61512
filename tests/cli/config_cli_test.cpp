// `leapnav config`: a configuration printed as the JSON --config reads, and every command named in
// a help text exists. Runs the built executable as a user would.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "leapnav/core/config.hpp"
#include "leapnav/io/config_file.hpp"

#ifdef LEAPNAV_CLI_PATH

namespace {

using Run = leapnav::test::CliRun;

Run run_cli(const std::string& args) {
  return leapnav::test::run_cli(args, leapnav::test::Stderr::Discard);
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || c == '-';
}

// The word of name characters starting at `at` in `text`.
std::string word_at(const std::string& text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return text.substr(at, end - at);
}

// The subcommands listed by `leapnav --help` (lines "  name  description" after "Subcommands:").
// note: plain string scanning; std::regex trips a false -Wmaybe-uninitialized in g++ 12 at -O1
std::set<std::string> subcommands() {
  const Run help = run_cli("--help");
  REQUIRE(help.exit_code == 0);
  const auto at = help.output.find("Subcommands:");
  REQUIRE(at != std::string::npos);
  std::set<std::string> names;
  for (std::size_t line = help.output.find('\n', at); line != std::string::npos;
       line = help.output.find('\n', line + 1)) {
    if (help.output.compare(line + 1, 2, "  ") != 0) continue;
    const std::string name = word_at(help.output, line + 3);
    if (!name.empty() && help.output.compare(line + 3 + name.size(), 1, " ") == 0)
      names.insert(name);
  }
  return names;
}

// The command words after every "`leapnav " in `text`.
std::set<std::string> named_commands(const std::string& text) {
  std::set<std::string> out;
  const std::string mark = "`leapnav ";
  for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at + 1)) {
    const std::string name = word_at(text, at + mark.size());
    if (!name.empty()) out.insert(name);
  }
  return out;
}

}  // namespace

TEST_SUITE("cli.config") {
  TEST_CASE("config --show prints a named configuration as the JSON --config reads") {
    for (const char* name : {"default", "thesis"}) {
      CAPTURE(name);
      const Run r = run_cli(std::string("config --show ") + name);
      REQUIRE(r.exit_code == 0);
      auto parsed = leapnav::io::parse_config_json(r.output, name);
      REQUIRE(parsed.ok());
      CHECK(*parsed == *leapnav::named_config(name));
      CHECK(nlohmann::json::parse(r.output) ==
            nlohmann::json::parse(leapnav::io::config_to_json(*leapnav::named_config(name))));
    }
  }

  TEST_CASE("config --show reads a JSON file and prints it complete; a build takes that file") {
    const auto dir = std::filesystem::temp_directory_path() / "leapnav_config_cli_test";
    std::filesystem::create_directories(dir);
    const auto partial = (dir / "coarse.json").string();
    std::ofstream(partial) << R"({"base": "thesis", "voxel": {"cell_size": 0.5}})";
    const Run r = run_cli("config --show " + partial);
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.output);
    CHECK(json["voxel"]["cell_size"] == 0.5);
    CHECK(json["agent"]["radius"] == nlohmann::json::parse(leapnav::io::config_to_json(
                                         *leapnav::named_config("thesis")))["agent"]["radius"]);
    const auto full = (dir / "full.json").string();
    std::ofstream(full) << r.output;
    CHECK(run_cli("config --show " + full).output == r.output);
    const auto lnav = (dir / "demo.lnav").string();
    CHECK(run_cli("build builtin:demo -c " + full + " -o " + lnav).exit_code == 0);
  }

  TEST_CASE("config --show of an unknown name is bad input; no --show is a usage error") {
    CHECK(run_cli("config --show no_such_config").exit_code == 1);
    CHECK(run_cli("config").exit_code == 2);
    const Run list = run_cli("config --list");
    CHECK(list.exit_code == 0);
    CHECK(list.output == "default\nthesis\n");
  }

  TEST_CASE("every leapnav command a help text names exists") {
    const std::set<std::string> names = subcommands();
    REQUIRE(names.count("build") == 1);
    REQUIRE(names.count("config") == 1);
    for (const std::string& command : names) {
      const Run help = run_cli(command + " --help");
      CAPTURE(command);
      CHECK(help.exit_code == 0);
      for (const std::string& named : named_commands(help.output)) {
        CAPTURE(named);
        CHECK(names.count(named) == 1);
      }
    }
    CHECK(named_commands(run_cli("build --help").output).count("config") == 1);
  }
}

#endif
