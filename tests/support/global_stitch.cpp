// The reference for mesh::stitch_tiles: the stitch as one pass over the whole world (the
// library's implementation before stitching became per tile, kept as the oracle the per-tile
// pieces are checked against). Stitching tile meshes into one NavMesh (portal matching in the
// manner of Detour's external links, but producing shared edges so the mesh stays an ordinary
// NavMesh). Works on integer grid corners, so every test is exact: on each line between two tiles,
// (1) vertices of the two sides at one corner within the height tolerance are welded (union-find,
// never two of one tile), (2) each border edge gets the other side's vertices that lie strictly
// inside it near its height (straight corners), (3) adjacency pairs edges with the same two
// vertices, (4) inserted vertices no portal needs are dropped, (5) polygons past max_verts_per_poly
// are cut along diagonals into convex pieces. Sequential and in tile order: deterministic.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/global_stitch.hpp"

namespace leapnav::test {

using namespace leapnav::mesh;

namespace {

struct Corner {
  std::int32_t x = 0;
  std::int32_t y = 0;  ///< height level
  std::int32_t z = 0;
};

struct BorderEdge {
  int axis = 0;   ///< 0: the line x = coord (s = z); 1: the line z = coord (s = x)
  int coord = 0;  ///< the line's grid coordinate
  int side = 0;   ///< 0: the tile lies below coord, 1: above
  std::uint32_t poly = 0;
  std::uint32_t slot = 0;  ///< edge index within the polygon
};

struct EndPoint {
  std::int32_t s = 0;
  std::int32_t level = 0;
  std::uint32_t vertex = 0;
};

// Union-find over vertices; the root is the smallest vertex of a set, and a set never holds two
// vertices of one tile.
class Welder {
 public:
  explicit Welder(std::vector<std::uint32_t> vertex_tile) : tile_(std::move(vertex_tile)) {
    parent_.resize(tile_.size());
    for (std::uint32_t v = 0; v < parent_.size(); ++v) parent_[v] = v;
    tiles_.resize(tile_.size());
  }
  std::uint32_t find(std::uint32_t v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }
  bool unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    const std::vector<std::uint32_t> ta = tiles_of(a);
    const std::vector<std::uint32_t> tb = tiles_of(b);
    for (const std::uint32_t t : ta) {
      if (std::find(tb.begin(), tb.end(), t) != tb.end()) return false;
    }
    if (b < a) std::swap(a, b);
    parent_[b] = a;
    tiles_[a] = ta;
    tiles_[a].insert(tiles_[a].end(), tb.begin(), tb.end());
    tiles_[b].clear();
    return true;
  }

 private:
  std::vector<std::uint32_t> tiles_of(std::uint32_t root) const {
    return tiles_[root].empty() ? std::vector<std::uint32_t>{tile_[root]} : tiles_[root];
  }
  std::vector<std::uint32_t> tile_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::vector<std::uint32_t>> tiles_;
};

// Adjacency as build_polygons makes it: per unordered vertex pair, the first forward edge is
// paired with the first backward edge of another polygon.
std::vector<std::vector<std::uint32_t>> adjacency(
    const std::vector<std::vector<std::uint32_t>>& polys) {
  struct EdgeRef {
    std::uint32_t lo, hi, poly, slot;
    bool forward;
  };
  std::vector<EdgeRef> edges;
  std::vector<std::vector<std::uint32_t>> out(polys.size());
  for (std::uint32_t p = 0; p < polys.size(); ++p) {
    const auto& poly = polys[p];
    out[p].assign(poly.size(), kNoPoly);
    for (std::uint32_t k = 0; k < poly.size(); ++k) {
      const std::uint32_t a = poly[k];
      const std::uint32_t b = poly[(k + 1) % poly.size()];
      edges.push_back({std::min(a, b), std::max(a, b), p, k, a < b});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const EdgeRef& x, const EdgeRef& y) {
    if (x.lo != y.lo) return x.lo < y.lo;
    if (x.hi != y.hi) return x.hi < y.hi;
    if (x.poly != y.poly) return x.poly < y.poly;
    return x.slot < y.slot;
  });
  for (std::size_t e = 0; e < edges.size();) {
    std::size_t end = e + 1;
    while (end < edges.size() && edges[end].lo == edges[e].lo && edges[end].hi == edges[e].hi)
      ++end;
    std::size_t fwd = end;
    std::size_t bwd = end;
    for (std::size_t k = e; k < end; ++k) {
      if (edges[k].forward && fwd == end) fwd = k;
      if (!edges[k].forward && bwd == end) bwd = k;
    }
    if (fwd != end && bwd != end && edges[fwd].poly != edges[bwd].poly) {
      out[edges[fwd].poly][edges[fwd].slot] = edges[bwd].poly;
      out[edges[bwd].poly][edges[bwd].slot] = edges[fwd].poly;
    }
    e = end;
  }
  return out;
}

std::int64_t doubled_area(const std::vector<std::uint32_t>& poly,
                          const std::vector<Corner>& corners) {
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const Corner& a = corners[poly[k]];
    const Corner& b = corners[poly[(k + 1) % poly.size()]];
    sum += std::int64_t{a.x} * b.z - std::int64_t{b.x} * a.z;
  }
  return sum;
}

// Cuts a convex CCW polygon (straight corners allowed) into convex pieces of at most max_verts
// vertices along diagonals: each step cuts off max_verts consecutive vertices starting at the
// first position where both parts keep a positive area. Empty when no cut exists.
std::vector<std::vector<std::uint32_t>> split_convex(std::vector<std::uint32_t> poly,
                                                     std::size_t max_verts,
                                                     const std::vector<Corner>& corners) {
  std::vector<std::vector<std::uint32_t>> pieces;
  while (poly.size() > max_verts) {
    const std::size_t n = poly.size();
    bool cut = false;
    for (std::size_t i = 0; i < n && !cut; ++i) {
      std::vector<std::uint32_t> piece;
      std::vector<std::uint32_t> rest;
      for (std::size_t j = 0; j < max_verts; ++j) piece.push_back(poly[(i + j) % n]);
      for (std::size_t j = 0; j < n - max_verts + 2; ++j)
        rest.push_back(poly[(i + max_verts - 1 + j) % n]);
      if (doubled_area(piece, corners) <= 0 || doubled_area(rest, corners) <= 0) continue;
      pieces.push_back(std::move(piece));
      poly = std::move(rest);
      cut = true;
    }
    if (!cut) return {};
  }
  pieces.push_back(std::move(poly));
  return pieces;
}

}  // namespace

Result<NavMesh> stitch_tiles_global(std::span<const TileMesh> tiles, const TileLayout& layout,
                                    const BuildConfig& config, StitchStats* stats) {
  if (tiles.size() != layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: " + std::to_string(tiles.size()) + " tile meshes for " +
                          std::to_string(layout.tile_count()) + " tiles");
  StitchStats local_stats;
  StitchStats& st = stats != nullptr ? *stats : local_stats;
  st = {};
  const GridSpec& grid = layout.grid;
  const VoxelParams params = derive_voxel_params(config);
  // note: border corners take each side's own floor, which differ by up to a step
  const std::int32_t tolerance = params.walkable_climb + 1;

  // concatenate the tiles
  std::vector<Vec3> vertices;
  std::vector<Corner> corners;
  std::vector<std::uint32_t> vertex_tile;
  std::vector<std::vector<std::uint32_t>> polys;
  std::vector<std::vector<std::uint32_t>> tile_neighbors;
  std::vector<std::uint32_t> poly_tile;
  NavMesh out;
  out.config = config;
  out.grid = grid;
  const double cs = grid.cell_size;
  const double ch = grid.cell_height;
  for (std::size_t t = 0; t < tiles.size(); ++t) {
    const NavMesh& m = tiles[t].mesh;
    if (!(m.grid == grid))
      return make_error(ErrorCode::InvalidArgument,
                        "stitch: tile " + std::to_string(t) + " is not on the layout's grid");
    const auto vertex_base = static_cast<std::uint32_t>(vertices.size());
    const auto poly_base = static_cast<std::uint32_t>(polys.size());
    const auto sample_base = static_cast<std::uint32_t>(out.height_samples.size());
    for (const Vec3& v : m.vertices) {
      vertices.push_back(v);
      corners.push_back(
          {static_cast<std::int32_t>(std::lround((double{v.x} - double{grid.origin.x}) / cs)),
           static_cast<std::int32_t>(std::lround((double{v.y} - double{grid.origin.y}) / ch)),
           static_cast<std::int32_t>(std::lround((double{v.z} - double{grid.origin.z}) / cs))});
      vertex_tile.push_back(static_cast<std::uint32_t>(t));
    }
    for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
      std::vector<std::uint32_t> poly;
      std::vector<std::uint32_t> nbs;
      for (const std::uint32_t v : m.polygon(PolyId{p})) poly.push_back(vertex_base + v);
      for (const std::uint32_t q : m.neighbors(PolyId{p}))
        nbs.push_back(q == kNoPoly ? kNoPoly : poly_base + q);
      polys.push_back(std::move(poly));
      tile_neighbors.push_back(std::move(nbs));
      poly_tile.push_back(static_cast<std::uint32_t>(t));
      out.poly_region.push_back(m.poly_region[p]);
      out.poly_area.push_back(m.poly_area[p]);
      out.poly_flags.push_back(m.poly_flags[p]);
      out.poly_bounds.push_back(m.poly_bounds[p]);
      if (!m.height_patches.empty()) {
        HeightPatch patch = m.height_patches[p];
        patch.first += sample_base;
        out.height_patches.push_back(patch);
      }
    }
    if (m.height_patches.empty() && m.polygon_count() > 0 && !out.height_patches.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "stitch: tile " + std::to_string(t) + " has no height patches");
    out.height_samples.insert(out.height_samples.end(), m.height_samples.begin(),
                              m.height_samples.end());
  }
  if (!out.height_patches.empty() && out.height_patches.size() != polys.size())
    return make_error(ErrorCode::InvalidArgument, "stitch: some tiles have no height patches");

  // the boundary edges that lie on a line between two tiles
  std::vector<BorderEdge> border;
  for (std::uint32_t p = 0; p < polys.size(); ++p) {
    const TileRect r = layout.interior(poly_tile[p]);
    const auto& poly = polys[p];
    for (std::uint32_t k = 0; k < poly.size(); ++k) {
      if (tile_neighbors[p][k] != kNoPoly) continue;
      const Corner& a = corners[poly[k]];
      const Corner& b = corners[poly[(k + 1) % poly.size()]];
      if (a.x == b.x) {
        if (a.x == r.x0 && r.x0 > 0) border.push_back({0, a.x, 1, p, k});
        if (a.x == r.x1 && r.x1 < grid.width) border.push_back({0, a.x, 0, p, k});
      } else if (a.z == b.z) {
        if (a.z == r.z0 && r.z0 > 0) border.push_back({1, a.z, 1, p, k});
        if (a.z == r.z1 && r.z1 < grid.depth) border.push_back({1, a.z, 0, p, k});
      }
    }
  }
  std::sort(border.begin(), border.end(), [](const BorderEdge& x, const BorderEdge& y) {
    return std::tie(x.axis, x.coord, x.side, x.poly, x.slot) <
           std::tie(y.axis, y.coord, y.side, y.poly, y.slot);
  });
  const auto along = [&](std::uint32_t v, int axis) {
    return axis == 0 ? corners[v].z : corners[v].x;
  };
  // the runs of `border` that share a line
  std::vector<std::pair<std::size_t, std::size_t>> lines;
  for (std::size_t e = 0; e < border.size();) {
    std::size_t end = e + 1;
    while (end < border.size() && border[end].axis == border[e].axis &&
           border[end].coord == border[e].coord)
      ++end;
    lines.emplace_back(e, end);
    e = end;
  }
  const auto endpoints = [&](std::size_t begin, std::size_t end, int side,
                             const std::vector<std::uint32_t>& remap) {
    std::vector<EndPoint> points;
    for (std::size_t e = begin; e < end; ++e) {
      const BorderEdge& edge = border[e];
      if (edge.side != side) continue;
      const auto& poly = polys[edge.poly];
      for (const std::uint32_t v0 : {poly[edge.slot], poly[(edge.slot + 1) % poly.size()]}) {
        const std::uint32_t v = remap.empty() ? v0 : remap[v0];
        points.push_back({along(v, edge.axis), corners[v].y, v});
      }
    }
    std::sort(points.begin(), points.end(), [](const EndPoint& x, const EndPoint& y) {
      return std::tie(x.s, x.level, x.vertex) < std::tie(y.s, y.level, y.vertex);
    });
    points.erase(
        std::unique(points.begin(), points.end(),
                    [](const EndPoint& x, const EndPoint& y) { return x.vertex == y.vertex; }),
        points.end());
    return points;
  };

  // (1) weld the two sides' vertices at each corner, nearest heights first; every pair within
  // the tolerance is tried, so where four tiles meet at a corner their vertices end up in one set
  // whichever diagonal pairs first
  Welder welder(vertex_tile);
  struct WeldPair {
    std::int32_t dy;
    std::uint32_t low, high;
  };
  std::vector<WeldPair> pairs;
  for (const auto& [begin, end] : lines) {
    const std::vector<EndPoint> low = endpoints(begin, end, 0, {});
    const std::vector<EndPoint> high = endpoints(begin, end, 1, {});
    std::size_t h0 = 0;
    for (std::size_t l0 = 0; l0 < low.size();) {
      const std::int32_t s = low[l0].s;
      std::size_t l1 = l0;
      while (l1 < low.size() && low[l1].s == s) ++l1;
      while (h0 < high.size() && high[h0].s < s) ++h0;
      pairs.clear();
      for (std::size_t h = h0; h < high.size() && high[h].s == s; ++h) {
        for (std::size_t l = l0; l < l1; ++l) {
          const std::int32_t dy = std::abs(high[h].level - low[l].level);
          if (dy <= tolerance) pairs.push_back({dy, low[l].vertex, high[h].vertex});
        }
      }
      std::sort(pairs.begin(), pairs.end(), [](const WeldPair& x, const WeldPair& y) {
        return std::tie(x.dy, x.low, x.high) < std::tie(y.dy, y.low, y.high);
      });
      for (const WeldPair& pair : pairs) {
        if (welder.unite(pair.low, pair.high)) ++st.welded_vertices;
      }
      l0 = l1;
    }
  }
  std::vector<std::uint32_t> rep(vertices.size());
  for (std::uint32_t v = 0; v < rep.size(); ++v) rep[v] = welder.find(v);

  // (2) insert the other side's vertices into each border edge
  std::vector<std::vector<std::vector<std::uint32_t>>> inserted(polys.size());
  for (const auto& [begin, end] : lines) {
    const std::array<std::vector<EndPoint>, 2> sides = {endpoints(begin, end, 0, rep),
                                                        endpoints(begin, end, 1, rep)};
    for (std::size_t e = begin; e < end; ++e) {
      const BorderEdge& edge = border[e];
      const auto& poly = polys[edge.poly];
      const std::uint32_t a = rep[poly[edge.slot]];
      const std::uint32_t b = rep[poly[(edge.slot + 1) % poly.size()]];
      const std::int32_t sa = along(a, edge.axis);
      const std::int32_t sb = along(b, edge.axis);
      const std::int32_t lo = std::min(sa, sb);
      const std::int32_t hi = std::max(sa, sb);
      const std::vector<EndPoint>& other = sides[edge.side == 0 ? 1 : 0];
      std::vector<std::uint32_t> add;
      auto it = std::lower_bound(other.begin(), other.end(), lo + 1,
                                 [](const EndPoint& x, std::int32_t s) { return x.s < s; });
      while (it != other.end() && it->s < hi) {
        const std::int32_t s = it->s;
        const double level =
            corners[a].y + double(corners[b].y - corners[a].y) * double(s - sa) / double(sb - sa);
        std::uint32_t best = kNoPoly;
        double best_dy = tolerance + 0.5;
        for (; it != other.end() && it->s == s; ++it) {
          const double dy = std::abs(it->level - level);
          if (dy < best_dy) {
            best = it->vertex;
            best_dy = dy;
          }
        }
        if (best != kNoPoly) add.push_back(best);
      }
      if (add.empty()) continue;
      if (sa > sb) std::reverse(add.begin(), add.end());
      if (inserted[edge.poly].empty()) inserted[edge.poly].resize(poly.size());
      inserted[edge.poly][edge.slot] = std::move(add);
    }
  }
  // the polygons with welded and inserted vertices; is_inserted marks the inserted ones
  std::vector<std::vector<char>> is_inserted(polys.size());
  for (std::size_t p = 0; p < polys.size(); ++p) {
    std::vector<std::uint32_t> poly;
    std::vector<char> flags;
    for (std::size_t k = 0; k < polys[p].size(); ++k) {
      poly.push_back(rep[polys[p][k]]);
      flags.push_back(0);
      if (inserted[p].empty()) continue;
      for (const std::uint32_t v : inserted[p][k]) {
        poly.push_back(v);
        flags.push_back(1);
      }
    }
    polys[p] = std::move(poly);
    is_inserted[p] = std::move(flags);
  }
  inserted = {};

  // (3) adjacency, then (4) drop inserted vertices between two boundary edges
  {
    const auto neighbors = adjacency(polys);
    for (std::size_t p = 0; p < polys.size(); ++p) {
      const std::size_t n = polys[p].size();
      std::vector<std::uint32_t> kept;
      for (std::size_t k = 0; k < n; ++k) {
        const bool needed = neighbors[p][(k + n - 1) % n] != kNoPoly || neighbors[p][k] != kNoPoly;
        if (is_inserted[p][k] == 0 || needed) kept.push_back(polys[p][k]);
        if (is_inserted[p][k] != 0 && needed) ++st.inserted_corners;
      }
      polys[p] = std::move(kept);
    }
  }
  is_inserted = {};

  // (5) split polygons past the vertex limit; pieces share their polygon's height patch
  const auto max_verts = static_cast<std::size_t>(config.poly.max_verts_per_poly);
  std::vector<std::vector<std::uint32_t>> final_polys;
  NavMesh result;
  result.config = config;
  result.grid = grid;
  result.height_samples = std::move(out.height_samples);
  std::vector<std::uint32_t> final_tile;
  for (std::size_t p = 0; p < polys.size(); ++p) {
    std::vector<std::vector<std::uint32_t>> pieces;
    if (polys[p].size() > max_verts) {
      pieces = split_convex(polys[p], max_verts, corners);
      if (pieces.empty())
        return make_error(ErrorCode::Internal, "stitch: polygon " + std::to_string(p) +
                                                   " of tile " + std::to_string(poly_tile[p]) +
                                                   " could not be cut to " +
                                                   std::to_string(max_verts) + " vertices");
      ++st.split_polygons;
    } else {
      pieces.push_back(std::move(polys[p]));
    }
    for (auto& piece : pieces) {
      AABB bounds;
      for (const std::uint32_t v : piece) bounds.extend(vertices[v]);
      bounds.min.y = std::min(bounds.min.y, out.poly_bounds[p].min.y);
      bounds.max.y = std::max(bounds.max.y, out.poly_bounds[p].max.y);
      result.poly_region.push_back(out.poly_region[p]);
      result.poly_area.push_back(out.poly_area[p]);
      result.poly_flags.push_back(out.poly_flags[p]);
      result.poly_bounds.push_back(bounds);
      if (!out.height_patches.empty()) result.height_patches.push_back(out.height_patches[p]);
      final_tile.push_back(poly_tile[p]);
      final_polys.push_back(std::move(piece));
    }
  }
  polys = {};
  const auto neighbors = adjacency(final_polys);

  // keep the vertices in use, in their order
  std::vector<std::uint32_t> new_index(vertices.size(), kNoPoly);
  for (const auto& poly : final_polys) {
    for (const std::uint32_t v : poly) new_index[v] = 0;
  }
  for (std::uint32_t v = 0; v < vertices.size(); ++v) {
    if (new_index[v] == kNoPoly) continue;
    new_index[v] = static_cast<std::uint32_t>(result.vertices.size());
    result.vertices.push_back(vertices[v]);
  }
  result.poly_first.push_back(0);
  for (std::size_t p = 0; p < final_polys.size(); ++p) {
    for (std::size_t k = 0; k < final_polys[p].size(); ++k) {
      result.poly_vertices.push_back(new_index[final_polys[p][k]]);
      const std::uint32_t q = neighbors[p][k];
      result.poly_neighbors.push_back(q);
      if (q != kNoPoly && final_tile[q] != final_tile[p]) ++st.portal_edges;
    }
    result.poly_first.push_back(static_cast<std::uint32_t>(result.poly_vertices.size()));
  }
  st.portal_edges /= 2;
  // the polygons stay in tile order (tiles concatenated, a split polygon's pieces in place)
  result.tile_poly_first.assign(tiles.size() + 1, 0);
  for (std::size_t p = 0; p < final_tile.size(); ++p) {
    if (p > 0 && final_tile[p] < final_tile[p - 1])
      return make_error(ErrorCode::Internal,
                        "stitch: polygon " + std::to_string(p) + " is out of tile order");
    ++result.tile_poly_first[final_tile[p] + 1];
  }
  for (std::size_t t = 0; t < tiles.size(); ++t)
    result.tile_poly_first[t + 1] += result.tile_poly_first[t];
  if (Status status = validate(result); !status.ok())
    return make_error(ErrorCode::Internal, "stitch: " + std::move(status).error().message);
  return result;
}

}  // namespace leapnav::test
