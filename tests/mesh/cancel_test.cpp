// Cancellation of the navmesh build through BuildContext: a cancel requested from the progress
// callback (after any number of calls), from another thread, or before a stage starts makes the
// build return ErrorCode::Cancelled instead of a navmesh.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <utility>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/contours.hpp"
#include "leapnav/mesh/heights.hpp"
#include "leapnav/mesh/polygons.hpp"
#include "leapnav/mesh/regions.hpp"
#include "leapnav/mesh/span_map.hpp"

using namespace leapnav;

namespace {

TriangleMesh cancel_scene() {
  auto mesh = io::builtin_scene("demo");
  REQUIRE(mesh.ok());
  return std::move(mesh).value();
}

BuildConfig cancel_config() {
  auto config = named_config("default");
  REQUIRE(config.ok());
  return *config;
}

}  // namespace

TEST_SUITE("mesh.cancel") {
  TEST_CASE("a build cancelled from the progress callback after any number of calls is Cancelled") {
    const TriangleMesh scene = cancel_scene();
    const BuildConfig config = cancel_config();
    int calls = 0;
    {
      BuildContext live;
      live.set_progress_sink([&](std::string_view, double) { ++calls; });
      REQUIRE(mesh::build_navmesh(scene, config, live).ok());
    }
    REQUIRE(calls >= 2);
    for (int n = 1; n <= calls; ++n) {
      INFO("cancelled at progress call " << n << " of " << calls);
      BuildContext ctx;
      ctx.set_threads(2);
      int seen = 0;
      int after_cancel = 0;
      ctx.set_progress_sink([&](std::string_view, double) {
        if (ctx.cancelled()) ++after_cancel;
        if (++seen == n) ctx.request_cancel();
      });
      const auto out = mesh::build_navmesh(scene, config, ctx);
      REQUIRE_FALSE(out.ok());
      CHECK(out.error().code == ErrorCode::Cancelled);
      CHECK(after_cancel <= 1);
    }
  }

  TEST_CASE("a cancel from another thread while the build runs gives Cancelled") {
    const TriangleMesh scene = cancel_scene();
    const BuildConfig config = cancel_config();
    BuildContext ctx;
    ctx.set_threads(2);
    std::atomic<bool> voxels_done{false};
    std::atomic<bool> cancel_sent{false};
    ctx.set_progress_sink([&](std::string_view, double fraction) {
      if (fraction < 1.0) return;
      voxels_done.store(true);
      // note: holds the build until the other thread has cancelled, so the cancel lands mid-build
      while (!cancel_sent.load()) std::this_thread::yield();
    });
    std::thread canceller([&] {
      while (!voxels_done.load()) std::this_thread::yield();
      ctx.request_cancel();
      cancel_sent.store(true);
    });
    const auto out = mesh::build_navmesh(scene, config, ctx);
    canceller.join();
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == ErrorCode::Cancelled);
  }

  TEST_CASE("every mesh stage returns Cancelled when the build is already cancelled") {
    const TriangleMesh scene = cancel_scene();
    const BuildConfig config = cancel_config();
    const VoxelParams params = derive_voxel_params(config);
    BuildContext live;
    auto built = mesh::build_navmesh(scene, config, live);
    REQUIRE(built.ok());
    auto polygons = mesh::build_polygons(built->contours, params, live);
    REQUIRE(polygons.ok());
    polygons->config = config;
    BuildContext ctx;
    ctx.request_cancel();
    const auto regions = mesh::build_regions(built->voxels.compact, params, ctx);
    CHECK((!regions.ok() && regions.error().code == ErrorCode::Cancelled));
    const auto contours = mesh::build_contours(built->voxels.compact, built->regions, params, ctx);
    CHECK((!contours.ok() && contours.error().code == ErrorCode::Cancelled));
    const auto polys = mesh::build_polygons(built->contours, params, ctx);
    CHECK((!polys.ok() && polys.error().code == ErrorCode::Cancelled));
    const auto heights =
        mesh::build_heights(*polygons, built->voxels.compact, built->regions, params, ctx);
    CHECK((!heights.ok() && heights.error().code == ErrorCode::Cancelled));
    const auto map = mesh::build_span_map(*polygons, built->voxels.compact, built->regions, ctx);
    CHECK((!map.ok() && map.error().code == ErrorCode::Cancelled));
  }
}
