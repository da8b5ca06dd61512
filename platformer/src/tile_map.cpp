// Tile-map text format (spec §B.3): header "platformer W H", then H rows top first. Errors name
// the file and line; the map is stored bottom row first.
#include "leapnav/platformer/tile_map.hpp"

#include <charconv>
#include <system_error>

namespace leapnav::platformer {
namespace {

std::string where(std::string_view name, std::size_t line) {
  return std::string(name) + ":" + std::to_string(line) + ": ";
}

// Splits text into lines without their '\n' or "\r\n".
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// Splits on spaces and tabs.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (true) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) break;
    std::size_t end = line.find_first_of(" \t", pos);
    if (end == std::string_view::npos) end = line.size();
    out.push_back(line.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

Result<int> parse_side(std::string_view word, std::string_view what, std::string_view name) {
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && ptr == word.data() + word.size() &&
       (value < 1 || value > kMaxMapSide))) {
    return make_error(ErrorCode::InvalidArgument, where(name, 1) + std::string(what) + " = " +
                                                      std::string(word) + " is out of range (1.." +
                                                      std::to_string(kMaxMapSide) + " tiles)");
  }
  if (ec != std::errc() || ptr != word.data() + word.size()) {
    return make_error(ErrorCode::ParseError, where(name, 1) + "malformed " + std::string(what) +
                                                 " '" + std::string(word) +
                                                 "' (expected a whole number)");
  }
  return static_cast<int>(value);
}

}  // namespace

TileMap make_tile_map(int width, int height) {
  TileMap map;
  map.width = width;
  map.height = height;
  map.solid.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 0);
  return map;
}

Result<TileMap> parse_tile_map(std::string_view text, std::string_view name) {
  const std::vector<std::string_view> lines = split_lines(text);
  if (lines.empty() || (lines.size() == 1 && blank(lines[0]))) {
    return make_error(
        ErrorCode::EmptyInput,
        std::string(name) + ": empty file (expected 'platformer W H' and W x H tiles)");
  }
  const std::vector<std::string_view> header = words(lines[0]);
  if (header.size() != 3 || header[0] != "platformer") {
    return make_error(ErrorCode::ParseError,
                      where(name, 1) + "expected the header 'platformer W H'");
  }
  LEAPNAV_TRY_ASSIGN(const int width, parse_side(header[1], "W", name));
  LEAPNAV_TRY_ASSIGN(const int height, parse_side(header[2], "H", name));
  if (static_cast<std::int64_t>(width) * height > kMaxMapTiles) {
    return make_error(ErrorCode::InvalidArgument, where(name, 1) +
                                                      "W x H = " + std::to_string(width) + " x " +
                                                      std::to_string(height) + " exceeds " +
                                                      std::to_string(kMaxMapTiles) + " tiles");
  }
  // rows: the H lines after the header; blank lines may only trail
  std::size_t last = lines.size();
  while (last > 1 && blank(lines[last - 1])) --last;
  const std::size_t rows = last - 1;
  if (rows < static_cast<std::size_t>(height)) {
    return make_error(ErrorCode::ParseError,
                      where(name, last) + "the map ends after " + std::to_string(rows) +
                          " rows (the header says H = " + std::to_string(height) + ")");
  }
  if (rows > static_cast<std::size_t>(height)) {
    return make_error(ErrorCode::ParseError, where(name, static_cast<std::size_t>(height) + 2) +
                                                 "more than H = " + std::to_string(height) +
                                                 " rows");
  }
  TileMap map = make_tile_map(width, height);
  map.name = std::string(name);
  for (int i = 0; i < height; ++i) {
    const std::size_t line_no = static_cast<std::size_t>(i) + 2;
    const std::string_view line = lines[line_no - 1];
    const int r = height - 1 - i;
    if (line.size() != static_cast<std::size_t>(width)) {
      return make_error(ErrorCode::ParseError,
                        where(name, line_no) + "row has " + std::to_string(line.size()) +
                            " characters, expected W = " + std::to_string(width));
    }
    for (int c = 0; c < width; ++c) {
      const char ch = line[static_cast<std::size_t>(c)];
      if (ch != '#' && ch != '.') {
        const auto byte = static_cast<unsigned char>(ch);
        std::string shown = byte >= 0x20 && byte < 0x7F
                                ? "'" + std::string(1, ch) + "'"
                                : "byte " + std::to_string(static_cast<unsigned>(byte));
        return make_error(ErrorCode::ParseError, where(name, line_no) + "column " +
                                                     std::to_string(c + 1) + ": unexpected " +
                                                     shown + " (expected '#' solid or '.' free)");
      }
      map.solid[map.index(c, r)] = ch == '#' ? 1 : 0;
    }
  }
  return map;
}

Result<TileMap> load_tile_map(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  return parse_tile_map(text, path.string());
}

std::string to_text(const TileMap& map) {
  std::string out = "platformer " + std::to_string(map.width) + " " + std::to_string(map.height);
  out += '\n';
  for (int r = map.height - 1; r >= 0; --r) {
    for (int c = 0; c < map.width; ++c) out += map.is_solid(c, r) ? '#' : '.';
    out += '\n';
  }
  return out;
}

Status validate(const TileMap& map) {
  const std::string name = map.name.empty() ? "tile map" : map.name;
  if (map.width < 1 || map.width > kMaxMapSide || map.height < 1 || map.height > kMaxMapSide) {
    return make_error(ErrorCode::InvalidArgument,
                      name + ": size " + std::to_string(map.width) + " x " +
                          std::to_string(map.height) + " out of range (1.." +
                          std::to_string(kMaxMapSide) + " tiles each way)");
  }
  if (static_cast<std::int64_t>(map.width) * map.height > kMaxMapTiles) {
    return make_error(ErrorCode::InvalidArgument,
                      name + ": more than " + std::to_string(kMaxMapTiles) + " tiles");
  }
  if (map.solid.size() != static_cast<std::size_t>(map.width) * map.height) {
    return make_error(ErrorCode::InvalidArgument,
                      name + ": " + std::to_string(map.solid.size()) + " tiles stored, expected " +
                          std::to_string(static_cast<std::size_t>(map.width) * map.height));
  }
  for (std::size_t i = 0; i < map.solid.size(); ++i) {
    if (map.solid[i] > 1) {
      return make_error(ErrorCode::InvalidArgument,
                        name + ": tile " + std::to_string(i) + " has value " +
                            std::to_string(map.solid[i]) + " (0 free or 1 solid)");
    }
  }
  return {};
}

}  // namespace leapnav::platformer
