// The check every JSON input passes before it is parsed (configuration, links, area tables,
// platformer parameters, the tile links sidecar): one SAX pass that finds what a DOM parser would
// accept silently or report badly: a key given twice in one object (the DOM keeps the last), a
// number past a double (the DOM throws out_of_range, not parse_error) and malformed text (line and
// column). Internal to the project (not an installed header); nlohmann_json stays in the source.
#pragma once

#include <string_view>

#include "leapnav/core/result.hpp"

namespace leapnav {

/// Checks `text` (the contents of the input `source`); errors name `source`:
/// - malformed text: ParseError "<source>: malformed JSON: parse error at line L, column C: ...";
/// - a number past a double: InvalidArgument "<source>: <key path> = <token> is out of range
///   (not representable as a double)";
/// - a key twice in one object: InvalidArgument "<source>: <key path> is given twice".
/// Key paths join object keys with '.', array elements as "[]" ("links.[].from"). Text that
/// passes parses with nlohmann::json::parse without an exception.
[[nodiscard]] Status check_json_text(std::string_view text, std::string_view source);

}  // namespace leapnav
