#include "support/cli_run.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace leapnav::test {

CliRun run_cli(const std::string& args, Stderr stderr_output) {
  CliRun run;
#ifdef LEAPNAV_CLI_PATH
  const std::string command = std::string(LEAPNAV_CLI_PATH) + " " + args +
                              (stderr_output == Stderr::Merge ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    run.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#else
  (void)args;
  (void)stderr_output;
  FAIL("the leapnav command was not built");
#endif
  return run;
}

std::string temp_file(const std::string& folder, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / folder;
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace leapnav::test
