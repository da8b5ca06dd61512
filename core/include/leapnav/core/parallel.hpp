// The one place parallelism enters: parallel_for and a deterministic reduction over fixed chunks,
// backed by oneTBB, with a sequential fallback (threads == 1, or built with LEAPNAV_SEQUENTIAL).
// Chunk boundaries depend only on (begin, end, grain), never on the thread count, so bodies that
// write into per-index or per-chunk slots give identical output for any number of threads.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace leapnav {

/// Number of hardware threads (at least 1), read once per process.
[[nodiscard]] int hardware_threads();

/// Number of chunks [begin, end) is cut into for a given grain (grain 0 counts as 1).
[[nodiscard]] std::size_t chunk_count(std::size_t begin, std::size_t end, std::size_t grain);

/// Calls body(chunk_begin, chunk_end) for consecutive chunks of at most `grain` items covering
/// [begin, end), on up to `threads` threads (0 = all, 1 = in order on the calling thread).
/// The body must be safe to run concurrently for different chunks.
void parallel_for(int threads, std::size_t begin, std::size_t end, std::size_t grain,
                  const std::function<void(std::size_t, std::size_t)>& body);

/// Deterministic reduction: map(chunk_begin, chunk_end) -> T per fixed chunk, in parallel; then
/// combine(acc, chunk_value) left to right from `identity`, on the calling thread.
template <class T, class Map, class Combine>
[[nodiscard]] T parallel_reduce(int threads, std::size_t begin, std::size_t end, std::size_t grain,
                                T identity, Map map, Combine combine) {
  if (grain == 0) grain = 1;
  const std::size_t chunks = chunk_count(begin, end, grain);
  std::vector<T> slots(chunks, identity);
  parallel_for(threads, 0, chunks, 1, [&](std::size_t c0, std::size_t c1) {
    for (std::size_t c = c0; c < c1; ++c) {
      const std::size_t lo = begin + c * grain;
      const std::size_t hi = lo + grain < end ? lo + grain : end;
      slots[c] = map(lo, hi);
    }
  });
  T acc = std::move(identity);
  for (auto& slot : slots) acc = combine(std::move(acc), std::move(slot));
  return acc;
}

}  // namespace leapnav
