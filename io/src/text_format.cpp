// Shortest round-trip float formatting (std::to_chars) for the text writers.
#include "leapnav/io/text_format.hpp"

#include <charconv>
#include <cstdlib>
#include <system_error>

namespace leapnav::io {

void append_float(std::string& out, float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, ec == std::errc() ? end : buffer);
}

void append_obj_vertex(std::string& out, Vec3 v) {
  out += "v ";
  append_float(out, v.x);
  out += ' ';
  append_float(out, v.y);
  out += ' ';
  append_float(out, v.z);
  out += '\n';
}

double json_number(float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc()) return static_cast<double>(value);
  *end = '\0';
  return std::strtod(buffer, nullptr);
}

}  // namespace leapnav::io
