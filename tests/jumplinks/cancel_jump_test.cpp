// Cancellation of the jump-link generator: a context cancelled before the build, or from the
// progress report after the first block of sample points, makes build_jump_links return
// ErrorCode::Cancelled without finishing the search.
#include <doctest/doctest.h>

#include <string>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/jump_links.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

JumpLinkOptions cancel_options() {
  JumpLinkOptions options;
  options.jumps = {kJumpC1, kJumpC2};
  options.step = 1;
  return options;
}

}  // namespace

TEST_SUITE("jumplinks.cancel") {
  TEST_CASE("a context cancelled before the build returns Cancelled") {
    const test::JumpScene scene = test::grid_floor_scene();
    BuildContext ctx;
    ctx.request_cancel();
    const auto links = build_jump_links(scene.solid, scene.open, scene.navmesh, scene.config.agent,
                                        cancel_options(), ctx);
    REQUIRE_FALSE(links.ok());
    CHECK(links.error().code == ErrorCode::Cancelled);
    CHECK(links.error().message.find("cancelled") != std::string::npos);
  }

  TEST_CASE("cancelling at the first progress report stops the search after that block") {
    const test::JumpScene scene = test::grid_floor_scene();
    for (const int threads : {1, 2}) {
      // uncancelled, the search reports progress several times
      int reports = 0;
      {
        BuildContext ctx;
        ctx.set_threads(threads);
        ctx.set_progress_sink([&](std::string_view stage, double) {
          if (stage == "jump_search") ++reports;
        });
        const auto links = build_jump_links(scene.solid, scene.open, scene.navmesh,
                                            scene.config.agent, cancel_options(), ctx);
        REQUIRE(links.ok());
        CHECK(validate(*links, scene.navmesh).ok());
        CHECK(links->stats.sample_points > 1500);
        CHECK_FALSE(links->links.empty());
      }
      CHECK(reports > 2);
      int cancelled_reports = 0;
      BuildContext ctx;
      ctx.set_threads(threads);
      ctx.set_progress_sink([&](std::string_view stage, double) {
        if (stage != "jump_search") return;
        ++cancelled_reports;
        ctx.request_cancel();
      });
      const auto links = build_jump_links(scene.solid, scene.open, scene.navmesh,
                                          scene.config.agent, cancel_options(), ctx);
      REQUIRE_FALSE(links.ok());
      CHECK(links.error().code == ErrorCode::Cancelled);
      CHECK(cancelled_reports == 1);
    }
  }
}
