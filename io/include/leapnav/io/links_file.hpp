// Authored links as JSON (`leapnav build --links FILE`):
//   {"ladders": [{"bottom": [x, y, z], "top": [x, y, z]}, ...], "climb_speed": 0.5}
// "climb_speed" is optional (ledge::LadderOptions); unknown keys are errors.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/ledgelinks/ladders.hpp"

namespace leapnav::io {

struct AuthoredLinks {
  std::vector<ledge::Ladder> ladders;
  ledge::LadderOptions ladder_options;
};

/// Parses the JSON text; `source` names it in messages. ParseError for malformed JSON,
/// InvalidArgument naming the key or the ladder index for anything else (a missing end, a point
/// that is not three finite numbers, an unknown key, a climb_speed that is not > 0).
[[nodiscard]] Result<AuthoredLinks> parse_links_json(std::string_view text,
                                                     std::string_view source);

/// Reads and parses a links file (at most max_bytes).
[[nodiscard]] Result<AuthoredLinks> load_links_file(const std::filesystem::path& path,
                                                    std::uint64_t max_bytes);

}  // namespace leapnav::io
