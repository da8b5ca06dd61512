// The little-endian byte reader and writer of leapnav's binary files (.lnav, the tile cache, the
// tile pack). Internal: included by the .cpp files of io and of the libraries above it, not by
// any public header, so it is not installed. Every read checks the bytes left and returns false
// when they are too few, never reading past the span.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/geometry.hpp"

namespace leapnav::io::detail {

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> data) : data_(data) {}
  [[nodiscard]] std::size_t remaining() const { return data_.size() - pos_; }
  [[nodiscard]] std::size_t position() const { return pos_; }

  bool u8(std::uint8_t& v) { return get(v); }
  bool u16(std::uint16_t& v) { return get(v); }
  bool u32(std::uint32_t& v) { return get(v); }
  bool u64(std::uint64_t& v) { return get(v); }
  bool i32(std::int32_t& v) {
    std::uint32_t u = 0;
    if (!get(u)) return false;
    v = static_cast<std::int32_t>(u);
    return true;
  }
  bool f32(float& v) {
    std::uint32_t u = 0;
    if (!get(u)) return false;
    v = std::bit_cast<float>(u);
    return true;
  }
  bool f64(double& v) {
    std::uint64_t u = 0;
    if (!get(u)) return false;
    v = std::bit_cast<double>(u);
    return true;
  }
  bool vec3(Vec3& v) { return f32(v.x) && f32(v.y) && f32(v.z); }
  /// LEB128 of at most 64 bits; false when truncated or longer than 10 bytes.
  bool varint(std::uint64_t& v) {
    v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      std::uint8_t byte = 0;
      if (!u8(byte)) return false;
      v |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
      if ((byte & 0x80U) == 0) return true;
    }
    return false;
  }
  /// Zig-zag LEB128 (ByteWriter::svarint).
  bool svarint(std::int64_t& v) {
    std::uint64_t u = 0;
    if (!varint(u)) return false;
    v = static_cast<std::int64_t>(u >> 1U) ^ -static_cast<std::int64_t>(u & 1U);
    return true;
  }
  bool text(std::string& s, std::size_t n) {
    if (n > remaining()) return false;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(data_[pos_ + i]);
    pos_ += n;
    return true;
  }
  /// The next n bytes (n <= remaining(), checked by the caller).
  std::span<const std::byte> take(std::size_t n) {
    const auto out = data_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  /// The next n bytes as a reader of their own; false when fewer are left.
  bool sub(ByteReader& out, std::size_t n) {
    if (n > remaining()) return false;
    out = ByteReader(take(n));
    return true;
  }

 private:
  template <class T>
  bool get(T& v) {
    if (remaining() < sizeof(T)) return false;
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      acc |= static_cast<std::uint64_t>(std::to_integer<unsigned>(data_[pos_ + i])) << (8U * i);
    v = static_cast<T>(acc);
    pos_ += sizeof(T);
    return true;
  }
  std::span<const std::byte> data_;
  std::size_t pos_ = 0;
};

class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<std::byte>(v)); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void i32(std::int32_t v) { put(static_cast<std::uint32_t>(v), 4); }
  void f32(float v) { put(std::bit_cast<std::uint32_t>(v), 4); }
  void f64(double v) { put(std::bit_cast<std::uint64_t>(v), 8); }
  /// LEB128: 7 bits a byte, low bits first.
  void varint(std::uint64_t v) {
    while (v >= 0x80U) {
      u8(static_cast<std::uint8_t>((v & 0x7FU) | 0x80U));
      v >>= 7U;
    }
    u8(static_cast<std::uint8_t>(v));
  }
  /// Zig-zag, then LEB128: small magnitudes of either sign take few bytes.
  void svarint(std::int64_t v) {
    varint((static_cast<std::uint64_t>(v) << 1U) ^ static_cast<std::uint64_t>(v >> 63));
  }
  void vec3(Vec3 v) {
    f32(v.x);
    f32(v.y);
    f32(v.z);
  }
  void text(std::string_view s) {
    for (const char c : s) u8(static_cast<std::uint8_t>(c));
  }
  void append(std::span<const std::byte> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  /// Overwrites the 8 bytes at `at` (written before) with v.
  void patch_u64(std::size_t at, std::uint64_t v) {
    for (std::size_t i = 0; i < 8; ++i)
      out_[at + i] = static_cast<std::byte>((v >> (8U * i)) & 0xFFU);
  }
  [[nodiscard]] std::vector<std::byte>& bytes() { return out_; }

 private:
  void put(std::uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      out_.push_back(static_cast<std::byte>((v >> (8U * i)) & 0xFFU));
  }
  std::vector<std::byte> out_;
};

}  // namespace leapnav::io::detail
