// BuildContext: what a caller hands every stage besides its data and config: a log sink, per-stage
// timers, a progress callback, a cancel flag, the thread count and the memory limit. Stages report
// warnings (degenerate input cleaned up) here, never through stdout.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "leapnav/core/result.hpp"

namespace leapnav {

enum class LogLevel : std::uint8_t { Info, Warning, Error };

/// Shared state for one build or batch of queries. Not copyable; pass by reference.
/// The log and progress sinks are called from the thread that runs the stage (never concurrently).
class BuildContext {
 public:
  using LogSink = std::function<void(LogLevel, std::string_view)>;
  using ProgressSink = std::function<void(std::string_view stage, double fraction)>;

  BuildContext() = default;
  BuildContext(const BuildContext&) = delete;
  BuildContext& operator=(const BuildContext&) = delete;

  void set_log_sink(LogSink sink) { log_sink_ = std::move(sink); }
  void set_progress_sink(ProgressSink sink) { progress_sink_ = std::move(sink); }

  /// Logs a message (Info is dropped when no sink is set).
  void log(LogLevel level, std::string_view message);
  /// Records a warning (kept in warnings()) and logs it.
  void warn(std::string message);
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

  /// Reports progress of a stage; fraction in [0, 1].
  void progress(std::string_view stage, double fraction) const {
    if (progress_sink_) progress_sink_(stage, fraction);
  }

  /// Adds `ms` to the timer of `stage` (a stage timed twice accumulates).
  void add_time(std::string_view stage, double ms);
  /// Per-stage wall times in milliseconds, in the order the stages were first timed.
  [[nodiscard]] const std::vector<std::pair<std::string, double>>& timings() const {
    return timings_;
  }
  /// The accumulated time of one stage, or 0 when it was never timed.
  [[nodiscard]] double time_of(std::string_view stage) const;
  void clear_timings() { timings_.clear(); }

  /// Times a scope: `auto timer = ctx.scoped_timer("rasterize");`.
  class ScopedTimer {
   public:
    ScopedTimer(BuildContext& ctx, std::string stage)
        : ctx_(ctx), stage_(std::move(stage)), start_(std::chrono::steady_clock::now()) {}
    ScopedTimer(const ScopedTimer&) = delete;
    ScopedTimer& operator=(const ScopedTimer&) = delete;
    ~ScopedTimer() {
      const auto end = std::chrono::steady_clock::now();
      ctx_.add_time(stage_, std::chrono::duration<double, std::milli>(end - start_).count());
    }

   private:
    BuildContext& ctx_;
    std::string stage_;
    std::chrono::steady_clock::time_point start_;
  };
  [[nodiscard]] ScopedTimer scoped_timer(std::string stage) { return {*this, std::move(stage)}; }

  /// Asks running stages to stop; they return ErrorCode::Cancelled at their next check.
  /// Safe to call from any thread.
  void request_cancel() noexcept { cancel_.store(true, std::memory_order_relaxed); }
  [[nodiscard]] bool cancelled() const noexcept { return cancel_.load(std::memory_order_relaxed); }
  /// Status::ok(), or a Cancelled error naming the stage.
  [[nodiscard]] Status check_cancel(std::string_view stage) const;

  /// Worker threads for parallel stages: 0 = all hardware threads, 1 = sequential.
  [[nodiscard]] int threads() const noexcept { return threads_; }
  void set_threads(int threads) noexcept { threads_ = threads < 0 ? 0 : threads; }

  /// Largest allocation budget a stage may plan for, in bytes (checked before allocating).
  [[nodiscard]] std::uint64_t memory_limit() const noexcept { return memory_limit_; }
  void set_memory_limit(std::uint64_t bytes) noexcept { memory_limit_ = bytes; }
  /// Status::ok(), or a MemoryLimit error saying what would have been allocated. The bytes
  /// earlier stages still hold (held_bytes()) count too, so a pipeline's checks are cumulative.
  [[nodiscard]] Status check_memory(std::string_view what, std::uint64_t bytes) const;
  /// What the stages before the running one still hold, set by the pipeline between stages
  /// (0 outside a pipeline) [units: bytes].
  [[nodiscard]] std::uint64_t held_bytes() const noexcept {
    return held_bytes_.load(std::memory_order_relaxed);
  }
  void set_held_bytes(std::uint64_t bytes) noexcept {
    held_bytes_.store(bytes, std::memory_order_relaxed);
  }

  /// The default memory limit: half of the machine's physical memory (8 GiB when unknown).
  [[nodiscard]] static std::uint64_t default_memory_limit();

 private:
  LogSink log_sink_;
  ProgressSink progress_sink_;
  std::vector<std::string> warnings_;
  std::vector<std::pair<std::string, double>> timings_;
  std::atomic<bool> cancel_{false};
  int threads_ = 0;
  std::uint64_t memory_limit_ = default_memory_limit();
  std::atomic<std::uint64_t> held_bytes_{0};
};

/// Sets up the context of one task of a parallel job: one thread, the parent's memory limit.
inline void init_task_context(BuildContext& task, const BuildContext& parent) {
  task.set_threads(1);
  task.set_memory_limit(parent.memory_limit());
}

/// One task of a parallel job: its result and what its own context recorded, handed to the
/// parent afterwards in task order, so that the parent's warnings and stage times do not depend
/// on the order the tasks finish in.
template <class T>
struct TaskSlot {
  std::optional<Result<T>> result;
  std::vector<std::string> warnings;
  std::vector<std::pair<std::string, double>> timings;

  /// Keeps what the task's context recorded.
  void keep_log(const BuildContext& task) {
    warnings = task.warnings();
    timings = task.timings();
  }
};

}  // namespace leapnav
