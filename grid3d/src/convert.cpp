// Heightfield <-> occupancy grid and MovingAI .3dmap / .3dscen text (spec C.3 "Input").
// Resampling is conservative: any positive-volume overlap with solid blocks a voxel; index maths
// uses a 1e-6 voxel tolerance so that equal cell sizes map one to one despite float rounding.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "leapnav/grid3d/convert.hpp"

namespace leapnav::grid3d {
namespace {

constexpr double kIndexTolerance = 1e-6;

int floor_index(double t) {
  return static_cast<int>(std::floor(t + kIndexTolerance));
}
int ceil_index(double t) {
  return static_cast<int>(std::ceil(t - kIndexTolerance));
}

// Splits text into lines (without '\r'), numbering from 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  [[nodiscard]] std::uint32_t number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t number_ = 0;
};

// Whitespace-separated fields of a line.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool parse_int(std::string_view s, long long& out) {
  const auto* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end;
}

bool parse_double(std::string_view s, double& out) {
  const auto* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

std::string where(std::string_view name, std::uint32_t line) {
  return std::string(name) + ":" + std::to_string(line) + ": ";
}

}  // namespace

Result<OccupancyGrid> from_heightfield(const voxel::Heightfield& field, float voxel_size) {
  if (!(voxel_size > 0.0F) || !std::isfinite(voxel_size)) {
    return make_error(ErrorCode::InvalidArgument, "from_heightfield: voxel size " +
                                                      std::to_string(voxel_size) +
                                                      " m must be positive and finite");
  }
  const GridSpec& g = field.grid;
  const double s = voxel_size;
  const double cs = g.cell_size;
  const double ch = g.cell_height;
  const double wx = g.width * cs / s;
  const double wz = g.depth * cs / s;
  const double wy = g.height * ch / s;
  if (wx > kMaxGridSide3 || wz > kMaxGridSide3 || wy > kMaxGridSide3) {
    return make_error(ErrorCode::InvalidArgument,
                      "from_heightfield: a " + std::to_string(voxel_size) +
                          " m voxel grid of this field would exceed " +
                          std::to_string(kMaxGridSide3) + " voxels per side");
  }
  LEAPNAV_TRY_ASSIGN(OccupancyGrid grid,
                     make_grid(std::max(1, ceil_index(wx)), std::max(1, ceil_index(wy)),
                               std::max(1, ceil_index(wz)), g.origin, voxel_size));
  for (int k = 0; k < grid.depth; ++k) {
    const int z0 = std::max(0, floor_index(k * s / cs));
    const int z1 = std::min(g.depth, ceil_index((k + 1) * s / cs));
    for (int i = 0; i < grid.width; ++i) {
      const int x0 = std::max(0, floor_index(i * s / cs));
      const int x1 = std::min(g.width, ceil_index((i + 1) * s / cs));
      for (int z = z0; z < z1; ++z) {
        for (int x = x0; x < x1; ++x) {
          const std::size_t column = g.column_index(x, z);
          for (std::uint32_t sp = field.first(column); sp < field.end(column); ++sp) {
            const voxel::Span& span = field.spans[sp];
            const int j0 = std::max(0, floor_index(span.min * ch / s));
            const int j1 = std::min(grid.height, ceil_index(span.max * ch / s));
            for (int j = j0; j < j1; ++j) grid.set_blocked({i, j, k}, true);
          }
        }
      }
    }
  }
  return grid;
}

Result<voxel::Heightfield> to_heightfield(const OccupancyGrid& grid) {
  if (grid.height > kMaxGridHeight) {
    return make_error(ErrorCode::InvalidArgument,
                      "to_heightfield: grid height " + std::to_string(grid.height) +
                          " exceeds the span limit " + std::to_string(kMaxGridHeight));
  }
  voxel::Heightfield field;
  field.grid.origin = grid.origin;
  field.grid.cell_size = grid.voxel_size;
  field.grid.cell_height = grid.voxel_size;
  field.grid.width = grid.width;
  field.grid.depth = grid.depth;
  field.grid.height = grid.height;
  field.column_first.reserve(static_cast<std::size_t>(field.grid.column_count()) + 1);
  for (int z = 0; z < grid.depth; ++z) {
    for (int x = 0; x < grid.width; ++x) {
      field.column_first.push_back(static_cast<std::uint32_t>(field.spans.size()));
      int y = 0;
      while (y < grid.height) {
        if (!grid.blocked_node(grid.node({x, y, z}))) {
          ++y;
          continue;
        }
        const int start = y;
        while (y < grid.height && grid.blocked_node(grid.node({x, y, z}))) ++y;
        field.spans.push_back(
            {static_cast<std::uint16_t>(start), static_cast<std::uint16_t>(y), voxel::kNullArea});
      }
    }
  }
  field.column_first.push_back(static_cast<std::uint32_t>(field.spans.size()));
  return field;
}

Result<OccupancyGrid> parse_3dmap(std::string_view text, std::string_view name) {
  LineReader reader(text);
  std::string_view line;
  std::vector<std::string_view> f;
  while (reader.next(line)) {
    f = fields(line);
    if (!f.empty()) break;
  }
  if (f.empty()) return make_error(ErrorCode::EmptyInput, std::string(name) + ": empty file");
  const std::uint32_t header_line = reader.number();
  long long ext[3] = {0, 0, 0};
  if (f.size() != 4 || (f[0] != "voxel" && f[0] != "rev_voxel") || !parse_int(f[1], ext[0]) ||
      !parse_int(f[2], ext[1]) || !parse_int(f[3], ext[2])) {
    return make_error(ErrorCode::ParseError,
                      where(name, header_line) + "expected the header 'voxel W H D'");
  }
  const bool reversed = f[0] == "rev_voxel";
  for (const long long e : ext) {
    if (e < 1 || e > kMaxGridSide3) {
      return make_error(ErrorCode::InvalidArgument,
                        where(name, header_line) + "extent " + std::to_string(e) +
                            " is out of range (1.." + std::to_string(kMaxGridSide3) + ")");
    }
  }
  auto made =
      make_grid(static_cast<int>(ext[0]), static_cast<int>(ext[1]), static_cast<int>(ext[2]));
  if (!made) {
    Error e = std::move(made).error();
    e.message = where(name, header_line) + e.message;
    return e;
  }
  OccupancyGrid grid = std::move(made).value();
  if (reversed) {
    for (int y = 0; y < grid.height; ++y)
      for (int z = 0; z < grid.depth; ++z)
        for (int x = 0; x < grid.width; ++x) grid.set_blocked({x, y, z}, true);
  }
  while (reader.next(line)) {
    f = fields(line);
    if (f.empty()) continue;
    long long c[3] = {0, 0, 0};
    if (f.size() != 3 || !parse_int(f[0], c[0]) || !parse_int(f[1], c[1]) ||
        !parse_int(f[2], c[2])) {
      return make_error(ErrorCode::ParseError,
                        where(name, reader.number()) + "expected three integers 'x y z'");
    }
    for (int a = 0; a < 3; ++a) {
      if (c[a] < 0 || c[a] >= ext[a]) {
        return make_error(ErrorCode::IndexOutOfRange,
                          where(name, reader.number()) + "voxel (" + std::to_string(c[0]) + ", " +
                              std::to_string(c[1]) + ", " + std::to_string(c[2]) +
                              ") is outside the " + std::to_string(ext[0]) + " x " +
                              std::to_string(ext[1]) + " x " + std::to_string(ext[2]) + " map");
      }
    }
    grid.set_blocked({static_cast<int>(c[0]), static_cast<int>(c[1]), static_cast<int>(c[2])},
                     !reversed);
  }
  return grid;
}

Result<OccupancyGrid> read_3dmap(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(std::string text, read_file(path, max_bytes));
  return parse_3dmap(text, path.string());
}

std::string write_3dmap(const OccupancyGrid& grid) {
  std::string out = "voxel " + std::to_string(grid.width) + " " + std::to_string(grid.height) +
                    " " + std::to_string(grid.depth) + "\n";
  for (int y = 0; y < grid.height; ++y) {
    for (int z = 0; z < grid.depth; ++z) {
      for (int x = 0; x < grid.width; ++x) {
        if (!grid.blocked_node(grid.node({x, y, z}))) continue;
        out += std::to_string(x);
        out += ' ';
        out += std::to_string(y);
        out += ' ';
        out += std::to_string(z);
        out += '\n';
      }
    }
  }
  return out;
}

Result<Scenario> parse_3dscen(std::string_view text, std::string_view name) {
  LineReader reader(text);
  std::string_view line;
  Scenario scenario;
  int header = 0;
  while (reader.next(line)) {
    const auto f = fields(line);
    if (f.empty()) continue;
    if (header == 0) {
      long long version = 0;
      if (f.size() != 2 || f[0] != "version" || !parse_int(f[1], version)) {
        return make_error(ErrorCode::ParseError,
                          where(name, reader.number()) + "expected the header 'version N'");
      }
      header = 1;
      continue;
    }
    if (header == 1) {
      if (f.size() != 1) {
        return make_error(ErrorCode::ParseError,
                          where(name, reader.number()) + "expected the map's file name");
      }
      scenario.map_name = std::string(f[0]);
      header = 2;
      continue;
    }
    long long c[6] = {0, 0, 0, 0, 0, 0};
    double cost = 0.0;
    bool ok = f.size() >= 8;
    for (std::size_t i = 0; ok && i < 6; ++i)
      ok = parse_int(f[i], c[i]) && c[i] >= 0 && c[i] < kMaxGridSide3;
    ok = ok && parse_double(f[6], cost) && cost >= 0.0;
    if (!ok) {
      return make_error(ErrorCode::ParseError,
                        where(name, reader.number()) +
                            "expected 'sx sy sz tx ty tz cost h-error' (non-negative integers, a "
                            "finite cost)");
    }
    ScenarioEntry e;
    e.start = {static_cast<int>(c[0]), static_cast<int>(c[1]), static_cast<int>(c[2])};
    e.goal = {static_cast<int>(c[3]), static_cast<int>(c[4]), static_cast<int>(c[5])};
    e.cost = cost;
    e.line = reader.number();
    scenario.entries.push_back(e);
  }
  if (header < 2) {
    return make_error(ErrorCode::EmptyInput,
                      std::string(name) + ": no 'version' and map lines; not a .3dscen file");
  }
  return scenario;
}

Result<Scenario> read_3dscen(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(std::string text, read_file(path, max_bytes));
  return parse_3dscen(text, path.string());
}

}  // namespace leapnav::grid3d
