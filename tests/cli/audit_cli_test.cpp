// The leapnav command as a new user meets it: unknown words, options that only mean something with
// another option, and figures the command prints, each with its documented exit code and a message
// that names the input.
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <string>

#ifdef LEAPNAV_CLI_PATH

namespace {

using Run = leapnav::test::CliRun;
using leapnav::test::run_cli;

}  // namespace

TEST_SUITE("cli.audit") {
  TEST_CASE("an unknown command is a usage error naming the word") {
    const Run r = run_cli("bulid builtin:demo -o x.lnav");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("'bulid' is not a command") != std::string::npos);
    CHECK(r.output.find('\n') == r.output.size() - 1);  // one line
    // a command, --help and --version still parse as before
    CHECK(run_cli("--version").exit_code == 0);
    CHECK(run_cli("info --help").exit_code == 0);
    CHECK(run_cli("").exit_code == 2);
  }
}

#endif
