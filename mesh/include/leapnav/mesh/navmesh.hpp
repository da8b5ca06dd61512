// The navigation mesh: convex polygons (CCW in xz) with per-edge adjacency, per-polygon height
// detail, and the span → polygon map jump links need. Plain data; built by build_navmesh(),
// checked by validate(), saved by io/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/geometry.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::mesh {

/// A polygon index.
enum class PolyId : std::uint32_t {};
inline constexpr std::uint32_t kNoPoly = std::numeric_limits<std::uint32_t>::max();
/// kNoPoly as a PolyId: a boundary edge's neighbour, a span without a polygon.
inline constexpr PolyId kNoPolyId{kNoPoly};
[[nodiscard]] constexpr std::uint32_t index(PolyId id) {
  return static_cast<std::uint32_t>(id);
}

/// Per-polygon height detail: the rasterized floor of every grid column over the polygon's xz
/// bounds, columns [x0, x0 + width) × [z0, z0 + depth); sample (i, j) is
/// height_samples[first + i + j * width] in world y. The sample is the floor of the column's span
/// of the polygon's region; in columns without one, the floor of the column's compact span
/// nearest (within walkable_climb) to the polygon's vertex-fan height there; NaN when neither
/// exists. Tiled builds store a flat polygon's patch (all finite samples equal) as one sample, a
/// 1 x 1 patch at (x0, z0) (compact_flat_patches; height_at gives the same heights).
struct HeightPatch {
  std::int32_t x0 = 0;
  std::int32_t z0 = 0;
  std::uint16_t width = 0;
  std::uint16_t depth = 0;
  std::uint32_t first = 0;
  friend bool operator==(const HeightPatch&, const HeightPatch&) = default;
};

/// The ids 0 .. count - 1 as PolyIds, for range-for (no allocation).
struct PolyIdRange {
  struct Iterator {
    std::uint32_t at = 0;
    PolyId operator*() const { return PolyId{at}; }
    Iterator& operator++() {
      ++at;
      return *this;
    }
    bool operator==(const Iterator&) const = default;
  };
  std::uint32_t count = 0;
  [[nodiscard]] Iterator begin() const { return {0}; }
  [[nodiscard]] Iterator end() const { return {count}; }
  [[nodiscard]] std::size_t size() const { return count; }
};

/// Raw stored ids read as PolyIds, for range-for (a view: the mesh must outlive it).
struct PolyIdList {
  struct Iterator {
    const std::uint32_t* at = nullptr;
    PolyId operator*() const { return PolyId{*at}; }
    Iterator& operator++() {
      ++at;
      return *this;
    }
    bool operator==(const Iterator&) const = default;
  };
  std::span<const std::uint32_t> raw;
  [[nodiscard]] Iterator begin() const { return {raw.data()}; }
  [[nodiscard]] Iterator end() const { return {raw.data() + raw.size()}; }
  [[nodiscard]] std::size_t size() const { return raw.size(); }
};

/// Set in NavMesh::poly_flags by the build on polygons where the agent must crouch (the clearance
/// is below agent.height; see AgentConfig::crouch_height). Query filters read it
/// (plan::QueryOptions::crouch); the other 15 bits are free for the user's flags.
inline constexpr std::uint16_t kPolyFlagCrouch = 0x8000;

struct NavMesh {
  BuildConfig config;  ///< the configuration it was built with
  GridSpec grid;       ///< the voxel grid it was built on

  std::vector<Vec3> vertices;  ///< welded polygon vertices [units: m]

  /// Polygons, CSR: polygon p has vertices poly_vertices[poly_first[p] .. poly_first[p + 1]).
  std::vector<std::uint32_t> poly_first;  ///< size polygon_count() + 1
  /// Indices into vertices, CCW in xz; convex, a corner may be straight (180 degrees).
  std::vector<std::uint32_t> poly_vertices;
  /// Aligned with poly_vertices: the polygon across the edge from vertex k to vertex k + 1
  /// (wrapping), or kNoPoly for a boundary edge.
  std::vector<std::uint32_t> poly_neighbors;
  std::vector<std::uint16_t> poly_region;  ///< watershed region each polygon came from
  std::vector<std::uint8_t> poly_area;     ///< area id (voxel::kWalkableArea for ground)
  std::vector<std::uint16_t> poly_flags;   ///< kPolyFlagCrouch and user flags, 0 by default
  std::vector<AABB> poly_bounds;           ///< 3-D bounds of each polygon's vertices and detail

  std::vector<HeightPatch> height_patches;  ///< one per polygon, or empty: heights from vertices
  std::vector<float> height_samples;

  /// Span → polygon map, aligned with the CompactHeightfield the mesh was built from:
  /// span_column_first is its column_first and span_poly[s] the polygon of walkable span s
  /// (kNoPoly when none). The polygon is the lowest-numbered polygon of the span's region whose
  /// closed xz outline contains the span's sample corner, the (min x, min z) corner of its column
  /// (thesis §5.3); kNoPoly for unwalkable spans, spans without a region, and spans whose corner
  /// no polygon of their region contains (the thesis then drops the sample). Empty when not built.
  std::vector<std::uint32_t> span_column_first;
  std::vector<std::uint16_t> span_y;  ///< the span's floor height, for lookups without the field
  std::vector<std::uint32_t> span_poly;

  /// Tiled builds only (empty otherwise), CSR: the polygons of tile t (TileLayout's tile index)
  /// are [tile_poly_first[t], tile_poly_first[t + 1]); the stitched mesh keeps its polygons in
  /// tile order. Size tile count + 1, from 0 to polygon_count(), non-decreasing. Planners read
  /// it to load and unload tiles (plan::Planner::unload_tile).
  std::vector<std::uint32_t> tile_poly_first;

  [[nodiscard]] std::size_t polygon_count() const {
    return poly_first.empty() ? 0 : poly_first.size() - 1;
  }
  [[nodiscard]] std::span<const std::uint32_t> polygon(PolyId p) const {
    return {poly_vertices.data() + poly_first[index(p)],
            poly_vertices.data() + poly_first[index(p) + 1]};
  }
  /// The raw neighbour ids of p's edges (kNoPoly on a boundary); see neighbor_ids.
  [[nodiscard]] std::span<const std::uint32_t> neighbors(PolyId p) const {
    return {poly_neighbors.data() + poly_first[index(p)],
            poly_neighbors.data() + poly_first[index(p) + 1]};
  }

  // note: typed accessors over the CSR arrays, which store raw uint32_t ids (the file format and
  // the stages' inner loops use them as they are)

  /// Every polygon id, 0 .. polygon_count() - 1: `for (PolyId p : mesh.polygon_ids())`.
  [[nodiscard]] PolyIdRange polygon_ids() const {
    return PolyIdRange{static_cast<std::uint32_t>(polygon_count())};
  }
  /// The number of vertices (and edges) of p.
  [[nodiscard]] std::size_t vertex_count(PolyId p) const {
    return poly_first[index(p) + 1] - poly_first[index(p)];
  }
  /// The polygon across edge `edge` of p (from vertex edge to edge + 1), kNoPolyId on a boundary.
  [[nodiscard]] PolyId neighbor(PolyId p, std::size_t edge) const {
    return PolyId{poly_neighbors[poly_first[index(p)] + edge]};
  }
  /// The neighbours of p's edges as PolyIds (kNoPolyId on a boundary), in edge order.
  [[nodiscard]] PolyIdList neighbor_ids(PolyId p) const { return PolyIdList{neighbors(p)}; }
  /// The polygon of walkable span `span` of the heightfield the mesh was built from (kNoPolyId
  /// when none; span_poly must be built).
  [[nodiscard]] PolyId span_polygon(std::size_t span) const { return PolyId{span_poly[span]}; }
};

/// The floor height of polygon p at (x, z): from its height patch when there is one (the sample of
/// the column containing (x, z), clamped into the patch; when that sample is NaN, the nearest
/// finite sample of the patch), else interpolated over the polygon's vertices (fan from vertex
/// 0). Inside p this is the rasterized floor of the column containing (x, z) wherever the
/// polygon's region covers that column: exact at voxel resolution, within
/// max(cell_height, detail_max_error).
[[nodiscard]] float height_at(const NavMesh& mesh, PolyId p, float x, float z);

/// The polygon's centroid in xz, lifted with height_at.
[[nodiscard]] Vec3 polygon_center(const NavMesh& mesh, PolyId p);

/// Area of polygon p in the xz plane [units: m²].
[[nodiscard]] double polygon_area(const NavMesh& mesh, PolyId p);

/// A content hash over every field (config excluded), stable across platforms. Definition
/// (since the per-tile form; the file bytes never depended on it): each array is read as a
/// sequence of 32-bit words x_0 .. x_{n-1} (vertices and bounds as float bits, 3 and 6 words per
/// entry; poly_first, poly_vertices, poly_neighbors; region, area and flags zero-extended; a
/// height patch as x0, z0, width | depth << 16, first; height samples with every NaN as the one
/// quiet NaN) and summed as the polynomial sum of x_i B^i modulo 2^61 - 1 (a fixed B); the
/// digest hashes the grid, each sequence's length and sum, tile_poly_first and the span map.
/// The sums compose: a tiled mesh's arrays are in tile order, so its hash is also
/// content_hash_of_parts over per-tile parts (tile_hash_part), and a rebuild rehashes only the
/// tiles whose slices changed.
[[nodiscard]] std::uint64_t content_hash(const NavMesh& mesh);

/// One tile's slices of a tiled mesh's arrays: vertices [vertex_first, + vertex_count),
/// polygons [poly_first, + poly_count) with their corners (poly_first offsets), height samples
/// [sample_first, + sample_count). Indices into the mesh's arrays.
struct TileSlices {
  std::uint32_t vertex_first = 0;
  std::uint32_t vertex_count = 0;
  std::uint32_t poly_first = 0;
  std::uint32_t poly_count = 0;
  std::uint32_t sample_first = 0;
  std::uint32_t sample_count = 0;
};

/// One tile's share of content_hash: per word sequence, the sum over the tile's slice with
/// positions counted from the slice's start and every id relative to the tile's own first
/// vertex, polygon, corner or sample (so that a slice that only moved keeps its part), the sum
/// of B^k over the positions that hold such ids, and B^(slice length). Plain data.
struct TileHashPart {
  static constexpr std::size_t kSequences = 10;
  std::uint32_t vertices = 0;  ///< the slice sizes
  std::uint32_t polygons = 0;
  std::uint32_t corners = 0;
  std::uint32_t samples = 0;
  bool patches = false;  ///< the mesh had height patches (their words are in the sums)
  bool valid = false;    ///< the slices lay inside the mesh's arrays
  std::array<std::uint64_t, kSequences> sum{};
  std::array<std::uint64_t, kSequences> power{};
  std::uint64_t corner_unit = 0;  ///< poly_first entries (relative to the first corner)
  std::uint64_t vertex_unit = 0;  ///< poly_vertices (relative to the first vertex)
  std::uint64_t poly_unit = 0;    ///< poly_neighbors other than kNoPoly (to the first polygon)
  std::uint64_t sample_unit = 0;  ///< height patch firsts (relative to the first sample)
  friend bool operator==(const TileHashPart&, const TileHashPart&) = default;
};

/// The part of `mesh`'s content_hash for the tile whose slices are `slices`. O(the slices).
/// `valid` is false when a slice lies outside the mesh's arrays.
[[nodiscard]] TileHashPart tile_hash_part(const NavMesh& mesh, const TileSlices& slices);

/// content_hash(mesh) from the parts of consecutive slices that cover every array in order
/// (vertices, polygons, corners and samples: the parts' sizes sum to the arrays' sizes), in
/// O(parts) plus the tile_poly_first and span arrays. Parts that do not cover the arrays, or an
/// invalid one, give content_hash(mesh) computed directly. A part computed before an edit
/// stays right for a slice whose contents did not change and whose ids still point the same
/// distances away (the callers recompute the parts of tiles near a tile whose sizes changed).
[[nodiscard]] std::uint64_t content_hash_of_parts(const NavMesh& mesh,
                                                  std::span<const TileHashPart> parts);

/// A content hash of the mesh in grid space: the grid without its origin, every vertex as its
/// grid corner and height level (rounded from world units), the polygon arrays, the height patches
/// with samples in height levels, and the span map. Two builds of one level translated by an
/// offset that float represents exactly give the same grid-space hash.
[[nodiscard]] std::uint64_t grid_space_hash(const NavMesh& mesh);

/// Structural invariants that need no heightfield: CSR sizes, indices in range, 3..max vertices,
/// convex and CCW in xz, adjacency symmetric and consistent with shared vertices, finite values.
[[nodiscard]] Status validate(const NavMesh& mesh);

/// validate restricted to the listed polygons: the whole arrays' sizes and ends,
/// tile_poly_first and finite vertices, then validate's per-polygon checks (vertices, convexity,
/// neighbours sharing their edge back, the height patch in range and its samples finite) for the
/// listed polygons only. For a mesh changed in known places (a tile rebuild: the changed
/// polygons and their neighbours); a mesh with a span map is refused (validate checks the map).
/// O(vertices + tiles + the listed polygons). Passes wherever validate passes.
[[nodiscard]] Status validate_polygons(const NavMesh& mesh,
                                       std::span<const std::uint32_t> polygons);

}  // namespace leapnav::mesh
