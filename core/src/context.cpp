// BuildContext: logging, timers, cancellation and the memory budget.
#include "leapnav/core/context.hpp"

#include <unistd.h>

#include <algorithm>
#include <limits>
#include <string>

namespace leapnav {

void BuildContext::log(LogLevel level, std::string_view message) {
  if (log_sink_) log_sink_(level, message);
}

void BuildContext::warn(std::string message) {
  log(LogLevel::Warning, message);
  warnings_.push_back(std::move(message));
}

void BuildContext::add_time(std::string_view stage, double ms) {
  for (auto& [name, total] : timings_) {
    if (name == stage) {
      total += ms;
      return;
    }
  }
  timings_.emplace_back(std::string(stage), ms);
}

double BuildContext::time_of(std::string_view stage) const {
  for (const auto& [name, total] : timings_) {
    if (name == stage) return total;
  }
  return 0.0;
}

Status BuildContext::check_cancel(std::string_view stage) const {
  if (!cancelled()) return {};
  return make_error(ErrorCode::Cancelled, std::string(stage) + ": cancelled");
}

namespace {

// note: the need is rounded up and the limit down, in a unit small enough that they differ
// (a limit of 0.001 MiB once read "would need 1 MiB, more than the memory limit of 1 MiB").
std::string byte_amount(std::uint64_t bytes, bool round_up, std::uint64_t other) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20U;
  constexpr std::uint64_t kKiB = std::uint64_t{1} << 10U;
  const std::uint64_t smaller = std::min(bytes, other);
  const auto in_unit = [&](std::uint64_t unit) {
    return std::to_string(round_up ? bytes / unit + (bytes % unit != 0 ? 1 : 0) : bytes / unit);
  };
  if (smaller >= 16 * kMiB || (bytes % kMiB == 0 && other % kMiB == 0))
    return in_unit(kMiB) + " MiB";
  if (smaller >= 16 * kKiB) return in_unit(kKiB) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Status BuildContext::check_memory(std::string_view what, std::uint64_t bytes) const {
  const std::uint64_t held = held_bytes();
  const std::uint64_t total = bytes > std::numeric_limits<std::uint64_t>::max() - held
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : bytes + held;
  if (total <= memory_limit_) return {};
  const std::string with_held =
      held == 0 ? std::string()
                : " (with " + byte_amount(held, true, memory_limit_) + " held by earlier stages)";
  return make_error(ErrorCode::MemoryLimit, std::string(what) + " would need " +
                                                byte_amount(total, true, memory_limit_) +
                                                with_held + ", more than the memory limit of " +
                                                byte_amount(memory_limit_, false, total));
}

std::uint64_t BuildContext::default_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::uint64_t{8} << 30U;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 2;
}

}  // namespace leapnav
