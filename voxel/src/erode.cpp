// Erosion by the agent radius (pipeline.md §1): chamfer distance (2 per axis step, 3 per
// diagonal; 2 per diagonal for a box agent, the Chebyshev distance of Golodetz's configuration
// space, seeds spec A2) to the nearest boundary span, where a boundary span is unwalkable or lacks
// one of its 4 walkable neighbours; spans with distance < 2 * walkable_radius become kNullArea.
// Postures (seeds spec A8, area variant): when the agent crouches, the same distance is taken to
// the spans a standing agent cannot use (clearance below the standing height); walkable spans
// closer than the radius to those get kCrouchAreaBit, so the crouch area is the standing
// configuration space's complement and its border lies where the standing mesh ends.
#include "leapnav/voxel/erode.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>

#include "chamfer.hpp"
#include "leapnav/core/parallel.hpp"

namespace leapnav::voxel {
namespace {

/// Sets dist to 0 on the boundary spans of the walkable set `usable` (a predicate on span
/// indices) and to `cap` elsewhere: a boundary span is not usable or lacks a usable neighbour in
/// one of the 4 directions (`linked(i, j)`: the connection i -> j counts).
template <typename Usable, typename Linked>
void seed_boundary(const CompactHeightfield& compact, std::vector<std::uint16_t>& dist,
                   std::uint16_t cap, int threads, const Usable& usable, const Linked& linked) {
  const GridSpec& grid = compact.grid;
  // note: local copies of the pointers and the width keep them in registers across the stores
  const auto width = static_cast<std::ptrdiff_t>(grid.width);
  const std::uint32_t* const first = compact.column_first.data();
  const CompactSpan* const spans = compact.spans.data();
  // column offset per direction (0 = -x, 1 = +z, 2 = +x, 3 = -z)
  const std::array<std::ptrdiff_t, 4> step{-1, width, 1, -width};
  parallel_for(threads, 0, static_cast<std::size_t>(grid.depth), 32,
               [&](std::size_t z0, std::size_t z1) {
                 std::uint16_t* const d = dist.data();
                 for (std::ptrdiff_t c = static_cast<std::ptrdiff_t>(z0) * width;
                      c < static_cast<std::ptrdiff_t>(z1) * width; ++c) {
                   const std::uint32_t end = first[c + 1];
                   for (std::uint32_t i = first[c]; i < end; ++i) {
                     if (!usable(i)) {
                       d[i] = 0;
                       continue;
                     }
                     int usable_neighbors = 0;
                     for (std::size_t dir = 0; dir < 4; ++dir) {
                       const std::uint8_t link = spans[i].neighbor[dir];
                       if (link == kNotConnected) continue;
                       const std::uint32_t j = first[c + step[dir]] + link;
                       usable_neighbors += usable(j) && linked(i, j) ? 1 : 0;
                     }
                     d[i] = usable_neighbors == 4 ? cap : std::uint16_t{0};
                   }
                 }
               });
}

}  // namespace

Result<CompactHeightfield> erode(CompactHeightfield compact, const VoxelParams& params,
                                 BuildContext& ctx) {
  LEAPNAV_TRY(ctx.check_cancel("erode"));
  compact.distance.clear();
  compact.max_distance = 0;
  const bool crouch = params.standing_height > params.walkable_height;
  if (params.walkable_radius <= 0 && !crouch) return compact;
  const std::size_t total = compact.spans.size();
  const std::uint8_t* const areas_in = compact.areas.data();
  const CompactSpan* const spans = compact.spans.data();
  const auto walkable = [&](std::uint32_t i) { return areas_in[i] != kNullArea; };
  const auto any_link = [](std::uint32_t /*unused*/, std::uint32_t /*unused*/) { return true; };
  const int standing = params.standing_height;
  // note: a standing agent needs the standing clearance above a span and, to step between two
  // spans, that much overlap of their open intervals (the compact links only ensure the
  // crouching clearance)
  const auto stands = [&](std::uint32_t i) {
    return areas_in[i] != kNullArea && int{spans[i].clearance} >= standing;
  };
  const auto stand_link = [&](std::uint32_t i, std::uint32_t j) {
    const int top =
        std::min(int{spans[i].y} + spans[i].clearance, int{spans[j].y} + spans[j].clearance);
    return top - std::max(int{spans[i].y}, int{spans[j].y}) >= standing;
  };

  if (params.walkable_radius <= 0) {
    // no erosion: exactly the spans a standing agent cannot use are crouch areas
    for (std::size_t i = 0; i < total; ++i) {
      const auto s = static_cast<std::uint32_t>(i);
      if (walkable(s) && !stands(s))
        compact.areas[i] = static_cast<std::uint8_t>(compact.areas[i] | kCrouchAreaBit);
    }
    return compact;
  }

  LEAPNAV_TRY(
      ctx.check_memory("erode: distances", total * sizeof(std::uint16_t) * (crouch ? 2U : 1U)));
  // note: only dist < threshold matters, and the chamfer relaxation commutes with min(., T), so
  // starting from T instead of "infinite" gives min(distance, T) exactly; the capped values stop
  // changing a few rows past each strip border, which keeps the sequential strip fix-up short
  const int threshold = 2 * params.walkable_radius;
  const auto cap = static_cast<std::uint16_t>(std::min(threshold, 0xFFFF));
  const int diagonal = params.shape == AgentShape::Box ? 2 : 3;
  std::vector<std::uint16_t> dist(total, cap);
  seed_boundary(compact, dist, cap, ctx.threads(), walkable, any_link);
  LEAPNAV_TRY(ctx.check_cancel("erode"));
  if (!detail::chamfer_transform(compact, dist, ctx, ctx.threads(), diagonal))
    LEAPNAV_TRY(ctx.check_cancel("erode"));
  LEAPNAV_TRY(ctx.check_cancel("erode"));
  std::vector<std::uint16_t> stand_dist;
  if (crouch) {
    stand_dist.assign(total, cap);
    seed_boundary(compact, stand_dist, cap, ctx.threads(), stands, stand_link);
    if (!detail::chamfer_transform(compact, stand_dist, ctx, ctx.threads(), diagonal))
      LEAPNAV_TRY(ctx.check_cancel("erode"));
    LEAPNAV_TRY(ctx.check_cancel("erode"));
  }

  // note: branch-free over local copies (a byte store may alias anything reached through the
  // captured references), so that it vectorises
  parallel_for(ctx.threads(), 0, total, 16384, [&](std::size_t b, std::size_t e) {
    std::uint8_t* areas = compact.areas.data();
    const std::uint16_t* d = dist.data();
    const int limit = threshold;
    for (std::size_t i = b; i < e; ++i) areas[i] = int{d[i]} < limit ? kNullArea : areas[i];
    if (stand_dist.empty()) return;
    const std::uint16_t* sd = stand_dist.data();
    for (std::size_t i = b; i < e; ++i) {
      const bool crouching = areas[i] != kNullArea && int{sd[i]} < limit;
      areas[i] = static_cast<std::uint8_t>(areas[i] | (crouching ? kCrouchAreaBit : 0));
    }
  });
  return compact;
}

}  // namespace leapnav::voxel
