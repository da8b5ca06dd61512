// Large fresh arrays: their pages faulted in with one system call instead of one page fault per
// page on first write. On the project's benchmark machine (a virtual machine) a fault cost about
// 1.2 us: 2.6 MB took 0.78 ms faulted page by page and 0.42 ms populated first; on another host
// of the same kind, 11-15 us faulted and 5-8 us populated per 4 KiB page (`leapnav_bench --suite
// memory`; bench/RESULTS.md). So a build that fills a few megabytes of new memory spends a
// measurable share of its time entering the kernel. Best effort and invisible to results:
// contents never change.
#pragma once

#include <cstddef>
#include <vector>

namespace leapnav {

/// Ranges below this many bytes (64 pages) are left to ordinary page faults: the call is meant
/// for the arrays of megabytes a build fills, not for every allocation.
inline constexpr std::size_t kPrefaultMinBytes = std::size_t{256} * 1024;

/// Makes the whole pages inside [data, data + bytes) present and writable, without changing
/// their contents (Linux 5.14+: madvise MADV_POPULATE_WRITE). Does nothing for ranges under
/// kPrefaultMinBytes, on other systems, or when the system refuses; returns whether it populated.
bool prefault(void* data, std::size_t bytes);

/// v.resize(n) with the new elements' pages populated first (see prefault).
template <class T>
void resize_prefaulted(std::vector<T>& v, std::size_t n) {
  if (n > v.size()) {
    v.reserve(n);
    prefault(v.data() + v.size(), (n - v.size()) * sizeof(T));
  }
  v.resize(n);
}

}  // namespace leapnav
