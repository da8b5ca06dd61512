// The test main: every LEAPNAV_ASSERT that fires inside a test becomes a test failure (and aborts
// that test case through an exception) instead of killing the whole run.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "leapnav/core/assert.hpp"

namespace {

struct AssertionFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

int main(int argc, char** argv) {
  leapnav::set_assert_handler(
      [](std::string_view expr, std::string_view msg, std::string_view file, int line) {
        const std::string text = std::string(file) + ":" + std::to_string(line) +
                                 ": LEAPNAV_ASSERT failed: " + std::string(expr) + " (" +
                                 std::string(msg) + ")";
        throw AssertionFailure(text);
      });
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  return context.run();
}
