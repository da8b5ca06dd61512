// Land-voxel search (thesis §5.4, Algorithm 1) over the obstacle field, one quadrant at a time in
// rotated coordinates. Cell (i, j) of the north-east frame covers [i, i+1] × [j, j+1] cells from
// the sample corner; trajectories over it have horizontal distances [|(i, j)|, |(i+1, j+1)|]·cs,
// so the heights they take there are exactly arc_range over that interval (tabulated once per
// configuration). A column is hit when that range meets the interior of one of its blocked runs;
// the topmost such run decides. Wedge tests use integer cross products; the recursion is an
// explicit stack with the lower sub-wedge on top, which yields counter-clockwise output.
// A row's cells are not tested one by one: a vector kernel compares up to 64 cells' voxel bands
// with their columns' run planes at once (a superset of the hits: columns with more than two runs
// are flagged and checked against their bits), and the scan jumps from candidate to candidate.
#include "leapnav/jumplinks/land_search.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LEAPNAV_X86_KERNELS 1
#endif

#include "leapnav/core/assert.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/jumplinks/trajectory.hpp"

namespace leapnav::jump {

namespace {

using I64 = std::int64_t;

// A pending piece of the search: a wedge [(bx, by), (tx, ty)] scanned from cell (i, j), or, when
// j < 0, a land voxel to emit: column (i, bx), span by, polygon tx (see emit_task).
struct ScanTask {
  int i = 0;
  int j = 0;
  // note: 32-bit corners (bounded by the search extent) keep the task small; products widen
  std::int32_t bx = 1, by = 0, tx = 0, ty = 1;
};

ScanTask emit_task(const LandVoxel& v) {
  ScanTask task;
  task.i = v.x;
  task.j = -1;
  task.bx = v.z;
  task.by = static_cast<std::int32_t>(v.span);
  task.tx = static_cast<std::int32_t>(v.poly);
  return task;
}

LandVoxel emitted(const ScanTask& task) {
  return LandVoxel{task.i, task.bx, static_cast<std::uint32_t>(task.by),
                   static_cast<std::uint32_t>(task.tx)};
}

// Doubles the task stack's storage (its contents are kept); returns the new data.
[[gnu::noinline]] ScanTask* grow_tasks(std::vector<ScanTask>& stack) {
  stack.resize(2 * stack.size());
  return stack.data();
}

// Whether a blocked voxel of a column's (or strip's) bit rows lies in [k0, k1] (absolute).
inline bool band_blocked(const std::uint64_t* words, int word_count, int k0, int k1) {
  k0 = std::max(k0, 0);
  k1 = std::min(k1, word_count * 64 - 1);
  if (k0 > k1) return false;
  const int w0 = k0 >> 6;
  const int w1 = k1 >> 6;
  // note: (2 << (k1 - k0)) - 1 is k1 - k0 + 1 low bits, wrapping to all 64 when that is 64
  if (w0 == w1) return ((words[w0] >> (k0 & 63)) & ((std::uint64_t{2} << (k1 - k0)) - 1)) != 0;
  for (int w = w0; w <= w1; ++w) {
    std::uint64_t mask = ~std::uint64_t{0};
    if (w == w0) mask &= ~std::uint64_t{0} << (k0 & 63);
    if (w == w1) mask &= ~std::uint64_t{0} >> (63 - (k1 & 63));
    if ((words[w] & mask) != 0) return true;
  }
  return false;
}

// The maximal run [lo, hi) of blocked voxels holding the topmost blocked voxel in [k0, k1]
// (absolute); false when there is none.
bool topmost_run(const std::uint64_t* words, int word_count, int k0, int k1, int& lo, int& hi) {
  const int limit = word_count * 64;
  k0 = std::max(k0, 0);
  k1 = std::min(k1, limit - 1);
  if (k0 > k1) return false;
  int top = -1;
  for (int w = k1 >> 6; w >= (k0 >> 6); --w) {
    std::uint64_t v = words[w];
    if (w == k1 >> 6) v &= ~std::uint64_t{0} >> (63 - (k1 & 63));
    if (w == k0 >> 6) v &= ~std::uint64_t{0} << (k0 & 63);
    if (v != 0) {
      top = w * 64 + 63 - std::countl_zero(v);
      break;
    }
  }
  if (top < 0) return false;
  hi = limit;
  for (int k = top + 1; k < limit;) {
    const int w = k >> 6;
    const std::uint64_t v = ~words[w] & (~std::uint64_t{0} << (k & 63));
    if (v != 0) {
      hi = w * 64 + std::countr_zero(v);
      break;
    }
    k = (w + 1) * 64;
  }
  lo = 0;
  for (int k = top - 1; k >= 0;) {
    const int w = k >> 6;
    const std::uint64_t v = ~words[w] & (~std::uint64_t{0} >> (63 - (k & 63)));
    if (v != 0) {
      lo = w * 64 + 64 - std::countl_zero(v);
      break;
    }
    k = w * 64 - 1;
  }
  return true;
}

// z of (a, 0) × (p, 0): > 0 when p is left of (above) the ray through a.
I64 cross(I64 ax, I64 ay, I64 px, I64 py) {
  return ax * py - ay * px;
}

// The candidate kernels: lane l (0..n-1, n <= 64) is set when the band [y + band_lo[l], y +
// band_hi[l]] of voxel indices meets run 0 or run 1 of the column at planes[l] (see RunPlanes):
// lo <= top of the band and hi > bottom of the band. In plane values the band's top is clamped
// to [-128, 127] and its bottom to [-128, kClamped - 1]: below every stored bound, the bottom
// still lies under every run's top, and above kMaxExact the top still lies over every stored
// bottom; a clamped run top (kClamped) stays above every clamped band bottom, so a band above
// kMaxExact still meets a run that reaches there (its column is approximate: checked against
// the bits). Bands are Band values: int8_t (narrow: y - kBias and every band fit in 8 bits, so
// the 8-bit saturating sum is the clamped sum) or int16_t (wide: summed in 16 bits, then
// narrowed with saturation). An empty band (Band max, Band min) meets nothing: its top clamps
// to -128 or its bottom to kClamped - 1 (whichever way y shifts it). Lanes from n on may be
// set (the caller masks them); every array must be readable for 64 values.
template <class Band>
std::uint64_t candidates_portable(const void* band_lo, const void* band_hi, int y,
                                  const RunPlanes::Value* planes, std::ptrdiff_t stride, int n) {
  const auto* lo = static_cast<const Band*>(band_lo);
  const auto* hi = static_cast<const Band*>(band_hi);
  const RunPlanes::Value* lo0 = planes + RunPlanes::kLo0 * stride;
  const RunPlanes::Value* hi0 = planes + RunPlanes::kHi0 * stride;
  const RunPlanes::Value* lo1 = planes + RunPlanes::kLo1 * stride;
  const RunPlanes::Value* hi1 = planes + RunPlanes::kHi1 * stride;
  const int yb = y - RunPlanes::kBias;
  std::uint64_t out = 0;
  for (int l = 0; l < n; ++l) {
    // note: the wide tables are saturated int16, so the sum is taken as the kernels take it
    const int bl = std::clamp(std::clamp<int>(lo[l] + yb, std::numeric_limits<Band>::min(),
                                              std::numeric_limits<Band>::max()),
                              -128, RunPlanes::kClamped - 1);
    const int bh = std::clamp(std::clamp<int>(hi[l] + yb, std::numeric_limits<Band>::min(),
                                              std::numeric_limits<Band>::max()),
                              -128, 127);
    const bool hit = (lo0[l] <= bh && hi0[l] > bl) || (lo1[l] <= bh && hi1[l] > bl);
    out |= static_cast<std::uint64_t>(hit) << l;
  }
  return out;
}

#ifdef LEAPNAV_X86_KERNELS
// note: lambdas would not inherit the target attribute, so the helpers are functions

// 32 wide band bounds plus yb, narrowed to 8 bits with saturation, in lane order (packing
// interleaves the 128-bit halves; the permute puts the lanes back in order)
__attribute__((target("avx2"), always_inline)) inline __m256i wide_band_avx2(const void* band,
                                                                             int o, __m256i yb) {
  const auto* b = static_cast<const std::int16_t*>(band) + o;
  const __m256i a0 = _mm256_adds_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)), yb);
  const __m256i a1 =
      _mm256_adds_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 16)), yb);
  return _mm256_permute4x64_epi64(_mm256_packs_epi16(a0, a1), 0xD8);
}

// 32 narrow band bounds plus yb (8 bits, saturating)
__attribute__((target("avx2"), always_inline)) inline __m256i narrow_band_avx2(const void* band,
                                                                               int o, __m256i yb) {
  const auto* b = static_cast<const std::int8_t*>(band) + o;
  return _mm256_adds_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)), yb);
}

__attribute__((target("avx2"), always_inline)) inline __m256i plane_avx2(
    const RunPlanes::Value* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

template <bool Narrow>
__attribute__((target("avx2"))) std::uint64_t candidates_avx2(const void* band_lo,
                                                              const void* band_hi, int y,
                                                              const RunPlanes::Value* planes,
                                                              std::ptrdiff_t stride, int n) {
  const std::int16_t yb = static_cast<std::int16_t>(y - RunPlanes::kBias);
  const __m256i yb16 = _mm256_set1_epi16(yb);
  const __m256i yb8 = _mm256_set1_epi8(static_cast<char>(Narrow ? yb : 0));
  const __m256i bottom_max = _mm256_set1_epi8(RunPlanes::kClamped - 1);
  std::uint64_t out = 0;
  // note: only the groups of 32 lanes that hold used lanes (fewer cache lines for short rows)
  for (int q = 0; q < (n + 31) / 32; ++q) {
    const int o = 32 * q;
    __m256i bl;
    __m256i bh;
    if constexpr (Narrow) {
      bl = narrow_band_avx2(band_lo, o, yb8);
      bh = narrow_band_avx2(band_hi, o, yb8);
    } else {
      bl = wide_band_avx2(band_lo, o, yb16);
      bh = wide_band_avx2(band_hi, o, yb16);
    }
    bl = _mm256_min_epi8(bl, bottom_max);
    // note: lo <= bh is !(lo > bh)
    const __m256i h0 = _mm256_andnot_si256(
        _mm256_cmpgt_epi8(plane_avx2(planes + RunPlanes::kLo0 * stride + o), bh),
        _mm256_cmpgt_epi8(plane_avx2(planes + RunPlanes::kHi0 * stride + o), bl));
    const __m256i h1 = _mm256_andnot_si256(
        _mm256_cmpgt_epi8(plane_avx2(planes + RunPlanes::kLo1 * stride + o), bh),
        _mm256_cmpgt_epi8(plane_avx2(planes + RunPlanes::kHi1 * stride + o), bl));
    out |= static_cast<std::uint64_t>(
               static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(h0, h1))))
           << o;
  }
  return out;
}

// 64 wide band bounds plus yb, narrowed to 8 bits with saturation, in lane order (packing
// interleaves the 128-bit quarters; the permute puts the lanes back in order)
__attribute__((target("avx512bw"), always_inline)) inline __m512i wide_band_avx512(const void* band,
                                                                                   __m512i yb) {
  const auto* b = static_cast<const std::int16_t*>(band);
  const __m512i a0 = _mm512_adds_epi16(_mm512_loadu_si512(b), yb);
  const __m512i a1 = _mm512_adds_epi16(_mm512_loadu_si512(b + 32), yb);
  // note: the zero-masked form, as the unmasked one reads an undefined vector (GCC 12 warns)
  return _mm512_maskz_permutexvar_epi64(0xFF, _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                        _mm512_packs_epi16(a0, a1));
}

template <bool Narrow>
__attribute__((target("avx512bw"))) std::uint64_t candidates_avx512(const void* band_lo,
                                                                    const void* band_hi, int y,
                                                                    const RunPlanes::Value* planes,
                                                                    std::ptrdiff_t stride, int n) {
  const std::int16_t yb = static_cast<std::int16_t>(y - RunPlanes::kBias);
  __m512i bl;
  __m512i bh;
  if constexpr (Narrow) {
    const __m512i yb8 = _mm512_set1_epi8(static_cast<char>(yb));
    bl = _mm512_adds_epi8(_mm512_loadu_si512(band_lo), yb8);
    bh = _mm512_adds_epi8(_mm512_loadu_si512(band_hi), yb8);
  } else {
    const __m512i yb16 = _mm512_set1_epi16(yb);
    bl = wide_band_avx512(band_lo, yb16);
    bh = wide_band_avx512(band_hi, yb16);
  }
  bl = _mm512_min_epi8(bl, _mm512_set1_epi8(RunPlanes::kClamped - 1));
  // note: masked loads read only the used lanes' bytes (fewer cache lines for short rows)
  const __mmask64 used = n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
  const __mmask64 h0 = _mm512_mask_cmpgt_epi8_mask(
      _mm512_mask_cmple_epi8_mask(
          used, _mm512_maskz_loadu_epi8(used, planes + RunPlanes::kLo0 * stride), bh),
      _mm512_maskz_loadu_epi8(used, planes + RunPlanes::kHi0 * stride), bl);
  const __mmask64 h1 = _mm512_mask_cmpgt_epi8_mask(
      _mm512_mask_cmple_epi8_mask(
          used, _mm512_maskz_loadu_epi8(used, planes + RunPlanes::kLo1 * stride), bh),
      _mm512_maskz_loadu_epi8(used, planes + RunPlanes::kHi1 * stride), bl);
  return static_cast<std::uint64_t>(h0 | h1);
}
#endif

std::uint64_t low_bits(int n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// Whether (px, pz) lies inside convex polygon `poly` or within `tolerance` of it.
bool inside_convex(const PolygonEdges& polygons, std::uint32_t poly, float px, float pz,
                   float tolerance) {
  const PolygonEdges::Edge* edges = polygons.edges.data() + polygons.first[poly];
  const std::uint32_t count = polygons.first[poly + 1] - polygons.first[poly];
  for (std::uint32_t k = 0; k < count; ++k) {
    const PolygonEdges::Edge& e = edges[k];
    const double cross =
        e.ex * (static_cast<double>(pz) - e.az) - e.ez * (static_cast<double>(px) - e.ax);
    // note: a point on the inner side passes whatever the edge length; only the others are
    // compared by distance
    if (cross >= 0.0) continue;
    if (e.len == 0.0) continue;
    if (cross / e.len < -tolerance) return false;
  }
  return true;
}

// The centre polygon (see centre_polygons) of open span s in column (x, z).
std::uint32_t centre_polygon(const voxel::CompactHeightfield& open, const mesh::NavMesh& navmesh,
                             const PolygonEdges& polygons, int x, int z, std::uint32_t s) {
  const GridSpec& grid = open.grid;
  const float cs = grid.cell_size;
  const float ch = grid.cell_height;
  const float slack = navmesh.config.agent.max_climb + ch;
  const std::size_t polys = navmesh.polygon_count();
  const voxel::CompactSpan& span = open.spans[s];
  const float px = grid.origin.x + (static_cast<float>(x) + 0.5F) * cs;
  const float pz = grid.origin.z + (static_cast<float>(z) + 0.5F) * cs;
  const float py = grid.origin.y + static_cast<float>(span.y) * ch;
  const auto contains = [&](std::uint32_t p) {
    const AABB& b = navmesh.poly_bounds[p];
    if (py < b.min.y - slack || py > b.max.y + slack) return false;
    return inside_convex(polygons, p, px, pz, 1e-4F * cs);
  };
  // the span's own polygon is the first candidate and nearly always the answer
  const std::uint32_t own = navmesh.span_poly[s];
  if (own != mesh::kNoPoly && own < polys && contains(own)) return own;
  // note: one buffer per thread, reused (this runs once per span)
  thread_local std::vector<std::uint32_t> candidates;
  candidates.clear();
  const auto add = [&](std::uint32_t p) {
    if (p == mesh::kNoPoly || p >= polys) return;
    if (std::find(candidates.begin(), candidates.end(), p) == candidates.end())
      candidates.push_back(p);
  };
  add(own);
  for (int dir = 0; dir < 4; ++dir) {
    if (span.neighbor[static_cast<std::size_t>(dir)] == voxel::kNotConnected) continue;
    const int nx = x + voxel::dir_dx(dir);
    const int nz = z + voxel::dir_dz(dir);
    if (!grid.in_bounds(nx, nz)) continue;
    const std::uint32_t n = open.neighbor_index(x, z, s, dir);
    add(navmesh.span_poly[n]);
    const int side = (dir + 1) & 3;
    const voxel::CompactSpan& ns = open.spans[n];
    if (ns.neighbor[static_cast<std::size_t>(side)] == voxel::kNotConnected) continue;
    if (!grid.in_bounds(nx + voxel::dir_dx(side), nz + voxel::dir_dz(side))) continue;
    add(navmesh.span_poly[open.neighbor_index(nx, nz, n, side)]);
  }
  if (own != mesh::kNoPoly && own < polys) {
    for (const std::uint32_t p : navmesh.neighbors(mesh::PolyId{own})) add(p);
  }
  for (const std::uint32_t p : candidates) {
    if (p != own && contains(p)) return p;
  }
  return mesh::kNoPoly;
}

}  // namespace

PolygonEdges::PolygonEdges(const mesh::NavMesh& navmesh) {
  const std::size_t polys = navmesh.polygon_count();
  first.assign(polys + 1, 0);
  edges.reserve(navmesh.poly_vertices.size());
  for (std::size_t p = 0; p < polys; ++p) {
    const std::uint32_t begin = navmesh.poly_first[p];
    const std::uint32_t count = navmesh.poly_first[p + 1] - begin;
    for (std::uint32_t k = 0; k < count; ++k) {
      const Vec3 a = navmesh.vertices[navmesh.poly_vertices[begin + k]];
      const Vec3 b = navmesh.vertices[navmesh.poly_vertices[begin + (k + 1) % count]];
      Edge e;
      e.ax = a.x;
      e.az = a.z;
      e.ex = static_cast<double>(b.x) - a.x;
      e.ez = static_cast<double>(b.z) - a.z;
      e.len = std::sqrt(e.ex * e.ex + e.ez * e.ez);
      edges.push_back(e);
    }
    first[p + 1] = static_cast<std::uint32_t>(edges.size());
  }
}

std::uint64_t PolygonEdges::bytes(const mesh::NavMesh& navmesh) {
  return (navmesh.polygon_count() + 1) * sizeof(std::uint32_t) +
         navmesh.poly_vertices.size() * sizeof(Edge);
}

std::vector<std::uint32_t> centre_polygons(const voxel::CompactHeightfield& open,
                                           const mesh::NavMesh& navmesh, int threads) {
  std::vector<std::uint32_t> result(open.spans.size(), mesh::kNoPoly);
  if (navmesh.span_poly.size() != open.spans.size()) return result;
  const PolygonEdges polygons(navmesh);
  const GridSpec& grid = open.grid;
  parallel_for(threads, 0, static_cast<std::size_t>(grid.depth), 8,
               [&](std::size_t z0, std::size_t z1) {
                 for (std::size_t zs = z0; zs < z1; ++zs) {
                   const int z = static_cast<int>(zs);
                   for (int x = 0; x < grid.width; ++x) {
                     const std::size_t column = grid.column_index(x, z);
                     for (std::uint32_t s = open.first(column); s < open.end(column); ++s)
                       result[s] = centre_polygon(open, navmesh, polygons, x, z, s);
                   }
                 }
               });
  return result;
}

CentrePolygonCache::CentrePolygonCache(const voxel::CompactHeightfield& open,
                                       const mesh::NavMesh& navmesh)
    : open_(&open),
      navmesh_(&navmesh),
      edges_(navmesh),
      aligned_(navmesh.span_poly.size() == open.spans.size()),
      values_(open.spans.size(), kUnknown) {}

std::uint64_t CentrePolygonCache::bytes(const voxel::CompactHeightfield& open,
                                        const mesh::NavMesh& navmesh) {
  return open.spans.size() * sizeof(std::uint32_t) + PolygonEdges::bytes(navmesh);
}

std::uint32_t CentrePolygonCache::get(int x, int z, std::uint32_t span) const {
  if (!aligned_) return mesh::kNoPoly;
  // note: every thread that finds the slot empty computes the same value, so relaxed atomic
  // accesses suffice and the result does not depend on which thread wins
  std::atomic_ref<std::uint32_t> slot(values_[span]);
  std::uint32_t value = slot.load(std::memory_order_relaxed);
  if (value == kUnknown) {
    value = centre_polygon(*open_, *navmesh_, edges_, x, z, span);
    slot.store(value, std::memory_order_relaxed);
  }
  return value;
}

std::uint64_t LandSearch::table_bytes(const ObstacleBits& field, const JumpConfig& config) {
  const GridSpec& grid = field.grid;
  const double range = search_range(config) / grid.cell_size;
  const int grid_side = std::max(grid.width, grid.depth) + 1;
  const auto extent = static_cast<std::uint64_t>(
      std::clamp(static_cast<int>(std::min(std::floor(range), 1e6)), 0, grid_side));
  return extent * extent * sizeof(CellArc) + extent * sizeof(int) +
         (extent + 3) * sizeof(std::uint64_t) + 4 * extent * (extent + 128) * sizeof(std::int16_t);
}

bool LandSearch::supported(const ObstacleBits& field, Kernel kernel) {
  switch (kernel) {
    case Kernel::Auto:
      return true;
    case Kernel::Bits:
      return field.all_bits;
    case Kernel::Planes:
      return field.has_planes();
    case Kernel::PlanesAvx2:
    case Kernel::PlanesAvx512:
#ifdef LEAPNAV_X86_KERNELS
      return field.has_planes() &&
             (kernel == Kernel::PlanesAvx2 ? __builtin_cpu_supports("avx2")
                                           : __builtin_cpu_supports("avx512bw"));
#else
      return false;
#endif
  }
  return false;
}

LandSearch::LandSearch(const ObstacleBits& field, const voxel::CompactHeightfield& open,
                       const JumpConfig& config, Kernel kernel)
    : field_(&field), open_(&open) {
  if (kernel == Kernel::Auto || !supported(field, kernel)) {
    kernel = Kernel::Bits;
    for (const Kernel k : {Kernel::PlanesAvx512, Kernel::PlanesAvx2, Kernel::Planes}) {
      if (supported(field, k)) {
        kernel = k;
        break;
      }
    }
  }
  kernel_ = kernel;
  const double cs = field.grid.cell_size;
  const double ch = field.grid.cell_height;
  const double h = config.height;
  const double d = config.distance;
  const double range = search_range(config) / cs;
  // note: cells beyond the grid's size can never hold a column, which also bounds the tables
  // and keeps the wedge arithmetic within 32 bits
  const int grid_side = std::max(field.grid.width, field.grid.depth) + 1;
  extent_ = std::clamp(static_cast<int>(std::min(std::floor(range), 1e6)), 0, grid_side);
  // note: two rows past the extent hold -1 (no cell), so the scan reads row j + 1 unchecked
  row_last_.assign(static_cast<std::size_t>(extent_) + 2, -1);
  // note: ray coordinates are at most extent + 1; floor((2^64 - 1) / d) is within one of the
  // reciprocal, which the division corrects
  recip_.assign(static_cast<std::size_t>(extent_) + 3, 0);
  for (std::size_t divisor = 1; divisor < recip_.size(); ++divisor)
    recip_[divisor] = detail::reciprocal(divisor);
  for (int j = 0; j < extent_; ++j) {
    int last = -1;
    for (int i = 0; i < extent_; ++i) {
      const double fx = i + 1.0;
      const double fz = j + 1.0;
      if (fx * fx + fz * fz <= range * range) last = i;
    }
    row_last_[static_cast<std::size_t>(j)] = last;
  }
  arcs_.resize(static_cast<std::size_t>(extent_) * static_cast<std::size_t>(extent_));
  for (int j = 0; j < extent_; ++j) {
    for (int i = 0; i < extent_; ++i) {
      const double t0 = cs * std::sqrt(static_cast<double>(i) * i + static_cast<double>(j) * j);
      const double t1 = cs * std::sqrt((i + 1.0) * (i + 1.0) + (j + 1.0) * (j + 1.0));
      CellArc& arc = arcs_[static_cast<std::size_t>(i) +
                           static_cast<std::size_t>(j) * static_cast<std::size_t>(extent_)];
      const HeightRange all = arc_range(h, d, t0, t1);
      // note: rounding the float table outward keeps the hit test conservative
      arc.low = std::nextafter(static_cast<float>(all.low / ch), -1e30F);
      arc.high = std::nextafter(static_cast<float>(all.high / ch), 1e30F);
      if (t0 < 0.5 * d) {
        const HeightRange rise = arc_range(h, d, t0, std::min(t1, 0.5 * d));
        arc.has_rise = true;
        arc.rise_low = std::nextafter(static_cast<float>(rise.low / ch), -1e30F);
        arc.rise_high = std::nextafter(static_cast<float>(rise.high / ch), 1e30F);
      }
    }
  }
  words_ = field.words;
  // note: the start cell touches the start floor at t = 0 by construction; a touch is not a hit,
  // so its low end must stay exact rather than rounded outward.
  if (!arcs_.empty()) {
    arcs_[0].low = 0.0F;
    arcs_[0].rise_low = 0.0F;
  }
  for (CellArc& arc : arcs_) {
    arc.k_low = static_cast<std::int32_t>(std::floor(arc.low));
    arc.k_high = static_cast<std::int32_t>(std::ceil(arc.high)) - 1;
  }
  if (kernel_ != Kernel::Bits && extent_ > 0) {
    // narrow bands when every floor height y (at most the field's top) and every band fit
    bool narrow = field.words * 64 - RunPlanes::kBias <= std::numeric_limits<std::int8_t>::max();
    for (const CellArc& arc : arcs_) {
      if (arc.k_low <= arc.k_high && (arc.k_low < std::numeric_limits<std::int8_t>::min() ||
                                      arc.k_high > std::numeric_limits<std::int8_t>::max()))
        narrow = false;
    }
    switch (kernel_) {
      case Kernel::Planes:
        candidates_ = narrow ? candidates_portable<std::int8_t> : candidates_portable<std::int16_t>;
        break;
#ifdef LEAPNAV_X86_KERNELS
      case Kernel::PlanesAvx2:
        candidates_ = narrow ? candidates_avx2<true> : candidates_avx2<false>;
        break;
      case Kernel::PlanesAvx512:
        candidates_ = narrow ? candidates_avx512<true> : candidates_avx512<false>;
        break;
#endif
      default:
        break;
    }
    // note: loads reach 63 values past a chunk's first cell, both ways for the reversed rows
    band_stride_ = extent_ + 128;
    rev_base_ = extent_ + 62;
    band_size_ = static_cast<std::size_t>(extent_) * static_cast<std::size_t>(band_stride_);
    band_bytes_ = narrow ? 1 : 2;
    const auto fill = [&]<class Band>(std::vector<Band>& tables) {
      constexpr Band kEmptyLo = std::numeric_limits<Band>::max();
      constexpr Band kEmptyHi = std::numeric_limits<Band>::min();
      tables.assign(4 * band_size_, kEmptyLo);
      std::fill(tables.begin() + kBandHi * band_size_, tables.begin() + (kBandHi + 1) * band_size_,
                kEmptyHi);
      std::fill(tables.begin() + kBandHiRev * band_size_,
                tables.begin() + (kBandHiRev + 1) * band_size_, kEmptyHi);
      const auto saturate = [](std::int64_t v) {
        return static_cast<Band>(std::clamp<std::int64_t>(v, std::numeric_limits<Band>::min(),
                                                          std::numeric_limits<Band>::max()));
      };
      for (int j = 0; j < extent_; ++j) {
        for (int i = 0; i < extent_; ++i) {
          const CellArc& arc =
              arcs_[static_cast<std::size_t>(i) +
                    static_cast<std::size_t>(j) * static_cast<std::size_t>(extent_)];
          // an empty band keeps the (max, min) it was filled with: it meets nothing
          if (arc.k_low > arc.k_high) continue;
          const std::size_t row =
              static_cast<std::size_t>(j) * static_cast<std::size_t>(band_stride_);
          const auto at = row + static_cast<std::size_t>(i);
          const auto rev = row + static_cast<std::size_t>(rev_base_ - i);
          tables[kBandLo * band_size_ + at] = tables[kBandLoRev * band_size_ + rev] =
              saturate(arc.k_low);
          tables[kBandHi * band_size_ + at] = tables[kBandHiRev * band_size_ + rev] =
              saturate(arc.k_high);
        }
      }
    };
    if (narrow)
      fill(bands_narrow_);
    else
      fill(bands_wide_);
  }
}

template <class CentrePoly>
void LandSearch::find_all(int x, int z, int y, std::uint32_t start_poly,
                          const CentrePoly& centre_poly, std::vector<LandVoxel>& out,
                          std::uint64_t* cells_visited) const {
  LEAPNAV_ASSERT(y >= 0 && y <= 64 * words_, "land search: start height outside the field");
  std::uint64_t cells = 0;
  scan<0>(x, z, y, start_poly, centre_poly, out, cells);
  scan<1>(x, z, y, start_poly, centre_poly, out, cells);
  scan<2>(x, z, y, start_poly, centre_poly, out, cells);
  scan<3>(x, z, y, start_poly, centre_poly, out, cells);
  if (cells_visited != nullptr) *cells_visited += cells;
}

void LandSearch::find(int x, int z, int y, std::uint32_t start_poly,
                      std::span<const std::uint32_t> centre_poly, std::vector<LandVoxel>& out,
                      std::uint64_t* cells_visited) const {
  const auto lookup = [centre_poly](int, int, std::uint32_t span) { return centre_poly[span]; };
  find_all(x, z, y, start_poly, lookup, out, cells_visited);
}

void LandSearch::find(int x, int z, int y, std::uint32_t start_poly,
                      const CentrePolygonCache& centre_poly, std::vector<LandVoxel>& out,
                      std::uint64_t* cells_visited) const {
  const auto lookup = [&centre_poly](int cx, int cz, std::uint32_t span) {
    return centre_poly.get(cx, cz, span);
  };
  find_all(x, z, y, start_poly, lookup, out, cells_visited);
}

void LandSearch::find_many(std::span<const Start> starts, const CentrePolygonCache& centre_poly,
                           std::vector<LandVoxel>& out, std::vector<std::uint32_t>& first,
                           std::uint64_t* cells_visited) const {
  const auto lookup = [&centre_poly](int cx, int cz, std::uint32_t span) {
    return centre_poly.get(cx, cz, span);
  };
  find_many_with(starts, lookup, out, first, cells_visited);
}

void LandSearch::find_many(std::span<const Start> starts,
                           std::span<const std::uint32_t> centre_poly, std::vector<LandVoxel>& out,
                           std::vector<std::uint32_t>& first, std::uint64_t* cells_visited) const {
  const auto lookup = [centre_poly](int, int, std::uint32_t span) { return centre_poly[span]; };
  find_many_with(starts, lookup, out, first, cells_visited);
}

template <class CentrePoly>
void LandSearch::find_many_with(std::span<const Start> starts, const CentrePoly& lookup,
                                std::vector<LandVoxel>& out, std::vector<std::uint32_t>& first,
                                std::uint64_t* cells_visited) const {
  // note: per quadrant, every start's voxels and where they begin; then joined start by start
  thread_local std::array<std::vector<LandVoxel>, 4> parts;
  thread_local std::array<std::vector<std::uint32_t>, 4> part_first;
  std::uint64_t cells = 0;
  const auto run = [&]<int Quadrant>() {
    std::vector<LandVoxel>& part = parts[Quadrant];
    std::vector<std::uint32_t>& begin = part_first[Quadrant];
    part.clear();
    begin.clear();
    for (const Start& s : starts) {
      LEAPNAV_ASSERT(s.y >= 0 && s.y <= 64 * words_, "land search: start height outside the field");
      begin.push_back(static_cast<std::uint32_t>(part.size()));
      scan<Quadrant>(s.x, s.z, s.y, s.poly, lookup, part, cells);
    }
    begin.push_back(static_cast<std::uint32_t>(part.size()));
  };
  run.template operator()<0>();
  run.template operator()<1>();
  run.template operator()<2>();
  run.template operator()<3>();
  out.clear();
  first.clear();
  for (std::size_t k = 0; k < starts.size(); ++k) {
    first.push_back(static_cast<std::uint32_t>(out.size()));
    for (int q = 0; q < 4; ++q) {
      const std::vector<LandVoxel>& part = parts[static_cast<std::size_t>(q)];
      const std::vector<std::uint32_t>& begin = part_first[static_cast<std::size_t>(q)];
      out.insert(out.end(), part.begin() + begin[k], part.begin() + begin[k + 1]);
    }
  }
  first.push_back(static_cast<std::uint32_t>(out.size()));
  if (cells_visited != nullptr) *cells_visited += cells;
}

template <int Quadrant, class CentrePoly>
void LandSearch::scan(int qx, int qz, int y, std::uint32_t start_poly,
                      const CentrePoly& centre_poly, std::vector<LandVoxel>& out,
                      std::uint64_t& cells) const {
  if (extent_ == 0) return;
  const ObstacleBits& field = *field_;
  const voxel::CompactHeightfield& open = *open_;
  const GridSpec& grid = field.grid;
  // note: one stack per thread, reused across scans (a fresh vector per quadrant and sample
  // made allocation a visible share of the search)
  thread_local std::vector<ScanTask> stack;
  // note: the stack is used through a pointer and a count so that pushes inline (the vector's
  // own push_back stayed an out-of-line call); it only grows, out of line
  if (stack.size() < 64) stack.resize(64);
  ScanTask* tasks = stack.data();
  std::size_t task_count = 0;
  std::size_t task_capacity = stack.size();
  const auto push = [&](const ScanTask& task) {
    if (task_count == task_capacity) [[unlikely]] {
      tasks = grow_tasks(stack);
      task_capacity = stack.size();
    }
    tasks[task_count++] = task;
  };
  push(ScanTask{});
  // rotation into the quadrant: column of cell (i, j) is (ox + ix*i + jx*j, oz + iz*i + jz*j)
  // note: the quadrant is a template argument so that the rotation folds into the address
  // arithmetic and the per-cell branches on the row direction disappear
  constexpr int ix = Quadrant == 0 ? 1 : Quadrant == 2 ? -1 : 0;
  constexpr int iz = Quadrant == 1 ? 1 : Quadrant == 3 ? -1 : 0;
  constexpr int jx = -iz;
  constexpr int jz = ix;
  const int ox = Quadrant == 1 || Quadrant == 2 ? qx - 1 : qx;
  const int oz = Quadrant == 2 || Quadrant == 3 ? qz - 1 : qz;
  const auto row_last = [&](int j) { return row_last_[static_cast<std::size_t>(j)]; };
  constexpr bool along_x = ix != 0;        // rows run along world x (else along z)
  constexpr int kDir = along_x ? ix : iz;  // +1 when a row's cells run up its axis
  // floor(n / d) for 0 <= n, 1 <= d <= extent + 2 (n below 2^63): by the reciprocal table, a
  // multiply and one correction (a division was a visible share of each row and hit)
  const std::uint64_t* recip = recip_.data();
  const auto divide = [recip](I64 n, I64 d) -> I64 {
    const auto ud = static_cast<std::uint64_t>(d);
    return static_cast<I64>(detail::divide(static_cast<std::uint64_t>(n), ud, recip[ud]));
  };
  // leftmost cell of row j partially below the ray through (tx, ty), or -1
  const auto leftmost = [&divide](I64 tx, I64 ty, int j) -> int {
    if (ty <= 0) return -1;
    return static_cast<int>(divide(tx * j, ty));
  };

  while (task_count != 0) {
    const ScanTask task = tasks[--task_count];
    if (task.j < 0) {
      out.push_back(emitted(task));
      continue;
    }
    const I64 bx = task.bx, by = task.by;
    I64 tx = task.tx, ty = task.ty;
    int i = task.i;
    int j = task.j;
    if (i > row_last(j) || cross(tx, ty, i + 1, j) >= 0 || cross(bx, by, i, j + 1) <= 0) continue;
    bool done = false;
    while (!done) {
      // the row's last cell: inside the range and partially above A_b
      int i_end = row_last(j);
      if (by > 0) {
        // largest i with bx (j + 1) - by i > 0
        const I64 limit = divide(bx * (j + 1) + by - 1, by) - 1;
        if (limit < i_end) i_end = static_cast<int>(limit);
      }
      const CellArc* row =
          arcs_.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(extent_);
      const int row_x = ox + jx * j;
      const int row_z = oz + jz * j;
      // rows outside the grid hold nothing; inside, cells g0 .. g1 have their column in the grid
      const int across = along_x ? row_z : row_x;
      const int length = along_x ? grid.width : grid.depth;
      int g0 = 0;
      int g1 = -1;
      if (across >= 0 && across < (along_x ? grid.depth : grid.width)) {
        const int along0 = along_x ? row_x : row_z;
        g0 = kDir > 0 ? -along0 : along0 - (length - 1);
        g1 = kDir > 0 ? length - 1 - along0 : along0;
      }
      const int last = std::min(i_end, g1);
      if (i < g0 || i > last) {
        const int to = i > last ? i_end + 1 : std::min(g0, i_end + 1);
        cells += static_cast<std::uint64_t>(to - i);
        i = to;
      }
      const RunPlanes::Value* planes = nullptr;
      const std::uint64_t* approx = nullptr;
      std::ptrdiff_t stride = 0;
      if (candidates_ != nullptr && i <= last) {
        const RunPlanes& rows = along_x ? field.rows_x : field.rows_z;
        planes = rows.row(across);
        approx = rows.approx_row(across);
        stride = rows.stride;
      }
      // the 64 approx bits from position p on
      const auto approx_bits = [approx](int p) {
        const auto w = static_cast<std::size_t>(p >> 6);
        const int shift = p & 63;
        std::uint64_t v = approx[w] >> shift;
        if (shift != 0) v |= approx[w + 1] << (64 - shift);
        return v;
      };
      // the candidate cells of a window of up to 64 cells win_lo .. win_hi: a superset of the
      // hits (exact with the bits kernel; the plane kernels may flag columns whose planes are
      // approximate, checked against the bits below). Bit (lane) of cell c: c - win_lo, or
      // win_hi - c in rows that run towards -x or -z (the lanes follow the columns)
      int win_lo = 0;
      int win_hi = -1;
      std::uint64_t window = 0;
      std::uint64_t window_approx = 0;  // the window's cells whose planes are approximate
      while (i <= last) {
        if (i > win_hi) {
          const int n = std::min(64, last - i + 1);
          win_lo = i;
          win_hi = i + n - 1;
          const int along_i = (along_x ? row_x : row_z) + kDir * i;
          if (planes != nullptr) {
            const std::size_t band_row =
                static_cast<std::size_t>(j) * static_cast<std::size_t>(band_stride_);
            if constexpr (kDir > 0) {
              const std::size_t at = band_row + static_cast<std::size_t>(i);
              window = candidates_(band(kBandLo, at), band(kBandHi, at), y, planes + along_i,
                                   stride, n) &
                       low_bits(n);
              window_approx = approx_bits(along_i) & low_bits(n);
            } else {
              const std::size_t at = band_row + static_cast<std::size_t>(rev_base_ - (i + n - 1));
              window = candidates_(band(kBandLoRev, at), band(kBandHiRev, at), y,
                                   planes + (along_i - (n - 1)), stride, n) &
                       low_bits(n);
              window_approx = approx_bits(along_i - (n - 1)) & low_bits(n);
            }
          } else {
            window = 0;
            for (int k = 0; k < n; ++k) {
              const CellArc& arc = row[i + k];
              // note: the bits are exact for the open band: voxel k meets (low, high) exactly
              // when k_low <= k <= k_high, so a blocked bit there is a run meeting the band
              if (band_blocked(field.column(row_x + ix * (i + k), row_z + iz * (i + k)), words_,
                               y + arc.k_low, y + arc.k_high))
                window |= std::uint64_t{1} << (kDir > 0 ? k : n - 1 - k);
            }
          }
        }
        // the first candidate at or after i
        const std::uint64_t pending =
            kDir > 0 ? window >> (i - win_lo) : window & low_bits(win_hi - i + 1);
        if (pending == 0) {
          cells += static_cast<std::uint64_t>(win_hi - i + 1);
          i = win_hi + 1;
          continue;
        }
        const int h =
            kDir > 0 ? i + std::countr_zero(pending) : win_hi - (63 - std::countl_zero(pending));
        cells += static_cast<std::uint64_t>(h - i + 1);
        i = h;
        const int cx = row_x + ix * i;
        const int cz = row_z + iz * i;
        const std::size_t column = grid.column_index(cx, cz);
        const CellArc& arc = row[i];
        // note: with exact planes (no more than two runs) the hit and its run come from them,
        // without touching the column's bits
        const RunPlanes::Value* at = planes == nullptr ? nullptr : planes + (along_x ? cx : cz);
        const int lane = kDir > 0 ? i - win_lo : win_hi - i;
        const bool exact_planes = at != nullptr && ((window_approx >> lane) & 1U) == 0;
        // the column's bits when the planes do not hold it exactly
        const std::uint64_t* column_bits = exact_planes ? nullptr : field.column(cx, cz);
        if (at != nullptr && !exact_planes &&
            !band_blocked(column_bits, words_, y + arc.k_low, y + arc.k_high)) {
          ++i;
          continue;
        }
        const bool below_top = cross(tx, ty, i, j + 1) <= 0;
        const bool above_bottom = cross(bx, by, i + 1, j) >= 0;
        if (below_top) {
          const int k = leftmost(tx, ty, j + 1);
          if (k >= 0 && k <= row_last(j + 1) && cross(i, j + 1, tx, ty) > 0) {
            ScanTask upper;
            upper.i = k;
            upper.j = j + 1;
            upper.bx = i;
            upper.by = j + 1;
            upper.tx = static_cast<std::int32_t>(tx);
            upper.ty = static_cast<std::int32_t>(ty);
            push(upper);
          }
        }
        if (below_top && above_bottom) {
          // the run of blocked voxels holding the topmost one in the band: [lo, hi)
          int run_lo = 0;
          int run_hi = 0;
          if (exact_planes) {
            // the second run when it meets the band, else the first (one of them does)
            const int lo1 = RunPlanes::decode(at[RunPlanes::kLo1 * stride]);
            const int hi1 = RunPlanes::decode(at[RunPlanes::kHi1 * stride]);
            if (lo1 < hi1 && lo1 <= y + arc.k_high && hi1 > y + arc.k_low) {
              run_lo = lo1;
              run_hi = hi1;
            } else {
              run_lo = RunPlanes::decode(at[RunPlanes::kLo0 * stride]);
              run_hi = RunPlanes::decode(at[RunPlanes::kHi0 * stride]);
            }
          } else {
            topmost_run(column_bits, words_, y + arc.k_low, y + arc.k_high, run_lo, run_hi);
          }
          const auto lo = static_cast<float>(run_lo - y);
          const auto hi = static_cast<float>(run_hi - y);
          const bool top_voxel = arc.high > hi - 1.0F;
          const bool rises_into = arc.has_rise && arc.rise_high > lo && arc.rise_low < hi;
          if (top_voxel && !rises_into) {
            // its top is a floor when an open span stands on it
            std::uint32_t walkable = kNoWalkableSpan;
            for (std::uint32_t s = open.first(column); s < open.end(column); ++s) {
              if (open.spans[s].y == run_hi) walkable = s;
            }
            const std::uint32_t poly =
                walkable == kNoWalkableSpan ? mesh::kNoPoly : centre_poly(cx, cz, walkable);
            if (poly != mesh::kNoPoly && poly != start_poly) {
              push(emit_task(LandVoxel{cx, cz, walkable, poly}));
            }
          }
        }
        // note: the sub-wedge right of the hit cell would be pushed last and popped next, so it
        // continues here in place: same row, same bottom ray, top ray through (i + 1, j); the
        // candidate window stays valid for it
        if (above_bottom && i + 1 <= row_last(j) && cross(bx, by, i + 1, j) > 0 &&
            cross(i + 1, j, i + 2, j) < 0 && cross(bx, by, i + 1, j + 1) > 0) {
          tx = i + 1;
          ty = j;
          ++i;
          continue;
        }
        done = true;
        break;
      }
      // cells past the grid's edge hold nothing
      if (!done && i <= i_end) {
        cells += static_cast<std::uint64_t>(i_end - i + 1);
        i = i_end + 1;
      }
      if (done) break;
      const int k = leftmost(tx, ty, j + 1);
      if (k < 0 || k > row_last(j + 1) || cross(bx, by, k, j + 2) <= 0) break;
      i = k;
      ++j;
    }
  }
}

}  // namespace leapnav::jump
