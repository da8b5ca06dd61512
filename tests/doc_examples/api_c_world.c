/* docs/api.md, the C streaming block. Given: level.lnavpack, the pack that `leapnav build
 * level.obj --tile-size 16` and `leapnav pack` make of a 30 x 30 m floor (7 x 7 tiles of 4.8 m;
 * without $LEAPNAV_CLI the example is skipped with a message, the C API writes no packs);
 * tile_w = 4.8 m; player = start near the middle of tile (3, 3), goal in tile (4, 4); the outputs
 * the calls write; fail() prints leapnav_last_error() and ends the example with 1.
 * Checks what the comments claim: the window is the 3 x 3 tiles around the player's; the path is
 * found and its points run from start to goal; resident bytes are counted; a goal outside the
 * window gives NO_PATH with unloaded_tile that goal's tile and blocked_by_unloaded_tiles;
 * unloading a tile frees memory (resident bytes fall). */
#include <leapnav/leapnav.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define DOC_CHECK(cond)                                                \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "line %d: %s does not hold\n", __LINE__, #cond); \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

static int fail(void) {
  fprintf(stderr, "api_c_world: %s\n", leapnav_last_error());
  return 1;
}

/* Writes level.lnavpack with `leapnav build` and `leapnav pack`; 0 without $LEAPNAV_CLI, -1 when
 * a command fails, 1 when written. */
static int write_pack(void) {
  const char* cli = getenv("LEAPNAV_CLI");
  char command[1200];
  FILE* obj;
  if (cli == NULL || *cli == '\0') {
    printf("LEAPNAV_CLI not set: skipped (the pack is written by `leapnav pack`)\n");
    return 0;
  }
  obj = fopen("level.obj", "w");
  if (obj == NULL) return -1;
  /* the top face of a 30 x 30 m floor at y = 0 */
  fprintf(obj, "v 0 0 0\nv 30 0 0\nv 30 0 30\nv 0 0 30\nf 1 3 2\nf 1 4 3\n");
  fclose(obj);
  sprintf(command,
          "%.500s build level.obj --tile-size 16 -o level.lnav >/dev/null && "
          "%.500s pack level.lnav -o level.lnavpack >/dev/null",
          cli, cli);
  return system(command) == 0 ? 1 : -1;
}

static int contains(const uint32_t* tiles, size_t count, uint32_t tile) {
  size_t i;
  for (i = 0; i < count; ++i)
    if (tiles[i] == tile) return 1;
  return 0;
}

int main(void) {
  const float tile_w = 4.8f;
  const float player[3] = {16.0f, 0.0f, 16.0f};
  const float* start = player;
  const float goal[3] = {20.0f, 0.0f, 20.0f};
  const float far_goal[3] = {28.0f, 0.0f, 28.0f};
  float points[3 * 64];
  const size_t capacity = 64;
  uint64_t resident = 0;
  int written = write_pack();
  if (written == 0) return 0;
  if (written < 0) {
    fprintf(stderr, "api_c_world: `leapnav build` or `leapnav pack` failed\n");
    return 1;
  }
  memset(points, 0, sizeof points);
  {
    /* @example */
    {
      /* the window: tiles x 2..4, z 2..4 of the 7 x 7 (tile = z * 7 + x) */
      uint32_t x, z;
      DOC_CHECK(count == 9);
      for (z = 2; z <= 4; ++z)
        for (x = 2; x <= 4; ++x) DOC_CHECK(contains(window, count, z * 7 + x));
    }
    DOC_CHECK(winfo.status == LEAPNAV_PATH_FOUND && winfo.point_count >= 2 &&
              winfo.point_count <= capacity && !winfo.blocked_by_unloaded_tiles);
    if (winfo.point_count >= 2 && winfo.point_count <= capacity) {
      const float* last = points + 3 * (winfo.point_count - 1);
      DOC_CHECK(fabsf(points[0] - start[0]) < 0.01f && fabsf(points[2] - start[2]) < 0.01f);
      DOC_CHECK(fabsf(last[0] - goal[0]) < 0.01f && fabsf(last[2] - goal[2]) < 0.01f);
    }
    DOC_CHECK(resident > 0);
    {
      /* the same window again: a goal outside it; an unload frees memory */
      leapnav_world* again = NULL;
      leapnav_world_query* q = NULL;
      leapnav_path_info info;
      uint64_t loaded_bytes;
      if (leapnav_world_open("level.lnavpack", &again) != LEAPNAV_OK) return fail();
      if (leapnav_world_set_loaded(again, window, count) != LEAPNAV_OK) return fail();
      loaded_bytes = leapnav_world_resident_bytes(again);
      DOC_CHECK(loaded_bytes == resident);
      if (leapnav_world_query_create(again, &q) != LEAPNAV_OK) return fail();
      if (leapnav_world_find_path(q, start, far_goal, NULL, &info) != LEAPNAV_OK) return fail();
      DOC_CHECK(info.status == LEAPNAV_PATH_NO_PATH && info.blocked_by_unloaded_tiles &&
                info.unloaded_tile == leapnav_world_tile_at(again, far_goal) &&
                info.unloaded_tile == 5 * 7 + 5); /* x and z 28 m: tile (5, 5) */
      if (leapnav_world_unload_tile(again, 2 * 7 + 2) != LEAPNAV_OK) return fail();
      DOC_CHECK(!leapnav_world_tile_loaded(again, 2 * 7 + 2) &&
                leapnav_world_resident_bytes(again) < loaded_bytes);
      leapnav_world_query_free(q);
      leapnav_world_free(again);
    }
  }
  if (failures == 0) printf("api_c_world: the example runs and does what the text says\n");
  return failures == 0 ? 0 : 1;
}
