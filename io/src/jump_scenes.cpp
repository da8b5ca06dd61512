// Jump-link test scenes with closed-form answers (see jump_scenes.hpp and builtin_scene): axis-
// aligned SceneBuilder boxes standing on y = 0, so every solid is closed and outward-wound and
// every walkable top is one flat, upward face. Fixed arithmetic only: the same parameter gives the
// same triangles on every run. Names are "builtin:" + the spec, the parameter in its shortest
// round-trip decimal form.
#include "leapnav/io/jump_scenes.hpp"

#include <array>
#include <cmath>
#include <string>

#include "leapnav/core/assert.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/text_format.hpp"

namespace leapnav::io {
namespace {

constexpr float kL = kJumpPlatformLength;
constexpr float kZ = kJumpSceneWidth;
constexpr float kTop = kJumpFloorTop;

constexpr std::array<JumpSceneFamily, 5> kFamilies = {{
    {"ceiling", "H", 0.25F, 8.0F, &ceiling_scene},
    {"drop", "D", 0.25F, 8.0F, &drop_scene},
    {"gap", "W", 0.25F, 16.0F, &gap_scene},
    {"rise", "D", 0.25F, 8.0F, &rise_scene},
    {"wall", "H", 0.25F, 8.0F, &wall_scene},
}};

/// A builder named "builtin:NAME:X" after checking X against the family's range.
SceneBuilder named_builder(std::string_view family, float x) {
  [[maybe_unused]] bool known = false;
  for (const JumpSceneFamily& f : kFamilies) {
    if (f.name != family) continue;
    known = true;
    LEAPNAV_ASSERT(std::isfinite(x) && x >= f.min && x <= f.max,
                   "jump scene parameter outside its documented range");
  }
  LEAPNAV_ASSERT(known, "unknown jump scene family");
  std::string name = "builtin:" + std::string(family) + ":";
  append_float(name, x);
  return SceneBuilder(std::move(name));
}

/// The start platform x 0..8, z 0..6, y 0..top.
void add_start_platform(SceneBuilder& b, float top) {
  b.add_box({0.0F, 0.0F, 0.0F}, {kL, top, kZ});
}

/// A second platform kL long starting at x = x0, y 0..top.
void add_far_platform(SceneBuilder& b, float x0, float top) {
  b.add_box({x0, 0.0F, 0.0F}, {x0 + kL, top, kZ});
}

}  // namespace

std::span<const JumpSceneFamily> jump_scene_families() {
  return kFamilies;
}

TriangleMesh gap_scene(float gap) {
  SceneBuilder b = named_builder("gap", gap);
  add_start_platform(b, kTop);
  add_far_platform(b, kL + gap, kTop);
  return b.take();
}

TriangleMesh rise_scene(float rise) {
  SceneBuilder b = named_builder("rise", rise);
  add_start_platform(b, kTop);
  add_far_platform(b, kL + kJumpStepGap, kTop + rise);
  return b.take();
}

TriangleMesh drop_scene(float drop) {
  SceneBuilder b = named_builder("drop", drop);
  add_start_platform(b, kTop + drop);
  add_far_platform(b, kL + kJumpStepGap, kTop);
  return b.take();
}

TriangleMesh ceiling_scene(float clearance) {
  SceneBuilder b = named_builder("ceiling", clearance);
  add_start_platform(b, kTop);
  add_far_platform(b, kL + kJumpWideGap, kTop);
  const float bottom = kTop + clearance;
  b.add_box({kL - kJumpSlabOverhang, bottom, 0.0F},
            {kL + kJumpWideGap + kJumpSlabOverhang, bottom + kJumpSlabThickness, kZ});
  return b.take();
}

TriangleMesh wall_scene(float height) {
  SceneBuilder b = named_builder("wall", height);
  // note: the wall stands on the floor's top face; the voxel stage merges the two touching spans
  // of each column under the wall into one, whose top is the wall's
  b.add_box({0.0F, 0.0F, 0.0F}, {2.0F * kL + kJumpWallThickness, kTop, kZ});
  b.add_box({kL, kTop, 0.0F}, {kL + kJumpWallThickness, kTop + height, kZ});
  return b.take();
}

TriangleMesh pillar_scene() {
  SceneBuilder b("builtin:pillar");
  add_start_platform(b, kTop);
  add_far_platform(b, kL + kJumpWideGap, kTop);
  b.add_box({kL, 0.0F, kJumpPillarZ},
            {kL + kJumpWideGap, kTop + kJumpPillarHeight, kJumpPillarZ + 1.0F});
  return b.take();
}

}  // namespace leapnav::io
