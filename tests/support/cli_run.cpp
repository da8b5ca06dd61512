#include "support/cli_run.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>

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

}  // namespace leapnav::test
