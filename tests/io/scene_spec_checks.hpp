// Shared check of the built-in scene generator's refusals (scenes_test and jump_scenes_test).
#pragma once

#include <doctest/doctest.h>

#include <span>
#include <string>
#include <utility>

#include "leapnav/io/scenes.hpp"

namespace leapnav::test {

/// The list of valid forms every refused built-in scene spec's message ends with.
inline constexpr const char* kValidSceneSpecs =
    " (valid: demo, city:N with N in 1..256, terrain:N with N in 1..256, ceiling:H with H in "
    "0.25..8, drop:D with D in 0.25..8, gap:W with W in 0.25..16, rise:D with D in 0.25..8, wall:H "
    "with H in 0.25..8, pillar)";

/// Each (spec, message): builtin_scene(spec) fails with InvalidArgument and exactly message +
/// kValidSceneSpecs, and load_scene("builtin:" + spec) fails with the same message.
inline void check_refused_scene_specs(std::span<const std::pair<const char*, const char*>> cases) {
  for (const auto& [spec_text, message_text] : cases) {
    // note: named copies, since clang cannot capture structured bindings in CAPTURE's lambda
    const std::string spec = spec_text;
    const std::string message = message_text;
    CAPTURE(spec);
    const auto result = io::builtin_scene(spec);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == ErrorCode::InvalidArgument);
    CHECK(result.error().message == message + kValidSceneSpecs);
    const auto loaded = io::load_scene("builtin:" + spec);
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.error().message == result.error().message);
  }
}

}  // namespace leapnav::test
