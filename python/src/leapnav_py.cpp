// The Python module `leapnav` (pybind11): build a navmesh with jump links from numpy arrays, load
// and save .lnav files, and plan paths, batches of paths, raycasts, closest points and random
// points, numpy in and out. Library errors raise ValueError (OSError for files that cannot be
// read or written, TypeError for arguments of the wrong type) with the library's message; batch
// queries release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "leapnav/core/hash.hpp"
#include "leapnav/leapnav.hpp"

namespace py = pybind11;
using namespace leapnav;

namespace {

/// An error the module raises as OSError.
struct FileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void raise(const Error& error) {
  if (error.code == ErrorCode::IoError) throw FileError(error.message);
  throw py::value_error(error.message);
}

template <class T>
T take(Result<T> result) {
  if (!result) raise(result.error());
  return std::move(*result);
}

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;

// The array numpy makes of argument `name`, or a TypeError naming it, what it takes and what it
// got. note: None is refused before numpy sees it (numpy makes NaN of it, which the size check
// then reported as "expected 3 coordinates, got 1"), and so are strings (numpy's error was
// pybind11's "incompatible function arguments" listing the whole signature)
template <class Array>
Array array_argument(const py::object& value, const char* name, const char* expected) {
  const auto refuse = [&] {
    const std::string got = value.is_none()
                                ? std::string("None")
                                : py::str(py::type::of(value).attr("__name__")).cast<std::string>();
    return py::type_error(std::string(name) + ": expected " + expected + ", not " + got);
  };
  if (value.is_none() || py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value))
    throw refuse();
  Array array = Array::ensure(value);
  if (!array) throw refuse();
  return array;
}

Vec3 point(const py::object& value, const char* name) {
  const auto p = array_argument<FloatArray>(value, name, "3 numbers (x, y, z)");
  if (p.size() != 3) {
    throw py::value_error(std::string(name) + ": expected 3 coordinates, got " +
                          std::to_string(p.size()));
  }
  const float* d = p.data();
  return {d[0], d[1], d[2]};
}

// Argument `name` as an (N, 3) array of Array's numbers: TypeError for what is no array of
// numbers, ValueError for another shape.
template <class Array>
Array rows(const py::object& value, const char* name, const char* expected) {
  Array a = array_argument<Array>(value, name, expected);
  if (a.ndim() != 2 || a.shape(1) != 3) {
    throw py::value_error(std::string(name) + ": expected an (N, 3) array");
  }
  return a;
}

py::array_t<float> points_array(const std::vector<Vec3>& points) {
  py::array_t<float> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{3}});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto r = static_cast<py::ssize_t>(i);
    w(r, 0) = points[i].x;
    w(r, 1) = points[i].y;
    w(r, 2) = points[i].z;
  }
  return out;
}

py::list vec_list(Vec3 p) {
  py::list l;
  l.append(p.x);
  l.append(p.y);
  l.append(p.z);
  return l;
}

/// Jump configuration `index` of the `jumps` argument: a name or an (h, d, fall) tuple.
jump::JumpConfig jump_config(const py::handle& item, std::size_t index) {
  if (py::isinstance<py::str>(item)) {
    const std::string name = item.cast<std::string>();
    if (name == "C1") return jump::kJumpC1;
    if (name == "C2") return jump::kJumpC2;
    if (name == "C3") return jump::kJumpC3;
    throw py::value_error("jumps: unknown jump configuration '" + name +
                          "' (known: C1, C2, C3, or an (h, d, fall) tuple)");
  }
  std::vector<float> values;
  try {
    values = item.cast<std::vector<float>>();
  } catch (const py::cast_error&) {
    throw py::type_error("jumps: configuration " + std::to_string(index) + " is " +
                         py::repr(item).cast<std::string>() +
                         ", not C1, C2, C3 or an (h, d, fall) tuple of numbers");
  }
  if (values.size() != 3) throw py::value_error("jumps: a configuration is (h, d, fall)");
  return {values[0], values[1], values[2]};
}

BuildConfig build_config(const py::object& config) {
  if (config.is_none()) return take(named_config("default"));
  if (py::isinstance<py::str>(config)) {
    const std::string text = config.cast<std::string>();
    const auto start = text.find_first_not_of(" \t\r\n");
    if (start != std::string::npos && text[start] == '{') {
      return take(io::parse_config_json(text, "config"));
    }
    return take(named_config(text));
  }
  if (py::isinstance<py::dict>(config)) {
    std::string text;
    try {
      // note: allow_nan=False, or NaN would reach the parser as the non-JSON token NaN
      text = py::module_::import("json")
                 .attr("dumps")(config, py::arg("allow_nan") = false)
                 .cast<std::string>();
    } catch (const py::error_already_set& e) {
      const std::string why = py::str(e.value()).cast<std::string>();
      if (e.matches(PyExc_ValueError)) {
        throw py::value_error("config: a number is NaN or infinite (" + why + ")");
      }
      if (e.matches(PyExc_TypeError)) throw py::type_error("config: " + why);
      throw;
    }
    return take(io::parse_config_json(text, "config"));
  }
  throw py::value_error("config: expected a configuration name, JSON text or a dict");
}

/// A navmesh with its optional jump links and the planner over them (shared, immutable).
/// A sliced search in progress (NavMesh.begin_path); the query shares the navmesh's data.
struct PySearch {
  plan::NavQuery query;
};

class PyNavMesh {
 public:
  PyNavMesh(plan::Planner planner, std::shared_ptr<const jump::JumpLinkSet> jumps,
            std::shared_ptr<const ledge::LedgeLinkSet> ledges)
      : planner_(std::move(planner)), jumps_(std::move(jumps)), ledges_(std::move(ledges)) {}

  static PyNavMesh from_file(io::NavFile file) {
    auto mesh = std::make_shared<const mesh::NavMesh>(std::move(file.navmesh));
    std::shared_ptr<const jump::JumpLinkSet> links;
    if (file.links) links = std::make_shared<const jump::JumpLinkSet>(std::move(*file.links));
    std::shared_ptr<const ledge::LedgeLinkSet> ledges;
    if (file.ledges) ledges = std::make_shared<const ledge::LedgeLinkSet>(std::move(*file.ledges));
    auto planner = take(plan::create_planner(std::move(mesh), links.get(), ledges.get()));
    return {std::move(planner), std::move(links), std::move(ledges)};
  }

  [[nodiscard]] const plan::Planner& planner() const { return planner_; }
  /// The planner whose tiles load and unload (state shared by every query made from it).
  [[nodiscard]] plan::Planner& streaming() { return planner_; }
  [[nodiscard]] const mesh::NavMesh& mesh() const { return planner_.mesh(); }
  /// The jump links (null without them; the planner's own set also holds the ledge links).
  [[nodiscard]] const jump::JumpLinkSet* jumps() const { return jumps_.get(); }
  [[nodiscard]] const ledge::LedgeLinkSet* ledges() const { return ledges_.get(); }

  [[nodiscard]] io::NavFile file() const {
    io::NavFile file{mesh(), std::nullopt};
    if (jumps_) file.links = *jumps_;
    if (ledges_) file.ledges = *ledges_;
    return file;
  }

 private:
  plan::Planner planner_;
  std::shared_ptr<const jump::JumpLinkSet> jumps_;
  std::shared_ptr<const ledge::LedgeLinkSet> ledges_;
};

/// A streaming world over a tile pack (stream::TileWorld); thread-safe, so the GIL is released
/// while it loads, unloads or plans.
struct PyWorld {
  explicit PyWorld(stream::TileWorld w) : world(std::move(w)) {}
  stream::TileWorld world;
};

plan::QueryOptions query_options(bool jumps, const std::optional<float>& jump_cost,
                                 const py::object& area_costs,
                                 const std::optional<std::string>& walk_search, bool ledge_links) {
  plan::QueryOptions options;
  options.jumps = jumps;
  options.ledge_links = ledge_links;
  if (walk_search) {
    if (*walk_search == "exact") {
      options.walk_search = plan::WalkSearch::Exact;
    } else if (*walk_search == "portals") {
      options.walk_search = plan::WalkSearch::Portals;
    } else {
      throw py::value_error("walk_search: '" + *walk_search + "' is neither 'exact' nor 'portals'");
    }
  }
  if (jump_cost) options.jump_cost = *jump_cost;
  if (!area_costs.is_none()) {
    if (!py::isinstance<py::dict>(area_costs)) {
      throw py::value_error("area_costs: expected a dict {area id: cost}");
    }
    for (const auto& [key, value] : area_costs.cast<py::dict>()) {
      int area = 0;
      float cost = 0.0F;
      try {
        area = key.cast<int>();
        cost = value.cast<float>();
      } catch (const py::cast_error&) {
        throw py::type_error("area_costs: " + py::repr(key).cast<std::string>() + ": " +
                             py::repr(value).cast<std::string>() +
                             " is not an {int area id: float cost} entry");
      }
      if (area < 0 || area > 255) {
        throw py::value_error("area_costs: area id " + std::to_string(area) +
                              " out of range (0..255)");
      }
      options.area_costs[static_cast<std::size_t>(area)] = cost;
    }
  }
  return options;
}

struct PyPath {
  std::string status;
  double length = 0.0;
  py::array_t<float> points;
  py::list segments;
  std::vector<std::uint32_t> polygons;
  std::uint32_t jump_count = 0;
  bool blocked_by_unloaded_tiles = false;
  std::optional<std::uint32_t> unloaded_tile;
};

PyPath to_python(const plan::Path& path) {
  PyPath out;
  out.status = std::string(plan::to_string(path.status));
  out.length = path.length;
  out.points = points_array(path.points);
  for (const plan::PathSegment& s : path.segments) {
    py::dict seg;
    seg["kind"] = std::string(plan::to_string(s.kind));
    py::list pts;
    for (std::uint32_t i = s.first; i <= s.last; ++i) pts.append(vec_list(path.points[i]));
    seg["points"] = pts;
    if (s.kind == plan::SegmentKind::Jump) {
      seg["h"] = s.jump_height;
      seg["d"] = s.jump_distance;
      seg["link"] = s.link;
    }
    out.segments.append(seg);
  }
  for (const mesh::PolyId p : path.corridor) out.polygons.push_back(mesh::index(p));
  out.jump_count = path.jump_count;
  out.blocked_by_unloaded_tiles = path.blocked_by_unloaded_tiles;
  if (path.unloaded_tile != plan::kNoTile) out.unloaded_tile = path.unloaded_tile;
  return out;
}

/// build(tile_size=N): the CLI's `leapnav build --tile-size N` with its default link options
/// (the same file), ledge links with the tiled pairing.
PyNavMesh build_tiled(const TriangleMesh& input, const BuildConfig& cfg,
                      const jump::SoundLinkOptions& sound, bool ledge_links, int tile_size) {
  mesh::TileConfig tiles;
  tiles.tile_size = tile_size;
  if (const Status s = mesh::validate(tiles, cfg); !s) raise(s.error());
  jump::TiledLinkOptions options;
  options.jumps = sound.jumps;
  options.compact = sound.compact;
  options.filter = sound.filter;
  if (!options.jumps.jumps.empty()) {
    if (const Status s = jump::validate(options); !s) raise(s.error());
  }
  io::NavFile file{mesh::NavMesh{}, std::nullopt};
  std::optional<Error> failed;
  {
    py::gil_scoped_release release;
    BuildContext ctx;
    auto built = mesh::build_tiled_navmesh(input, cfg, tiles, ctx);
    if (!built) {
      failed = built.error();
    } else {
      if (ledge_links) {
        auto made =
            ledge::build_ledge_links(built->navmesh, &input, ledge::tiled_ledge_options(), ctx);
        if (made) file.ledges = std::move(*made);
        if (!made) failed = made.error();
      }
      if (!failed && !options.jumps.jumps.empty()) {
        auto made =
            jump::build_tiled_jump_links(input, built->navmesh, built->layout, options, ctx);
        if (made) file.links = std::move(made->set);
        if (!made) failed = made.error();
      }
      file.navmesh = std::move(built->navmesh);
    }
  }
  if (failed) raise(*failed);
  return PyNavMesh::from_file(std::move(file));
}

PyNavMesh build(const py::object& vertex_rows, const py::object& triangle_rows,
                const py::object& config, const py::object& jumps, int step,
                const py::object& areas, const std::string& link_set, bool ledge_links,
                int tile_size, const std::string& walkable_filter) {
  if (link_set != "compact" && link_set != "full") {
    throw py::value_error("link_set: '" + link_set + "' is neither 'compact' nor 'full'");
  }
  if (walkable_filter != "groups" && walkable_filter != "links" && walkable_filter != "off") {
    throw py::value_error("walkable_filter: '" + walkable_filter +
                          "' is none of 'groups', 'links' and 'off'");
  }
  const auto vertices = rows<FloatArray>(vertex_rows, "vertices", "an (N, 3) array of numbers");
  const auto triangles =
      rows<IntArray>(triangle_rows, "triangles", "an (M, 3) array of vertex indices");
  const BuildConfig cfg = build_config(config);
  TriangleMesh input;
  input.name = "arrays";
  const auto v = vertices.unchecked<2>();
  input.vertices.resize(static_cast<std::size_t>(v.shape(0)));
  for (py::ssize_t i = 0; i < v.shape(0); ++i)
    input.vertices[std::size_t(i)] = {v(i, 0), v(i, 1), v(i, 2)};
  const auto t = triangles.unchecked<2>();
  input.triangles.resize(static_cast<std::size_t>(t.shape(0)));
  for (py::ssize_t i = 0; i < t.shape(0); ++i) {
    std::array<std::uint32_t, 3> tri{};
    for (py::ssize_t k = 0; k < 3; ++k) {
      const std::int64_t index = t(i, k);
      if (index < 0 || index > 0xFFFFFFFFLL) {
        throw py::value_error("triangles: index " + std::to_string(index) + " of triangle " +
                              std::to_string(i) + " out of range");
      }
      tri[std::size_t(k)] = static_cast<std::uint32_t>(index);
    }
    input.triangles[std::size_t(i)] = tri;
  }
  if (!areas.is_none()) {
    const IntArray ids = areas.cast<IntArray>();
    if (ids.ndim() != 1 || ids.shape(0) != t.shape(0)) {
      throw py::value_error("areas: expected one area id per triangle (" +
                            std::to_string(t.shape(0)) + ")");
    }
    for (py::ssize_t i = 0; i < ids.shape(0); ++i) {
      const std::int64_t id = ids.at(i);
      if (id < 0 || id > kMaxAreaId) {
        throw py::value_error("areas: triangle " + std::to_string(i) + " has area " +
                              std::to_string(id) + " (range 0..63)");
      }
      input.areas.push_back(static_cast<std::uint8_t>(id));
    }
  }
  // note: the CLI's untiled pipeline: search, walkable filter, refinement, compaction
  jump::SoundLinkOptions options;
  if (!jumps.is_none()) {
    // note: one name alone ("C2") is one configuration, not one per character
    if (py::isinstance<py::str>(jumps)) {
      options.jumps.jumps.push_back(jump_config(jumps, 0));
    } else if (!py::isinstance<py::iterable>(jumps)) {
      throw py::type_error(
          "jumps: expected a list of configurations (C1, C2, C3 or (h, d, fall) "
          "tuples), got " +
          py::repr(jumps).cast<std::string>());
    } else {
      for (const py::handle item : jumps) {
        options.jumps.jumps.push_back(jump_config(item, options.jumps.jumps.size()));
      }
    }
  }
  options.jumps.step = step;
  options.compact = link_set == "compact";
  options.filter.enabled = walkable_filter != "off";
  options.filter.whole_groups = walkable_filter == "groups";
  if (tile_size != 0) {
    return build_tiled(input, cfg, options, ledge_links, tile_size);
  }
  std::optional<mesh::BuildOutput> built;
  std::optional<Result<jump::SoundLinks>> links;
  std::optional<Result<ledge::LedgeLinkSet>> ledges;
  {
    py::gil_scoped_release release;
    BuildContext ctx;
    auto result = mesh::build_navmesh(input, cfg, ctx);
    if (result) {
      built.emplace(std::move(*result));
      if (!options.jumps.jumps.empty()) {
        links.emplace(jump::build_sound_links(input, *built, cfg.agent, options, ctx));
      }
      // note: the CLI's `build --ledge-links` (default ledge options, checked on the triangles)
      if (ledge_links) ledges.emplace(ledge::build_ledge_links(built->navmesh, &input, {}, ctx));
    } else {
      links.emplace(std::move(result).error());
    }
  }
  if (!built) raise(links->error());
  io::NavFile file{std::move(built->navmesh), std::nullopt};
  if (links) file.links = take(std::move(*links)).set;
  if (ledges) file.ledges = take(std::move(*ledges));
  return PyNavMesh::from_file(std::move(file));
}

py::dict ledge_arrays(const PyNavMesh& nav) {
  const ledge::LedgeLinkSet* ledges = nav.ledges();
  const std::size_t n = ledges == nullptr ? 0 : ledges->links.size();
  std::vector<Vec3> source_a(n);
  std::vector<Vec3> source_b(n);
  std::vector<Vec3> dest_a(n);
  std::vector<Vec3> dest_b(n);
  py::list kind;
  py::array_t<std::int32_t> source_poly(static_cast<py::ssize_t>(n));
  py::array_t<std::int32_t> dest_poly(static_cast<py::ssize_t>(n));
  py::array_t<float> cost(static_cast<py::ssize_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const ledge::LedgeLink& l = ledges->links[i];
    const auto r = static_cast<py::ssize_t>(i);
    source_a[i] = l.source_a;
    source_b[i] = l.source_b;
    dest_a[i] = l.dest_a;
    dest_b[i] = l.dest_b;
    kind.append(std::string(ledge::to_string(l.kind)));
    source_poly.mutable_at(r) = static_cast<std::int32_t>(l.source_poly);
    dest_poly.mutable_at(r) = static_cast<std::int32_t>(l.dest_poly);
    cost.mutable_at(r) = l.cost;
  }
  py::dict d;
  d["kind"] = kind;
  d["source_a"] = points_array(source_a);
  d["source_b"] = points_array(source_b);
  d["dest_a"] = points_array(dest_a);
  d["dest_b"] = points_array(dest_b);
  d["source_poly"] = source_poly;
  d["dest_poly"] = dest_poly;
  d["cost"] = cost;
  return d;
}

py::dict stats(const PyNavMesh& nav) {
  const mesh::NavMesh& m = nav.mesh();
  py::dict j;
  j["polygons"] = m.polygon_count();
  j["vertices"] = m.vertices.size();
  std::uint32_t max_region = 0;
  for (const auto r : m.poly_region) max_region = std::max<std::uint32_t>(max_region, r);
  j["regions"] = max_region;
  double area = 0.0;
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    area += mesh::polygon_area(m, mesh::PolyId{p});
  }
  j["navmesh_area"] = area;
  j["grid"] = py::make_tuple(m.grid.width, m.grid.depth);
  AABB bounds;
  for (const Vec3& v : m.vertices) bounds.extend(v);
  if (!bounds.empty()) j["bounds"] = py::make_tuple(vec_list(bounds.min), vec_list(bounds.max));
  j["hash"] = hash_to_hex(mesh::content_hash(m));
  if (const jump::JumpLinkSet* links = nav.jumps()) {
    j["jump_links"] = links->links.size();
    // note: as in the CLI's build --stats and info --json: the bytes in the file, and apart from
    // them the bytes in memory
    j["jump_bytes"] = io::jump_link_file_bytes(*links);
    j["jump_memory_bytes"] = links->memory_bytes();
    py::list configs;
    for (const auto& c : links->configs) {
      py::dict d;
      d["h"] = c.height;
      d["d"] = c.distance;
      d["max_fall"] = c.max_fall;
      configs.append(d);
    }
    j["jump_configs"] = configs;
    j["jump_hash"] = hash_to_hex(jump::content_hash(*links));
  }
  if (const ledge::LedgeLinkSet* ledges = nav.ledges()) {
    j["ledge_links"] = ledges->links.size();
    j["ledge_hash"] = hash_to_hex(ledge::content_hash(*ledges));
  }
  return j;
}

py::array_t<std::int32_t> polygons_array(const mesh::NavMesh& m) {
  std::size_t width = 0;
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    width = std::max<std::size_t>(width, m.polygon(mesh::PolyId{p}).size());
  }
  py::array_t<std::int32_t> out(
      {static_cast<py::ssize_t>(m.polygon_count()), static_cast<py::ssize_t>(width)});
  auto w = out.mutable_unchecked<2>();
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    const auto verts = m.polygon(mesh::PolyId{p});
    for (std::size_t k = 0; k < width; ++k) {
      w(p, static_cast<py::ssize_t>(k)) =
          k < verts.size() ? static_cast<std::int32_t>(verts[k]) : -1;
    }
  }
  return out;
}

py::dict links_arrays(const PyNavMesh& nav) {
  const jump::JumpLinkSet* links = nav.jumps();
  const std::size_t n = links == nullptr ? 0 : links->links.size();
  std::vector<Vec3> start(n);
  std::vector<Vec3> land_a(n);
  std::vector<Vec3> land_b(n);
  py::array_t<std::int32_t> config(static_cast<py::ssize_t>(n));
  py::array_t<std::int32_t> start_poly(static_cast<py::ssize_t>(n));
  py::array_t<std::int32_t> land_poly(static_cast<py::ssize_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const jump::JumpLink& l = links->links[i];
    start[i] = l.start;
    land_a[i] = l.land_a;
    land_b[i] = l.land_b;
    config.mutable_at(static_cast<py::ssize_t>(i)) = l.config;
    start_poly.mutable_at(static_cast<py::ssize_t>(i)) = static_cast<std::int32_t>(l.start_poly);
    land_poly.mutable_at(static_cast<py::ssize_t>(i)) = static_cast<std::int32_t>(l.land_poly);
  }
  py::dict d;
  d["start"] = points_array(start);
  d["land_a"] = points_array(land_a);
  d["land_b"] = points_array(land_b);
  d["config"] = config;
  d["start_poly"] = start_poly;
  d["land_poly"] = land_poly;
  return d;
}

}  // namespace

PYBIND11_MODULE(leapnav, m) {
  m.doc() = "leapnav: navigation meshes with jump links (build, load, save, paths, raycasts)";
  py::register_exception<FileError>(m, "FileError", PyExc_OSError);

  py::class_<PyPath>(m, "Path", "A path: status, xz length, (K, 3) points and segments")
      .def_readonly("status", &PyPath::status, "found, partial, no_path, start_not_on_mesh, ...")
      .def_readonly("length", &PyPath::length, "xz length through every point [m]")
      .def_readonly("points", &PyPath::points, "(K, 3) float32 corners, start and goal included")
      .def_readonly("segments", &PyPath::segments,
                    "list of dicts as the CLI's JSON: kind, points, and for jumps h, d, link")
      .def_readonly("polygons", &PyPath::polygons, "the corridor's polygon ids")
      .def_readonly("jump_count", &PyPath::jump_count)
      .def_readonly("blocked_by_unloaded_tiles", &PyPath::blocked_by_unloaded_tiles,
                    "no_path only: a start, goal or the only way lies in an unloaded tile")
      .def_readonly("unloaded_tile", &PyPath::unloaded_tile,
                    "no_path only: the unloaded tile of the start, else of the goal, or None")
      .def("__repr__", [](const PyPath& p) {
        return "<leapnav.Path " + p.status + " length=" + std::to_string(p.length) + ">";
      });

  py::class_<PySearch>(m, "PathSearch",
                       "A sliced path search (NavMesh.begin_path): update(n) until done, then "
                       "finish(); the path equals find_path's")
      .def(
          "update",
          [](PySearch& self, std::uint32_t max_iterations) {
            const plan::SliceStatus slice = take(self.query.update_path(max_iterations));
            return py::make_tuple(slice.done, slice.expanded);
          },
          py::arg("max_iterations"), "Runs at most max_iterations A* expansions: (done, expanded)")
      .def(
          "finish",
          [](PySearch& self) {
            plan::Path path;
            const Status finished = self.query.finish_path(path);
            if (!finished) raise(finished.error());
            return to_python(path);
          },
          "The path, once an update reported done");

  py::class_<PyNavMesh>(m, "NavMesh", "A navmesh with its jump links and planner (immutable)")
      .def(
          "save",
          [](const PyNavMesh& self, const std::filesystem::path& path) {
            const Status saved = io::save_nav_file(self.file(), path);
            if (!saved) raise(saved.error());
          },
          py::arg("path"), "Writes the navmesh and its links to a .lnav file (str or os.PathLike)")
      .def(
          "find_path",
          [](const PyNavMesh& self, const py::object& start, const py::object& end, bool jumps,
             std::optional<float> jump_cost, const py::object& area_costs,
             const std::optional<std::string>& walk_search, bool ledge_links) {
            const plan::QueryOptions options =
                query_options(jumps, jump_cost, area_costs, walk_search, ledge_links);
            plan::NavQuery query(self.planner());
            return to_python(
                take(query.find_path(point(start, "start"), point(end, "end"), options)));
          },
          py::arg("start"), py::arg("end"), py::arg("jumps") = true,
          py::arg("jump_cost") = py::none(), py::arg("area_costs") = py::none(),
          py::arg("walk_search") = py::none(), py::arg("ledge_links") = true)
      .def(
          "find_paths",
          [](const PyNavMesh& self, const py::object& start_rows, const py::object& end_rows,
             int threads, bool jumps, std::optional<float> jump_cost, const py::object& area_costs,
             const std::optional<std::string>& walk_search, bool ledge_links) {
            const auto starts =
                rows<FloatArray>(start_rows, "starts", "an (N, 3) array of numbers");
            const auto ends = rows<FloatArray>(end_rows, "ends", "an (N, 3) array of numbers");
            if (starts.shape(0) != ends.shape(0)) {
              throw py::value_error("starts and ends differ in length");
            }
            const plan::QueryOptions options =
                query_options(jumps, jump_cost, area_costs, walk_search, ledge_links);
            std::vector<plan::PathRequest> requests(static_cast<std::size_t>(starts.shape(0)));
            const auto s = starts.unchecked<2>();
            const auto e = ends.unchecked<2>();
            for (py::ssize_t i = 0; i < s.shape(0); ++i) {
              requests[std::size_t(i)] = {{s(i, 0), s(i, 1), s(i, 2)}, {e(i, 0), e(i, 1), e(i, 2)}};
            }
            std::vector<Result<plan::Path>> results;
            {
              py::gil_scoped_release release;
              results = plan::find_paths(self.planner(), requests, options, threads);
            }
            py::list statuses;
            py::array_t<double> lengths(static_cast<py::ssize_t>(results.size()));
            for (std::size_t i = 0; i < results.size(); ++i) {
              if (!results[i]) raise(results[i].error());
              statuses.append(std::string(plan::to_string(results[i]->status)));
              lengths.mutable_at(static_cast<py::ssize_t>(i)) = results[i]->length;
            }
            return py::make_tuple(statuses, lengths);
          },
          py::arg("starts"), py::arg("ends"), py::arg("threads") = 0, py::arg("jumps") = true,
          py::arg("jump_cost") = py::none(), py::arg("area_costs") = py::none(),
          py::arg("walk_search") = py::none(), py::arg("ledge_links") = true,
          "Many paths at once: (list of statuses, array of lengths), the same for any thread count")
      .def(
          "raycast",
          [](const PyNavMesh& self, const py::object& start, const py::object& end) -> py::object {
            auto cast =
                take(plan::raycast(self.planner(), point(start, "start"), point(end, "end")));
            if (!cast) return py::none();
            py::dict d;
            d["hit"] = cast->hit;
            d["t"] = cast->t;
            d["point"] = vec_list(cast->point);
            d["normal"] = vec_list({cast->normal.x, 0.0F, cast->normal.y});
            std::vector<std::uint32_t> visited;
            for (const mesh::PolyId p : cast->visited) visited.push_back(mesh::index(p));
            d["polygons"] = visited;
            return d;
          },
          py::arg("start"), py::arg("end"),
          "A raycast along the surface: dict(hit, t, point, normal, polygons), None off the mesh")
      .def(
          "begin_path",
          [](const PyNavMesh& self, const py::object& start, const py::object& end, bool jumps,
             std::optional<float> jump_cost, const py::object& area_costs,
             const std::optional<std::string>& walk_search, bool ledge_links) {
            const plan::QueryOptions options =
                query_options(jumps, jump_cost, area_costs, walk_search, ledge_links);
            PySearch search{plan::NavQuery(self.planner())};
            const Status begun =
                search.query.begin_path(point(start, "start"), point(end, "end"), options);
            if (!begun) raise(begun.error());
            return search;
          },
          py::arg("start"), py::arg("end"), py::arg("jumps") = true,
          py::arg("jump_cost") = py::none(), py::arg("area_costs") = py::none(),
          py::arg("walk_search") = py::none(), py::arg("ledge_links") = true,
          "Starts a sliced search (a PathSearch; it keeps the navmesh's data alive)")
      .def(
          "move_along_surface",
          [](const PyNavMesh& self, const py::object& start,
             const py::object& target) -> py::object {
            auto moved = take(plan::move_along_surface(self.planner(), point(start, "start"),
                                                       point(target, "target")));
            if (!moved) return py::none();
            py::dict d;
            d["reached"] = moved->reached;
            d["point"] = vec_list(moved->point);
            std::vector<std::uint32_t> visited;
            for (const mesh::PolyId p : moved->visited) visited.push_back(mesh::index(p));
            d["polygons"] = visited;
            return d;
          },
          py::arg("start"), py::arg("target"),
          "Moves towards target sliding along walls: dict(reached, point, polygons), None off "
          "the mesh")
      .def(
          "distance_to_wall",
          [](const PyNavMesh& self, const py::object& center, float max_radius) -> py::object {
            auto wall =
                take(plan::distance_to_wall(self.planner(), point(center, "center"), max_radius));
            if (!wall) return py::none();
            py::dict d;
            d["found"] = wall->found;
            d["distance"] = wall->distance;
            d["point"] = vec_list(wall->point);
            d["normal"] = vec_list({wall->normal.x, 0.0F, wall->normal.y});
            return d;
          },
          py::arg("center"), py::arg("max_radius"),
          "The nearest wall within max_radius: dict(found, distance, point, normal), None off "
          "the mesh")
      .def(
          "closest_point",
          [](const PyNavMesh& self, const py::object& p) -> py::object {
            auto located = take(plan::closest_point(self.planner(), point(p, "point")));
            if (!located) return py::none();
            return py::make_tuple(vec_list(located->point), mesh::index(located->poly));
          },
          py::arg("point"), "(point on the surface, polygon id), or None when none is near")
      .def(
          "random_points",
          [](const PyNavMesh& self, std::size_t n, std::uint64_t seed) {
            const auto pts = plan::random_points(self.mesh(), n, seed);
            std::vector<Vec3> out;
            out.reserve(pts.size());
            for (const auto& mp : pts) out.push_back(mp.point);
            return points_array(out);
          },
          py::arg("n"), py::arg("seed") = 1, "(n, 3) points uniform over the mesh's area")
      .def_property_readonly(
          "vertices", [](const PyNavMesh& self) { return points_array(self.mesh().vertices); })
      .def_property_readonly(
          "polygons", [](const PyNavMesh& self) { return polygons_array(self.mesh()); },
          "(P, max vertices) int32 vertex indices, -1 padded")
      .def_property_readonly("links", &links_arrays,
                             "dict of arrays: start, land_a, land_b, config, start_poly, land_poly")
      .def_property_readonly(
          "tile_count", [](const PyNavMesh& self) { return self.planner().tile_count(); },
          "tiles of a tiled navmesh (0 untiled)")
      .def(
          "unload_tile",
          [](PyNavMesh& self, std::uint32_t tile) {
            if (const Status s = self.streaming().unload_tile(tile); !s) raise(s.error());
          },
          py::arg("tile"),
          "Streaming: paths never enter the tile's polygons until load_tile (it frees no memory)")
      .def(
          "load_tile",
          [](PyNavMesh& self, std::uint32_t tile) {
            if (const Status s = self.streaming().load_tile(tile); !s) raise(s.error());
          },
          py::arg("tile"), "Loads an unloaded tile again: the same paths as before the unload")
      .def(
          "pack",
          [](const PyNavMesh& self, const std::filesystem::path& path) {
            auto blocks = take(stream::split_tiles(self.mesh(), self.jumps(), self.ledges()));
            const Status saved = stream::save_tile_pack(blocks, path);
            if (!saved) raise(saved.error());
          },
          py::arg("path"),
          "Writes a tiled navmesh and its jump, ledge and ladder links as a tile pack (`leapnav "
          "pack`), for World")
      .def_property_readonly("ledge_links", &ledge_arrays,
                             "dict: kind (list of names), arrays source_a, source_b, dest_a, "
                             "dest_b, source_poly, dest_poly, cost")
      .def_property_readonly("stats", &stats, "dict with the keys of `leapnav navmesh info`");

  py::class_<PyWorld>(m, "World",
                      "A tiled world streamed from a tile pack (NavMesh.pack, `leapnav pack`): "
                      "tiles are read when loaded and freed when unloaded; paths run over the "
                      "loaded tiles (their polygon ids are those of the loaded set at the time)")
      .def(py::init([](const std::filesystem::path& path) {
             auto source = take(stream::PackTileSource::open(path));
             return PyWorld(take(stream::TileWorld::create(std::move(source))));
           }),
           py::arg("path"), "Opens a .lnavpack (its header only); no tile is loaded")
      .def_property_readonly("tile_count",
                             [](const PyWorld& self) { return self.world.tile_count(); })
      .def(
          "tile_at",
          [](const PyWorld& self, const FloatArray& p) -> std::optional<std::uint32_t> {
            const Vec3 v = point(p, "point");
            const std::uint32_t t = self.world.layout().tile_at(v.x, v.z);
            if (t == stream::kNoTile) return std::nullopt;
            return t;
          },
          py::arg("point"), "The tile holding the point's x and z, or None outside the tiles")
      .def(
          "tile_loaded",
          [](const PyWorld& self, std::uint32_t t) { return self.world.tile_loaded(t); },
          py::arg("tile"))
      .def(
          "load_tile",
          [](PyWorld& self, std::uint32_t tile) {
            Status s;
            {
              const py::gil_scoped_release release;
              s = self.world.load_tile(tile);
            }
            if (!s) raise(s.error());
          },
          py::arg("tile"), "Reads the tile's block from the pack")
      .def(
          "unload_tile",
          [](PyWorld& self, std::uint32_t tile) {
            Status s;
            {
              const py::gil_scoped_release release;
              s = self.world.unload_tile(tile);
            }
            if (!s) raise(s.error());
          },
          py::arg("tile"), "Frees the tile's block")
      .def(
          "set_loaded",
          [](PyWorld& self, const std::vector<std::uint32_t>& tiles) {
            Status s;
            {
              const py::gil_scoped_release release;
              s = self.world.set_loaded(tiles);
            }
            if (!s) raise(s.error());
          },
          py::arg("tiles"), "Makes exactly these tiles loaded, in one step")
      .def_property_readonly(
          "resident_bytes", [](const PyWorld& self) { return self.world.resident_bytes(); },
          "bytes the world holds: the pack's header, the loaded tiles and their planning data")
      .def(
          "find_path",
          [](const PyWorld& self, const FloatArray& start, const FloatArray& end, bool jumps,
             std::optional<float> jump_cost, const py::object& area_costs,
             const std::optional<std::string>& walk_search, bool ledge_links) {
            const plan::QueryOptions options =
                query_options(jumps, jump_cost, area_costs, walk_search, ledge_links);
            const Vec3 a = point(start, "start");
            const Vec3 b = point(end, "end");
            std::optional<Result<plan::Path>> path;
            {
              const py::gil_scoped_release release;
              path.emplace(self.world.find_path(a, b, options));
            }
            return to_python(take(std::move(*path)));
          },
          py::arg("start"), py::arg("end"), py::arg("jumps") = true,
          py::arg("jump_cost") = py::none(), py::arg("area_costs") = py::none(),
          py::arg("walk_search") = py::none(), py::arg("ledge_links") = true);

  m.def("build", &build, py::arg("vertices"), py::arg("triangles"), py::arg("config") = "default",
        py::arg("jumps") = py::none(), py::arg("step") = 4, py::arg("areas") = py::none(),
        py::arg("link_set") = "compact", py::arg("ledge_links") = false, py::arg("tile_size") = 0,
        py::arg("walkable_filter") = "groups",
        "Builds a navmesh from (N, 3) vertices and (M, 3) triangle indices, with jump links for "
        "`jumps` (\"C1\", \"C2\", \"C3\" or (h, d, fall) tuples) sampled every `step` columns, "
        "made as the CLI's `leapnav build --jump ... --step step --link-set link_set` makes them "
        "(every link passes the exact check); link_set \"compact\" (default) or \"full\"; "
        "ledge_links: step, jump-up and drop links as `leapnav build --ledge-links` makes them; "
        "tile_size N > 0: the tiled build of `leapnav build --tile-size N` (the same file); "
        "walkable_filter: jump links a walk makes redundant dropped by whole \"groups\" "
        "(default; paths unchanged), one by one (\"links\", `--walkable-filter links`) or "
        "kept (\"off\", `--keep-walkable-links`)");
  m.def(
      "load",
      [](const std::filesystem::path& path) {
        return PyNavMesh::from_file(take(io::load_nav_file(path)));
      },
      py::arg("path"), "Loads a .lnav file with its links (str or os.PathLike)");
}
