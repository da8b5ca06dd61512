// Internal to mesh/: a flat view of a CompactHeightfield's span connections (4 neighbour span
// indices per span, kNoSpan when unconnected) shared by the region and contour stages, and the
// input checks both stages run on an untrusted heightfield.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/mesh/types.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::mesh::detail {

inline constexpr std::uint32_t kNoSpan = 0xFFFFFFFFU;

/// An allocator whose resize() leaves trivial values uninitialised, for arrays that a parallel
/// loop then writes in full: the loop's threads touch the new pages first instead of one thread
/// zero-filling them beforehand (megabytes per build, in the serial part of a stage).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  explicit UninitializedAllocator(const UninitializedAllocator<U>& /*other*/) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// A vector of trivial values that resize() leaves uninitialised (see UninitializedAllocator).
template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

struct SpanGraph {
  int width = 0;
  int depth = 0;
  UninitializedVector<std::uint32_t> column;  ///< per span, its column index x + z * width
  UninitializedVector<std::uint32_t>
      links;  ///< per span, 4 neighbour span indices (voxel dir order)

  [[nodiscard]] std::uint32_t neighbor(std::uint32_t span, int dir) const {
    return links[static_cast<std::size_t>(span) * 4 + static_cast<std::size_t>(dir)];
  }
  /// A hint that neighbor(span, *) will be read soon.
  void prefetch(std::uint32_t span) const {
    __builtin_prefetch(links.data() + static_cast<std::size_t>(span) * 4);
  }
  [[nodiscard]] int x(std::uint32_t span) const {
    return static_cast<int>(column[span] % static_cast<std::uint32_t>(width));
  }
  [[nodiscard]] int z(std::uint32_t span) const {
    return static_cast<int>(column[span] / static_cast<std::uint32_t>(width));
  }
  [[nodiscard]] std::size_t span_count() const { return column.size(); }
};

/// Checks the CSR layout, area array and connection indices of `chf` (and the distance array
/// when `need_distance`); the message starts with `stage`.
[[nodiscard]] Status check_heightfield(const voxel::CompactHeightfield& chf, std::string_view stage,
                                       bool need_distance);

/// The array part of check_heightfield(): grid size, CSR offsets, area and distance sizes.
[[nodiscard]] Status check_heightfield_arrays(const voxel::CompactHeightfield& chf,
                                              std::string_view stage, bool need_distance);

/// The connection table of a heightfield that passed check_heightfield_arrays(), checking each
/// connection on the way (in parallel); the error is check_heightfield()'s for the same input.
[[nodiscard]] Result<SpanGraph> make_checked_span_graph(const voxel::CompactHeightfield& chf,
                                                        std::string_view stage, int threads);

/// The connection table of a heightfield that passed check_heightfield().
[[nodiscard]] SpanGraph make_span_graph(const voxel::CompactHeightfield& chf, int threads);

/// build_regions() on a heightfield that passed check_heightfield_arrays() with its distances,
/// with `graph` = make_checked_span_graph(chf); not timed (the caller times it).
[[nodiscard]] Result<RegionField> build_regions_on(const voxel::CompactHeightfield& chf,
                                                   const SpanGraph& graph,
                                                   const VoxelParams& params, BuildContext& ctx);

/// build_contours() on a heightfield that passed check_heightfield_arrays(), with `graph` =
/// make_checked_span_graph(chf); checks `regions` and `params`; not timed. With keep_grid_edges
/// (a tile of a tiled build), a vertex where the outline starts or stops running along the
/// grid's outer edge is always kept, so that runs along a tile edge stay on it.
[[nodiscard]] Result<ContourSet> build_contours_on(const voxel::CompactHeightfield& chf,
                                                   const SpanGraph& graph,
                                                   const RegionField& regions,
                                                   const VoxelParams& params, BuildContext& ctx,
                                                   bool keep_grid_edges = false);

}  // namespace leapnav::mesh::detail
