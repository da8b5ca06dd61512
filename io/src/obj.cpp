// OBJ reader: one pass over the whole text, lines split with memchr, numbers parsed with
// std::from_chars (no streams, no allocation per line). Faces are fan-triangulated from their first
// vertex; forward references are resolved at the end, so every error can still name its line.
#include "leapnav/io/obj.hpp"

#include "leapnav/io/area_table.hpp"
#include "leapnav/io/text_format.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <system_error>

namespace leapnav::io {
namespace {

constexpr bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// A control byte that never occurs in a text OBJ file.
constexpr bool is_binary(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && !is_blank(c)) || u == 0x7F;
}

/// Removes the next blank-separated token from `rest`; empty when there is none.
std::string_view next_token(std::string_view& rest) {
  std::size_t i = 0;
  while (i < rest.size() && is_blank(rest[i])) ++i;
  std::size_t j = i;
  while (j < rest.size() && !is_blank(rest[j])) ++j;
  const std::string_view token = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return token;
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

/// Quotes a token for a message, shortened and with unprintable bytes escaped.
std::string quoted(std::string_view token) {
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < 40; ++i) {
    const auto u = static_cast<unsigned char>(token[i]);
    if (u < 0x20 || u >= 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4U];
      out += kHex[u & 0xFU];
    } else {
      out += token[i];
    }
  }
  if (token.size() > 40) out += "...";
  return out + "'";
}

/// Parses an integer at [p, last) and advances p; false when there is none.
bool parse_int(const char*& p, const char* last, std::int64_t& out) {
  const char* first = p;
  if (first != last && *first == '+') {
    ++first;
    if (first != last && *first == '-') return false;
  }
  const auto [end, ec] = std::from_chars(first, last, out);
  if (ec != std::errc() || end == first) return false;
  p = end;
  return true;
}

/// Keywords that carry nothing a navmesh needs and are skipped without a warning.
bool is_ignored_keyword(std::string_view k) {
  static constexpr std::array<std::string_view, 19> kIgnored = {
      "vt",         "vn",        "vp",    "usemtl",   "mtllib",  "o",      "g",
      "s",          "l",         "p",     "mg",       "usemap",  "maplib", "lod",
      "shadow_obj", "trace_obj", "bevel", "c_interp", "d_interp"};
  return std::find(kIgnored.begin(), kIgnored.end(), k) != kIgnored.end();
}

class ObjParser {
 public:
  ObjParser(std::string_view name, const ObjOptions& options, ObjStats& stats)
      : name_(name), options_(options), stats_(stats) {}

  Status statement(std::string_view text, std::uint64_t line) {
    line_ = line;
    std::string_view rest = text;
    const std::string_view keyword = next_token(rest);
    if (keyword.empty() || keyword[0] == '#') return {};
    if (keyword == "v") return vertex(rest);
    if (keyword == "f") return face(rest);
    if (options_.areas != nullptr && (keyword == "g" || keyword == "usemtl")) {
      area_statement(keyword, rest);
      return {};
    }
    if (is_ignored_keyword(keyword)) return {};
    const bool printable = std::all_of(keyword.begin(), keyword.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u > 0x20 && u < 0x7F;
    });
    if (!printable)
      return fail(ErrorCode::ParseError,
                  "unexpected bytes " + quoted(keyword) + "; not a text OBJ file");
    ++stats_.unknown_lines;
    warn("unknown keyword " + quoted(keyword) + " skipped");
    return {};
  }

  Result<TriangleMesh> finish() {
    // forward references (a face using a vertex defined further down) are checked now
    for (const ForwardReference& ref : forward_) {
      if (ref.index > static_cast<std::int64_t>(vertices_.size())) {
        line_ = ref.line;
        return out_of_range(ref.index);
      }
    }
    stats_.triangles = triangles_.size();
    if (triangles_.empty()) {
      std::string message = std::string(name_) + ": no triangles (" +
                            std::to_string(vertices_.size()) + " vertices, " +
                            std::to_string(stats_.faces) + " faces";
      if (stats_.dropped_faces > 0)
        message += ", " + std::to_string(stats_.dropped_faces) + " dropped as degenerate";
      return make_error(ErrorCode::EmptyInput, message + ")");
    }
    TriangleMesh mesh;
    if (options_.areas != nullptr) {
      report_unused("group", options_.areas->groups, used_groups_);
      report_unused("material", options_.areas->materials, used_materials_);
      mesh.areas = std::move(areas_);
    }
    mesh.name = std::string(name_);
    mesh.vertices = std::move(vertices_);
    mesh.triangles = std::move(triangles_);
    return mesh;
  }

 private:
  struct ForwardReference {
    std::uint64_t line;
    std::int64_t index;
  };

  Error fail(ErrorCode code, const std::string& message) const {
    return make_error(code, std::string(name_) + ":" + std::to_string(line_) + ": " + message);
  }

  void warn(const std::string& message) {
    if (stats_.warnings.size() < kMaxObjWarnings)
      stats_.warnings.push_back(std::string(name_) + ":" + std::to_string(line_) + ": " + message);
  }

  Error out_of_range(std::int64_t index) const {
    return fail(ErrorCode::IndexOutOfRange, "face index " + std::to_string(index) +
                                                " out of range (" +
                                                std::to_string(vertices_.size()) + " vertices)");
  }

  Status vertex(std::string_view rest) {
    std::array<double, 3> xyz{};
    int count = 0;
    for (std::string_view token = next_token(rest); !token.empty(); token = next_token(rest)) {
      double value = 0.0;
      const DecimalParse parsed = parse_decimal(token, value);
      if (parsed == DecimalParse::Malformed)
        return fail(ErrorCode::ParseError, "malformed number " + quoted(token) + " in vertex");
      // note: values after x y z (w, or r g b vertex colours) are checked for syntax only.
      if (count < 3) {
        if (parsed == DecimalParse::Overflow || !std::isfinite(value))
          return fail(ErrorCode::NonFinite,
                      "vertex coordinate " + quoted(token) + " is not a finite number");
        if (std::abs(value) > kMaxObjCoordinate)
          return fail(ErrorCode::NonFinite, "vertex coordinate " + quoted(token) +
                                                " is larger than 1e15 in magnitude, which would "
                                                "overflow the voxel grid");
        xyz[static_cast<std::size_t>(count)] = value;
      }
      ++count;
    }
    if (count < 3)
      return fail(ErrorCode::ParseError,
                  "vertex has " + std::to_string(count) + " coordinates (needs x y z)");
    if (vertices_.size() >= std::numeric_limits<std::uint32_t>::max())
      return fail(ErrorCode::ParseError, "too many vertices (more than 2^32 - 1)");
    const auto x = static_cast<float>(xyz[0]);
    const auto y = static_cast<float>(xyz[1]);
    const auto z = static_cast<float>(xyz[2]);
    if (options_.up == UpAxis::Z) {
      vertices_.push_back({x, z, -y});
    } else {
      vertices_.push_back({x, y, z});
    }
    ++stats_.vertices;
    return {};
  }

  Status face(std::string_view rest) {
    ++stats_.faces;
    face_.clear();
    bool forward = false;
    for (std::string_view token = next_token(rest); !token.empty(); token = next_token(rest)) {
      const char* p = token.data();
      const char* last = p + token.size();
      std::int64_t index = 0;
      std::int64_t unused = 0;
      bool ok = parse_int(p, last, index);
      if (ok && p != last) {  // a/b, a//c or a/b/c
        ok = *p++ == '/';
        if (ok && p != last && *p != '/') ok = parse_int(p, last, unused);
        if (ok && p != last) ok = *p++ == '/' && parse_int(p, last, unused) && p == last;
        if (ok && p == last && token.back() == '/') ok = false;
      }
      if (!ok) return fail(ErrorCode::ParseError, "malformed face index " + quoted(token));
      const auto count = static_cast<std::int64_t>(vertices_.size());
      std::int64_t resolved = 0;
      if (index == 0)
        return fail(ErrorCode::IndexOutOfRange,
                    "face index 0 out of range (OBJ indices start at 1; " + std::to_string(count) +
                        " vertices)");
      if (index < 0) {
        resolved = count + index;
        if (resolved < 0) return out_of_range(index);
      } else {
        resolved = index - 1;
        if (index > static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max()))
          return out_of_range(index);
        if (resolved >= count) {
          forward_.push_back({line_, index});
          forward = true;
        }
      }
      face_.push_back(static_cast<std::uint32_t>(resolved));
    }
    if (face_.size() < 3)
      return fail(ErrorCode::ParseError,
                  "face has " + std::to_string(face_.size()) + " vertices (needs at least 3)");
    if (has_repeated_vertex()) {
      ++stats_.dropped_faces;
      if (forward) forward_.pop_back();  // note: a dropped face cannot make the file invalid
      warn("face repeats a vertex; dropped");
      return {};
    }
    for (std::size_t i = 1; i + 1 < face_.size(); ++i)
      triangles_.push_back({face_[0], face_[i], face_[i + 1]});
    if (options_.areas != nullptr) areas_.resize(triangles_.size(), area_);
    return {};
  }

  /// `g name...` or `usemtl name`: the current groups or material, and the area they give.
  void area_statement(std::string_view keyword, std::string_view rest) {
    const AreaTable& table = *options_.areas;
    if (keyword == "g") {
      groups_.clear();
      for (std::string_view t = next_token(rest); !t.empty(); t = next_token(rest)) {
        groups_.emplace_back(t);
        mark_used(table.groups, used_groups_, t);
      }
    } else {
      material_ = std::string(next_token(rest));
      mark_used(table.materials, used_materials_, material_);
    }
    area_ = table.area_of(material_, groups_);
  }

  static void mark_used(const std::vector<std::pair<std::string, std::uint8_t>>& names,
                        std::vector<bool>& used, std::string_view name) {
    used.resize(names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].first == name) used[i] = true;
    }
  }

  void report_unused(std::string_view kind,
                     const std::vector<std::pair<std::string, std::uint8_t>>& names,
                     std::vector<bool>& used) {
    used.resize(names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (used[i]) continue;
      const std::string what = std::string(kind) + " " + io::quoted(names[i].first);
      stats_.unused_area_names.push_back(what);
      if (stats_.warnings.size() < kMaxObjWarnings) {
        stats_.warnings.push_back(options_.areas->source + ": " + what + " does not occur in " +
                                  std::string(name_));
      }
    }
  }

  bool has_repeated_vertex() {
    if (face_.size() <= 16) {
      for (std::size_t i = 0; i < face_.size(); ++i)
        for (std::size_t j = i + 1; j < face_.size(); ++j)
          if (face_[i] == face_[j]) return true;
      return false;
    }
    sorted_ = face_;
    std::sort(sorted_.begin(), sorted_.end());
    return std::adjacent_find(sorted_.begin(), sorted_.end()) != sorted_.end();
  }

  std::string_view name_;
  ObjOptions options_;
  ObjStats& stats_;
  std::uint64_t line_ = 0;
  std::vector<Vec3> vertices_;
  std::vector<std::array<std::uint32_t, 3>> triangles_;
  std::vector<std::uint32_t> face_;
  std::vector<std::uint32_t> sorted_;
  std::vector<ForwardReference> forward_;
  // area table state (ObjOptions::areas only)
  std::vector<std::string> groups_;
  std::string material_;
  std::uint8_t area_ = options_.areas != nullptr ? options_.areas->default_area : 0;
  std::vector<std::uint8_t> areas_;
  std::vector<bool> used_groups_;
  std::vector<bool> used_materials_;
};

}  // namespace

Result<TriangleMesh> parse_obj(std::string_view text, std::string_view name,
                               const ObjOptions& options, ObjStats* stats) {
  ObjStats local;
  ObjStats& s = stats != nullptr ? *stats : local;
  s = ObjStats{};
  s.bytes = text.size();
  ObjParser parser(name, options, s);

  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // note: lines end at '\n' (CRLF included); a file without any '\n' but with '\r' uses the
  // classic Mac OS convention of CR alone.
  const char eol =
      text.find('\n') == std::string_view::npos && text.find('\r') != std::string_view::npos ? '\r'
                                                                                             : '\n';
  std::string joined;  // a statement continued over several lines with '\'
  std::uint64_t line = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::uint64_t first_line = line + 1;
    std::string_view statement;
    bool continued = false;
    joined.clear();
    do {
      ++line;
      std::size_t end = text.find(eol, pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view physical = text.substr(pos, end - pos);
      pos = end + 1;
      for (std::size_t i = 0; i < physical.size(); ++i) {
        if (is_binary(physical[i])) {
          static constexpr char kHex[] = "0123456789abcdef";
          const auto u = static_cast<unsigned char>(physical[i]);
          const std::string byte = {'0', 'x', kHex[u >> 4U], kHex[u & 0xFU]};
          return make_error(ErrorCode::ParseError, std::string(name) + ":" + std::to_string(line) +
                                                       ": binary data (byte " + byte +
                                                       " at column " + std::to_string(i + 1) +
                                                       "); not a text OBJ file");
        }
      }
      physical = trim_right(physical);
      continued = !physical.empty() && physical.back() == '\\' && pos < text.size();
      if (continued) physical.remove_suffix(1);
      if (continued || !joined.empty()) {
        joined.append(physical);
        joined.push_back(' ');
        statement = joined;
      } else {
        statement = physical;
      }
    } while (continued);
    LEAPNAV_TRY(parser.statement(statement, first_line));
  }
  s.lines = line;
  return parser.finish();
}

Result<TriangleMesh> load_obj(const std::filesystem::path& path, const ObjOptions& options,
                              ObjStats* stats) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, options.max_bytes));
  LEAPNAV_TRY_ASSIGN(TriangleMesh mesh, parse_obj(text, path.string(), options, stats));
  mesh.name = path.filename().string();
  return mesh;
}

}  // namespace leapnav::io
