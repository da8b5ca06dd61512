// Built-in scenes ("builtin:demo", "builtin:city:N"), the scene spec resolver used by the CLI and
// benches, and an OBJ writer. Scenes are built from SceneBuilder solids, so they are closed and
// outward-wound, and they are deterministic: the same spec gives the same bytes on every run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/obj.hpp"

namespace leapnav::io {

/// Largest N of "city:N".
inline constexpr int kMaxCityBlocks = 256;

/// A built-in scene by spec (without the "builtin:" prefix):
/// - "demo": a 40 x 40 m test level for the default agent (height 2, radius 0.6, climb 0.9): a
///   plaza with a raised platform (2 m) reached by a 30 deg ramp and faced by a 50 deg ramp, a
///   sunken courtyard (-3 m) with stairs down and a bridge across it, a second storey (3 m) on
///   pillars reached by stairs, free-standing pillars, a low overhang (1.3 m), low walls of
///   0.6, 1.0 and 1.2 m, and a pit (-4 m) crossed by stepping stones with gaps of 1, 2, 4 and 6 m,
///   with stairs back up.
/// - "city:N" (N in 1..kMaxCityBlocks): N x N blocks of 40 m (30 m blocks, 10 m streets), each
///   with a ground tile, a kerb slab and four flat-roofed buildings with a roof hut, separated by
///   gaps of 1 to 5 m; heights vary per building. Exactly 120 * N² triangles; area grows with N².
/// Errors: InvalidArgument naming the spec and listing the valid forms.
[[nodiscard]] Result<TriangleMesh> builtin_scene(std::string_view spec);

/// The built-in scene names: "city", "demo" (city needs ":N").
[[nodiscard]] std::vector<std::string> builtin_scene_names();

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
