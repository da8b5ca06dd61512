// Built-in scenes with closed-form jump-link answers (thesis Definition 4.5): two platforms across
// a gap, a higher or lower platform, a ceiling over a gap, a wall across a floor and a pillar in a
// gap, each from SceneBuilder boxes (closed, outward-wound). Every fixed dimension is a whole
// number of 0.25 m cells and every scene's bounds start at (0, 0, 0), so on the thesis grid
// (cell size and height 0.25 m) every edge falls on a cell boundary when the parameter does too.
#pragma once

#include <span>
#include <string_view>

#include "leapnav/core/triangle_mesh.hpp"

namespace leapnav::io {

/// Start platform (or start side of the floor): x in 0..kJumpPlatformLength [units: m].
inline constexpr float kJumpPlatformLength = 8.0F;
/// Every platform, floor, slab and wall spans z in 0..kJumpSceneWidth [units: m].
inline constexpr float kJumpSceneWidth = 6.0F;
/// Top of the start platform (and of every platform not raised by the parameter); every solid
/// stands on y = 0 [units: m].
inline constexpr float kJumpFloorTop = 1.0F;
/// The gap between the platforms of "rise:D" and "drop:D" [units: m].
inline constexpr float kJumpStepGap = 0.5F;
/// The gap of "ceiling:H" and "pillar" [units: m].
inline constexpr float kJumpWideGap = 1.0F;
/// How far the slab of "ceiling:H" reaches over each platform beyond the gap [units: m].
inline constexpr float kJumpSlabOverhang = 1.0F;
/// Thickness of the slab of "ceiling:H" [units: m].
inline constexpr float kJumpSlabThickness = 0.25F;
/// Thickness along x of the wall of "wall:H", whose near face is at x = kJumpPlatformLength
/// [units: m].
inline constexpr float kJumpWallThickness = 0.5F;
/// The pillar of "pillar": x in the gap (8..9), z in kJumpPillarZ..kJumpPillarZ + 1, from y 0 to
/// kJumpFloorTop + kJumpPillarHeight [units: m].
inline constexpr float kJumpPillarZ = 2.5F;
inline constexpr float kJumpPillarHeight = 4.0F;

/// One parametric family "NAME:X" of jump scenes; X must lie in [min, max].
struct JumpSceneFamily {
  std::string_view name;       ///< "gap", "rise", "drop", "ceiling" or "wall"
  std::string_view parameter;  ///< the parameter's letter in the spec ("W", "D" or "H")
  float min = 0.0F;            ///< smallest X [units: m]
  float max = 0.0F;            ///< largest X [units: m]
  /// Builds the scene for an X in [min, max] (LEAPNAV_ASSERT otherwise: specs are checked by
  /// builtin_scene before it calls this).
  TriangleMesh (*build)(float x) = nullptr;
};

/// The parametric jump scene families in alphabetical order: ceiling, drop, gap, rise, wall.
[[nodiscard]] std::span<const JumpSceneFamily> jump_scene_families();

/// "gap:W": the start platform x 0..8 and a second one x 8+W..16+W, both y 0..1 (24 triangles).
[[nodiscard]] TriangleMesh gap_scene(float gap);
/// "rise:D": the start platform x 0..8, y 0..1 and a second one x 8.5..16.5, y 0..1+D (24).
[[nodiscard]] TriangleMesh rise_scene(float rise);
/// "drop:D": the start platform x 0..8, y 0..1+D and a second one x 8.5..16.5, y 0..1 (24).
[[nodiscard]] TriangleMesh drop_scene(float drop);
/// "ceiling:H": platforms x 0..8 and 9..17, y 0..1, and a slab x 7..10, y 1+H..1.25+H (36).
[[nodiscard]] TriangleMesh ceiling_scene(float clearance);
/// "wall:H": a floor x 0..16.5, y 0..1 and a wall x 8..8.5, y 1..1+H on it (24).
[[nodiscard]] TriangleMesh wall_scene(float height);
/// "pillar": platforms x 0..8 and 9..17, y 0..1, and a pillar x 8..9, z 2.5..3.5, y 0..5 (36).
[[nodiscard]] TriangleMesh pillar_scene();

}  // namespace leapnav::io
