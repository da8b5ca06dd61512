/* docs/api.md, the C block. Given: xyz and indices of two 14 x 14 m slabs 0.5 m thick with a 2 m
 * gap along x (tops at y = 0; in 16-column tiles of 4.8 m: 7 x 3 tiles, so tile 12 exists), start
 * on the first slab, goal on the second, the outputs the calls write; fail() prints
 * leapnav_last_error() and ends the example with 1; wait_for_next_frame() counts frames.
 * Checks: the sliced search's path is found with one jump; the
 * raycast, move, wall distance and closest point succeed; the saved size is the size of the
 * CLI's file for the options the block names. */
#include <leapnav/leapnav.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int frames = 0;

#define DOC_CHECK(cond)                                                \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "line %d: %s does not hold\n", __LINE__, #cond); \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

static int fail(void) {
  fprintf(stderr, "api_c: %s\n", leapnav_last_error());
  return 1;
}

static void wait_for_next_frame(void) {
  ++frames;
}

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

/* The size of the file `leapnav <arguments>` writes to cli.lnav, or 0 without $LEAPNAV_CLI. */
static size_t cli_file_size(const char* arguments) {
  const char* cli = getenv("LEAPNAV_CLI");
  char command[1024];
  FILE* file;
  long size;
  if (cli == NULL || *cli == '\0') {
    printf("LEAPNAV_CLI not set: skipped `leapnav %s`\n", arguments);
    return 0;
  }
  sprintf(command, "%.500s %.400s -o cli.lnav >/dev/null", cli, arguments);
  if (system(command) != 0) return 1;
  file = fopen("cli.lnav", "rb");
  if (file == NULL) return 1;
  fseek(file, 0, SEEK_END);
  size = ftell(file);
  fclose(file);
  return (size_t)size;
}

int main(void) {
  float xyz[16 * 3];
  uint32_t indices[20 * 3];
  const size_t n_vertices = 16, n_triangles = 20;
  const float lo0[3] = {0.0f, -0.5f, 0.0f}, hi0[3] = {14.0f, 0.0f, 14.0f};
  const float lo1[3] = {16.0f, -0.5f, 0.0f}, hi1[3] = {30.0f, 0.0f, 14.0f};
  const float start[3] = {2.0f, 0.0f, 4.0f}, goal[3] = {24.0f, 0.0f, 4.0f};
  const float end[3] = {20.0f, 0.0f, 4.0f}, target[3] = {20.0f, 0.0f, 4.0f};
  const float centre[3] = {4.0f, 0.0f, 4.0f}, p[3] = {7.0f, 1.0f, 7.0f};
  float points[3 * 64];
  const size_t capacity = 64;
  leapnav_raycast_hit hit;
  leapnav_surface_move move;
  leapnav_wall_distance wall;
  int done = 0, found = 0;
  float out[3];
  uint32_t poly = 0;
  size_t size = 0, cli_size;
  FILE* obj;
  int i;
  add_box(xyz, indices, 0, lo0, hi0);
  add_box(xyz, indices, 1, lo1, hi1);
  memset(&hit, 0, sizeof hit);
  memset(&move, 0, sizeof move);
  memset(&wall, 0, sizeof wall);
  obj = fopen("level.obj", "w");
  if (obj == NULL) return 1;
  for (i = 0; i < 16; ++i)
    fprintf(obj, "v %.9g %.9g %.9g\n", xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  for (i = 0; i < 20; ++i)
    fprintf(obj, "f %u %u %u\n", (unsigned)indices[3 * i] + 1, (unsigned)indices[3 * i + 1] + 1,
            (unsigned)indices[3 * i + 2] + 1);
  fclose(obj);
  {
    /* @example */
    DOC_CHECK(info.status == LEAPNAV_PATH_FOUND && info.jump_count == 1);
    DOC_CHECK(done);
  }
  DOC_CHECK(hit.on_mesh && hit.hit); /* the ray to the second slab leaves the first at x = 14 */
  DOC_CHECK(move.on_mesh && !move.reached);
  DOC_CHECK(wall.on_mesh && wall.found && wall.distance < 5.0f);
  DOC_CHECK(found);
  cli_size = cli_file_size(
      "build level.obj --jump C2 --step 4 --ledge-links --tile-size 16 --keep-walkable-links");
  DOC_CHECK(cli_size == 0 || cli_size == size);
  if (failures == 0) printf("api_c: the example runs and does what the text says\n");
  return failures == 0 ? 0 : 1;
}
