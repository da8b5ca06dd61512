// Planner construction and point location (pipeline.md §3 "Locate"): an R-tree (Boost.Geometry,
// packed bulk load, so deterministic) over the polygons' 3-D bounds; candidates meeting the query
// box are ranked by the distance from the query point to their surface, ties to the lower id.
#include <algorithm>
#include <boost/iterator/function_output_iterator.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "planner_impl.hpp"

namespace leapnav::plan {
namespace {

Status check_point(Vec3 p, const char* what) {
  if (!is_finite(p)) {
    return make_error(ErrorCode::NonFinite, std::string("locate: ") + what + " is not finite");
  }
  return {};
}

Status check_extent(Vec3 e) {
  if (!is_finite(e)) return make_error(ErrorCode::NonFinite, "locate: search extent is not finite");
  if (e.x < 0.0F || e.y < 0.0F || e.z < 0.0F) {
    return make_error(ErrorCode::InvalidArgument, "locate: search extent has a negative component");
  }
  return {};
}

/// Largest component count for which the reachability matrix is kept (2 MiB of bits).
constexpr std::uint32_t kMaxReachComponents = 4096;

void build_reachability(Planner::Impl& impl) {
  const NavGraph& graph = impl.graph;
  const std::uint32_t count = strong_components(graph, impl.scc);
  if (count == 0 || count > kMaxReachComponents) {
    impl.scc.clear();
    return;
  }
  const std::size_t words = (count + 63) / 64;
  impl.scc_words = words;
  impl.scc_reach.assign(std::size_t(count) * words, 0);
  // polygons by component (counting sort)
  std::vector<std::uint32_t> first(count + 1, 0);
  for (const std::uint32_t c : impl.scc) ++first[c + 1];
  for (std::uint32_t c = 0; c < count; ++c) first[c + 1] += first[c];
  std::vector<std::uint32_t> members(impl.scc.size());
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::uint32_t p = 0; p < impl.scc.size(); ++p) members[fill[impl.scc[p]]++] = p;
  for (std::uint32_t c = 0; c < count; ++c) {
    std::uint64_t* row = &impl.scc_reach[std::size_t(c) * words];
    row[c / 64] |= std::uint64_t{1} << (c % 64);
    for (std::uint32_t k = first[c]; k < first[c + 1]; ++k) {
      const std::uint32_t p = members[k];
      for (std::uint32_t a = graph.out_begin(p); a < graph.out_end(p); ++a) {
        const std::uint32_t d = impl.scc[graph.arc_target[a]];
        if (d == c) continue;
        const std::uint64_t* other = &impl.scc_reach[std::size_t(d) * words];
        for (std::size_t w = 0; w < words; ++w) row[w] |= other[w];
      }
    }
  }
}

}  // namespace

Planner::Planner(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

const mesh::NavMesh& Planner::mesh() const {
  return *impl_->mesh;
}
const NavGraph& Planner::graph() const {
  return impl_->graph;
}
std::uint32_t Planner::island(mesh::PolyId p) const {
  return impl_->island[mesh::index(p)];
}

namespace {
template <class T>
std::uint64_t vector_bytes(const std::vector<T>& v) {
  return std::uint64_t{v.size()} * sizeof(T);
}
}  // namespace

std::uint64_t Planner::memory_bytes() const {
  const Impl& i = *impl_;
  std::uint64_t bytes = sizeof(Impl);
  bytes += vector_bytes(i.graph.arc_first) + vector_bytes(i.graph.arc_source) +
           vector_bytes(i.graph.arc_target) + vector_bytes(i.graph.arc_kind) +
           vector_bytes(i.graph.arc_index);
  bytes += vector_bytes(i.island) + vector_bytes(i.jump_island);
  bytes += vector_bytes(i.group_takeoff) + vector_bytes(i.group_landing) +
           vector_bytes(i.group_length) + vector_bytes(i.group_configs);
  bytes += vector_bytes(i.scc) + vector_bytes(i.scc_reach);
  bytes += vector_bytes(i.group_run_first) + vector_bytes(i.run_first) + vector_bytes(i.run_start);
  bytes += vector_bytes(i.xz_vertices) + vector_bytes(i.arc_left) + vector_bytes(i.arc_right) +
           vector_bytes(i.arc_mid);
  bytes += vector_bytes(i.landmarks.distance) + vector_bytes(i.landmarks.landmark_arc) +
           vector_bytes(i.landmarks.slack);
  // note: an estimate; Boost's R-tree does not report its allocation. Leaves hold the entries,
  // about one node (16 slots and a count) per 16 entries above them.
  const std::uint64_t entries = i.rtree.size();
  bytes += entries * sizeof(RtreeValue) + (entries / 16 + 1) * (16 * sizeof(RtreeBox) + 64);
  bytes += vector_bytes(i.any_angle.slots) + vector_bytes(i.any_angle.link_first) +
           vector_bytes(i.any_angle.links) + vector_bytes(i.any_angle.fan_open) +
           vector_bytes(i.any_angle.branch_order);
  bytes += vector_bytes(i.area_ids) + vector_bytes(i.flag_values);
  if (i.tiles) bytes += vector_bytes(i.tiles->poly_tile) + i.tiles->unloaded.size();
  bytes +=
      vector_bytes(i.config_kind) + vector_bytes(i.link_cost) + vector_bytes(i.group_link_cost);
  return bytes;
}

const jump::JumpLinkSet* Planner::links() const {
  return impl_->links.get();
}
std::shared_ptr<const mesh::NavMesh> Planner::shared_mesh() const {
  return impl_->mesh;
}
std::shared_ptr<const jump::JumpLinkSet> Planner::shared_links() const {
  return impl_->links;
}

Result<Planner> Planner::create(const mesh::NavMesh& mesh) {
  return create(std::make_shared<const mesh::NavMesh>(mesh));
}

Result<Planner> Planner::create(const mesh::NavMesh& mesh, const jump::JumpLinkSet* links) {
  return create(std::make_shared<const mesh::NavMesh>(mesh),
                links == nullptr ? nullptr : std::make_shared<const jump::JumpLinkSet>(*links));
}

Result<Planner> Planner::create(std::shared_ptr<const mesh::NavMesh> shared_mesh,
                                std::shared_ptr<const jump::JumpLinkSet> shared_links) {
  return create(std::move(shared_mesh), std::move(shared_links), LinkExtras{});
}

SegmentKind Planner::config_kind(std::uint32_t c) const {
  return c < impl_->config_kind.size() ? impl_->config_kind[c] : SegmentKind::Jump;
}

Result<Planner> Planner::create(std::shared_ptr<const mesh::NavMesh> shared_mesh,
                                std::shared_ptr<const jump::JumpLinkSet> shared_links,
                                LinkExtras extras) {
  if (shared_mesh == nullptr) {
    return make_error(ErrorCode::InvalidArgument, "Planner::create: the mesh is null");
  }
  const mesh::NavMesh& mesh = *shared_mesh;
  // note: the mesh and links come from the caller, so a failed check is bad input, not a bug
  if (const Status valid = mesh::validate(mesh); !valid) {
    return make_error(ErrorCode::InvalidArgument,
                      "Planner::create: invalid mesh (" + valid.error().message + ")");
  }
  if (shared_links != nullptr && shared_links->poly_first.empty() &&
      shared_links->group_first.empty() && shared_links->group_land_poly.empty()) {
    // note: a set without its per-polygon index: a default-constructed one is no links (indexed
    // here); links the caller gathered by hand need index_links, which also sorts them
    if (!shared_links->links.empty()) {
      return make_error(ErrorCode::InvalidArgument,
                        "Planner::create: the jump link set has " +
                            std::to_string(shared_links->links.size()) +
                            " links but no per-polygon index (jump::index_links(set, "
                            "polygon_count) makes it; builders and loaders return indexed sets)");
    }
    auto indexed = std::make_shared<jump::JumpLinkSet>(*shared_links);
    jump::index_links(*indexed, mesh.polygon_count());
    shared_links = std::move(indexed);
  }
  const jump::JumpLinkSet* links = shared_links.get();
  if (links != nullptr) {
    if (const Status valid = jump::validate(*links, mesh); !valid) {
      return make_error(ErrorCode::InvalidArgument,
                        "Planner::create: invalid jump links (" + valid.error().message + ")");
    }
  }
  const bool with_extras = !extras.config_kind.empty() || !extras.link_cost.empty();
  if (with_extras) {
    if (links == nullptr || extras.config_kind.size() != links->configs.size() ||
        extras.link_cost.size() != links->links.size())
      return make_error(ErrorCode::InvalidArgument,
                        "Planner::create: link extras do not match the link set's sizes");
    for (const float c : extras.link_cost)
      if (!(std::isnan(c) || (std::isfinite(c) && c >= 0.0F)))
        return make_error(ErrorCode::InvalidArgument,
                          "Planner::create: a link cost is negative or infinite");
  }
  auto impl = std::make_shared<Impl>();
  if (with_extras) {
    impl->jump_mask = 0;
    for (std::uint32_t c = 0; c < extras.config_kind.size(); ++c) {
      if (extras.config_kind[c] == SegmentKind::Jump) {
        impl->jump_mask |= config_bit(c);
      } else {
        impl->ledge_mask |= config_bit(c);
      }
    }
    impl->config_kind = std::move(extras.config_kind);
    impl->link_cost = std::move(extras.link_cost);
  }
  impl->mesh = std::move(shared_mesh);
  impl->links = std::move(shared_links);
  impl->graph = build_graph(mesh, links);
  if (links == nullptr) {
    impl->island = connected_components(impl->graph);
    impl->jump_island = impl->island;
  } else {
    impl->island = connected_components(build_graph(mesh));
    impl->jump_island = connected_components(impl->graph);
    const std::size_t groups = links->group_land_poly.size();
    impl->group_takeoff.resize(groups);
    impl->group_landing.resize(groups);
    impl->group_length.resize(groups);
    impl->group_configs.assign(groups, 0);
    impl->group_run_first.assign(groups + 1, 0);
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::uint32_t k = links->group_first[g]; k < links->group_first[g + 1]; ++k) {
        const jump::JumpLink& link = links->links[k];
        if (k == links->group_first[g] || !(link.start == links->links[k - 1].start) ||
            link.config != links->links[k - 1].config) {
          impl->run_first.push_back(k);
          impl->run_start.push_back(xz(link.start));
        }
      }
      impl->group_run_first[g + 1] = static_cast<std::uint32_t>(impl->run_first.size());
      double sx = 0.0;
      double sz = 0.0;
      double lx = 0.0;
      double lz = 0.0;
      std::uint64_t bits = 0;
      const std::uint32_t first = links->group_first[g];
      const std::uint32_t last = links->group_first[g + 1];
      for (std::uint32_t k = first; k < last; ++k) {
        const jump::JumpLink& link = links->links[k];
        sx += link.start.x;
        sz += link.start.z;
        lx += 0.5 * (static_cast<double>(link.land_a.x) + link.land_b.x);
        lz += 0.5 * (static_cast<double>(link.land_a.z) + link.land_b.z);
        bits |= config_bit(link.config);
      }
      const double n = last > first ? static_cast<double>(last - first) : 1.0;
      impl->group_takeoff[g] = {static_cast<float>(sx / n), static_cast<float>(sz / n)};
      impl->group_landing[g] = {static_cast<float>(lx / n), static_cast<float>(lz / n)};
      impl->group_length[g] = distance(impl->group_takeoff[g], impl->group_landing[g]);
      impl->group_configs[g] = bits;
      impl->all_configs |= bits;
      float least = std::numeric_limits<float>::infinity();
      if (with_extras) {
        for (std::uint32_t k = first; k < last; ++k) {
          const float c = impl->link_cost[k];
          if (!std::isnan(c)) least = std::min(least, c);
        }
      }
      impl->group_link_cost.push_back(least);
    }
    impl->run_first.push_back(static_cast<std::uint32_t>(links->links.size()));
    build_reachability(*impl);
  }
  impl->xz_vertices.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) impl->xz_vertices.push_back(xz(v));
  const std::size_t arcs = impl->graph.arc_count();
  impl->arc_left.resize(arcs);
  impl->arc_right.resize(arcs);
  impl->arc_mid.resize(arcs);
  for (std::size_t a = 0; a < arcs; ++a) {
    if (impl->graph.arc_kind[a] != EdgeKind::Walk) {
      const Vec2 landing = impl->group_landing[impl->graph.arc_index[a]];
      impl->arc_left[a] = landing;
      impl->arc_right[a] = landing;
      impl->arc_mid[a] = landing;
      continue;
    }
    const std::uint32_t slot = impl->graph.arc_index[a];
    const std::uint32_t p = impl->graph.arc_source[a];
    const std::uint32_t next = slot + 1 == mesh.poly_first[p + 1] ? mesh.poly_first[p] : slot + 1;
    // note: polygons are CCW, so walking out through edge (v_slot, v_next) the interior lies
    // behind, v_slot on the right and v_next on the left.
    const Vec2 right = impl->xz_vertices[mesh.poly_vertices[slot]];
    const Vec2 left = impl->xz_vertices[mesh.poly_vertices[next]];
    impl->arc_left[a] = left;
    impl->arc_right[a] = right;
    impl->arc_mid[a] = {0.5F * (left.x + right.x), 0.5F * (left.y + right.y)};
  }
  impl->landmarks = detail::build_landmarks(impl->graph, impl->arc_mid, impl->island);
  std::vector<RtreeValue> boxes;
  boxes.reserve(mesh.polygon_count());
  for (std::uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const AABB& b = mesh.poly_bounds[p];
    boxes.emplace_back(
        RtreeBox(RtreePoint(b.min.x, b.min.y, b.min.z), RtreePoint(b.max.x, b.max.y, b.max.z)), p);
  }
  impl->rtree = Rtree(boxes.begin(), boxes.end());
  impl->any_angle = detail::build_any_angle_mesh(mesh, impl->graph);
  impl->area_ids = mesh.poly_area;
  impl->flag_values = mesh.poly_flags;
  std::sort(impl->area_ids.begin(), impl->area_ids.end());
  impl->area_ids.erase(std::unique(impl->area_ids.begin(), impl->area_ids.end()),
                       impl->area_ids.end());
  if (!mesh.tile_poly_first.empty())
    impl->tiles = std::make_shared<detail::TileState>(mesh.tile_poly_first);
  std::sort(impl->flag_values.begin(), impl->flag_values.end());
  impl->flag_values.erase(std::unique(impl->flag_values.begin(), impl->flag_values.end()),
                          impl->flag_values.end());
  return Planner(std::move(impl));
}

Vec2 Planner::Impl::closest_point(std::uint32_t p, Vec2 point, bool& inside) const {
  const std::uint32_t first = mesh->poly_first[p];
  const std::uint32_t last = mesh->poly_first[p + 1];
  inside = true;
  for (std::uint32_t s = first; s < last; ++s) {
    const Vec2 a = xz_vertices[mesh->poly_vertices[s]];
    const Vec2 b = xz_vertices[mesh->poly_vertices[s + 1 == last ? first : s + 1]];
    if (cross(b - a, point - a) < 0.0F) {
      inside = false;
      break;
    }
  }
  if (inside) return point;
  float best = std::numeric_limits<float>::max();
  Vec2 best_point = point;
  for (std::uint32_t s = first; s < last; ++s) {
    const Vec2 a = xz_vertices[mesh->poly_vertices[s]];
    const Vec2 b = xz_vertices[mesh->poly_vertices[s + 1 == last ? first : s + 1]];
    const Vec2 ab = b - a;
    const float len2 = dot(ab, ab);
    float t = len2 > 0.0F ? dot(point - a, ab) / len2 : 0.0F;
    t = std::clamp(t, 0.0F, 1.0F);
    const Vec2 q = a + ab * t;
    const Vec2 d = point - q;
    const float dist2 = dot(d, d);
    if (dist2 < best) {
      best = dist2;
      best_point = q;
    }
  }
  return best_point;
}

float Planner::Impl::height(std::uint32_t p, Vec2 point) const {
  const float h = mesh::height_at(*mesh, mesh::PolyId{p}, point.x, point.y);
  if (std::isfinite(h)) return h;
  // note: fall back to the plane through the polygon's first three vertices.
  const auto verts = mesh->polygon(mesh::PolyId{p});
  const Vec3 a = mesh->vertices[verts[0]];
  const Vec3 b = mesh->vertices[verts[1]];
  const Vec3 c = mesh->vertices[verts[2]];
  const Vec3 n = cross(b - a, c - a);
  if (std::fabs(n.y) < 1e-12F) return a.y;
  return a.y - (n.x * (point.x - a.x) + n.z * (point.y - a.z)) / n.y;
}

bool Planner::Impl::locate(Vec3 point, Vec3 extent, Location& out) const {
  const RtreeBox query(RtreePoint(point.x - extent.x, point.y - extent.y, point.z - extent.z),
                       RtreePoint(point.x + extent.x, point.y + extent.y, point.z + extent.z));
  float best = std::numeric_limits<float>::infinity();
  bool found = false;
  const Vec2 p2 = xz(point);
  rtree.query(
      bgi::intersects(query), boost::make_function_output_iterator([&](const RtreeValue& value) {
        const std::uint32_t p = value.second;
        // note: the point's xz distance to the polygon's box bounds its distance to the
        // polygon's surface from below: a polygon farther than the best so far (by more
        // than rounding) cannot win nor tie, so its closest point and height are skipped
        const RtreeBox& box = value.first;
        const float bx = std::max(
            {box.min_corner().get<0>() - point.x, 0.0F, point.x - box.max_corner().get<0>()});
        const float bz = std::max(
            {box.min_corner().get<2>() - point.z, 0.0F, point.z - box.max_corner().get<2>()});
        if (bx * bx + bz * bz > best * best * (1.0F + 1e-4F) + 1e-12F) return;
        bool inside = false;
        const Vec2 q = closest_point(p, p2, inside);
        // the extent in x and z, then the height only for a polygon still in the running
        if (std::fabs(q.x - point.x) > extent.x || std::fabs(q.y - point.z) > extent.z) {
          return;
        }
        const float y = height(p, q);
        const Vec3 surface{q.x, y, q.y};
        if (std::fabs(surface.y - point.y) > extent.y) return;
        const float d = distance(surface, point);
        if (d < best || (d == best && p < mesh::index(out.poly))) {
          best = d;
          found = true;
          out.poly = mesh::PolyId{p};
          out.point = surface;
          out.distance = d;
          out.inside = inside;
        }
      }));
  return found;
}

Result<std::optional<Location>> Planner::locate(Vec3 point, Vec3 extent) const {
  LEAPNAV_TRY(check_point(point, "point"));
  LEAPNAV_TRY(check_extent(extent));
  Location location;
  if (!impl_->locate(point, extent, location)) return std::optional<Location>{};
  return std::optional<Location>{location};
}

std::shared_ptr<const mesh::NavMesh> borrow(const mesh::NavMesh& mesh) {
  // note: an aliasing pointer with no owner; only for planners that die before the call returns.
  return {std::shared_ptr<const void>{}, &mesh};
}

Result<std::optional<Location>> locate(const mesh::NavMesh& mesh, Vec3 point, Vec3 search_extent) {
  LEAPNAV_TRY_ASSIGN(Planner planner, Planner::create(borrow(mesh)));
  return planner.locate(point, search_extent);
}

}  // namespace leapnav::plan

namespace leapnav::plan {

std::uint32_t Planner::tile_count() const {
  return impl_->tiles ? static_cast<std::uint32_t>(impl_->tiles->unloaded.size()) : 0;
}

std::uint32_t Planner::tile_of(mesh::PolyId p) const {
  if (!impl_->tiles || mesh::index(p) >= impl_->tiles->poly_tile.size()) return kNoTile;
  return impl_->tiles->poly_tile[mesh::index(p)];
}

bool Planner::tile_loaded(std::uint32_t tile) const {
  return tile < tile_count() && impl_->tiles->unloaded[tile].load(std::memory_order_relaxed) == 0;
}

namespace {

Status set_tile(detail::TileState* tiles, std::uint32_t tile, bool unload, const char* what) {
  const std::size_t count = tiles != nullptr ? tiles->unloaded.size() : 0;
  if (tile >= count) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(what) + ": tile " + std::to_string(tile) + " out of range (" +
                          (tiles != nullptr ? std::to_string(count) + " tiles"
                                            : std::string("the mesh has no tiles")) +
                          ")");
  }
  const std::uint8_t want = unload ? 1 : 0;
  if (tiles->unloaded[tile].exchange(want) != want) {
    if (unload) {
      tiles->unloaded_count.fetch_add(1);
    } else {
      tiles->unloaded_count.fetch_sub(1);
    }
  }
  return {};
}

}  // namespace

Status Planner::unload_tile(std::uint32_t tile) {
  return set_tile(impl_->tiles.get(), tile, true, "unload_tile");
}

Status Planner::load_tile(std::uint32_t tile) {
  return set_tile(impl_->tiles.get(), tile, false, "load_tile");
}

}  // namespace leapnav::plan
