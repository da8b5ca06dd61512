/* Uses leapnav through its C API as a C engine would: a level from arrays with C2 jump links, a
 * save and load through memory and a file, walk and jump paths with a filter, a raycast, a
 * closest point, and the error codes and messages of bad input. Exits 0 when every check holds. */
#include <leapnav/leapnav.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      fprintf(stderr, "c_consumer:%d: %s failed (%s)\n", __LINE__, #cond, leapnav_last_error()); \
      ++failures;                                                                                \
    }                                                                                            \
  } while (0)

/* Two 8 x 8 m slabs 0.5 m thick with a 2 m gap along x: 16 vertices, 20 triangles. */
static void add_box(float* v, uint32_t* t, int box, const float lo[3], const float hi[3]) {
  static const uint32_t faces[5][4] = {
      {2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2}, {1, 3, 7, 5}, {4, 5, 7, 6}};
  const uint32_t first = (uint32_t)(8 * box);
  int k;
  for (k = 0; k < 8; ++k) {
    v[3 * (first + k) + 0] = (k & 1) ? hi[0] : lo[0];
    v[3 * (first + k) + 1] = (k & 2) ? hi[1] : lo[1];
    v[3 * (first + k) + 2] = (k & 4) ? hi[2] : lo[2];
  }
  for (k = 0; k < 5; ++k) {
    uint32_t* tri = t + 3 * (10 * box + 2 * k);
    tri[0] = first + faces[k][0];
    tri[1] = first + faces[k][1];
    tri[2] = first + faces[k][2];
    tri[3] = first + faces[k][0];
    tri[4] = first + faces[k][2];
    tri[5] = first + faces[k][3];
  }
}

/* Writes `count` boxes of add_box as an OBJ file. */
static void write_obj(const char* path, const float* v, const uint32_t* t, int boxes) {
  FILE* obj = fopen(path, "w");
  int i;
  CHECK(obj != NULL);
  if (obj == NULL) return;
  for (i = 0; i < 8 * boxes; ++i)
    fprintf(obj, "v %.9g %.9g %.9g\n", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  for (i = 0; i < 10 * boxes; ++i) {
    fprintf(obj, "f %u %u %u\n", (unsigned)t[3 * i] + 1, (unsigned)t[3 * i + 1] + 1,
            (unsigned)t[3 * i + 2] + 1);
  }
  CHECK(fclose(obj) == 0);
}

int main(void) {
  float vertices[16 * 3];
  uint32_t triangles[20 * 3];
  const float lo0[3] = {0.0f, -0.5f, 0.0f}, hi0[3] = {8.0f, 0.0f, 8.0f};
  const float lo1[3] = {10.0f, -0.5f, 0.0f}, hi1[3] = {18.0f, 0.0f, 8.0f};
  const leapnav_jump_config c2 = {3.0f, 7.5f, 7.5f};
  const float start[3] = {2.0f, 0.0f, 4.0f}, near_goal[3] = {6.0f, 0.0f, 6.0f};
  const float far_goal[3] = {16.0f, 0.0f, 4.0f};
  leapnav_navmesh* built = NULL;
  leapnav_navmesh* loaded = NULL;
  leapnav_navmesh* bad = NULL;
  leapnav_query* query = NULL;
  leapnav_filter walk;
  leapnav_path_info info;
  leapnav_path_segment segments[8];
  leapnav_raycast_hit hit;
  leapnav_surface_move move;
  leapnav_wall_distance wall;
  const float centre[3] = {4.0f, 0.0f, 4.0f};
  float points[3 * 16];
  float surface[3];
  uint32_t poly = 0;
  int found = 0;
  size_t size = 0;
  unsigned char* bytes;
  unsigned char garbage[64];
  size_t i;

  add_box(vertices, triangles, 0, lo0, hi0);
  add_box(vertices, triangles, 1, lo1, hi1);

  /* the scene and its C2 links, compact (leapnav_build) and full, for scripts/test.sh to compare
   * with the CLI's `leapnav build c_consumer_gap.obj --jump C2 --step 4 [--link-set full]` (the
   * same file bytes) and to check exactly (`leapnav check-links`) */
  {
    write_obj("c_consumer_gap.obj", vertices, triangles, 2);
    CHECK(leapnav_build(vertices, 16, triangles, 20, NULL, NULL, &c2, 1, 4, &loaded) == LEAPNAV_OK);
    CHECK(leapnav_save_file(loaded, "c_consumer_gap_compact.lnav") == LEAPNAV_OK);
    CHECK(leapnav_link_count(loaded) > 0);
    leapnav_navmesh_free(loaded);
    loaded = NULL;
    CHECK(leapnav_build_link_set(vertices, 16, triangles, 20, NULL, NULL, &c2, 1, 4,
                                 LEAPNAV_LINK_SET_FULL, &loaded) == LEAPNAV_OK);
    CHECK(leapnav_save_file(loaded, "c_consumer_gap_full.lnav") == LEAPNAV_OK);
    CHECK(leapnav_link_count(loaded) > 0);
    leapnav_navmesh_free(loaded);
    loaded = NULL;
    /* the tiled build (16-column tiles), for scripts/test.sh to compare with `--tile-size 16`;
     * tiles unloaded one at a time: those holding the far goal block its path and say so */
    {
      leapnav_build_options tiled;
      leapnav_query* q = NULL;
      leapnav_path_info whole, cut;
      uint32_t tile, blocking = 0;
      leapnav_build_options_init(&tiled);
      tiled.jumps = &c2;
      tiled.jump_count = 1;
      tiled.tile_size = 16;
      CHECK(leapnav_build_ex(vertices, 16, triangles, 20, &tiled, &loaded) == LEAPNAV_OK);
      if (loaded == NULL) return 1;
      CHECK(leapnav_save_file(loaded, "c_consumer_gap_tiled.lnav") == LEAPNAV_OK);
      CHECK(leapnav_tile_count(loaded) > 1 && leapnav_link_count(loaded) > 0);
      CHECK(leapnav_query_create(loaded, &q) == LEAPNAV_OK);
      if (q == NULL) return 1;
      CHECK(leapnav_find_path(q, start, far_goal, NULL, &whole) == LEAPNAV_OK);
      CHECK(whole.status == LEAPNAV_PATH_FOUND && whole.jump_count == 1);
      CHECK(whole.blocked_by_unloaded_tiles == 0 && whole.unloaded_tile == UINT32_MAX);
      for (tile = 0; tile < leapnav_tile_count(loaded); ++tile) {
        CHECK(leapnav_unload_tile(loaded, tile) == LEAPNAV_OK);
        CHECK(leapnav_find_path(q, start, far_goal, NULL, &cut) == LEAPNAV_OK);
        if (cut.status == LEAPNAV_PATH_NO_PATH) {
          CHECK(cut.blocked_by_unloaded_tiles == 1);
          if (cut.unloaded_tile == tile) ++blocking;
        }
        CHECK(leapnav_load_tile(loaded, tile) == LEAPNAV_OK);
      }
      CHECK(blocking >= 2); /* the tiles of the start and of the goal at least */
      CHECK(leapnav_find_path(q, start, far_goal, NULL, &cut) == LEAPNAV_OK);
      CHECK(cut.status == LEAPNAV_PATH_FOUND && cut.length == whole.length);
      CHECK(leapnav_unload_tile(loaded, leapnav_tile_count(loaded)) == LEAPNAV_INVALID_ARGUMENT);
      tiled.tile_size = 3;
      CHECK(leapnav_build_ex(vertices, 16, triangles, 20, &tiled, &bad) ==
            LEAPNAV_INVALID_ARGUMENT);
      CHECK(bad == NULL && strstr(leapnav_last_error(), "tile_size") != NULL);
      leapnav_query_free(q);
      leapnav_navmesh_free(loaded);
      loaded = NULL;
    }
    CHECK(leapnav_build_link_set(vertices, 16, triangles, 20, NULL, NULL, &c2, 1, 4,
                                 (leapnav_link_set)7, &bad) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    CHECK(strstr(leapnav_last_error(), "link_set 7") != NULL);
    CHECK(strcmp(leapnav_status_name((leapnav_status)99), "unknown") == 0);
    CHECK(strcmp(leapnav_status_name((leapnav_status)-1), "unknown") == 0);
  }

  /* build with a JSON configuration and C2 links; save to memory, load back */
  CHECK(leapnav_build(vertices, 16, triangles, 20, NULL, "{\"base\": \"default\"}", &c2, 1, 4,
                      &built) == LEAPNAV_OK);
  if (built == NULL) return 1;
  CHECK(leapnav_polygon_count(built) > 0);
  CHECK(leapnav_link_count(built) > 0);
  CHECK(leapnav_save_memory(built, NULL, 0, &size) == LEAPNAV_OK);
  CHECK(size > 0);
  bytes = (unsigned char*)malloc(size);
  CHECK(leapnav_save_memory(built, bytes, size - 1, &size) == LEAPNAV_BUFFER_TOO_SMALL);
  CHECK(leapnav_save_memory(built, bytes, size, &size) == LEAPNAV_OK);
  CHECK(leapnav_load_memory(bytes, size, &loaded) == LEAPNAV_OK);
  free(bytes);
  if (loaded == NULL) return 1;
  CHECK(leapnav_link_count(loaded) == leapnav_link_count(built));
  CHECK(leapnav_save_file(loaded, "c_consumer.lnav") == LEAPNAV_OK);
  leapnav_navmesh_free(loaded);
  loaded = NULL;
  CHECK(leapnav_load_file("c_consumer.lnav", &loaded) == LEAPNAV_OK);
  remove("c_consumer.lnav");
  if (loaded == NULL) return 1;

  /* the query keeps the navmesh alive after its handle is freed */
  CHECK(leapnav_query_create(loaded, &query) == LEAPNAV_OK);
  leapnav_navmesh_free(loaded);
  if (query == NULL) return 1;

  leapnav_filter_init(&walk);
  walk.jumps = 0;
  CHECK(leapnav_find_path(query, start, near_goal, &walk, &info) == LEAPNAV_OK);
  CHECK(info.status == LEAPNAV_PATH_FOUND);
  CHECK(fabs(info.length - sqrt(16.0 + 4.0)) < 1e-3);
  /* both walking searches give the straight path; a walk_search naming no search is refused */
  walk.walk_search = LEAPNAV_WALK_SEARCH_EXACT;
  CHECK(leapnav_find_path(query, start, near_goal, &walk, &info) == LEAPNAV_OK);
  CHECK(info.status == LEAPNAV_PATH_FOUND && fabs(info.length - sqrt(16.0 + 4.0)) < 1e-3);
  walk.walk_search = LEAPNAV_WALK_SEARCH_PORTALS;
  CHECK(leapnav_find_path(query, start, near_goal, &walk, &info) == LEAPNAV_OK);
  CHECK(info.status == LEAPNAV_PATH_FOUND && fabs(info.length - sqrt(16.0 + 4.0)) < 1e-3);
  walk.walk_search = (leapnav_walk_search)7;
  CHECK(leapnav_find_path(query, start, near_goal, &walk, &info) == LEAPNAV_INVALID_ARGUMENT);
  CHECK(strstr(leapnav_last_error(), "walk_search 7") != NULL);
  CHECK(leapnav_begin_path(query, start, near_goal, &walk) == LEAPNAV_INVALID_ARGUMENT);
  leapnav_filter_init(&walk);
  walk.jumps = 0;
  CHECK(leapnav_find_path(query, start, far_goal, &walk, &info) == LEAPNAV_OK);
  CHECK(info.status == LEAPNAV_PATH_NO_PATH);
  /* the far slab's ground area (63) excluded: its goal has no path */
  walk.jumps = 1;
  walk.area_costs[63] = INFINITY;
  CHECK(leapnav_find_path(query, start, far_goal, &walk, &info) == LEAPNAV_OK);
  CHECK(info.status == LEAPNAV_PATH_NO_PATH);
  walk.area_costs[63] = 0.0f;
  CHECK(leapnav_find_path(query, start, far_goal, &walk, &info) == LEAPNAV_INVALID_ARGUMENT);
  CHECK(leapnav_find_path(query, start, far_goal, NULL, &info) == LEAPNAV_OK);
  CHECK(info.status == LEAPNAV_PATH_FOUND);
  CHECK(info.jump_count == 1);
  CHECK(info.point_count <= 16 && info.segment_count <= 8);
  CHECK(leapnav_path_points(query, points, 16) == LEAPNAV_OK);
  CHECK(leapnav_path_segments(query, segments, 8) == LEAPNAV_OK);
  for (i = 0; i < info.segment_count; ++i) {
    if (segments[i].is_jump) CHECK(points[3 * segments[i].last] > 10.0f); /* lands across */
  }
  CHECK(leapnav_path_points(query, points, 0) == LEAPNAV_BUFFER_TOO_SMALL);
  CHECK(strstr(leapnav_last_error(), "capacity 0") != NULL);

  /* the sliced search, one expansion per update, gives the one-shot path */
  {
    leapnav_path_info sliced;
    int done = 0;
    uint32_t expanded = 0;
    int updates = 0;
    CHECK(leapnav_find_path(query, start, far_goal, NULL, &info) == LEAPNAV_OK);
    CHECK(leapnav_update_path(query, 1, &done, &expanded) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(leapnav_begin_path(query, start, far_goal, NULL) == LEAPNAV_OK);
    CHECK(leapnav_finish_path(query, &sliced) == LEAPNAV_INVALID_ARGUMENT);
    while (!done && updates < 10000) {
      CHECK(leapnav_update_path(query, 1, &done, &expanded) == LEAPNAV_OK);
      CHECK(expanded <= 1);
      ++updates;
    }
    CHECK(done == 1 && updates > 1);
    CHECK(leapnav_finish_path(query, &sliced) == LEAPNAV_OK);
    CHECK(sliced.status == info.status && sliced.length == info.length);
    CHECK(sliced.point_count == info.point_count && sliced.jump_count == info.jump_count);
  }

  /* raycast to the gap: the wall at x = 8 minus the agent radius, facing -x */
  CHECK(leapnav_raycast(built, start, far_goal, NULL, &hit) == LEAPNAV_OK);
  CHECK(hit.on_mesh == 1 && hit.hit == 1);
  CHECK(hit.point[0] > 7.0f && hit.point[0] < 8.0f);
  CHECK(hit.normal[0] < -0.99f);
  CHECK(leapnav_closest_point(built, far_goal, NULL, surface, &poly, &found) == LEAPNAV_OK);
  CHECK(found == 1 && fabs(surface[1]) < 0.2f);
  CHECK(poly < leapnav_polygon_count(built));

  /* moves along the surface: to a point on the slab, and towards the gap (stops at its wall) */
  CHECK(leapnav_move_along_surface(built, start, near_goal, NULL, &move) == LEAPNAV_OK);
  CHECK(move.on_mesh == 1 && move.reached == 1);
  CHECK(fabs(move.point[0] - 6.0f) < 1e-4 && fabs(move.point[2] - 6.0f) < 1e-4);
  CHECK(leapnav_move_along_surface(built, start, far_goal, NULL, &move) == LEAPNAV_OK);
  CHECK(move.on_mesh == 1 && move.reached == 0);
  CHECK(fabs(move.point[0] - hit.point[0]) < 1e-3 && fabs(move.point[2] - 4.0f) < 1e-3);
  /* from the slab's centre: the nearest (eroded) edge; none within 1 m */
  CHECK(leapnav_distance_to_wall(built, centre, 10.0f, NULL, &wall) == LEAPNAV_OK);
  CHECK(wall.on_mesh == 1 && wall.found == 1);
  /* no farther than the gap's wall the raycast hit; the point lies at that distance */
  CHECK(wall.distance > 2.5f && wall.distance <= 4.0f - (8.0f - hit.point[0]) + 1e-3f);
  CHECK(fabs((wall.point[0] - 4.0f) * (wall.point[0] - 4.0f) +
             (wall.point[2] - 4.0f) * (wall.point[2] - 4.0f) - wall.distance * wall.distance) <
        1e-2);
  CHECK(fabs(wall.normal[0] * wall.normal[0] + wall.normal[2] * wall.normal[2] - 1.0f) < 1e-4);
  CHECK(leapnav_distance_to_wall(built, centre, 1.0f, NULL, &wall) == LEAPNAV_OK);
  CHECK(wall.found == 0 && wall.distance == 1.0f);
  CHECK(leapnav_distance_to_wall(built, centre, -1.0f, NULL, &wall) == LEAPNAV_INVALID_ARGUMENT);

  /* errors: codes and messages, no crash */
  memset(garbage, 7, sizeof garbage);
  CHECK(leapnav_load_memory(garbage, sizeof garbage, &bad) == LEAPNAV_CORRUPT_FILE);
  CHECK(bad == NULL);
  CHECK(strncmp(leapnav_last_error(), "memory:", 7) == 0);
  CHECK(leapnav_load_file("/nonexistent/level.lnav", &bad) == LEAPNAV_IO_ERROR);
  CHECK(leapnav_build(vertices, 16, triangles, 20, NULL, "{\"agent\": {\"radius\": -1}}", NULL, 0,
                      1, &bad) == LEAPNAV_INVALID_ARGUMENT);
  CHECK(strlen(leapnav_last_error()) > 0);
  CHECK(leapnav_build(vertices, 16, triangles, 20, NULL, "{oops", NULL, 0, 1, &bad) ==
        LEAPNAV_PARSE_ERROR);
  {
    uint8_t areas[20];
    memset(areas, 63, sizeof areas);
    areas[3] = 64;
    CHECK(leapnav_build(vertices, 16, triangles, 20, areas, NULL, NULL, 0, 1, &bad) ==
          LEAPNAV_INVALID_ARGUMENT);
    CHECK(strstr(leapnav_last_error(), "triangle 3 has area 64") != NULL);
  }
  triangles[0] = 99;
  CHECK(leapnav_build(vertices, 16, triangles, 20, NULL, NULL, NULL, 0, 1, &bad) ==
        LEAPNAV_INDEX_OUT_OF_RANGE);
  vertices[0] = NAN;
  CHECK(leapnav_find_path(query, vertices, far_goal, NULL, &info) == LEAPNAV_NON_FINITE);
  CHECK(strcmp(leapnav_status_name(LEAPNAV_NON_FINITE), "non_finite") == 0);
  {
    leapnav_query* none = NULL;
    CHECK(leapnav_query_create(NULL, &none) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(none == NULL);
  }

  leapnav_query_free(query);
  leapnav_navmesh_free(built);

  /* ledge links: a slab 1.25 m above the floor across a 0.5 m gap, climbed by a jump-up link and
   * left by a drop link; they survive a save and load, and the filter can turn them off. The
   * scene, its configuration and the saved file are left for scripts/test.sh to compare with the
   * CLI's `leapnav build c_consumer_rise.obj --ledge-links --config c_consumer_rise.json`. */
  {
    float lv[16 * 3];
    uint32_t lt[20 * 3];
    const float floor_lo[3] = {0.0f, -0.5f, 0.0f}, floor_hi[3] = {8.0f, 0.0f, 8.0f};
    const float high_lo[3] = {8.5f, 0.75f, 0.0f}, high_hi[3] = {16.5f, 1.25f, 8.0f};
    const float low[3] = {2.0f, 0.0f, 3.0f}, high[3] = {14.0f, 1.25f, 3.0f};
    leapnav_build_options options;
    leapnav_navmesh* ledged = NULL;
    leapnav_navmesh* reloaded = NULL;
    leapnav_query* climb = NULL;
    leapnav_filter f;
    void* bytes = NULL;
    size_t size = 0;
    int up = 0;
    add_box(lv, lt, 0, floor_lo, floor_hi);
    add_box(lv, lt, 1, high_lo, high_hi);
    leapnav_build_options_init(&options);
    options.config = "{\"base\": \"thesis\", \"agent\": {\"max_jump_up\": 1.5}}";
    options.ledge_links = 1;
    CHECK(leapnav_build_ex(lv, 16, lt, 20, &options, &ledged) == LEAPNAV_OK);
    if (ledged == NULL) return 1;
    CHECK(leapnav_ledge_link_count(ledged) == 2 && leapnav_link_count(ledged) == 0);
    write_obj("c_consumer_rise.obj", lv, lt, 2);
    {
      FILE* json = fopen("c_consumer_rise.json", "w");
      CHECK(json != NULL);
      if (json != NULL) {
        fprintf(json, "%s\n", options.config);
        CHECK(fclose(json) == 0);
      }
    }
    CHECK(leapnav_save_file(ledged, "c_consumer_rise.lnav") == LEAPNAV_OK);
    CHECK(leapnav_save_memory(ledged, NULL, 0, &size) == LEAPNAV_OK);
    bytes = malloc(size);
    CHECK(bytes != NULL && leapnav_save_memory(ledged, bytes, size, &size) == LEAPNAV_OK);
    CHECK(leapnav_load_memory(bytes, size, &reloaded) == LEAPNAV_OK);
    free(bytes);
    leapnav_navmesh_free(ledged);
    if (reloaded == NULL) return 1;
    CHECK(leapnav_ledge_link_count(reloaded) == 2);
    CHECK(leapnav_query_create(reloaded, &climb) == LEAPNAV_OK);
    leapnav_navmesh_free(reloaded);
    if (climb == NULL) return 1;
    leapnav_filter_init(&f);
    CHECK(f.ledge_links == 1 && f.crouch == 1 && f.crouch_cost == 1.0f);
    CHECK(leapnav_find_path(climb, low, high, &f, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_FOUND && info.segment_count <= 8);
    CHECK(leapnav_path_segments(climb, segments, 8) == LEAPNAV_OK);
    for (i = 0; i < info.segment_count; ++i) {
      if (segments[i].kind == LEAPNAV_SEGMENT_JUMP_UP) ++up;
      CHECK(segments[i].is_jump == 0);
    }
    CHECK(up == 1);
    CHECK(leapnav_find_path(climb, high, low, &f, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_FOUND);
    CHECK(leapnav_path_segments(climb, segments, 8) == LEAPNAV_OK);
    CHECK(info.segment_count >= 2 && segments[1].kind == LEAPNAV_SEGMENT_DROP);
    f.ledge_links = 0;
    CHECK(leapnav_find_path(climb, low, high, &f, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_NO_PATH);
    f.ledge_links = 1;
    f.crouch_cost = 0.0f;
    CHECK(leapnav_find_path(climb, low, high, &f, &info) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(strstr(leapnav_last_error(), "crouch") != NULL);
    leapnav_query_free(climb);
  }

  /* the walkable-link filter's modes: two slabs 2 m apart joined by a bridge at one end, where
   * jumps near the bridge save no walking. The file without the filter is left for
   * scripts/test.sh to compare with the CLI's `--keep-walkable-links`. */
  {
    float bv[24 * 3];
    uint32_t bt[30 * 3];
    const float a_lo[3] = {0.0f, -0.5f, 0.0f}, a_hi[3] = {8.0f, 0.0f, 8.0f};
    const float b_lo[3] = {10.0f, -0.5f, 0.0f}, b_hi[3] = {18.0f, 0.0f, 8.0f};
    const float c_lo[3] = {7.9f, -0.5f, 0.0f}, c_hi[3] = {10.1f, 0.0f, 2.0f};
    leapnav_build_options options;
    leapnav_navmesh* made = NULL;
    size_t counts[3] = {0, 0, 0};
    int mode;
    add_box(bv, bt, 0, a_lo, a_hi);
    add_box(bv, bt, 1, b_lo, b_hi);
    add_box(bv, bt, 2, c_lo, c_hi);
    write_obj("c_consumer_bridge.obj", bv, bt, 3);
    leapnav_build_options_init(&options);
    CHECK(options.walkable_filter == LEAPNAV_WALKABLE_FILTER_GROUPS);
    options.jumps = &c2;
    options.jump_count = 1;
    for (mode = 0; mode < 3; ++mode) {
      options.walkable_filter = (leapnav_walkable_filter)mode;
      CHECK(leapnav_build_ex(bv, 24, bt, 30, &options, &made) == LEAPNAV_OK);
      if (made == NULL) return 1;
      counts[mode] = leapnav_link_count(made);
      if (mode == LEAPNAV_WALKABLE_FILTER_OFF) {
        CHECK(leapnav_save_file(made, "c_consumer_bridge_off.lnav") == LEAPNAV_OK);
      }
      leapnav_navmesh_free(made);
      made = NULL;
    }
    /* one by one drops at least what whole groups drop; without the filter more are kept */
    CHECK(counts[LEAPNAV_WALKABLE_FILTER_OFF] > counts[LEAPNAV_WALKABLE_FILTER_GROUPS]);
    CHECK(counts[LEAPNAV_WALKABLE_FILTER_GROUPS] >= counts[LEAPNAV_WALKABLE_FILTER_LINKS]);
    CHECK(counts[LEAPNAV_WALKABLE_FILTER_LINKS] > 0);
    options.walkable_filter = (leapnav_walkable_filter)3;
    CHECK(leapnav_build_ex(bv, 24, bt, 30, &options, &made) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(made == NULL && strstr(leapnav_last_error(), "walkable_filter 3") != NULL);
  }
  if (failures == 0) printf("c_consumer: every check holds\n");
  return failures == 0 ? 0 : 1;
}
