// BuildContext: logging, timers, cancellation and the memory budget.
#include "leapnav/core/context.hpp"

#include <unistd.h>

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

Status BuildContext::check_memory(std::string_view what, std::uint64_t bytes) const {
  if (bytes <= memory_limit_) return {};
  const auto mib = [](std::uint64_t b) { return std::to_string((b + (1U << 20U) - 1) >> 20U); };
  return make_error(ErrorCode::MemoryLimit, std::string(what) + " would need " + mib(bytes) +
                                                " MiB, more than the memory limit of " +
                                                mib(memory_limit_) + " MiB");
}

std::uint64_t BuildContext::default_memory_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::uint64_t{8} << 30U;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 2;
}

}  // namespace leapnav
