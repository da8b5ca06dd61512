// The navmesh pipeline: voxel stage, regions, contours, polygons, then heights and the span map
// (side by side when more than one thread is allowed), each timed in the BuildContext, with a
// cancel check between stages.
#include "leapnav/mesh/build.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "leapnav/core/grid.hpp"
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

/// The bytes a vector holds.
template <class Vector>
std::uint64_t bytes(const Vector& vec) {
  return static_cast<std::uint64_t>(vec.capacity()) * sizeof(typename Vector::value_type);
}

/// The bytes the voxel stage's output holds.
std::uint64_t voxel_output_bytes(const voxel::VoxelOutput& v) {
  return bytes(v.solid.column_first) + bytes(v.solid.spans) + bytes(v.compact.column_first) +
         bytes(v.compact.spans) + bytes(v.compact.areas) + bytes(v.compact.distance);
}

std::uint64_t contour_bytes(const ContourSet& contours) {
  std::uint64_t total = bytes(contours.contours);
  for (const Contour& c : contours.contours) total += bytes(c.vertices) + bytes(c.raw);
  return total;
}

std::uint64_t contour_vertex_count(const ContourSet& contours) {
  std::uint64_t total = 0;
  for (const Contour& c : contours.contours) total += c.vertices.size();
  return total;
}

std::uint64_t polygon_bytes(const NavMesh& nav) {
  return bytes(nav.vertices) + bytes(nav.poly_first) + bytes(nav.poly_vertices) +
         bytes(nav.poly_neighbors) + bytes(nav.poly_region) + bytes(nav.poly_area) +
         bytes(nav.poly_flags) + bytes(nav.poly_bounds);
}

/// The polygon stage's allocation per simplified contour vertex: the welded vertex and its hash
/// entry, the ear-clipping ring, one triangle as a small vector, the merge's edge-owner hash map
/// (4 entries per polygon) and the final CSR arrays come to about 400 bytes; rounded up
/// [units: bytes].
constexpr std::uint64_t kPolygonBytesPerContourVertex = 512;

/// Sets BuildContext::held_bytes for the stages of one build and restores it when the build ends.
class HeldBytes {
 public:
  explicit HeldBytes(BuildContext& ctx) : ctx_(ctx), before_(ctx.held_bytes()) {}
  HeldBytes(const HeldBytes&) = delete;
  HeldBytes& operator=(const HeldBytes&) = delete;
  ~HeldBytes() { ctx_.set_held_bytes(before_); }
  void set(std::uint64_t bytes) { ctx_.set_held_bytes(before_ + bytes); }

 private:
  BuildContext& ctx_;
  std::uint64_t before_;
};

}  // namespace

Result<BuildOutput> build_navmesh(const TriangleMesh& mesh, const BuildConfig& config,
                                  BuildContext& ctx) {
  LEAPNAV_TRY(validate(config));
  const VoxelParams params = derive_voxel_params(config);
  BuildOutput out;
  LEAPNAV_TRY_ASSIGN(out.voxels, voxel::voxelize(mesh, config, ctx));
  const voxel::CompactHeightfield& field = out.voxels.compact;

  // note: every stage's own memory check counts what the stages before it still hold
  // (BuildContext::held_bytes), so the checks are cumulative over the pipeline: each stage's
  // check alone once let a 5 km triangle under a 6000 MiB limit reach 9.8 GB
  HeldBytes held(ctx);
  const std::uint64_t voxel_bytes = voxel_output_bytes(out.voxels);
  LEAPNAV_TRY(ctx.check_cancel("regions"));
  // note: one connection table for the region and contour stages
  detail::SpanGraph graph;
  {
    auto timer = ctx.scoped_timer("regions");
    LEAPNAV_TRY(detail::check_heightfield_arrays(field, "regions", true));
    held.set(voxel_bytes);
    LEAPNAV_TRY(ctx.check_memory("regions", static_cast<std::uint64_t>(field.spans.size()) * 40));
    LEAPNAV_TRY_ASSIGN(graph, detail::make_checked_span_graph(field, "regions", ctx.threads()));
    // note: the 40 bytes per span of the region estimate include the connection table
    LEAPNAV_TRY_ASSIGN(out.regions, detail::build_regions_on(field, graph, params, ctx));
  }
  LEAPNAV_TRY(ctx.check_cancel("contours"));
  {
    auto timer = ctx.scoped_timer("contours");
    held.set(voxel_bytes + bytes(graph.column) + bytes(graph.links) +
             bytes(out.regions.span_region));
    LEAPNAV_TRY_ASSIGN(out.contours,
                       detail::build_contours_on(field, graph, out.regions, params, ctx));
  }
  graph = {};
  const std::uint64_t region_contour_bytes =
      voxel_bytes + bytes(out.regions.span_region) + contour_bytes(out.contours);
  LEAPNAV_TRY(ctx.check_cancel("polygons"));
  {
    auto timer = ctx.scoped_timer("polygons");
    held.set(region_contour_bytes);
    LEAPNAV_TRY(ctx.check_memory(
        "polygons", contour_vertex_count(out.contours) * kPolygonBytesPerContourVertex));
    LEAPNAV_TRY_ASSIGN(out.navmesh, build_polygons(out.contours, params, ctx));
  }
  NavMesh& nav = out.navmesh;
  nav.config = config;
  LEAPNAV_TRY(ctx.check_cancel("heights"));
  // note: the span map (a column table and 6 bytes per span) is built beside the heights, so it
  // is checked here and then counted as held while the height stage checks its samples
  const std::uint64_t span_map_bytes =
      (static_cast<std::uint64_t>(field.grid.width) * static_cast<std::uint64_t>(field.grid.depth) +
       1) *
          sizeof(std::uint32_t) +
      static_cast<std::uint64_t>(field.spans.size()) *
          (sizeof(std::uint16_t) + sizeof(std::uint32_t));
  held.set(region_contour_bytes + polygon_bytes(nav));
  LEAPNAV_TRY(ctx.check_memory("span map", span_map_bytes));
  held.set(region_contour_bytes + polygon_bytes(nav) + span_map_bytes);
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

namespace {

std::string describe(const GridSpec& grid) {
  std::ostringstream out;
  out.precision(9);
  out << "origin (" << grid.origin.x << ", " << grid.origin.y << ", " << grid.origin.z << "), "
      << grid.width << " x " << grid.depth << " x " << grid.height << " cells of " << grid.cell_size
      << " x " << grid.cell_height << " m";
  return out.str();
}

}  // namespace

Status check_built_from(const NavMesh& navmesh, const TriangleMesh& scene) {
  const VoxelParams params = derive_voxel_params(navmesh.config);
  Result<GridSpec> grid = make_grid(scene.bounds(), params.cell_size, params.cell_height);
  if (!grid.ok()) {
    return make_error(grid.error().code, scene.label() + ": " + grid.error().message);
  }
  if (!same_grid_bits(*grid, navmesh.grid)) {
    return make_error(ErrorCode::InvalidArgument,
                      scene.label() +
                          ": not the scene the navmesh was built from: its bounds give "
                          "the grid " +
                          describe(*grid) + ", the navmesh's grid is " + describe(navmesh.grid));
  }
  return {};
}

}  // namespace leapnav::mesh
