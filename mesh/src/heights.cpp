// Height detail from floor samples: each polygon gets a patch of the compact heightfield's floor
// heights over its xz bounds (one sample per column, the span of the polygon's region, else the
// span nearest the polygon's vertex-fan plane within walkable_climb, else the span of a region
// across one of the polygon's edges, which a straight portal can give it). Polygons are
// independent, so patches are sized in one pass, laid out by prefix sum and filled in parallel.
#include "leapnav/mesh/heights.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "leapnav/core/parallel.hpp"

namespace leapnav::mesh {
namespace {

struct CellBox {
  std::int32_t x0 = 0, z0 = 0, x1 = 0, z1 = 0;  // columns [x0, x1) × [z0, z1)
};

CellBox polygon_cells(const NavMesh& mesh, const std::vector<std::array<std::int32_t, 2>>& corners,
                      std::uint32_t p) {
  CellBox box{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::max(),
              std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::min()};
  for (const std::uint32_t v : mesh.polygon(PolyId{p})) {
    box.x0 = std::min(box.x0, corners[v][0]);
    box.z0 = std::min(box.z0, corners[v][1]);
    box.x1 = std::max(box.x1, corners[v][0]);
    box.z1 = std::max(box.z1, corners[v][1]);
  }
  box.x0 = std::clamp(box.x0, 0, std::max(0, mesh.grid.width - 1));
  box.z0 = std::clamp(box.z0, 0, std::max(0, mesh.grid.depth - 1));
  box.x1 = std::clamp(box.x1, box.x0 + 1, std::max(box.x0 + 1, mesh.grid.width));
  box.z1 = std::clamp(box.z1, box.z0 + 1, std::max(box.z0 + 1, mesh.grid.depth));
  return box;
}

// The height of polygon p's vertex fan (vertex 0, k, k + 1) at grid point (x, z) [units: cell
// heights]: the fan triangle whose smallest barycentric coordinate is largest. Computed in grid
// space from the integer corners, so it does not depend on where the grid lies in the world.
double fan_level(const NavMesh& mesh, const std::vector<std::array<std::int32_t, 2>>& corners,
                 const std::vector<double>& levels, std::uint32_t p, double x, double z) {
  const auto poly = mesh.polygon(PolyId{p});
  const std::uint32_t a = poly[0];
  double best_score = -1e300;
  double best = levels[a];
  for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
    const std::uint32_t b = poly[k];
    const std::uint32_t c = poly[k + 1];
    const double v0x = corners[b][0] - corners[a][0], v0z = corners[b][1] - corners[a][1];
    const double v1x = corners[c][0] - corners[a][0], v1z = corners[c][1] - corners[a][1];
    const double v2x = x - corners[a][0], v2z = z - corners[a][1];
    const double den = v0x * v1z - v1x * v0z;
    if (den == 0.0) continue;
    const double u = (v2x * v1z - v1x * v2z) / den;
    const double v = (v0x * v2z - v2x * v0z) / den;
    const double w = 1.0 - u - v;
    const double score = std::min(w, std::min(u, v));
    if (score > best_score) {
      best_score = score;
      best = w * levels[a] + u * levels[b] + v * levels[c];
    }
  }
  return best;
}

}  // namespace

std::vector<std::array<std::int32_t, 2>> vertex_grid_corners(const NavMesh& mesh) {
  std::vector<std::array<std::int32_t, 2>> out(mesh.vertices.size());
  const double cs = mesh.grid.cell_size > 0.0F ? mesh.grid.cell_size : 1.0;
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    out[v] = {static_cast<std::int32_t>(
                  std::lround((double{mesh.vertices[v].x} - double{mesh.grid.origin.x}) / cs)),
              static_cast<std::int32_t>(
                  std::lround((double{mesh.vertices[v].z} - double{mesh.grid.origin.z}) / cs))};
  }
  return out;
}

Result<HeightDetail> build_heights(const NavMesh& polygons, const voxel::CompactHeightfield& field,
                                   const RegionField& regions, const VoxelParams& params,
                                   BuildContext& ctx) {
  const GridSpec& grid = field.grid;
  if (!(grid == polygons.grid)) {
    return make_error(ErrorCode::InvalidArgument,
                      "heights: the heightfield's grid differs from the mesh's");
  }
  if (regions.span_region.size() != field.spans.size() ||
      field.column_first.size() != static_cast<std::size_t>(grid.column_count()) + 1) {
    return make_error(ErrorCode::InvalidArgument,
                      "heights: regions or column index do not match the heightfield");
  }
  LEAPNAV_TRY(ctx.check_cancel("heights"));
  const std::size_t count = polygons.polygon_count();
  const auto corners = vertex_grid_corners(polygons);
  // vertex heights in cell heights (grid space)
  std::vector<double> levels(polygons.vertices.size());
  const double ch = grid.cell_height > 0.0F ? grid.cell_height : 1.0;
  for (std::size_t v = 0; v < levels.size(); ++v) {
    levels[v] = std::round((double{polygons.vertices[v].y} - double{grid.origin.y}) / ch);
  }
  HeightDetail out;
  out.patches.resize(count);
  std::vector<CellBox> boxes(count);
  std::uint64_t total = 0;
  for (std::uint32_t p = 0; p < count; ++p) {
    boxes[p] = polygon_cells(polygons, corners, p);
    const auto w = static_cast<std::uint32_t>(boxes[p].x1 - boxes[p].x0);
    const auto d = static_cast<std::uint32_t>(boxes[p].z1 - boxes[p].z0);
    if (w > 0xFFFF || d > 0xFFFF) {
      return make_error(ErrorCode::Internal,
                        "heights: polygon " + std::to_string(p) + " spans more than 65535 columns");
    }
    out.patches[p] = {boxes[p].x0, boxes[p].z0, static_cast<std::uint16_t>(w),
                      static_cast<std::uint16_t>(d), static_cast<std::uint32_t>(total)};
    total += std::uint64_t{w} * d;
  }
  if (total > std::numeric_limits<std::uint32_t>::max()) {
    return make_error(ErrorCode::MemoryLimit, "heights: too many height samples");
  }
  LEAPNAV_TRY(ctx.check_memory("height samples", total * sizeof(float)));
  out.samples.assign(total, std::numeric_limits<float>::quiet_NaN());

  const int climb = params.walkable_climb;
  LEAPNAV_TRY(ctx.check_cancel("heights"));
  parallel_for(ctx.threads(), 0, count, 16, [&](std::size_t p0, std::size_t p1) {
    for (std::size_t p = p0; p < p1; ++p) {
      const HeightPatch& patch = out.patches[p];
      const std::uint16_t region = polygons.poly_region[p];
      float* samples = out.samples.data() + patch.first;
      // the regions of the polygons across its edges: a straight portal (contours) gives a
      // polygon columns of the region across it, whose floor there is the one to sample
      std::array<std::uint16_t, 16> across{};
      std::size_t across_count = 0;
      for (const std::uint32_t n : polygons.neighbors(PolyId{static_cast<std::uint32_t>(p)})) {
        if (n == kNoPoly || across_count == across.size()) continue;
        const std::uint16_t r = polygons.poly_region[n];
        if (r == region || r == kNoRegion) continue;
        if (std::find(across.begin(), across.begin() + across_count, r) ==
            across.begin() + across_count) {
          across[across_count++] = r;
        }
      }
      for (int j = 0; j < patch.depth; ++j) {
        const int z = patch.z0 + j;
        for (int i = 0; i < patch.width; ++i) {
          const int x = patch.x0 + i;
          const std::size_t column = grid.column_index(x, z);
          const std::uint32_t s0 = field.first(column);
          const std::uint32_t s1 = field.end(column);
          if (s0 == s1) continue;
          int floor = -1;
          for (std::uint32_t s = s0; s < s1; ++s) {
            if (regions.span_region[s] == region && region != kNoRegion) {
              floor = field.spans[s].y;
              break;
            }
          }
          if (floor < 0) {
            // note: the fan height is only a guide to pick the right storey in this column
            const double fan_cells = fan_level(polygons, corners, levels,
                                               static_cast<std::uint32_t>(p), x + 0.5, z + 0.5);
            double best = climb + 0.5;
            for (std::uint32_t s = s0; s < s1; ++s) {
              const double diff = std::abs(field.spans[s].y - fan_cells);
              if (diff < best) {
                best = diff;
                floor = field.spans[s].y;
              }
            }
          }
          if (floor < 0 && across_count > 0) {
            // note: no floor near the fan: a column of the region across a straight portal
            for (std::uint32_t s = s0; s < s1 && floor < 0; ++s) {
              const std::uint16_t r = regions.span_region[s];
              if (r != kNoRegion && std::find(across.begin(), across.begin() + across_count, r) !=
                                        across.begin() + across_count) {
                floor = field.spans[s].y;
              }
            }
          }
          if (floor >= 0) {
            samples[i + j * patch.width] = grid.level_to_world(floor);
          }
        }
      }
    }
  });
  return out;
}

}  // namespace leapnav::mesh
