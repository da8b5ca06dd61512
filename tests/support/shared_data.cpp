#include "support/shared_data.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

namespace leapnav::test {

std::optional<std::filesystem::path> shared_mesh(std::string_view file) {
  std::filesystem::path dir = LEAPNAV_SHARED_DIR;
  if (const char* env = std::getenv("LEAPNAV_SHARED_DIR"); env != nullptr && *env != '\0')
    dir = env;
  const std::filesystem::path path = dir / "meshes" / std::string(file);
  if (!std::filesystem::is_regular_file(path)) {
    MESSAGE("skipped: " << path.string() << " is absent (the shared test levels are not here)");
    return std::nullopt;
  }
  return path;
}

}  // namespace leapnav::test
