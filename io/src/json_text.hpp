// Internal: JSON text of an input file parsed into nlohmann::json, with the errors a user can act
// on: check_json_text (core/json_check.hpp) first, then the DOM is built.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "leapnav/core/result.hpp"

namespace leapnav::io::detail {

/// `text` (the contents of the input `source`) parsed; errors are check_json_text's.
[[nodiscard]] Result<nlohmann::json> parse_json_text(std::string_view text,
                                                     std::string_view source);

}  // namespace leapnav::io::detail
