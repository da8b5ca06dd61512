// Number formatting shared by the text writers (OBJ, JSON exports, the CLI's path JSON): floats in
// their shortest round-trip decimal form, so a value written by one writer reads back bit-exact
// and prints the same in every output. And the decimal reader shared by the text readers (OBJ,
// query files), so they agree on what a number is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "leapnav/core/geometry.hpp"

namespace leapnav::io {

/// Appends the float's shortest round-trip decimal ("0.1", "2.5e-07").
void append_float(std::string& out, float value);

/// Appends an OBJ vertex line "v x y z\n" with shortest round-trip coordinates.
void append_obj_vertex(std::string& out, Vec3 v);

/// The double nearest the float's shortest round-trip decimal: a JSON library printing this
/// double prints that decimal (0.1F becomes 0.1, not 0.10000000149011612).
[[nodiscard]] double json_number(float value);

/// What parse_decimal found.
enum class DecimalParse : std::uint8_t {
  Ok,         ///< a number (nan and inf included: callers check finiteness)
  Malformed,  ///< not a decimal number as a whole (empty, trailing bytes, "++1")
  Overflow,   ///< a number too large for a double
};

/// Parses a whole token as a decimal double (std::from_chars's general format, plus a leading
/// '+'). A number too small for a double is 0 however it is written (1e-400, 0.<400 zeros>1).
[[nodiscard]] DecimalParse parse_decimal(std::string_view token, double& out);

}  // namespace leapnav::io
