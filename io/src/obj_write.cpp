// OBJ writer: shortest round-trip float text (std::to_chars), so reading the file back with
// parse_obj reproduces every vertex bit for bit.
#include <charconv>

#include "leapnav/io/file_io.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/io/text_format.hpp"

namespace leapnav::io {
namespace {

void append_uint(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, ec == std::errc() ? end : buffer);
}

}  // namespace

std::string to_obj_text(const TriangleMesh& mesh) {
  std::string out;
  out.reserve(mesh.vertices.size() * 32 + mesh.triangles.size() * 24 + 64);
  out += "# " + mesh.name + " (" + std::to_string(mesh.vertices.size()) + " vertices, " +
         std::to_string(mesh.triangles.size()) + " triangles), written by leapnav\n";
  for (const Vec3& v : mesh.vertices) append_obj_vertex(out, v);
  for (const auto& t : mesh.triangles) {
    out += 'f';
    for (const std::uint32_t i : t) {
      out += ' ';
      append_uint(out, std::uint64_t{i} + 1);
    }
    out += '\n';
  }
  return out;
}

Status write_obj(const TriangleMesh& mesh, const std::filesystem::path& path) {
  return write_file_atomic(path, to_obj_text(mesh));
}

}  // namespace leapnav::io
