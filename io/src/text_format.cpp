// Shortest round-trip float formatting (std::to_chars) for the text writers, and the decimal
// number reader of the text readers (std::from_chars, with underflow taken as 0).
#include "leapnav/io/text_format.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <system_error>

namespace leapnav::io {
namespace {

/// The power of ten of a well-formed decimal's first significant digit (0 for 1.5, -3 for
/// 0.00123, 5 for 1.2e5), clamped to +-1e9; 0 when it has no nonzero digit.
std::int64_t decimal_exponent(std::string_view number) {
  std::size_t i = 0;
  if (i < number.size() && (number[i] == '-' || number[i] == '+')) ++i;
  std::int64_t integer_digits = 0;  // significant digits before the point
  std::int64_t leading_zeros = 0;   // zeros after the point before the first nonzero digit
  bool significant = false;
  for (; i < number.size() && number[i] >= '0' && number[i] <= '9'; ++i) {
    if (number[i] != '0') significant = true;
    if (significant) ++integer_digits;
  }
  if (i < number.size() && number[i] == '.') {
    for (++i; i < number.size() && number[i] >= '0' && number[i] <= '9'; ++i) {
      if (number[i] != '0') significant = true;
      if (!significant) ++leading_zeros;
    }
  }
  if (!significant) return 0;
  std::int64_t exponent = 0;
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    ++i;
    const bool negative = i < number.size() && number[i] == '-';
    if (i < number.size() && (number[i] == '-' || number[i] == '+')) ++i;
    for (; i < number.size() && number[i] >= '0' && number[i] <= '9'; ++i)
      exponent = std::min<std::int64_t>(exponent * 10 + (number[i] - '0'), 1'000'000'000);
    if (negative) exponent = -exponent;
  }
  return exponent + (integer_digits > 0 ? integer_digits - 1 : -leading_zeros - 1);
}

}  // namespace

DecimalParse parse_decimal(std::string_view token, double& out) {
  const char* first = token.data();
  const char* last = first + token.size();
  // note: from_chars rejects a leading '+', which some exporters write.
  if (first != last && *first == '+') {
    ++first;
    if (first != last && (*first == '+' || *first == '-')) return DecimalParse::Malformed;
  }
  if (first == last) return DecimalParse::Malformed;
  const auto [end, ec] = std::from_chars(first, last, out);
  if (end != last) return DecimalParse::Malformed;
  if (ec == std::errc::result_out_of_range) {
    // note: a number too small for a double underflows to 0 (1e-400 and 0.<400 zeros>1 alike);
    // one too large overflows.
    if (decimal_exponent(std::string_view(first, static_cast<std::size_t>(last - first))) < 0) {
      out = 0.0;
      return DecimalParse::Ok;
    }
    return DecimalParse::Overflow;
  }
  return ec == std::errc() ? DecimalParse::Ok : DecimalParse::Malformed;
}

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
