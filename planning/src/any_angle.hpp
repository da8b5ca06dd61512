// Internal: exact any-angle walking search over the navmesh's polygons, after Polyanya (Cui,
// Harabor, Grastien, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI 2017). A search
// node is a root (the start or a corner vertex where the path last turned) and an interval of a
// polygon edge seen from it, entering the polygon across that edge; expanding it projects the
// interval through the polygon onto its other edges (observable successors keep the root; the
// parts hidden behind an interval end that is a corner get that corner as their root), and
// h = the shortest distance from the root through the interval to the goal. Everything is
// walked by adjacency only (stacked floors never meet), in xz, in double precision relative to
// a mesh origin. A corner is decided per polygon-vertex incidence: the polygons around a vertex
// connected to each other across shared edges form a fan, and the vertex is a corner of that
// fan when the fan meets the mesh boundary.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "filter.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/graph.hpp"

namespace leapnav::plan::detail {

inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFU;

/// A point in xz, relative to AnyAngleMesh's origin [units: m].
struct DPoint {
  double x = 0.0;
  double z = 0.0;
};

/// One polygon slot (a slot of NavMesh::poly_vertices: a polygon's vertex and the edge from it
/// to the polygon's next vertex), everything an expansion reads about it in one place.
struct AnySlot {
  DPoint point;                  ///< the slot's vertex
  std::uint32_t twin = kNoNode;  ///< the same edge's slot in the neighbour; kNoNode: boundary
  std::uint32_t next = kNoNode;  ///< the polygon across the edge; kNoNode: boundary
  std::uint32_t arc = kNoNode;   ///< the walk arc that crosses the edge
  std::uint32_t fan = kNoNode;   ///< the fan of the slot's vertex
  /// Crossing the edge leads into a tree branch of polygons (see AnyAngleMesh::branch_order):
  /// worth it only when the goal's order lies in [branch_first, branch_end). Edges that do not
  /// lead down into a branch have the range [0, kNoNode).
  std::uint32_t branch_first = 0;
  std::uint32_t branch_end = kNoNode;
  std::uint8_t corner = 0;  ///< the fan meets the mesh boundary: a corner
};

/// The per-mesh data of the any-angle search: built once with the Planner.
struct AnyAngleMesh {
  double origin_x = 0.0;
  double origin_z = 0.0;
  /// How far a root may lie inside a polygon's edge line and still count as on it [units: m].
  double tolerance = 0.0;
  std::vector<AnySlot> slots;  ///< per slot of NavMesh::poly_vertices
  /// Per polygon, its slots whose edge has a neighbour: links[link_first[p] .. link_first[p + 1]).
  std::vector<std::uint32_t> link_first;
  std::vector<std::uint32_t> links;
  std::vector<std::uint8_t> fan_open;  ///< per fan: it meets the mesh boundary (a corner)
  /// Per polygon: its place in a depth-first order of the tree branches, kNoNode - 1 for a
  /// polygon on a cycle. The branches are what peeling polygons with at most one remaining
  /// neighbour removes from the polygon adjacency graph (trees hanging off its cycles, or whole
  /// tree-shaped islands); a branch is entered from its parent only when the goal lies in it,
  /// since a path that enters a branch without the goal leaves it through the same edge (the
  /// straight piece along that edge is no longer). Generalises Polyanya's dead-end pruning.
  std::vector<std::uint32_t> branch_order;
  [[nodiscard]] std::size_t fan_count() const { return fan_open.size(); }
};

/// Builds the fans, twins and arcs of `mesh` (which must pass mesh::validate) for `graph`.
[[nodiscard]] AnyAngleMesh build_any_angle_mesh(const mesh::NavMesh& mesh, const NavGraph& graph);

/// The dominance test of the search: whether g_k + |root_k p| < g + |root p| (by more than a
/// rounding slack relative to g) for every point p = a + t (b - a), t in [lo, hi] (0 <= lo <=
/// hi <= 1). Decided exactly (the largest |root_k p| - |root p| over the segment is at an end or
/// where p, root_k and root are collinear) when both roots lie on one side of the line ab
/// farther than `clear` [units: m]; otherwise false. Used with node k's interval containing
/// [lo, hi]: a node whose every point is reached more cheaply carries no shortest path.
[[nodiscard]] bool cheaper_through(DPoint root_k, double g_k, DPoint root, double g, DPoint a,
                                   DPoint b, double lo, double hi, double clear);

/// One any-angle search at a time; buffers are kept between searches.
class AnyAngleSearch {
 public:
  /// Starts a search from `src` (xz, in polygon src_poly) to `dst` (in dst_poly, != src_poly).
  /// `every_vertex_a_corner` lets the path turn at any vertex (needed when the filter excludes
  /// polygons, whose edges then act as walls). `filtered`: the filter may refuse a polygon
  /// (excluded areas or flags, tiles); when false every polygon is entered without asking it.
  void start(const mesh::NavMesh& nav, const AnyAngleMesh& data, const Filter& filter,
             std::uint32_t src_poly, Vec2 src, std::uint32_t dst_poly, Vec2 dst,
             bool every_vertex_a_corner, bool filtered, std::uint32_t max_nodes);
  /// Runs at most `budget` expansions; returns the expansions done. finished() once the goal
  /// polygon is reached, the node limit is hit or the open list runs empty. The same pops and
  /// expansions happen whatever the budgets of the calls.
  std::uint32_t step(std::uint32_t budget);
  [[nodiscard]] bool finished() const { return finished_; }
  [[nodiscard]] bool reached() const { return reached_; }
  [[nodiscard]] bool out_of_nodes() const { return out_of_nodes_; }
  [[nodiscard]] std::uint32_t expanded() const { return expanded_; }
  /// The shortest path's xz length (reached only) [units: m].
  [[nodiscard]] double length() const { return length_; }
  /// Appends the walk arcs of the path found (or, out of nodes, of the path to the reached node
  /// nearest the goal), in search order.
  void path_arcs(std::vector<std::uint32_t>& arcs) const;

 private:
  struct Node {
    DPoint root;
    DPoint left;   ///< interval end at the entry edge's first vertex side
    DPoint right;  ///< interval end at the entry edge's second vertex side
    double g = 0.0;
    double f = 0.0;                   ///< g + h, set when the node goes on the heap
    std::uint32_t root_id = kNoNode;  ///< fan of the root vertex; kNoNode for the start
    std::uint32_t poly = 0;           ///< the polygon entered
    std::uint32_t edge = 0;           ///< entry edge index in poly (vertex edge is `left`'s end)
    std::uint32_t arc = kNoNode;      ///< the walk arc crossed
    std::uint32_t parent = kNoNode;
    std::uint8_t ends = 0;  ///< kLeftVertex | kRightVertex: the end is the edge's vertex
  };
  struct HeapEntry {
    std::int64_t key;
    double g;
    std::uint32_t node;
  };
  /// The open list's order as a "comes later" relation for the std heap functions.
  struct Later {
    bool operator()(const HeapEntry& x, const HeapEntry& y) const {
      if (x.key != y.key) return x.key > y.key;
      if (x.g != y.g) return x.g < y.g;
      return x.node > y.node;
    }
  };
  [[nodiscard]] HeapEntry entry(std::uint32_t k);
  /// Per listed node: where on its entry edge its interval lies and the node entering by the
  /// same edge before it (the per-edge lists of the dominance rule).
  struct Span {
    double lo = 0.0;  ///< interval parameters on the crossed slot's edge, from its first vertex
    double hi = 1.0;
    std::uint32_t earlier = kNoNode;
  };
  /// Whether every point p of the interval [lo, hi] of `slot`'s edge (a -> b) is reached more
  /// cheaply through node k (g_k + |r_k p| < g + |root p|, by more than the slack): then no
  /// shortest path passes through the interval from `root`.
  [[nodiscard]] bool dominated_by(std::uint32_t k, DPoint a, DPoint b, double lo, double hi,
                                  DPoint root, double g) const;
  /// Whether an interval of `slot` is dominated by a node in the slot's list.
  [[nodiscard]] bool dominated(std::uint32_t slot, double lo, double hi, DPoint root,
                               double g) const;
  /// The expansions after which new nodes are checked against and kept in the per-slot lists.
  static constexpr std::uint32_t kDominanceAfter = 16;
  static constexpr std::uint8_t kLeftVertex = 1;
  static constexpr std::uint8_t kRightVertex = 2;

  /// One step of the straight walk from the start toward the goal (whether the goal is seen
  /// from the start): crosses the edge of walk_poly_ that the segment leaves it by, appending
  /// its arc to straight_arcs_. 1: the goal's polygon is entered; 0: go on; -1: the walk proves
  /// nothing (a wall, an edge end within the tolerance, the goal short of the edge, max_nodes).
  int walk_step();
  /// Ends the walk and starts the search proper from the start.
  void begin_search();
  void expand(std::uint32_t n);
  /// Successors on every edge of `poly` but `skip` (all visible from a root on its boundary).
  void expand_all(std::uint32_t parent, std::uint32_t parent_root, std::uint32_t poly,
                  std::uint32_t skip, DPoint root, std::uint32_t root_id, double g);
  /// Whether a successor may cross the edge of `slot`: a neighbour that the filter lets in and
  /// that leads somewhere (down into a tree branch only when the goal is in it).
  [[nodiscard]] bool leads_on(const AnySlot& slot) const {
    if (slot.next == kNoNode) return false;
    if (goal_order_ < slot.branch_first || goal_order_ >= slot.branch_end) return false;
    return !filtered_ || filter_->enterable(slot.next);
  }
  /// A successor on the part [lo, hi] of edge `slot` (parameter from its first vertex; the
  /// caller checked leads_on), appended to nodes_ (step() puts it on the heap). `parent_root`
  /// is the parent's root id: a successor keeping it was checked with its parent.
  void push_successor(std::uint32_t parent, std::uint32_t parent_root, std::uint32_t slot,
                      double lo, double hi, DPoint root, std::uint32_t root_id, double g);
  [[nodiscard]] bool corner(std::uint32_t slot) const {
    return every_corner_ || data_->slots[slot].corner != 0;
  }
  [[nodiscard]] DPoint vertex(std::uint32_t slot) const { return data_->slots[slot].point; }

  const mesh::NavMesh* nav_ = nullptr;
  const AnyAngleMesh* data_ = nullptr;
  const Filter* filter_ = nullptr;
  std::vector<Node> nodes_;
  std::vector<Span> spans_;  ///< per node from first_listed_ on
  std::uint32_t first_listed_ = kNoNode;
  /// Per slot: the newest node that crossed its edge this search (valid when its generation is
  /// the search's).
  std::vector<std::uint32_t> slot_newest_;
  std::vector<std::uint32_t> slot_generation_;
  std::vector<HeapEntry> heap_;
  std::vector<std::uint32_t> straight_arcs_;
  DPoint start_;
  std::uint32_t src_poly_ = 0;
  std::uint32_t walk_poly_ = 0;
  std::uint32_t walk_entry_ = kNoNode;  ///< the slot of walk_poly_ the walk came in by
  bool walking_ = false;
  bool straight_ = false;  ///< the goal was seen from the start: the path is straight_arcs_
  std::vector<double> root_g_;
  std::vector<std::uint32_t> root_generation_;
  /// Per polygon: the root that last saw all of it (expand_all) and at what cost, so that a
  /// root on a vertex does not circle its fan forever.
  std::vector<std::uint32_t> whole_root_;
  std::vector<double> whole_g_;
  std::vector<std::uint32_t> whole_generation_;
  std::uint32_t generation_ = 0;
  DPoint goal_;
  std::uint32_t dst_poly_ = 0;
  std::uint32_t goal_order_ = 0;  ///< AnyAngleMesh::branch_order of dst_poly_
  std::uint32_t max_nodes_ = 0;
  std::uint32_t expanded_ = 0;
  std::uint32_t final_node_ = kNoNode;
  std::uint32_t partial_node_ = kNoNode;  ///< out of nodes: the interval nearest the goal
  std::uint32_t resume_ = kNoNode;        ///< a single successor to expand before the next pop
  std::uint32_t next_ = kNoNode;  ///< a successor that comes before the whole heap: the next pop
  double length_ = 0.0;
  bool every_corner_ = false;
  bool filtered_ = true;
  bool finished_ = true;
  bool reached_ = false;
  bool out_of_nodes_ = false;
};

}  // namespace leapnav::plan::detail
