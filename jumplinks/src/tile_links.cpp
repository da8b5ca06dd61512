// Jump links tile by tile (see tile_links.hpp): the padded neighbourhood of a tile voxelized on
// its own, a sub-mesh of the stitched polygons that overlap it (local ids ascending in global
// order, so sorted link sets stay sorted when mapped back), a span -> polygon map by the
// column's tile, then the untiled stages (search with samples in the tile's columns, refinement,
// compaction) and the ids mapped back. Invariant: every link of tile t starts in a polygon of t.
#include "leapnav/jumplinks/tile_links.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "leapnav/core/parallel.hpp"
#include "leapnav/jumplinks/tile_voxels.hpp"
#include "leapnav/mesh/heights.hpp"
#include "leapnav/voxel/voxelize.hpp"

namespace leapnav::jump {

namespace {

// The polygons `polys` (ascending ids of `nav`) as a mesh of their own on the same grid: local id
// k is polys[k]; neighbours outside the list become boundary edges; no span map.
mesh::NavMesh polygon_subset(const mesh::NavMesh& nav, std::span<const std::uint32_t> polys) {
  mesh::NavMesh out;
  out.config = nav.config;
  out.grid = nav.grid;
  std::vector<std::uint32_t> used;
  for (const std::uint32_t p : polys) {
    for (const std::uint32_t v : nav.polygon(mesh::PolyId{p})) used.push_back(v);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  out.vertices.reserve(used.size());
  for (const std::uint32_t v : used) out.vertices.push_back(nav.vertices[v]);
  const bool patches = !nav.height_patches.empty();
  out.poly_first.reserve(polys.size() + 1);
  out.poly_first.push_back(0);
  for (const std::uint32_t p : polys) {
    const auto verts = nav.polygon(mesh::PolyId{p});
    const auto neighbors = nav.neighbors(mesh::PolyId{p});
    for (std::size_t k = 0; k < verts.size(); ++k) {
      const auto v = std::lower_bound(used.begin(), used.end(), verts[k]);
      out.poly_vertices.push_back(static_cast<std::uint32_t>(v - used.begin()));
      std::uint32_t n = mesh::kNoPoly;
      if (neighbors[k] != mesh::kNoPoly) {
        const auto it = std::lower_bound(polys.begin(), polys.end(), neighbors[k]);
        if (it != polys.end() && *it == neighbors[k])
          n = static_cast<std::uint32_t>(it - polys.begin());
      }
      out.poly_neighbors.push_back(n);
    }
    out.poly_first.push_back(static_cast<std::uint32_t>(out.poly_vertices.size()));
    out.poly_region.push_back(nav.poly_region[p]);
    out.poly_area.push_back(nav.poly_area[p]);
    out.poly_flags.push_back(nav.poly_flags.empty() ? std::uint16_t{0} : nav.poly_flags[p]);
    out.poly_bounds.push_back(nav.poly_bounds[p]);
    if (patches) {
      mesh::HeightPatch patch = nav.height_patches[p];
      const std::size_t n = std::size_t{patch.width} * patch.depth;
      const auto first = static_cast<std::uint32_t>(out.height_samples.size());
      out.height_samples.insert(
          out.height_samples.end(), nav.height_samples.begin() + patch.first,
          nav.height_samples.begin() + patch.first + static_cast<std::ptrdiff_t>(n));
      patch.first = first;
      out.height_patches.push_back(patch);
    }
  }
  if (nav.poly_flags.empty()) out.poly_flags.clear();
  return out;
}

// A tile's voxel piece and the polygons (ids of the stitched mesh) its open spans map to.
struct LinkPiece {
  TileVoxelPiece voxels;
  std::vector<std::uint32_t> span_poly;
};

// Open spans in CSR columns over a rectangle of world columns, row-major from its (x0, z0) corner
// (a window's compact heightfield, or a piece's own columns).
struct SpanColumns {
  mesh::TileRect rect;
  GridSpec grid;  ///< the rectangle's grid (layout.rect_grid(rect))
  std::span<const std::uint32_t> column_first;
  std::span<const voxel::CompactSpan> spans;
  std::span<const std::uint8_t> areas;
};

// Polygon `p` of `nav` (a polygon of tile `tile`) claims, in the columns of its own tile whose
// (min x, min z) corner its closed outline contains (exact integer test on grid corners), the
// walkable span whose floor is nearest to its height there, within `tolerance`; a nearer polygon
// takes the span over (so with polygons claiming in ascending id order, ties keep the lower id).
void claim_spans(const mesh::NavMesh& nav, std::uint32_t p, std::uint32_t tile, std::uint32_t value,
                 std::span<const std::array<std::int32_t, 2>> corners,
                 const mesh::TileLayout& layout, const SpanColumns& open, float tolerance,
                 std::vector<float>& best, std::vector<std::uint32_t>& span_poly) {
  const GridSpec& world = layout.grid;
  const mesh::TileRect& rect = open.rect;
  const auto ts = static_cast<std::int64_t>(layout.tile_size);
  const auto tiles_x = static_cast<std::uint32_t>(layout.tiles_x);
  // columns of the polygon's own tile, inside the rectangle
  const std::int64_t tx0 = std::int64_t{tile % tiles_x} * ts;
  const std::int64_t tz0 = std::int64_t{tile / tiles_x} * ts;
  const auto poly = nav.polygon(mesh::PolyId{p});
  std::int64_t x0 = std::max<std::int64_t>(tx0, rect.x0);
  std::int64_t z0 = std::max<std::int64_t>(tz0, rect.z0);
  std::int64_t x1 = std::min<std::int64_t>({tx0 + ts, rect.x1, world.width}) - 1;
  std::int64_t z1 = std::min<std::int64_t>({tz0 + ts, rect.z1, world.depth}) - 1;
  std::int64_t cx0 = std::numeric_limits<std::int64_t>::max();
  std::int64_t cz0 = cx0;
  std::int64_t cx1 = std::numeric_limits<std::int64_t>::min();
  std::int64_t cz1 = cx1;
  for (const std::uint32_t v : poly) {
    cx0 = std::min<std::int64_t>(cx0, corners[v][0]);
    cz0 = std::min<std::int64_t>(cz0, corners[v][1]);
    cx1 = std::max<std::int64_t>(cx1, corners[v][0]);
    cz1 = std::max<std::int64_t>(cz1, corners[v][1]);
  }
  x0 = std::max(x0, cx0);
  z0 = std::max(z0, cz0);
  x1 = std::min(x1, cx1);
  z1 = std::min(z1, cz1);
  const GridSpec& grid = open.grid;
  for (std::int64_t z = z0; z <= z1; ++z) {
    // the closed polygon's corners on row z form one interval [lo, hi] (convex polygon)
    const auto [lo, hi] = mesh::polygon_row_columns(corners, poly, z, x0, x1);
    for (std::int64_t x = lo; x <= hi; ++x) {
      const std::size_t column =
          grid.column_index(static_cast<int>(x - rect.x0), static_cast<int>(z - rect.z0));
      const float floor_y = mesh::height_at(
          nav, mesh::PolyId{p}, world.corner_to_world(static_cast<double>(x) + 0.5, 0.0, 0.0).x,
          world.corner_to_world(0.0, 0.0, static_cast<double>(z) + 0.5).z);
      for (std::uint32_t s = open.column_first[column]; s < open.column_first[column + 1]; ++s) {
        if (!open.areas.empty() && open.areas[s] == voxel::kNullArea) continue;
        const float diff = std::abs(grid.level_to_world(open.spans[s].y) - floor_y);
        if (!(diff <= tolerance) || !(diff < best[s])) continue;
        best[s] = diff;
        span_poly[s] = value;
      }
    }
  }
}

// The height tolerance of the span map: the agent's climb and one cell.
float span_map_tolerance(const mesh::NavMesh& nav, const GridSpec& grid) {
  return nav.config.agent.max_climb + grid.cell_height;
}

// The span -> polygon map of `sub` (polygons `polys` of the stitched mesh) over `open`, the
// heightfield of columns `rect` of the world grid (claim_spans for every polygon).
void map_spans(mesh::NavMesh& sub, std::span<const std::uint32_t> polys, const PolygonTiles& tiles,
               const mesh::TileLayout& layout, const mesh::TileRect& rect,
               const voxel::CompactHeightfield& open) {
  sub.span_column_first = open.column_first;
  sub.span_y.resize(open.spans.size());
  for (std::size_t s = 0; s < open.spans.size(); ++s) sub.span_y[s] = open.spans[s].y;
  sub.span_poly.assign(open.spans.size(), mesh::kNoPoly);
  std::vector<float> best(open.spans.size(), std::numeric_limits<float>::infinity());
  const float tolerance = span_map_tolerance(sub, open.grid);
  const auto corners = mesh::vertex_grid_corners(sub);
  const SpanColumns columns{rect, open.grid, open.column_first, open.spans, open.areas};
  for (std::uint32_t p = 0; p < sub.polygon_count(); ++p)
    claim_spans(sub, p, tiles.poly_tile[polys[p]], p, corners, layout, columns, tolerance, best,
                sub.span_poly);
}

// The span map of a piece's own columns by the polygons of its tile (ids of the stitched mesh):
// a column is claimed only by the polygons of its tile, in ascending id order as in map_spans,
// so each span gets the polygon map_spans gives it in any neighbourhood holding the column.
std::vector<std::uint32_t> map_piece_spans(const TileVoxelPiece& piece, std::size_t tile,
                                           const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                                           const mesh::TileLayout& layout,
                                           std::span<const std::array<std::int32_t, 2>> corners) {
  std::vector<std::uint32_t> span_poly(piece.open.size(), mesh::kNoPoly);
  std::vector<float> best(piece.open.size(), std::numeric_limits<float>::infinity());
  const GridSpec grid = layout.rect_grid(piece.rect);
  const float tolerance = span_map_tolerance(navmesh, grid);
  const SpanColumns columns{piece.rect, grid, piece.open_first, piece.open, piece.areas};
  for (std::uint32_t k = tiles.tile_first[tile]; k < tiles.tile_first[tile + 1]; ++k)
    claim_spans(navmesh, tiles.tile_polys[k], static_cast<std::uint32_t>(tile), tiles.tile_polys[k],
                corners, layout, columns, tolerance, best, span_poly);
  return span_poly;
}

// The span map of `sub` over an assembled neighbourhood `open` (columns `rect`): each column's
// spans take their piece's polygons, mapped to sub's local ids (`polys`, ascending).
void map_spans_from_pieces(mesh::NavMesh& sub, std::span<const std::uint32_t> polys,
                           std::size_t polygon_count, const mesh::TileLayout& layout,
                           const mesh::TileRect& rect, const voxel::CompactHeightfield& open,
                           std::span<const LinkPiece* const> pieces) {
  sub.span_column_first = open.column_first;
  sub.span_y.resize(open.spans.size());
  for (std::size_t s = 0; s < open.spans.size(); ++s) sub.span_y[s] = open.spans[s].y;
  sub.span_poly.assign(open.spans.size(), mesh::kNoPoly);
  // global -> local polygon ids (every polygon of a tile the rectangle overlaps is in polys)
  thread_local std::vector<std::uint32_t> local;
  if (local.size() < polygon_count) local.resize(polygon_count, mesh::kNoPoly);
  for (std::size_t k = 0; k < polys.size(); ++k) local[polys[k]] = static_cast<std::uint32_t>(k);
  const int ts = layout.tile_size;
  const auto tiles_x = static_cast<std::size_t>(layout.tiles_x);
  std::size_t s = 0;
  for (int z = rect.z0; z < rect.z1; ++z) {
    for (int x = rect.x0; x < rect.x1;) {
      const std::size_t tile =
          static_cast<std::size_t>(x / ts) + static_cast<std::size_t>(z / ts) * tiles_x;
      const TileVoxelPiece& piece = pieces[tile]->voxels;
      const std::vector<std::uint32_t>& global = pieces[tile]->span_poly;
      const int x_end = std::min(rect.x1, piece.rect.x1);
      const auto row = static_cast<std::size_t>(z - piece.rect.z0) *
                       static_cast<std::size_t>(piece.rect.width());
      const std::uint32_t a = piece.open_first[row + static_cast<std::size_t>(x - piece.rect.x0)];
      const std::uint32_t b =
          piece.open_first[row + static_cast<std::size_t>(x_end - piece.rect.x0)];
      for (std::uint32_t k = a; k < b; ++k, ++s) {
        if (global[k] != mesh::kNoPoly) sub.span_poly[s] = local[global[k]];
      }
      x = x_end;
    }
  }
  for (const std::uint32_t p : polys) local[p] = mesh::kNoPoly;
}

void add_refine(LinkRefineStats& into, const LinkRefineStats& from) {
  into.links_in += from.links_in;
  into.surface_misses += from.surface_misses;
  into.links_failing += from.links_failing;
  into.links_shortened += from.links_shortened;
  into.links_dropped += from.links_dropped;
  into.links_out += from.links_out;
}

void add_compact(LinkCompactStats& into, const LinkCompactStats& from) {
  into.links_in += from.links_in;
  into.links_out += from.links_out;
  into.groups += from.groups;
  into.lattice_failing += from.lattice_failing;
  into.groups_lost += from.groups_lost;
  into.links_checked += from.links_checked;
  into.runs += from.runs;
  into.run_links += from.run_links;
  into.run_refused += from.run_refused;
}

void add_link_stats(JumpLinkStats& into, const JumpLinkStats& from) {
  into.sample_points += from.sample_points;
  into.cells_visited += from.cells_visited;
  into.land_voxels += from.land_voxels;
  into.chains += from.chains;
  into.surface_misses += from.surface_misses;
  into.links_failing += from.links_failing;
  into.links_shortened += from.links_shortened;
  into.links_dropped += from.links_dropped;
}

}  // namespace

Status validate(const TiledLinkOptions& options) {
  LEAPNAV_TRY(validate(options.jumps));
  if (!(options.refine.min_piece >= 0.0F))
    return make_error(ErrorCode::InvalidArgument, "tiled jump links: refine.min_piece " +
                                                      std::to_string(options.refine.min_piece) +
                                                      " is not >= 0");
  LEAPNAV_TRY(validate(options.filter));
  if (options.compact) LEAPNAV_TRY(validate(options.compact_options));
  return {};
}

int jump_reach_cells(const JumpLinkOptions& options, const AgentConfig& agent, float cell_size) {
  double range = 0.0;
  for (const JumpConfig& config : options.jumps) range = std::max(range, search_range(config));
  return static_cast<int>(std::ceil((range + double{agent.radius}) / double{cell_size}));
}

double link_land_radius(const JumpLinkOptions& options, float cell_size) {
  double range = 0.0;
  for (const JumpConfig& config : options.jumps) range = std::max(range, search_range(config));
  return range + 2.0 * double{cell_size};
}

double link_read_radius(const TiledLinkOptions& options, const mesh::TileLayout& layout,
                        int reach_cells) {
  const double cs = layout.grid.cell_size;
  const double walk = link_land_radius(options.jumps, layout.grid.cell_size) +
                      (options.filter.enabled ? double{options.filter.slack} : 0.0);
  const double rect = static_cast<double>(reach_cells + layout.border + 1) * cs;
  return std::max(walk, rect) + cs;
}

mesh::TileRect link_search_rect(const mesh::TileLayout& layout, std::size_t tile, int reach_cells) {
  mesh::TileLayout padded = layout;
  padded.border = layout.border + reach_cells;
  return padded.bordered(tile);
}

PolygonTiles polygon_tiles(const mesh::NavMesh& navmesh, const mesh::TileLayout& layout) {
  PolygonTiles out;
  const std::size_t polys = navmesh.polygon_count();
  const std::size_t tile_count = layout.tile_count();
  const GridSpec& grid = layout.grid;
  out.poly_tile.resize(polys);
  out.tile_first.assign(tile_count + 1, 0);
  for (std::uint32_t p = 0; p < polys; ++p) {
    double x = 0.0;
    double z = 0.0;
    const auto verts = navmesh.polygon(mesh::PolyId{p});
    for (const std::uint32_t v : verts) {
      x += navmesh.vertices[v].x;
      z += navmesh.vertices[v].z;
    }
    x /= static_cast<double>(verts.size());
    z /= static_cast<double>(verts.size());
    const int column_x = std::clamp(
        static_cast<int>(std::floor((x - double{grid.origin.x}) / double{grid.cell_size})), 0,
        grid.width - 1);
    const int column_z = std::clamp(
        static_cast<int>(std::floor((z - double{grid.origin.z}) / double{grid.cell_size})), 0,
        grid.depth - 1);
    const auto tile =
        static_cast<std::uint32_t>(static_cast<std::size_t>(column_x / layout.tile_size) +
                                   static_cast<std::size_t>(column_z / layout.tile_size) *
                                       static_cast<std::size_t>(layout.tiles_x));
    out.poly_tile[p] = tile;
    ++out.tile_first[std::size_t{tile} + 1];
  }
  for (std::size_t t = 0; t < tile_count; ++t) out.tile_first[t + 1] += out.tile_first[t];
  out.tile_polys.resize(polys);
  std::vector<std::uint32_t> next(out.tile_first.begin(), out.tile_first.end() - 1);
  for (std::uint32_t p = 0; p < polys; ++p) out.tile_polys[next[out.poly_tile[p]]++] = p;
  return out;
}

namespace {

// build_tile_jump_links, its neighbourhood's voxels either voxelized as one window (no pieces) or
// assembled from the pieces of the tiles it overlaps (tile_voxels.hpp; indexed by tile)
Result<TileLinks> tile_links_impl(const TriangleMesh& mesh,
                                  std::span<const std::uint32_t> triangles,
                                  const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                                  const mesh::TileLayout& layout, std::size_t tile,
                                  const TiledLinkOptions& options,
                                  std::span<const LinkPiece* const> pieces, BuildContext& ctx) {
  LEAPNAV_TRY(validate(options));
  if (tile >= layout.tile_count() || layout.tile_size <= 0)
    return make_error(ErrorCode::InvalidArgument,
                      "tiled jump links: tile " + std::to_string(tile) + " out of range (" +
                          std::to_string(layout.tile_count()) + " tiles)");
  if (tiles.poly_tile.size() != navmesh.polygon_count() ||
      tiles.tile_first.size() != layout.tile_count() + 1)
    return make_error(ErrorCode::InvalidArgument,
                      "tiled jump links: the polygon tiles do not match the navmesh and layout");
  const AgentConfig& agent = navmesh.config.agent;
  const int reach = jump_reach_cells(options.jumps, agent, layout.grid.cell_size);
  const mesh::TileRect rect = link_search_rect(layout, tile, reach);
  const mesh::TileRect inner = layout.interior(tile);
  TileLinks out;
  out.set.configs = options.jumps.jumps;
  if (options.compact) out.set.quantum = lattice_quantum(options.compact_options.quantum_shift);
  out.search_columns =
      static_cast<std::uint64_t>(rect.width()) * static_cast<std::uint64_t>(rect.depth());
  if (triangles.empty() || tiles.tile_first[tile] == tiles.tile_first[tile + 1]) return out;

  // the stitched polygons of the tiles the neighbourhood overlaps, ascending
  std::vector<std::uint32_t> polys;
  {
    const int ts = layout.tile_size;
    for (int tz = rect.z0 / ts; tz <= (rect.z1 - 1) / ts; ++tz) {
      for (int tx = rect.x0 / ts; tx <= (rect.x1 - 1) / ts; ++tx) {
        const std::size_t t =
            static_cast<std::size_t>(tx) +
            static_cast<std::size_t>(tz) * static_cast<std::size_t>(layout.tiles_x);
        polys.insert(polys.end(), tiles.tile_polys.begin() + tiles.tile_first[t],
                     tiles.tile_polys.begin() + tiles.tile_first[t + 1]);
      }
    }
    std::sort(polys.begin(), polys.end());
  }
  out.search_polygons = polys.size();
  const TriangleMesh part = mesh::triangle_subset(
      mesh, triangles, mesh.name + " " + mesh::tile_name(layout, tile) + " links");
  mesh::NavMesh sub = polygon_subset(navmesh, polys);
  JumpLinkSet set;
  {
    // note: an assembled neighbourhood goes into per-thread storage (its arrays' pages are
    // reused from tile to tile)
    voxel::VoxelOutput own;
    thread_local voxel::VoxelOutput assembled;
    voxel::VoxelOutput& voxels = pieces.empty() ? own : assembled;
    if (pieces.empty()) {
      LEAPNAV_TRY_ASSIGN(
          own,
          voxel::voxelize_window(
              part, voxel::GridWindow{layout.grid, rect.x0, rect.z0, rect.width(), rect.depth()},
              navmesh.config, ctx, voxel::DistanceField::skip));
    } else {
      auto timer = ctx.scoped_timer("jump_assemble");
      std::vector<const TileVoxelPiece*> voxel_pieces(pieces.size(), nullptr);
      for (std::size_t u = 0; u < pieces.size(); ++u)
        voxel_pieces[u] = pieces[u] == nullptr ? nullptr : &pieces[u]->voxels;
      LEAPNAV_TRY(assemble_tile_voxels_into(layout, rect, voxel_pieces, navmesh.config, assembled));
      // note: the warning voxelize_window gives a window without walkable spans
      if (voxels.stats.walkable_spans == 0)
        ctx.warn(part.name + ": no walkable area after filtering and erosion");
    }
    {
      auto timer = ctx.scoped_timer("jump_span_map");
      if (pieces.empty()) {
        map_spans(sub, polys, tiles, layout, rect, voxels.compact);
      } else {
        map_spans_from_pieces(sub, polys, navmesh.polygon_count(), layout, rect, voxels.compact,
                              pieces);
      }
    }
    SampleWindow window;
    window.x0 = inner.x0 - rect.x0;
    window.z0 = inner.z0 - rect.z0;
    window.x1 = inner.x1 - rect.x0;
    window.z1 = inner.z1 - rect.z0;
    window.phase_x = rect.x0;
    window.phase_z = rect.z0;
    if (pieces.empty()) {
      LEAPNAV_TRY_ASSIGN(set, build_jump_links(voxels.solid, voxels.compact, sub, agent,
                                               options.jumps, window, ctx));
    } else {
      // the obstacle field from the pieces' columns (each made on its bordered tile)
      const int ts = layout.tile_size;
      const auto tiles_x = static_cast<std::size_t>(layout.tiles_x);
      const ObstacleSource source = [&](int x, int z) {
        return &pieces[static_cast<std::size_t>(x / ts) +
                       static_cast<std::size_t>(z / ts) * tiles_x]
                    ->voxels.obstacles;
      };
      LEAPNAV_TRY_ASSIGN(
          const ObstacleBits field,
          assemble_obstacle_bits(voxels.solid, rect.x0, rect.z0, agent, source, ctx));
      LEAPNAV_TRY_ASSIGN(set, build_jump_links(voxels.solid, voxels.compact, sub, options.jumps,
                                               window, field, ctx));
    }
  }
  {
    // the relink rule's premise (link_read_radius): every landing point within
    // link_land_radius of its start, so the filter's walks stay within the read radius
    const double land_radius = link_land_radius(options.jumps, layout.grid.cell_size);
    const auto xz = [](const Vec3& a, const Vec3& b) {
      return std::hypot(double{a.x} - double{b.x}, double{a.z} - double{b.z});
    };
    for (const JumpLink& link : set.links) {
      if (std::max(xz(link.start, link.land_a), xz(link.start, link.land_b)) > land_radius)
        return make_error(ErrorCode::Internal,
                          "tiled jump links: " + mesh::tile_name(layout, tile) +
                              ": a link lands farther than the search range from its start");
    }
  }
  sub.span_column_first = {};
  sub.span_y = {};
  sub.span_poly = {};
  LEAPNAV_TRY_ASSIGN(out.filter, filter_walkable_links(set, sub, options.filter, ctx));
  LEAPNAV_TRY_ASSIGN(out.refine, refine_links(set, part, sub, agent, options.refine, ctx));
  if (options.compact) {
    LEAPNAV_TRY_ASSIGN(CompactLinks compact,
                       compact_links(set, part, sub, agent, options.compact_options, ctx));
    out.compact = compact.stats;
    set = std::move(compact.set);
  }
  // back to the stitched mesh's ids (monotone, so the set stays sorted by its group key)
  for (JumpLink& link : set.links) {
    link.start_poly = polys[link.start_poly];
    link.land_poly = polys[link.land_poly];
    if (tiles.poly_tile[link.start_poly] != tile) {
      return make_error(ErrorCode::Internal, "tiled jump links: " + mesh::tile_name(layout, tile) +
                                                 ": a link starts in polygon " +
                                                 std::to_string(link.start_poly) +
                                                 " of another tile");
    }
    if (tiles.poly_tile[link.land_poly] != tile) ++out.cross_tile_links;
  }
  for (std::uint32_t& land : set.group_land_poly) land = polys[land];
  set.poly_first.clear();  // local; the tiled set is indexed once over the stitched mesh
  out.set.links = std::move(set.links);
  out.set.group_land_poly = std::move(set.group_land_poly);
  out.set.group_first = std::move(set.group_first);
  out.set.stats = set.stats;
  out.set.quantum = set.quantum;
  return out;
}

}  // namespace

Result<TileLinks> build_tile_jump_links(const TriangleMesh& mesh,
                                        std::span<const std::uint32_t> triangles,
                                        const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
                                        const mesh::TileLayout& layout, std::size_t tile,
                                        const TiledLinkOptions& options, BuildContext& ctx) {
  return tile_links_impl(mesh, triangles, navmesh, tiles, layout, tile, options, {}, ctx);
}

namespace {

// The voxel pieces of a tiled link build (tile_voxels.hpp), built on first use by whichever link
// tile asks first and freed after the last link tile that overlaps them: a piece is a function of
// the mesh and its tile only, so the order the threads ask in changes nothing.
class PieceStore {
 public:
  PieceStore(const TriangleMesh& mesh, const mesh::NavMesh& navmesh, const PolygonTiles& tiles,
             const mesh::TileLayout& layout, std::vector<std::vector<std::uint32_t>> triangles,
             std::vector<int> uses)
      : mesh_(mesh),
        navmesh_(navmesh),
        tiles_(tiles),
        layout_(layout),
        corners_(mesh::vertex_grid_corners(navmesh)),
        triangles_(std::move(triangles)),
        entries_(layout.tile_count()) {
    for (std::size_t t = 0; t < entries_.size(); ++t) entries_[t].uses = uses[t];
  }

  // The piece of tile t, built now when no link tile asked for it before.
  Result<std::shared_ptr<const LinkPiece>> get(std::size_t t, BuildContext& ctx) {
    Entry& entry = entries_[t];
    const std::lock_guard<std::mutex> lock(entry.mutex);
    if (!entry.built) {
      entry.built = true;
      Result<TileVoxelPiece> piece =
          build_tile_voxel_piece(mesh_, triangles_[t], layout_, t, navmesh_.config, ctx);
      triangles_[t] = {};
      if (!piece.ok()) {
        entry.error = std::move(piece).error();
      } else {
        auto timer = ctx.scoped_timer("jump_span_map");
        LinkPiece link_piece{std::move(piece).value(), {}};
        link_piece.span_poly =
            map_piece_spans(link_piece.voxels, t, navmesh_, tiles_, layout_, corners_);
        entry.piece = std::make_shared<const LinkPiece>(std::move(link_piece));
      }
    }
    if (entry.error) return *entry.error;
    if (entry.piece == nullptr)
      return make_error(ErrorCode::Internal, "tiled jump links: the voxel piece of " +
                                                 mesh::tile_name(layout_, t) +
                                                 " was freed before its last use");
    return entry.piece;
  }

  // One link tile is done with tile t's piece; the last one frees it.
  void release(std::size_t t) {
    Entry& entry = entries_[t];
    if (entry.uses.fetch_sub(1) == 1) {
      const std::lock_guard<std::mutex> lock(entry.mutex);
      entry.piece.reset();
    }
  }

 private:
  struct Entry {
    std::mutex mutex;
    bool built = false;
    std::shared_ptr<const LinkPiece> piece;
    std::optional<Error> error;
    std::atomic<int> uses{0};
  };
  const TriangleMesh& mesh_;
  const mesh::NavMesh& navmesh_;
  const PolygonTiles& tiles_;
  const mesh::TileLayout& layout_;
  std::vector<std::array<std::int32_t, 2>> corners_;
  std::vector<std::vector<std::uint32_t>> triangles_;
  std::vector<Entry> entries_;
};

// The tiles whose columns rect overlaps.
std::vector<std::size_t> tiles_of_rect(const mesh::TileLayout& layout, const mesh::TileRect& rect) {
  std::vector<std::size_t> out;
  const int ts = layout.tile_size;
  for (int tz = rect.z0 / ts; tz <= (rect.z1 - 1) / ts; ++tz) {
    for (int tx = rect.x0 / ts; tx <= (rect.x1 - 1) / ts; ++tx)
      out.push_back(static_cast<std::size_t>(tx) +
                    static_cast<std::size_t>(tz) * static_cast<std::size_t>(layout.tiles_x));
  }
  return out;
}

// build_tiled_jump_links with reuse: engaged entries of `tile_links` are taken as given, the
// others built; with `keep` every tile's links are left in `tile_links` (copied into the join),
// otherwise they are moved into the join.
Result<TiledLinks> build_tiled_impl(const TriangleMesh& mesh, const mesh::NavMesh& navmesh,
                                    const mesh::TileLayout& layout, const TiledLinkOptions& options,
                                    std::vector<std::optional<TileLinks>>& tile_links, bool keep,
                                    BuildContext& ctx) {
  LEAPNAV_TRY(validate(options));
  if (layout.tile_size <= 0 || layout.tile_count() == 0)
    return make_error(ErrorCode::InvalidArgument, "tiled jump links: the layout has no tiles");
  if (!(layout.grid == navmesh.grid))
    return make_error(ErrorCode::InvalidArgument,
                      "tiled jump links: the navmesh was not built on the layout's grid");
  warn_unreachable_configs(options.jumps, layout.grid, ctx);
  const std::size_t tile_count = layout.tile_count();
  if (tile_links.size() != tile_count)
    return make_error(ErrorCode::InvalidArgument,
                      "tiled jump links: " + std::to_string(tile_links.size()) +
                          " reused tile entries for " + std::to_string(tile_count) + " tiles");
  const PolygonTiles tiles = polygon_tiles(navmesh, layout);
  const int reach = jump_reach_cells(options.jumps, navmesh.config.agent, layout.grid.cell_size);

  using Slot = TaskSlot<TileLinks>;
  std::vector<Slot> slots(tile_count);
  std::uint64_t voxel_pieces = 0;
  {
    auto timer = ctx.scoped_timer("tile_links");
    mesh::TileLayout padded = layout;
    padded.border = layout.border + reach;
    std::vector<std::size_t> todo;
    for (std::size_t t = 0; t < tile_count; ++t) {
      if (tile_links[t]) {
        slots[t].result.emplace(std::move(*tile_links[t]));
        tile_links[t].reset();
      } else {
        todo.push_back(t);
      }
    }
    // note: with every entry given (a rebuild's join) there is nothing to gather triangles for
    std::vector<std::vector<std::uint32_t>> triangles;
    if (!todo.empty()) triangles = mesh::tile_triangles(mesh, padded);
    // note: the neighbourhoods' voxels from per-tile pieces when that voxelizes at most half
    // the columns (a full build: ~4x fewer; a relink of a block of k x k tiles needs (k + 2)^2
    // pieces, fewer columns only from k >= 6 on: smaller relinks keep their windows, whose cost
    // has no whole-world triangle pass for the pieces). The two agree wherever the link search
    // reads (tile_voxels.hpp), which needs the layout's border to be at least the pieces' (it is
    // by default: both are radius + 3).
    std::optional<PieceStore> pieces;
    std::vector<std::uint8_t> searched(tile_count, 0);  // the tiles that reach their voxels
    // note: a join alone (every entry given) builds no pieces: the store would gather every
    // tile's triangles for nothing
    if (!todo.empty() && layout.border >= tile_piece_border(navmesh.config)) {
      const mesh::TileLayout piece_layout = tile_piece_layout(layout, navmesh.config);
      std::vector<int> uses(tile_count, 0);
      std::uint64_t window_columns = 0;
      for (const std::size_t t : todo) {
        if (triangles[t].empty() || tiles.tile_first[t] == tiles.tile_first[t + 1]) continue;
        searched[t] = 1;
        const mesh::TileRect rect = link_search_rect(layout, t, reach);
        window_columns +=
            static_cast<std::uint64_t>(rect.width()) * static_cast<std::uint64_t>(rect.depth());
        for (const std::size_t u : tiles_of_rect(layout, rect)) ++uses[u];
      }
      std::uint64_t piece_columns = 0;
      for (std::size_t u = 0; u < tile_count; ++u) {
        if (uses[u] == 0) continue;
        const mesh::TileRect rect = piece_layout.bordered(u);
        piece_columns +=
            static_cast<std::uint64_t>(rect.width()) * static_cast<std::uint64_t>(rect.depth());
      }
      if (2 * piece_columns <= window_columns) {
        for (const int u : uses) voxel_pieces += u > 0 ? 1 : 0;
        pieces.emplace(mesh, navmesh, tiles, layout, mesh::tile_triangles(mesh, piece_layout),
                       std::move(uses));
      }
    }
    const auto run_tile = [&](std::size_t i) {
      const std::size_t t = todo[i];
      Slot& slot = slots[t];
      if (ctx.cancelled()) {
        slot.result.emplace(make_error(
            ErrorCode::Cancelled, "cancelled before the links of " + mesh::tile_name(layout, t)));
        return;
      }
      BuildContext tile_ctx;
      init_task_context(tile_ctx, ctx);
      if (pieces && searched[t] != 0) {
        const std::vector<std::size_t> around =
            tiles_of_rect(layout, link_search_rect(layout, t, reach));
        std::vector<std::shared_ptr<const LinkPiece>> held;
        std::vector<const LinkPiece*> by_tile(tile_count, nullptr);
        std::optional<Error> failed;
        std::size_t acquired = 0;  // around[0 .. acquired) were taken (and are released)
        for (const std::size_t u : around) {
          Result<std::shared_ptr<const LinkPiece>> piece = pieces->get(u, tile_ctx);
          if (!piece.ok()) {
            failed = std::move(piece).error();
            break;
          }
          ++acquired;
          by_tile[u] = piece.value().get();
          held.push_back(std::move(piece).value());
        }
        if (failed) {
          slot.result.emplace(std::move(*failed));
        } else {
          slot.result.emplace(tile_links_impl(mesh, triangles[t], navmesh, tiles, layout, t,
                                              options, by_tile, tile_ctx));
        }
        held.clear();
        // note: after a failure the pieces not taken keep their count and stay to the end
        for (std::size_t k = 0; k < acquired; ++k) pieces->release(around[k]);
      } else {
        slot.result.emplace(build_tile_jump_links(mesh, triangles[t], navmesh, tiles, layout, t,
                                                  options, tile_ctx));
      }
      triangles[t] = {};
      slot.keep_log(tile_ctx);
    };
    if (pieces) {
      // note: tiles handed out in order, one at a time, so the pieces in flight are those of
      // one front of about three tile rows (a split range runs one front per thread); each tile
      // writes its own slot, so the order tiles finish in changes nothing
      std::atomic<std::size_t> next{0};
      const std::size_t workers = std::min<std::size_t>(
          todo.size(),
          static_cast<std::size_t>(ctx.threads() > 0 ? ctx.threads() : hardware_threads()));
      parallel_for(ctx.threads(), 0, workers, 1, [&](std::size_t, std::size_t) {
        for (std::size_t i = next.fetch_add(1); i < todo.size(); i = next.fetch_add(1)) run_tile(i);
      });
    } else {
      parallel_for(ctx.threads(), 0, todo.size(), 1, [&](std::size_t i0, std::size_t i1) {
        for (std::size_t i = i0; i < i1; ++i) run_tile(i);
      });
    }
  }
  TiledLinks out;
  out.voxel_pieces = voxel_pieces;
  out.set.configs = options.jumps.jumps;
  if (options.compact) out.set.quantum = lattice_quantum(options.compact_options.quantum_shift);
  {
    auto join_timer = ctx.scoped_timer("tile_links_join");
    std::size_t total = 0;
    for (const Slot& slot : slots) {
      if (slot.result->ok()) total += slot.result->value().set.links.size();
    }
    out.set.links.reserve(total);
    for (std::size_t t = 0; t < tile_count; ++t) {
      Slot& slot = slots[t];
      for (std::string& warning : slot.warnings)
        ctx.warn(mesh::tile_name(layout, t) + " links: " + warning);
      for (const auto& [stage, ms] : slot.timings) ctx.add_time("tile_links:" + stage, ms);
      if (!slot.result->ok()) return std::move(*slot.result).error();
      TileLinks& links = slot.result->value();
      add_link_stats(out.set.stats, links.set.stats);
      out.filter.links_in += links.filter.links_in;
      out.filter.links_dropped += links.filter.links_dropped;
      out.filter.walks += links.filter.walks;
      add_refine(out.refine, links.refine);
      add_compact(out.compact, links.compact);
      out.cross_tile_links += links.cross_tile_links;
      out.max_search_columns = std::max(out.max_search_columns, links.search_columns);
      out.set.links.insert(out.set.links.end(), links.set.links.begin(), links.set.links.end());
      if (keep) tile_links[t].emplace(std::move(links));
      slot = {};
    }
  }
  // note: polygons are numbered in tile order and each tile's links are sorted by (start, land,
  // config) with starts in the tile, so the join in tile order is sorted as it stands: indexing
  // it needs no sorted copy (the join is the largest array of the build)
  {
    auto timer = ctx.scoped_timer("tile_links_index");
    bool sorted = true;
    for (std::size_t k = 1; k < out.set.links.size() && sorted; ++k) {
      const JumpLink& a = out.set.links[k - 1];
      const JumpLink& b = out.set.links[k];
      sorted = std::tie(a.start_poly, a.land_poly, a.config) <=
               std::tie(b.start_poly, b.land_poly, b.config);
    }
    if (sorted) {
      index_sorted_links(out.set, navmesh.polygon_count());
    } else {
      index_links(out.set, navmesh.polygon_count());
    }
  }
  return out;
}

}  // namespace

Result<TiledLinks> build_tiled_jump_links(const TriangleMesh& mesh, const mesh::NavMesh& navmesh,
                                          const mesh::TileLayout& layout,
                                          const TiledLinkOptions& options, BuildContext& ctx) {
  std::vector<std::optional<TileLinks>> none(layout.tile_count());
  return build_tiled_impl(mesh, navmesh, layout, options, none, false, ctx);
}

Result<TiledLinks> build_tiled_jump_links_reusing(const TriangleMesh& mesh,
                                                  const mesh::NavMesh& navmesh,
                                                  const mesh::TileLayout& layout,
                                                  const TiledLinkOptions& options,
                                                  std::vector<std::optional<TileLinks>>& tile_links,
                                                  BuildContext& ctx) {
  return build_tiled_impl(mesh, navmesh, layout, options, tile_links, true, ctx);
}

}  // namespace leapnav::jump
