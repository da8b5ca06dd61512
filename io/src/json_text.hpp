// Internal: JSON text of an input file parsed into nlohmann::json, with the errors a user can act
// on. One SAX pass checks what the DOM parser would accept silently or report badly: a key given
// twice in one object (the DOM keeps the last), a number past a double (the DOM throws
// out_of_range, not parse_error) and malformed text (line and column); then the DOM is built.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "leapnav/core/result.hpp"

namespace leapnav::io::detail {

/// `text` (the contents of the input `source`) parsed; errors name `source`:
/// - malformed text: ParseError "<source>: malformed JSON: parse error at line L, column C: ...";
/// - a number past a double: InvalidArgument "<source>: <key path> = <token> is out of range
///   (not representable as a double)";
/// - a key twice in one object: InvalidArgument "<source>: <key path> is given twice".
/// Key paths join object keys with '.', array elements as "[]" ("links.[].from").
[[nodiscard]] Result<nlohmann::json> parse_json_text(std::string_view text,
                                                     std::string_view source);

}  // namespace leapnav::io::detail
