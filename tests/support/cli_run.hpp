// Runs the built `leapnav` command as a user would, for the tests of the command line.
#pragma once

#include <string>

namespace leapnav::test {

/// The exit code of one run of the command and what it printed.
struct CliRun {
  int exit_code = -1;  ///< -1 when the command did not exit normally (a signal)
  std::string output;  ///< stdout, and stderr too when merged
};

/// What becomes of the command's stderr.
enum class Stderr { Merge, Discard };

/// Runs `leapnav <args>` through the shell (args are not quoted: the tests' paths have no spaces).
/// Fails the current test when the command cannot be started. Only where the command was built
/// (LEAPNAV_CLI_PATH).
CliRun run_cli(const std::string& args, Stderr stderr_output = Stderr::Merge);

/// `name` in the folder `folder` of the system's temporary directory (the folder is created).
std::string temp_file(const std::string& folder, const std::string& name);

/// The bytes of the file at `path` ("" when it cannot be read).
std::string read_file(const std::string& path);

}  // namespace leapnav::test
