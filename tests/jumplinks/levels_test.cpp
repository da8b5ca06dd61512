// Real levels (../shared/meshes, skipped when absent): links for the thesis configurations C1-C3
// at step 8, validated, identical for 1 and 2 threads, and checked for soundness against the
// triangles (a stride of the links in Debug-speed test runs); that stride refined (surface
// endpoints, failing links shortened or dropped) passes the exact check.
#include <doctest/doctest.h>

#include <string>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

void run_level(const char* file) {
  const auto level = test::build_shared_level(file, "thesis");
  if (!level) return;
  const TriangleMesh& triangles = level->triangles;
  const BuildConfig& config = level->config;
  const mesh::BuildOutput& built = level->built;
  JumpLinkOptions options;
  options.jumps = {kJumpC1, kJumpC2, kJumpC3};
  options.step = 8;
  std::uint64_t hashes[2] = {0, 0};
  JumpLinkSet links;
  for (const int threads : {1, 2}) {
    BuildContext jctx;
    jctx.set_threads(threads);
    auto result = build_jump_links(built.voxels.solid, built.voxels.compact, built.navmesh,
                                   config.agent, options, jctx);
    REQUIRE(result.ok());
    const Status status = validate(*result, built.navmesh);
    CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
    hashes[threads - 1] = content_hash(*result);
    links = std::move(result).value();
  }
  CHECK(hashes[0] == hashes[1]);
  std::size_t per_config[3] = {0, 0, 0};
  for (const JumpLink& l : links.links) ++per_config[l.config];
  for (const std::size_t n : per_config) CHECK(n > 0);
  // the configurations built one at a time, joined (configuration renumbered) and put in order
  // by index_links, give the same set: the per-polygon gathering equals a stable global sort
  JumpLinkSet joined;
  joined.configs = links.configs;
  for (std::size_t c = 0; c < options.jumps.size(); ++c) {
    JumpLinkOptions one = options;
    one.jumps = {options.jumps[c]};
    BuildContext jctx;
    auto single = build_jump_links(built.voxels.solid, built.voxels.compact, built.navmesh,
                                   config.agent, one, jctx);
    REQUIRE(single.ok());
    for (JumpLink l : single->links) {
      l.config = static_cast<decltype(l.config)>(c);
      joined.links.push_back(l);
    }
  }
  index_links(joined, built.navmesh.polygon_count());
  CHECK(content_hash(joined) == content_hash(links));
  // every 7th link, to keep the check fast in unoptimised builds
  JumpLinkSet subset;
  subset.configs = links.configs;
  for (std::size_t k = 0; k < links.links.size(); k += 7) subset.links.push_back(links.links[k]);
  index_links(subset, built.navmesh.polygon_count());
  const LinkCheckReport report = check_links(subset, triangles, built.navmesh, config.agent);
  MESSAGE(std::string(file) << ": " << links.links.size() << " links (C1 " << per_config[0]
                            << ", C2 " << per_config[1] << ", C3 " << per_config[2] << "), "
                            << links.memory_bytes() << " bytes; checked " << report.links_checked
                            << ", unsound " << report.links_failed << " (collision "
                            << report.collision_failures << ", landing " << report.landing_failures
                            << "), worst penetration " << report.worst_penetration);
  CHECK(report.links_checked == subset.links.size());
  CHECK(report.links_failed == 0);
  // lifted to the triangles' surface some links meet geometry (uneven floors, stairs); refined,
  // none does, and the refinement is the same for 1 and 2 threads
  std::uint64_t refined_hashes[2] = {0, 0};
  for (const int threads : {1, 2}) {
    JumpLinkSet refined = subset;
    BuildContext rctx;
    rctx.set_threads(threads);
    const auto stats =
        refine_links(refined, triangles, built.navmesh, config.agent, LinkRefineOptions{}, rctx);
    REQUIRE(stats.ok());
    REQUIRE(validate(refined, built.navmesh).ok());
    CHECK(stats->links_in == subset.links.size());
    CHECK(stats->links_failing > 0);
    CHECK(stats->links_out == refined.links.size());
    refined_hashes[threads - 1] = content_hash(refined);
    if (threads == 2) continue;
    const LinkCheckReport after = check_links(refined, triangles, built.navmesh, config.agent);
    MESSAGE(std::string(file) << ": refined " << stats->links_in
                              << " links: " << stats->links_failing << " failed on the surface ("
                              << stats->links_shortened << " shortened, " << stats->links_dropped
                              << " dropped), " << refined.links.size()
                              << " kept; check: " << after.links_failed << " failing");
    CHECK(after.links_failed == 0);
  }
  CHECK(refined_hashes[0] == refined_hashes[1]);
}

}  // namespace

TEST_SUITE("jumplinks.levels") {
  TEST_CASE("dungeon: links for C1-C3 are valid, deterministic and sound") {
    run_level("dungeon.obj");
  }
  TEST_CASE("nav_test: links for C1-C3 are valid, deterministic and sound") {
    run_level("nav_test.obj");
  }
}
