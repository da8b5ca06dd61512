// The process-wide assertion handler behind LEAPNAV_ASSERT.
#include "leapnav/core/assert.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>

namespace leapnav {
namespace {

std::mutex& handler_mutex() {
  static std::mutex mutex;
  return mutex;
}

AssertHandler& handler_slot() {
  static AssertHandler handler;
  return handler;
}

}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) {
  const std::lock_guard lock(handler_mutex());
  return std::exchange(handler_slot(), std::move(handler));
}

void assert_failed(std::string_view expr, std::string_view msg, std::string_view file, int line) {
  AssertHandler handler;
  {
    const std::lock_guard lock(handler_mutex());
    handler = handler_slot();
  }
  if (handler) {
    handler(expr, msg, file, line);
    return;
  }
  std::fprintf(stderr, "%.*s:%d: assertion failed: %.*s (%.*s)\n", static_cast<int>(file.size()),
               file.data(), line, static_cast<int>(expr.size()), expr.data(),
               static_cast<int>(msg.size()), msg.data());
  std::abort();
}

}  // namespace leapnav
