// Private planning data shared by the query code: the R-tree over polygon bounds (Boost.Geometry,
// kept out of the public headers), portal ends per arc, xz vertex positions, and per link group
// its representative jump and the configurations of its links.
#pragma once

#include <algorithm>
#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "any_angle.hpp"
#include "landmarks.hpp"
#include "leapnav/planning/query.hpp"

namespace leapnav::plan {
/// The QueryOptions::jump_configs bit of configuration index c.
[[nodiscard]] constexpr std::uint64_t config_bit(std::uint32_t c) {
  return std::uint64_t{1} << (c < 63 ? c : 63);
}
}  // namespace leapnav::plan

namespace leapnav::plan {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using RtreePoint = bg::model::point<float, 3, bg::cs::cartesian>;
using RtreeBox = bg::model::box<RtreePoint>;
using RtreeValue = std::pair<RtreeBox, std::uint32_t>;
using Rtree = bgi::rtree<RtreeValue, bgi::quadratic<16>>;

struct Planner::Impl {
  std::shared_ptr<const mesh::NavMesh> mesh;  ///< never null
  NavGraph graph;
  std::vector<std::uint32_t> island;  ///< per polygon, walk arcs only
  /// Per polygon, walk and jump arcs taken as undirected (equal to island without links).
  std::vector<std::uint32_t> jump_island;
  std::shared_ptr<const jump::JumpLinkSet> links;  ///< null when walking only
  /// Per link group: representative takeoff and landing (xz), their distance, and the bits
  /// (QueryOptions::jump_configs) of its links' configurations.
  std::vector<Vec2> group_takeoff;
  std::vector<Vec2> group_landing;
  std::vector<float> group_length;
  std::vector<std::uint64_t> group_configs;
  std::uint64_t all_configs = 0;  ///< union of group_configs
  /// Runs of consecutive links of a group with the same start and configuration: group g owns
  /// runs [group_run_first[g], group_run_first[g + 1]), run r the links [run_first[r],
  /// run_first[r + 1]) starting at run_start[r] (xz).
  /// Directed reachability with every jump arc (a superset of any configuration mask's): the
  /// strongly connected component per polygon and, per component, a bitset of the components it
  /// reaches (scc_words 64-bit words per row). Empty without links or above kMaxReachComponents.
  std::vector<std::uint32_t> scc;
  std::vector<std::uint64_t> scc_reach;
  std::size_t scc_words = 0;
  std::vector<std::uint32_t> group_run_first;
  std::vector<std::uint32_t> run_first;
  std::vector<Vec2> run_start;
  std::vector<Vec2> xz_vertices;  ///< mesh vertices in xz
  /// Per arc: the portal's ends as seen walking from the source polygon, and its midpoint.
  std::vector<Vec2> arc_left;
  std::vector<Vec2> arc_right;
  std::vector<Vec2> arc_mid;
  /// Landmark distances of the walk arcs (the walking A*'s ALT heuristic, Midpoint crossings).
  detail::Landmarks landmarks;
  Rtree rtree;
  /// The exact walking search's fans, twins and arcs per polygon slot.
  detail::AnyAngleMesh any_angle;
  /// The distinct area ids and flag values of the mesh's polygons, sorted: whether a query's filter
  /// prices every polygon alike or excludes some.
  std::vector<std::uint8_t> area_ids;
  std::vector<std::uint16_t> flag_values;
  /// Tiled meshes only (NavMesh::tile_poly_first not empty): which tiles are loaded. Shared by
  /// the planner's copies and queries; the pointer is fixed, the flags change.
  std::shared_ptr<detail::TileState> tiles;

  /// locate() without input checks; false when nothing qualifies.
  bool locate(Vec3 point, Vec3 extent, Location& out) const;
  /// The point of polygon p nearest `point` in xz (the point itself when inside).
  [[nodiscard]] Vec2 closest_point(std::uint32_t p, Vec2 point, bool& inside) const;
  /// False only when q is certainly unreachable from p over walk and jump arcs.
  [[nodiscard]] bool may_reach(std::uint32_t p, std::uint32_t q) const {
    if (scc_reach.empty()) return true;
    const std::uint32_t c = scc[p];
    const std::uint32_t d = scc[q];
    return ((scc_reach[std::size_t(c) * scc_words + d / 64] >> (d % 64)) & 1U) != 0;
  }
  /// Per configuration of links: how its links are traversed (empty: every one a Jump).
  std::vector<SegmentKind> config_kind;
  /// Per link: the A* cost replacing jump_cost (empty without extras; NaN for jumps).
  std::vector<float> link_cost;
  /// Per group: the least link_cost of its non-jump links (+infinity when none).
  std::vector<float> group_link_cost;
  std::uint64_t jump_mask = ~std::uint64_t{0};  ///< configuration bits of the thesis's jumps
  std::uint64_t ledge_mask = 0;                 ///< configuration bits of ledge and ladder links

  /// The configuration bits a query may use: jumps when options.jumps (masked by
  /// jump_configs), ledge and ladder links when options.ledge_links.
  [[nodiscard]] std::uint64_t allowed_configs(const QueryOptions& options) const {
    return (options.jumps ? options.jump_configs & jump_mask : 0) |
           (options.ledge_links ? ledge_mask : 0);
  }
  /// Whether queries with these options plan over links.
  [[nodiscard]] bool jumps_enabled(const QueryOptions& options) const {
    return links != nullptr && (all_configs & allowed_configs(options)) != 0;
  }
  /// The A* cost of group g beyond its length, for the allowed configuration bits `allowed`.
  [[nodiscard]] float group_extra_cost(std::uint32_t g, std::uint64_t allowed,
                                       float jump_cost) const {
    float cost = std::numeric_limits<float>::infinity();
    if ((group_configs[g] & allowed & jump_mask) != 0) cost = jump_cost;
    if ((group_configs[g] & allowed & ledge_mask) != 0) cost = std::min(cost, group_link_cost[g]);
    return cost;
  }
  /// height_at with a fallback to the vertex plane when the detail gives no finite height.
  [[nodiscard]] float height(std::uint32_t p, Vec2 point) const;
};

/// The planning data behind a Planner, for the query code of this library.
struct PlannerAccess {
  [[nodiscard]] static const Planner::Impl& impl(const Planner& planner) { return *planner.impl_; }
};

/// A shared_ptr that does not own `mesh`, for planners local to a one-off call.
[[nodiscard]] std::shared_ptr<const mesh::NavMesh> borrow(const mesh::NavMesh& mesh);

}  // namespace leapnav::plan
