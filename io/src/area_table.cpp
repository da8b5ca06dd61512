// Area tables (JSON, nlohmann::json): groups and materials of an OBJ file to area ids.
#include "leapnav/io/area_table.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "json_text.hpp"

namespace leapnav::io {
namespace {

using Json = nlohmann::json;

Error invalid(std::string_view name, const std::string& message) {
  return make_error(ErrorCode::InvalidArgument, std::string(name) + ": " + message);
}

Result<std::uint8_t> area_id(const Json& value, std::string_view name, const std::string& key) {
  if (!value.is_number()) {
    return invalid(name, key + " must be an area id 0.." + std::to_string(kMaxAreaId) + " (got " +
                             value.type_name() + ")");
  }
  const double id = value.get<double>();
  if (!value.is_number_integer() && !value.is_number_unsigned() && std::floor(id) != id) {
    return invalid(name, key + " must be an integer (got " + value.dump() + ")");
  }
  if (!(id >= 0.0 && id <= kMaxAreaId)) {
    return invalid(name, key + " = " + value.dump() + " is out of range (0.." +
                             std::to_string(kMaxAreaId) + ")");
  }
  return static_cast<std::uint8_t>(id);
}

Result<std::vector<std::pair<std::string, std::uint8_t>>> name_map(const Json& value,
                                                                   std::string_view name,
                                                                   const std::string& section) {
  if (!value.is_object()) {
    return invalid(name,
                   section + " must be an object of name: area id (got " + value.type_name() + ")");
  }
  std::vector<std::pair<std::string, std::uint8_t>> out;
  for (const auto& [key, id] : value.items()) {
    LEAPNAV_TRY_ASSIGN(const std::uint8_t area, area_id(id, name, section + "." + key));
    out.emplace_back(key, area);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::uint8_t* find(const std::vector<std::pair<std::string, std::uint8_t>>& map,
                         std::string_view key) {
  const auto it = std::lower_bound(map.begin(), map.end(), key,
                                   [](const std::pair<std::string, std::uint8_t>& e,
                                      std::string_view k) { return e.first < k; });
  return it != map.end() && it->first == key ? &it->second : nullptr;
}

}  // namespace

std::uint8_t AreaTable::area_of(std::string_view material,
                                const std::vector<std::string>& group_names) const {
  if (!material.empty()) {
    if (const std::uint8_t* id = find(materials, material)) return *id;
  }
  for (const std::string& group : group_names) {
    if (const std::uint8_t* id = find(groups, group)) return *id;
  }
  return default_area;
}

Result<AreaTable> parse_area_table(std::string_view text, std::string_view name) {
  auto parsed = detail::parse_json_text(text, name);
  if (!parsed) return parsed.error();
  const Json json = std::move(*parsed);
  if (!json.is_object()) {
    return invalid(name,
                   std::string("an area table is a JSON object (got ") + json.type_name() + ")");
  }
  AreaTable table;
  table.source = std::string(name);
  for (const auto& [key, value] : json.items()) {
    if (key == "groups") {
      LEAPNAV_TRY_ASSIGN(table.groups, name_map(value, name, key));
    } else if (key == "materials") {
      LEAPNAV_TRY_ASSIGN(table.materials, name_map(value, name, key));
    } else if (key == "default") {
      LEAPNAV_TRY_ASSIGN(table.default_area, area_id(value, name, key));
    } else {
      return invalid(name, "unknown key '" + key + "' (known: groups, materials, default)");
    }
  }
  return table;
}

Result<AreaTable> load_area_table(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  return parse_area_table(text, path.string());
}

}  // namespace leapnav::io
