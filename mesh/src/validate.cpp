// NavMesh checks against the compact heightfield: overlap of polygons at the same level (rtree over
// xz bounds, then Sutherland-Hodgman clipping of the two convex polygons), centres over walkable
// spans, and total area against the eroded walkable span area. Boost stays in this file.
#include "leapnav/mesh/validate.hpp"

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "span_graph.hpp"

namespace leapnav::mesh {
namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using Point2 = bg::model::point<double, 2, bg::cs::cartesian>;
using Box2 = bg::model::box<Point2>;
using Entry = std::pair<Box2, std::uint32_t>;

struct P2 {
  double x = 0.0, z = 0.0;
};

std::vector<P2> polygon_xz(const NavMesh& mesh, std::uint32_t p) {
  std::vector<P2> out;
  for (const std::uint32_t v : mesh.polygon(PolyId{p})) {
    out.push_back({mesh.vertices[v].x, mesh.vertices[v].z});
  }
  return out;
}

// Intersection of a convex polygon with the left side of every edge of a convex CCW polygon.
std::vector<P2> clip_convex(std::vector<P2> subject, const std::vector<P2>& clip) {
  for (std::size_t e = 0; e < clip.size() && !subject.empty(); ++e) {
    const P2 a = clip[e];
    const P2 b = clip[(e + 1) % clip.size()];
    const auto side = [&](P2 p) { return (b.x - a.x) * (p.z - a.z) - (p.x - a.x) * (b.z - a.z); };
    std::vector<P2> next;
    for (std::size_t k = 0; k < subject.size(); ++k) {
      const P2 cur = subject[k];
      const P2 nxt = subject[(k + 1) % subject.size()];
      const double sc = side(cur);
      const double sn = side(nxt);
      if (sc >= 0.0) next.push_back(cur);
      if ((sc >= 0.0) != (sn >= 0.0)) {
        const double t = sc / (sc - sn);
        next.push_back({cur.x + t * (nxt.x - cur.x), cur.z + t * (nxt.z - cur.z)});
      }
    }
    subject = std::move(next);
  }
  return subject;
}

double signed_area(const std::vector<P2>& poly, P2* centroid) {
  double a2 = 0.0, cx = 0.0, cz = 0.0;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const P2 p = poly[k];
    const P2 q = poly[(k + 1) % poly.size()];
    const double cr = p.x * q.z - q.x * p.z;
    a2 += cr;
    cx += (p.x + q.x) * cr;
    cz += (p.z + q.z) * cr;
  }
  if (centroid != nullptr && a2 != 0.0) *centroid = {cx / (3.0 * a2), cz / (3.0 * a2)};
  return 0.5 * a2;
}

// The walkable spans (area != kNullArea), leaving out connected groups of one area id with fewer
// than min_cells spans none of which the mesh's span map gives a polygon: the region stage
// removes such islands. Without a span map every walkable span counts.
std::uint64_t spans_in_kept_islands(const NavMesh& mesh, const voxel::CompactHeightfield& field,
                                    int min_cells) {
  std::uint64_t walkable = 0;
  for (const std::uint8_t a : field.areas) walkable += a != voxel::kNullArea ? 1 : 0;
  if (min_cells <= 0 || mesh.span_poly.size() != field.spans.size() ||
      !detail::check_heightfield(field, "validate", false).ok())
    return walkable;
  const detail::SpanGraph graph = detail::make_span_graph(field, 1);
  const std::size_t span_count = field.spans.size();
  std::vector<char> seen(span_count, 0);
  std::vector<std::uint32_t> group;
  std::uint64_t kept = 0;
  for (std::size_t start = 0; start < span_count; ++start) {
    if (seen[start] || field.areas[start] == voxel::kNullArea) continue;
    group.assign(1, static_cast<std::uint32_t>(start));
    seen[start] = 1;
    for (std::size_t k = 0; k < group.size(); ++k) {
      for (int dir = 0; dir < 4; ++dir) {
        const std::uint32_t n = graph.neighbor(group[k], dir);
        if (n == detail::kNoSpan || seen[n] || field.areas[n] != field.areas[start]) continue;
        seen[n] = 1;
        group.push_back(n);
      }
    }
    bool covered = group.size() >= static_cast<std::size_t>(min_cells);
    for (std::size_t k = 0; k < group.size() && !covered; ++k) {
      covered = mesh.span_poly[group[k]] != kNoPoly;
    }
    if (covered) kept += group.size();
  }
  return kept;
}

Status fail(const std::string& what) {
  return make_error(ErrorCode::Internal, "navmesh vs heightfield: " + what);
}

}  // namespace

Status validate_against(const NavMesh& mesh, const voxel::CompactHeightfield& field,
                        const BuildConfig& config) {
  LEAPNAV_TRY(validate(mesh));
  const GridSpec& grid = field.grid;
  if (field.column_first.size() != static_cast<std::size_t>(grid.column_count()) + 1 ||
      field.areas.size() != field.spans.size()) {
    return fail("the heightfield's arrays are inconsistent");
  }
  const auto count = static_cast<std::uint32_t>(mesh.polygon_count());
  const double climb = config.agent.max_climb;
  const double cs = grid.cell_size;
  const double min_overlap = 1e-3 * cs * cs;

  // overlaps at the same level
  std::vector<Entry> entries;
  entries.reserve(count);
  for (std::uint32_t p = 0; p < count; ++p) {
    const AABB& b = mesh.poly_bounds[p];
    entries.emplace_back(Box2(Point2(b.min.x, b.min.z), Point2(b.max.x, b.max.z)), p);
  }
  const bgi::rtree<Entry, bgi::quadratic<16>> tree(entries.begin(), entries.end());
  std::vector<Entry> hits;
  for (std::uint32_t p = 0; p < count; ++p) {
    hits.clear();
    tree.query(bgi::intersects(entries[p].first), std::back_inserter(hits));
    const std::vector<P2> pp = polygon_xz(mesh, p);
    for (const Entry& hit : hits) {
      const std::uint32_t q = hit.second;
      if (q <= p) continue;
      const AABB& bp = mesh.poly_bounds[p];
      const AABB& bq = mesh.poly_bounds[q];
      if (bp.min.y > bq.max.y + climb || bq.min.y > bp.max.y + climb) continue;
      const std::vector<P2> common = clip_convex(pp, polygon_xz(mesh, q));
      P2 c;
      if (common.size() < 3 || signed_area(common, &c) <= min_overlap) continue;
      const auto cx = static_cast<float>(c.x);
      const auto cz = static_cast<float>(c.z);
      const double hp = height_at(mesh, PolyId{p}, cx, cz);
      const double hq = height_at(mesh, PolyId{q}, cx, cz);
      if (std::abs(hp - hq) <= climb) {
        return fail("polygons " + std::to_string(p) + " and " + std::to_string(q) +
                    " overlap in xz at the same level near (" + std::to_string(c.x) + ", " +
                    std::to_string(c.z) + ")");
      }
    }
  }

  // centres over walkable spans
  const int reach = static_cast<int>(std::ceil(config.poly.max_edge_error / cs));
  for (std::uint32_t p = 0; p < count; ++p) {
    const Vec3 c = polygon_center(mesh, PolyId{p});
    const auto x = static_cast<int>(std::floor((c.x - grid.origin.x) / grid.cell_size));
    const auto z = static_cast<int>(std::floor((c.z - grid.origin.z) / grid.cell_size));
    const auto walkable_at = [&](int cx, int cz) {
      if (!grid.in_bounds(cx, cz)) return false;
      const std::size_t column = grid.column_index(cx, cz);
      for (std::uint32_t s = field.first(column); s < field.end(column); ++s) {
        const double floor = grid.origin.y + field.spans[s].y * double(grid.cell_height);
        if (field.areas[s] != voxel::kNullArea && std::abs(floor - c.y) <= climb) return true;
      }
      return false;
    };
    bool found = walkable_at(x, z);
    // note: simplified contours stray up to max_edge_error from the raster, so the centre of a
    // thin polygon along a wall may sit over an eroded cell next to its region
    for (int dz = -reach; dz <= reach && !found; ++dz) {
      for (int dx = -reach; dx <= reach && !found; ++dx) found = walkable_at(x + dx, z + dz);
    }
    if (!found) {
      return fail("the centre of polygon " + std::to_string(p) + " (" + std::to_string(c.x) + ", " +
                  std::to_string(c.y) + ", " + std::to_string(c.z) +
                  ") is over no walkable span within max_climb");
    }
  }

  // total area
  double mesh_area = 0.0;
  for (std::uint32_t p = 0; p < count; ++p) mesh_area += polygon_area(mesh, PolyId{p});
  const std::uint64_t walkable =
      spans_in_kept_islands(mesh, field, derive_voxel_params(config).min_region_cells);
  const double walkable_area = static_cast<double>(walkable) * cs * cs;
  if (walkable_area == 0.0 ? mesh_area > 0.0
                           : std::abs(mesh_area - walkable_area) > kAreaTolerance * walkable_area) {
    return fail("navmesh area " + std::to_string(mesh_area) +
                " m2 differs from the walkable span area " + std::to_string(walkable_area) +
                " m2 by more than " + std::to_string(kAreaTolerance * 100.0) + " %");
  }
  return {};
}

}  // namespace leapnav::mesh
