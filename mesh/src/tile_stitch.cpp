// Stitching tile meshes into one NavMesh (portal matching in the manner of Detour's external
// links, but producing shared edges so the mesh stays an ordinary NavMesh). Works on integer grid
// corners, so every test is exact: on each line between two tiles, (1) vertices of the two sides
// at one corner within the height tolerance are welded (union-find, never two of one tile),
// (2) each border edge gets the other side's vertices that lie strictly inside it near its
// height (straight corners), (3) adjacency pairs edges with the same two vertices, (4) inserted
// vertices no portal needs are dropped, (5) polygons past max_verts_per_poly are cut along
// diagonals into convex pieces. Everything at a point or an edge on a tile line involves only the
// tiles that meet there, so each tile's piece is computed from its 3 x 3 neighbourhood (only the
// neighbours' polygons that touch the tile's closed rectangle take part), with the same steps in
// the same order as one global pass over the world would take them; ids into other tiles are
// resolved afterwards (link_piece) and the pieces are concatenated (splice_pieces). Vertex and
// polygon ids keep the global order (tile, index in the tile), so weld roots, edge pairing and
// the kept vertices are those of the global pass. Deterministic; pieces are independent.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "leapnav/core/parallel.hpp"
#include "leapnav/mesh/tiles.hpp"

namespace leapnav::mesh {

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
    const std::span<const std::uint32_t> ta = tiles_of(a);
    const std::span<const std::uint32_t> tb = tiles_of(b);
    for (const std::uint32_t t : ta) {
      if (std::find(tb.begin(), tb.end(), t) != tb.end()) return false;
    }
    std::vector<std::uint32_t> joined(ta.begin(), ta.end());
    joined.insert(joined.end(), tb.begin(), tb.end());
    if (b < a) std::swap(a, b);
    parent_[b] = a;
    tiles_[a] = std::move(joined);
    tiles_[b].clear();
    return true;
  }

 private:
  std::span<const std::uint32_t> tiles_of(std::uint32_t root) const {
    return tiles_[root].empty() ? std::span<const std::uint32_t>(&tile_[root], 1)
                                : std::span<const std::uint32_t>(tiles_[root]);
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

Corner corner_of(const Vec3& v, const GridSpec& grid) {
  const double cs = grid.cell_size;
  const double ch = grid.cell_height;
  return {static_cast<std::int32_t>(std::lround((double{v.x} - double{grid.origin.x}) / cs)),
          static_cast<std::int32_t>(std::lround((double{v.y} - double{grid.origin.y}) / ch)),
          static_cast<std::int32_t>(std::lround((double{v.z} - double{grid.origin.z}) / cs))};
}

std::uint64_t vertex_key(std::uint32_t tile, std::uint32_t vertex) {
  return (std::uint64_t{tile} << 32U) | vertex;
}

}  // namespace

Result<StitchPiece> stitch_piece(std::span<const TileMesh> tiles, const TileLayout& layout,
                                 const BuildConfig& config, std::size_t tile) {
  if (tiles.size() != layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: " + std::to_string(tiles.size()) + " tile meshes for " +
                          std::to_string(layout.tile_count()) + " tiles");
  if (tile >= tiles.size())
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: tile " + std::to_string(tile) + " is outside the layout");
  const GridSpec& grid = layout.grid;
  const VoxelParams params = derive_voxel_params(config);
  // note: border corners take each side's own floor, which differ by up to a step
  const std::int32_t tolerance = params.walkable_climb + 1;
  const auto center = static_cast<std::uint32_t>(tile);
  const TileRect own = layout.interior(tile);

  // the block: the tile whole, and the neighbours' polygons with a corner on its closed rectangle
  // (every vertex and edge the tile's lines involve), ids in global order
  std::vector<Vec3> vertices;
  std::vector<Corner> corners;
  std::vector<std::uint32_t> vertex_tile;
  std::vector<std::uint32_t> vertex_local;
  std::vector<std::vector<std::uint32_t>> polys;
  std::vector<std::vector<char>> open_edge;  // the edge has no neighbour in its tile
  std::vector<std::uint32_t> poly_tile;
  std::vector<std::uint32_t> poly_local;
  std::uint32_t center_vertex_base = 0;
  std::vector<Corner> tile_corners;
  std::vector<char> have_corner;
  std::vector<std::uint32_t> to_block;
  const double own_min_x = double{grid.origin.x} + double(own.x0 - 1) * double{grid.cell_size};
  const double own_max_x = double{grid.origin.x} + double(own.x1 + 1) * double{grid.cell_size};
  const double own_min_z = double{grid.origin.z} + double(own.z0 - 1) * double{grid.cell_size};
  const double own_max_z = double{grid.origin.z} + double(own.z1 + 1) * double{grid.cell_size};
  for (const std::size_t u : tile_block(layout, tile)) {
    const NavMesh& m = tiles[u].mesh;
    if (!(m.grid == grid))
      return make_error(ErrorCode::InvalidArgument,
                        "stitch: tile " + std::to_string(u) + " is not on the layout's grid");
    const bool is_center = u == tile;
    tile_corners.resize(m.vertices.size());
    std::vector<char> take(m.polygon_count(), is_center ? 1 : 0);
    to_block.assign(m.vertices.size(), is_center ? 0U : kNoPoly);
    if (is_center) {
      for (std::size_t v = 0; v < m.vertices.size(); ++v)
        tile_corners[v] = corner_of(m.vertices[v], grid);
    } else {
      have_corner.assign(m.vertices.size(), 0);
      for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
        // note: vertices lie on grid corners, so a polygon whose bounds stay a cell away from
        // the rectangle has no corner on it
        const AABB& bounds = m.poly_bounds[p];
        if (bounds.max.x < own_min_x || bounds.min.x > own_max_x || bounds.max.z < own_min_z ||
            bounds.min.z > own_max_z)
          continue;
        for (const std::uint32_t v : m.polygon(PolyId{p})) {
          if (have_corner[v] == 0) {
            tile_corners[v] = corner_of(m.vertices[v], grid);
            have_corner[v] = 1;
          }
          const Corner& c = tile_corners[v];
          if (c.x >= own.x0 && c.x <= own.x1 && c.z >= own.z0 && c.z <= own.z1) take[p] = 1;
        }
        if (take[p] == 0) continue;
        for (const std::uint32_t v : m.polygon(PolyId{p})) to_block[v] = 0;
      }
    }
    if (is_center) center_vertex_base = static_cast<std::uint32_t>(vertices.size());
    for (std::uint32_t v = 0; v < m.vertices.size(); ++v) {
      if (to_block[v] == kNoPoly) continue;
      to_block[v] = static_cast<std::uint32_t>(vertices.size());
      vertices.push_back(m.vertices[v]);
      corners.push_back(tile_corners[v]);
      vertex_tile.push_back(static_cast<std::uint32_t>(u));
      vertex_local.push_back(v);
    }
    for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
      if (take[p] == 0) continue;
      std::vector<std::uint32_t> poly;
      std::vector<char> open;
      for (const std::uint32_t v : m.polygon(PolyId{p})) poly.push_back(to_block[v]);
      for (const std::uint32_t q : m.neighbors(PolyId{p})) open.push_back(q == kNoPoly ? 1 : 0);
      polys.push_back(std::move(poly));
      open_edge.push_back(std::move(open));
      poly_tile.push_back(static_cast<std::uint32_t>(u));
      poly_local.push_back(p);
    }
  }
  StitchPiece piece;
  StitchStats& st = piece.stats;

  // the boundary edges that lie on a line between two tiles
  std::vector<BorderEdge> border;
  for (std::uint32_t p = 0; p < polys.size(); ++p) {
    const TileRect r = layout.interior(poly_tile[p]);
    const auto& poly = polys[p];
    for (std::uint32_t k = 0; k < poly.size(); ++k) {
      if (open_edge[p][k] == 0) continue;
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
  open_edge = {};
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
  // whichever diagonal pairs first. The sets at one point never reach another point, and every
  // vertex at a point of the tile's rectangle is in the block, so these sets are the world's.
  Welder welder(vertex_tile);
  struct WeldPair {
    std::int32_t dy;
    std::uint32_t low, high;
  };
  std::vector<WeldPair> pairs;
  std::vector<std::uint32_t> welded;  // one vertex of each successful union
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
        if (welder.unite(pair.low, pair.high)) welded.push_back(pair.low);
      }
      l0 = l1;
    }
  }
  std::vector<std::uint32_t> rep(vertices.size());
  for (std::uint32_t v = 0; v < rep.size(); ++v) rep[v] = welder.find(v);
  // note: a union is counted by the tile that keeps the set's vertex (its root)
  for (const std::uint32_t v : welded) {
    if (vertex_tile[rep[v]] == center) ++st.welded_vertices;
  }

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

  // (3) adjacency, then (4) drop inserted vertices between two boundary edges. An edge pairs only
  // with edges of the same two vertices, which lie on the same tile line: the block's polygons
  // on the tile's lines are complete, so the tile's edges pair as in the world.
  {
    const auto neighbors = adjacency(polys);
    for (std::size_t p = 0; p < polys.size(); ++p) {
      const std::size_t n = polys[p].size();
      std::vector<std::uint32_t> kept;
      for (std::size_t k = 0; k < n; ++k) {
        const bool needed = neighbors[p][(k + n - 1) % n] != kNoPoly || neighbors[p][k] != kNoPoly;
        if (is_inserted[p][k] == 0 || needed) kept.push_back(polys[p][k]);
        if (is_inserted[p][k] != 0 && needed && poly_tile[p] == center) ++st.inserted_corners;
      }
      polys[p] = std::move(kept);
    }
  }
  is_inserted = {};

  // (5) split the tile's polygons past the vertex limit (the neighbours' polygons stay whole:
  // a cut never runs along a tile line, so their edges there are the same)
  const auto max_verts = static_cast<std::size_t>(config.poly.max_verts_per_poly);
  std::vector<std::vector<std::uint32_t>> final_polys;
  std::vector<std::uint32_t> final_tile;
  std::vector<std::uint32_t> final_source;
  std::uint32_t first = kNoPoly;
  for (std::uint32_t p = 0; p < polys.size(); ++p) {
    std::vector<std::vector<std::uint32_t>> pieces;
    if (poly_tile[p] == center && polys[p].size() > max_verts) {
      pieces = split_convex(polys[p], max_verts, corners);
      if (pieces.empty())
        return make_error(ErrorCode::Internal, "stitch: polygon " + std::to_string(poly_local[p]) +
                                                   " of tile " + std::to_string(tile) +
                                                   " could not be cut to " +
                                                   std::to_string(max_verts) + " vertices");
      ++st.split_polygons;
    } else {
      pieces.push_back(std::move(polys[p]));
    }
    for (auto& part : pieces) {
      if (poly_tile[p] == center && first == kNoPoly)
        first = static_cast<std::uint32_t>(final_polys.size());
      final_tile.push_back(poly_tile[p]);
      final_source.push_back(p);
      final_polys.push_back(std::move(part));
    }
  }
  polys = {};
  const auto neighbors = adjacency(final_polys);

  // the tile's part
  const NavMesh& m = tiles[tile].mesh;
  piece.poly_first.push_back(0);
  for (std::uint32_t p = first; p < final_polys.size() && final_tile[p] == center; ++p) {
    const auto& poly = final_polys[p];
    const std::uint32_t src = poly_local[final_source[p]];
    AABB bounds;
    for (std::size_t k = 0; k < poly.size(); ++k) {
      const std::uint32_t v = poly[k];
      const std::uint32_t w = poly[(k + 1) % poly.size()];
      bounds.extend(vertices[v]);
      piece.vertex_tile.push_back(vertex_tile[v]);
      piece.vertex_local.push_back(vertex_local[v]);
      const std::uint32_t q = neighbors[p][k];
      if (q == kNoPoly) {
        piece.neighbor_local.push_back(kNoPoly);
      } else if (final_tile[q] == center) {
        piece.neighbor_local.push_back(q - first);
      } else {
        const std::uint64_t ka = vertex_key(vertex_tile[v], vertex_local[v]);
        const std::uint64_t kb = vertex_key(vertex_tile[w], vertex_local[w]);
        piece.cross.push_back({static_cast<std::uint32_t>(piece.neighbor_local.size()),
                               final_tile[q], std::min(ka, kb), std::max(ka, kb)});
        piece.neighbor_local.push_back(StitchPiece::kCrossTile);
      }
    }
    bounds.min.y = std::min(bounds.min.y, m.poly_bounds[src].min.y);
    bounds.max.y = std::max(bounds.max.y, m.poly_bounds[src].max.y);
    piece.bounds.push_back(bounds);
    piece.source_poly.push_back(src);
    piece.poly_first.push_back(static_cast<std::uint32_t>(piece.vertex_tile.size()));
  }
  st.portal_edges = piece.cross.size();
  // kept: the tile's vertices that are their set's root and used by the tile's own polygons
  // (a root is never used only through another tile: roots of welded sets are border edge
  // corners, and inserted vertices are roots)
  std::vector<char> used(m.vertices.size(), 0);
  for (const std::uint32_t v : m.poly_vertices) used[v] = 1;
  piece.vertex_rank.assign(m.vertices.size(), kNoPoly);
  for (std::uint32_t v = 0; v < m.vertices.size(); ++v) {
    const std::uint32_t b = center_vertex_base + v;
    if (used[v] == 0 || rep[b] != b) continue;
    piece.vertex_rank[v] = static_cast<std::uint32_t>(piece.kept.size());
    piece.kept.push_back(v);
  }
  return piece;
}

Status link_piece(std::span<StitchPiece> pieces, const TileLayout& layout, std::size_t tile) {
  if (pieces.size() != layout.tile_count() || tile >= pieces.size())
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: " + std::to_string(pieces.size()) + " pieces for " +
                          std::to_string(layout.tile_count()) + " tiles");
  StitchPiece& piece = pieces[tile];
  const std::size_t corners = piece.vertex_tile.size();
  piece.vertex_rank_ref.resize(corners);
  piece.neighbor_tile.resize(corners);
  piece.neighbor_poly.resize(corners);
  for (std::size_t k = 0; k < corners; ++k) {
    const std::uint32_t owner = piece.vertex_tile[k];
    const std::vector<std::uint32_t>& ranks = pieces[owner].vertex_rank;
    const std::uint32_t local = piece.vertex_local[k];
    if (local >= ranks.size() || ranks[local] == kNoPoly)
      return make_error(ErrorCode::Internal, "stitch: tile " + std::to_string(tile) +
                                                 " uses vertex " + std::to_string(local) +
                                                 " of tile " + std::to_string(owner) +
                                                 ", which that tile does not keep");
    piece.vertex_rank_ref[k] = ranks[local];
    const std::uint32_t q = piece.neighbor_local[k];
    piece.neighbor_tile[k] = q == kNoPoly ? kNoPoly : static_cast<std::uint32_t>(tile);
    piece.neighbor_poly[k] = q;
  }
  for (const StitchPiece::Cross& c : piece.cross) {
    const StitchPiece& other = pieces[c.tile];
    const auto match = std::find_if(other.cross.begin(), other.cross.end(), [&](const auto& o) {
      return o.tile == tile && o.a == c.a && o.b == c.b;
    });
    if (match == other.cross.end())
      return make_error(ErrorCode::Internal, "stitch: a portal of tile " + std::to_string(tile) +
                                                 " has no partner in tile " +
                                                 std::to_string(c.tile));
    const auto poly =
        std::upper_bound(other.poly_first.begin(), other.poly_first.end(), match->edge) -
        other.poly_first.begin() - 1;
    piece.neighbor_tile[c.edge] = c.tile;
    piece.neighbor_poly[c.edge] = static_cast<std::uint32_t>(poly);
  }
  return {};
}

namespace {

// Where each tile's part of the spliced arrays starts (prefix sums over the tiles; entry n is
// the total) and the counts summed, from the linked pieces and their tile meshes.
struct SpliceBases {
  std::vector<std::uint32_t> vertex;
  std::vector<std::uint32_t> poly;
  std::vector<std::uint32_t> corner;
  std::vector<std::uint32_t> sample;
  bool patches = false;
};

Result<SpliceBases> splice_bases(std::span<const TileMesh> tiles,
                                 std::span<const StitchPiece> pieces, StitchStats& st) {
  const std::size_t n = pieces.size();
  SpliceBases b;
  b.vertex.assign(n + 1, 0);
  b.poly.assign(n + 1, 0);
  b.corner.assign(n + 1, 0);
  b.sample.assign(n + 1, 0);
  st = {};
  for (std::size_t t = 0; t < n; ++t) {
    const StitchPiece& piece = pieces[t];
    if (piece.neighbor_poly.size() != piece.vertex_tile.size() || piece.poly_first.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "stitch: the piece of tile " + std::to_string(t) + " is not linked");
    b.vertex[t + 1] = b.vertex[t] + static_cast<std::uint32_t>(piece.kept.size());
    b.poly[t + 1] = b.poly[t] + static_cast<std::uint32_t>(piece.source_poly.size());
    b.corner[t + 1] = b.corner[t] + static_cast<std::uint32_t>(piece.vertex_tile.size());
    b.sample[t + 1] = b.sample[t] + static_cast<std::uint32_t>(tiles[t].mesh.height_samples.size());
    b.patches = b.patches || !tiles[t].mesh.height_patches.empty();
    st.welded_vertices += piece.stats.welded_vertices;
    st.inserted_corners += piece.stats.inserted_corners;
    st.portal_edges += piece.stats.portal_edges;
    st.split_polygons += piece.stats.split_polygons;
  }
  st.portal_edges /= 2;
  for (std::size_t t = 0; t < n; ++t) {
    if (b.patches && tiles[t].mesh.height_patches.empty() && !pieces[t].source_poly.empty())
      return make_error(ErrorCode::InvalidArgument,
                        "stitch: tile " + std::to_string(t) + " has no height patches");
  }
  return b;
}

// Writes tile t's part of the spliced arrays (sized for `b`) from its linked piece.
void write_tile(NavMesh& out, const TileMesh& tile, const StitchPiece& piece, const SpliceBases& b,
                std::size_t t) {
  const NavMesh& m = tile.mesh;
  Vec3* vertex_out = out.vertices.data() + b.vertex[t];
  for (std::size_t k = 0; k < piece.kept.size(); ++k) vertex_out[k] = m.vertices[piece.kept[k]];
  const std::size_t corners = piece.vertex_tile.size();
  std::uint32_t* pv = out.poly_vertices.data() + b.corner[t];
  std::uint32_t* pn = out.poly_neighbors.data() + b.corner[t];
  for (std::size_t k = 0; k < corners; ++k) {
    pv[k] = b.vertex[piece.vertex_tile[k]] + piece.vertex_rank_ref[k];
    const std::uint32_t q = piece.neighbor_tile[k];
    pn[k] = q == kNoPoly ? kNoPoly : b.poly[q] + piece.neighbor_poly[k];
  }
  const std::uint32_t corner_base = b.corner[t];
  const std::uint32_t sample_base = b.sample[t];
  const std::size_t p0 = b.poly[t];
  for (std::size_t p = 0; p < piece.source_poly.size(); ++p) {
    const std::uint32_t src = piece.source_poly[p];
    out.poly_first[p0 + p + 1] = corner_base + piece.poly_first[p + 1];
    out.poly_region[p0 + p] = m.poly_region[src];
    out.poly_area[p0 + p] = m.poly_area[src];
    out.poly_flags[p0 + p] = m.poly_flags[src];
    out.poly_bounds[p0 + p] = piece.bounds[p];
    if (b.patches) {
      HeightPatch patch = m.height_patches[src];
      patch.first += sample_base;
      out.height_patches[p0 + p] = patch;
    }
  }
  std::copy(m.height_samples.begin(), m.height_samples.end(),
            out.height_samples.begin() + static_cast<std::ptrdiff_t>(sample_base));
}

// Moves v[from, v.size()) to start at `to`, the vector ending at to + (v.size() - from). Growth
// past the capacity reserves 1/32 more, so that later rebuilds grow in place.
template <class T>
void move_tail(std::vector<T>& v, std::size_t from, std::size_t to) {
  const std::size_t count = v.size() - from;
  const std::size_t size = to + count;
  if (size > v.size()) {
    if (size > v.capacity()) v.reserve(size + size / 32);
    v.resize(size);
    std::copy_backward(v.begin() + static_cast<std::ptrdiff_t>(from),
                       v.begin() + static_cast<std::ptrdiff_t>(from + count),
                       v.begin() + static_cast<std::ptrdiff_t>(size));
  } else if (size < v.size()) {
    std::copy(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(),
              v.begin() + static_cast<std::ptrdiff_t>(to));
    v.resize(size);
  }
}

}  // namespace

Result<NavMesh> splice_pieces(std::span<const TileMesh> tiles, std::span<const StitchPiece> pieces,
                              const TileLayout& layout, const BuildConfig& config,
                              StitchStats* stats) {
  const std::size_t n = layout.tile_count();
  if (tiles.size() != n || pieces.size() != n)
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: " + std::to_string(tiles.size()) + " tile meshes and " +
                          std::to_string(pieces.size()) + " pieces for " + std::to_string(n) +
                          " tiles");
  StitchStats local_stats;
  StitchStats& st = stats != nullptr ? *stats : local_stats;
  LEAPNAV_TRY_ASSIGN(SpliceBases b, splice_bases(tiles, pieces, st));
  NavMesh out;
  out.config = config;
  out.grid = layout.grid;
  // note: the arrays are sized once and written in place (each piece's part is known)
  out.vertices.resize(b.vertex[n]);
  out.poly_first.resize(std::size_t{b.poly[n]} + 1);
  out.poly_vertices.resize(b.corner[n]);
  out.poly_neighbors.resize(b.corner[n]);
  out.poly_region.resize(b.poly[n]);
  out.poly_area.resize(b.poly[n]);
  out.poly_flags.resize(b.poly[n]);
  out.poly_bounds.resize(b.poly[n]);
  if (b.patches) out.height_patches.resize(b.poly[n]);
  out.height_samples.resize(b.sample[n]);
  out.poly_first[0] = 0;
  for (std::size_t t = 0; t < n; ++t) write_tile(out, tiles[t], pieces[t], b, t);
  out.tile_poly_first = std::move(b.poly);
  return out;
}

Status splice_pieces_in_place(NavMesh& nav, std::span<const TileMesh> tiles,
                              std::span<const StitchPiece> pieces, const TileLayout& layout,
                              const BuildConfig& config, std::span<const PieceSizes> before,
                              std::span<const std::size_t> changed, StitchStats* stats) {
  const std::size_t n = layout.tile_count();
  if (tiles.size() != n || pieces.size() != n || before.size() != n)
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: " + std::to_string(tiles.size()) + " tile meshes, " +
                          std::to_string(pieces.size()) + " pieces and " +
                          std::to_string(before.size()) + " earlier sizes for " +
                          std::to_string(n) + " tiles");
  for (const std::size_t t : changed) {
    if (t >= n)
      return make_error(ErrorCode::InvalidArgument,
                        "stitch: changed tile " + std::to_string(t) + " is outside the layout");
  }
  StitchStats local_stats;
  StitchStats& st = stats != nullptr ? *stats : local_stats;
  LEAPNAV_TRY_ASSIGN(const SpliceBases b, splice_bases(tiles, pieces, st));
  // the earlier bases, and the tiles whose sizes changed
  SpliceBases old;
  old.vertex.assign(n + 1, 0);
  old.poly.assign(n + 1, 0);
  old.corner.assign(n + 1, 0);
  old.sample.assign(n + 1, 0);
  std::size_t first = n;
  std::size_t last = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const PieceSizes& s = before[t];
    old.vertex[t + 1] = old.vertex[t] + s.vertices;
    old.poly[t + 1] = old.poly[t] + s.polygons;
    old.corner[t + 1] = old.corner[t] + s.corners;
    old.sample[t + 1] = old.sample[t] + s.samples;
    if (b.vertex[t + 1] - b.vertex[t] != s.vertices || b.poly[t + 1] - b.poly[t] != s.polygons ||
        b.corner[t + 1] - b.corner[t] != s.corners || b.sample[t + 1] - b.sample[t] != s.samples) {
      first = std::min(first, t);
      last = t;
    }
  }
  const std::size_t polys = old.poly[n];
  if (nav.vertices.size() != old.vertex[n] || nav.poly_first.size() != polys + 1 ||
      nav.poly_vertices.size() != old.corner[n] || nav.poly_neighbors.size() != old.corner[n] ||
      nav.poly_region.size() != polys || nav.poly_area.size() != polys ||
      nav.poly_flags.size() != polys || nav.poly_bounds.size() != polys ||
      nav.height_patches.size() != (b.patches ? polys : 0) ||
      nav.height_samples.size() != old.sample[n] || !nav.span_poly.empty() ||
      nav.tile_poly_first != old.poly || !(nav.grid == layout.grid))
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: the navmesh is not the one the earlier pieces made");
  nav.config = config;
  // tiles [lo, hi) are written from their pieces: those whose sizes changed and one row on each
  // side (their ids point into the 3 x 3 block, so they see the changed bases); the tiles from
  // hi on keep their contents and move, their ids shifted by the size change before them
  std::size_t lo = n;
  std::size_t hi = n;
  if (first < n) {
    const std::size_t reach = static_cast<std::size_t>(layout.tiles_x) + 1;
    lo = first >= reach ? first - reach : 0;
    hi = std::min(n, last + reach + 1);
    move_tail(nav.vertices, old.vertex[hi], b.vertex[hi]);
    move_tail(nav.poly_first, std::size_t{old.poly[hi]} + 1, std::size_t{b.poly[hi]} + 1);
    move_tail(nav.poly_vertices, old.corner[hi], b.corner[hi]);
    move_tail(nav.poly_neighbors, old.corner[hi], b.corner[hi]);
    move_tail(nav.poly_region, old.poly[hi], b.poly[hi]);
    move_tail(nav.poly_area, old.poly[hi], b.poly[hi]);
    move_tail(nav.poly_flags, old.poly[hi], b.poly[hi]);
    move_tail(nav.poly_bounds, old.poly[hi], b.poly[hi]);
    if (b.patches) move_tail(nav.height_patches, old.poly[hi], b.poly[hi]);
    move_tail(nav.height_samples, old.sample[hi], b.sample[hi]);
    // note: unsigned wrap-around adds a negative shift exactly
    const std::uint32_t dv = b.vertex[hi] - old.vertex[hi];
    const std::uint32_t dp = b.poly[hi] - old.poly[hi];
    const std::uint32_t dc = b.corner[hi] - old.corner[hi];
    const std::uint32_t ds = b.sample[hi] - old.sample[hi];
    if (dc != 0) {
      for (std::size_t p = std::size_t{b.poly[hi]} + 1; p < nav.poly_first.size(); ++p)
        nav.poly_first[p] += dc;
    }
    if (dv != 0) {
      for (std::size_t k = b.corner[hi]; k < nav.poly_vertices.size(); ++k)
        nav.poly_vertices[k] += dv;
    }
    if (dp != 0) {
      for (std::size_t k = b.corner[hi]; k < nav.poly_neighbors.size(); ++k) {
        std::uint32_t& q = nav.poly_neighbors[k];
        if (q != kNoPoly) q += dp;
      }
    }
    if (b.patches && ds != 0) {
      for (std::size_t p = b.poly[hi]; p < nav.height_patches.size(); ++p)
        nav.height_patches[p].first += ds;
    }
  }
  for (std::size_t t = lo; t < hi; ++t) write_tile(nav, tiles[t], pieces[t], b, t);
  for (const std::size_t t : changed) {
    if (t < lo || t >= hi) write_tile(nav, tiles[t], pieces[t], b, t);
  }
  nav.tile_poly_first = b.poly;
  return {};
}

Result<NavMesh> stitch_tiles(std::span<const TileMesh> tiles, const TileLayout& layout,
                             const BuildConfig& config, StitchStats* stats, int threads) {
  if (tiles.size() != layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "stitch: " + std::to_string(tiles.size()) + " tile meshes for " +
                          std::to_string(layout.tile_count()) + " tiles");
  std::vector<StitchPiece> pieces(tiles.size());
  std::vector<Status> made(tiles.size());
  parallel_for(threads, 0, tiles.size(), 16, [&](std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t) {
      Result<StitchPiece> piece = stitch_piece(tiles, layout, config, t);
      if (piece.ok()) {
        pieces[t] = std::move(piece).value();
      } else {
        made[t] = std::move(piece).error();
      }
    }
  });
  for (Status& status : made) LEAPNAV_TRY(std::move(status));
  parallel_for(threads, 0, tiles.size(), 16, [&](std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t) made[t] = link_piece(pieces, layout, t);
  });
  for (Status& status : made) LEAPNAV_TRY(std::move(status));
  LEAPNAV_TRY_ASSIGN(NavMesh result, splice_pieces(tiles, pieces, layout, config, stats));
  if (Status status = validate(result); !status.ok())
    return make_error(ErrorCode::Internal, "stitch: " + std::move(status).error().message);
  return result;
}

}  // namespace leapnav::mesh
