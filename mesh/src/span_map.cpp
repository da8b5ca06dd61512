// Span → polygon map: each polygon scans the grid corners of its xz bounds, and every corner inside
// its closed outline (exact integer test) claims the span of the polygon's region in the column
// whose (min x, min z) corner it is. Regions are processed in parallel (their spans are disjoint),
// polygons of a region in increasing order, first claim wins: deterministic for any thread count.
#include "leapnav/mesh/span_map.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "leapnav/core/parallel.hpp"
#include "leapnav/mesh/heights.hpp"

namespace leapnav::mesh {
namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> polygon_row_columns(
    std::span<const std::array<std::int32_t, 2>> corners, std::span<const std::uint32_t> poly,
    std::int64_t z, std::int64_t x0, std::int64_t x1) {
  std::int64_t lo = x0;
  std::int64_t hi = x1;
  for (std::size_t e = 0; e < poly.size() && lo <= hi; ++e) {
    const auto& a = corners[poly[e]];
    const auto& b = corners[poly[(e + 1) % poly.size()]];
    // inside edge a->b: (b.x - a.x) * (z - a.z) - (x - a.x) * (b.z - a.z) >= 0
    const std::int64_t dz = std::int64_t{b[1]} - a[1];
    const std::int64_t rhs = (std::int64_t{b[0]} - a[0]) * (z - a[1]);
    if (dz == 0) {
      if (rhs < 0) hi = lo - 1;
    } else if (dz > 0) {
      hi = std::min(hi, a[0] + floor_div(rhs, dz));
    } else {
      lo = std::max(lo, a[0] + ceil_div(rhs, dz));
    }
  }
  return {lo, hi};
}

Result<SpanMap> build_span_map(const NavMesh& polygons, const voxel::CompactHeightfield& field,
                               const RegionField& regions, BuildContext& ctx) {
  const GridSpec& grid = field.grid;
  if (!(grid == polygons.grid)) {
    return make_error(ErrorCode::InvalidArgument,
                      "span map: the heightfield's grid differs from the mesh's");
  }
  if (regions.span_region.size() != field.spans.size() ||
      field.areas.size() != field.spans.size() ||
      field.column_first.size() != static_cast<std::size_t>(grid.column_count()) + 1) {
    return make_error(ErrorCode::InvalidArgument,
                      "span map: regions, areas or column index do not match the heightfield");
  }
  LEAPNAV_TRY(ctx.check_cancel("span_map"));
  SpanMap out;
  out.column_first = field.column_first;
  out.span_y.resize(field.spans.size());
  for (std::size_t s = 0; s < field.spans.size(); ++s) out.span_y[s] = field.spans[s].y;
  out.span_poly.assign(field.spans.size(), kNoPoly);

  const std::size_t count = polygons.polygon_count();
  const auto corners = vertex_grid_corners(polygons);
  // polygons grouped by region, increasing polygon id within a region
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return polygons.poly_region[a] < polygons.poly_region[b];
  });
  std::vector<std::size_t> group_first;
  for (std::size_t k = 0; k < count; ++k) {
    if (k == 0 || polygons.poly_region[order[k]] != polygons.poly_region[order[k - 1]]) {
      group_first.push_back(k);
    }
  }
  group_first.push_back(count);

  LEAPNAV_TRY(ctx.check_cancel("span_map"));
  parallel_for(ctx.threads(), 0, group_first.size() - 1, 1, [&](std::size_t g0, std::size_t g1) {
    for (std::size_t g = g0; g < g1; ++g) {
      for (std::size_t k = group_first[g]; k < group_first[g + 1]; ++k) {
        const std::uint32_t p = order[k];
        const std::uint16_t region = polygons.poly_region[p];
        if (region == kNoRegion) continue;
        const auto poly = polygons.polygon(PolyId{p});
        std::int32_t x0 = grid.width, z0 = grid.depth, x1 = -1, z1 = -1;
        for (const std::uint32_t v : poly) {
          x0 = std::min(x0, corners[v][0]);
          z0 = std::min(z0, corners[v][1]);
          x1 = std::max(x1, corners[v][0]);
          z1 = std::max(z1, corners[v][1]);
        }
        x0 = std::max(x0, 0);
        z0 = std::max(z0, 0);
        x1 = std::min(x1, grid.width - 1);
        z1 = std::min(z1, grid.depth - 1);
        for (std::int32_t z = z0; z <= z1; ++z) {
          // the closed polygon's corners on row z form one interval [lo, hi] (convex polygon)
          const auto [lo, hi] = polygon_row_columns(corners, poly, z, x0, x1);
          for (std::int64_t xl = lo; xl <= hi; ++xl) {
            const auto x = static_cast<std::int32_t>(xl);
            const std::size_t column = grid.column_index(x, z);
            for (std::uint32_t s = field.first(column); s < field.end(column); ++s) {
              if (regions.span_region[s] != region) continue;
              if (field.areas[s] != voxel::kNullArea && out.span_poly[s] == kNoPoly) {
                out.span_poly[s] = p;
              }
              break;
            }
          }
        }
      }
    }
  });
  return out;
}

}  // namespace leapnav::mesh
