// Tile blocks: cutting a tiled navmesh into per-tile blocks with world ids, and assembling any
// subset again (tile_blocks.hpp). The world's arrays are in tile order, so a block is a copy of
// its tile's slices; assembling renumbers by the offsets of the present tiles, in one pass over
// the present blocks plus O(tiles) for the offsets.

#include "leapnav/streaming/tile_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "leapnav/planning/graph.hpp"
#include "leapnav/planning/ledge_planner.hpp"

namespace leapnav::stream {

namespace {

template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return std::uint64_t{v.size()} * sizeof(T);
}

Error invalid(std::string message) {
  return make_error(ErrorCode::InvalidArgument, std::move(message));
}

// The index i with first[i] <= id < first[i + 1] (first non-decreasing, size tiles + 1), or
// kNoTile when id >= first.back().
std::uint32_t find_range(const std::vector<std::uint32_t>& first, std::uint32_t id) {
  if (first.empty() || id >= first.back()) return kNoTile;
  const auto it = std::upper_bound(first.begin(), first.end(), id);
  return static_cast<std::uint32_t>(it - first.begin() - 1);
}

bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Whether every polygon of tile t lies within t's columns for tile size n.
bool polygons_fit(const mesh::NavMesh& mesh, std::int32_t n, std::int32_t tiles_x) {
  const GridSpec& g = mesh.grid;
  for (std::size_t t = 0; t + 1 < mesh.tile_poly_first.size(); ++t) {
    const auto tx = static_cast<std::int64_t>(t % static_cast<std::size_t>(tiles_x));
    const auto tz = static_cast<std::int64_t>(t / static_cast<std::size_t>(tiles_x));
    const std::int64_t x0 = tx * n;
    const std::int64_t z0 = tz * n;
    const std::int64_t x1 = std::min<std::int64_t>(x0 + n, g.width);
    const std::int64_t z1 = std::min<std::int64_t>(z0 + n, g.depth);
    for (std::uint32_t p = mesh.tile_poly_first[t]; p < mesh.tile_poly_first[t + 1]; ++p) {
      for (const std::uint32_t v : mesh.polygon(mesh::PolyId{p})) {
        const double cx = std::round((double{mesh.vertices[v].x} - g.origin.x) / g.cell_size);
        const double cz = std::round((double{mesh.vertices[v].z} - g.origin.z) / g.cell_size);
        if (cx < static_cast<double>(x0) || cx > static_cast<double>(x1) ||
            cz < static_cast<double>(z0) || cz > static_cast<double>(z1))
          return false;
      }
    }
  }
  return true;
}

std::int32_t tiles_along(std::int32_t cells, std::int32_t n) {
  return std::max<std::int32_t>(1, (cells + n - 1) / n);
}

// Per vertex, the tile whose run of vertices it lies in (non-decreasing): the longest
// non-decreasing subsequence of the vertices' first user tiles (patience sorting, ties kept in
// order), a vertex off it taking the tile of the last member before it (tile 0 before any).
std::vector<std::uint32_t> vertex_runs(const mesh::NavMesh& mesh, std::uint32_t tiles) {
  const std::size_t n = mesh.vertices.size();
  std::vector<std::uint32_t> first_user(n, kNoTile);
  for (std::uint32_t t = 0; t < tiles; ++t) {
    for (std::uint32_t p = mesh.tile_poly_first[t]; p < mesh.tile_poly_first[t + 1]; ++p) {
      for (const std::uint32_t v : mesh.polygon(mesh::PolyId{p}))
        first_user[v] = std::min(first_user[v], t);
    }
  }
  // tails[k]: the least last value of a subsequence of length k + 1; tail_at its vertex
  std::vector<std::uint32_t> tails;
  std::vector<std::size_t> tail_at;
  std::vector<std::size_t> parent(n, n);
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint32_t x = first_user[v];
    if (x == kNoTile) continue;
    const auto k =
        static_cast<std::size_t>(std::upper_bound(tails.begin(), tails.end(), x) - tails.begin());
    parent[v] = k == 0 ? n : tail_at[k - 1];
    if (k == tails.size()) {
      tails.push_back(x);
      tail_at.push_back(v);
    } else {
      tails[k] = x;
      tail_at[k] = v;
    }
  }
  std::vector<char> member(n, 0);
  for (std::size_t v = tail_at.empty() ? n : tail_at.back(); v != n; v = parent[v]) member[v] = 1;
  std::vector<std::uint32_t> owner(n, 0);
  std::uint32_t current = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (member[v] != 0) current = first_user[v];
    owner[v] = current;
  }
  return owner;
}

// The reach table of `graph` (WorldLayout::reach) and the component per polygon; nothing when
// the graph has more than kMaxReachComponents components.
void reach_table(const plan::NavGraph& graph, WorldLayout& layout,
                 std::vector<std::uint32_t>& component) {
  const std::uint32_t count = plan::strong_components(graph, component);
  if (count == 0 || count > kMaxReachComponents) {
    component.clear();
    return;
  }
  layout.reach_components = count;
  const std::size_t words = layout.reach_words();
  layout.reach.assign(std::size_t{count} * words, 0);
  std::vector<std::vector<std::uint32_t>> members(count);
  for (std::uint32_t p = 0; p < component.size(); ++p) members[component[p]].push_back(p);
  // note: components complete after those they reach, so rows in completion order are final
  for (std::uint32_t c = 0; c < count; ++c) {
    std::uint64_t* row = &layout.reach[std::size_t{c} * words];
    row[c / 64] |= std::uint64_t{1} << (c % 64);
    for (const std::uint32_t p : members[c]) {
      for (std::uint32_t a = graph.out_begin(p); a < graph.out_end(p); ++a) {
        const std::uint32_t d = component[graph.arc_target[a]];
        if (d == c) continue;
        const std::uint64_t* other = &layout.reach[std::size_t{d} * words];
        for (std::size_t w = 0; w < words; ++w) row[w] |= other[w];
      }
    }
  }
}

}  // namespace

std::uint32_t WorldLayout::tile_at(float x, float z) const {
  if (tile_size <= 0 || !(grid.cell_size > 0.0F)) return kNoTile;
  const double cx = std::floor((double{x} - grid.origin.x) / grid.cell_size);
  const double cz = std::floor((double{z} - grid.origin.z) / grid.cell_size);
  if (!(cx >= 0.0 && cz >= 0.0 && cx < grid.width && cz < grid.depth)) return kNoTile;
  const auto tx = static_cast<std::int64_t>(cx) / tile_size;
  const auto tz = static_cast<std::int64_t>(cz) / tile_size;
  if (tx >= tiles_x || tz >= tiles_z) return kNoTile;
  return static_cast<std::uint32_t>(tz * tiles_x + tx);
}

std::uint32_t WorldLayout::tile_of_poly(std::uint32_t id) const {
  return find_range(tile_poly_first, id);
}

std::uint32_t WorldLayout::tile_of_vertex(std::uint32_t id) const {
  return find_range(tile_vertex_first, id);
}

std::uint64_t WorldLayout::memory_bytes() const {
  return sizeof(WorldLayout) + bytes_of(tile_poly_first) + bytes_of(tile_vertex_first) +
         bytes_of(tile_sample_first) + bytes_of(link_configs) + bytes_of(reach) +
         config.name.size();
}

std::uint64_t TileBlock::memory_bytes() const {
  return sizeof(TileBlock) + bytes_of(vertices) + bytes_of(poly_first) + bytes_of(poly_vertices) +
         bytes_of(poly_neighbors) + bytes_of(poly_region) + bytes_of(poly_area) +
         bytes_of(poly_flags) + bytes_of(poly_bounds) + bytes_of(height_patches) +
         bytes_of(height_samples) + bytes_of(foreign_vertex_ids) + bytes_of(foreign_vertices) +
         bytes_of(links) + bytes_of(ledges) + bytes_of(island) + bytes_of(link_island) +
         bytes_of(reach_component);
}

Result<std::int32_t> infer_tile_size(const mesh::NavMesh& mesh) {
  if (mesh.tile_poly_first.size() < 2)
    return invalid("infer_tile_size: the navmesh has no tiles (built without --tile-size)");
  const std::size_t tiles = mesh.tile_poly_first.size() - 1;
  const std::int32_t largest = std::max(mesh.grid.width, mesh.grid.depth);
  for (std::int32_t n = 1; n <= largest; ++n) {
    const std::int32_t tx = tiles_along(mesh.grid.width, n);
    const std::int32_t tz = tiles_along(mesh.grid.depth, n);
    if (static_cast<std::size_t>(tx) * static_cast<std::size_t>(tz) != tiles) continue;
    if (polygons_fit(mesh, n, tx)) return n;
  }
  return invalid("infer_tile_size: no tile size gives " + std::to_string(tiles) + " tiles on a " +
                 std::to_string(mesh.grid.width) + " x " + std::to_string(mesh.grid.depth) +
                 " grid with every polygon in its tile");
}

Result<TileBlocks> split_tiles(const mesh::NavMesh& mesh, const jump::JumpLinkSet* links,
                               std::int32_t tile_size) {
  return split_tiles(mesh, links, nullptr, tile_size);
}

Result<TileBlocks> split_tiles(const mesh::NavMesh& mesh, const jump::JumpLinkSet* links,
                               const ledge::LedgeLinkSet* ledges, std::int32_t tile_size) {
  if (mesh.tile_poly_first.size() < 2)
    return invalid("split_tiles: the navmesh has no tiles (built without --tile-size)");
  if (!mesh.span_poly.empty() || !mesh.span_column_first.empty())
    return invalid("split_tiles: the navmesh carries a span map (build data, not runtime data)");
  LEAPNAV_TRY(mesh::validate(mesh));
  if (links != nullptr) LEAPNAV_TRY(jump::validate(*links, mesh));
  if (ledges != nullptr) {
    if (const Status valid = ledge::validate(*ledges, mesh); !valid)
      return invalid("split_tiles: invalid ledge links (" + valid.error().message + ")");
  }
  if (tile_size == 0) {
    LEAPNAV_TRY_ASSIGN(tile_size, infer_tile_size(mesh));
  }
  if (tile_size < 0) return invalid("split_tiles: tile size " + std::to_string(tile_size) + " < 0");
  const std::uint32_t tiles = static_cast<std::uint32_t>(mesh.tile_poly_first.size() - 1);
  TileBlocks out;
  WorldLayout& layout = out.layout;
  layout.config = mesh.config;
  layout.grid = mesh.grid;
  layout.tile_size = tile_size;
  layout.tiles_x = tiles_along(mesh.grid.width, tile_size);
  layout.tiles_z = tiles_along(mesh.grid.depth, tile_size);
  if (layout.tile_count() != tiles)
    return invalid("split_tiles: tile size " + std::to_string(tile_size) + " gives " +
                   std::to_string(layout.tile_count()) + " tiles, the navmesh has " +
                   std::to_string(tiles));
  layout.tile_poly_first = mesh.tile_poly_first;
  layout.height_patches = !mesh.height_patches.empty();

  // vertices: the mesh keeps each tile's kept vertices in tile order, but does not record where
  // a tile's run starts; a vertex is mostly used first by the tile that keeps it (a welded corner
  // is kept by the earliest tile), and a few are used only by other tiles (a corner inserted
  // into a neighbour's edge). The runs are taken from the longest non-decreasing subsequence of
  // the first user tiles in vertex order; a vertex off it (or unused) goes to the run it lies in,
  // and tiles using a vertex of another tile's run copy it (foreign vertices). Any monotone
  // split gives exact round trips; this one keeps the copies few.
  const std::vector<std::uint32_t> owner = vertex_runs(mesh, tiles);
  layout.tile_vertex_first.resize(tiles + 1);
  for (std::uint32_t t = 0; t <= tiles; ++t) {
    layout.tile_vertex_first[t] =
        static_cast<std::uint32_t>(std::lower_bound(owner.begin(), owner.end(), t) - owner.begin());
  }

  // height samples: tile t's slice starts at the least sample any tile >= t owns
  const auto sample_count = static_cast<std::uint32_t>(mesh.height_samples.size());
  layout.tile_sample_first.assign(tiles + 1, sample_count);
  if (layout.height_patches) {
    for (std::uint32_t t = tiles; t-- > 0;) {
      std::uint32_t lo = layout.tile_sample_first[t + 1];
      for (std::uint32_t p = mesh.tile_poly_first[t]; p < mesh.tile_poly_first[t + 1]; ++p) {
        const mesh::HeightPatch& h = mesh.height_patches[p];
        if (std::uint32_t{h.width} * h.depth != 0) lo = std::min(lo, h.first);
      }
      layout.tile_sample_first[t] = lo;
    }
    layout.tile_sample_first[0] = 0;
    for (std::uint32_t t = 0; t < tiles; ++t) {
      for (std::uint32_t p = mesh.tile_poly_first[t]; p < mesh.tile_poly_first[t + 1]; ++p) {
        const mesh::HeightPatch& h = mesh.height_patches[p];
        const std::uint64_t n = std::uint64_t{h.width} * h.depth;
        if (n != 0 && std::uint64_t{h.first} + n > layout.tile_sample_first[t + 1])
          return invalid("split_tiles: polygon " + std::to_string(p) + " of tile " +
                         std::to_string(t) +
                         " uses height samples of a later tile (samples not in tile order)");
      }
    }
  } else if (sample_count != 0) {
    return invalid("split_tiles: height samples without height patches");
  }

  if (links != nullptr) {
    layout.links = true;
    layout.link_configs = links->configs;
    layout.link_quantum = links->quantum;
    for (const jump::JumpLink& l : links->links)
      layout.link_config_bits |= std::uint64_t{1} << (l.config < 63 ? l.config : 63U);
  }

  if (ledges != nullptr) {
    layout.ledges = true;
    for (const ledge::LedgeLink& l : ledges->links)
      layout.ledge_kind_bits |= static_cast<std::uint8_t>(1U << static_cast<unsigned>(l.kind));
  }

  // whole-world islands, walking and with links; with ledge links the graph is the one
  // plan::create_planner plans over (jump links, then the ledge links merged in as link arcs)
  const std::vector<std::uint32_t> island = plan::connected_components(plan::build_graph(mesh));
  std::vector<std::uint32_t> link_island = island;
  std::vector<std::uint32_t> component;
  std::optional<plan::MergedLinks> merged;
  const jump::JumpLinkSet* graph_links = links;
  if (ledges != nullptr && !ledges->links.empty()) {
    merged = plan::merge_links(links, *ledges, mesh.polygon_count(),
                               std::max(mesh.grid.cell_size, 0.25F));
    graph_links = &merged->links;
  }
  if (graph_links != nullptr) {
    const plan::NavGraph graph = plan::build_graph(mesh, graph_links);
    link_island = plan::connected_components(graph);
    reach_table(graph, layout, component);
  }
  merged.reset();

  out.blocks.resize(tiles);
  std::size_t link_at = 0;
  std::size_t ledge_at = 0;
  for (std::uint32_t t = 0; t < tiles; ++t) {
    TileBlock& b = out.blocks[t];
    b.tile = t;
    const std::uint32_t p0 = mesh.tile_poly_first[t];
    const std::uint32_t p1 = mesh.tile_poly_first[t + 1];
    const std::uint32_t v0 = layout.tile_vertex_first[t];
    const std::uint32_t v1 = layout.tile_vertex_first[t + 1];
    const std::uint32_t s0 = layout.tile_sample_first[t];
    const std::uint32_t s1 = layout.tile_sample_first[t + 1];
    b.vertices.assign(mesh.vertices.begin() + v0, mesh.vertices.begin() + v1);
    const std::uint32_t c0 = mesh.poly_first[p0];
    const std::uint32_t c1 = mesh.poly_first[p1];
    b.poly_first.reserve(p1 - p0 + 1);
    for (std::uint32_t p = p0; p <= p1; ++p) b.poly_first.push_back(mesh.poly_first[p] - c0);
    b.poly_vertices.assign(mesh.poly_vertices.begin() + c0, mesh.poly_vertices.begin() + c1);
    b.poly_neighbors.assign(mesh.poly_neighbors.begin() + c0, mesh.poly_neighbors.begin() + c1);
    b.poly_region.assign(mesh.poly_region.begin() + p0, mesh.poly_region.begin() + p1);
    b.poly_area.assign(mesh.poly_area.begin() + p0, mesh.poly_area.begin() + p1);
    b.poly_flags.assign(mesh.poly_flags.begin() + p0, mesh.poly_flags.begin() + p1);
    b.poly_bounds.assign(mesh.poly_bounds.begin() + p0, mesh.poly_bounds.begin() + p1);
    if (layout.height_patches) {
      b.height_patches.assign(mesh.height_patches.begin() + p0, mesh.height_patches.begin() + p1);
      for (mesh::HeightPatch& h : b.height_patches) h.first -= s0;
    }
    b.height_samples.assign(mesh.height_samples.begin() + s0, mesh.height_samples.begin() + s1);
    for (const std::uint32_t v : b.poly_vertices) {
      if (v < v0 || v >= v1) b.foreign_vertex_ids.push_back(v);
    }
    std::sort(b.foreign_vertex_ids.begin(), b.foreign_vertex_ids.end());
    b.foreign_vertex_ids.erase(
        std::unique(b.foreign_vertex_ids.begin(), b.foreign_vertex_ids.end()),
        b.foreign_vertex_ids.end());
    for (const std::uint32_t v : b.foreign_vertex_ids)
      b.foreign_vertices.push_back(mesh.vertices[v]);
    if (links != nullptr) {
      while (link_at < links->links.size() && links->links[link_at].start_poly < p1)
        b.links.push_back(links->links[link_at++]);
    }
    if (ledges != nullptr) {
      // note: the set is sorted by source polygon first, so a tile's links are one run
      while (ledge_at < ledges->links.size() && ledges->links[ledge_at].source_poly < p1)
        b.ledges.push_back(ledges->links[ledge_at++]);
    }
    b.island.assign(island.begin() + p0, island.begin() + p1);
    b.link_island.assign(link_island.begin() + p0, link_island.begin() + p1);
    if (!component.empty())
      b.reach_component.assign(component.begin() + p0, component.begin() + p1);
  }
  return out;
}

Status validate(const WorldLayout& layout) {
  if (layout.tiles_x <= 0 || layout.tiles_z <= 0 || layout.tile_size <= 0)
    return invalid("world layout: " + std::to_string(layout.tiles_x) + " x " +
                   std::to_string(layout.tiles_z) + " tiles of " +
                   std::to_string(layout.tile_size) + " cells");
  if (layout.grid.width <= 0 || layout.grid.depth <= 0 || !(layout.grid.cell_size > 0.0F) ||
      !finite(layout.grid.origin))
    return invalid("world layout: an empty or non-finite grid");
  if (static_cast<std::int64_t>(layout.tiles_x - 1) * layout.tile_size >= layout.grid.width ||
      static_cast<std::int64_t>(layout.tiles_z - 1) * layout.tile_size >= layout.grid.depth ||
      static_cast<std::int64_t>(layout.tiles_x) * layout.tile_size < layout.grid.width ||
      static_cast<std::int64_t>(layout.tiles_z) * layout.tile_size < layout.grid.depth)
    return invalid("world layout: the tile grid does not cover the " +
                   std::to_string(layout.grid.width) + " x " + std::to_string(layout.grid.depth) +
                   " cell grid exactly");
  const std::size_t n = std::size_t{layout.tile_count()} + 1;
  for (const auto* first :
       {&layout.tile_poly_first, &layout.tile_vertex_first, &layout.tile_sample_first}) {
    if (first->size() != n || first->front() != 0 || !std::is_sorted(first->begin(), first->end()))
      return invalid("world layout: a per-tile range table is not " + std::to_string(n) +
                     " non-decreasing entries from 0");
  }
  if (!layout.links && !layout.link_configs.empty())
    return invalid("world layout: link configurations without links");
  if (!(layout.link_quantum >= 0.0F && layout.link_quantum <= 1.0F))
    return invalid("world layout: link quantum out of [0, 1]");
  if (layout.link_configs.size() > 65535)
    return invalid("world layout: more than 65535 link configurations");
  if (layout.reach_components > kMaxReachComponents ||
      layout.reach.size() != std::size_t{layout.reach_components} * layout.reach_words() ||
      (layout.reach_components != 0 && !layout.links && !layout.ledges))
    return invalid("world layout: a reach table of the wrong size");
  if ((layout.ledge_kind_bits >> ledge::kLedgeKindCount) != 0 ||
      (!layout.ledges && layout.ledge_kind_bits != 0))
    return invalid("world layout: ledge link kinds out of range or without ledge links");
  return {};
}

Status validate(const TileBlock& b, const WorldLayout& layout) {
  const std::uint32_t t = b.tile;
  const auto fail = [t](const std::string& what) {
    return invalid("tile " + std::to_string(t) + ": " + what);
  };
  if (t >= layout.tile_count())
    return invalid("tile " + std::to_string(t) + " is not one of the layout's " +
                   std::to_string(layout.tile_count()) + " tiles");
  const std::uint32_t polys = layout.tile_poly_first[t + 1] - layout.tile_poly_first[t];
  const std::uint32_t v0 = layout.tile_vertex_first[t];
  const std::uint32_t v1 = layout.tile_vertex_first[t + 1];
  if (b.vertices.size() != v1 - v0)
    return fail(std::to_string(b.vertices.size()) + " vertices, the layout says " +
                std::to_string(v1 - v0));
  if (b.poly_first.size() != std::size_t{polys} + 1)
    return fail(std::to_string(b.polygon_count()) + " polygons, the layout says " +
                std::to_string(polys));
  if (b.poly_first.front() != 0 || !std::is_sorted(b.poly_first.begin(), b.poly_first.end()) ||
      b.poly_first.back() != b.poly_vertices.size() ||
      b.poly_neighbors.size() != b.poly_vertices.size())
    return fail("polygon corner table inconsistent");
  for (std::size_t p = 0; p < polys; ++p) {
    if (b.poly_first[p + 1] - b.poly_first[p] < 3) return fail("a polygon with < 3 vertices");
  }
  if (b.poly_region.size() != polys || b.poly_area.size() != polys ||
      b.poly_flags.size() != polys || b.poly_bounds.size() != polys || b.island.size() != polys ||
      b.link_island.size() != polys)
    return fail("per-polygon arrays of the wrong size");
  const std::uint32_t samples = layout.tile_sample_first[t + 1] - layout.tile_sample_first[t];
  if (b.height_samples.size() != samples)
    return fail(std::to_string(b.height_samples.size()) + " height samples, the layout says " +
                std::to_string(samples));
  if (b.height_patches.size() != (layout.height_patches ? polys : 0))
    return fail("height patches of the wrong count");
  for (const mesh::HeightPatch& h : b.height_patches) {
    const std::uint64_t n = std::uint64_t{h.width} * h.depth;
    if (n != 0 && std::uint64_t{h.first} + n > samples)
      return fail("a height patch beyond the tile's samples");
  }
  for (const Vec3& v : b.vertices) {
    if (!finite(v)) return fail("a non-finite vertex");
  }
  if (b.foreign_vertices.size() != b.foreign_vertex_ids.size())
    return fail("foreign vertex arrays of different sizes");
  const std::uint32_t all_vertices = layout.tile_vertex_first.back();
  for (std::size_t i = 0; i < b.foreign_vertex_ids.size(); ++i) {
    const std::uint32_t id = b.foreign_vertex_ids[i];
    if (id >= all_vertices || (id >= v0 && id < v1) || (i > 0 && id <= b.foreign_vertex_ids[i - 1]))
      return fail("foreign vertex id " + std::to_string(id) + " out of order or range");
    if (!finite(b.foreign_vertices[i])) return fail("a non-finite foreign vertex");
  }
  for (const std::uint32_t v : b.poly_vertices) {
    if ((v < v0 || v >= v1) &&
        !std::binary_search(b.foreign_vertex_ids.begin(), b.foreign_vertex_ids.end(), v))
      return fail("vertex id " + std::to_string(v) + " neither the tile's nor a foreign one");
  }
  const std::uint32_t all_polys = layout.tile_poly_first.back();
  for (const std::uint32_t n : b.poly_neighbors) {
    if (n != mesh::kNoPoly && n >= all_polys)
      return fail("neighbour id " + std::to_string(n) + " out of range");
  }
  if (!layout.links && !b.links.empty()) return fail("links in a world without links");
  const std::uint32_t p0 = layout.tile_poly_first[t];
  for (const jump::JumpLink& l : b.links) {
    if (l.start_poly < p0 || l.start_poly >= p0 + polys || l.land_poly >= all_polys ||
        l.land_poly == l.start_poly || l.config >= layout.link_configs.size())
      return fail("a link with a polygon or configuration out of range");
    if (!finite(l.start) || !finite(l.land_a) || !finite(l.land_b))
      return fail("a non-finite link point");
  }
  if (!layout.ledges && !b.ledges.empty()) return fail("ledge links in a world without them");
  for (const ledge::LedgeLink& l : b.ledges) {
    if (l.source_poly < p0 || l.source_poly >= p0 + polys || l.dest_poly >= all_polys ||
        (l.dest_poly == l.source_poly && l.kind != ledge::LedgeKind::Ladder))
      return fail("a ledge link with a polygon out of range");
    const auto kind = static_cast<unsigned>(l.kind);
    if (kind >= static_cast<unsigned>(ledge::kLedgeKindCount) ||
        ((layout.ledge_kind_bits >> kind) & 1U) == 0)
      return fail("a ledge link of a kind the layout does not list");
    if (!finite(l.source_a) || !finite(l.source_b) || !finite(l.dest_a) || !finite(l.dest_b))
      return fail("a non-finite ledge link point");
    if (!(std::isfinite(l.cost) && l.cost >= 0.0F))
      return fail("a ledge link cost not finite and >= 0");
  }
  if (b.ledges.size() > 1) {
    std::vector<ledge::LedgeLink> sorted = b.ledges;
    ledge::sort_links(sorted);
    if (sorted != b.ledges) return fail("ledge links not sorted or duplicated");
  }
  return {};
}

Result<AssembledTiles> assemble_tiles(const WorldLayout& layout,
                                      std::span<const TileBlock* const> blocks) {
  const std::uint32_t tiles = layout.tile_count();
  if (layout.tile_poly_first.size() != std::size_t{tiles} + 1 ||
      layout.tile_vertex_first.size() != std::size_t{tiles} + 1 ||
      layout.tile_sample_first.size() != std::size_t{tiles} + 1)
    return invalid("assemble_tiles: the layout's tables do not match its tile count");
  std::vector<const TileBlock*> by_tile(tiles, nullptr);
  for (const TileBlock* b : blocks) {
    if (b == nullptr) return invalid("assemble_tiles: a null block");
    if (b->tile >= tiles)
      return invalid("assemble_tiles: tile " + std::to_string(b->tile) + " of " +
                     std::to_string(tiles));
    if (by_tile[b->tile] != nullptr)
      return invalid("assemble_tiles: tile " + std::to_string(b->tile) + " given twice");
    const std::uint32_t t = b->tile;
    if (b->vertices.size() != layout.tile_vertex_first[t + 1] - layout.tile_vertex_first[t] ||
        b->polygon_count() != layout.tile_poly_first[t + 1] - layout.tile_poly_first[t] ||
        b->height_samples.size() != layout.tile_sample_first[t + 1] - layout.tile_sample_first[t])
      return invalid("assemble_tiles: tile " + std::to_string(t) +
                     "'s sizes differ from the layout");
    by_tile[t] = b;
  }

  // foreign vertices that lie in absent tiles, by world id
  std::vector<std::pair<std::uint32_t, Vec3>> foreign;
  for (const TileBlock* b : by_tile) {
    if (b == nullptr) continue;
    for (std::size_t i = 0; i < b->foreign_vertex_ids.size(); ++i) {
      const std::uint32_t id = b->foreign_vertex_ids[i];
      const std::uint32_t owner = layout.tile_of_vertex(id);
      if (owner == kNoTile) return invalid("assemble_tiles: foreign vertex id out of range");
      if (by_tile[owner] == nullptr) foreign.emplace_back(id, b->foreign_vertices[i]);
    }
  }
  std::sort(foreign.begin(), foreign.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  foreign.erase(std::unique(foreign.begin(), foreign.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                foreign.end());

  AssembledTiles out;
  mesh::NavMesh& m = out.mesh;
  m.config = layout.config;
  m.grid = layout.grid;
  std::vector<std::uint32_t> vertex_first(tiles, 0);  // per present tile, its first new vertex
  std::vector<std::uint32_t> sample_first(tiles, 0);
  std::vector<std::uint32_t> foreign_new(foreign.size(), 0);
  m.tile_poly_first.assign(std::size_t{tiles} + 1, 0);
  std::size_t f = 0;
  std::size_t corners = 0;
  std::size_t polys = 0;
  for (std::uint32_t t = 0; t < tiles; ++t) {
    const TileBlock* b = by_tile[t];
    if (b == nullptr) {
      for (; f < foreign.size() && foreign[f].first < layout.tile_vertex_first[t + 1]; ++f) {
        foreign_new[f] = static_cast<std::uint32_t>(m.vertices.size());
        m.vertices.push_back(foreign[f].second);
      }
    } else {
      vertex_first[t] = static_cast<std::uint32_t>(m.vertices.size());
      m.vertices.insert(m.vertices.end(), b->vertices.begin(), b->vertices.end());
      sample_first[t] = static_cast<std::uint32_t>(m.height_samples.size());
      m.height_samples.insert(m.height_samples.end(), b->height_samples.begin(),
                              b->height_samples.end());
      corners += b->poly_vertices.size();
      polys += b->polygon_count();
    }
    m.tile_poly_first[t + 1] = static_cast<std::uint32_t>(polys);
  }
  const auto new_vertex = [&](std::uint32_t id) -> std::uint32_t {
    const std::uint32_t t = layout.tile_of_vertex(id);
    if (t == kNoTile) return mesh::kNoPoly;
    if (by_tile[t] != nullptr) return vertex_first[t] + (id - layout.tile_vertex_first[t]);
    const auto it = std::lower_bound(foreign.begin(), foreign.end(), id,
                                     [](const auto& a, std::uint32_t v) { return a.first < v; });
    if (it == foreign.end() || it->first != id) return mesh::kNoPoly;
    return foreign_new[static_cast<std::size_t>(it - foreign.begin())];
  };
  const auto new_poly = [&](std::uint32_t id) -> std::uint32_t {
    if (id == mesh::kNoPoly) return mesh::kNoPoly;
    const std::uint32_t t = layout.tile_of_poly(id);
    if (t == kNoTile || by_tile[t] == nullptr) return mesh::kNoPoly;
    return m.tile_poly_first[t] + (id - layout.tile_poly_first[t]);
  };

  m.poly_first.reserve(polys + 1);
  m.poly_first.push_back(0);
  m.poly_vertices.reserve(corners);
  m.poly_neighbors.reserve(corners);
  for (const TileBlock* b : by_tile) {
    if (b == nullptr) continue;
    const auto base = static_cast<std::uint32_t>(m.poly_vertices.size());
    for (std::size_t p = 1; p < b->poly_first.size(); ++p)
      m.poly_first.push_back(base + b->poly_first[p]);
    for (const std::uint32_t v : b->poly_vertices) {
      const std::uint32_t nv = new_vertex(v);
      if (nv == mesh::kNoPoly)
        return invalid("assemble_tiles: tile " + std::to_string(b->tile) + " names vertex " +
                       std::to_string(v) + ", which no block holds");
      m.poly_vertices.push_back(nv);
    }
    for (const std::uint32_t n : b->poly_neighbors) m.poly_neighbors.push_back(new_poly(n));
    m.poly_region.insert(m.poly_region.end(), b->poly_region.begin(), b->poly_region.end());
    m.poly_area.insert(m.poly_area.end(), b->poly_area.begin(), b->poly_area.end());
    m.poly_flags.insert(m.poly_flags.end(), b->poly_flags.begin(), b->poly_flags.end());
    m.poly_bounds.insert(m.poly_bounds.end(), b->poly_bounds.begin(), b->poly_bounds.end());
    if (layout.height_patches) {
      for (mesh::HeightPatch h : b->height_patches) {
        h.first += sample_first[b->tile];
        m.height_patches.push_back(h);
      }
    }
    out.island.insert(out.island.end(), b->island.begin(), b->island.end());
    out.link_island.insert(out.link_island.end(), b->link_island.begin(), b->link_island.end());
    out.reach_component.insert(out.reach_component.end(), b->reach_component.begin(),
                               b->reach_component.end());
  }

  if (layout.links) {
    jump::JumpLinkSet set;
    set.configs = layout.link_configs;
    set.quantum = layout.link_quantum;
    for (const TileBlock* b : by_tile) {
      if (b == nullptr) continue;
      for (jump::JumpLink l : b->links) {
        const std::uint32_t land = new_poly(l.land_poly);
        if (land == mesh::kNoPoly) continue;  // lands in an absent tile
        l.start_poly = new_poly(l.start_poly);
        if (l.start_poly == mesh::kNoPoly)
          return invalid("assemble_tiles: tile " + std::to_string(b->tile) +
                         " holds a link starting outside it");
        l.land_poly = land;
        set.links.push_back(l);
      }
    }
    // note: the new ids keep the world ids' order, so the world's sort order holds
    jump::index_sorted_links(set, m.polygon_count());
    out.links = std::move(set);
  }
  if (layout.ledges) {
    ledge::LedgeLinkSet set;
    for (const TileBlock* b : by_tile) {
      if (b == nullptr) continue;
      for (ledge::LedgeLink l : b->ledges) {
        const std::uint32_t dest = new_poly(l.dest_poly);
        if (dest == mesh::kNoPoly) continue;  // lands in an absent tile
        l.source_poly = new_poly(l.source_poly);
        if (l.source_poly == mesh::kNoPoly)
          return invalid("assemble_tiles: tile " + std::to_string(b->tile) +
                         " holds a ledge link starting outside it");
        l.dest_poly = dest;
        set.links.push_back(l);
      }
    }
    // note: renumbering keeps the order of polygon ids, so ledge::sort_links's order holds
    out.ledges = std::move(set);
  }
  return out;
}

}  // namespace leapnav::stream
