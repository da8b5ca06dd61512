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
    const test::JumpScene scene = test::grid_floor_scene();
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
    const test::JumpScene scene = test::grid_floor_scene();
    const auto refused = build_with_limit(scene, 1024, 1);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::MemoryLimit);
    CHECK_MESSAGE(refused.error().message.find("obstacle field") != std::string::npos,
                  refused.error().message);
  }

  TEST_CASE("a limit above the estimates gives the same link set") {
    const test::JumpScene scene = test::grid_floor_scene();
    const auto full = build_with_limit(scene, BuildContext::default_memory_limit(), 2);
    REQUIRE(full.ok());
    // estimates are at most a few times the link arrays plus the fixed arrays
    const std::uint64_t roomy = 8 * full->links.size() * sizeof(JumpLink) + 4'000'000;
    const auto again = build_with_limit(scene, roomy, 2);
    REQUIRE(again.ok());
    CHECK(content_hash(*again) == content_hash(*full));
  }
}
