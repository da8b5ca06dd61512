// Test fixture: builds a small CompactHeightfield from ASCII maps, with connections and a plain
// chamfer distance field (2 per axis step, 3 per diagonal, no blur), so the mesh stages can be
// tested without the voxel stage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::test {

/// One storey of a map. Row r is z = r, character i of a row is x = i.
/// '.' walkable floor at `base`; '0'..'9' walkable floor at base + digit; 'b' walkable floor at
/// `base` with area id kSecondArea; 'x' a span at `base` whose area is voxel::kNullArea; anything
/// else (' ', '#') no span in this layer.
/// The area id of 'b' cells (a second walkable area type; regions never mix area ids).
inline constexpr std::uint8_t kSecondArea = 1;

struct ChfLayer {
  int base = 0;  ///< [units: cell heights]
  std::vector<std::string> rows;
};

struct ChfOptions {
  int walkable_height = 4;  ///< open spans connect when their open intervals overlap this much
  int walkable_climb = 1;   ///< and their floors differ by at most this much
  float cell_size = 0.3F;
  float cell_height = 0.2F;
};

/// The heightfield of the given storeys (spans in a column sorted by floor height; a span's
/// clearance reaches one cell below the next floor above in its column (that floor's solid is one
/// cell thick), else voxel::kUnboundedClearance). Storeys in one column must be >= 2 apart.
/// Distance is 0 on unwalkable spans and on walkable spans with fewer than 4 connections to
/// walkable spans; elsewhere the chamfer distance to the nearest such span.
[[nodiscard]] voxel::CompactHeightfield make_chf(const std::vector<ChfLayer>& layers,
                                                 const ChfOptions& options = {});
/// A single storey at height 0.
[[nodiscard]] voxel::CompactHeightfield make_chf(const std::vector<std::string>& rows,
                                                 const ChfOptions& options = {});

}  // namespace leapnav::test
