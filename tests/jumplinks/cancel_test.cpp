// Cancellation of the jump-link stage through BuildContext: a cancel requested before the stage
// starts, or from another thread while it searches, makes build_jump_links return
// ErrorCode::Cancelled instead of a link set.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;

namespace {

struct CancelLevel {
  BuildConfig config;
  mesh::BuildOutput built;
};

CancelLevel cancel_level(const char* spec) {
  auto scene = io::builtin_scene(spec);
  REQUIRE(scene.ok());
  auto config = named_config("default");
  REQUIRE(config.ok());
  BuildContext ctx;
  auto built = mesh::build_navmesh(*scene, *config, ctx);
  REQUIRE(built.ok());
  return {*config, std::move(built).value()};
}

jump::JumpLinkOptions all_jumps(int step) {
  jump::JumpLinkOptions options;
  options.jumps = {jump::kJumpC1, jump::kJumpC2, jump::kJumpC3};
  options.step = step;
  return options;
}

}  // namespace

TEST_SUITE("jumplinks.cancel") {
  TEST_CASE("jump links return Cancelled when the build is already cancelled") {
    const CancelLevel level = cancel_level("demo");
    for (const int threads : {1, 2}) {
      INFO("threads " << threads);
      BuildContext ctx;
      ctx.set_threads(threads);
      ctx.request_cancel();
      const auto links =
          jump::build_jump_links(level.built.voxels.solid, level.built.voxels.compact,
                                 level.built.navmesh, level.config.agent, all_jumps(4), ctx);
      REQUIRE_FALSE(links.ok());
      CHECK(links.error().code == ErrorCode::Cancelled);
    }
  }

  TEST_CASE("the obstacle field returns Cancelled when already cancelled") {
    const CancelLevel level = cancel_level("demo");
    BuildContext ctx;
    ctx.request_cancel();
    const auto field = jump::build_obstacle_field(
        level.built.voxels.solid, level.built.voxels.compact, level.config.agent, ctx);
    REQUIRE_FALSE(field.ok());
    CHECK(field.error().code == ErrorCode::Cancelled);
  }

  TEST_CASE("a cancel from another thread stops a long jump-link build with Cancelled") {
    // note: city:2 at step 1 takes seconds even in Release, far longer than the 20 ms before the
    // cancel; a cancel that lands before the stage starts gives Cancelled too.
    const CancelLevel level = cancel_level("city:2");
    for (const int threads : {1, 2}) {
      INFO("threads " << threads);
      BuildContext ctx;
      ctx.set_threads(threads);
      std::chrono::steady_clock::time_point cancelled_at;
      std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        cancelled_at = std::chrono::steady_clock::now();
        ctx.request_cancel();
      });
      const auto links =
          jump::build_jump_links(level.built.voxels.solid, level.built.voxels.compact,
                                 level.built.navmesh, level.config.agent, all_jumps(1), ctx);
      const auto returned_at = std::chrono::steady_clock::now();
      canceller.join();
      REQUIRE_FALSE(links.ok());
      CHECK(links.error().code == ErrorCode::Cancelled);
      MESSAGE("threads "
              << threads << ": returned "
              << std::chrono::duration<double, std::milli>(returned_at - cancelled_at).count()
              << " ms after the cancel");
    }
  }
}
