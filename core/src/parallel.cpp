// parallel_for over fixed chunks on oneTBB task arenas (one cached arena per thread count), or
// sequentially when threads == 1 or the library is built with LEAPNAV_SEQUENTIAL. ThreadSanitizer
// builds and the runtime library run the chunks on plain std::threads instead (see
// LEAPNAV_TSAN_THREADS below).
#include "leapnav/core/parallel.hpp"

#include <thread>

// note: the system oneTBB is not built with ThreadSanitizer, so TSan does not see the
// synchronisation inside it (task hand-off, the join, its reused task memory) and reports every
// write before a parallel_for as racing with the workers' reads. TSan builds therefore run the
// same fixed chunks on std::threads that pull chunk indices from an atomic counter and are
// joined; the chunk bodies, the code under test, are unchanged. The runtime library (no oneTBB
// for its consumers) is compiled with LEAPNAV_STD_THREADS and uses the same std::thread path.
#if defined(LEAPNAV_STD_THREADS)
#define LEAPNAV_TSAN_THREADS 1
#elif defined(__SANITIZE_THREAD__)
#define LEAPNAV_TSAN_THREADS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LEAPNAV_TSAN_THREADS 1
#endif
#endif
#ifdef LEAPNAV_TSAN_THREADS
#include <algorithm>
#include <atomic>
#endif

#if !defined(LEAPNAV_SEQUENTIAL) && !defined(LEAPNAV_TSAN_THREADS)
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <map>
#include <memory>
#include <mutex>
#endif

namespace leapnav {

int hardware_threads() {
  // note: std::thread::hardware_concurrency() reads /sys/devices/system/cpu/online on every call
  // (an open, a read and a close, a few microseconds); parallel_for asks for it on each call, and
  // the watershed alone calls it hundreds of times per build, so it is read once
  static const int count = [] {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
  }();
  return count;
}

std::size_t chunk_count(std::size_t begin, std::size_t end, std::size_t grain) {
  if (grain == 0) grain = 1;
  return end > begin ? (end - begin + grain - 1) / grain : 0;
}

#if !defined(LEAPNAV_SEQUENTIAL) && !defined(LEAPNAV_TSAN_THREADS)
namespace {

tbb::task_arena& arena_for(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  static std::unique_ptr<tbb::global_control> worker_limit;
  static int worker_limit_threads = 0;
  const std::lock_guard lock(mutex);
  // note: TBB caps its workers at the hardware thread count; a caller who asks for more threads
  // (determinism tests run 8 on 2 cores) gets them, by raising the cap to the largest request.
  if (threads > worker_limit_threads && threads > hardware_threads()) {
    worker_limit = std::make_unique<tbb::global_control>(
        tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    worker_limit_threads = threads;
  }
  auto& slot = arenas[threads];
  if (!slot) slot = std::make_unique<tbb::task_arena>(threads);
  return *slot;
}

}  // namespace
#endif

void parallel_for(int threads, std::size_t begin, std::size_t end, std::size_t grain,
                  const std::function<void(std::size_t, std::size_t)>& body) {
  if (grain == 0) grain = 1;
  const std::size_t chunks = chunk_count(begin, end, grain);
  if (chunks == 0) return;
  const auto run_chunk = [&](std::size_t c) {
    const std::size_t lo = begin + c * grain;
    const std::size_t hi = end - lo > grain ? lo + grain : end;
    body(lo, hi);
  };
  const int available = hardware_threads();
  const int n = threads <= 0 ? available : threads;
#if defined(LEAPNAV_TSAN_THREADS) && !defined(LEAPNAV_SEQUENTIAL)
  if (n > 1 && chunks > 1) {
    std::atomic<std::size_t> next{0};
    const auto worker = [&] {
      for (std::size_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) run_chunk(c);
    };
    const std::size_t helpers = std::min(static_cast<std::size_t>(n), chunks) - 1;
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    return;
  }
#elif !defined(LEAPNAV_SEQUENTIAL)
  if (n > 1 && chunks > 1) {
    arena_for(n).execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, chunks, 1),
          [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t c = r.begin(); c != r.end(); ++c) run_chunk(c);
          },
          tbb::simple_partitioner());
    });
    return;
  }
#endif
  for (std::size_t c = 0; c < chunks; ++c) run_chunk(c);
}

}  // namespace leapnav
