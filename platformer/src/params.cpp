// Platformer parameters: ranges, the sample count and the JSON file (spec §B.1 B1, B6).
#include "leapnav/platformer/params.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "leapnav/core/json_check.hpp"

namespace leapnav::platformer {
namespace {

constexpr const char* kKnownKeys =
    "a, v_max, v_b, h_max, g, h_div, s_div, dt, T, distance_max, collider";

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

Error out_of_range(std::string_view where, std::string_view key, double value,
                   std::string_view range) {
  return make_error(ErrorCode::InvalidArgument,
                    std::string(where) + ": '" + std::string(key) + "' = " + number_text(value) +
                        " is out of range (" + std::string(range) + ")");
}

// note: NaN fails every comparison, so each range check is written as "inside" and negated.
Status check_real(std::string_view where, std::string_view key, double value, double lo,
                  bool lo_open, double hi, std::string_view range) {
  if (!std::isfinite(value)) {
    return make_error(ErrorCode::NonFinite,
                      std::string(where) + ": '" + std::string(key) + "' is not a finite number");
  }
  const bool inside = (lo_open ? value > lo : value >= lo) && value <= hi;
  if (!inside) return out_of_range(where, key, value, range);
  return {};
}

Status check_int(std::string_view where, std::string_view key, int value, int lo, int hi,
                 std::string_view unit) {
  if (value < lo || value > hi) {
    return out_of_range(where, key, value,
                        std::to_string(lo) + ".." + std::to_string(hi) + std::string(unit));
  }
  return {};
}

}  // namespace

int sample_count(const PlatformerParams& params) {
  const double ratio = params.T / params.dt;
  if (!(ratio >= 0) || ratio > 1e9) return 0;
  return static_cast<int>(std::floor(ratio * (1 + 1e-9)));
}

Status validate(const PlatformerParams& p, std::string_view where) {
  LEAPNAV_TRY(check_real(where, "a", p.a, 0, false, 1e4, "0..1e4 tiles/s²"));
  LEAPNAV_TRY(check_real(where, "v_max", p.v_max, 0, true, 1e4, "> 0, <= 1e4 tiles/s"));
  LEAPNAV_TRY(check_real(where, "v_b", p.v_b, 0, false, 1e4, "0..1e4 tiles/s"));
  LEAPNAV_TRY(check_real(where, "h_max", p.h_max, 0, true, 1e4, "> 0, <= 1e4 tiles"));
  LEAPNAV_TRY(check_real(where, "g", p.g, 0, true, 1e5, "> 0, <= 1e5 tiles/s²"));
  LEAPNAV_TRY(check_int(where, "h_div", p.h_div, 1, kMaxDivisions, ""));
  LEAPNAV_TRY(check_int(where, "s_div", p.s_div, 1, kMaxDivisions, ""));
  LEAPNAV_TRY(check_real(where, "T", p.T, 0, true, 1e4, "> 0, <= 1e4 s"));
  LEAPNAV_TRY(check_real(where, "dt", p.dt, 0, true, p.T, "> 0, <= T s"));
  const int samples = sample_count(p);
  if (samples < 1 || samples > kMaxSamples) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(where) + ": T / dt = " + number_text(p.T / p.dt) +
                          " samples per trajectory is out of range (1.." +
                          std::to_string(kMaxSamples) + ")");
  }
  LEAPNAV_TRY(check_real(where, "distance_max", p.distance_max, 0, false, 1e4, "0..1e4 tiles"));
  LEAPNAV_TRY(
      check_int(where, "collider[0] (width)", p.collider_w, 1, kMaxColliderTiles, " tiles"));
  LEAPNAV_TRY(
      check_int(where, "collider[1] (height)", p.collider_h, 1, kMaxColliderTiles, " tiles"));
  return {};
}

Result<PlatformerParams> parse_params_json(std::string_view text, std::string_view name) {
  const std::string where(name);
  // note: the check names a key given twice (the parser keeps the last) and a number past a
  // double by their key path; text that passes it parses without an exception
  LEAPNAV_TRY(check_json_text(text, where));
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) return make_error(ErrorCode::ParseError, where + ": malformed JSON");
  if (!json.is_object()) {
    return make_error(ErrorCode::ParseError, where + ": expected a JSON object of parameters");
  }
  PlatformerParams p;
  auto real = [&](const std::string& key, const nlohmann::json& value, double& out) -> Status {
    if (!value.is_number()) {
      return make_error(ErrorCode::ParseError,
                        where + ": '" + key + "' must be a number, not " + value.dump());
    }
    out = value.get<double>();
    return {};
  };
  auto integer = [&](const std::string& key, const nlohmann::json& value, int& out) -> Status {
    if (!value.is_number_integer() || value.get<std::int64_t>() < -1000000 ||
        value.get<std::int64_t>() > 1000000) {
      if (value.is_number_integer() || value.is_number_unsigned()) {
        return make_error(ErrorCode::InvalidArgument,
                          where + ": '" + key + "' = " + value.dump() + " is out of range");
      }
      return make_error(ErrorCode::ParseError,
                        where + ": '" + key + "' must be a whole number, not " + value.dump());
    }
    out = static_cast<int>(value.get<std::int64_t>());
    return {};
  };
  for (const auto& [key, value] : json.items()) {
    if (key == "a") {
      LEAPNAV_TRY(real(key, value, p.a));
    } else if (key == "v_max") {
      LEAPNAV_TRY(real(key, value, p.v_max));
    } else if (key == "v_b") {
      LEAPNAV_TRY(real(key, value, p.v_b));
    } else if (key == "h_max") {
      LEAPNAV_TRY(real(key, value, p.h_max));
    } else if (key == "g") {
      LEAPNAV_TRY(real(key, value, p.g));
    } else if (key == "h_div") {
      LEAPNAV_TRY(integer(key, value, p.h_div));
    } else if (key == "s_div") {
      LEAPNAV_TRY(integer(key, value, p.s_div));
    } else if (key == "dt") {
      LEAPNAV_TRY(real(key, value, p.dt));
    } else if (key == "T") {
      LEAPNAV_TRY(real(key, value, p.T));
    } else if (key == "distance_max") {
      LEAPNAV_TRY(real(key, value, p.distance_max));
    } else if (key == "collider") {
      if (!value.is_array() || value.size() != 2) {
        return make_error(ErrorCode::ParseError, where +
                                                     ": 'collider' must be [w, h] (two whole "
                                                     "numbers of tiles), not " +
                                                     value.dump());
      }
      LEAPNAV_TRY(integer("collider[0]", value[0], p.collider_w));
      LEAPNAV_TRY(integer("collider[1]", value[1], p.collider_h));
    } else {
      return make_error(ErrorCode::InvalidArgument,
                        where + ": unknown key '" + key + "' (known: " + kKnownKeys + ")");
    }
  }
  LEAPNAV_TRY(validate(p, where));
  return p;
}

Result<PlatformerParams> load_params(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  return parse_params_json(text, path.string());
}

std::string to_json_text(const PlatformerParams& p) {
  nlohmann::json json = {{"a", p.a},
                         {"v_max", p.v_max},
                         {"v_b", p.v_b},
                         {"h_max", p.h_max},
                         {"g", p.g},
                         {"h_div", p.h_div},
                         {"s_div", p.s_div},
                         {"dt", p.dt},
                         {"T", p.T},
                         {"distance_max", p.distance_max},
                         {"collider", {p.collider_w, p.collider_h}}};
  return json.dump();
}

}  // namespace leapnav::platformer
