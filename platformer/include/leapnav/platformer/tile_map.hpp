// Side-view tile maps (spec seeds-002-004 §B.3): the text format
//   platformer <W> <H>
//   <H lines of W characters, top row first: '#' solid, '.' free>
// Tile (c, r): column c from the left, row r from the bottom (r = 0 lowest). Outside the map is
// solid, so the bottom row can be walkable and a jump cannot leave the map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/file_read.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::platformer {

/// Largest width or height of a tile map [units: tiles].
inline constexpr int kMaxMapSide = 1 << 14;
/// Largest number of tiles in a map (64 Mi tiles).
inline constexpr std::int64_t kMaxMapTiles = std::int64_t{1} << 26;

/// A tile (c, r): column from the left, row from the bottom.
struct Tile {
  int c = 0;
  int r = 0;
  friend bool operator==(const Tile&, const Tile&) = default;
};

/// Solid and free tiles of a side-view map, stored row by row from the bottom row.
struct TileMap {
  std::string name;                 ///< where it came from (file name), for messages
  int width = 0;                    ///< [units: tiles] [range: 1..kMaxMapSide]
  int height = 0;                   ///< [units: tiles] [range: 1..kMaxMapSide]
  std::vector<std::uint8_t> solid;  ///< index c + r * width; 1 = solid, 0 = free

  [[nodiscard]] bool in_bounds(int c, int r) const {
    return c >= 0 && r >= 0 && c < width && r < height;
  }
  [[nodiscard]] std::size_t index(int c, int r) const {
    return static_cast<std::size_t>(c) +
           static_cast<std::size_t>(r) * static_cast<std::size_t>(width);
  }
  /// True for solid tiles and for every tile outside the map.
  [[nodiscard]] bool is_solid(int c, int r) const {
    return !in_bounds(c, r) || solid[index(c, r)] != 0;
  }
};

/// An all-free map of the given size (sizes are not checked; validate() does).
[[nodiscard]] TileMap make_tile_map(int width, int height);

/// Parses the text format. `name` prefixes messages ("map.txt:3: ..."). Accepts '\r\n' line ends
/// and trailing blank lines. Errors (ParseError unless noted): a missing or malformed header
/// (line 1), W or H out of 1..kMaxMapSide or W·H over kMaxMapTiles (InvalidArgument), a row of
/// the wrong length, a character other than '#' or '.', too few or too many rows; EmptyInput for
/// an empty text.
[[nodiscard]] Result<TileMap> parse_tile_map(std::string_view text, std::string_view name);

/// Reads and parses a tile-map file of at most `max_bytes` bytes (read_file: IoError when it
/// cannot be read, MemoryLimit past the bound, naming the path).
[[nodiscard]] Result<TileMap> load_tile_map(const std::filesystem::path& path,
                                            std::uint64_t max_bytes = default_max_file_bytes());

/// The text format of a map (parse_tile_map(to_text(m)) gives m back).
[[nodiscard]] std::string to_text(const TileMap& map);

/// Checks sizes against their ranges and solid.size() == width * height with values 0 or 1.
[[nodiscard]] Status validate(const TileMap& map);

}  // namespace leapnav::platformer
