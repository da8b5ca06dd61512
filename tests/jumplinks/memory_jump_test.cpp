// Memory limit of the jump-link generator: the arrays are estimated before they are allocated,
// and a limit below them makes build_jump_links return ErrorCode::MemoryLimit with a message that
// names what would not fit and the limit; a limit above them changes nothing.
#include <doctest/doctest.h>

#include <string>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/jump_links.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

// A 12 m x 12 m floor cut into 3 m polygons: many links at step 1.
test::JumpScene memory_scene() {
  test::JumpSceneBuilder builder(48, 48);
  builder.box({0, 0, 0}, {12, 1, 12});
  for (int pz = 0; pz < 4; ++pz) {
    for (int px = 0; px < 4; ++px) {
      const auto x0 = static_cast<float>(px) * 3.0F;
      const auto z0 = static_cast<float>(pz) * 3.0F;
      builder.polygon({px == 0 ? 0.25F : x0, pz == 0 ? 0.25F : z0, px == 3 ? 11.75F : x0 + 3.0F,
                       pz == 3 ? 11.75F : z0 + 3.0F, 1.0F});
    }
  }
  return builder.build();
}

Result<JumpLinkSet> build_with_limit(const test::JumpScene& scene, std::uint64_t limit,
                                     int threads) {
  BuildContext ctx;
  ctx.set_threads(threads);
  ctx.set_memory_limit(limit);
  JumpLinkOptions options;
  options.jumps = {kJumpC2};
  options.step = 1;
  return build_jump_links(scene.solid, scene.open, scene.navmesh, scene.config.agent, options, ctx);
}

}  // namespace

TEST_SUITE("jumplinks.memory") {
  TEST_CASE("a limit below the link arrays is refused with the memory error, for 1 and 2 threads") {
    const test::JumpScene scene = memory_scene();
    const auto full = build_with_limit(scene, BuildContext::default_memory_limit(), 1);
    REQUIRE(full.ok());
    const std::uint64_t link_bytes = full->links.size() * sizeof(JumpLink);
    // the grid is 48 x 48 columns: the fixed arrays take well under 100 kB
    REQUIRE(link_bytes > 1'000'000);
    for (const int threads : {1, 2}) {
      const auto refused = build_with_limit(scene, link_bytes / 4, threads);
      REQUIRE_FALSE(refused.ok());
      CHECK(refused.error().code == ErrorCode::MemoryLimit);
      const std::string& message = refused.error().message;
      CHECK_MESSAGE(message.find("jump links") != std::string::npos, message);
      CHECK_MESSAGE(message.find("memory limit") != std::string::npos, message);
    }
  }

  TEST_CASE("a tiny limit is refused at the obstacle field, before the grid-sized arrays") {
    const test::JumpScene scene = memory_scene();
    const auto refused = build_with_limit(scene, 1024, 1);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::MemoryLimit);
    CHECK_MESSAGE(refused.error().message.find("obstacle field") != std::string::npos,
                  refused.error().message);
  }

  TEST_CASE("a limit above the estimates gives the same link set") {
    const test::JumpScene scene = memory_scene();
    const auto full = build_with_limit(scene, BuildContext::default_memory_limit(), 2);
    REQUIRE(full.ok());
    // estimates are at most a few times the link arrays plus the fixed arrays
    const std::uint64_t roomy = 8 * full->links.size() * sizeof(JumpLink) + 4'000'000;
    const auto again = build_with_limit(scene, roomy, 2);
    REQUIRE(again.ok());
    CHECK(content_hash(*again) == content_hash(*full));
  }
}
