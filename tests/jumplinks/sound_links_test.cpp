// The untiled link pipeline in one call (sound_links.hpp) on a closed-form gap scene: every link
// of the compact and the full set passes the exact check, the sets are those of the four stages
// run one after the other (as the CLI ran them before) for any thread count, and bad options are
// refused before any work with the field named.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/link_check.hpp"
#include "leapnav/jumplinks/link_compact.hpp"
#include "leapnav/jumplinks/link_filter.hpp"
#include "leapnav/jumplinks/link_refine.hpp"
#include "leapnav/jumplinks/sound_links.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

// Two 6 x 6 m platforms 1 m high with a 1.5 m gap along x: no walk joins them.
TriangleMesh gap_scene() {
  io::SceneBuilder scene("gap");
  scene.add_box({0.0F, 0.0F, 0.0F}, {6.0F, 1.0F, 6.0F});
  scene.add_box({7.5F, 0.0F, 0.0F}, {13.5F, 1.0F, 6.0F});
  return scene.take();
}

SoundLinkOptions c2_options(bool compact) {
  SoundLinkOptions options;
  options.jumps.jumps = {kJumpC2};
  options.jumps.step = 4;
  options.compact = compact;
  return options;
}

struct Built {
  TriangleMesh level;
  BuildConfig config;
  mesh::BuildOutput out;
};

Built build_gap() {
  Built b{gap_scene(), named_config("default").value(), {}};
  BuildContext ctx;
  auto out = mesh::build_navmesh(b.level, b.config, ctx);
  REQUIRE(out.ok());
  b.out = std::move(out).value();
  return b;
}

}  // namespace

TEST_SUITE("jumplinks.sound_links") {
  TEST_CASE("every link of the compact and the full set passes the exact check on a gap scene") {
    const Built b = build_gap();
    BuildContext ctx;
    auto full = build_sound_links(b.level, b.out, b.config.agent, c2_options(false), ctx);
    auto compact = build_sound_links(b.level, b.out, b.config.agent, c2_options(true), ctx);
    REQUIRE(full.ok());
    REQUIRE(compact.ok());
    CHECK(validate(full->set, b.out.navmesh).ok());
    CHECK(validate_compact(compact->set, b.out.navmesh).ok());
    CHECK(full->set.quantum == 0.0F);
    CHECK(!full->compact.has_value());
    REQUIRE(compact->compact.has_value());
    CHECK(compact->compact->links_out == compact->set.links.size());
    // no walk crosses the gap, so the filter keeps every link
    CHECK(full->filter.links_dropped == 0);
    CHECK(full->refine.links_out == full->set.links.size());
    CHECK(!compact->set.links.empty());
    CHECK(compact->set.links.size() <= full->set.links.size());
    for (const SoundLinks* s : {&*full, &*compact}) {
      const LinkCheckReport report = check_links(s->set, b.level, b.out.navmesh, b.config.agent);
      CHECK(report.links_checked == s->set.links.size());
      CHECK(report.links_failed == 0);
      // every link crosses the gap [6, 7.5]: it starts on one platform and lands on the other
      for (const JumpLink& l : s->set.links) {
        const bool near = l.start.x <= 6.0F;
        CHECK((near || l.start.x >= 7.5F));
        CHECK((near ? l.land_a.x >= 7.5F && l.land_b.x >= 7.5F
                    : l.land_a.x <= 6.0F && l.land_b.x <= 6.0F));
      }
    }
  }

  TEST_CASE("the sets are the stages' run one after the other, for 1 and 2 threads") {
    const Built b = build_gap();
    for (const bool compact : {false, true}) {
      const SoundLinkOptions options = c2_options(compact);
      BuildContext one;
      one.set_threads(1);
      auto links = build_jump_links(b.out.voxels.solid, b.out.voxels.compact, b.out.navmesh,
                                    b.config.agent, options.jumps, one);
      REQUIRE(links.ok());
      REQUIRE(filter_walkable_links(*links, b.out.navmesh, options.filter, one).ok());
      REQUIRE(
          refine_links(*links, b.level, b.out.navmesh, b.config.agent, options.refine, one).ok());
      JumpLinkSet by_hand = std::move(links).value();
      if (compact) {
        auto packed = compact_links(by_hand, b.level, b.out.navmesh, b.config.agent,
                                    options.compact_options, one);
        REQUIRE(packed.ok());
        by_hand = std::move(packed->set);
      }
      BuildContext two;
      two.set_threads(2);
      auto sound = build_sound_links(b.level, b.out, b.config.agent, options, two);
      REQUIRE(sound.ok());
      CHECK(content_hash(sound->set) == content_hash(by_hand));
      CHECK(sound->set.links == by_hand.links);
    }
  }

  TEST_CASE("bad options are refused with the field named") {
    const Built b = build_gap();
    BuildContext ctx;
    SoundLinkOptions none = c2_options(true);
    none.jumps.jumps.clear();
    auto empty = build_sound_links(b.level, b.out, b.config.agent, none, ctx);
    REQUIRE(!empty.ok());
    CHECK(empty.error().code == ErrorCode::InvalidArgument);
    SoundLinkOptions detour = c2_options(true);
    detour.compact_options.detour = -1.0F;
    auto bad_detour = build_sound_links(b.level, b.out, b.config.agent, detour, ctx);
    REQUIRE(!bad_detour.ok());
    CHECK(bad_detour.error().message.find("detour") != std::string::npos);
    SoundLinkOptions slack = c2_options(false);
    slack.filter.slack = -1.0F;
    auto bad_slack = build_sound_links(b.level, b.out, b.config.agent, slack, ctx);
    REQUIRE(!bad_slack.ok());
    CHECK(bad_slack.error().message.find("slack") != std::string::npos);
    SoundLinkOptions piece = c2_options(false);
    piece.refine.min_piece = -1.0F;
    auto bad_piece = build_sound_links(b.level, b.out, b.config.agent, piece, ctx);
    REQUIRE(!bad_piece.ok());
    CHECK(bad_piece.error().message.find("min_piece") != std::string::npos);
  }
}
