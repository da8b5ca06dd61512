// Authored links files (links_file.hpp), read with nlohmann::json.
#include "leapnav/io/links_file.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "json_text.hpp"
#include "leapnav/io/file_io.hpp"

namespace leapnav::io {
namespace {

using Json = nlohmann::json;

Error invalid(std::string_view source, const std::string& message) {
  return make_error(ErrorCode::InvalidArgument, std::string(source) + ": " + message);
}

Result<Vec3> read_point(const Json& j, std::string_view source, const std::string& where) {
  if (!j.is_array() || j.size() != 3)
    return invalid(source, where + " must be an array of three numbers");
  float v[3] = {0.0F, 0.0F, 0.0F};
  for (std::size_t i = 0; i < 3; ++i) {
    if (!j[i].is_number()) return invalid(source, where + " must be an array of three numbers");
    const auto d = j[i].get<double>();
    if (!std::isfinite(d) || std::abs(d) > 1e30)
      return make_error(ErrorCode::NonFinite,
                        std::string(source) + ": " + where + " is not finite");
    v[i] = static_cast<float>(d);
  }
  return Vec3{v[0], v[1], v[2]};
}

}  // namespace

Result<AuthoredLinks> parse_links_json(std::string_view text, std::string_view source) {
  auto parsed = detail::parse_json_text(text, source);
  if (!parsed) return parsed.error();
  const Json root = std::move(*parsed);
  if (!root.is_object()) return invalid(source, "the links file must be a JSON object");
  AuthoredLinks out;
  for (const auto& item : root.items()) {
    const std::string& key = item.key();
    const Json& value = item.value();
    if (key == "climb_speed") {
      if (!value.is_number() || !(value.get<double>() > 0.0) ||
          !std::isfinite(value.get<double>()) || value.get<double>() > 1e6)
        return invalid(source, "climb_speed must be a number in (0, 1e6]");
      out.ladder_options.climb_speed = value.get<float>();
    } else if (key == "ladders") {
      if (!value.is_array()) return invalid(source, "ladders must be an array");
      for (std::size_t i = 0; i < value.size(); ++i) {
        const Json& l = value[i];
        const std::string where = "ladder " + std::to_string(i);
        if (!l.is_object()) return invalid(source, where + " must be an object");
        ledge::Ladder ladder;
        bool has_bottom = false;
        bool has_top = false;
        for (const auto& field : l.items()) {
          if (field.key() == "bottom") {
            LEAPNAV_TRY_ASSIGN(ladder.bottom,
                               read_point(field.value(), source, where + ": bottom"));
            has_bottom = true;
          } else if (field.key() == "top") {
            LEAPNAV_TRY_ASSIGN(ladder.top, read_point(field.value(), source, where + ": top"));
            has_top = true;
          } else {
            return invalid(source,
                           where + ": unknown key '" + field.key() + "' (known: bottom, top)");
          }
        }
        if (!has_bottom) return invalid(source, where + ": bottom is missing");
        if (!has_top) return invalid(source, where + ": top is missing");
        out.ladders.push_back(ladder);
      }
    } else {
      return invalid(source, "unknown key '" + key + "' (known: ladders, climb_speed)");
    }
  }
  return out;
}

Result<AuthoredLinks> load_links_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  return parse_links_json(text, path.string());
}

}  // namespace leapnav::io
