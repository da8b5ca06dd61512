// The planner's open list: a bucketed 4-ary heap that pops in exactly the order of one heap over
// every entry. Entries are keyed by f; bucket b holds the entries with floor(f / width) = b. The
// heap holds only the entries of the current bucket (and any pushed with a smaller bucket), later
// buckets are unsorted vectors in a ring, and a bucket becomes the heap (Floyd's heapify) when the
// heap runs dry. With a consistent heuristic A*'s f never falls, and a push lands at most 2 sqrt 3
// above the popped f, so most pushes are an append and the heap stays small (a monotone bucket
// queue, Dial 1969, with an exact heap inside the bucket). Any push order stays exact (a smaller
// key goes to the heap); keys too far ahead of the ring wait in an overflow list.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace leapnav::grid3d {

/// An open-list entry ordered by (f ascending, preferred first, g descending, node ascending) as
/// two unsigned keys: the bits of f (>= 0 and finite, so they order as the values do), then the
/// complement of g's float bits (deeper first; g is a tie-break only, the exact g lives in the node
/// record) above the node id. g >= 0 leaves the complement's top bit set; a preferred entry clears
/// it, so it comes before every other entry of equal f.
struct OpenItem {
  std::uint64_t f_bits = 0;
  std::uint64_t g_node = 0;
  [[nodiscard]] static OpenItem make(double f, float g, std::uint32_t node,
                                     bool preferred = false) {
    const std::uint64_t tie =
        (static_cast<std::uint64_t>(~std::bit_cast<std::uint32_t>(g)) << 32) | node;
    return {std::bit_cast<std::uint64_t>(f), preferred ? tie & ~(std::uint64_t{1} << 63) : tie};
  }
  [[nodiscard]] double f() const { return std::bit_cast<double>(f_bits); }
  [[nodiscard]] std::uint32_t node() const { return static_cast<std::uint32_t>(g_node); }
  /// Strict order of the open list, free of branches.
  [[nodiscard]] friend bool before(const OpenItem& a, const OpenItem& b) {
    return (a.f_bits < b.f_bits) | ((a.f_bits == b.f_bits) & (a.g_node < b.g_node));
  }
};

/// The open list (see the file comment). Pops the entries in `before` order whatever the push
/// order; its speed assumes pushes at most a few bucket widths above the last pop.
class OpenList {
 public:
  /// width: a bucket's span of f [units: voxels] [range: > 0]; ring: buckets in the ring (a power
  /// of two, at least 2; keys more than ring - 1 buckets above the heap's wait in the overflow).
  explicit OpenList(double width = 0.03125, std::size_t ring = 256);

  /// Empties the list (keeps its storage).
  void clear();
  [[nodiscard]] bool empty() const { return heap_.size() == hole_ && pending_ == 0; }
  /// Entries held, stale ones included.
  [[nodiscard]] std::size_t size() const { return heap_.size() - hole_ + pending_; }
  /// f must be >= 0 and finite.
  void push(OpenItem item) {
    const std::uint64_t b = bucket_of(item.f());
    if (b <= current_) {
      push_heap(item);
    } else if (b - current_ < ring_.size()) {
      ring_[b & mask_].push_back(item);
      ++pending_;
    } else {
      overflow_.push_back(item);
      overflow_first_ = b < overflow_first_ ? b : overflow_first_;
      ++pending_;
    }
  }
  /// Takes the first entry in `before` order into `out`; false when the list is empty. An entry
  /// that leaves a ring bucket for the heap and for which `drop(item)` is true is discarded unseen
  /// (the caller's test for stale entries, run where a bucket is heapified, so that the loads of a
  /// bucket overlap); entries pushed into the heap directly or spilled from the overflow are never
  /// given to `drop`.
  template <class Drop>
  bool pop(OpenItem& out, Drop drop) {
    while (heap_.size() == hole_) {
      heap_.clear();
      hole_ = 0;
      if (pending_ == 0) return false;
      refill(drop);
    }
    if (hole_ != 0) {
      const OpenItem last = heap_.back();
      heap_.pop_back();
      if (!heap_.empty()) sift_down(last);
    }
    hole_ = 1;
    out = heap_.front();
    return true;
  }
  bool pop(OpenItem& out) {
    return pop(out, [](const OpenItem&) { return false; });
  }
  /// Bytes of storage held.
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  [[nodiscard]] std::uint64_t bucket_of(double f) const {
    const double b = f * inverse_width_;
    return b < 9.0e18 ? static_cast<std::uint64_t>(b) : std::uint64_t{9000000000000000000U};
  }
  // note: pop leaves the root empty (hole_) instead of moving the last item there and sifting it
  // down at once; the next push drops its item into the hole and sifts that down, which usually
  // stops at once (A* pushes neighbours with f close to the minimum).
  void push_heap(OpenItem item);
  void sift_down(OpenItem item);
  void heapify();
  /// Makes the next non-empty bucket the heap: the first non-empty ring bucket, unless the
  /// overflow holds a smaller bucket. The heap is empty and entries are pending.
  template <class Drop>
  void refill(Drop drop) {
    const std::uint64_t n = ring_.size();
    const std::uint64_t limit = overflow_.empty() ? n : std::min(n, overflow_first_ - current_);
    std::uint64_t step = 1;
    while (step < limit && ring_[(current_ + step) & mask_].empty()) ++step;
    if (step >= limit) {
      spill_overflow();
      return;
    }
    current_ += step;
    std::vector<OpenItem>& bucket = ring_[current_ & mask_];
    pending_ -= bucket.size();
    for (const OpenItem& item : bucket) {
      if (!drop(item)) heap_.push_back(item);
    }
    bucket.clear();
    heapify();
  }
  /// No ring bucket comes before the overflow's smallest: that bucket becomes current; its
  /// entries (and the ring's in it) form the heap, the overflow's others within the ring's reach
  /// move into the ring.
  void spill_overflow();

  std::vector<OpenItem> heap_;
  std::size_t hole_ = 0;  ///< 1 when heap_[0] was popped and awaits the next push (or pop)
  std::vector<std::vector<OpenItem>> ring_;
  std::vector<OpenItem> overflow_;
  std::size_t pending_ = 0;    ///< entries in the ring and the overflow
  std::uint64_t current_ = 0;  ///< the heap's bucket; ring entries lie in (current_, + ring)
  std::uint64_t overflow_first_ = ~std::uint64_t{0};  ///< the overflow's smallest bucket
  std::uint64_t mask_ = 0;
  double inverse_width_ = 8.0;
};

}  // namespace leapnav::grid3d
