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

/// The map as a solid heightfield: grid origin (0, 0, 0), cell size = cell height = 1, W × 1
/// columns, height H; column c holds one span [a, b) per run of solid rows a..b-1. (Outside the
/// map is solid by the map's rule, not by spans.)
[[nodiscard]] voxel::Heightfield to_heightfield(const TileMap& map);

/// Where to cut a heightfield into a tile map.
struct SliceSpec {
  Vec3 origin;             ///< world position of tile (0, 0)'s lower-left corner; z = the cut plane [units: m]
  float tile_size = 1.0F;  ///< [units: m] [range: > 0]
  int width = 0;           ///< tiles [range: 1..kMaxMapSide]
  int height = 0;          ///< tiles [range: 1..kMaxMapSide]
};

/// Tile (c, r) is solid iff the world point (origin.x + (c + 1/2)·s, origin.y + (r + 1/2)·s,
/// origin.z) lies inside a solid span [min, max) of the column containing it; centres outside
/// the heightfield's grid are free. Sampling centres makes the slice exact for spans from
/// rasterized boxes whenever cell height <= s/2 (the rasterizer's closed intervals add at most
/// one cell above a box top, below the next tile's centre). Errors: InvalidArgument (sizes, a
/// non-finite origin, a non-positive tile size).
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
