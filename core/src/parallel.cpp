// parallel_for over fixed chunks on oneTBB task arenas (one cached arena per thread count), or
// sequentially when threads == 1 or the library is built with LEAPNAV_SEQUENTIAL.
#include "leapnav/core/parallel.hpp"

#include <thread>

#ifndef LEAPNAV_SEQUENTIAL
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
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

std::size_t chunk_count(std::size_t begin, std::size_t end, std::size_t grain) {
  if (grain == 0) grain = 1;
  return end > begin ? (end - begin + grain - 1) / grain : 0;
}

#ifndef LEAPNAV_SEQUENTIAL
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
#ifndef LEAPNAV_SEQUENTIAL
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
