// The C API over the C++ library: each handle wraps shared C++ values (a navmesh handle is a
// Planner plus the shared mesh and links, a query a NavQuery and its last Path, a world a
// stream::TileWorld, a world query its world and last Path); each entry point
// catches every exception and turns Result errors into a status and a thread-local message.
#include "leapnav/leapnav.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "leapnav/leapnav.hpp"

struct leapnav_world {
  leapnav::stream::TileWorld world;
};

struct leapnav_world_query {
  const leapnav_world* world = nullptr;
  leapnav::plan::Path path;
};

struct leapnav_navmesh {
  leapnav::plan::Planner planner;  ///< over the jump links and the ledge links
  std::shared_ptr<const leapnav::jump::JumpLinkSet> jumps;     ///< null without jump links
  std::shared_ptr<const leapnav::ledge::LedgeLinkSet> ledges;  ///< null without ledge links
};

struct leapnav_query {
  leapnav::plan::NavQuery query;
  leapnav::plan::Path path;
};

namespace {

using namespace leapnav;

thread_local std::string last_error;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

constexpr leapnav_status to_status(ErrorCode code) {
  return static_cast<leapnav_status>(static_cast<int>(code) + 1);
}
static_assert(to_status(ErrorCode::InvalidArgument) == LEAPNAV_INVALID_ARGUMENT);
static_assert(to_status(ErrorCode::CorruptFile) == LEAPNAV_CORRUPT_FILE);
static_assert(to_status(ErrorCode::Internal) == LEAPNAV_INTERNAL);
static_assert(static_cast<int>(plan::PathStatus::Found) == LEAPNAV_PATH_FOUND);
static_assert(static_cast<int>(plan::PathStatus::Partial) == LEAPNAV_PATH_PARTIAL);
static_assert(static_cast<int>(plan::PathStatus::NoPath) == LEAPNAV_PATH_NO_PATH);
static_assert(static_cast<int>(plan::PathStatus::StartNotOnMesh) == LEAPNAV_PATH_START_NOT_ON_MESH);
static_assert(static_cast<int>(plan::PathStatus::GoalNotOnMesh) == LEAPNAV_PATH_GOAL_NOT_ON_MESH);

leapnav_status fail(leapnav_status status, std::string message) {
  last_error = std::move(message);
  return status;
}

leapnav_status fail(const Error& error) {
  return fail(to_status(error.code), error.message);
}

/// Runs body, mapping exceptions to LEAPNAV_INTERNAL; clears the message on success.
template <class Body>
leapnav_status guarded(const char* function, Body&& body) noexcept {
  try {
    last_error.clear();
    return body();
  } catch (const std::bad_alloc&) {
    return fail(LEAPNAV_INTERNAL, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return fail(LEAPNAV_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(LEAPNAV_INTERNAL, std::string(function) + ": unknown exception");
  }
}

leapnav_status null_argument(const char* function, const char* name) {
  return fail(LEAPNAV_INVALID_ARGUMENT, std::string(function) + ": " + name + " is null");
}

/// The integer a caller stored in an enum field or parameter. C lets any int through an enum type;
/// in C++ loading a value outside the enumerators' range is undefined, so the bytes are copied.
template <class Enum>
long long raw(const Enum& value) {
  std::underlying_type_t<Enum> v{};
  static_assert(sizeof v == sizeof value);
  std::memcpy(&v, &value, sizeof v);
  return static_cast<long long>(v);
}

/// Counts of float or index triples no array can hold (3 * count * 4 bytes overflows).
constexpr size_t kMaxTriples = PTRDIFF_MAX / (3 * sizeof(float));

Vec3 vec(const float* p) {
  return {p[0], p[1], p[2]};
}

/// The query options a C filter gives (NULL: the defaults); an error status for a walk_search
/// that names no search.
leapnav_status query_options(const char* function, const leapnav_filter* filter,
                             plan::QueryOptions& options) {
  options = plan::QueryOptions{};
  if (filter != nullptr) {
    const long long walk_search = raw(filter->walk_search);
    switch (walk_search) {
      case LEAPNAV_WALK_SEARCH_EXACT:
        options.walk_search = plan::WalkSearch::Exact;
        break;
      case LEAPNAV_WALK_SEARCH_PORTALS:
        options.walk_search = plan::WalkSearch::Portals;
        break;
      default:
        return fail(LEAPNAV_INVALID_ARGUMENT, std::string(function) + ": filter.walk_search " +
                                                  std::to_string(walk_search) +
                                                  " is neither LEAPNAV_WALK_SEARCH_EXACT (0) nor "
                                                  "LEAPNAV_WALK_SEARCH_PORTALS (1)");
    }
    options.jumps = filter->jumps != 0;
    options.jump_cost = filter->jump_cost;
    options.jump_configs = filter->jump_configs;
    options.search_extent = vec(filter->search_extent);
    options.max_nodes = filter->max_nodes;
    std::copy(filter->area_costs, filter->area_costs + 256, options.area_costs.begin());
    options.include_flags = filter->include_flags;
    options.exclude_flags = filter->exclude_flags;
    options.ledge_links = filter->ledge_links != 0;
    options.crouch = filter->crouch != 0;
    options.crouch_cost = filter->crouch_cost;
  }
  return LEAPNAV_OK;
}

void fill_info(const plan::Path& path, leapnav_path_info* info) {
  if (info == nullptr) return;
  info->status = static_cast<leapnav_path_status>(path.status);
  info->length = path.length;
  info->point_count = path.points.size();
  info->segment_count = path.segments.size();
  info->jump_count = path.jump_count;
  info->blocked_by_unloaded_tiles = path.blocked_by_unloaded_tiles ? 1 : 0;
  info->unloaded_tile = path.unloaded_tile;
}

leapnav_status make_handle(std::shared_ptr<const mesh::NavMesh> navmesh,
                           std::shared_ptr<const jump::JumpLinkSet> jumps,
                           std::shared_ptr<const ledge::LedgeLinkSet> ledges,
                           leapnav_navmesh** out) {
  auto planner = plan::create_planner(std::move(navmesh), jumps.get(), ledges.get());
  if (!planner) return fail(planner.error());
  *out = new leapnav_navmesh{std::move(*planner), std::move(jumps), std::move(ledges)};
  return LEAPNAV_OK;
}

leapnav_status from_file(Result<io::NavFile> file, leapnav_navmesh** out) {
  if (!file) return fail(file.error());
  auto navmesh = std::make_shared<const mesh::NavMesh>(std::move(file->navmesh));
  std::shared_ptr<const jump::JumpLinkSet> links;
  if (file->links) links = std::make_shared<const jump::JumpLinkSet>(std::move(*file->links));
  std::shared_ptr<const ledge::LedgeLinkSet> ledges;
  if (file->ledges) ledges = std::make_shared<const ledge::LedgeLinkSet>(std::move(*file->ledges));
  return make_handle(std::move(navmesh), std::move(links), std::move(ledges), out);
}

Result<BuildConfig> resolve(const char* config) {
  if (config == nullptr) return named_config("default");
  std::string_view text(config);
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return named_config("default");
  if (text[start] == '{') return io::parse_config_json(text, "config");
  return named_config(text);
}

/// The jump configurations and sample step of build options.
jump::JumpLinkOptions jump_options(const leapnav_build_options& o) {
  jump::JumpLinkOptions options;
  for (size_t i = 0; i < o.jump_count; ++i) {
    options.jumps.push_back({o.jumps[i].height, o.jumps[i].distance, o.jumps[i].max_fall});
  }
  options.step = o.jump_step;
  return options;
}

/// The walkable-link filter of build options (checked by leapnav_build_ex).
jump::LinkFilterOptions filter_options(const leapnav_build_options& o) {
  jump::LinkFilterOptions filter;
  filter.enabled = o.walkable_filter != LEAPNAV_WALKABLE_FILTER_OFF;
  filter.whole_groups = o.walkable_filter == LEAPNAV_WALKABLE_FILTER_GROUPS;
  return filter;
}

/// The tiled build of leapnav_build_ex: the CLI's `build --tile-size N` with its default link
/// options (compact set, walkable-link filter, runs), ledge links with the tiled pairing.
leapnav_status build_tiled(const TriangleMesh& input, const BuildConfig& config,
                           const leapnav_build_options& o, BuildContext& ctx,
                           leapnav_navmesh** out) {
  mesh::TileConfig tiles;
  tiles.tile_size = o.tile_size;
  if (const Status s = mesh::validate(tiles, config); !s) return fail(s.error());
  auto built = mesh::build_tiled_navmesh(input, config, tiles, ctx);
  if (!built) return fail(built.error());
  std::shared_ptr<const ledge::LedgeLinkSet> ledges;
  if (o.ledge_links != 0) {
    auto made = ledge::build_ledge_links(built->navmesh, &input, ledge::tiled_ledge_options(), ctx);
    if (!made) return fail(made.error());
    ledges = std::make_shared<const ledge::LedgeLinkSet>(std::move(*made));
  }
  std::shared_ptr<const jump::JumpLinkSet> links;
  if (o.jump_count > 0) {
    jump::TiledLinkOptions options;
    options.jumps = jump_options(o);
    options.compact = o.link_set != LEAPNAV_LINK_SET_FULL;
    options.filter = filter_options(o);
    if (const Status s = jump::validate(options); !s) return fail(s.error());
    auto made = jump::build_tiled_jump_links(input, built->navmesh, built->layout, options, ctx);
    if (!made) return fail(made.error());
    links = std::make_shared<const jump::JumpLinkSet>(std::move(made->set));
  }
  return make_handle(std::make_shared<const mesh::NavMesh>(std::move(built->navmesh)),
                     std::move(links), std::move(ledges), out);
}

io::NavFile nav_file(const leapnav_navmesh& navmesh) {
  io::NavFile file{navmesh.planner.mesh(), std::nullopt};
  if (navmesh.jumps) file.links = *navmesh.jumps;
  if (navmesh.ledges) file.ledges = *navmesh.ledges;
  return file;
}

leapnav_status copy_points(const char* function, const plan::Path& path, float* xyz,
                           size_t capacity) {
  const auto& points = path.points;
  if (capacity < points.size()) {
    return fail(LEAPNAV_BUFFER_TOO_SMALL, std::string(function) + ": " +
                                              std::to_string(points.size()) + " points, capacity " +
                                              std::to_string(capacity));
  }
  if (xyz == nullptr && !points.empty()) return null_argument(function, "xyz");
  for (size_t i = 0; i < points.size(); ++i) {
    xyz[3 * i] = points[i].x;
    xyz[3 * i + 1] = points[i].y;
    xyz[3 * i + 2] = points[i].z;
  }
  return LEAPNAV_OK;
}

leapnav_status copy_segments(const char* function, const plan::Path& path,
                             leapnav_path_segment* segments, size_t capacity) {
  const auto& source = path.segments;
  if (capacity < source.size()) {
    return fail(LEAPNAV_BUFFER_TOO_SMALL, std::string(function) + ": " +
                                              std::to_string(source.size()) +
                                              " segments, capacity " + std::to_string(capacity));
  }
  if (segments == nullptr && !source.empty()) return null_argument(function, "segments");
  for (size_t i = 0; i < source.size(); ++i) {
    const plan::PathSegment& s = source[i];
    segments[i] = {s.kind == plan::SegmentKind::Jump ? 1 : 0,
                   s.first,
                   s.last,
                   s.jump_height,
                   s.jump_distance,
                   s.link,
                   static_cast<leapnav_segment_kind>(s.kind)};
  }
  return LEAPNAV_OK;
}

}  // namespace

extern "C" {

const char* leapnav_last_error(void) {
  return last_error.c_str();
}

const char* leapnav_status_name(leapnav_status status) {
  const long long value = raw(status);
  switch (value) {
    case LEAPNAV_OK:
      return "ok";
    case LEAPNAV_BUFFER_TOO_SMALL:
      return "buffer_too_small";
    default:
      if (value > LEAPNAV_OK && value < LEAPNAV_BUFFER_TOO_SMALL) {
        // note: to_string returns views of string literals, so data() is null-terminated
        return to_string(static_cast<ErrorCode>(value - 1)).data();
      }
      return "unknown";
  }
}

leapnav_status leapnav_build(const float* vertices, size_t vertex_count, const uint32_t* triangles,
                             size_t triangle_count, const uint8_t* triangle_areas,
                             const char* config, const leapnav_jump_config* jumps,
                             size_t jump_count, int jump_step, leapnav_navmesh** out) {
  return leapnav_build_link_set(vertices, vertex_count, triangles, triangle_count, triangle_areas,
                                config, jumps, jump_count, jump_step, LEAPNAV_LINK_SET_COMPACT,
                                out);
}

leapnav_status leapnav_build_link_set(const float* vertices, size_t vertex_count,
                                      const uint32_t* triangles, size_t triangle_count,
                                      const uint8_t* triangle_areas, const char* config,
                                      const leapnav_jump_config* jumps, size_t jump_count,
                                      int jump_step, leapnav_link_set link_set,
                                      leapnav_navmesh** out) {
  leapnav_build_options options;
  leapnav_build_options_init(&options);
  options.triangle_areas = triangle_areas;
  options.config = config;
  options.jumps = jumps;
  options.jump_count = jump_count;
  options.jump_step = jump_step;
  // note: copied as bytes, a C caller may pass any int (leapnav_build_ex reports it)
  std::memcpy(&options.link_set, &link_set, sizeof link_set);
  return leapnav_build_ex(vertices, vertex_count, triangles, triangle_count, &options, out);
}

void leapnav_build_options_init(leapnav_build_options* options) {
  if (options == nullptr) return;
  *options = leapnav_build_options{};
  options->jump_step = 4;
  options->link_set = LEAPNAV_LINK_SET_COMPACT;
}

leapnav_status leapnav_build_ex(const float* vertices, size_t vertex_count,
                                const uint32_t* triangles, size_t triangle_count,
                                const leapnav_build_options* options, leapnav_navmesh** out) {
  return guarded("leapnav_build", [&]() -> leapnav_status {
    if (out == nullptr) return null_argument("leapnav_build", "out");
    *out = nullptr;
    leapnav_build_options o;
    leapnav_build_options_init(&o);
    if (options != nullptr) o = *options;
    if (vertices == nullptr && vertex_count > 0) return null_argument("leapnav_build", "vertices");
    if (triangles == nullptr && triangle_count > 0) {
      return null_argument("leapnav_build", "triangles");
    }
    if (o.jumps == nullptr && o.jump_count > 0) return null_argument("leapnav_build", "jumps");
    if (vertex_count > kMaxTriples) {
      return fail(LEAPNAV_INVALID_ARGUMENT, "leapnav_build: vertex_count " +
                                                std::to_string(vertex_count) +
                                                " is larger than any array of x, y, z triples");
    }
    if (triangle_count > kMaxTriples) {
      return fail(LEAPNAV_INVALID_ARGUMENT, "leapnav_build: triangle_count " +
                                                std::to_string(triangle_count) +
                                                " is larger than any array of index triples");
    }
    const long long link_set = raw(o.link_set);
    if (link_set != LEAPNAV_LINK_SET_COMPACT && link_set != LEAPNAV_LINK_SET_FULL) {
      return fail(LEAPNAV_INVALID_ARGUMENT, "leapnav_build: link_set " + std::to_string(link_set) +
                                                " is neither compact (0) nor full (1)");
    }
    const long long walkable_filter = raw(o.walkable_filter);
    if (walkable_filter != LEAPNAV_WALKABLE_FILTER_GROUPS &&
        walkable_filter != LEAPNAV_WALKABLE_FILTER_LINKS &&
        walkable_filter != LEAPNAV_WALKABLE_FILTER_OFF) {
      return fail(LEAPNAV_INVALID_ARGUMENT, "leapnav_build: walkable_filter " +
                                                std::to_string(walkable_filter) +
                                                " is none of groups (0), links (1) and off (2)");
    }
    auto build_config = resolve(o.config);
    if (!build_config) return fail(build_config.error());
    TriangleMesh input;
    input.name = "arrays";
    input.vertices.resize(vertex_count);
    for (size_t i = 0; i < vertex_count; ++i) input.vertices[i] = vec(vertices + 3 * i);
    input.triangles.resize(triangle_count);
    for (size_t i = 0; i < triangle_count; ++i) {
      input.triangles[i] = {triangles[3 * i], triangles[3 * i + 1], triangles[3 * i + 2]};
    }
    if (o.triangle_areas != nullptr)
      input.areas.assign(o.triangle_areas, o.triangle_areas + triangle_count);
    BuildContext ctx;
    if (o.tile_size != 0) return build_tiled(input, *build_config, o, ctx, out);
    auto built = mesh::build_navmesh(input, *build_config, ctx);
    if (!built) return fail(built.error());
    std::shared_ptr<const jump::JumpLinkSet> links;
    if (o.jump_count > 0) {
      jump::SoundLinkOptions sound;
      sound.jumps = jump_options(o);
      sound.compact = o.link_set != LEAPNAV_LINK_SET_FULL;
      sound.filter = filter_options(o);
      // note: search, walkable filter, refinement and compaction, as the CLI's untiled build
      auto made = jump::build_sound_links(input, *built, build_config->agent, sound, ctx);
      if (!made) return fail(made.error());
      links = std::make_shared<const jump::JumpLinkSet>(std::move(made->set));
    }
    std::shared_ptr<const ledge::LedgeLinkSet> ledges;
    if (o.ledge_links != 0) {
      // note: the CLI's `build --ledge-links` (default ledge options, checked on the triangles)
      auto made = ledge::build_ledge_links(built->navmesh, &input, {}, ctx);
      if (!made) return fail(made.error());
      ledges = std::make_shared<const ledge::LedgeLinkSet>(std::move(*made));
    }
    return make_handle(std::make_shared<const mesh::NavMesh>(std::move(built->navmesh)),
                       std::move(links), std::move(ledges), out);
  });
}

leapnav_status leapnav_load_file(const char* path, leapnav_navmesh** out) {
  return guarded("leapnav_load_file", [&]() -> leapnav_status {
    if (out == nullptr) return null_argument("leapnav_load_file", "out");
    *out = nullptr;
    if (path == nullptr) return null_argument("leapnav_load_file", "path");
    return from_file(io::load_nav_file(path), out);
  });
}

leapnav_status leapnav_load_memory(const void* data, size_t size, leapnav_navmesh** out) {
  return guarded("leapnav_load_memory", [&]() -> leapnav_status {
    if (out == nullptr) return null_argument("leapnav_load_memory", "out");
    *out = nullptr;
    if (data == nullptr && size > 0) return null_argument("leapnav_load_memory", "data");
    const std::span<const std::byte> bytes(static_cast<const std::byte*>(data), size);
    return from_file(io::decode_nav_file(bytes, "memory"), out);
  });
}

leapnav_status leapnav_save_file(const leapnav_navmesh* navmesh, const char* path) {
  return guarded("leapnav_save_file", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_save_file", "navmesh");
    if (path == nullptr) return null_argument("leapnav_save_file", "path");
    const Status saved = io::save_nav_file(nav_file(*navmesh), path);
    if (!saved) return fail(saved.error());
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_save_memory(const leapnav_navmesh* navmesh, void* buffer, size_t capacity,
                                   size_t* size) {
  return guarded("leapnav_save_memory", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_save_memory", "navmesh");
    if (size == nullptr) return null_argument("leapnav_save_memory", "size");
    const std::vector<std::byte> bytes = io::encode_nav_file(nav_file(*navmesh));
    *size = bytes.size();
    if (buffer == nullptr) return LEAPNAV_OK;
    if (capacity < bytes.size()) {
      return fail(LEAPNAV_BUFFER_TOO_SMALL, "leapnav_save_memory: " + std::to_string(bytes.size()) +
                                                " bytes needed, capacity " +
                                                std::to_string(capacity));
    }
    std::memcpy(buffer, bytes.data(), bytes.size());
    return LEAPNAV_OK;
  });
}

void leapnav_navmesh_free(leapnav_navmesh* navmesh) {
  delete navmesh;
}

size_t leapnav_polygon_count(const leapnav_navmesh* navmesh) {
  return navmesh == nullptr ? 0 : navmesh->planner.mesh().polygon_count();
}

size_t leapnav_vertex_count(const leapnav_navmesh* navmesh) {
  return navmesh == nullptr ? 0 : navmesh->planner.mesh().vertices.size();
}

size_t leapnav_link_count(const leapnav_navmesh* navmesh) {
  if (navmesh == nullptr || !navmesh->jumps) return 0;
  return navmesh->jumps->links.size();
}

size_t leapnav_ledge_link_count(const leapnav_navmesh* navmesh) {
  if (navmesh == nullptr || !navmesh->ledges) return 0;
  return navmesh->ledges->links.size();
}

uint32_t leapnav_tile_count(const leapnav_navmesh* navmesh) {
  return navmesh == nullptr ? 0 : navmesh->planner.tile_count();
}

leapnav_status leapnav_unload_tile(leapnav_navmesh* navmesh, uint32_t tile) {
  return guarded("leapnav_unload_tile", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_unload_tile", "navmesh");
    const Status done = navmesh->planner.unload_tile(tile);
    if (!done) return fail(done.error());
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_load_tile(leapnav_navmesh* navmesh, uint32_t tile) {
  return guarded("leapnav_load_tile", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_load_tile", "navmesh");
    const Status done = navmesh->planner.load_tile(tile);
    if (!done) return fail(done.error());
    return LEAPNAV_OK;
  });
}

void leapnav_filter_init(leapnav_filter* filter) {
  if (filter == nullptr) return;
  const plan::QueryOptions defaults;
  filter->jumps = defaults.jumps ? 1 : 0;
  filter->jump_cost = defaults.jump_cost;
  filter->jump_configs = defaults.jump_configs;
  filter->search_extent[0] = defaults.search_extent.x;
  filter->search_extent[1] = defaults.search_extent.y;
  filter->search_extent[2] = defaults.search_extent.z;
  filter->max_nodes = defaults.max_nodes;
  std::copy(defaults.area_costs.begin(), defaults.area_costs.end(), filter->area_costs);
  filter->include_flags = defaults.include_flags;
  filter->exclude_flags = defaults.exclude_flags;
  filter->ledge_links = defaults.ledge_links ? 1 : 0;
  filter->crouch = defaults.crouch ? 1 : 0;
  filter->crouch_cost = defaults.crouch_cost;
  filter->walk_search = defaults.walk_search == plan::WalkSearch::Exact
                            ? LEAPNAV_WALK_SEARCH_EXACT
                            : LEAPNAV_WALK_SEARCH_PORTALS;
}

leapnav_status leapnav_query_create(const leapnav_navmesh* navmesh, leapnav_query** out) {
  return guarded("leapnav_query_create", [&]() -> leapnav_status {
    if (out == nullptr) return null_argument("leapnav_query_create", "out");
    *out = nullptr;
    if (navmesh == nullptr) return null_argument("leapnav_query_create", "navmesh");
    *out = new leapnav_query{plan::NavQuery(navmesh->planner), {}};
    return LEAPNAV_OK;
  });
}

void leapnav_query_free(leapnav_query* query) {
  delete query;
}

leapnav_status leapnav_find_path(leapnav_query* query, const float start[3], const float goal[3],
                                 const leapnav_filter* filter, leapnav_path_info* info) {
  return guarded("leapnav_find_path", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_find_path", "query");
    if (start == nullptr) return null_argument("leapnav_find_path", "start");
    if (goal == nullptr) return null_argument("leapnav_find_path", "goal");
    plan::QueryOptions options;
    if (const leapnav_status s = query_options("leapnav_find_path", filter, options);
        s != LEAPNAV_OK) {
      return s;
    }
    const Status found = query->query.find_path(vec(start), vec(goal), options, query->path);
    if (!found) return fail(found.error());
    fill_info(query->path, info);
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_begin_path(leapnav_query* query, const float start[3], const float goal[3],
                                  const leapnav_filter* filter) {
  return guarded("leapnav_begin_path", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_begin_path", "query");
    if (start == nullptr) return null_argument("leapnav_begin_path", "start");
    if (goal == nullptr) return null_argument("leapnav_begin_path", "goal");
    plan::QueryOptions options;
    if (const leapnav_status s = query_options("leapnav_begin_path", filter, options);
        s != LEAPNAV_OK) {
      return s;
    }
    const Status begun = query->query.begin_path(vec(start), vec(goal), options);
    if (!begun) return fail(begun.error());
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_update_path(leapnav_query* query, uint32_t max_iterations, int* done,
                                   uint32_t* expanded) {
  return guarded("leapnav_update_path", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_update_path", "query");
    if (done == nullptr) return null_argument("leapnav_update_path", "done");
    *done = 0;
    auto slice = query->query.update_path(max_iterations);
    if (!slice) return fail(slice.error());
    *done = slice->done ? 1 : 0;
    if (expanded != nullptr) *expanded = slice->expanded;
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_finish_path(leapnav_query* query, leapnav_path_info* info) {
  return guarded("leapnav_finish_path", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_finish_path", "query");
    const Status finished = query->query.finish_path(query->path);
    if (!finished) return fail(finished.error());
    fill_info(query->path, info);
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_move_along_surface(const leapnav_navmesh* navmesh, const float start[3],
                                          const float target[3], const float extent[3],
                                          leapnav_surface_move* out) {
  return guarded("leapnav_move_along_surface", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_move_along_surface", "navmesh");
    if (start == nullptr) return null_argument("leapnav_move_along_surface", "start");
    if (target == nullptr) return null_argument("leapnav_move_along_surface", "target");
    if (out == nullptr) return null_argument("leapnav_move_along_surface", "out");
    *out = leapnav_surface_move{};
    const Vec3 box = extent == nullptr ? Vec3{2.0F, 4.0F, 2.0F} : vec(extent);
    auto moved = plan::move_along_surface(navmesh->planner, vec(start), vec(target), box);
    if (!moved) return fail(moved.error());
    if (!moved->has_value()) return LEAPNAV_OK;
    const plan::SurfaceMove& move = **moved;
    out->on_mesh = 1;
    out->reached = move.reached ? 1 : 0;
    out->point[0] = move.point.x;
    out->point[1] = move.point.y;
    out->point[2] = move.point.z;
    out->visited = move.visited.size();
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_distance_to_wall(const leapnav_navmesh* navmesh, const float center[3],
                                        float max_radius, const float extent[3],
                                        leapnav_wall_distance* out) {
  return guarded("leapnav_distance_to_wall", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_distance_to_wall", "navmesh");
    if (center == nullptr) return null_argument("leapnav_distance_to_wall", "center");
    if (out == nullptr) return null_argument("leapnav_distance_to_wall", "out");
    *out = leapnav_wall_distance{};
    const Vec3 box = extent == nullptr ? Vec3{2.0F, 4.0F, 2.0F} : vec(extent);
    auto wall = plan::distance_to_wall(navmesh->planner, vec(center), max_radius, box);
    if (!wall) return fail(wall.error());
    if (!wall->has_value()) return LEAPNAV_OK;
    const plan::WallDistance& w = **wall;
    out->on_mesh = 1;
    out->found = w.found ? 1 : 0;
    out->distance = w.distance;
    out->point[0] = w.point.x;
    out->point[1] = w.point.y;
    out->point[2] = w.point.z;
    out->normal[0] = w.normal.x;
    out->normal[1] = 0.0F;
    out->normal[2] = w.normal.y;
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_path_points(const leapnav_query* query, float* xyz, size_t capacity) {
  return guarded("leapnav_path_points", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_path_points", "query");
    return copy_points("leapnav_path_points", query->path, xyz, capacity);
  });
}

leapnav_status leapnav_path_segments(const leapnav_query* query, leapnav_path_segment* segments,
                                     size_t capacity) {
  return guarded("leapnav_path_segments", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_path_segments", "query");
    return copy_segments("leapnav_path_segments", query->path, segments, capacity);
  });
}

leapnav_status leapnav_world_open(const char* path, leapnav_world** out) {
  return guarded("leapnav_world_open", [&]() -> leapnav_status {
    if (out == nullptr) return null_argument("leapnav_world_open", "out");
    *out = nullptr;
    if (path == nullptr) return null_argument("leapnav_world_open", "path");
    auto source = stream::PackTileSource::open(path);
    if (!source) return fail(source.error());
    auto world = stream::TileWorld::create(std::move(source).value());
    if (!world) return fail(world.error());
    *out = new leapnav_world{std::move(world).value()};
    return LEAPNAV_OK;
  });
}

void leapnav_world_free(leapnav_world* world) {
  delete world;
}

uint32_t leapnav_world_tile_count(const leapnav_world* world) {
  return world == nullptr ? 0 : world->world.tile_count();
}

uint32_t leapnav_world_tile_at(const leapnav_world* world, const float point[3]) {
  if (world == nullptr || point == nullptr) return UINT32_MAX;
  return world->world.layout().tile_at(point[0], point[2]);
}

int leapnav_world_tile_loaded(const leapnav_world* world, uint32_t tile) {
  return world != nullptr && world->world.tile_loaded(tile) ? 1 : 0;
}

leapnav_status leapnav_world_load_tile(leapnav_world* world, uint32_t tile) {
  return guarded("leapnav_world_load_tile", [&]() -> leapnav_status {
    if (world == nullptr) return null_argument("leapnav_world_load_tile", "world");
    const Status done = world->world.load_tile(tile);
    if (!done) return fail(done.error());
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_world_unload_tile(leapnav_world* world, uint32_t tile) {
  return guarded("leapnav_world_unload_tile", [&]() -> leapnav_status {
    if (world == nullptr) return null_argument("leapnav_world_unload_tile", "world");
    const Status done = world->world.unload_tile(tile);
    if (!done) return fail(done.error());
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_world_set_loaded(leapnav_world* world, const uint32_t* tiles, size_t count) {
  return guarded("leapnav_world_set_loaded", [&]() -> leapnav_status {
    if (world == nullptr) return null_argument("leapnav_world_set_loaded", "world");
    if (tiles == nullptr && count > 0) return null_argument("leapnav_world_set_loaded", "tiles");
    const Status done = world->world.set_loaded(
        std::span<const std::uint32_t>(tiles, tiles == nullptr ? 0 : count));
    if (!done) return fail(done.error());
    return LEAPNAV_OK;
  });
}

uint64_t leapnav_world_resident_bytes(const leapnav_world* world) {
  return world == nullptr ? 0 : world->world.resident_bytes();
}

leapnav_status leapnav_world_query_create(const leapnav_world* world, leapnav_world_query** out) {
  return guarded("leapnav_world_query_create", [&]() -> leapnav_status {
    if (out == nullptr) return null_argument("leapnav_world_query_create", "out");
    *out = nullptr;
    if (world == nullptr) return null_argument("leapnav_world_query_create", "world");
    *out = new leapnav_world_query{world, {}};
    return LEAPNAV_OK;
  });
}

void leapnav_world_query_free(leapnav_world_query* query) {
  delete query;
}

leapnav_status leapnav_world_find_path(leapnav_world_query* query, const float start[3],
                                       const float goal[3], const leapnav_filter* filter,
                                       leapnav_path_info* info) {
  return guarded("leapnav_world_find_path", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_world_find_path", "query");
    if (start == nullptr) return null_argument("leapnav_world_find_path", "start");
    if (goal == nullptr) return null_argument("leapnav_world_find_path", "goal");
    plan::QueryOptions options;
    if (const leapnav_status s = query_options("leapnav_world_find_path", filter, options);
        s != LEAPNAV_OK) {
      return s;
    }
    query->path.clear();
    auto path = query->world->world.find_path(vec(start), vec(goal), options);
    if (!path) return fail(path.error());
    query->path = std::move(path).value();
    fill_info(query->path, info);
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_world_path_points(const leapnav_world_query* query, float* xyz,
                                         size_t capacity) {
  return guarded("leapnav_world_path_points", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_world_path_points", "query");
    return copy_points("leapnav_world_path_points", query->path, xyz, capacity);
  });
}

leapnav_status leapnav_world_path_segments(const leapnav_world_query* query,
                                           leapnav_path_segment* segments, size_t capacity) {
  return guarded("leapnav_world_path_segments", [&]() -> leapnav_status {
    if (query == nullptr) return null_argument("leapnav_world_path_segments", "query");
    return copy_segments("leapnav_world_path_segments", query->path, segments, capacity);
  });
}

leapnav_status leapnav_raycast(const leapnav_navmesh* navmesh, const float start[3],
                               const float end[3], const float extent[3],
                               leapnav_raycast_hit* out) {
  return guarded("leapnav_raycast", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_raycast", "navmesh");
    if (start == nullptr) return null_argument("leapnav_raycast", "start");
    if (end == nullptr) return null_argument("leapnav_raycast", "end");
    if (out == nullptr) return null_argument("leapnav_raycast", "out");
    *out = leapnav_raycast_hit{};
    const Vec3 box = extent == nullptr ? Vec3{2.0F, 4.0F, 2.0F} : vec(extent);
    auto cast = plan::raycast(navmesh->planner, vec(start), vec(end), box);
    if (!cast) return fail(cast.error());
    if (!cast->has_value()) return LEAPNAV_OK;
    const plan::RaycastHit& hit = **cast;
    out->on_mesh = 1;
    out->hit = hit.hit ? 1 : 0;
    out->t = hit.t;
    out->point[0] = hit.point.x;
    out->point[1] = hit.point.y;
    out->point[2] = hit.point.z;
    out->normal[0] = hit.normal.x;
    out->normal[1] = 0.0F;
    out->normal[2] = hit.normal.y;
    out->visited = hit.visited.size();
    return LEAPNAV_OK;
  });
}

leapnav_status leapnav_closest_point(const leapnav_navmesh* navmesh, const float point[3],
                                     const float extent[3], float out[3], uint32_t* polygon,
                                     int* found) {
  return guarded("leapnav_closest_point", [&]() -> leapnav_status {
    if (navmesh == nullptr) return null_argument("leapnav_closest_point", "navmesh");
    if (point == nullptr) return null_argument("leapnav_closest_point", "point");
    if (out == nullptr) return null_argument("leapnav_closest_point", "out");
    if (found == nullptr) return null_argument("leapnav_closest_point", "found");
    *found = 0;
    const Vec3 box = extent == nullptr ? Vec3{2.0F, 4.0F, 2.0F} : vec(extent);
    auto located = plan::closest_point(navmesh->planner, vec(point), box);
    if (!located) return fail(located.error());
    if (!located->has_value()) return LEAPNAV_OK;
    *found = 1;
    out[0] = (*located)->point.x;
    out[1] = (*located)->point.y;
    out[2] = (*located)->point.z;
    if (polygon != nullptr) *polygon = mesh::index((*located)->poly);
    return LEAPNAV_OK;
  });
}

}  // extern "C"
