// README.md "Using the library", C++. Given: `level`, a 32 x 22 m floor (the block's start
// (1, 0, 1) and goal (30, 0, 20) lie on it); `fail` prints the message and ends the example with
// 1. Checks: the path is found.
#include "doc_scenes.hpp"

namespace {
// note: the error handling the README's block may call (docs/api.md's convention)
[[maybe_unused]] int fail(const leapnav::Error& error) {
  std::fprintf(stderr, "readme_cpp: %s\n", error.message.c_str());
  return 1;
}
}  // namespace

int main() {
  leapnav::TriangleMesh level;
  level.name = "floor";
  doc::add_box(level, {0.0F, -0.5F, 0.0F}, {32.0F, 0.0F, 22.0F});

  // note: the block's `#include <leapnav/leapnav.hpp>` lands here, where the header (#pragma once,
  // included above) adds nothing
  // @example

  DOC_CHECK(built);
  DOC_CHECK(planner);
  DOC_CHECK(path && path->status == leapnav::plan::PathStatus::Found);
  return doc::finish("readme_cpp");
}
