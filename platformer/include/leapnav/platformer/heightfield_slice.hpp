// Tile maps and leapnav's 3-D data (spec §B.3 "Mapping to the heightfield"): a tile map is a
// heightfield W × 1 columns deep with cell size = cell height = 1 tile, each vertical run of solid
// tiles one span; a slice through any solid heightfield gives a tile map back by sampling tile
// centres; and a tile map extrudes to a 3-D level (tiles as boxes, a corridor `depth` deep) that
// the navmesh and jump-link pipeline can build.
#pragma once

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/platformer/tile_map.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::platformer {

/// The map as a solid heightfield: W × 1 columns, cell size = cell height = 1 tile, grid origin
/// (0, -1, 0) and height H + 2, so that rows -1 and H, the solid frame outside the map, are in
/// it (cell index = row + 1). Column c holds one span per vertical run of solid rows, frame
/// included, each with the walkable area: its top is a floor.
[[nodiscard]] voxel::Heightfield to_heightfield(const TileMap& map);

/// Where to cut a heightfield into a tile map.
struct SliceSpec {
  Vec3 origin;  ///< world position of tile (0, 0)'s lower-left corner; z = the cut plane [units: m]
  float tile_size = 1.0F;  ///< [units: m] [range: > 0]
  int width = 0;           ///< tiles [range: 1..kMaxMapSide]
  int height = 0;          ///< tiles [range: 1..kMaxMapSide]
};

/// Reads a heightfield as Recast does, by its walkable surfaces: tile (c, r) is free iff the
/// world point (origin.x + (c + 1/2)·s, origin.y + (r + 1/2)·s, origin.z) lies in the open space
/// above a walkable span of the column containing it (at or above the span's top, below the next
/// span's bottom); everything else is solid (inside spans, above unwalkable surfaces such as the
/// underside of a box, below the lowest span, outside the grid). This works for volumetric spans
/// (to_heightfield) and for surface spans from rasterized boxes, where a box's interior is open
/// space above its unwalkable bottom face, provided the cell height is below s/2 (a box top on a
/// cell boundary is rasterized one cell tall, and that cell must stay below the next tile's
/// centre). Errors: InvalidArgument (sizes, a non-finite origin, a non-positive tile size).
[[nodiscard]] Result<TileMap> slice_heightfield(const voxel::Heightfield& heightfield,
                                                const SliceSpec& spec);

/// How to extrude a tile map to 3-D.
struct ExtrudeOptions {
  float tile_size = 1.0F;  ///< edge of a tile's box [units: m] [range: > 0]
  float depth = 3.0F;      ///< corridor depth along z [units: m] [range: > 0]
  bool border = true;      ///< add a one-tile solid frame (outside the map is solid)
};

/// A 3-D level: each vertical run of solid tiles (and, with `border`, the frame around the map:
/// columns -1 and W, rows -1 and H) becomes a box [c, c+1]·s × [a, b]·s × [0, depth] (12
/// triangles, counter-clockwise from outside). Tile (c, r) occupies x in [c·s, (c+1)·s), y in
/// [r·s, (r+1)·s).
[[nodiscard]] TriangleMesh extrude_tile_map(const TileMap& map, const ExtrudeOptions& options);

}  // namespace leapnav::platformer
