// prefault: madvise(MADV_POPULATE_WRITE) over the page-aligned interior of the range. Linux only;
// older kernels answer EINVAL and the pages fault in on first write as before.
#include "leapnav/core/memory.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace leapnav {

bool prefault(void* data, std::size_t bytes) {
#if defined(__linux__)
  if (data == nullptr || bytes < kPrefaultMinBytes) return false;
#if defined(MADV_POPULATE_WRITE)
  constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
  constexpr int kPopulateWrite = 23;  // the value since Linux 5.14, for older headers
#endif
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + page - 1) / page * page;
  const std::uintptr_t last = (begin + bytes) / page * page;
  if (last <= first) return false;
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the address of pages inside an allocation
  return madvise(reinterpret_cast<void*>(first), last - first, kPopulateWrite) == 0;
#else
  (void)data;
  (void)bytes;
  return false;
#endif
}

}  // namespace leapnav
