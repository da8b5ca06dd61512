// Built-in scenes ("builtin:demo", "builtin:city:N", "builtin:terrain:N" and the jump scenes), the
// scene spec resolver used by the CLI and benches, and an OBJ writer. demo, city and the jump
// scenes are built from SceneBuilder solids, so they are closed and outward-wound; terrain is an
// open height grid facing up. They are deterministic: the same spec gives the same bytes on every
// run (terrain: with the same libm).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/obj.hpp"

namespace leapnav::io {

/// Largest N of "city:N".
inline constexpr int kMaxCityBlocks = 256;
/// Largest N of "terrain:N".
inline constexpr int kMaxTerrainTiles = 256;

/// A built-in scene by spec (without the "builtin:" prefix):
/// - "demo": a 40 x 40 m test level for the default agent (height 2, radius 0.6, climb 0.9), x and
///   z in 0..40, ground solid down to y = -4.5. Its parts (x, z ranges in m; y = walkable top):
///   plaza y 0 over x 0..40, z 0..28 around a sunken courtyard x 26..36, z 2..14, y -3, with
///   stairs x 32..36, z 10.4..14 and a 3 m bridge z 6.5..9.5 across it at y 0 (2.7 m clear under
///   it); a raised platform x 2..10, z 2..10, y 2 with a 30 deg ramp up from x 13.46 (z 4.5..7.5)
///   and a 50 deg ramp (too steep) from z 11.68 (x 4.5..7.5); a second storey x 14..24, z 14..22,
///   y 3 on four pillars with stairs from x 30 (z 15..18); pillars at x 17, 20, 23, z 11; a 1.3 m
///   low overhang (a tunnel too low to enter, its roof at y 1.6) x 3..9, z 16..20; low walls 0.6,
///   1.0 and 1.2 m high at x 28, 31, 34, z 21..26; a pit y -4 over z 28..40 with a pier x 1..5,
///   z 28..39 and stepping stones x 6..10, 12..16, 20..24, 30..34, z 35..39 at y 0 (gaps 1, 2, 4
///   and 6 m), and stairs back up at x 36..40, z 28..34.4.
/// - "city:N" (N in 1..kMaxCityBlocks): N x N blocks of 40 m (30 m blocks, 10 m streets), each
///   with a ground tile, a kerb slab and four flat-roofed buildings with a 3 x 3 x 2.5 m roof hut,
///   separated by gaps of 1 to 5 m; roofs 4 to 24 m above the kerb (city_buildings gives them).
///   Block (i, j) covers x 40i..40i+40, z 40j..40j+40 with its kerb (y 0.15) at 40i+5..40i+35;
///   streets are at y 0. The ground is solid from y -1 and leaves the building footprints out:
///   the block is cut into a grid at the footprints' x and z edges and the cells not under a
///   building are merged into 13 boxes. Each building is one box from y -1 to its roof, so no
///   upward face lies inside it (the voxel stage sees surfaces, not solids: ground inside a
///   building would be a walkable floor there). Exactly 252 * N² triangles (21 boxes per block);
///   area grows with N².
/// - "terrain:N" (N in 1..kMaxTerrainTiles): N x N tiles of 40 m of smooth rolling hills, x and z
///   in 0..40N, y within about -9..9 m: a regular height grid with 1 m spacing (shared vertices,
///   two triangles per 1 m cell, every triangle facing up) sampled from a fixed sum of four sine
///   waves (wavelengths 11 to 97 m). Most slopes are walkable at 45 deg; about 11 % of the
///   triangles are steeper (up to about 58 deg). An open surface, not a closed solid. Exactly
///   3200 * N² triangles and (40N + 1)² vertices (terrain:256: 210 M triangles, about 3.8 GB).
/// - Jump scenes (jump_scenes.hpp; closed, outward-wound boxes standing on y = 0, all 6 m wide:
///   z in 0..6). The start area is x 0..8 with its top at y 1 (y 1 + D for drop), the landing
///   area lies at larger x. X is any finite value in its range; multiples of 0.25 put every edge
///   on a cell boundary of the thesis grid (cell 0.25 m). For a jump (h, d, max_fall), an agent
///   of radius r and height a, the arc y(t) = (4h/d²)(d t - t²) answers in closed form:
///   - "gap:W" (W in 0.25..16): platforms x 0..8 and 8+W..16+W, tops at y 1 (24 triangles).
///     Landing at the start's height is at t = d; edge to edge the centre travels W + 2r, so links
///     cross (both ways) when W + 2r < d and never when W + 2r > d.
///   - "rise:D" (D in 0.25..8): platforms x 0..8 (top y 1) and 8.5..16.5 (top y 1 + D), a 0.5 m
///     gap (24 triangles). The arc is at height D at t = d/2 (1 -+ sqrt(1 - D/h)): no link up
///     unless D < h, and the stretch d sqrt(1 - D/h) above D must cover the far edge with r on both
///     sides (d sqrt(1 - D/h) > 2r) while landing past it (d/2 (1 + sqrt(1 - D/h)) > 0.5 + 2r).
///   - "drop:D" (D in 0.25..8): platforms x 0..8 (top y 1 + D) and 8.5..16.5 (top y 1), a 0.5 m
///     gap (24 triangles). Down, the fall from the apex is h + D: links when h + D <= max_fall,
///     none when h + D > max_fall. Up, as rise:D.
///   - "ceiling:H" (H in 0.25..8): platforms x 0..8 and 9..17, tops at y 1, and a 0.25 m slab
///     x 7..10 with its underside H above them, y 1 + H..1.25 + H (36 triangles). A jump with
///     d <= 3 that crosses the 1 m gap (1 + 2r < d) has its apex over it, under the slab: the
///     agent's head hits the slab when h + a > H, and clears it when h + a < H. Longer, higher
///     jumps may pass over the slab instead (its top, H + 0.25, is a floor too).
///   - "wall:H" (H in 0.25..8): one floor x 0..16.5, top y 1, with a wall x 8..8.5, y 1..1 + H
///     across it (24 triangles). The centre must stay above H over x 8 - r..8.5 + r: links over it
///     when H < h and d sqrt(1 - H/h) > 0.5 + 2r, none when H >= h. A wall no higher than the
///     agent's max climb is a step: the two sides are joined by walking.
///   - "pillar": platforms x 0..8 and 9..17, tops at y 1, and a 1 x 1 m pillar filling the gap at
///     x 8..9, z 2.5..3.5, y 0..5 (36 triangles). A jump (apex below 4 m) whose straight xz line
///     passes within r of the pillar's footprint hits it: the pillar shadows what lies behind it.
///   The voxel pipeline is conservative near each threshold: a platform's edge above a drop is a
///   ledge (eroded a cell more than r), sample points are cell corners, land voxels count by
///   their centres and the agent's height is rounded up to whole cells, so links may be missing
///   up to about three cells inside a threshold.
/// Errors: InvalidArgument naming the spec and listing the valid forms.
[[nodiscard]] Result<TriangleMesh> builtin_scene(std::string_view spec);

/// The memory generating builtin_scene(spec) takes at its peak for the large generated scenes
/// ("city:N", "terrain:N"), so that a caller can check it against a memory limit before
/// generating; 0 for the other (small) scenes and for specs builtin_scene refuses [units: bytes].
[[nodiscard]] std::uint64_t builtin_scene_bytes(std::string_view spec);

/// The buildings of "city:N" (N in 1..kMaxCityBlocks, else empty), four per block, blocks in
/// rows of increasing z then x: box i spans its footprint in x and z and in y from the ground
/// tiles' bottom (-1) to its flat roof (its roof hut excluded) [units: m].
[[nodiscard]] std::vector<AABB> city_buildings(int n);

/// The built-in scene names in alphabetical order: "ceiling", "city", "demo", "drop", "gap",
/// "pillar", "rise", "terrain", "wall" (all but demo and pillar need ":N" or a value).
[[nodiscard]] std::vector<std::string> builtin_scene_names();

/// Every built-in scene spec's form with its range, as error messages list them: "demo",
/// "city:N with N in 1..256", "terrain:N with N in 1..256", the jump scene families
/// ("gap:W with W in 0.25..16", ...), "pillar".
[[nodiscard]] std::vector<std::string> builtin_scene_forms();

/// "builtin:NAME[:ARGS]" gives builtin_scene("NAME[:ARGS]"); anything else is an OBJ path read
/// with load_obj(path, options).
[[nodiscard]] Result<TriangleMesh> load_scene(std::string_view spec,
                                              const ObjOptions& options = {});

/// The mesh as OBJ text: a comment with its name, `v` lines (shortest round-trip float text) and
/// `f` lines (1-based), so parse_obj gives back identical vertices and triangles.
[[nodiscard]] std::string to_obj_text(const TriangleMesh& mesh);

/// Writes to_obj_text(mesh) to `path`; IoError naming the path when it cannot be written.
[[nodiscard]] Status write_obj(const TriangleMesh& mesh, const std::filesystem::path& path);

/// A content hash of a mesh's vertices and triangles (name excluded).
[[nodiscard]] std::uint64_t triangle_mesh_hash(const TriangleMesh& mesh);

}  // namespace leapnav::io
