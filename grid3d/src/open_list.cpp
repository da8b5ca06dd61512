// The bucketed open list (see open_list.hpp): the exact 4-ary heap of the current bucket, a ring
// of unsorted later buckets and an overflow list for keys beyond the ring.
#include "leapnav/grid3d/open_list.hpp"

#include <algorithm>
#include <bit>

#include "leapnav/core/assert.hpp"

namespace leapnav::grid3d {

OpenList::OpenList(double width, std::size_t ring) {
  LEAPNAV_ASSERT(width > 0.0 && std::has_single_bit(ring) && ring >= 2,
                 "OpenList: the width must be positive and the ring a power of two >= 2");
  inverse_width_ = 1.0 / width;
  ring_.resize(ring);
  mask_ = ring - 1;
}

void OpenList::clear() {
  heap_.clear();
  hole_ = 0;
  if (pending_ != 0) {
    for (std::vector<OpenItem>& bucket : ring_) bucket.clear();
    overflow_.clear();
    pending_ = 0;
  }
  overflow_first_ = ~std::uint64_t{0};
  // note: the first push of the next search goes to the overflow and its first pop makes that
  // bucket current; a current bucket left high from an earlier search would send every smaller
  // key to the heap.
  current_ = 0;
}

std::size_t OpenList::memory_bytes() const {
  std::size_t items = heap_.capacity() + overflow_.capacity();
  for (const std::vector<OpenItem>& bucket : ring_) items += bucket.capacity();
  return items * sizeof(OpenItem) + ring_.capacity() * sizeof(std::vector<OpenItem>);
}

void OpenList::push_heap(OpenItem item) {
  if (hole_ != 0) {
    hole_ = 0;
    sift_down(item);
    return;
  }
  std::size_t i = heap_.size();
  heap_.push_back(item);
  while (i > 0) {
    const std::size_t up = (i - 1) / 4;
    const OpenItem& p = heap_[up];
    if (!before(item, p)) break;
    heap_[i] = p;
    i = up;
  }
  heap_[i] = item;
}

namespace {

// Moves `item`, placed at `i` of a 4-ary heap whose subtrees below `i` are heaps, down to its
// place. A node's four children share one cache line of 16-byte items; the comparisons compile
// to branch-free code.
void sift_down_from(std::vector<OpenItem>& heap, std::size_t i, OpenItem item) {
  const std::size_t n = heap.size();
  while (true) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t end = std::min(first + 4, n);
    for (std::size_t c = first + 1; c < end; ++c) {
      best = before(heap[c], heap[best]) ? c : best;
    }
    const OpenItem& b = heap[best];
    if (!before(b, item)) break;
    heap[i] = b;
    i = best;
  }
  heap[i] = item;
}

}  // namespace

void OpenList::sift_down(OpenItem item) {
  sift_down_from(heap_, 0, item);
}

void OpenList::heapify() {
  const std::size_t n = heap_.size();
  if (n < 2) return;
  for (std::size_t top = (n - 2) / 4 + 1; top-- > 0;) sift_down_from(heap_, top, heap_[top]);
}

void OpenList::spill_overflow() {
  current_ = overflow_first_;
  std::vector<OpenItem>& bucket = ring_[current_ & mask_];
  heap_.insert(heap_.end(), bucket.begin(), bucket.end());
  pending_ -= bucket.size();
  bucket.clear();
  std::size_t kept = 0;
  overflow_first_ = ~std::uint64_t{0};
  for (const OpenItem& item : overflow_) {
    const std::uint64_t b = bucket_of(item.f());
    if (b == current_) {
      heap_.push_back(item);
      --pending_;
    } else if (b - current_ < ring_.size()) {
      ring_[b & mask_].push_back(item);
    } else {
      overflow_[kept++] = item;
      overflow_first_ = std::min(overflow_first_, b);
    }
  }
  overflow_.resize(kept);
  heapify();
}

}  // namespace leapnav::grid3d
