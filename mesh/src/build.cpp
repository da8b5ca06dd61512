// The navmesh pipeline: voxel stage, regions, contours, polygons, then heights and the span map
// (side by side when more than one thread is allowed), each timed in the BuildContext, with a
// cancel check between stages.
#include "leapnav/mesh/build.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>

#include "leapnav/core/parallel.hpp"
#include "leapnav/mesh/contours.hpp"
#include "leapnav/mesh/heights.hpp"
#include "leapnav/mesh/polygons.hpp"
#include "leapnav/mesh/regions.hpp"
#include "leapnav/mesh/span_map.hpp"
#include "span_graph.hpp"

namespace leapnav::mesh {

namespace {

// Widens each polygon's bounds to cover its height samples (in parallel over polygons; each
// writes only its own bounds).
void widen_bounds(NavMesh& nav, const HeightDetail& detail, int threads) {
  parallel_for(threads, 0, detail.patches.size(), 16, [&](std::size_t p0, std::size_t p1) {
    for (std::size_t p = p0; p < p1; ++p) {
      const HeightPatch& patch = detail.patches[p];
      const float* samples = detail.samples.data() + patch.first;
      const std::size_t n = std::size_t{patch.width} * patch.depth;
      // note: comparisons with NaN (no floor) are false, so NaN samples leave both ends alone;
      // branch-free, and the same as skipping them
      float low = nav.poly_bounds[p].min.y;
      float high = nav.poly_bounds[p].max.y;
      for (std::size_t k = 0; k < n; ++k) {
        const float y = samples[k];
        low = y < low ? y : low;
        high = y > high ? y : high;
      }
      nav.poly_bounds[p].min.y = low;
      nav.poly_bounds[p].max.y = high;
    }
  });
}

/// The bytes the voxel stage's output holds.
std::uint64_t voxel_output_bytes(const voxel::VoxelOutput& v) {
  const auto bytes = [](const auto& vec) {
    using Element = typename std::decay_t<decltype(vec)>::value_type;
    return static_cast<std::uint64_t>(vec.capacity()) * sizeof(Element);
  };
  return bytes(v.solid.column_first) + bytes(v.solid.spans) + bytes(v.compact.column_first) +
         bytes(v.compact.spans) + bytes(v.compact.areas) + bytes(v.compact.distance);
}

}  // namespace

Result<BuildOutput> build_navmesh(const TriangleMesh& mesh, const BuildConfig& config,
                                  BuildContext& ctx) {
  LEAPNAV_TRY(validate(config));
  const VoxelParams params = derive_voxel_params(config);
  BuildOutput out;
  LEAPNAV_TRY_ASSIGN(out.voxels, voxel::voxelize(mesh, config, ctx));
  const voxel::CompactHeightfield& field = out.voxels.compact;

  LEAPNAV_TRY(ctx.check_cancel("regions"));
  // note: one connection table for the region and contour stages
  detail::SpanGraph graph;
  {
    auto timer = ctx.scoped_timer("regions");
    LEAPNAV_TRY(detail::check_heightfield_arrays(field, "regions", true));
    // note: the region stage allocates while the voxel output is held, so both count against
    // the limit (each stage's own check counts only its own arrays: a 5 km triangle under a
    // 6000 MiB limit once reached 9.8 GB)
    LEAPNAV_TRY(ctx.check_memory(
        "regions (with the voxel output held)",
        voxel_output_bytes(out.voxels) + static_cast<std::uint64_t>(field.spans.size()) * 40));
    LEAPNAV_TRY_ASSIGN(graph, detail::make_checked_span_graph(field, "regions", ctx.threads()));
    LEAPNAV_TRY_ASSIGN(out.regions, detail::build_regions_on(field, graph, params, ctx));
  }
  LEAPNAV_TRY(ctx.check_cancel("contours"));
  {
    auto timer = ctx.scoped_timer("contours");
    LEAPNAV_TRY_ASSIGN(out.contours,
                       detail::build_contours_on(field, graph, out.regions, params, ctx));
  }
  graph = {};
  LEAPNAV_TRY(ctx.check_cancel("polygons"));
  {
    auto timer = ctx.scoped_timer("polygons");
    LEAPNAV_TRY_ASSIGN(out.navmesh, build_polygons(out.contours, params, ctx));
  }
  NavMesh& nav = out.navmesh;
  nav.config = config;
  LEAPNAV_TRY(ctx.check_cancel("heights"));
  // note: the heights and the span map read the same inputs and write separate outputs, so with
  // more than one thread they run side by side (each is also parallel inside); each is timed on
  // its own, so their times may overlap
  std::optional<Result<HeightDetail>> heights;
  std::optional<Result<SpanMap>> span_map;
  double heights_ms = 0.0;
  double span_map_ms = 0.0;
  parallel_for(ctx.threads(), 0, 2, 1, [&](std::size_t k0, std::size_t k1) {
    for (std::size_t k = k0; k < k1; ++k) {
      const auto start = std::chrono::steady_clock::now();
      if (k == 0) {
        heights.emplace(build_heights(nav, field, out.regions, params, ctx));
        if (heights->ok()) widen_bounds(nav, heights->value(), ctx.threads());
      } else {
        span_map.emplace(build_span_map(nav, field, out.regions, ctx));
      }
      const std::chrono::duration<double, std::milli> elapsed =
          std::chrono::steady_clock::now() - start;
      (k == 0 ? heights_ms : span_map_ms) = elapsed.count();
    }
  });
  ctx.add_time("heights", heights_ms);
  ctx.add_time("span_map", span_map_ms);
  LEAPNAV_TRY_ASSIGN(HeightDetail detail, std::move(*heights));
  LEAPNAV_TRY_ASSIGN(SpanMap map, std::move(*span_map));
  nav.height_patches = std::move(detail.patches);
  nav.height_samples = std::move(detail.samples);
  nav.span_column_first = std::move(map.column_first);
  nav.span_y = std::move(map.span_y);
  nav.span_poly = std::move(map.span_poly);
  if (Status status = validate(nav); !status.ok()) return std::move(status).error();

  MeshStats& stats = out.stats;
  stats.regions = out.regions.region_count;
  stats.polygons = nav.polygon_count();
  stats.vertices = nav.vertices.size();
  for (std::uint32_t p = 0; p < nav.polygon_count(); ++p) {
    stats.navmesh_area += polygon_area(nav, PolyId{p});
  }
  // note: the voxel stage counted the walkable spans of this compact heightfield
  const double cs = field.grid.cell_size;
  stats.walkable_area = static_cast<double>(out.voxels.stats.walkable_spans) * cs * cs;
  if (nav.polygon_count() == 0) ctx.warn("navmesh: no polygons (no walkable area)");
  return out;
}

}  // namespace leapnav::mesh
