// The C API (libleapnav_c) under hostile arguments: every pointer parameter NULL, non-finite
// coordinates, enum fields holding no enumerator, counts no array can hold, too small buffers, a
// navmesh without links or tiles, a query that outlives its navmesh handle. Each call returns its
// documented status with a message naming the input; nothing crashes (the sanitizer lane also
// checks that no out-of-range enum value is loaded as an enum).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "leapnav/leapnav.h"

namespace {

/// Two 8 x 8 m slabs 0.5 m thick with a 2 m gap along x (the C consumer's scene).
struct Slabs {
  std::vector<float> vertices;
  std::vector<std::uint32_t> triangles;

  Slabs() {
    box({0.0F, -0.5F, 0.0F}, {8.0F, 0.0F, 8.0F});
    box({10.0F, -0.5F, 0.0F}, {18.0F, 0.0F, 8.0F});
  }

  void box(std::array<float, 3> lo, std::array<float, 3> hi) {
    const auto first = static_cast<std::uint32_t>(vertices.size() / 3);
    for (std::uint32_t k = 0; k < 8; ++k) {
      for (std::uint32_t axis = 0; axis < 3; ++axis) {
        vertices.push_back((k & (1U << axis)) != 0 ? hi[axis] : lo[axis]);
      }
    }
    constexpr std::uint32_t faces[5][4] = {
        {2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2}, {1, 3, 7, 5}, {4, 5, 7, 6}};
    for (const auto& f : faces) {
      for (const std::uint32_t k : {f[0], f[1], f[2], f[0], f[2], f[3]}) {
        triangles.push_back(first + k);
      }
    }
  }

  [[nodiscard]] size_t vertex_count() const { return vertices.size() / 3; }
  [[nodiscard]] size_t triangle_count() const { return triangles.size() / 3; }
};

/// The status of a call and that the thread's message contains `part`.
void expect(leapnav_status got, leapnav_status want, const std::string& part) {
  CHECK_MESSAGE(got == want, leapnav_status_name(got), ": ", leapnav_last_error());
  const std::string message = leapnav_last_error();
  CHECK_MESSAGE(message.find(part) != std::string::npos, message, " lacks '", part, "'");
}

/// Stores an int no enumerator of E has into an enum field, as a C caller may. The test itself
/// never loads such a value as an E (that would be undefined in C++); by-value enum parameters
/// (leapnav_build_link_set, leapnav_status_name) are checked by the C program tests/consumer_c.
template <class E>
void store(E& field, int value) {
  static_assert(sizeof field == sizeof value);
  std::memcpy(&field, &value, sizeof value);
}

/// A built navmesh freed at scope exit.
struct Navmesh {
  leapnav_navmesh* handle = nullptr;
  Navmesh(const Slabs& s, const leapnav_jump_config* jumps, size_t jump_count) {
    const leapnav_status status =
        leapnav_build(s.vertices.data(), s.vertex_count(), s.triangles.data(), s.triangle_count(),
                      nullptr, nullptr, jumps, jump_count, 4, &handle);
    REQUIRE_MESSAGE(status == LEAPNAV_OK, leapnav_last_error());
  }
  ~Navmesh() { leapnav_navmesh_free(handle); }
  Navmesh(const Navmesh&) = delete;
  Navmesh& operator=(const Navmesh&) = delete;
  Navmesh(Navmesh&&) = delete;
  Navmesh& operator=(Navmesh&&) = delete;
};

constexpr leapnav_jump_config kC2 = {3.0F, 7.5F, 7.5F};
constexpr float kStart[3] = {2.0F, 0.0F, 4.0F};
constexpr float kGoal[3] = {16.0F, 0.0F, 4.0F};
const float kNan[3] = {NAN, 0.0F, 4.0F};
const float kInf[3] = {2.0F, INFINITY, 4.0F};

}  // namespace

TEST_SUITE("capi.errors") {
  TEST_CASE("every NULL pointer parameter is LEAPNAV_INVALID_ARGUMENT naming it, and no handle") {
    const Slabs s;
    const Navmesh nav(s, &kC2, 1);
    const float* v = s.vertices.data();
    const std::uint32_t* t = s.triangles.data();
    const size_t nv = s.vertex_count();
    const size_t nt = s.triangle_count();
    leapnav_navmesh* out = nullptr;
    expect(leapnav_build(v, nv, t, nt, nullptr, nullptr, &kC2, 1, 4, nullptr),
           LEAPNAV_INVALID_ARGUMENT, "out is null");
    expect(leapnav_build(nullptr, nv, t, nt, nullptr, nullptr, nullptr, 0, 4, &out),
           LEAPNAV_INVALID_ARGUMENT, "vertices is null");
    expect(leapnav_build(v, nv, nullptr, nt, nullptr, nullptr, nullptr, 0, 4, &out),
           LEAPNAV_INVALID_ARGUMENT, "triangles is null");
    expect(leapnav_build(v, nv, t, nt, nullptr, nullptr, nullptr, 1, 4, &out),
           LEAPNAV_INVALID_ARGUMENT, "jumps is null");
    CHECK(out == nullptr);
    expect(leapnav_load_file(nullptr, &out), LEAPNAV_INVALID_ARGUMENT, "path is null");
    expect(leapnav_load_file("x.lnav", nullptr), LEAPNAV_INVALID_ARGUMENT, "out is null");
    expect(leapnav_load_memory(nullptr, 5, &out), LEAPNAV_INVALID_ARGUMENT, "data is null");
    CHECK(out == nullptr);
    size_t size = 0;
    expect(leapnav_save_file(nullptr, "x.lnav"), LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    expect(leapnav_save_file(nav.handle, nullptr), LEAPNAV_INVALID_ARGUMENT, "path is null");
    expect(leapnav_save_memory(nullptr, nullptr, 0, &size), LEAPNAV_INVALID_ARGUMENT,
           "navmesh is null");
    expect(leapnav_save_memory(nav.handle, nullptr, 0, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "size is null");
    expect(leapnav_unload_tile(nullptr, 0), LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    expect(leapnav_load_tile(nullptr, 0), LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    CHECK(leapnav_polygon_count(nullptr) == 0);
    CHECK(leapnav_vertex_count(nullptr) == 0);
    CHECK(leapnav_link_count(nullptr) == 0);
    CHECK(leapnav_ledge_link_count(nullptr) == 0);
    CHECK(leapnav_tile_count(nullptr) == 0);
    leapnav_build_options_init(nullptr);
    leapnav_filter_init(nullptr);
    leapnav_navmesh_free(nullptr);
    leapnav_query_free(nullptr);

    leapnav_query* q = nullptr;
    expect(leapnav_query_create(nullptr, &q), LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    expect(leapnav_query_create(nav.handle, nullptr), LEAPNAV_INVALID_ARGUMENT, "out is null");
    REQUIRE(leapnav_query_create(nav.handle, &q) == LEAPNAV_OK);
    leapnav_path_info info{};
    expect(leapnav_find_path(nullptr, kStart, kGoal, nullptr, &info), LEAPNAV_INVALID_ARGUMENT,
           "query is null");
    expect(leapnav_find_path(q, nullptr, kGoal, nullptr, &info), LEAPNAV_INVALID_ARGUMENT,
           "start is null");
    expect(leapnav_find_path(q, kStart, nullptr, nullptr, &info), LEAPNAV_INVALID_ARGUMENT,
           "goal is null");
    expect(leapnav_find_path(q, kStart, kGoal, nullptr, nullptr), LEAPNAV_OK, "");  // info optional
    CHECK(std::string(leapnav_last_error()).empty());
    expect(leapnav_path_points(nullptr, nullptr, 0), LEAPNAV_INVALID_ARGUMENT, "query is null");
    expect(leapnav_path_segments(nullptr, nullptr, 0), LEAPNAV_INVALID_ARGUMENT, "query is null");
    expect(leapnav_path_points(q, nullptr, 100), LEAPNAV_INVALID_ARGUMENT, "xyz is null");
    expect(leapnav_path_segments(q, nullptr, 100), LEAPNAV_INVALID_ARGUMENT, "segments is null");
    int done = 0;
    expect(leapnav_begin_path(nullptr, kStart, kGoal, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "query is null");
    expect(leapnav_begin_path(q, nullptr, kGoal, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "start is null");
    expect(leapnav_begin_path(q, kStart, nullptr, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "goal is null");
    expect(leapnav_update_path(nullptr, 1, &done, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "query is null");
    expect(leapnav_update_path(q, 1, nullptr, nullptr), LEAPNAV_INVALID_ARGUMENT, "done is null");
    expect(leapnav_finish_path(nullptr, &info), LEAPNAV_INVALID_ARGUMENT, "query is null");
    leapnav_query_free(q);

    leapnav_raycast_hit hit{};
    expect(leapnav_raycast(nullptr, kStart, kGoal, nullptr, &hit), LEAPNAV_INVALID_ARGUMENT,
           "navmesh is null");
    expect(leapnav_raycast(nav.handle, nullptr, kGoal, nullptr, &hit), LEAPNAV_INVALID_ARGUMENT,
           "start is null");
    expect(leapnav_raycast(nav.handle, kStart, nullptr, nullptr, &hit), LEAPNAV_INVALID_ARGUMENT,
           "end is null");
    expect(leapnav_raycast(nav.handle, kStart, kGoal, nullptr, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "out is null");
    float point[3] = {};
    int found = 0;
    expect(leapnav_closest_point(nullptr, kStart, nullptr, point, nullptr, &found),
           LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    expect(leapnav_closest_point(nav.handle, nullptr, nullptr, point, nullptr, &found),
           LEAPNAV_INVALID_ARGUMENT, "point is null");
    expect(leapnav_closest_point(nav.handle, kStart, nullptr, nullptr, nullptr, &found),
           LEAPNAV_INVALID_ARGUMENT, "out is null");
    expect(leapnav_closest_point(nav.handle, kStart, nullptr, point, nullptr, nullptr),
           LEAPNAV_INVALID_ARGUMENT, "found is null");
    leapnav_surface_move move{};
    expect(leapnav_move_along_surface(nullptr, kStart, kGoal, nullptr, &move),
           LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    expect(leapnav_move_along_surface(nav.handle, nullptr, kGoal, nullptr, &move),
           LEAPNAV_INVALID_ARGUMENT, "start is null");
    expect(leapnav_move_along_surface(nav.handle, kStart, nullptr, nullptr, &move),
           LEAPNAV_INVALID_ARGUMENT, "target is null");
    expect(leapnav_move_along_surface(nav.handle, kStart, kGoal, nullptr, nullptr),
           LEAPNAV_INVALID_ARGUMENT, "out is null");
    leapnav_wall_distance wall{};
    expect(leapnav_distance_to_wall(nullptr, kStart, 1.0F, nullptr, &wall),
           LEAPNAV_INVALID_ARGUMENT, "navmesh is null");
    expect(leapnav_distance_to_wall(nav.handle, nullptr, 1.0F, nullptr, &wall),
           LEAPNAV_INVALID_ARGUMENT, "center is null");
    expect(leapnav_distance_to_wall(nav.handle, kStart, 1.0F, nullptr, nullptr),
           LEAPNAV_INVALID_ARGUMENT, "out is null");
  }

  TEST_CASE("enum values that are no enumerator are LEAPNAV_INVALID_ARGUMENT naming the value") {
    const Slabs s;
    leapnav_navmesh* out = nullptr;
    leapnav_build_options o;
    leapnav_build_options_init(&o);
    o.jumps = &kC2;
    o.jump_count = 1;
    store(o.link_set, 7);
    expect(leapnav_build_ex(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                            s.triangle_count(), &o, &out),
           LEAPNAV_INVALID_ARGUMENT, "link_set 7");
    leapnav_build_options_init(&o);
    store(o.walkable_filter, 9);
    expect(leapnav_build_ex(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                            s.triangle_count(), &o, &out),
           LEAPNAV_INVALID_ARGUMENT, "walkable_filter 9");
    CHECK(out == nullptr);
    const Navmesh nav(s, nullptr, 0);
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(nav.handle, &q) == LEAPNAV_OK);
    leapnav_filter f;
    leapnav_filter_init(&f);
    store(f.walk_search, 5);
    expect(leapnav_find_path(q, kStart, kGoal, &f, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "filter.walk_search 5");
    expect(leapnav_begin_path(q, kStart, kGoal, &f), LEAPNAV_INVALID_ARGUMENT,
           "filter.walk_search 5");
    leapnav_query_free(q);
    CHECK(std::string(leapnav_status_name(LEAPNAV_CORRUPT_FILE)) == "corrupt_file");
    CHECK(std::string(leapnav_status_name(LEAPNAV_BUFFER_TOO_SMALL)) == "buffer_too_small");
  }

  TEST_CASE("counts no array can hold are LEAPNAV_INVALID_ARGUMENT naming the count") {
    const Slabs s;
    leapnav_navmesh* out = nullptr;
    expect(leapnav_build(s.vertices.data(), SIZE_MAX, s.triangles.data(), s.triangle_count(),
                         nullptr, nullptr, nullptr, 0, 4, &out),
           LEAPNAV_INVALID_ARGUMENT, "vertex_count 18446744073709551615");
    expect(leapnav_build(s.vertices.data(), s.vertex_count(), s.triangles.data(), SIZE_MAX / 2,
                         nullptr, nullptr, nullptr, 0, 4, &out),
           LEAPNAV_INVALID_ARGUMENT, "triangle_count");
    expect(leapnav_build(nullptr, 0, nullptr, 0, nullptr, nullptr, nullptr, 0, 4, &out),
           LEAPNAV_EMPTY_INPUT, "no triangles");
    expect(leapnav_build(s.vertices.data(), 0, s.triangles.data(), s.triangle_count(), nullptr,
                         nullptr, nullptr, 0, 4, &out),
           LEAPNAV_INDEX_OUT_OF_RANGE, "triangle 0");
    expect(leapnav_build(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                         s.triangle_count(), nullptr, nullptr, &kC2, 1, 0, &out),
           LEAPNAV_INVALID_ARGUMENT, "step");
    CHECK(out == nullptr);
  }

  TEST_CASE("NaN and infinite numbers are LEAPNAV_NON_FINITE naming the input") {
    Slabs s;
    leapnav_navmesh* out = nullptr;
    s.vertices[4] = NAN;
    expect(leapnav_build(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                         s.triangle_count(), nullptr, nullptr, nullptr, 0, 4, &out),
           LEAPNAV_NON_FINITE, "vertex 1 is not finite");
    s.vertices[4] = 0.0F;
    const leapnav_jump_config nan_jump = {NAN, 7.5F, 7.5F};
    expect(leapnav_build(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                         s.triangle_count(), nullptr, nullptr, &nan_jump, 1, 4, &out),
           LEAPNAV_INVALID_ARGUMENT, "jump height = nan");
    CHECK(out == nullptr);
    const Navmesh nav(s, &kC2, 1);
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(nav.handle, &q) == LEAPNAV_OK);
    expect(leapnav_find_path(q, kNan, kGoal, nullptr, nullptr), LEAPNAV_NON_FINITE,
           "start is not finite");
    expect(leapnav_find_path(q, kStart, kInf, nullptr, nullptr), LEAPNAV_NON_FINITE,
           "goal is not finite");
    leapnav_filter f;
    leapnav_filter_init(&f);
    f.jump_cost = NAN;
    expect(leapnav_find_path(q, kStart, kGoal, &f, nullptr), LEAPNAV_NON_FINITE, "jump cost");
    leapnav_filter_init(&f);
    f.search_extent[1] = INFINITY;
    expect(leapnav_find_path(q, kStart, kGoal, &f, nullptr), LEAPNAV_NON_FINITE, "search extent");
    leapnav_filter_init(&f);
    f.area_costs[63] = NAN;
    expect(leapnav_find_path(q, kStart, kGoal, &f, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "area cost 63");
    expect(leapnav_begin_path(q, kNan, kGoal, nullptr), LEAPNAV_NON_FINITE, "start is not finite");
    leapnav_query_free(q);
    leapnav_raycast_hit hit{};
    expect(leapnav_raycast(nav.handle, kStart, kNan, nullptr, &hit), LEAPNAV_NON_FINITE,
           "raycast: end is not finite");
    expect(leapnav_raycast(nav.handle, kStart, kGoal, kNan, &hit), LEAPNAV_NON_FINITE,
           "raycast: search extent is not finite");
    float point[3] = {};
    int found = 1;
    expect(leapnav_closest_point(nav.handle, kInf, nullptr, point, nullptr, &found),
           LEAPNAV_NON_FINITE, "point is not finite");
    CHECK(found == 0);
    leapnav_surface_move move{};
    expect(leapnav_move_along_surface(nav.handle, kStart, kNan, nullptr, &move), LEAPNAV_NON_FINITE,
           "move_along_surface: target is not finite");
    leapnav_wall_distance wall{};
    expect(leapnav_distance_to_wall(nav.handle, kStart, NAN, nullptr, &wall), LEAPNAV_NON_FINITE,
           "distance_to_wall: radius nan is not finite");
    expect(leapnav_distance_to_wall(nav.handle, kNan, 1.0F, nullptr, &wall), LEAPNAV_NON_FINITE,
           "distance_to_wall: centre is not finite");
  }

  TEST_CASE("too small buffers are LEAPNAV_BUFFER_TOO_SMALL with both sizes, nothing written") {
    const Slabs s;
    const Navmesh nav(s, &kC2, 1);
    size_t size = 0;
    REQUIRE(leapnav_save_memory(nav.handle, nullptr, 0, &size) == LEAPNAV_OK);
    REQUIRE(size > 16);
    std::vector<unsigned char> small(16, 0xAB);
    expect(leapnav_save_memory(nav.handle, small.data(), small.size(), &size),
           LEAPNAV_BUFFER_TOO_SMALL, std::to_string(size) + " bytes needed, capacity 16");
    CHECK(small == std::vector<unsigned char>(16, 0xAB));
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(nav.handle, &q) == LEAPNAV_OK);
    leapnav_path_info info{};
    REQUIRE(leapnav_find_path(q, kStart, kGoal, nullptr, &info) == LEAPNAV_OK);
    REQUIRE(info.status == LEAPNAV_PATH_FOUND);
    REQUIRE(info.point_count >= 2);
    std::vector<float> xyz(3 * (info.point_count - 1), -7.0F);
    expect(leapnav_path_points(q, xyz.data(), info.point_count - 1), LEAPNAV_BUFFER_TOO_SMALL,
           std::to_string(info.point_count) + " points, capacity " +
               std::to_string(info.point_count - 1));
    CHECK(xyz == std::vector<float>(3 * (info.point_count - 1), -7.0F));
    std::vector<leapnav_path_segment> segments(info.segment_count);
    expect(leapnav_path_segments(q, segments.data(), 0), LEAPNAV_BUFFER_TOO_SMALL,
           std::to_string(info.segment_count) + " segments, capacity 0");
    leapnav_query_free(q);
  }

  TEST_CASE("a navmesh without links or tiles answers queries; tile calls name the range") {
    const Slabs s;
    const Navmesh nav(s, nullptr, 0);
    CHECK(leapnav_link_count(nav.handle) == 0);
    CHECK(leapnav_ledge_link_count(nav.handle) == 0);
    CHECK(leapnav_tile_count(nav.handle) == 0);
    expect(leapnav_unload_tile(nav.handle, 0), LEAPNAV_INVALID_ARGUMENT,
           "tile 0 out of range (the mesh has no tiles)");
    expect(leapnav_load_tile(nav.handle, UINT32_MAX), LEAPNAV_INVALID_ARGUMENT,
           "tile 4294967295 out of range");
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(nav.handle, &q) == LEAPNAV_OK);
    leapnav_path_info info{};
    REQUIRE(leapnav_find_path(q, kStart, kGoal, nullptr, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_NO_PATH);  // the gap needs a jump
    CHECK(info.point_count == 0);
    CHECK(leapnav_path_points(q, nullptr, 0) == LEAPNAV_OK);
    CHECK(leapnav_path_segments(q, nullptr, 0) == LEAPNAV_OK);
    int done = 1;
    expect(leapnav_update_path(q, 1, &done, nullptr), LEAPNAV_INVALID_ARGUMENT,
           "no search in progress");
    CHECK(done == 0);
    leapnav_query_free(q);
  }

  TEST_CASE("a navmesh with no polygons builds, saves, loads and answers 'not on the mesh'") {
    // note: an empty build is a result, not an error (a scene with no walkable area); every query
    // says why it has no answer, as plan::Planner and the Python module do
    const std::array<float, 12> wall = {0, 0, 0, 0, 5, 0, 5, 0, 0, 5, 5, 0};
    const std::array<std::uint32_t, 6> tris = {0, 1, 2, 1, 3, 2};
    leapnav_navmesh* nav = nullptr;
    REQUIRE(leapnav_build(wall.data(), 4, tris.data(), 2, nullptr, nullptr, nullptr, 0, 4, &nav) ==
            LEAPNAV_OK);
    CHECK(leapnav_polygon_count(nav) == 0);
    size_t size = 0;
    REQUIRE(leapnav_save_memory(nav, nullptr, 0, &size) == LEAPNAV_OK);  // the size
    std::vector<unsigned char> bytes(size);
    REQUIRE(leapnav_save_memory(nav, bytes.data(), bytes.size(), &size) == LEAPNAV_OK);
    leapnav_navmesh* loaded = nullptr;
    REQUIRE(leapnav_load_memory(bytes.data(), bytes.size(), &loaded) == LEAPNAV_OK);
    CHECK(leapnav_polygon_count(loaded) == 0);
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(loaded, &q) == LEAPNAV_OK);
    const float start[3] = {1, 0, 1};
    const float goal[3] = {4, 0, 1};
    leapnav_path_info info{};
    REQUIRE(leapnav_find_path(q, start, goal, nullptr, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_START_NOT_ON_MESH);
    CHECK(info.point_count == 0);
    float point[3] = {};
    int found = 1;
    REQUIRE(leapnav_closest_point(loaded, start, nullptr, point, nullptr, &found) == LEAPNAV_OK);
    CHECK(found == 0);
    leapnav_raycast_hit hit{};
    hit.on_mesh = 1;
    REQUIRE(leapnav_raycast(loaded, start, goal, nullptr, &hit) == LEAPNAV_OK);
    CHECK(hit.on_mesh == 0);
    leapnav_query_free(q);
    leapnav_navmesh_free(loaded);
    leapnav_navmesh_free(nav);
  }

  TEST_CASE("queries on two threads while a third unloads and loads tiles (thread safety)") {
    const Slabs s;
    leapnav_build_options o;
    leapnav_build_options_init(&o);
    o.jumps = &kC2;
    o.jump_count = 1;
    o.tile_size = 16;
    leapnav_navmesh* nav = nullptr;
    REQUIRE(leapnav_build_ex(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                             s.triangle_count(), &o, &nav) == LEAPNAV_OK);
    const uint32_t tiles = leapnav_tile_count(nav);
    REQUIRE(tiles > 1);
    leapnav_path_info before{};
    {
      leapnav_query* q = nullptr;
      REQUIRE(leapnav_query_create(nav, &q) == LEAPNAV_OK);
      REQUIRE(leapnav_find_path(q, kStart, kGoal, nullptr, &before) == LEAPNAV_OK);
      leapnav_query_free(q);
    }
    REQUIRE(before.status == LEAPNAV_PATH_FOUND);
    std::array<int, 2> bad_answers{};
    std::vector<std::thread> workers;
    workers.reserve(bad_answers.size());
    for (int& bad : bad_answers) {
      workers.emplace_back([&nav, &bad] {
        leapnav_query* q = nullptr;
        if (leapnav_query_create(nav, &q) != LEAPNAV_OK) {
          ++bad;
          return;
        }
        for (int i = 0; i < 40; ++i) {
          leapnav_path_info info{};
          if (leapnav_find_path(q, kStart, kGoal, nullptr, &info) != LEAPNAV_OK ||
              (info.status != LEAPNAV_PATH_FOUND && info.status != LEAPNAV_PATH_NO_PATH)) {
            ++bad;
          }
        }
        leapnav_query_free(q);
      });
    }
    for (int round = 0; round < 40; ++round) {
      const auto tile = static_cast<uint32_t>(round) % tiles;
      CHECK(leapnav_unload_tile(nav, tile) == LEAPNAV_OK);
      CHECK(leapnav_load_tile(nav, tile) == LEAPNAV_OK);
    }
    for (std::thread& t : workers) t.join();
    CHECK(bad_answers == std::array<int, 2>{});
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(nav, &q) == LEAPNAV_OK);
    leapnav_path_info after{};
    REQUIRE(leapnav_find_path(q, kStart, kGoal, nullptr, &after) == LEAPNAV_OK);
    CHECK(after.status == LEAPNAV_PATH_FOUND);
    CHECK(after.length == before.length);  // every tile loaded again: the same path
    CHECK(after.point_count == before.point_count);
    leapnav_query_free(q);
    leapnav_navmesh_free(nav);
  }

  TEST_CASE("a query outlives its navmesh handle and the message is per thread") {
    const Slabs s;
    leapnav_navmesh* nav = nullptr;
    REQUIRE(leapnav_build(s.vertices.data(), s.vertex_count(), s.triangles.data(),
                          s.triangle_count(), nullptr, nullptr, &kC2, 1, 4, &nav) == LEAPNAV_OK);
    leapnav_query* q = nullptr;
    REQUIRE(leapnav_query_create(nav, &q) == LEAPNAV_OK);
    leapnav_navmesh_free(nav);
    leapnav_path_info info{};
    REQUIRE(leapnav_find_path(q, kStart, kGoal, nullptr, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_FOUND);
    CHECK(info.jump_count == 1);
    leapnav_query_free(q);

    CHECK(leapnav_load_file(nullptr, &nav) == LEAPNAV_INVALID_ARGUMENT);
    std::string other;
    std::thread([&] {
      other = leapnav_last_error();
      leapnav_navmesh* none = nullptr;
      CHECK(leapnav_load_memory(nullptr, 1, &none) == LEAPNAV_INVALID_ARGUMENT);
    }).join();
    CHECK(other.empty());
    CHECK(std::string(leapnav_last_error()) == "leapnav_load_file: path is null");
  }
}
