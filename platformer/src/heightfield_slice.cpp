// Tile maps as heightfields and back (spec §B.3): a map is a W × 1 heightfield with one span per
// vertical run of solid tiles; a slice samples tile centres in any solid heightfield; an extrusion
// turns the map into boxes that the 3-D pipeline rasterizes.
#include "leapnav/platformer/heightfield_slice.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace leapnav::platformer {
namespace {

// Appends the 12 triangles of an axis-aligned box, wound counter-clockwise seen from outside.
void add_box(TriangleMesh& mesh, Vec3 lo, Vec3 hi) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  for (int i = 0; i < 8; ++i) {
    mesh.vertices.push_back(
        {(i & 1) != 0 ? hi.x : lo.x, (i & 2) != 0 ? hi.y : lo.y, (i & 4) != 0 ? hi.z : lo.z});
  }
  // corner index bits: x = 1, y = 2, z = 4
  static constexpr std::uint32_t kFaces[6][4] = {
      {0, 4, 6, 2},  // -x
      {1, 3, 7, 5},  // +x
      {0, 1, 5, 4},  // -y
      {2, 6, 7, 3},  // +y
      {0, 2, 3, 1},  // -z
      {4, 5, 7, 6},  // +z
  };
  for (const auto& f : kFaces) {
    mesh.triangles.push_back({base + f[0], base + f[1], base + f[2]});
    mesh.triangles.push_back({base + f[0], base + f[2], base + f[3]});
  }
}

}  // namespace

voxel::Heightfield to_heightfield(const TileMap& map) {
  voxel::Heightfield hf;
  hf.grid.origin = {0, -1, 0};
  hf.grid.cell_size = 1.0F;
  hf.grid.cell_height = 1.0F;
  hf.grid.width = map.width;
  hf.grid.depth = 1;
  hf.grid.height = map.height + 2;
  hf.column_first.assign(static_cast<std::size_t>(map.width) + 1, 0);
  // note: rows -1 and H are the solid frame (outside is solid); cell index = row + 1
  for (int c = 0; c < map.width; ++c) {
    int r = -1;
    while (r <= map.height) {
      if (!map.is_solid(c, r)) {
        ++r;
        continue;
      }
      int end = r + 1;
      while (end <= map.height && map.is_solid(c, end)) ++end;
      hf.spans.push_back({static_cast<std::uint16_t>(r + 1), static_cast<std::uint16_t>(end + 1),
                          voxel::kWalkableArea});
      r = end;
    }
    hf.column_first[static_cast<std::size_t>(c) + 1] = static_cast<std::uint32_t>(hf.spans.size());
  }
  return hf;
}

Result<TileMap> slice_heightfield(const voxel::Heightfield& hf, const SliceSpec& spec) {
  if (spec.width < 1 || spec.width > kMaxMapSide || spec.height < 1 || spec.height > kMaxMapSide ||
      static_cast<std::int64_t>(spec.width) * spec.height > kMaxMapTiles) {
    return make_error(ErrorCode::InvalidArgument,
                      "slice_heightfield: size " + std::to_string(spec.width) + " x " +
                          std::to_string(spec.height) + " is out of range");
  }
  if (!is_finite(spec.origin) || !std::isfinite(spec.tile_size) || !(spec.tile_size > 0)) {
    return make_error(ErrorCode::InvalidArgument,
                      "slice_heightfield: origin and tile size must be finite, tile size > 0");
  }
  TileMap map = make_tile_map(spec.width, spec.height);
  map.name = "heightfield slice";
  std::fill(map.solid.begin(), map.solid.end(), std::uint8_t{1});
  const GridSpec& grid = hf.grid;
  const double s = spec.tile_size;
  const double z = std::floor((spec.origin.z - grid.origin.z) / grid.cell_size);
  for (int c = 0; c < spec.width; ++c) {
    const double x = std::floor((spec.origin.x + (c + 0.5) * s - grid.origin.x) / grid.cell_size);
    if (!(x >= 0 && x < grid.width && z >= 0 && z < grid.depth)) continue;
    const std::size_t column = grid.column_index(static_cast<int>(x), static_cast<int>(z));
    for (int r = 0; r < spec.height; ++r) {
      const double y = (spec.origin.y + (r + 0.5) * s - grid.origin.y) / grid.cell_height;
      // the highest span whose top is at or below the centre: open space above it, when the
      // span is a walkable surface and the centre lies below the next span
      for (std::uint32_t i = hf.first(column); i < hf.end(column); ++i) {
        const voxel::Span& span = hf.spans[i];
        if (y < span.min) break;
        if (y < span.max) break;  // inside solid
        const bool below_next = i + 1 == hf.end(column) || y < hf.spans[i + 1].min;
        if (below_next) {
          if (span.area != voxel::kNullArea) map.solid[map.index(c, r)] = 0;
          break;
        }
      }
    }
  }
  return map;
}

TriangleMesh extrude_tile_map(const TileMap& map, const ExtrudeOptions& options) {
  TriangleMesh mesh;
  mesh.name = map.name.empty() ? "platformer" : map.name;
  const float s = options.tile_size;
  const auto box = [&](int c, int r0, int r1) {
    add_box(mesh, {static_cast<float>(c) * s, static_cast<float>(r0) * s, 0.0F},
            {static_cast<float>(c + 1) * s, static_cast<float>(r1) * s, options.depth});
  };
  const int lo = options.border ? -1 : 0;
  const int hi = options.border ? map.height + 1 : map.height;
  for (int c = lo; c < map.width + (options.border ? 1 : 0); ++c) {
    int r = lo;
    while (r < hi) {
      const bool solid = options.border ? map.is_solid(c, r) : map.solid[map.index(c, r)] != 0;
      if (!solid) {
        ++r;
        continue;
      }
      int end = r + 1;
      while (end < hi &&
             (options.border ? map.is_solid(c, end) : map.solid[map.index(c, end)] != 0)) {
        ++end;
      }
      box(c, r, end);
      r = end;
    }
  }
  return mesh;
}

}  // namespace leapnav::platformer
