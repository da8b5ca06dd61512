// The obstacle field (thesis §5.2) for a cylinder of the agent's radius and height: each solid
// span [min, max) blocks, in its own column and in every column within the radius, the feet
// heights [min - ceil(height / ch), max). Per column the blocked voxels are bit rows OR-ed over
// the offsets and read back as maximal runs; a run's top is a walkable voxel when it is the floor
// of an open span. Rows run in parallel with per-column writes (counts, prefix sum, fill), so the
// output is thread-count independent.
#include "leapnav/jumplinks/obstacle_field.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/memory.hpp"
#include "leapnav/core/parallel.hpp"

namespace leapnav::jump {

namespace {

struct Offset {
  int dx = 0;
  int dz = 0;
};

std::vector<Offset> blocking_offsets(float radius, float cell_size, int& reach) {
  reach = 0;
  std::vector<Offset> offsets;
  const double r = radius;
  const double cs = cell_size;
  const int limit = static_cast<int>(std::ceil(r / cs)) + 1;
  for (int dz = -limit; dz <= limit; ++dz) {
    for (int dx = -limit; dx <= limit; ++dx) {
      const double gx = std::max(std::abs(dx) - 1, 0) * cs;
      const double gz = std::max(std::abs(dz) - 1, 0) * cs;
      const bool self = dx == 0 && dz == 0;
      if (self || gx * gx + gz * gz < r * r) {
        offsets.push_back({dx, dz});
        reach = std::max(reach, std::max(std::abs(dx), std::abs(dz)));
      }
    }
  }
  return offsets;
}

// note: plain functions over value parameters: stores through the uint64_t pointers cannot
// alias their sizes, so the loops stay tight (inside the reference-capturing lambdas they did not)
// dst = OR of the `count` rows at src[0 .. count) (count >= 1), three rows a pass (a pass of
// fewer repeats its first row): one pass for the radii up to a cell, where three rows contribute
void or_rows(std::uint64_t* dst, const std::uint64_t* const* src, std::size_t count,
             std::size_t n) {
  for (std::size_t r = 0; r < count; r += 3) {
    const std::uint64_t* a = src[r];
    const std::uint64_t* b = r + 1 < count ? src[r + 1] : a;
    const std::uint64_t* c = r + 2 < count ? src[r + 2] : a;
    if (r == 0) {
      for (std::size_t k = 0; k < n; ++k) dst[k] = a[k] | b[k] | c[k];
    } else {
      for (std::size_t k = 0; k < n; ++k) dst[k] |= a[k] | b[k] | c[k];
    }
  }
}

// wide = prev | own shifted by +-shift words, one pass per range of k
void dilate_row(std::uint64_t* wide, const std::uint64_t* prev, const std::uint64_t* own,
                std::size_t n, std::size_t shift) {
  if (shift >= n) {
    for (std::size_t k = 0; k < n; ++k) wide[k] = prev[k];
    return;
  }
  // k + shift < n holds below n - shift, k >= shift from shift on
  const std::size_t lo = std::min(shift, n - shift);
  const std::size_t hi = std::max(shift, n - shift);
  for (std::size_t k = 0; k < lo; ++k) wide[k] = prev[k] | own[k + shift];
  if (shift <= n - shift) {
    for (std::size_t k = lo; k < hi; ++k) wide[k] = prev[k] | own[k + shift] | own[k - shift];
  } else {
    for (std::size_t k = lo; k < hi; ++k) wide[k] = prev[k];
  }
  for (std::size_t k = hi; k < n; ++k) wide[k] = prev[k] | own[k - shift];
}

// The first two runs of one column (the second: the hull of all but the first when there are
// more), as voxel indices; -1: no run. approx: more than two runs.
struct RunBounds {
  int lo0 = -1;
  int hi0 = -1;
  int lo1 = -1;
  int hi1 = -1;
  bool approx = false;
};

// The plane values of one column (see RunPlanes); approx: more than two runs, or a bound too
// large to store exactly.
struct PlaneColumn {
  RunPlanes::Value lo0 = RunPlanes::kNoRunLo;
  RunPlanes::Value hi0 = RunPlanes::kNoRunHi;
  RunPlanes::Value lo1 = RunPlanes::kNoRunLo;
  RunPlanes::Value hi1 = RunPlanes::kNoRunHi;
  bool approx = false;
};

PlaneColumn encode_column(const RunBounds& b) {
  PlaneColumn out;
  if (b.lo0 >= 0) {
    out.lo0 = RunPlanes::encode(b.lo0);
    out.hi0 = RunPlanes::encode(b.hi0);
  }
  if (b.lo1 >= 0) {
    out.lo1 = RunPlanes::encode(b.lo1);
    out.hi1 = RunPlanes::encode(b.hi1);
  }
  // note: the largest bound is the last run's top
  out.approx = b.approx || std::max(b.hi0, b.hi1) > RunPlanes::kMaxExact;
  return out;
}

PlaneColumn plane_column(const std::uint64_t* bits, std::size_t words) {
  std::uint64_t any = 0;
  for (std::size_t w = 0; w < words; ++w) any |= bits[w];
  if (any == 0) return {};
  RunBounds out;
  // note: run boundaries word by word: a start where a blocked bit follows an open one, an end
  // where an open bit follows a blocked one (carried across words); they alternate
  int runs = 0;
  int lo = 0;
  std::uint64_t carry = 0;
  const auto boundary = [&](int k, bool start) {
    if (start) {
      lo = k;
      return;
    }
    if (runs == 0) {
      out.lo0 = lo;
      out.hi0 = k;
    } else if (runs == 1) {
      out.lo1 = lo;
      out.hi1 = k;
    } else {
      out.hi1 = k;
      out.approx = true;
    }
    ++runs;
  };
  for (std::size_t w = 0; w < words; ++w) {
    const std::uint64_t b = bits[w];
    const std::uint64_t before = (b << 1) | carry;  // bit k: voxel k - 1 blocked
    std::uint64_t starts = b & ~before;
    std::uint64_t ends = ~b & before;
    carry = b >> 63;
    const int base = static_cast<int>(w * 64);
    for (std::uint64_t events = starts | ends; events != 0; events &= events - 1) {
      const int k = std::countr_zero(events);
      boundary(base + k, ((starts >> k) & 1U) != 0);
    }
  }
  if (carry != 0) boundary(static_cast<int>(words * 64), false);
  return encode_column(out);
}

void store_plane_column(RunPlanes& planes, std::size_t row, std::size_t position,
                        const PlaneColumn& v) {
  const auto stride = static_cast<std::size_t>(planes.stride);
  RunPlanes::Value* base = planes.values.data() + row * RunPlanes::kPlanes * stride + position;
  base[RunPlanes::kLo0 * stride] = v.lo0;
  base[RunPlanes::kHi0 * stride] = v.hi0;
  base[RunPlanes::kLo1 * stride] = v.lo1;
  base[RunPlanes::kHi1 * stride] = v.hi1;
  if (v.approx) {
    std::uint64_t& word =
        planes.approx[row * static_cast<std::size_t>(planes.approx_words) + position / 64];
    word |= std::uint64_t{1} << (position % 64);
  }
}

// Sizes the planes for `rows` rows of `length` positions, padding filled with "no run".
void init_planes(RunPlanes& planes, std::size_t rows, std::size_t length) {
  // note: a multiple of 64 values (64 bytes) keeps each plane's rows on cache-line boundaries
  planes.stride = static_cast<int>((length + RunPlanes::kPadding + 63) / 64 * 64);
  const auto stride = static_cast<std::size_t>(planes.stride);
  resize_prefaulted(planes.values, rows * RunPlanes::kPlanes * stride);
  planes.approx_words = static_cast<int>(stride / 64 + 2);
  planes.approx.assign(rows * static_cast<std::size_t>(planes.approx_words), 0);
  const PlaneColumn none;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t p = length; p < stride; ++p) store_plane_column(planes, r, p, none);
}

void own_row(const voxel::Heightfield& solid, std::size_t first_column, std::size_t width,
             std::size_t words, int grow, std::uint64_t* own) {
  std::fill(own, own + width * words, std::uint64_t{0});
  const std::uint32_t* first = solid.column_first.data() + first_column;
  const voxel::Span* spans = solid.spans.data();
  for (std::size_t x = 0; x < width; ++x) {
    std::uint64_t* bits = own + x * words;
    for (std::uint32_t s = first[x]; s < first[x + 1]; ++s) {
      const int lo = std::max(0, static_cast<int>(spans[s].min) - grow);
      const int hi = static_cast<int>(spans[s].max);
      if (hi <= lo) continue;
      // note: most grown spans lie in one word
      const int w0 = lo >> 6;
      const int w1 = (hi - 1) >> 6;
      const std::uint64_t head = ~std::uint64_t{0} << (lo & 63);
      const std::uint64_t tail = ~std::uint64_t{0} >> (63 - ((hi - 1) & 63));
      if (w0 == w1) {
        bits[w0] |= head & tail;
        continue;
      }
      bits[w0] |= head;
      for (int w = w0 + 1; w < w1; ++w) bits[w] = ~std::uint64_t{0};
      bits[w1] |= tail;
    }
  }
}

}  // namespace

Result<ObstacleBits> build_obstacle_bits(const voxel::Heightfield& solid, const AgentConfig& agent,
                                         BuildContext& ctx, BitsKept kept) {
  auto timer = ctx.scoped_timer("jump_obstacles");
  LEAPNAV_TRY(ctx.check_cancel("obstacle field"));
  const GridSpec& grid = solid.grid;
  if (!(agent.height > 0.0F) || !(agent.radius >= 0.0F) || !std::isfinite(agent.height) ||
      !std::isfinite(agent.radius))
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: agent height must be > 0 and radius >= 0");
  const auto columns = static_cast<std::size_t>(grid.column_count());
  if (solid.column_first.size() != columns + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: heightfield column arrays do not match the grid");

  ObstacleBits field;
  field.grid = grid;
  field.grow_down =
      static_cast<int>(std::ceil(static_cast<double>(agent.height) / grid.cell_height));
  const std::vector<Offset> offsets = blocking_offsets(agent.radius, grid.cell_size, field.reach);

  // note: per column, blocked feet heights as bit rows: own solid spans grown down, then OR-ed
  // over the blocking offsets; linear in columns x offsets x words and cache friendly. The offsets
  // are symmetric rows: per dz one x range [-a, a], so the rows are first dilated along x (once
  // per distinct half width) and then OR-ed along z.
  int top = 1;
  for (const voxel::Span& span : solid.spans) top = std::max(top, static_cast<int>(span.max));
  const auto words = static_cast<std::size_t>((top + 63) / 64);
  field.words = static_cast<int>(words);
  std::vector<int> half_width(static_cast<std::size_t>(2 * field.reach + 1), -1);
  for (const Offset& o : offsets) {
    const int row = o.dz + field.reach;
    int& a = half_width[static_cast<std::size_t>(row)];
    a = std::max(a, std::abs(o.dx));
  }
  int widest = 0;
  for (const int a : half_width) widest = std::max(widest, a);
  const bool planes = field.words <= ObstacleBits::kMaxPlaneWords;
  const std::uint64_t plane_values =
      planes ? (static_cast<std::uint64_t>(grid.depth) * (grid.width + RunPlanes::kPadding + 63) +
                static_cast<std::uint64_t>(grid.width) * (grid.depth + RunPlanes::kPadding + 63)) *
                   RunPlanes::kPlanes
             : 0;
  // note: without all the bits (their pages cost about as much as building them), a row is
  // assembled in a per-chunk buffer and only the approximate columns' words are kept
  field.all_bits = !planes || kept == BitsKept::All;
  LEAPNAV_TRY(ctx.check_memory("obstacle field bits",
                               (field.all_bits ? columns * words * sizeof(std::uint64_t) : 0) +
                                   plane_values * sizeof(RunPlanes::Value)));
  if (field.all_bits) field.bits.assign(columns * words, 0);
  if (planes) {
    init_planes(field.rows_x, static_cast<std::size_t>(grid.depth),
                static_cast<std::size_t>(grid.width));
    init_planes(field.rows_z, static_cast<std::size_t>(grid.width),
                static_cast<std::size_t>(grid.depth));
  }
  const int grow = field.grow_down;
  // note: chunks of 32 rows: a chunk's 8-bit values in a row along z fill half a 64-byte line,
  // but 64-row chunks left two threads unbalanced on small grids (nav_test: 5 chunks; its
  // two-thread build 0.93-1.12 ms against 0.85-0.96 ms, medians of 300; one thread the same)
  constexpr std::size_t kGrain = 32;
  const auto depth = static_cast<std::size_t>(grid.depth);
  const auto width = static_cast<std::size_t>(grid.width);
  const std::size_t row_words = width * words;
  const auto reach = static_cast<std::size_t>(field.reach);
  const std::size_t ring = 2 * reach + 1;
  // note: each chunk of rows streams through a ring of 2 reach + 1 rows per layer (layer 0: own
  // bits; layer a: own bits dilated along x by a columns each side); a row is emitted as soon as
  // its neighbours within reach are in the ring, and its runs go into the planes on the way
  // per chunk: the approximate columns' words, in row order (kept bits only)
  std::vector<std::vector<std::uint64_t>> chunk_bits(
      field.all_bits ? 0 : chunk_count(0, depth, kGrain));
  parallel_for(ctx.threads(), 0, depth, kGrain, [&](std::size_t z0, std::size_t z1) {
    const std::size_t lo_z = z0 > reach ? z0 - reach : 0;
    const std::size_t hi_z = std::min(depth, z1 + reach);
    thread_local std::vector<std::uint64_t> buffer;
    const std::size_t ring_words = (static_cast<std::size_t>(widest) + 1) * ring * row_words;
    // the ring, then the row being assembled when the bits are not all kept
    buffer.assign(ring_words + (field.all_bits ? 0 : row_words), 0);
    const auto layer_row = [&](std::size_t a, std::size_t z) {
      return buffer.data() + (a * ring + z % ring) * row_words;
    };
    thread_local std::vector<const std::uint64_t*> sources;
    sources.resize(ring);
    const auto emit = [&](std::size_t e) {
      std::uint64_t* dst =
          field.all_bits ? field.bits.data() + e * row_words : buffer.data() + ring_words;
      // note: the contributing rows OR-ed three to a pass (a fill and a pass per row cost more)
      std::size_t count = 0;
      for (int dz = -field.reach; dz <= field.reach; ++dz) {
        const int row = dz + field.reach;
        const int a = half_width[static_cast<std::size_t>(row)];
        const auto nz = static_cast<std::ptrdiff_t>(e) + dz;
        if (a < 0 || nz < 0 || nz >= grid.depth) continue;
        sources[count++] = layer_row(static_cast<std::size_t>(a), static_cast<std::size_t>(nz));
      }
      // the row itself always contributes (offset (0, 0) blocks)
      or_rows(dst, sources.data(), count, row_words);
      if (!planes) return;
      for (std::size_t x = 0; x < width; ++x) {
        const PlaneColumn v = plane_column(dst + x * words, words);
        store_plane_column(field.rows_x, e, x, v);
        if (!field.all_bits && v.approx) {
          chunk_bits[z0 / kGrain].insert(chunk_bits[z0 / kGrain].end(), dst + x * words,
                                         dst + (x + 1) * words);
        }
        // note: the approx bits along z share words across chunks; they are copied after the loop
        PlaneColumn along_z = v;
        along_z.approx = false;
        store_plane_column(field.rows_z, x, e, along_z);
      }
    };
    for (std::size_t z = lo_z; z < hi_z; ++z) {
      own_row(solid, z * width, width, words, grow, layer_row(0, z));
      for (std::size_t a = 1; a <= static_cast<std::size_t>(widest); ++a)
        dilate_row(layer_row(a, z), layer_row(a - 1, z), layer_row(0, z), row_words, a * words);
      if (z >= z0 + reach && z - reach < z1) emit(z - reach);
    }
    // the last rows of the grid have no rows `reach` beyond them
    for (std::size_t e = std::max(z0, hi_z > reach ? hi_z - reach : 0); e < z1; ++e) emit(e);
  });
  LEAPNAV_TRY(ctx.check_cancel("obstacle field"));
  // chunks in row order: the kept columns' bits come out in rows_x order
  for (const std::vector<std::uint64_t>& part : chunk_bits)
    field.bits.insert(field.bits.end(), part.begin(), part.end());
  if (!field.all_bits) {
    field.kept_before.resize(field.rows_x.approx.size());
    std::uint32_t kept_count = 0;
    for (std::size_t w = 0; w < field.rows_x.approx.size(); ++w) {
      field.kept_before[w] = kept_count;
      kept_count += static_cast<std::uint32_t>(std::popcount(field.rows_x.approx[w]));
    }
  }
  if (planes) {
    for (std::size_t z = 0; z < depth; ++z) {
      const std::uint64_t* from = field.rows_x.approx_row(static_cast<int>(z));
      for (std::size_t w = 0; w * 64 < width; ++w) {
        for (std::uint64_t bits = from[w]; bits != 0; bits &= bits - 1) {
          const std::size_t x = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
          field.rows_z.approx[x * static_cast<std::size_t>(field.rows_z.approx_words) + z / 64] |=
              std::uint64_t{1} << (z % 64);
        }
      }
    }
  }
  return field;
}

ObstacleColumns obstacle_columns(const ObstacleBits* field, int origin_x, int origin_z, int x0,
                                 int z0, int x1, int z1) {
  ObstacleColumns out;
  out.x0 = x0 + origin_x;
  out.z0 = z0 + origin_z;
  out.width = std::max(0, x1 - x0);
  out.depth = std::max(0, z1 - z0);
  out.words = field == nullptr ? 1 : field->words;
  const auto words = static_cast<std::size_t>(out.words);
  const auto width = static_cast<std::size_t>(out.width);
  const auto depth = static_cast<std::size_t>(out.depth);
  const std::size_t columns = width * depth;
  out.rows_x.resize(columns * RunPlanes::kPlanes);
  out.rows_z.resize(columns * RunPlanes::kPlanes);
  out.approx.assign(columns, 0);
  out.bits_at.assign(columns, ObstacleColumns::kNoBits);
  for (std::size_t z = 0; z < depth; ++z) {
    for (std::size_t x = 0; x < width; ++x) {
      PlaneColumn v;
      const int fx = x0 + static_cast<int>(x);
      const int fz = z0 + static_cast<int>(z);
      if (field != nullptr && field->has_planes()) {
        const auto stride = static_cast<std::size_t>(field->rows_x.stride);
        const RunPlanes::Value* row = field->rows_x.row(fz);
        const auto p = static_cast<std::size_t>(fx);
        v.lo0 = row[RunPlanes::kLo0 * stride + p];
        v.hi0 = row[RunPlanes::kHi0 * stride + p];
        v.lo1 = row[RunPlanes::kLo1 * stride + p];
        v.hi1 = row[RunPlanes::kHi1 * stride + p];
        v.approx = ((field->rows_x.approx_row(fz)[p / 64] >> (p % 64)) & 1U) != 0;
      } else if (field != nullptr) {
        v = plane_column(field->column(fx, fz), words);
      }
      const std::array<RunPlanes::Value, RunPlanes::kPlanes> values{v.lo0, v.hi0, v.lo1, v.hi1};
      for (std::size_t q = 0; q < RunPlanes::kPlanes; ++q) {
        out.rows_x[(z * RunPlanes::kPlanes + q) * width + x] = values[q];
        out.rows_z[(x * RunPlanes::kPlanes + q) * depth + z] = values[q];
      }
      if (v.approx) {
        const std::uint64_t* bits = field->column(fx, fz);
        out.approx[z * width + x] = 1;
        out.bits_at[z * width + x] = static_cast<std::uint32_t>(out.bits.size());
        out.bits.insert(out.bits.end(), bits, bits + words);
      }
    }
  }
  return out;
}

Result<ObstacleBits> assemble_obstacle_bits(const voxel::Heightfield& solid, int origin_x,
                                            int origin_z, const AgentConfig& agent,
                                            const ObstacleSource& source, BuildContext& ctx) {
  const GridSpec& grid = solid.grid;
  int top = 1;
  for (const voxel::Span& span : solid.spans) top = std::max(top, static_cast<int>(span.max));
  const int word_count = (top + 63) / 64;
  if (word_count > ObstacleBits::kMaxPlaneWords)
    return build_obstacle_bits(solid, agent, ctx, BitsKept::ApproxOnly);
  auto timer = ctx.scoped_timer("jump_obstacles");
  LEAPNAV_TRY(ctx.check_cancel("obstacle field"));
  if (!(agent.height > 0.0F) || !(agent.radius >= 0.0F) || !std::isfinite(agent.height) ||
      !std::isfinite(agent.radius))
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: agent height must be > 0 and radius >= 0");
  ObstacleBits field;
  field.grid = grid;
  field.grow_down =
      static_cast<int>(std::ceil(static_cast<double>(agent.height) / grid.cell_height));
  (void)blocking_offsets(agent.radius, grid.cell_size, field.reach);
  field.words = word_count;
  field.all_bits = false;
  const auto words = static_cast<std::size_t>(word_count);
  const auto depth = static_cast<std::size_t>(grid.depth);
  const auto width = static_cast<std::size_t>(grid.width);
  const std::uint64_t plane_values =
      (static_cast<std::uint64_t>(grid.depth) * (grid.width + RunPlanes::kPadding + 63) +
       static_cast<std::uint64_t>(grid.width) * (grid.depth + RunPlanes::kPadding + 63)) *
      RunPlanes::kPlanes;
  LEAPNAV_TRY(ctx.check_memory("obstacle field bits", plane_values * sizeof(RunPlanes::Value)));
  init_planes(field.rows_x, depth, width);
  init_planes(field.rows_z, width, depth);
  const auto sx = static_cast<std::size_t>(field.rows_x.stride);
  const auto sz = static_cast<std::size_t>(field.rows_z.stride);
  // rows along x: segments of a row within one source rectangle; the approximate columns' bits
  // in rows_x order
  for (std::size_t z = 0; z < depth; ++z) {
    const int wz = origin_z + static_cast<int>(z);
    std::size_t x = 0;
    while (x < width) {
      const int wx = origin_x + static_cast<int>(x);
      const ObstacleColumns& from = *source(wx, wz);
      const auto fx = static_cast<std::size_t>(wx - from.x0);
      const auto fz = static_cast<std::size_t>(wz - from.z0);
      const auto fw = static_cast<std::size_t>(from.width);
      const std::size_t n = std::min(width - x, fw - fx);
      for (std::size_t q = 0; q < RunPlanes::kPlanes; ++q) {
        const RunPlanes::Value* src = from.rows_x.data() + (fz * RunPlanes::kPlanes + q) * fw + fx;
        std::copy(src, src + n, field.rows_x.values.data() + (z * RunPlanes::kPlanes + q) * sx + x);
      }
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t c = fz * fw + fx + k;
        if (from.approx[c] == 0) continue;
        const std::size_t p = x + k;
        field.rows_x.approx[z * static_cast<std::size_t>(field.rows_x.approx_words) + p / 64] |=
            std::uint64_t{1} << (p % 64);
        // note: a column's blocked voxels lie below its neighbourhood's tallest span, so words
        // past either count are zero
        const std::uint64_t* bits = from.bits.data() + from.bits_at[c];
        const std::size_t have = std::min(words, static_cast<std::size_t>(from.words));
        field.bits.insert(field.bits.end(), bits, bits + have);
        field.bits.insert(field.bits.end(), words - have, std::uint64_t{0});
      }
      x += n;
    }
  }
  // rows along z
  for (std::size_t x = 0; x < width; ++x) {
    const int wx = origin_x + static_cast<int>(x);
    std::size_t z = 0;
    while (z < depth) {
      const int wz = origin_z + static_cast<int>(z);
      const ObstacleColumns& from = *source(wx, wz);
      const auto fx = static_cast<std::size_t>(wx - from.x0);
      const auto fz = static_cast<std::size_t>(wz - from.z0);
      const auto fd = static_cast<std::size_t>(from.depth);
      const std::size_t n = std::min(depth - z, fd - fz);
      for (std::size_t q = 0; q < RunPlanes::kPlanes; ++q) {
        const RunPlanes::Value* src = from.rows_z.data() + (fx * RunPlanes::kPlanes + q) * fd + fz;
        std::copy(src, src + n, field.rows_z.values.data() + (x * RunPlanes::kPlanes + q) * sz + z);
      }
      z += n;
    }
  }
  field.kept_before.resize(field.rows_x.approx.size());
  std::uint32_t kept_count = 0;
  for (std::size_t w = 0; w < field.rows_x.approx.size(); ++w) {
    field.kept_before[w] = kept_count;
    kept_count += static_cast<std::uint32_t>(std::popcount(field.rows_x.approx[w]));
  }
  for (std::size_t z = 0; z < depth; ++z) {
    const std::uint64_t* from = field.rows_x.approx_row(static_cast<int>(z));
    for (std::size_t w = 0; w * 64 < width; ++w) {
      for (std::uint64_t bits = from[w]; bits != 0; bits &= bits - 1) {
        const std::size_t x = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        field.rows_z.approx[x * static_cast<std::size_t>(field.rows_z.approx_words) + z / 64] |=
            std::uint64_t{1} << (z % 64);
      }
    }
  }
  return field;
}

Result<ObstacleField> build_obstacle_field(const voxel::Heightfield& solid,
                                           const voxel::CompactHeightfield& open,
                                           const AgentConfig& agent, BuildContext& ctx) {
  const GridSpec& grid = solid.grid;
  if (!(grid == open.grid))
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: solid and compact heightfields have different grids");
  const auto columns = static_cast<std::size_t>(grid.column_count());
  if (open.column_first.size() != columns + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "obstacle field: heightfield column arrays do not match the grid");
  LEAPNAV_TRY_ASSIGN(const ObstacleBits blocked, build_obstacle_bits(solid, agent, ctx));
  LEAPNAV_TRY(ctx.check_cancel("obstacle field"));
  auto timer = ctx.scoped_timer("jump_obstacles");
  ObstacleField field;
  field.grid = grid;
  field.grow_down = blocked.grow_down;
  field.reach = blocked.reach;
  const auto words = static_cast<std::size_t>(blocked.words);
  std::vector<std::uint32_t> counts(columns, 0);
  const std::size_t grain = 16;
  const auto depth = static_cast<std::size_t>(grid.depth);
  const auto width = static_cast<std::size_t>(grid.width);
  parallel_for(ctx.threads(), 0, depth, grain, [&](std::size_t z0, std::size_t z1) {
    for (std::size_t c = z0 * width; c < z1 * width; ++c) {
      const std::uint64_t* bits = blocked.column(c);
      std::uint32_t runs = 0;
      std::uint64_t carry = 0;
      for (std::size_t w = 0; w < words; ++w) {
        // note: few runs per word; clearing bits beats a library popcount call
        for (std::uint64_t starts = bits[w] & ~((bits[w] << 1) | carry); starts != 0;
             starts &= starts - 1)
          ++runs;
        carry = bits[w] >> 63;
      }
      counts[c] = runs;
    }
  });
  LEAPNAV_TRY(ctx.check_memory("obstacle field",
                               static_cast<std::uint64_t>(columns + 1) * sizeof(std::uint32_t)));
  field.column_first.assign(columns + 1, 0);
  for (std::size_t c = 0; c < columns; ++c)
    field.column_first[c + 1] = field.column_first[c] + counts[c];
  LEAPNAV_TRY(ctx.check_memory("obstacle field spans",
                               std::uint64_t{field.column_first[columns]} * sizeof(ObstacleSpan)));
  field.spans.resize(field.column_first[columns]);
  parallel_for(ctx.threads(), 0, depth, grain, [&](std::size_t z0, std::size_t z1) {
    for (std::size_t c = z0 * width; c < z1 * width; ++c) {
      const std::uint64_t* bits = blocked.column(c);
      ObstacleSpan* out = field.spans.data() + field.column_first[c];
      std::size_t n = 0;
      int k = 0;
      const int limit = static_cast<int>(words * 64);
      // runs: find the next set bit, then the next clear bit
      const auto next = [&](int from, bool want_set) {
        while (from < limit) {
          const std::size_t w = static_cast<std::size_t>(from >> 6);
          std::uint64_t v = want_set ? bits[w] : ~bits[w];
          v &= ~std::uint64_t{0} << (from & 63);
          if (v != 0) return static_cast<int>(w * 64) + std::countr_zero(v);
          from = static_cast<int>(w + 1) * 64;
        }
        return limit;
      };
      while (true) {
        const int lo = next(k, true);
        if (lo >= limit) break;
        const int hi = next(lo, false);
        out[n++] = {static_cast<std::uint16_t>(lo), static_cast<std::uint16_t>(hi),
                    kNoWalkableSpan};
        k = hi;
      }
      // a run's top is walkable when an open span's floor sits exactly there
      std::size_t r = 0;
      for (std::uint32_t s = open.first(c); s < open.end(c); ++s) {
        const std::uint16_t y = open.spans[s].y;
        while (r < n && out[r].max < y) ++r;
        if (r < n && out[r].max == y) out[r].walkable_span = s;
      }
    }
  });
  return field;
}

Status validate(const ObstacleBits& field) {
  const auto fail = [](const std::string& what) {
    return make_error(ErrorCode::Internal, "obstacle bits: " + what);
  };
  const GridSpec& grid = field.grid;
  const auto columns = static_cast<std::size_t>(grid.column_count());
  if (field.words < 0) return fail("negative word count");
  const bool planes = field.words <= ObstacleBits::kMaxPlaneWords;
  if (planes != field.has_planes())
    return fail("planes present when they should not be, or absent");
  if (!planes && !field.all_bits) return fail("bits not all kept without planes");
  std::size_t kept = columns;
  if (!field.all_bits) {
    // the kept columns are the approximate ones of rows_x, in its order; kept_before ranks them
    const RunPlanes& rows = field.rows_x;
    if (rows.approx_words < 0 ||
        rows.approx.size() !=
            static_cast<std::size_t>(grid.depth) * static_cast<std::size_t>(rows.approx_words) ||
        field.kept_before.size() != rows.approx.size())
      return fail("kept_before does not match the approximate bits");
    kept = 0;
    for (int z = 0; z < grid.depth; ++z) {
      for (int w = 0; w < rows.approx_words; ++w) {
        const std::size_t at =
            static_cast<std::size_t>(z) * static_cast<std::size_t>(rows.approx_words) +
            static_cast<std::size_t>(w);
        if (field.kept_before[at] != kept)
          return fail("kept_before of row " + std::to_string(z) + " word " + std::to_string(w) +
                      " is not the number of kept columns before it");
        const std::uint64_t flags = rows.approx[at];
        if (flags != 0 && w * 64 + 63 - std::countl_zero(flags) >= grid.width)
          return fail("rows_x row " + std::to_string(z) + " flags a position past its end");
        kept += static_cast<std::size_t>(std::popcount(flags));
      }
    }
  }
  if (field.bits.size() != kept * static_cast<std::size_t>(field.words))
    return fail("bit array size does not match the columns kept");
  if (!planes) return {};
  const auto words = static_cast<std::size_t>(field.words);
  const struct {
    const RunPlanes* planes;
    int rows;
    int length;
    bool along_x;
  } orientations[2] = {{&field.rows_x, grid.depth, grid.width, true},
                       {&field.rows_z, grid.width, grid.depth, false}};
  for (const auto& o : orientations) {
    const RunPlanes& p = *o.planes;
    if (p.stride < o.length + RunPlanes::kPadding ||
        p.values.size() != static_cast<std::size_t>(o.rows) * RunPlanes::kPlanes *
                               static_cast<std::size_t>(p.stride) ||
        p.approx_words * 64 < p.stride + 64 ||
        p.approx.size() !=
            static_cast<std::size_t>(o.rows) * static_cast<std::size_t>(p.approx_words))
      return fail("plane sizes do not match the grid");
    for (int r = 0; r < o.rows; ++r) {
      const RunPlanes::Value* row = p.row(r);
      for (int q = 0; q < p.stride; ++q) {
        RunBounds want_runs;
        const auto stride = static_cast<std::size_t>(p.stride);
        const auto at = [&](int plane) {
          return row[static_cast<std::size_t>(plane) * stride + static_cast<std::size_t>(q)];
        };
        const std::uint64_t approx_word =
            p.approx_row(r)[static_cast<std::size_t>(q) / 64] >> (static_cast<unsigned>(q) % 64);
        const std::uint64_t* bits = nullptr;
        if (q < o.length) {
          const int x = o.along_x ? q : r;
          const int z = o.along_x ? r : q;
          bits = field.column(x, z);
          if (!field.all_bits && (bits != nullptr) != ((approx_word & 1U) != 0))
            return fail("the approximate columns along x and along z differ");
        }
        if (bits == nullptr && q < o.length) {
          // only the planes: well formed (runs ordered, or missing; bounds stored exactly)
          const bool run0 = at(RunPlanes::kLo0) < at(RunPlanes::kHi0);
          const bool run1 = at(RunPlanes::kLo1) < at(RunPlanes::kHi1);
          const bool none0 = at(RunPlanes::kLo0) == RunPlanes::kNoRunLo &&
                             at(RunPlanes::kHi0) == RunPlanes::kNoRunHi;
          const bool none1 = at(RunPlanes::kLo1) == RunPlanes::kNoRunLo &&
                             at(RunPlanes::kHi1) == RunPlanes::kNoRunHi;
          const bool exact =
              (none0 || (at(RunPlanes::kLo0) >= RunPlanes::encode(0) &&
                         at(RunPlanes::kHi0) <= RunPlanes::encode(RunPlanes::kMaxExact))) &&
              (none1 || at(RunPlanes::kHi1) <= RunPlanes::encode(RunPlanes::kMaxExact));
          if (!((run0 && run1 && at(RunPlanes::kHi0) < at(RunPlanes::kLo1)) || (run0 && none1) ||
                (none0 && none1)) ||
              !exact)
            return fail(std::string(o.along_x ? "rows_x" : "rows_z") + " row " + std::to_string(r) +
                        " position " + std::to_string(q) + " holds malformed runs");
          continue;
        }
        if (q < o.length) {
          // note: read bit by bit, independently of the builder's word scan
          std::vector<std::pair<int, int>> runs;
          for (int k = 0; k < static_cast<int>(words * 64); ++k) {
            if (((bits[static_cast<std::size_t>(k >> 6)] >> (k & 63)) & 1U) == 0) continue;
            if (!runs.empty() && runs.back().second == k)
              ++runs.back().second;
            else
              runs.emplace_back(k, k + 1);
          }
          if (!runs.empty()) {
            want_runs.lo0 = runs[0].first;
            want_runs.hi0 = runs[0].second;
          }
          if (runs.size() > 1) {
            want_runs.lo1 = runs[1].first;
            want_runs.hi1 = runs.back().second;
            want_runs.approx = runs.size() > 2;
          }
        }
        const PlaneColumn want = encode_column(want_runs);
        if (at(RunPlanes::kLo0) != want.lo0 || at(RunPlanes::kHi0) != want.hi0 ||
            at(RunPlanes::kLo1) != want.lo1 || at(RunPlanes::kHi1) != want.hi1 ||
            (approx_word & 1U) != static_cast<std::uint64_t>(want.approx))
          return fail(std::string(o.along_x ? "rows_x" : "rows_z") + " row " + std::to_string(r) +
                      " position " + std::to_string(q) + " does not match the column's runs");
      }
    }
  }
  return {};
}

Status validate(const ObstacleField& field, const voxel::CompactHeightfield& open) {
  const auto columns = static_cast<std::size_t>(field.grid.column_count());
  if (field.column_first.size() != columns + 1 || field.column_first.front() != 0 ||
      field.column_first.back() != field.spans.size())
    return make_error(ErrorCode::Internal, "obstacle field: column_first does not match spans");
  for (std::size_t c = 0; c < columns; ++c) {
    if (field.column_first[c] > field.column_first[c + 1])
      return make_error(ErrorCode::Internal, "obstacle field: column_first not monotone");
    for (std::uint32_t s = field.first(c); s < field.end(c); ++s) {
      const ObstacleSpan& span = field.spans[s];
      if (span.min >= span.max)
        return make_error(ErrorCode::Internal,
                          "obstacle field: empty span in column " + std::to_string(c));
      if (s > field.first(c) && field.spans[s - 1].max >= span.min)
        return make_error(ErrorCode::Internal,
                          "obstacle field: spans overlap or touch in column " + std::to_string(c));
      if (span.walkable_span != kNoWalkableSpan) {
        if (span.walkable_span < open.first(c) || span.walkable_span >= open.end(c) ||
            open.spans[span.walkable_span].y != span.max)
          return make_error(
              ErrorCode::Internal,
              "obstacle field: walkable span does not sit on its run's top in column " +
                  std::to_string(c));
      }
    }
  }
  return {};
}

}  // namespace leapnav::jump
