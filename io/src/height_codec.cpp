// Compact height detail (chunk "HGTC"): lossless predictive coding of the per-column floor samples
// in height levels, after LOCO-I / JPEG-LS (Weinberger, Seroussi, Sapiro 2000): the median edge
// detector predicts a level from its left, upper and upper-left neighbours; the residual is a
// 2-bit code when it is 0 or +-1 (almost every sample of a voxel floor), else an escape to a
// zig-zag varint. Samples off the level lattice (never made by build_heights, but legal) keep
// their exact f32 bits in the escape stream, so decode(encode(x)) == x bit for bit (NaN: any NaN).
#include "height_codec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace leapnav::io::detail {
namespace {

using mesh::HeightPatch;

/// Fixed bytes before the sections: u64 H, u64 S, f32 base_y, f32 step, u64 patch bytes, u64
/// escape bytes.
constexpr std::size_t kFixedBytes = 40;
/// The fewest bytes of one encoded patch (five varints).
constexpr std::size_t kMinPatchBytes = 5;
/// Levels and residuals beyond this magnitude are not coded as levels (f32 has 24 bits anyway).
constexpr std::int64_t kMaxLevel = std::int64_t{1} << 40;
/// 2-bit codes.
constexpr unsigned kCodeZero = 0, kCodePlus = 1, kCodeMinus = 2, kCodeEscape = 3;
/// Escape values: NaN, raw f32 bits follow, else residual r as zigzag(r) + kEscapeResidual.
constexpr std::uint64_t kEscapeNaN = 0, kEscapeRaw = 1, kEscapeResidual = 2;
constexpr std::uint32_t kQuietNaNBits = 0x7FC00000U;

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1U) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t u) {
  return static_cast<std::int64_t>(u >> 1U) ^ -static_cast<std::int64_t>(u & 1U);
}

float level_to_float(float base, float step, std::int64_t level) {
  // note: the expression of GridSpec::level_to_world, so build_heights' samples match bit for bit
  return static_cast<float>(double{base} + static_cast<double>(level) * double{step});
}

struct Writer {
  std::vector<std::byte> out;
  void u8(unsigned v) { out.push_back(static_cast<std::byte>(v & 0xFFU)); }
  void u32(std::uint32_t v) {
    for (unsigned i = 0; i < 4; ++i) u8(v >> (8U * i));
  }
  void u64(std::uint64_t v) {
    for (unsigned i = 0; i < 8; ++i) u8(static_cast<unsigned>(v >> (8U * i)));
  }
  void varint(std::uint64_t v) {
    while (v >= 0x80U) {
      u8(static_cast<unsigned>((v & 0x7FU) | 0x80U));
      v >>= 7U;
    }
    u8(static_cast<unsigned>(v));
  }
};

struct Reader {
  std::span<const std::byte> data;
  std::size_t pos = 0;
  [[nodiscard]] std::size_t remaining() const { return data.size() - pos; }
  bool u8(unsigned& v) {
    if (pos >= data.size()) return false;
    v = std::to_integer<unsigned>(data[pos++]);
    return true;
  }
  bool u32(std::uint32_t& v) {
    if (remaining() < 4) return false;
    v = 0;
    for (unsigned i = 0; i < 4; ++i) v |= std::to_integer<std::uint32_t>(data[pos++]) << (8U * i);
    return true;
  }
  bool u64(std::uint64_t& v) {
    if (remaining() < 8) return false;
    v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= std::to_integer<std::uint64_t>(data[pos++]) << (8U * i);
    return true;
  }
  bool varint(std::uint64_t& v) {
    v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      unsigned byte = 0;
      if (!u8(byte)) return false;
      v |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
      if ((byte & 0x80U) == 0) return true;
    }
    return false;
  }
};

/// The median edge detector over the block's levels decoded so far; `last` when no neighbour
/// has a level.
struct Predictor {
  std::uint32_t width = 0;
  std::vector<std::int64_t> level;  // per sample of the block
  std::vector<std::uint8_t> known;  // 1 where level[] holds a level
  std::int64_t last = 0;            // the last level coded, across blocks

  void start(std::uint32_t w, std::size_t n) {
    width = w;
    level.assign(n, 0);
    known.assign(n, 0);
  }
  [[nodiscard]] std::int64_t predict(std::size_t k) const {
    const std::size_t i = k % width;
    const bool has_a = i > 0 && known[k - 1] != 0;
    const bool has_b = k >= width && known[k - width] != 0;
    const bool has_c = i > 0 && k >= width && known[k - width - 1] != 0;
    if (has_a && has_b && has_c) {
      const std::int64_t a = level[k - 1], b = level[k - width], c = level[k - width - 1];
      if (c >= std::max(a, b)) return std::min(a, b);
      if (c <= std::min(a, b)) return std::max(a, b);
      return a + b - c;
    }
    if (has_a) return level[k - 1];
    if (has_b) return level[k - width];
    return last;
  }
  void set(std::size_t k, std::int64_t v) {
    level[k] = v;
    known[k] = 1;
    last = v;
  }
};

}  // namespace

std::optional<std::vector<std::byte>> encode_compact_heights(const mesh::NavMesh& m) {
  const float base = m.grid.origin.y;
  const float step = m.grid.cell_height;
  if (!std::isfinite(base) || !std::isfinite(step) || !(step > 0.0F)) return std::nullopt;
  const std::vector<HeightPatch>& patches = m.height_patches;
  const std::vector<float>& samples = m.height_samples;

  Writer head, patch_bytes, escapes;
  std::vector<std::uint8_t> codes((samples.size() + 3) / 4, 0);
  std::uint64_t cursor = 0;
  std::int64_t x0 = 0, z0 = 0;
  Predictor predictor;
  for (const HeightPatch& p : patches) {
    patch_bytes.varint(zigzag(std::int64_t{p.x0} - x0));
    patch_bytes.varint(zigzag(std::int64_t{p.z0} - z0));
    patch_bytes.varint(p.width);
    patch_bytes.varint(p.depth);
    patch_bytes.varint(
        zigzag(static_cast<std::int64_t>(p.first) - static_cast<std::int64_t>(cursor)));
    x0 = p.x0;
    z0 = p.z0;
    const std::size_t n = std::size_t{p.width} * p.depth;
    if (p.first != cursor || n == 0) continue;
    if (cursor + n > samples.size()) return std::nullopt;
    // a fresh block: its samples in row order
    predictor.start(p.width, n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t s = cursor + k;
      const float f = samples[s];
      unsigned code = kCodeEscape;
      if (std::isnan(f)) {
        escapes.varint(kEscapeNaN);
      } else {
        const double exact = (double{f} - double{base}) / double{step};
        const std::int64_t level =
            std::abs(exact) < static_cast<double>(kMaxLevel) ? std::llround(exact) : kMaxLevel;
        if (std::abs(level) < kMaxLevel &&
            std::bit_cast<std::uint32_t>(level_to_float(base, step, level)) ==
                std::bit_cast<std::uint32_t>(f)) {
          const std::int64_t r = level - predictor.predict(k);
          if (r == 0) {
            code = kCodeZero;
          } else if (r == 1) {
            code = kCodePlus;
          } else if (r == -1) {
            code = kCodeMinus;
          } else {
            escapes.varint(zigzag(r) + kEscapeResidual);
          }
          predictor.set(k, level);
        } else {
          escapes.varint(kEscapeRaw);
          escapes.u32(std::bit_cast<std::uint32_t>(f));
        }
      }
      codes[s / 4] = static_cast<std::uint8_t>(codes[s / 4] | (code << (2U * (s % 4))));
    }
    cursor += n;
  }
  if (cursor != samples.size()) return std::nullopt;

  head.u64(patches.size());
  head.u64(samples.size());
  head.u32(std::bit_cast<std::uint32_t>(base));
  head.u32(std::bit_cast<std::uint32_t>(step));
  head.u64(patch_bytes.out.size());
  head.u64(escapes.out.size());
  std::vector<std::byte> out = std::move(head.out);
  out.reserve(out.size() + patch_bytes.out.size() + codes.size() + escapes.out.size());
  out.insert(out.end(), patch_bytes.out.begin(), patch_bytes.out.end());
  for (const std::uint8_t c : codes) out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), escapes.out.begin(), escapes.out.end());
  return out;
}

bool decode_compact_heights(std::span<const std::byte> payload, std::vector<HeightPatch>& patches,
                            std::vector<float>& samples, std::string& message) {
  Reader r{payload};
  std::uint64_t patch_count = 0, sample_count = 0, patch_size = 0, escape_size = 0;
  std::uint32_t base_bits = 0, step_bits = 0;
  if (!(r.u64(patch_count) && r.u64(sample_count) && r.u32(base_bits) && r.u32(step_bits) &&
        r.u64(patch_size) && r.u64(escape_size))) {
    message = "too short";
    return false;
  }
  const float base = std::bit_cast<float>(base_bits);
  const float step = std::bit_cast<float>(step_bits);
  if (!std::isfinite(base) || !std::isfinite(step) || !(step > 0.0F)) {
    message = "level base and step must be finite, the step positive";
    return false;
  }
  const std::uint64_t available = r.remaining();
  const std::uint64_t code_size = sample_count / 4 + (sample_count % 4 != 0 ? 1 : 0);
  if (patch_size > available || escape_size > available || sample_count > available * 4 ||
      patch_size + escape_size + code_size != available ||
      patch_count > patch_size / kMinPatchBytes) {
    message = std::to_string(patch_count) + " patches and " + std::to_string(sample_count) +
              " samples in " + std::to_string(patch_size) + " + " + std::to_string(escape_size) +
              " bytes do not fit its " + std::to_string(available) + " bytes";
    return false;
  }
  Reader patch_reader{payload.subspan(kFixedBytes, static_cast<std::size_t>(patch_size))};
  const auto codes = payload.subspan(kFixedBytes + static_cast<std::size_t>(patch_size),
                                     static_cast<std::size_t>(code_size));
  Reader escape_reader{
      payload.subspan(kFixedBytes + static_cast<std::size_t>(patch_size + code_size))};

  patches.assign(static_cast<std::size_t>(patch_count), HeightPatch{});
  std::int64_t x0 = 0, z0 = 0;
  std::uint64_t cursor = 0;
  for (std::size_t p = 0; p < patches.size(); ++p) {
    std::uint64_t dx = 0, dz = 0, width = 0, depth = 0, first = 0;
    if (!(patch_reader.varint(dx) && patch_reader.varint(dz) && patch_reader.varint(width) &&
          patch_reader.varint(depth) && patch_reader.varint(first))) {
      message = "patch " + std::to_string(p) + " is truncated";
      return false;
    }
    // note: every term is bounded before it is added, so nothing overflows on hostile input
    constexpr std::int64_t kSpan = std::int64_t{1} << 33;
    const std::int64_t ddx = unzigzag(dx), ddz = unzigzag(dz), dfirst = unzigzag(first);
    const bool steps_ok = ddx > -kSpan && ddx < kSpan && ddz > -kSpan && ddz < kSpan &&
                          dfirst >= -static_cast<std::int64_t>(cursor) && dfirst < kSpan;
    const std::int64_t x = steps_ok ? x0 + ddx : 0, z = steps_ok ? z0 + ddz : 0;
    const std::int64_t at = steps_ok ? static_cast<std::int64_t>(cursor) + dfirst : -1;
    if (!steps_ok || x < std::numeric_limits<std::int32_t>::min() ||
        x > std::numeric_limits<std::int32_t>::max() ||
        z < std::numeric_limits<std::int32_t>::min() ||
        z > std::numeric_limits<std::int32_t>::max() || width > 0xFFFF || depth > 0xFFFF ||
        at < 0 || static_cast<std::uint64_t>(at) > std::numeric_limits<std::uint32_t>::max()) {
      message = "patch " + std::to_string(p) + " has values out of range";
      return false;
    }
    HeightPatch& out = patches[p];
    out.x0 = static_cast<std::int32_t>(x);
    out.z0 = static_cast<std::int32_t>(z);
    out.width = static_cast<std::uint16_t>(width);
    out.depth = static_cast<std::uint16_t>(depth);
    out.first = static_cast<std::uint32_t>(at);
    x0 = x;
    z0 = z;
    if (out.first == cursor && width * depth > 0) {
      cursor += width * depth;
      if (cursor > sample_count) {
        message = "patch " + std::to_string(p) + " runs past the " + std::to_string(sample_count) +
                  " samples";
        return false;
      }
    }
  }
  if (patch_reader.remaining() != 0 || cursor != sample_count) {
    message = "the patches cover " + std::to_string(cursor) + " of " +
              std::to_string(sample_count) + " samples or leave bytes unread";
    return false;
  }

  samples.assign(static_cast<std::size_t>(sample_count), 0.0F);
  Predictor predictor;
  cursor = 0;
  for (const HeightPatch& p : patches) {
    const std::size_t n = std::size_t{p.width} * p.depth;
    if (p.first != cursor || n == 0) continue;
    predictor.start(p.width, n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t s = static_cast<std::size_t>(cursor) + k;
      const unsigned code = (std::to_integer<unsigned>(codes[s / 4]) >> (2U * (s % 4))) & 3U;
      std::int64_t residual = 0;
      if (code == kCodePlus) {
        residual = 1;
      } else if (code == kCodeMinus) {
        residual = -1;
      } else if (code == kCodeEscape) {
        std::uint64_t e = 0;
        if (!escape_reader.varint(e)) {
          message = "escape of sample " + std::to_string(s) + " is truncated";
          return false;
        }
        if (e == kEscapeNaN) {
          samples[s] = std::bit_cast<float>(kQuietNaNBits);
          continue;
        }
        if (e == kEscapeRaw) {
          std::uint32_t bits = 0;
          if (!escape_reader.u32(bits)) {
            message = "raw sample " + std::to_string(s) + " is truncated";
            return false;
          }
          samples[s] = std::bit_cast<float>(bits);
          continue;
        }
        residual = unzigzag(e - kEscapeResidual);
        if (residual <= -2 * kMaxLevel || residual >= 2 * kMaxLevel) {
          message = "residual of sample " + std::to_string(s) + " is out of range";
          return false;
        }
      }
      const std::int64_t level = predictor.predict(k) + residual;
      if (level <= -kMaxLevel || level >= kMaxLevel) {
        message = "level of sample " + std::to_string(s) + " is out of range";
        return false;
      }
      predictor.set(k, level);
      samples[s] = level_to_float(base, step, level);
    }
    cursor += n;
  }
  if (escape_reader.remaining() != 0) {
    message = std::to_string(escape_reader.remaining()) + " escape bytes left unread";
    return false;
  }
  return true;
}

}  // namespace leapnav::io::detail
