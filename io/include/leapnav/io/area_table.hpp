// Area tables: OBJ groups (`g`) and materials (`usemtl`) mapped to area ids by a JSON object,
//   {"groups": {"water": 3}, "materials": {"grass": 5}, "default": 63}
// which the OBJ reader applies per triangle (TriangleMesh::areas), so that regions, polygons and
// finally NavMesh::poly_area carry the ids query filters read. Area ids are 0..63: 0 is never
// walkable, 63 (voxel::kWalkableArea) is ground.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "leapnav/core/file_read.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"

namespace leapnav::io {

struct AreaTable {
  std::string source;  ///< the table's name (file), for messages
  /// (name, area id) sorted by name; a triangle's material wins over its groups
  std::vector<std::pair<std::string, std::uint8_t>> groups;
  std::vector<std::pair<std::string, std::uint8_t>> materials;
  /// The area of triangles whose material and groups are not in the table (ground by default)
  std::uint8_t default_area = kMaxAreaId;

  /// The area id of a triangle with material `material` (empty: none) in the groups `groups`:
  /// the material's entry, else the first of its groups (in the `g` statement's order) that has
  /// an entry, else default_area.
  [[nodiscard]] std::uint8_t area_of(std::string_view material,
                                     const std::vector<std::string>& group_names) const;
};

/// Parses a table; every key optional. Errors name `name` and the key (InvalidArgument unless
/// noted): malformed JSON (ParseError, with the position), not an object, an unknown top-level
/// key (the known ones listed), "groups"/"materials" not an object, an id that is not an integer
/// or is outside 0..63 ("areas.json: groups.water = 70 is out of range (0..63)").
[[nodiscard]] Result<AreaTable> parse_area_table(std::string_view text, std::string_view name);

/// Reads and parses a table file of at most `max_bytes` bytes (read_file's errors, naming it).
[[nodiscard]] Result<AreaTable> load_area_table(const std::filesystem::path& path,
                                                std::uint64_t max_bytes = default_max_file_bytes());

}  // namespace leapnav::io
