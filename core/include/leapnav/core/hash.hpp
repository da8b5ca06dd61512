// Content hashes of build outputs. A 64-bit hash (64-bit multiply-xorshift mixing over 8-byte
// words) that is fast enough to run on every output; not cryptographic. Hash fields, not structs
// with padding: add_pod only takes types whose bytes are all value bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "leapnav/core/geometry.hpp"

namespace leapnav {

/// SplitMix64's finaliser: a bijective 64-bit mix (every output bit depends on every input bit).
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30U;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27U;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31U;
  return x;
}

class ContentHasher {
 public:
  void add_bytes(const void* data, std::size_t size);

  template <class T>
  requires std::has_unique_object_representations_v<T> || std::is_floating_point_v<T>
  void add_pod(const T& value) { add_bytes(&value, sizeof(T)); }
  template <class T>
  requires std::has_unique_object_representations_v<T> || std::is_floating_point_v<T>
  void add_span(std::span<const T> values) {
    add_pod(static_cast<std::uint64_t>(values.size()));
    add_bytes(values.data(), values.size_bytes());
  }
  template <class T>
  void add_vector(const std::vector<T>& values) {
    add_span(std::span<const T>(values));
  }
  /// A point's x, y and z, in that order (the bits of each float).
  void add_point(const Vec3& v) {
    add_pod(v.x);
    add_pod(v.y);
    add_pod(v.z);
  }
  void add_string(std::string_view s) {
    add_pod(static_cast<std::uint64_t>(s.size()));
    add_bytes(s.data(), s.size());
  }

  [[nodiscard]] std::uint64_t digest() const;

 private:
  std::uint64_t state_ = 0x9E3779B97F4A7C15ULL;
  std::uint64_t total_ = 0;
  std::uint64_t pending_ = 0;
  unsigned pending_bytes_ = 0;
};

/// A hash as 16 lower-case hex digits.
[[nodiscard]] std::string hash_to_hex(std::uint64_t hash);

}  // namespace leapnav
