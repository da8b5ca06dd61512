// The land-voxel search of thesis §5.4 (Algorithm 1): per quadrant, in coordinates rotated into
// the north-east frame, scan rows outward inside a wedge [A_b, A_t]; the first solid voxel some
// trajectory hits in a column casts a shadow, ends the scan and splits the wedge into the two
// sub-wedges beside the hit cell (explicit stack; lower sub-wedge first, so land voxels come out
// in counter-clockwise order). Arc/voxel intersection is exact per cell: the heights the arc takes
// over the cell's range of horizontal distances, compared with the voxel run's interior.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::jump {

namespace detail {

/// floor((2^64 - 1) / d) for d >= 1: the reciprocal the land search divides by.
[[nodiscard]] inline std::uint64_t reciprocal(std::uint64_t d) {
  return ~std::uint64_t{0} / d;
}

/// floor(n / d) from recip = reciprocal(d), for n < 2^63 and d >= 1: the high half of the
/// product is floor(n / d) or one less, which the comparison corrects.
[[nodiscard]] inline std::uint64_t divide(std::uint64_t n, std::uint64_t d, std::uint64_t recip) {
  auto q = static_cast<std::uint64_t>((static_cast<unsigned __int128>(recip) * n) >> 64);
  q += static_cast<std::uint64_t>((q + 1) * d <= n);
  return q;
}

}  // namespace detail

/// A walkable voxel reached by every trajectory through its cell, on the way down, collision free.
struct LandVoxel {
  std::int32_t x = 0;      ///< column
  std::int32_t z = 0;      ///< column
  std::uint32_t span = 0;  ///< flat index of its open span in the compact heightfield
  std::uint32_t poly = 0;  ///< polygon containing the voxel's top-face centre
  friend bool operator==(const LandVoxel&, const LandVoxel&) = default;
};

/// Every polygon's edges as the centre-polygon test reads them: in double, from the navmesh's
/// float vertices, first vertex (ax, az), vector (ex, ez) to the next vertex and its length.
/// Polygon p owns edges[first[p] .. first[p + 1]), in its vertex order.
struct PolygonEdges {
  struct Edge {
    double ax = 0.0;
    double az = 0.0;
    double ex = 0.0;
    double ez = 0.0;
    double len = 0.0;
  };
  std::vector<std::uint32_t> first;  ///< size polygon_count + 1
  std::vector<Edge> edges;

  explicit PolygonEdges(const mesh::NavMesh& navmesh);
  /// Bytes the edges of `navmesh` take.
  [[nodiscard]] static std::uint64_t bytes(const mesh::NavMesh& navmesh);
};

/// For every open span, the polygon whose xz outline contains the centre of its cell (top face),
/// among the polygons of the span and of its neighbours, or mesh::kNoPoly.
[[nodiscard]] std::vector<std::uint32_t> centre_polygons(const voxel::CompactHeightfield& open,
                                                         const mesh::NavMesh& navmesh, int threads);

/// centre_polygons computed on first use, per span; get() may be called from several threads at
/// once (a slot is only ever written with its one value). The heightfield and navmesh must
/// outlive the cache.
class CentrePolygonCache {
 public:
  CentrePolygonCache(const voxel::CompactHeightfield& open, const mesh::NavMesh& navmesh);
  /// centre_polygons(open, navmesh, ...)[span]; span must lie in column (x, z).
  [[nodiscard]] std::uint32_t get(int x, int z, std::uint32_t span) const;

  /// Bytes a cache for `open` and `navmesh` holds.
  [[nodiscard]] static std::uint64_t bytes(const voxel::CompactHeightfield& open,
                                           const mesh::NavMesh& navmesh);

 private:
  static constexpr std::uint32_t kUnknown = mesh::kNoPoly - 1;
  const voxel::CompactHeightfield* open_;
  const mesh::NavMesh* navmesh_;
  PolygonEdges edges_;
  bool aligned_ = false;
  mutable std::vector<std::uint32_t> values_;
};

/// Search tables for one jump configuration on one obstacle field (read-only, shareable).
class LandSearch {
 public:
  /// How the cells of a row whose height band may hold a blocked voxel are found. Every kernel
  /// gives the same land voxels; they differ in speed and in what they need.
  enum class Kernel : std::uint8_t {
    Auto,          ///< the fastest of the others that the field and this CPU support
    Bits,          ///< one cell at a time, from the field's bits (needs all of them)
    Planes,        ///< from the run planes, 64 cells at a time in portable code
    PlanesAvx2,    ///< from the run planes with AVX2 (x86-64)
    PlanesAvx512,  ///< from the run planes with AVX-512BW (x86-64)
  };

  /// `open` is the compact heightfield the obstacle field was built beside (same grid); both
  /// must outlive the search. A kernel that `supported` rejects falls back to Kernel::Auto.
  LandSearch(const ObstacleBits& field, const voxel::CompactHeightfield& open,
             const JumpConfig& config, Kernel kernel = Kernel::Auto);

  /// Whether `kernel` can run on `field` on this CPU (the plane kernels need field.has_planes()).
  [[nodiscard]] static bool supported(const ObstacleBits& field, Kernel kernel);

  /// The kernel in use (never Kernel::Auto).
  [[nodiscard]] Kernel kernel() const { return kernel_; }

  /// Whether a plane kernel reads its height bands as 8-bit values (when every band and every
  /// floor height of the field fit; else 16-bit). Same results either way.
  [[nodiscard]] bool narrow_bands() const { return band_bytes_ == 1; }

  /// Appends to `out` the land voxels of jumps from the south-west top corner of column (x, z)
  /// with floor height y [cell heights], counter-clockwise from the +x axis. Voxels whose centre
  /// polygon (from centre_polygons) is kNoPoly or start_poly are skipped. Adds the number of cells
  /// scanned to *cells_visited when given. y must be a height within the field,
  /// 0 <= y <= 64 * field.words (every floor of it is; the plane kernels rely on it).
  void find(int x, int z, int y, std::uint32_t start_poly,
            std::span<const std::uint32_t> centre_poly, std::vector<LandVoxel>& out,
            std::uint64_t* cells_visited = nullptr) const;

  /// As above, with centre polygons from a lazily filled cache.
  void find(int x, int z, int y, std::uint32_t start_poly, const CentrePolygonCache& centre_poly,
            std::vector<LandVoxel>& out, std::uint64_t* cells_visited = nullptr) const;

  /// One start of find_many: column (x, z), floor height y, start polygon.
  struct Start {
    std::int32_t x = 0;
    std::int32_t z = 0;
    std::int32_t y = 0;
    std::uint32_t poly = 0;
  };

  /// find() for several starts: the land voxels of starts[k] (what find() appends, in its
  /// order) become out[first[k] .. first[k + 1]); out and first are replaced. The starts are
  /// searched one quadrant at a time, so that the rows a quadrant reads stay in cache from one
  /// start to the next. Adds the number of cells scanned to *cells_visited when given.
  void find_many(std::span<const Start> starts, const CentrePolygonCache& centre_poly,
                 std::vector<LandVoxel>& out, std::vector<std::uint32_t>& first,
                 std::uint64_t* cells_visited = nullptr) const;

  /// As above, with centre polygons from centre_polygons.
  void find_many(std::span<const Start> starts, std::span<const std::uint32_t> centre_poly,
                 std::vector<LandVoxel>& out, std::vector<std::uint32_t>& first,
                 std::uint64_t* cells_visited = nullptr) const;

  /// Bytes the tables of a search for `config` on `field` take (an upper bound).
  [[nodiscard]] static std::uint64_t table_bytes(const ObstacleBits& field,
                                                 const JumpConfig& config);

  /// Number of cells per axis the tables cover (cells fully inside the range circle).
  [[nodiscard]] int extent() const { return extent_; }

 private:
  struct CellArc {
    float low = 0.0F;  // arc heights over the cell [cell heights, relative to the start]
    float high = 0.0F;
    float rise_low = 0.0F;  // arc heights over the cell's part with t <= d/2 (when has_rise)
    float rise_high = 0.0F;
    bool has_rise = false;
    // voxels k (relative to the start floor) meeting the open band (low, high):
    // k + 1 > low and k < high, i.e. floor(low) <= k <= ceil(high) - 1
    std::int32_t k_low = 0;
    std::int32_t k_high = 0;
  };
  template <int Quadrant, class CentrePoly>
  void scan(int qx, int qz, int y, std::uint32_t start_poly, const CentrePoly& centre_poly,
            std::vector<LandVoxel>& out, std::uint64_t& cells) const;
  template <class CentrePoly>
  void find_many_with(std::span<const Start> starts, const CentrePoly& centre_poly,
                      std::vector<LandVoxel>& out, std::vector<std::uint32_t>& first,
                      std::uint64_t* cells_visited) const;
  template <class CentrePoly>
  void find_all(int x, int z, int y, std::uint32_t start_poly, const CentrePoly& centre_poly,
                std::vector<LandVoxel>& out, std::uint64_t* cells_visited) const;

  const ObstacleBits* field_;
  const voxel::CompactHeightfield* open_;
  int extent_ = 0;
  // per row j: the last i with cell (i, j) fully inside the range; two rows more hold -1
  std::vector<int> row_last_;
  std::vector<std::uint64_t> recip_;  // per divisor d <= extent + 2: floor((2^64 - 1) / d)
  std::vector<CellArc> arcs_;         // extent_ x extent_
  // Lane l (l < n) set when the band band_lo[l] .. band_hi[l] above y meets run 0 or 1 of the
  // column at planes[l]; the bands are int8_t (narrow) or int16_t (wide); see land_search.cpp.
  using CandidateKernel = std::uint64_t (*)(const void* band_lo, const void* band_hi, int y,
                                            const RunPlanes::Value* planes, std::ptrdiff_t stride,
                                            int n);
  Kernel kernel_ = Kernel::Bits;
  CandidateKernel candidates_ = nullptr;
  // note: per row j the cells' voxel bands [k_low, k_high] for the plane kernels, four tables
  // (kBandLo, kBandHi, and the same reversed for rows that run towards -x or -z), cell i at
  // j * band_stride_ + i, reversed at j * band_stride_ + rev_base_ - i. Narrow (int8, when every
  // band and every floor height minus RunPlanes::kBias fit in 8 bits, so that an 8-bit
  // saturating sum is the clamped sum) or wide (saturated int16). Empty bands: (max, min).
  enum BandTable : int { kBandLo = 0, kBandHi = 1, kBandLoRev = 2, kBandHiRev = 3 };
  int band_stride_ = 0;
  int rev_base_ = 0;
  std::size_t band_size_ = 0;  // values per table
  int band_bytes_ = 0;         // 1: narrow, 2: wide
  std::vector<std::int8_t> bands_narrow_;
  std::vector<std::int16_t> bands_wide_;
  // Table t's value at index.
  [[nodiscard]] const void* band(BandTable t, std::size_t index) const {
    const std::size_t at = static_cast<std::size_t>(t) * band_size_ + index;
    return band_bytes_ == 1 ? static_cast<const void*>(bands_narrow_.data() + at)
                            : static_cast<const void*>(bands_wide_.data() + at);
  }
  int words_ = 0;  // 64-bit words per column
};

}  // namespace leapnav::jump
