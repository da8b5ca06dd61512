// Levels and checks the C++ documentation examples share: boxes made of their top face and four
// sides (no bottom), y up, metres.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <leapnav/leapnav.hpp>
#include <string>

namespace doc {

/// Appends an axis-aligned box from lo to hi (top face and four sides, two triangles each).
inline void add_box(leapnav::TriangleMesh& level, leapnav::Vec3 lo, leapnav::Vec3 hi) {
  const auto first = static_cast<std::uint32_t>(level.vertices.size());
  for (int k = 0; k < 8; ++k) {
    level.vertices.push_back(
        {(k & 1) != 0 ? hi.x : lo.x, (k & 2) != 0 ? hi.y : lo.y, (k & 4) != 0 ? hi.z : lo.z});
  }
  const std::uint32_t faces[5][4] = {
      {2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2}, {1, 3, 7, 5}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    level.triangles.push_back({first + f[0], first + f[1], first + f[2]});
    level.triangles.push_back({first + f[0], first + f[2], first + f[3]});
  }
}

/// Two 8 x 8 m slabs 0.5 m thick, top at y = 0, x 0..8 and 10..18, z 0..8: a 2 m gap that a C2
/// jump crosses and a walk does not.
inline leapnav::TriangleMesh two_slabs() {
  leapnav::TriangleMesh level;
  level.name = "two-slabs";
  add_box(level, {0.0F, -0.5F, 0.0F}, {8.0F, 0.0F, 8.0F});
  add_box(level, {10.0F, -0.5F, 0.0F}, {18.0F, 0.0F, 8.0F});
  return level;
}

/// Writes the level as an OBJ file (what `leapnav build level.obj` reads).
inline void write_obj(const leapnav::TriangleMesh& level, const std::string& path) {
  std::ofstream obj(path);
  obj.precision(9);
  for (const auto& v : level.vertices) obj << "v " << v.x << ' ' << v.y << ' ' << v.z << '\n';
  for (const auto& t : level.triangles)
    obj << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
}

inline int failures = 0;

/// Counts and prints a failed check of what the documentation says.
inline void check(bool holds, const char* claim, int line) {
  if (!holds) {
    std::fprintf(stderr, "line %d: %s does not hold\n", line, claim);
    ++failures;
  }
}

/// Runs `leapnav <arguments>` (the command in $LEAPNAV_CLI); false when it is not set (the
/// comparison is skipped with a message) or the command fails.
inline bool run_cli(const std::string& arguments) {
  const char* cli = std::getenv("LEAPNAV_CLI");
  if (cli == nullptr || *cli == '\0') {
    std::printf("LEAPNAV_CLI not set: skipped `leapnav %s`\n", arguments.c_str());
    return false;
  }
  const std::string command = std::string(cli) + ' ' + arguments + " >/dev/null";
  return std::system(command.c_str()) == 0;
}

/// The bytes of a file ("" when it cannot be read).
inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline int finish(const char* name) {
  if (failures == 0) std::printf("%s: the example runs and does what the text says\n", name);
  return failures == 0 ? 0 : 1;
}

}  // namespace doc

#define DOC_CHECK(cond) doc::check(static_cast<bool>(cond), #cond, __LINE__)
