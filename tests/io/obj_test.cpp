// OBJ reader: every accepted form, every error (code and message), and the shared levels.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "leapnav/io/obj.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

Result<TriangleMesh> parse(std::string_view text, ObjStats* stats = nullptr,
                           const ObjOptions& options = {}) {
  return parse_obj(text, "t.obj", options, stats);
}

void check_error(std::string_view text, ErrorCode code, std::string_view message) {
  const auto result = parse(text);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == code);
  CHECK(result.error().message == message);
}

constexpr std::string_view kQuad = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n";

}  // namespace

TEST_SUITE("io.obj") {
  TEST_CASE("a triangle is read with its vertices in order") {
    ObjStats stats;
    const auto mesh = parse("v 0 1 2\nv 3 4 5\nv 6 7 8.5\nf 1 2 3\n", &stats);
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->name == "t.obj");
    REQUIRE(mesh->vertices.size() == 3);
    CHECK(mesh->vertices[2] == Vec3{6, 7, 8.5F});
    REQUIRE(mesh->triangles.size() == 1);
    CHECK(mesh->triangles[0] == std::array<std::uint32_t, 3>{0, 1, 2});
    CHECK(stats.vertices == 3);
    CHECK(stats.faces == 1);
    CHECK(stats.triangles == 1);
    CHECK(stats.lines == 4);
    CHECK(stats.bytes == 34);
    CHECK(stats.dropped_faces == 0);
  }

  TEST_CASE("polygons are fan-triangulated from their first vertex") {
    ObjStats stats;
    const auto mesh = parse(std::string(kQuad) + "v 0.5 0 2\nf 1 2 3 5 4\n", &stats);
    REQUIRE(mesh.ok());
    REQUIRE(mesh->triangles.size() == 3);
    CHECK(mesh->triangles[0] == std::array<std::uint32_t, 3>{0, 1, 2});
    CHECK(mesh->triangles[1] == std::array<std::uint32_t, 3>{0, 2, 4});
    CHECK(mesh->triangles[2] == std::array<std::uint32_t, 3>{0, 4, 3});
    CHECK(stats.faces == 1);
    CHECK(stats.triangles == 3);
  }

  TEST_CASE("every face index form gives the same triangles") {
    const std::string vt = "vt 0 0\nvt 1 0\nvt 1 1\nvn 0 1 0\n";
    for (const char* face : {"f 1 2 3", "f 1/1 2/2 3/3", "f 1//1 2//1 3//1", "f 1/1/1 2/2/1 3/3/1",
                             "f -4 -3 -2", "f -4/-3/-1 -3//-1 -2/-1", "f +1 2 3"}) {
      CAPTURE(face);
      const auto mesh = parse(std::string(kQuad) + vt + face + "\n");
      REQUIRE(mesh.ok());
      REQUIRE(mesh->triangles.size() == 1);
      CHECK(mesh->triangles[0] == std::array<std::uint32_t, 3>{0, 1, 2});
    }
  }

  TEST_CASE("negative indices count back from the vertices read so far") {
    const auto mesh = parse("v 0 0 0\nv 1 0 0\nv 0 0 1\nf -3 -2 -1\nv 5 0 5\nf -4 -1 -2\n");
    REQUIRE(mesh.ok());
    REQUIRE(mesh->triangles.size() == 2);
    CHECK(mesh->triangles[0] == std::array<std::uint32_t, 3>{0, 1, 2});
    CHECK(mesh->triangles[1] == std::array<std::uint32_t, 3>{0, 3, 2});
  }

  TEST_CASE("a face may use vertices defined after it") {
    const auto mesh = parse("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 0 1\n");
    REQUIRE(mesh.ok());
    CHECK(mesh->triangles.size() == 1);
  }

  TEST_CASE("non-geometry statements, comments, blanks and whitespace are skipped") {
    ObjStats stats;
    const std::string text =
        "\xEF\xBB\xBF# a comment\r\n"
        "mtllib x.mtl\r\n"
        "o thing\r\n"
        "g group\r\n"
        "s off\r\n"
        "usemtl stone\r\n"
        "\r\n"
        "   \t\r\n"
        "  v 0 0 0   \r\n"
        "v\t1 0 0\t\r\n"
        "v 0 0 1 1.0\r\n"
        "v 0 0 2 0.5 0.5 0.5\r\n"
        "vt 0.5 0.5\r\n"
        "vn 0 1 0\r\n"
        "vp 0.1\r\n"
        "l 1 2\r\n"
        "f 1 2 3 \r\n"
        "f 1 3 \\\r\n"
        "  4\r\n"
        "# end";
    const auto mesh = parse(text, &stats);
    REQUIRE(mesh.ok());
    CHECK(mesh->vertices.size() == 4);
    CHECK(mesh->triangles.size() == 2);
    CHECK(mesh->triangles[1] == std::array<std::uint32_t, 3>{0, 2, 3});
    CHECK(stats.lines == 20);
    CHECK(stats.unknown_lines == 0);
    CHECK(stats.warnings.empty());
  }

  TEST_CASE("unknown keywords are skipped with a counted warning") {
    ObjStats stats;
    const auto mesh = parse(std::string(kQuad) + "cstype bezier\nfoo 1 2\nf 1 2 3\n", &stats);
    REQUIRE(mesh.ok());
    CHECK(stats.unknown_lines == 2);
    REQUIRE(stats.warnings.size() == 2);
    CHECK(stats.warnings[0] == "t.obj:5: unknown keyword 'cstype' skipped");
    CHECK(stats.warnings[1] == "t.obj:6: unknown keyword 'foo' skipped");
  }

  TEST_CASE("a face that repeats a vertex is dropped and counted") {
    ObjStats stats;
    const auto mesh = parse(std::string(kQuad) + "f 1 2 3\nf 1 2 1\nf 1 2 3 4 -3\n", &stats);
    REQUIRE(mesh.ok());
    CHECK(mesh->triangles.size() == 1);
    CHECK(stats.faces == 3);
    CHECK(stats.dropped_faces == 2);
    CHECK(stats.triangles == 1);
    REQUIRE(stats.warnings.size() == 2);
    CHECK(stats.warnings[0] == "t.obj:6: face repeats a vertex; dropped");
  }

  TEST_CASE("--up z turns z-up input into y-up, keeping handedness") {
    // a floor triangle in a z-up file, counter-clockwise seen from +z (above)
    const auto mesh =
        parse("v 0 0 0\nv 1 0 0\nv 0 1 0.5\nf 1 2 3\n", nullptr, ObjOptions{UpAxis::Z});
    REQUIRE(mesh.ok());
    CHECK(mesh->vertices[1] == Vec3{1, 0, 0});
    CHECK(mesh->vertices[2] == Vec3{0, 0.5F, -1});
    const auto& v = mesh->vertices;
    const Vec3 n = cross(v[1] - v[0], v[2] - v[0]);
    CHECK(n.y > 0);  // still faces up
    CHECK(n.x == 0);
  }

  TEST_CASE("malformed numbers and lines are parse errors naming file and line") {
    check_error("v 0 0 0\nv 1 x 0\n", ErrorCode::ParseError,
                "t.obj:2: malformed number 'x' in vertex");
    check_error("v 1.0.0 0 0\n", ErrorCode::ParseError,
                "t.obj:1: malformed number '1.0.0' in vertex");
    check_error("v 1 2\n", ErrorCode::ParseError,
                "t.obj:1: vertex has 2 coordinates (needs x y z)");
    check_error(std::string(kQuad) + "f 1 2a 3\n", ErrorCode::ParseError,
                "t.obj:5: malformed face index '2a'");
    check_error(std::string(kQuad) + "f 1/ 2 3\n", ErrorCode::ParseError,
                "t.obj:5: malformed face index '1/'");
    check_error(std::string(kQuad) + "f 1/2/3/4 2 3\n", ErrorCode::ParseError,
                "t.obj:5: malformed face index '1/2/3/4'");
    check_error(std::string(kQuad) + "f 1 2 3.0\n", ErrorCode::ParseError,
                "t.obj:5: malformed face index '3.0'");
  }

  TEST_CASE("a file with CR-only line ends reads like one with LF") {
    ObjStats stats;
    const auto mesh = parse("# old Mac OS export\rv 0 0 0\rv 1 0 0\rv 1 0 1\rf 1 3 2\r", &stats);
    REQUIRE(mesh.ok());
    CHECK(mesh->triangles.size() == 1);
    CHECK(stats.lines == 5);
    check_error("v 0 0 0\rv 1 0 x\r", ErrorCode::ParseError,
                "t.obj:2: malformed number 'x' in vertex");
  }

  TEST_CASE("numbers below the smallest double are 0 however they are written") {
    const std::string zeros(400, '0');
    for (const std::string& tiny :
         {std::string("1e-400"), std::string("-1E-400"), "0." + zeros + "1", "0." + zeros + "1e5",
          "+0.0" + zeros + "7"}) {
      CAPTURE(tiny);
      const auto mesh = parse("v " + tiny + " 0 0\nv 1 0 0\nv 1 0 1\nf 1 3 2\n");
      REQUIRE(mesh.ok());
      CHECK(mesh->vertices[0].x == 0.0F);
    }
    // the same digits with an exponent that brings them into range are that value
    const auto scaled = parse("v 0." + zeros + "1e401 0 0\nv 1 0 0\nv 1 0 1\nf 1 3 2\n");
    REQUIRE(scaled.ok());
    CHECK(scaled->vertices[0].x == 1.0F);
    // and numbers too large stay errors
    check_error("v 1" + zeros + " 0 0\n", ErrorCode::NonFinite,
                "t.obj:1: vertex coordinate '1000000000000000000000000000000000000000...' is not a "
                "finite number");
    check_error("v 1e400 0 0\n", ErrorCode::NonFinite,
                "t.obj:1: vertex coordinate '1e400' is not a finite number");
  }

  TEST_CASE("a face with fewer than 3 vertices is a parse error") {
    check_error(std::string(kQuad) + "f 1 2\n", ErrorCode::ParseError,
                "t.obj:5: face has 2 vertices (needs at least 3)");
    check_error(std::string(kQuad) + "f\n", ErrorCode::ParseError,
                "t.obj:5: face has 0 vertices (needs at least 3)");
  }

  TEST_CASE("face indices 0 or beyond the vertices are out of range") {
    check_error(std::string(kQuad) + "f 1 2 5\n", ErrorCode::IndexOutOfRange,
                "t.obj:5: face index 5 out of range (4 vertices)");
    check_error(std::string(kQuad) + "f 0 1 2\n", ErrorCode::IndexOutOfRange,
                "t.obj:5: face index 0 out of range (OBJ indices start at 1; 4 vertices)");
    check_error(std::string(kQuad) + "f 1 2 -5\n", ErrorCode::IndexOutOfRange,
                "t.obj:5: face index -5 out of range (4 vertices)");
    check_error(std::string(kQuad) + "f 1 2 99999999999999\n", ErrorCode::IndexOutOfRange,
                "t.obj:5: face index 99999999999999 out of range (4 vertices)");
    // a forward reference that is never defined is reported at its own line
    check_error("v 0 0 0\nf 1 2 4\nv 1 0 0\nv 1 1 1\nf 1 2 3\n", ErrorCode::IndexOutOfRange,
                "t.obj:2: face index 4 out of range (3 vertices)");
  }

  TEST_CASE("non-finite and huge coordinates are rejected") {
    check_error("v nan 0 0\n", ErrorCode::NonFinite,
                "t.obj:1: vertex coordinate 'nan' is not a finite number");
    check_error("v 0 -inf 0\n", ErrorCode::NonFinite,
                "t.obj:1: vertex coordinate '-inf' is not a finite number");
    check_error("v 0 0 1e400\n", ErrorCode::NonFinite,
                "t.obj:1: vertex coordinate '1e400' is not a finite number");
    check_error("v 2e15 0 0\n", ErrorCode::NonFinite,
                "t.obj:1: vertex coordinate '2e15' is larger than 1e15 in magnitude, which would "
                "overflow the voxel grid");
    const auto tiny = parse("v 1e-400 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n");
    REQUIRE(tiny.ok());
    CHECK(tiny->vertices[0].x == 0.0F);
  }

  TEST_CASE("a file without triangles is empty input") {
    check_error("", ErrorCode::EmptyInput, "t.obj: no triangles (0 vertices, 0 faces)");
    check_error(kQuad, ErrorCode::EmptyInput, "t.obj: no triangles (4 vertices, 0 faces)");
    check_error(std::string(kQuad) + "f 1 1 2\n", ErrorCode::EmptyInput,
                "t.obj: no triangles (4 vertices, 1 faces, 1 dropped as degenerate)");
  }

  TEST_CASE("binary data is a clear parse error") {
    check_error(std::string("v 0 0 0\nv 1 0\0 0\n", 17), ErrorCode::ParseError,
                "t.obj:2: binary data (byte 0x00 at column 6); not a text OBJ file");
    check_error("\x89PNG\r\n\x1a\n", ErrorCode::ParseError,
                "t.obj:1: unexpected bytes '\\x89PNG'; not a text OBJ file");
    check_error("v 0 0 0\n\x1a\n", ErrorCode::ParseError,
                "t.obj:2: binary data (byte 0x1a at column 1); not a text OBJ file");
    check_error("\xff\xd8\xff\xe0 v", ErrorCode::ParseError,
                "t.obj:1: unexpected bytes '\\xff\\xd8\\xff\\xe0'; not a text OBJ file");
  }

  TEST_CASE("load_obj reports missing files, directories and names the mesh after the file") {
    const auto missing = load_obj("/nonexistent/dir/level.obj");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::IoError);
    CHECK(missing.error().message == "/nonexistent/dir/level.obj: no such file");

    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    const auto directory = load_obj(dir);
    REQUIRE_FALSE(directory.ok());
    CHECK(directory.error().code == ErrorCode::IoError);
    CHECK(directory.error().message == dir.string() + ": is a directory, not a file");

    const std::filesystem::path file = dir / "leapnav_obj_test_level.obj";
    {
      std::ofstream out(file, std::ios::binary);
      out << "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n";
    }
    const auto bad = load_obj(file);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == file.string() + ":5: face index 4 out of range (3 vertices)");
    {
      std::ofstream out(file, std::ios::binary);
      out << "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n";
    }
    const auto good = load_obj(file);
    REQUIRE(good.ok());
    CHECK(good->name == "leapnav_obj_test_level.obj");
    CHECK(good->triangles.size() == 1);
    std::filesystem::remove(file);
  }

  TEST_CASE("dungeon.obj loads with 10133 triangles inside its documented bounds") {
    const auto path = test::shared_mesh("dungeon.obj");
    if (!path) return;
    ObjStats stats;
    const auto mesh = load_obj(*path, {}, &stats);
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->name == "dungeon.obj");
    CHECK(mesh->triangles.size() == 10133);
    CHECK(mesh->vertices.size() == 5101);
    CHECK(stats.dropped_faces == 0);
    const AABB b = mesh->bounds();
    CHECK(b.min.x == doctest::Approx(-25.0).epsilon(0.01));
    CHECK(b.max.y == doctest::Approx(40.2).epsilon(0.01));
    CHECK(b.min.z == doctest::Approx(-90.0).epsilon(0.01));
  }

  TEST_CASE("nav_test.obj loads its polygons (up to 12 vertices) as 1612 triangles") {
    // face sizes counted with awk: 8 triangles, 776 quads, 2 hexagons, 4 octagons and
    // 2 twelve-gons: 8 + 776*2 + 2*4 + 4*6 + 2*10 = 1612 triangles
    const auto path = test::shared_mesh("nav_test.obj");
    if (!path) return;
    ObjStats stats;
    const auto mesh = load_obj(*path, {}, &stats);
    REQUIRE(mesh.ok());
    CHECK(validate(*mesh).ok());
    CHECK(mesh->triangles.size() == 1612);
    CHECK(mesh->vertices.size() == 884);
    CHECK(stats.faces == 792);
    CHECK(stats.dropped_faces == 0);
    CHECK(stats.unknown_lines == 0);
  }
}
