// Programmer-error checks. LEAPNAV_ASSERT is on in Debug and sanitizer builds (and whenever
// LEAPNAV_ENABLE_ASSERTS is defined); untrusted input never reaches it, it returns errors instead.
// Tests install a handler that turns a failed assertion into a test failure.
#pragma once

#include <functional>
#include <string_view>

namespace leapnav {

/// Called when an assertion fails. The default handler prints and aborts.
using AssertHandler = std::function<void(std::string_view expr, std::string_view msg,
                                         std::string_view file, int line)>;

/// Replaces the assertion handler (process-wide); returns the previous one.
AssertHandler set_assert_handler(AssertHandler handler);

/// Reports a failed assertion through the current handler.
void assert_failed(std::string_view expr, std::string_view msg, std::string_view file, int line);

}  // namespace leapnav

#if !defined(NDEBUG) || defined(LEAPNAV_ENABLE_ASSERTS)
#define LEAPNAV_ASSERT(cond, msg)                                          \
  do {                                                                     \
    if (!(cond)) ::leapnav::assert_failed(#cond, msg, __FILE__, __LINE__); \
  } while (false)
#else
#define LEAPNAV_ASSERT(cond, msg) \
  do {                            \
  } while (false)
#endif
