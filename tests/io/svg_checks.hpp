// Checks shared by the SVG tests: substring counts, and every coordinate in a picture finite and
// inside its bounds.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

namespace leapnav::test {

inline std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Every number in a coordinate attribute is finite and inside the picture.
inline void check_numbers(const std::string& svg) {
  const auto size_of = [&](std::string_view key) {
    const std::size_t at = svg.find(key);
    REQUIRE(at != std::string::npos);
    return std::strtod(svg.c_str() + at + key.size(), nullptr);
  };
  const double width = size_of("width=\"");
  const double height = size_of("height=\"");
  CHECK(width > 0);
  CHECK(height > 0);
  int checked = 0;
  for (const std::string_view key :
       {" points=\"", " x1=\"", " y1=\"", " x2=\"", " y2=\"", " cx=\"", " cy=\""}) {
    for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
      const char* p = svg.c_str() + at + key.size();
      while (*p != '"') {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        REQUIRE(end != p);
        CHECK(std::isfinite(v));
        CHECK(v >= -1.0);
        CHECK(v <= std::max(width, height) + 1.0);
        ++checked;
        p = end;
        while (*p == ',' || *p == ' ') ++p;
      }
    }
  }
  CHECK(checked > 0);
}

}  // namespace leapnav::test
