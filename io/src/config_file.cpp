// JSON configuration files (nlohmann::json): one table maps "section.key" to the BuildConfig field,
// used for reading (unknown keys are errors) and for writing (every field, in config.hpp order).
#include "leapnav/io/config_file.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "json_text.hpp"
#include "leapnav/io/file_io.hpp"

namespace leapnav::io {
namespace {

using Json = nlohmann::json;

struct Field {
  std::string_view section;
  std::string_view key;
  float* (*real)(BuildConfig&);  ///< null for the integer field
  int* (*integer)(BuildConfig&);
};

constexpr std::array<std::string_view, 4> kSections = {"voxel", "agent", "region", "poly"};

// clang-format off
constexpr std::array<Field, 16> kFields = {{
    {"voxel", "cell_size", [](BuildConfig& c) { return &c.voxel.cell_size; }, nullptr},
    {"voxel", "cell_height", [](BuildConfig& c) { return &c.voxel.cell_height; }, nullptr},
    {"agent", "height", [](BuildConfig& c) { return &c.agent.height; }, nullptr},
    {"agent", "radius", [](BuildConfig& c) { return &c.agent.radius; }, nullptr},
    {"agent", "max_climb", [](BuildConfig& c) { return &c.agent.max_climb; }, nullptr},
    {"agent", "max_slope_deg", [](BuildConfig& c) { return &c.agent.max_slope_deg; }, nullptr},
    {"agent", "max_jump_up", [](BuildConfig& c) { return &c.agent.max_jump_up; }, nullptr},
    {"agent", "max_drop", [](BuildConfig& c) { return &c.agent.max_drop; }, nullptr},
    {"agent", "crouch_height", [](BuildConfig& c) { return &c.agent.crouch_height; }, nullptr},
    {"region", "min_region_area", [](BuildConfig& c) { return &c.region.min_region_area; }, nullptr},
    {"region", "merge_region_area", [](BuildConfig& c) { return &c.region.merge_region_area; }, nullptr},
    {"poly", "max_edge_len", [](BuildConfig& c) { return &c.poly.max_edge_len; }, nullptr},
    {"poly", "max_edge_error", [](BuildConfig& c) { return &c.poly.max_edge_error; }, nullptr},
    {"poly", "max_verts_per_poly", nullptr, [](BuildConfig& c) { return &c.poly.max_verts_per_poly; }},
    {"poly", "detail_sample_dist", [](BuildConfig& c) { return &c.poly.detail_sample_dist; }, nullptr},
    {"poly", "detail_max_error", [](BuildConfig& c) { return &c.poly.detail_max_error; }, nullptr},
}};
// clang-format on

// note: agent.shape, the one text field, is read and written beside the table
constexpr std::string_view kShapeKey = "shape";

std::string keys_of(std::string_view section) {
  std::string out;
  for (const Field& f : kFields) {
    if (f.section != section) continue;
    if (!out.empty()) out += ", ";
    out += f.key;
  }
  if (section == "agent") out += ", " + std::string(kShapeKey);
  return out;
}

Error invalid(std::string_view source, const std::string& message) {
  return make_error(ErrorCode::InvalidArgument, std::string(source) + ": " + message);
}

/// The float as the shortest decimal that reads back to it, as a JSON number ("0.3", not
/// "0.30000001192092896").
double float_json(float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc()) return static_cast<double>(value);
  return std::strtod(std::string(buffer, end).c_str(), nullptr);
}

std::string stem_of(std::string_view source) {
  return std::filesystem::path(std::string(source)).stem().string();
}

Status read_field(const Field& field, const Json& value, BuildConfig& config,
                  std::string_view source) {
  const std::string where = std::string(field.section) + "." + std::string(field.key);
  if (field.real != nullptr) {
    if (!value.is_number())
      return invalid(source, where + " must be a number (got " + value.type_name() + ")");
    const auto number = value.get<double>();
    // note: a double beyond the float range has no float value (the conversion is undefined)
    if (!(std::abs(number) <= static_cast<double>(std::numeric_limits<float>::max())))
      return invalid(source, where + " = " + value.dump() +
                                 " is out of range (not representable as a 32-bit float)");
    *field.real(config) = static_cast<float>(number);
    return {};
  }
  if (!value.is_number())
    return invalid(source, where + " must be an integer (got " + value.type_name() + ")");
  std::int64_t n = 0;
  if (value.is_number_float()) {
    const auto number = value.get<double>();
    if (number != std::floor(number))
      return invalid(source, where + " must be an integer (got " + value.dump() + ")");
    // note: an integral float outside the int range is clamped to just past it, so the range
    // check below reports it with its written value
    n = std::abs(number) <= 1e18 ? static_cast<std::int64_t>(number)
                                 : (number < 0 ? std::numeric_limits<std::int64_t>::min()
                                               : std::numeric_limits<std::int64_t>::max());
  } else if (value.is_number_unsigned()) {
    n = static_cast<std::int64_t>(std::min<std::uint64_t>(
        value.get<std::uint64_t>(), std::numeric_limits<std::int64_t>::max()));
  } else {
    n = value.get<std::int64_t>();
  }
  if (n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max())
    return invalid(source, where + " = " + value.dump() + " is out of range");
  *field.integer(config) = static_cast<int>(n);
  return {};
}

}  // namespace

Result<BuildConfig> parse_config_json(std::string_view text, std::string_view source) {
  auto parsed = detail::parse_json_text(text, source);
  if (!parsed) return parsed.error();
  const Json root = std::move(*parsed);
  if (!root.is_object())
    return invalid(source, std::string("expected a JSON object at the top level (got ") +
                               root.type_name() + ")");

  std::string base = "default";
  if (const auto it = root.find("base"); it != root.end()) {
    if (!it->is_string())
      return invalid(source, std::string("base must be a string (got ") + it->type_name() + ")");
    base = it->get<std::string>();
  }
  auto named = named_config(base);
  if (!named.ok()) return invalid(source, "base: " + named.error().message);
  BuildConfig config = std::move(named).value();
  config.name = stem_of(source);
  if (const auto it = root.find("name"); it != root.end()) {
    if (!it->is_string())
      return invalid(source, std::string("name must be a string (got ") + it->type_name() + ")");
    config.name = it->get<std::string>();
  }

  // note: named variables rather than structured bindings, which clang 14 cannot capture.
  for (const auto& section_item : root.items()) {
    const std::string& section = section_item.key();
    const Json& body = section_item.value();
    if (section == "base" || section == "name") continue;
    if (std::find(kSections.begin(), kSections.end(), section) == kSections.end())
      return invalid(
          source, "unknown key '" + section + "' (known: base, name, voxel, agent, region, poly)");
    if (!body.is_object())
      return invalid(source, "'" + section + "' must be an object (got " + body.type_name() + ")");
    for (const auto& key_item : body.items()) {
      const std::string& key = key_item.key();
      const Json& value = key_item.value();
      if (section == "agent" && key == kShapeKey) {
        if (!value.is_string())
          return invalid(
              source, std::string("agent.shape must be a string (got ") + value.type_name() + ")");
        auto shape = parse_agent_shape(value.get<std::string>());
        if (!shape) return invalid(source, shape.error().message);
        config.agent.shape = *shape;
        continue;
      }
      const auto field = std::find_if(kFields.begin(), kFields.end(), [&](const Field& f) {
        return f.section == section && f.key == key;
      });
      if (field == kFields.end())
        return invalid(source, "unknown key '" + section + "." + key + "' (" + section +
                                   " keys: " + keys_of(section) + ")");
      LEAPNAV_TRY(read_field(*field, value, config, source));
    }
  }
  if (Status status = validate(config); !status.ok()) {
    // note: validate names its messages "config: ..."; a source already called that (the C API
    // and the Python module pass JSON text as "config") is not named twice
    const std::string& message = status.error().message;
    if (message.rfind(std::string(source) + ": ", 0) == 0)
      return make_error(ErrorCode::InvalidArgument, message);
    return invalid(source, message);
  }
  return config;
}

Result<BuildConfig> load_config_json(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  return parse_config_json(text, path.string());
}

Result<BuildConfig> resolve_config(std::string_view name_or_path, std::uint64_t max_bytes) {
  for (const std::string_view name : named_config_names())
    if (name == name_or_path) return named_config(name);
  const std::filesystem::path path{std::string(name_or_path)};
  std::error_code ec;
  const bool looks_like_path =
      name_or_path.find('/') != std::string_view::npos || path.extension() == ".json";
  if (!looks_like_path && !std::filesystem::exists(path, ec)) {
    std::string known;
    for (const std::string_view name : named_config_names()) {
      if (!known.empty()) known += ", ";
      known += name;
    }
    return make_error(ErrorCode::InvalidArgument,
                      "unknown configuration '" + std::string(name_or_path) + "' (known: " + known +
                          "; or the path of a .json file)");
  }
  return load_config_json(path, max_bytes);
}

std::string config_to_json(const BuildConfig& config) {
  nlohmann::ordered_json root;
  root["name"] = config.name;
  BuildConfig copy = config;
  for (const std::string_view section : kSections) {
    nlohmann::ordered_json body = nlohmann::ordered_json::object();
    for (const Field& f : kFields) {
      if (f.section != section) continue;
      if (f.real != nullptr) {
        body[std::string(f.key)] = float_json(*f.real(copy));
      } else {
        body[std::string(f.key)] = *f.integer(copy);
      }
    }
    if (section == "agent")
      body[std::string(kShapeKey)] = std::string(to_string(config.agent.shape));
    root[std::string(section)] = std::move(body);
  }
  return root.dump(2) + "\n";
}

}  // namespace leapnav::io
