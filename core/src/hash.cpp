// ContentHasher: 8-byte words folded with a multiply-xorshift mixer (the finaliser of
// SplitMix64), length-terminated, so equal byte sequences give equal hashes on any platform.
#include "leapnav/core/hash.hpp"

#include <array>

namespace leapnav {
void ContentHasher::add_bytes(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  total_ += size;
  std::size_t i = 0;
  // note: complete a pending word byte by byte first, so a long run after an odd-sized value
  // still takes the word path below (the bytes fold in the same order either way)
  for (; pending_bytes_ != 0 && i < size; ++i) {
    pending_ |= static_cast<std::uint64_t>(bytes[i]) << (8U * pending_bytes_);
    if (++pending_bytes_ == 8) {
      state_ = mix64(state_ ^ pending_) + 0x9E3779B97F4A7C15ULL;
      pending_ = 0;
      pending_bytes_ = 0;
    }
  }
  if (pending_bytes_ == 0) {
    // note: the fast path folds whole words; it gives the same result as the byte loop below.
    for (; i + 8 <= size; i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes + i, 8);
      state_ = mix64(state_ ^ word) + 0x9E3779B97F4A7C15ULL;
    }
  }
  for (; i < size; ++i) {
    pending_ |= static_cast<std::uint64_t>(bytes[i]) << (8U * pending_bytes_);
    if (++pending_bytes_ == 8) {
      state_ = mix64(state_ ^ pending_) + 0x9E3779B97F4A7C15ULL;
      pending_ = 0;
      pending_bytes_ = 0;
    }
  }
}

std::uint64_t ContentHasher::digest() const {
  std::uint64_t s = state_;
  if (pending_bytes_ > 0) s = mix64(s ^ pending_) + 0x9E3779B97F4A7C15ULL;
  return mix64(s ^ total_);
}

std::string hash_to_hex(std::uint64_t hash) {
  static constexpr std::array<char, 16> kDigits = {'0', '1', '2', '3', '4', '5', '6', '7',
                                                   '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kDigits[hash & 0xFU];
    hash >>= 4U;
  }
  return out;
}

}  // namespace leapnav
