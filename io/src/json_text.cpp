// JSON text parsed after the SAX check of core/json_check.hpp (see json_text.hpp).
#include "json_text.hpp"

#include <string>

#include "leapnav/core/json_check.hpp"

namespace leapnav::io::detail {

Result<nlohmann::json> parse_json_text(std::string_view text, std::string_view source) {
  LEAPNAV_TRY(check_json_text(text, source));
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    // note: unreachable after a clean check of the same text; kept so that no exception of the
    // parser ever leaves the library
    return make_error(ErrorCode::ParseError, std::string(source) + ": malformed JSON: " + e.what());
  }
}

}  // namespace leapnav::io::detail
