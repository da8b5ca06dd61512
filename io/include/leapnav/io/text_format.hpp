// Number formatting shared by the text writers (OBJ, JSON exports, the CLI's path JSON): floats in
// their shortest round-trip decimal form, so a value written by one writer reads back bit-exact
// and prints the same in every output.
#pragma once

#include <cstdint>
#include <string>

#include "leapnav/core/geometry.hpp"

namespace leapnav::io {

/// Appends the float's shortest round-trip decimal ("0.1", "2.5e-07").
void append_float(std::string& out, float value);

/// Appends an OBJ vertex line "v x y z\n" with shortest round-trip coordinates.
void append_obj_vertex(std::string& out, Vec3 v);

/// The double nearest the float's shortest round-trip decimal: a JSON library printing this
/// double prints that decimal (0.1F becomes 0.1, not 0.10000000149011612).
[[nodiscard]] double json_number(float value);

}  // namespace leapnav::io
