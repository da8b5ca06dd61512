// Wavefront OBJ input: `v` and `f` statements into a TriangleMesh (y up, metres). Polygons are
// fan-triangulated from their first vertex; everything that is not geometry (vt, vn, materials,
// groups, lines) is skipped. The whole file is read at once and numbers are parsed with
// std::from_chars. Errors name the file and line ("dungeon.obj:42: face index 17 out of range").
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/file_io.hpp"

namespace leapnav::io {

/// The axis that points up in the input file.
enum class UpAxis : std::uint8_t {
  Y,  ///< OBJ convention; vertices are taken as they are
  Z,  ///< converted once on load: (x, y, z) -> (x, z, -y), a rotation of -90 deg about x, so
      ///< handedness and triangle winding (hence which side a face faces) are preserved
};

struct AreaTable;  // leapnav/io/area_table.hpp

struct ObjOptions {
  UpAxis up = UpAxis::Y;
  /// When set, each triangle gets the area id of its material or group (AreaTable::area_of) in
  /// TriangleMesh::areas; not owned, must outlive the call.
  const AreaTable* areas = nullptr;
  /// load_obj refuses larger files (MemoryLimit); see max_file_bytes() [units: bytes]
  std::uint64_t max_bytes = default_max_file_bytes();
};

/// What parse_obj saw. Degenerate faces (a vertex repeated) are dropped and counted, not fatal.
struct ObjStats {
  std::uint64_t bytes = 0;          ///< input size [units: bytes]
  std::uint64_t lines = 0;          ///< physical lines
  std::uint64_t vertices = 0;       ///< `v` statements
  std::uint64_t faces = 0;          ///< `f` statements, dropped ones included
  std::uint64_t triangles = 0;      ///< triangles emitted (after fan triangulation)
  std::uint64_t dropped_faces = 0;  ///< faces dropped because an index repeats a vertex
  std::uint64_t unknown_lines = 0;  ///< statements with an unknown keyword, skipped
  /// With ObjOptions::areas: the table's names the file never uses ("group 'lava'",
  /// "material 'ice'"), sorted; each is also a warning (a table may serve several levels)
  std::vector<std::string> unused_area_names;
  /// The first few warnings ("a.obj:7: unknown keyword 'foo' skipped"), at most kMaxObjWarnings.
  std::vector<std::string> warnings;
};

/// Most warnings ObjStats keeps (the counters keep counting).
inline constexpr std::size_t kMaxObjWarnings = 16;

/// Largest accepted |coordinate| [units: m]; larger values would overflow the voxel grid.
inline constexpr double kMaxObjCoordinate = 1e15;

/// Parses OBJ text; `name` is used in error messages and becomes the mesh name.
/// Accepts `v x y z [w | r g b]`, `f` with 3 or more vertices written `a`, `a/b`, `a//c` or
/// `a/b/c`, negative (relative) indices, indices of vertices defined later in the file, CRLF line
/// ends (CR alone in a file without any LF), `\` line continuations and a UTF-8 byte order mark.
/// Numbers too small for a double are 0. Skips vt, vn, vp, usemtl, mtllib,
/// o, g, s, l, p, comments and blank lines silently, other keywords with a counted warning.
/// Errors (each message "name:line: ..."):
/// - ParseError: a malformed number or index, a vertex with fewer than 3 coordinates, a face with
///   fewer than 3 vertices, binary data (a NUL or other control byte) in a line;
/// - IndexOutOfRange: a face index 0 or beyond the vertices;
/// - NonFinite: a coordinate that is nan, inf or larger than kMaxObjCoordinate in magnitude;
/// - EmptyInput: no triangles (after dropping degenerate faces).
[[nodiscard]] Result<TriangleMesh> parse_obj(std::string_view text, std::string_view name,
                                             const ObjOptions& options = {},
                                             ObjStats* stats = nullptr);

/// Reads a whole OBJ file and parses it; errors name the path as given. The mesh is named after
/// the file name. IoError when the file is missing, a directory or unreadable; MemoryLimit when it
/// is larger than options.max_bytes.
[[nodiscard]] Result<TriangleMesh> load_obj(const std::filesystem::path& path,
                                            const ObjOptions& options = {},
                                            ObjStats* stats = nullptr);

}  // namespace leapnav::io
