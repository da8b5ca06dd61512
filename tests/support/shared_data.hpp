// Access to ../shared/meshes for tests: real levels are read from there, never copied into the
// repository; a test that needs one skips with a message when it is absent.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace leapnav::test {

/// The path of ../shared/meshes/<file>, or nullopt (after printing why) when it is absent.
[[nodiscard]] std::optional<std::filesystem::path> shared_mesh(std::string_view file);

}  // namespace leapnav::test
