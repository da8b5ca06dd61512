/* leapnav's C API (C99): build a navmesh with jump links from arrays, save and load it, and plan
 * walk and jump paths, raycasts and closest points through opaque handles. Every function returns
 * a leapnav_status; on an error, leapnav_last_error() gives the library's message (naming the input
 * and the problem) for the calling thread. No C++ exception crosses this interface.
 *
 * Functions that return no status (counts, _init, _free) leave the message as it was.
 *
 * Ownership and threads: a leapnav_navmesh's mesh and links are immutable once made and it may be
 * used from several threads at once; the one change it allows, which tiles are loaded
 * (leapnav_unload_tile, leapnav_load_tile), is atomic and may be made while queries run on other
 * threads. A leapnav_query is used by one thread at a time and keeps the navmesh's data alive, so
 * the navmesh handle may be freed while queries made from it are still in use. Free each handle
 * once with its _free.
 *
 * Undefined by design (not detected): a handle used after its _free or freed twice, a handle freed
 * while another thread uses it, a pointer that is not NULL but points to fewer elements than its
 * count or capacity says (or, for x, y, z arguments, fewer than 3 floats), and a config that is
 * not NULL-terminated. Everything else bad (NULL pointers, NaN or infinite numbers, values out of
 * range, enum fields holding no enumerator, counts no array can hold) is an error status. */
#ifndef LEAPNAV_LEAPNAV_H
#define LEAPNAV_LEAPNAV_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(LEAPNAV_C_BUILD)
#define LEAPNAV_C_API __declspec(dllexport)
#elif defined(_WIN32)
#define LEAPNAV_C_API __declspec(dllimport)
#elif defined(__GNUC__)
#define LEAPNAV_C_API __attribute__((visibility("default")))
#else
#define LEAPNAV_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Outcome of a call; the error values mirror leapnav::ErrorCode. */
typedef enum leapnav_status {
  LEAPNAV_OK = 0,
  LEAPNAV_INVALID_ARGUMENT = 1,    /**< a value out of its documented range, or a null pointer */
  LEAPNAV_IO_ERROR = 2,            /**< a file could not be read or written */
  LEAPNAV_PARSE_ERROR = 3,         /**< malformed JSON configuration text */
  LEAPNAV_NON_FINITE = 4,          /**< a NaN or infinite number in the input */
  LEAPNAV_INDEX_OUT_OF_RANGE = 5,  /**< a triangle index that refers to no vertex */
  LEAPNAV_EMPTY_INPUT = 6,         /**< nothing to work on */
  LEAPNAV_CORRUPT_FILE = 7,        /**< .lnav bytes failed their checks */
  LEAPNAV_UNSUPPORTED_VERSION = 8, /**< .lnav bytes from a newer format version */
  LEAPNAV_MEMORY_LIMIT = 9,        /**< the work would need more memory than allowed */
  LEAPNAV_CANCELLED = 10,          /**< cancelled */
  LEAPNAV_INTERNAL = 11,           /**< a bug, or out of memory */
  LEAPNAV_BUFFER_TOO_SMALL = 12    /**< an output buffer is smaller than the size reported */
} leapnav_status;

/** The message of the last error on this thread ("" after a success); valid until the next call
 * on this thread. */
LEAPNAV_C_API const char* leapnav_last_error(void);
/** A stable lower-case name of a status ("corrupt_file"); "unknown" for a value that is none. */
LEAPNAV_C_API const char* leapnav_status_name(leapnav_status status);

typedef struct leapnav_navmesh leapnav_navmesh;
typedef struct leapnav_query leapnav_query;

/** A jump configuration (thesis Definition 4.2): apex height h, distance d and largest fall, in
 * metres. The thesis's C1, C2, C3 are (1, 2.5, 2.5), (3, 7.5, 7.5), (5, 12.5, 12.5). */
typedef struct leapnav_jump_config {
  float height;
  float distance;
  float max_fall;
} leapnav_jump_config;

/** Builds a navmesh from a triangle soup (y up, metres): `vertices` holds vertex_count x, y, z
 * triples, `triangles` triangle_count index triples, `triangle_areas` NULL (every walkable
 * triangle is ground, area 63) or one area id per triangle (1..63; 0 = never walkable) that
 * reaches the polygons for leapnav_filter.area_costs. `config` is NULL or "" (the "default"
 * configuration), a configuration name ("default", "thesis"), or JSON text starting with '{' whose
 * sections mirror the C++ BuildConfig ({"base": "thesis", "agent": {"radius": 0.4}}). With
 * jump_count > 0, jump links for those configurations are generated on sample columns whose grid
 * x and z are divisible by jump_step (>= 1; 4 is a good start) as the CLI's untiled
 * `leapnav build --jump ... --step jump_step` makes them: links that save no walking dropped,
 * endpoints on the triangles, only links that pass the exact check, the compact set (the same
 * links, byte for byte in a saved file). On success *out is a new handle. */
LEAPNAV_C_API leapnav_status leapnav_build(const float* vertices, size_t vertex_count,
                                           const uint32_t* triangles, size_t triangle_count,
                                           const uint8_t* triangle_areas, const char* config,
                                           const leapnav_jump_config* jumps, size_t jump_count,
                                           int jump_step, leapnav_navmesh** out);
/** The jump links leapnav_build_link_set keeps: the compact set (a cover of the refined links
 * within a 0.75 m detour, on a 2 mm lattice; the CLI's default --link-set compact) or every refined
 * link
 * (--link-set full). Every link of either passes the exact check on the given triangles. */
typedef enum leapnav_link_set {
  LEAPNAV_LINK_SET_COMPACT = 0,
  LEAPNAV_LINK_SET_FULL = 1
} leapnav_link_set;

/** leapnav_build with a choice of link set (leapnav_build keeps the compact one). */
LEAPNAV_C_API leapnav_status leapnav_build_link_set(
    const float* vertices, size_t vertex_count, const uint32_t* triangles, size_t triangle_count,
    const uint8_t* triangle_areas, const char* config, const leapnav_jump_config* jumps,
    size_t jump_count, int jump_step, leapnav_link_set link_set, leapnav_navmesh** out);
/** Which jump links the walkable-link filter drops before refinement: links whose start and
 * landing are joined by a walk no longer than the jump's cost (they save no walking). */
typedef enum leapnav_walkable_filter {
  /** drop such a link only with its whole group (same start and land polygon), so the paths
   * are the unfiltered set's (the CLI's default) */
  LEAPNAV_WALKABLE_FILTER_GROUPS = 0,
  LEAPNAV_WALKABLE_FILTER_LINKS = 1, /**< drop them one by one (`--walkable-filter links`) */
  LEAPNAV_WALKABLE_FILTER_OFF = 2    /**< keep every link (`--keep-walkable-links`) */
} leapnav_walkable_filter;

/** Everything leapnav_build_ex may use besides the triangles. Initialise with
 * leapnav_build_options_init, then set what differs. */
typedef struct leapnav_build_options {
  const uint8_t* triangle_areas;    /**< as leapnav_build (NULL: every triangle is ground) */
  const char* config;               /**< as leapnav_build (NULL: "default") */
  const leapnav_jump_config* jumps; /**< jump_count configurations (NULL when 0) */
  size_t jump_count;
  int jump_step;             /**< >= 1, as leapnav_build */
  leapnav_link_set link_set; /**< compact (default) or full */
  /** nonzero: ledge links as the CLI's `leapnav build --ledge-links` makes them: step up and
   * down, jump up (agent.max_jump_up) and drop (agent.max_drop) across boundary edges the walk
   * mesh does not connect, each passing its check on the triangles. */
  int ledge_links;
  /** 0: one grid (untiled). N in 16..65536: the tiled build of `leapnav build --tile-size N`
   * (tiles of N x N columns built and stitched into one navmesh; jump links per tile, crossing
   * tile borders; ledge links on the stitched mesh), the CLI's file byte for byte. */
  int tile_size;
  /** the walkable-link filter for jump links (default LEAPNAV_WALKABLE_FILTER_GROUPS) */
  leapnav_walkable_filter walkable_filter;
} leapnav_build_options;

/** The defaults: no areas, the "default" configuration, no jumps, step 4, the compact link set,
 * no ledge links, untiled, walkable links dropped by whole groups. */
LEAPNAV_C_API void leapnav_build_options_init(leapnav_build_options* options);
/** leapnav_build with every option; options NULL means the defaults. */
LEAPNAV_C_API leapnav_status leapnav_build_ex(const float* vertices, size_t vertex_count,
                                              const uint32_t* triangles, size_t triangle_count,
                                              const leapnav_build_options* options,
                                              leapnav_navmesh** out);
/** Loads a .lnav file (with its jump, ledge and ladder links when it has them). */
LEAPNAV_C_API leapnav_status leapnav_load_file(const char* path, leapnav_navmesh** out);
/** Decodes .lnav bytes (untrusted: every count and index is checked). */
LEAPNAV_C_API leapnav_status leapnav_load_memory(const void* data, size_t size,
                                                 leapnav_navmesh** out);
/** Writes the navmesh and its links (jump, ledge and ladder) to a .lnav file. */
LEAPNAV_C_API leapnav_status leapnav_save_file(const leapnav_navmesh* navmesh, const char* path);
/** Encodes the navmesh and its links as .lnav bytes into buffer[0 .. capacity): *size receives the
 * number of bytes needed; with a NULL buffer or too small a capacity nothing is written and the
 * status is LEAPNAV_OK (NULL buffer) or LEAPNAV_BUFFER_TOO_SMALL. */
LEAPNAV_C_API leapnav_status leapnav_save_memory(const leapnav_navmesh* navmesh, void* buffer,
                                                 size_t capacity, size_t* size);
/** Frees a navmesh handle (NULL is fine). Queries made from it stay valid. */
LEAPNAV_C_API void leapnav_navmesh_free(leapnav_navmesh* navmesh);

LEAPNAV_C_API size_t leapnav_polygon_count(const leapnav_navmesh* navmesh);
LEAPNAV_C_API size_t leapnav_vertex_count(const leapnav_navmesh* navmesh);
/** Number of jump links (0 without links). */
LEAPNAV_C_API size_t leapnav_link_count(const leapnav_navmesh* navmesh);
/** Number of ledge and ladder links (0 without them). */
LEAPNAV_C_API size_t leapnav_ledge_link_count(const leapnav_navmesh* navmesh);

/** Tiles of a tiled navmesh (0 for an untiled one). */
LEAPNAV_C_API uint32_t leapnav_tile_count(const leapnav_navmesh* navmesh);
/** Streaming: an unloaded tile's polygons are never entered by a path (and paths that start or
 * end in one report it in leapnav_path_info); loading it again restores the same paths. Every
 * query made from the navmesh sees the change; it may be made while queries run on other
 * threads. Unloading hides the tile, it frees no memory. LEAPNAV_INVALID_ARGUMENT for a tile >=
 * leapnav_tile_count. */
LEAPNAV_C_API leapnav_status leapnav_unload_tile(leapnav_navmesh* navmesh, uint32_t tile);
LEAPNAV_C_API leapnav_status leapnav_load_tile(leapnav_navmesh* navmesh, uint32_t tile);

/** How the walking parts of a path are searched (mirrors leapnav::plan::WalkSearch). */
typedef enum leapnav_walk_search {
  /** The shortest path on the polygons (an any-angle search), for queries that only walk (jumps
   * off or no usable link) and whose allowed areas cost the same; other queries use PORTALS. */
  LEAPNAV_WALK_SEARCH_EXACT = 0,
  /** A* over portal crossing points, then the funnel over the corridor found. */
  LEAPNAV_WALK_SEARCH_PORTALS = 1
} leapnav_walk_search;

/** What a path query may use and how it weighs it. Initialise with leapnav_filter_init. */
typedef struct leapnav_filter {
  int jumps;              /**< nonzero: plan over jump links when the navmesh has them */
  float jump_cost;        /**< added to every jump's cost [m] (>= 0) */
  uint64_t jump_configs;  /**< bit i allows jump configuration i (bit 63: every i >= 63) */
  float search_extent[3]; /**< half box searched around start and goal for a polygon [m] */
  uint32_t max_nodes;     /**< A* expansions before a partial path (>= 1) */
  /** Cost per metre of crossing a polygon of each area id (> 0; INFINITY excludes the area). */
  float area_costs[256];
  uint16_t include_flags;          /**< a polygon with flags must share one with these */
  uint16_t exclude_flags;          /**< a polygon sharing a flag with these is never entered */
  leapnav_walk_search walk_search; /**< how walking is searched (another value: invalid) */
  int ledge_links;   /**< nonzero: plan over ledge and ladder links when the navmesh has them */
  int crouch;        /**< nonzero: the agent may enter crouch polygons */
  float crouch_cost; /**< multiplies the walking cost across crouch polygons (> 0, finite) */
} leapnav_filter;

/** The defaults: jumps on, jump cost 4 m, every configuration, extent (2, 4, 2), 65536 nodes,
 * every area cost 1, include_flags 0xFFFF, exclude_flags 0, walk_search the library's default
 * (leapnav::plan::QueryOptions::walk_search), ledge links on, crouching on at cost 1. */
LEAPNAV_C_API void leapnav_filter_init(leapnav_filter* filter);

/** A per-thread query over a navmesh; it keeps the navmesh's data alive. */
LEAPNAV_C_API leapnav_status leapnav_query_create(const leapnav_navmesh* navmesh,
                                                  leapnav_query** out);
LEAPNAV_C_API void leapnav_query_free(leapnav_query* query);

typedef enum leapnav_path_status {
  LEAPNAV_PATH_FOUND = 0,
  LEAPNAV_PATH_PARTIAL = 1, /**< node limit reached: a path towards the goal */
  LEAPNAV_PATH_NO_PATH = 2, /**< the goal is not reachable */
  LEAPNAV_PATH_START_NOT_ON_MESH = 3,
  LEAPNAV_PATH_GOAL_NOT_ON_MESH = 4
} leapnav_path_status;

/** The summary of the last path a query found. */
typedef struct leapnav_path_info {
  leapnav_path_status status;
  double length;      /**< xz length of the polyline, jumps as chords [m] */
  size_t point_count; /**< corners, start and goal included (0 unless found or partial) */
  size_t segment_count;
  uint32_t jump_count;
  /** NO_PATH with tiles unloaded: nonzero when the start or goal lies in an unloaded tile, or the
   * search was refused entry to one and found no other way (loading may give a path). */
  int blocked_by_unloaded_tiles;
  /** NO_PATH: the unloaded tile holding the start, or else the goal; UINT32_MAX for none. */
  uint32_t unloaded_tile;
} leapnav_path_info;

/** How a piece of a path is traversed (mirrors leapnav::plan::SegmentKind). */
typedef enum leapnav_segment_kind {
  LEAPNAV_SEGMENT_WALK = 0,
  LEAPNAV_SEGMENT_JUMP = 1,      /**< a ballistic jump over a jump link */
  LEAPNAV_SEGMENT_STEP_UP = 2,   /**< ledge links: up a step the walk mesh does not connect */
  LEAPNAV_SEGMENT_STEP_DOWN = 3, /**< down such a step */
  LEAPNAV_SEGMENT_JUMP_UP = 4,   /**< up a ledge above the climb */
  LEAPNAV_SEGMENT_DROP = 5,      /**< down a ledge */
  LEAPNAV_SEGMENT_LADDER = 6     /**< along an authored ladder */
} leapnav_segment_kind;

/** One piece of a path: its points are [first, last] of the path's points; a piece that is not
 * a walk goes straight from points[first] to points[first + 1]. */
typedef struct leapnav_path_segment {
  int is_jump; /**< kind == LEAPNAV_SEGMENT_JUMP */
  uint32_t first;
  uint32_t last;
  float jump_height;   /**< jump only: apex above the start [m] */
  float jump_distance; /**< jump only: distance of the arc through start and landing [m] */
  uint32_t link;       /**< jump only: the link's index */
  leapnav_segment_kind kind;
} leapnav_path_segment;

/** A path from start to goal (x, y, z each) under `filter` (NULL: the defaults); info may be NULL.
 * The path stays in the query until its next find_path; read it with leapnav_path_points /
 * _segments. */
LEAPNAV_C_API leapnav_status leapnav_find_path(leapnav_query* query, const float start[3],
                                               const float goal[3], const leapnav_filter* filter,
                                               leapnav_path_info* info);
/** Copies the last path's points (x, y, z each) into xyz[0 .. 3 * capacity); with fewer than
 * info.point_count it writes nothing and returns LEAPNAV_BUFFER_TOO_SMALL (xyz may be NULL when
 * there are no points). leapnav_path_segments does the same with info.segment_count. */
LEAPNAV_C_API leapnav_status leapnav_path_points(const leapnav_query* query, float* xyz,
                                                 size_t capacity);
LEAPNAV_C_API leapnav_status leapnav_path_segments(const leapnav_query* query,
                                                   leapnav_path_segment* segments, size_t capacity);

/** A raycast along the surface (see plan::raycast). on_mesh is 0 when no polygon lies within the
 * extent of the start (nothing else is set then). */
typedef struct leapnav_raycast_hit {
  int on_mesh;
  int hit;         /**< the segment leaves the mesh through a wall before its end */
  float t;         /**< fraction of start -> end travelled (1 without a hit) */
  float point[3];  /**< the point at t on the surface */
  float normal[3]; /**< the wall's unit normal into the mesh (y = 0), zero without a hit */
  size_t visited;  /**< polygons crossed */
} leapnav_raycast_hit;

/** extent: the half box searched around start (NULL: 2, 4, 2). */
LEAPNAV_C_API leapnav_status leapnav_raycast(const leapnav_navmesh* navmesh, const float start[3],
                                             const float end[3], const float extent[3],
                                             leapnav_raycast_hit* out);
/** The nearest point of the surface within extent of `point` (NULL extent: 2, 4, 2): *found is 0
 * when there is none; otherwise out[3] holds the point (y is the floor height) and *polygon its
 * polygon (polygon may be NULL). */
LEAPNAV_C_API leapnav_status leapnav_closest_point(const leapnav_navmesh* navmesh,
                                                   const float point[3], const float extent[3],
                                                   float out[3], uint32_t* polygon, int* found);

/** Sliced (time-budgeted) path search: begin, then update with at most max_iterations A* node
 * expansions (>= 1) per call until *done is nonzero, then finish; the path equals
 * leapnav_find_path's for the same arguments and is read as its is. A new begin (or a
 * find_path) abandons a search in progress; update before a begin and finish before done are
 * LEAPNAV_INVALID_ARGUMENT. expanded and info may be NULL. */
LEAPNAV_C_API leapnav_status leapnav_begin_path(leapnav_query* query, const float start[3],
                                                const float goal[3], const leapnav_filter* filter);
LEAPNAV_C_API leapnav_status leapnav_update_path(leapnav_query* query, uint32_t max_iterations,
                                                 int* done, uint32_t* expanded);
LEAPNAV_C_API leapnav_status leapnav_finish_path(leapnav_query* query, leapnav_path_info* info);

/** Where a move along the surface ends (see plan::move_along_surface). on_mesh is 0 when no
 * polygon lies within the extent of the start (nothing else is set then). */
typedef struct leapnav_surface_move {
  int on_mesh;
  int reached;    /**< point is the target; otherwise the nearest wall point towards it */
  float point[3]; /**< on the surface [m] */
  size_t visited; /**< polygons from the start's to the end's */
} leapnav_surface_move;

/** Moves from start towards target along the surface, sliding along walls (Detour's
 * moveAlongSurface); extent: the half box searched around start (NULL: 2, 4, 2). */
LEAPNAV_C_API leapnav_status leapnav_move_along_surface(const leapnav_navmesh* navmesh,
                                                        const float start[3], const float target[3],
                                                        const float extent[3],
                                                        leapnav_surface_move* out);

/** The nearest wall around a point (see plan::distance_to_wall). on_mesh is 0 when the centre is
 * off the mesh; found is 0 when no wall lies within max_radius (distance is then max_radius). */
typedef struct leapnav_wall_distance {
  int on_mesh;
  int found;
  float distance;  /**< xz distance to the wall [m] */
  float point[3];  /**< the nearest wall point (found only) */
  float normal[3]; /**< the wall's unit normal into the mesh (y = 0; found only) */
} leapnav_wall_distance;

LEAPNAV_C_API leapnav_status leapnav_distance_to_wall(const leapnav_navmesh* navmesh,
                                                      const float center[3], float max_radius,
                                                      const float extent[3],
                                                      leapnav_wall_distance* out);

/* Streaming worlds (leapnav::stream::TileWorld): a tile pack (.lnavpack, `leapnav pack`) opened
 * with only its header in memory; tiles are read when loaded and freed when unloaded, and paths
 * are planned over the loaded tiles. Loads and unloads may run on any thread while queries run on
 * others (each query takes the world's current state when it starts). A leapnav_world_query is
 * used by one thread at a time and must not outlive its world. Polygon ids do not appear here;
 * statuses as leapnav_find_path's with unloaded tiles (blocked_by_unloaded_tiles, unloaded_tile;
 * docs/tiles.md, "Streaming from a tile pack"). */
typedef struct leapnav_world leapnav_world;
typedef struct leapnav_world_query leapnav_world_query;

/** Opens a tile pack; no tile is loaded. IO_ERROR or CORRUPT_FILE naming the file. */
LEAPNAV_C_API leapnav_status leapnav_world_open(const char* path, leapnav_world** out);
LEAPNAV_C_API void leapnav_world_free(leapnav_world* world);
/** The number of tiles (0 for NULL). */
LEAPNAV_C_API uint32_t leapnav_world_tile_count(const leapnav_world* world);
/** The tile whose columns hold the point's x and z; UINT32_MAX outside the tiles (or NULL). */
LEAPNAV_C_API uint32_t leapnav_world_tile_at(const leapnav_world* world, const float point[3]);
/** Nonzero when the tile is loaded (0 out of range or for NULL). */
LEAPNAV_C_API int leapnav_world_tile_loaded(const leapnav_world* world, uint32_t tile);
/** Reads the tile's block (CORRUPT_FILE naming the file and tile when it is damaged: nothing
 * changes then); loading a loaded tile does nothing. INVALID_ARGUMENT out of range. */
LEAPNAV_C_API leapnav_status leapnav_world_load_tile(leapnav_world* world, uint32_t tile);
/** Frees the tile's block; unloading an unloaded tile does nothing. */
LEAPNAV_C_API leapnav_status leapnav_world_unload_tile(leapnav_world* world, uint32_t tile);
/** Makes exactly tiles[0 .. count) loaded in one step (a window around the player). */
LEAPNAV_C_API leapnav_status leapnav_world_set_loaded(leapnav_world* world, const uint32_t* tiles,
                                                      size_t count);
/** Bytes the world holds (header, loaded tiles, planning data of the loaded tiles). */
LEAPNAV_C_API uint64_t leapnav_world_resident_bytes(const leapnav_world* world);

LEAPNAV_C_API leapnav_status leapnav_world_query_create(const leapnav_world* world,
                                                        leapnav_world_query** out);
LEAPNAV_C_API void leapnav_world_query_free(leapnav_world_query* query);
/** As leapnav_find_path, over the tiles loaded when the call starts. */
LEAPNAV_C_API leapnav_status leapnav_world_find_path(leapnav_world_query* query,
                                                     const float start[3], const float goal[3],
                                                     const leapnav_filter* filter,
                                                     leapnav_path_info* info);
/** As leapnav_path_points and leapnav_path_segments, for the last path of a world query. */
LEAPNAV_C_API leapnav_status leapnav_world_path_points(const leapnav_world_query* query, float* xyz,
                                                       size_t capacity);
LEAPNAV_C_API leapnav_status leapnav_world_path_segments(const leapnav_world_query* query,
                                                         leapnav_path_segment* segments,
                                                         size_t capacity);

#ifdef __cplusplus
}
#endif

#endif /* LEAPNAV_LEAPNAV_H */
