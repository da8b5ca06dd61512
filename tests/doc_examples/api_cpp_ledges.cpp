// docs/api.md, the C++ block on ledge links. Given: `level`, a floor slab and a slab 1.25 m higher
// across a 0.5 m gap (tests/consumer_c's ledge scene); `built` and `links` as the first C++ block
// makes them (C2, step 4) with the thesis configuration and agent.max_jump_up 1.5 m, `ctx`; low
// on the floor, high on the upper slab; `fail` prints the message and ends the example with 1.
// Checks: two ledge links (a jump up and a drop); the path without jumps climbs by the jump up;
// the saved file loads with them.
#include <memory>

#include "doc_scenes.hpp"

namespace {
int fail(const leapnav::Error& error) {
  std::fprintf(stderr, "api_cpp_ledges: %s\n", error.message.c_str());
  return 1;
}
}  // namespace

int main() {
  leapnav::TriangleMesh level;
  level.name = "rise";
  doc::add_box(level, {0.0F, -0.5F, 0.0F}, {8.0F, 0.0F, 8.0F});
  doc::add_box(level, {8.5F, 0.75F, 0.0F}, {16.5F, 1.25F, 8.0F});
  const leapnav::Vec3 low{2.0F, 0.0F, 3.0F}, high{14.0F, 1.25F, 3.0F};
  auto config = leapnav::io::parse_config_json(
      R"({"base": "thesis", "agent": {"max_jump_up": 1.5}})", "rise.json");
  if (!config) return fail(config.error());
  leapnav::BuildContext ctx;
  auto built = leapnav::mesh::build_navmesh(level, *config, ctx);
  if (!built) return fail(built.error());
  leapnav::jump::SoundLinkOptions jumps;
  jumps.jumps = {{leapnav::jump::kJumpC2}, 4};
  auto links = leapnav::jump::build_sound_links(level, *built, config->agent, jumps, ctx);
  if (!links) return fail(links.error());

  // @example

  DOC_CHECK(ledges->links.size() == 2);
  bool jumped_up = false;
  for (const auto& segment : path->segments)
    jumped_up |= segment.kind == leapnav::plan::SegmentKind::JumpUp;
  DOC_CHECK(path && path->status == leapnav::plan::PathStatus::Found && jumped_up);
  DOC_CHECK(saved);
  auto file = leapnav::io::load_nav_file("level.lnav");
  DOC_CHECK(file && file->ledges && file->ledges->links.size() == 2);
  return doc::finish("api_cpp_ledges");
}
