// Fresh-memory cost of the machine: what writing to pages the process has never touched costs,
// page by page (one fault each) and after leapnav::prefault (one call for the range), against
// writing to pages already present. Build times that fill megabytes of new arrays depend on it,
// and it differs widely between (virtual) machines, so the jump tables say which host they ran on.
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <iostream>
#include <sstream>
#include <vector>

#include "harness.hpp"
#include "leapnav/core/memory.hpp"

namespace leapnav::bench {

namespace {

constexpr std::size_t kBytes = std::size_t{4} << 20;  // 1,024 pages of 4 KiB
constexpr std::size_t kPage = 4096;
constexpr std::size_t kPages = kBytes / kPage;

enum class Touch { PageByPage, Prefaulted, Present };

// Milliseconds to make kBytes of fresh anonymous memory written (one byte per page), or -1 when
// the mapping fails.
double touch_ms(Touch how) {
  void* mapped = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return -1.0;
  auto* bytes = static_cast<volatile unsigned char*>(mapped);
  if (how == Touch::Present) {
    for (std::size_t k = 0; k < kBytes; k += kPage) bytes[k] = 1;
  }
  const auto start = std::chrono::steady_clock::now();
  if (how == Touch::Prefaulted) prefault(mapped, kBytes);
  for (std::size_t k = 0; k < kBytes; k += kPage) bytes[k] = 2;
  const auto end = std::chrono::steady_clock::now();
  munmap(mapped, kBytes);
  return std::chrono::duration<double, std::milli>(end - start).count();
}

}  // namespace

void run_memory_suite(const Options& options, Report& report) {
  const struct {
    Touch how;
    const char* stage;
  } cases[] = {{Touch::PageByPage, "fresh_pages_faulted"},
               {Touch::Prefaulted, "fresh_pages_prefaulted"},
               {Touch::Present, "present_pages"}};
  for (const auto& c : cases) {
    std::vector<double> ms;
    for (int r = 0; r < options.repeat; ++r) {
      const double t = touch_ms(c.how);
      if (t < 0.0) {
        std::cerr << "bench: mmap of " << kBytes << " bytes failed\n";
        return;
      }
      ms.push_back(t);
    }
    const Summary s = summarize(ms);
    std::ostringstream extra;
    extra << "bytes=" << kBytes << " pages=" << kPages
          << " us_per_page=" << s.median * 1000.0 / static_cast<double>(kPages);
    report.add({"4MiB", "-", c.stage, 1, s, "", extra.str()});
  }
}

}  // namespace leapnav::bench
