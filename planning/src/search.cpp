// Path queries (pipeline.md §3, §5): locate both ends, A* over the graph's arcs, then the funnel.
// A* search nodes are arcs: "entered the arc's target polygon at the arc's crossing point", plus a
// goal node; the cost of moving from one arc to the next walk arc is the xz distance between their
// crossing points. A jump arc's crossing point is its group's representative landing; reaching it
// from point p costs |p - takeoff| + |takeoff - landing| + jump_cost. The heuristic, the straight
// xz distance to the goal, is admissible and consistent for both (triangle inequality, jump_cost
// >= 0), so a closed node is final and the cost equals Dijkstra's on the same arc graph. Walking
// with Midpoint crossings, the heuristic is the larger of that and the landmark bound
// (landmarks.hpp, ALT), also admissible and consistent. Node state lives in per-query buffers
// stamped with a generation counter; the open list is an indexed 4-ary heap. The search's whole
// state (open list, nodes, best node, filter) lives in the query's scratch, so the sliced calls
// resume it between updates; find_path is begin_path, one unbounded update_path and finish_path,
// the same A*.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "filter.hpp"
#include "jump_path.hpp"
#include "leapnav/core/parallel.hpp"
#include "planner_impl.hpp"
#include "posture.hpp"

namespace leapnav::plan {
namespace {

constexpr std::uint32_t kStartNode = 0xFFFFFFFEU;
constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr std::uint32_t kNotInHeap = 0xFFFFFFFFU;

float dist(Vec2 a, Vec2 b) {
  return distance(a, b);
}

struct Outcome {
  bool reached = false;
  bool out_of_nodes = false;
  std::uint32_t expanded = 0;
  float cost = 0.0F;
};

Status check_options(const QueryOptions& options) {
  const Vec3 e = options.search_extent;
  if (!is_finite(e))
    return make_error(ErrorCode::NonFinite, "find_path: search extent is not finite");
  if (e.x < 0.0F || e.y < 0.0F || e.z < 0.0F) {
    return make_error(ErrorCode::InvalidArgument,
                      "find_path: search extent has a negative component");
  }
  if (options.max_nodes == 0) {
    return make_error(ErrorCode::InvalidArgument, "find_path: max_nodes must be at least 1");
  }
  if (options.walk_search != WalkSearch::Exact && options.walk_search != WalkSearch::Portals) {
    return make_error(ErrorCode::InvalidArgument,
                      "find_path: walk_search " +
                          std::to_string(static_cast<int>(options.walk_search)) +
                          " is neither Exact nor Portals");
  }
  if (!std::isfinite(options.jump_cost)) {
    return make_error(ErrorCode::NonFinite, "find_path: jump cost is not finite");
  }
  if (options.jump_cost < 0.0F) {
    return make_error(ErrorCode::InvalidArgument, "find_path: jump cost is negative");
  }
  return {};
}

}  // namespace

std::string_view to_string(SegmentKind kind) noexcept {
  switch (kind) {
    case SegmentKind::Walk:
      return "walk";
    case SegmentKind::Jump:
      return "jump";
    case SegmentKind::StepUp:
      return "step_up";
    case SegmentKind::StepDown:
      return "step_down";
    case SegmentKind::JumpUp:
      return "jump_up";
    case SegmentKind::Drop:
      return "drop";
    case SegmentKind::Ladder:
      return "ladder";
  }
  return "unknown";
}

std::string_view to_string(PathStatus status) noexcept {
  switch (status) {
    case PathStatus::Found:
      return "found";
    case PathStatus::Partial:
      return "partial";
    case PathStatus::NoPath:
      return "no_path";
    case PathStatus::StartNotOnMesh:
      return "start_not_on_mesh";
    case PathStatus::GoalNotOnMesh:
      return "goal_not_on_mesh";
  }
  return "unknown";
}

Vec2 crossing_point(Vec2 a, Vec2 b, Vec2 start, Vec2 goal, CrossingPoint model) {
  if (model == CrossingPoint::Midpoint) return {0.5F * (a.x + b.x), 0.5F * (a.y + b.y)};
  const Vec2 ab = b - a;
  const Vec2 st = goal - start;
  const float denom = cross(ab, st);
  if (denom != 0.0F) {
    const Vec2 as = start - a;
    const float u = cross(as, st) / denom;
    const float v = cross(as, ab) / denom;
    if (u >= 0.0F && u <= 1.0F && v >= 0.0F && v <= 1.0F) return a + ab * u;
  }
  // no crossing: the closest pair of points involves an end of one of the segments
  const float ab2 = dot(ab, ab);
  const auto on_portal = [&](Vec2 p) {
    const float t = ab2 > 0.0F ? std::clamp(dot(p - a, ab) / ab2, 0.0F, 1.0F) : 0.0F;
    return a + ab * t;
  };
  const float st2 = dot(st, st);
  const auto to_line = [&](Vec2 p) {
    const float t = st2 > 0.0F ? std::clamp(dot(p - start, st) / st2, 0.0F, 1.0F) : 0.0F;
    return dist(p, start + st * t);
  };
  const Vec2 ps = on_portal(start);
  const Vec2 pg = on_portal(goal);
  Vec2 best = ps;
  float best_d = dist(ps, start);
  if (const float d = dist(pg, goal); d < best_d) {
    best_d = d;
    best = pg;
  }
  if (const float d = to_line(a); d < best_d) {
    best_d = d;
    best = a;
  }
  if (const float d = to_line(b); d < best_d) best = b;
  return best;
}

struct NavQuery::Scratch {
  struct Node {
    Vec2 pos;
    float g = kInfinity;
    std::uint32_t parent = kStartNode;
    std::uint32_t generation = 0;
    std::uint32_t closed = 0;
    std::uint32_t heap_index = kNotInHeap;  ///< its entry in `heap` while it is open
  };
  /// An open-list entry: f's bits above the node id. f >= +0 (distances times positive costs),
  /// and the bits of non-negative floats order as the floats do, so comparing keys compares
  /// (f, node) lexicographically, without branches.
  struct HeapEntry {
    std::uint64_t key = 0;
    [[nodiscard]] std::uint32_t node() const { return static_cast<std::uint32_t>(key); }
  };
  std::vector<Node> nodes;  ///< per arc, then the goal node
  /// Per polygon (jump searches): the first expanded entry into it, its point and cost.
  struct Entry {
    Vec2 pos;
    float g = 0.0F;
    std::uint32_t generation = 0;
  };
  std::vector<Entry> entries;
  std::vector<HeapEntry> heap;
  std::uint32_t generation = 0;
  std::vector<std::uint32_t> arcs;
  std::vector<Portal> portals;
  std::vector<Corner> corners;
  detail::JumpPathScratch jump;
  double last_cost = 0.0;

  /// Where the query between begin_path and finish_path stands.
  enum class Phase : std::uint8_t { Idle, Searching, Done };
  Phase phase = Phase::Idle;
  /// The query's options (the filter refers to this copy) and its located ends.
  QueryOptions options;
  Location from;
  Location to;
  /// Set when the query is answered before any search (ends off the mesh, no path possible).
  std::optional<PathStatus> early;
  std::uint32_t early_tile = kNoTile;  ///< with an early NoPath: the unloaded tile of an end
  bool jumps = false;
  bool swapped = false;  ///< the running search goes from the goal to the start

  /// The state of the running A*, kept between update calls.
  struct Search {
    std::uint32_t src_poly = 0;
    std::uint32_t dst_poly = 0;
    Vec2 src;
    Vec2 dst;
    std::uint32_t goal_node = 0;
    std::uint32_t best_node = kStartNode;
    float best_h = 0.0F;
    bool finished = false;
    /// The ALT heuristic (Landmarks): whether it is on, the goal's distance from each landmark
    /// of its island (0 in unused slots) and the island's rounding slack.
    bool alt = false;
    float slack = 0.0F;
    std::array<float, detail::Landmarks::kSlots> goal_landmark{};
  };
  Search run;
  std::optional<detail::Filter> filter;
  float heuristic_scale = 1.0F;  ///< detail::check_filter's result for `options`
  bool costs_checked = false;    ///< `options` holds the costs of the last valid query
  Outcome outcome;
  /// The exact walking search (WalkSearch::Exact where it applies): whether the running search
  /// is one, the uniform cost of the polygons it crosses, and whether it may turn at any vertex.
  detail::AnyAngleSearch exact;
  bool use_exact = false;
  bool exact_corners = false;
  float exact_cost = 1.0F;

  /// Starts an A* from src (in polygon src_poly) to dst; jump arcs are taken only when `jumps`.
  void start_search(const Planner::Impl& impl, std::uint32_t src_poly, Vec2 src,
                    std::uint32_t dst_poly, Vec2 dst);
  /// Runs the started A* for at most `budget` expansions; returns the expansions done. When it
  /// ends, run.finished is set and `arcs` holds the arcs of the path found (or, out of nodes, of
  /// the path to the reached node nearest dst), in search order.
  std::uint32_t step_search(const Planner::Impl& impl, std::uint32_t budget);
  std::uint32_t step_exact(const Planner::Impl& impl, std::uint32_t budget);
  void relax(const Planner::Impl& impl, std::uint32_t a, std::uint32_t parent, Vec2 from,
             float g_from);
  /// The unscaled lower bound on the walk from arc a's node to run.dst, given the straight-line
  /// distance between them: that, or with ALT the largest landmark bound when that is larger.
  [[nodiscard]] float lower_bound(const Planner::Impl& impl, std::uint32_t a,
                                  float straight) const {
    if (!run.alt) return straight;
    constexpr std::uint32_t kSlots = detail::Landmarks::kSlots;
    const float* d = &impl.landmarks.distance[std::size_t(a) * kSlots];
    float bound = 0.0F;
    for (std::uint32_t k = 0; k < kSlots; ++k)
      bound = std::max(bound, std::abs(run.goal_landmark[k] - d[k]));
    return std::max(straight, bound - run.slack);
  }
  [[nodiscard]] bool jump_allowed(const Planner::Impl& impl, std::uint32_t a) const {
    return jumps && (impl.group_configs[impl.graph.arc_index[a]] & options.jump_configs) != 0;
  }
  /// The arc's node, reset when first touched in this query; `reached_from` is the point the
  /// search reaches the arc from (the TowardGoal crossing is placed from it).
  Node& touch(const Planner::Impl& impl, std::uint32_t arc, Vec2 reached_from);
  /// Opens `node` with priority f, or lowers its priority to f when it is open already.
  void push(float f, std::uint32_t node);
  /// Removes and returns the open list's first entry (heap not empty).
  std::uint32_t pop();
  void place(std::size_t i, const HeapEntry& entry) {
    heap[i] = entry;
    nodes[entry.node()].heap_index = static_cast<std::uint32_t>(i);
  }
  /// The open list's order: lower f first, then the lower node id (a total order, so the pop
  /// sequence does not depend on how the heap is laid out).
  static bool before(const HeapEntry& x, const HeapEntry& y) { return x.key < y.key; }
};

// note: an indexed 4-ary heap (children of i at 4i + 1 .. 4i + 4): a node is in it at most
// once and an improvement lowers its entry in place, so no stale entries are pushed and popped;
// half the levels of a binary heap. It pops the open nodes in the same total order (f, node) as
// the binary heap with lazy deletion did (a stale entry never came before its node's current
// one), so the search is the same A* step for step (bench/RESULTS.md, "Runtime size, query
// time and memory of tiled worlds").
void NavQuery::Scratch::push(float f, std::uint32_t node) {
  // note: + 0.0F turns a -0 into +0, whose bits order first
  const HeapEntry entry{std::uint64_t{std::bit_cast<std::uint32_t>(f + 0.0F)} << 32U | node};
  std::size_t i = nodes[node].heap_index;
  if (i == kNotInHeap) {
    i = heap.size();
    heap.push_back(entry);
  }
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(entry, heap[parent])) break;
    place(i, heap[parent]);
    i = parent;
  }
  place(i, entry);
}

std::uint32_t NavQuery::Scratch::pop() {
  const std::uint32_t top = heap.front().node();
  nodes[top].heap_index = kNotInHeap;
  const HeapEntry last = heap.back();
  heap.pop_back();
  const std::size_t n = heap.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    const std::size_t first = 4 * i + 1;
    if (first >= n) break;
    std::size_t best = first;
    const std::size_t end = std::min(first + 4, n);
    for (std::size_t c = first + 1; c < end; ++c) best = before(heap[c], heap[best]) ? c : best;
    if (!before(heap[best], last)) break;
    place(i, heap[best]);
    i = best;
  }
  place(i, last);
  return top;
}

NavQuery::Scratch::Node& NavQuery::Scratch::touch(const Planner::Impl& impl, std::uint32_t arc,
                                                  Vec2 reached_from) {
  Node& node = nodes[arc];
  if (node.generation != generation) {
    node.generation = generation;
    node.g = kInfinity;
    node.closed = 0;
    node.parent = kStartNode;
    node.heap_index = kNotInHeap;
    // note: a TowardGoal crossing depends on the first parent to reach the arc; the search
    // order is deterministic, and a closed node's position never changes afterwards
    node.pos =
        options.crossing == CrossingPoint::Midpoint
            ? impl.arc_mid[arc]
            : crossing_point(impl.arc_right[arc], impl.arc_left[arc],
                             options.crossing == CrossingPoint::TowardGoal ? reached_from : run.src,
                             run.dst, options.crossing);
  }
  return node;
}

void NavQuery::Scratch::relax(const Planner::Impl& impl, std::uint32_t a, std::uint32_t parent,
                              Vec2 from_point, float g_from) {
  const NavGraph& graph = impl.graph;
  if (!filter->enterable(graph.arc_target[a])) return;
  Node& node = touch(impl, a, from_point);
  if (node.closed != 0) return;
  float g = 0.0F;
  const float cost = filter->cost(graph.arc_source[a]);
  if (graph.arc_kind[a] == EdgeKind::Walk) {
    g = g_from + dist(from_point, node.pos) * cost;
  } else {
    const std::uint32_t group = graph.arc_index[a];
    g = g_from + dist(from_point, impl.group_takeoff[group]) * cost + impl.group_length[group] +
        impl.group_extra_cost(group, options.jump_configs, options.jump_cost);
  }
  if (g < node.g) {
    node.g = g;
    node.parent = parent;
    const float straight = dist(node.pos, run.dst);
    push(g + lower_bound(impl, a, straight) * filter->scale, a);
    // note: a Partial path ends at the reached node nearest the goal in a straight line
    if (const float h = straight * filter->scale; h < run.best_h) {
      run.best_h = h;
      run.best_node = a;
    }
  }
}

void NavQuery::Scratch::start_search(const Planner::Impl& impl, std::uint32_t src_poly, Vec2 src,
                                     std::uint32_t dst_poly, Vec2 dst) {
  const NavGraph& graph = impl.graph;
  filter.emplace(options, *impl.mesh, src_poly, dst_poly, heuristic_scale, impl.tiles.get());
  outcome = {};
  arcs.clear();
  heap.clear();
  run = {};
  run.src_poly = src_poly;
  run.dst_poly = dst_poly;
  run.src = src;
  run.dst = dst;
  if (src_poly == dst_poly) {
    outcome.reached = true;
    outcome.cost = dist(src, dst) * filter->cost(src_poly);
    run.finished = true;
    return;
  }
  if (use_exact) {
    exact.start(*impl.mesh, impl.any_angle, *filter, src_poly, src, dst_poly, dst, exact_corners,
                exact_corners || impl.tiles != nullptr, options.max_nodes);
    return;
  }
  if (++generation == 0) {
    for (auto& node : nodes) node.generation = 0;
    for (auto& entry : entries) entry.generation = 0;
    generation = 1;
  }
  run.goal_node = static_cast<std::uint32_t>(graph.arc_count());
  Node& goal_state = nodes[run.goal_node];
  goal_state.generation = generation;
  goal_state.g = kInfinity;
  goal_state.closed = 0;
  goal_state.parent = kStartNode;
  goal_state.heap_index = kNotInHeap;
  goal_state.pos = dst;
  run.best_h = dist(src, dst) * filter->scale;
  // note: landmark distances are between portal midpoints on the walk graph, so ALT is valid for
  // Midpoint crossings without jump arcs (the filter only removes arcs or raises costs)
  if (options.landmarks && !jumps && options.crossing == CrossingPoint::Midpoint &&
      !impl.landmarks.empty()) {
    constexpr std::uint32_t kSlots = detail::Landmarks::kSlots;
    const std::uint32_t isl = impl.island[dst_poly];
    if (impl.landmarks.landmark_arc[std::size_t(isl) * kSlots] != kNoArc) {
      run.alt = true;
      run.slack = impl.landmarks.slack[isl];
      run.goal_landmark.fill(kInfinity);
      for (std::uint32_t a = graph.out_begin(dst_poly); a < graph.out_end(dst_poly); ++a) {
        if (graph.arc_kind[a] != EdgeKind::Walk) continue;
        const float to_goal = dist(impl.arc_mid[a], dst);
        const float* d = &impl.landmarks.distance[std::size_t(a) * kSlots];
        for (std::uint32_t k = 0; k < kSlots; ++k)
          run.goal_landmark[k] = std::min(run.goal_landmark[k], d[k] + to_goal);
      }
      run.alt = std::isfinite(run.goal_landmark[0]);
    }
  }
  if (jumps) entries[src_poly] = {src, 0.0F, generation};
  for (std::uint32_t a = graph.out_begin(src_poly); a < graph.out_end(src_poly); ++a) {
    if (graph.arc_kind[a] == EdgeKind::Walk || jump_allowed(impl, a)) {
      relax(impl, a, kStartNode, src, 0.0F);
    }
  }
}

std::uint32_t NavQuery::Scratch::step_search(const Planner::Impl& impl, std::uint32_t budget) {
  const NavGraph& graph = impl.graph;
  const std::uint32_t gen = generation;
  const std::uint32_t dst_poly = run.dst_poly;
  const Vec2 dst = run.dst;
  Node& goal_state = nodes[run.goal_node];
  std::uint32_t done = 0;
  if (run.finished) return done;
  if (use_exact) return step_exact(impl, budget);
  // note: the budget is checked before a pop, so a paused search resumes with exactly the pop
  // sequence an uninterrupted one has
  while (!heap.empty() && done < budget) {
    const std::uint32_t n = pop();
    if (n == run.goal_node) {
      outcome.reached = true;
      break;
    }
    Node& current = nodes[n];
    if (current.closed != 0) continue;
    if (outcome.expanded == options.max_nodes) {
      outcome.out_of_nodes = true;
      break;
    }
    current.closed = 1;
    ++outcome.expanded;
    ++done;
    const std::uint32_t q = graph.arc_target[n];
    const Vec2 here = current.pos;
    const float g_here = current.g;
    if (q == dst_poly) {
      const float g = g_here + dist(here, dst) * filter->cost(q);
      if (g < goal_state.g) {
        goal_state.g = g;
        goal_state.parent = n;
        push(g, run.goal_node);
      }
      continue;
    }
    if (jumps) {
      // note: with jumps a polygon is entered by many arcs; an entry no cheaper than the first
      // expanded entry plus the straight walk between the two (inside the convex polygon) cannot
      // improve any successor, so it is not expanded (the optimal cost is unchanged).
      Entry& entry = entries[q];
      if (entry.generation != gen) {
        entry = {here, g_here, gen};
      } else if (entry.g + dist(entry.pos, here) * filter->cost(q) <= g_here) {
        continue;
      }
    }
    const std::uint32_t back = graph.arc_source[n];
    for (std::uint32_t a = graph.out_begin(q); a < graph.out_end(q); ++a) {
      // note: walking back into the polygon just left never helps (triangle inequality in that
      // convex polygon); a jump back may.
      if (graph.arc_kind[a] == EdgeKind::Walk) {
        if (graph.arc_target[a] == back) continue;
      } else if (!jump_allowed(impl, a)) {
        continue;
      }
      relax(impl, a, n, here, g_here);
    }
  }
  if (!outcome.reached && !outcome.out_of_nodes && !heap.empty()) return done;  // paused
  run.finished = true;
  if (!outcome.reached && !outcome.out_of_nodes) return done;
  std::uint32_t n = outcome.reached ? goal_state.parent : run.best_node;
  while (n != kStartNode) {
    arcs.push_back(n);
    n = nodes[n].parent;
  }
  std::reverse(arcs.begin(), arcs.end());
  if (outcome.reached) outcome.cost = goal_state.g;
  return done;
}

std::uint32_t NavQuery::Scratch::step_exact(const Planner::Impl& impl, std::uint32_t budget) {
  const std::uint32_t done = exact.step(budget);
  outcome.expanded = exact.expanded();
  if (!exact.finished()) return done;
  if (!exact.reached() && !exact.out_of_nodes()) {
    // note: the islands said the goal is reachable (or the filter excludes polygons): the
    // portal A* confirms a NoPath, and answers should the exact search ever miss a way through
    use_exact = false;
    start_search(impl, run.src_poly, run.src, run.dst_poly, run.dst);
    return done + (done < budget ? step_search(impl, budget - done) : 0);
  }
  run.finished = true;
  outcome.reached = exact.reached();
  outcome.out_of_nodes = exact.out_of_nodes();
  exact.path_arcs(arcs);
  if (outcome.reached) outcome.cost = static_cast<float>(exact.length()) * exact_cost;
  return done;
}

namespace {

/// Whether WalkSearch::Exact answers a walking query with these options: every polygon the
/// path may cross costs the same (`cost`). `corners` is set when the filter excludes polygons.
bool exact_applies(const Planner::Impl& impl, const QueryOptions& options, std::uint32_t src,
                   std::uint32_t dst, float& cost, bool& corners) {
  float common = std::numeric_limits<float>::quiet_NaN();
  bool excludes = false;
  for (const std::uint8_t a : impl.area_ids) {
    const float c = options.area_costs[a];
    if (!std::isfinite(c)) {
      excludes = true;
    } else if (std::isnan(common)) {
      common = c;
    } else if (c != common) {
      return false;
    }
  }
  bool crouch_present = false;
  for (const std::uint16_t flags : impl.flag_values) {
    const bool crouch = (flags & mesh::kPolyFlagCrouch) != 0;
    crouch_present = crouch_present || crouch;
    const auto user = static_cast<std::uint16_t>(flags & ~mesh::kPolyFlagCrouch);
    if ((flags & options.exclude_flags) != 0 || (crouch && !options.crouch) ||
        (user != 0 && (user & options.include_flags) == 0)) {
      excludes = true;
    }
  }
  if (crouch_present && options.crouch && options.crouch_cost != 1.0F) return false;
  // note: an excluded start polygon is left at unit cost (as detail::Filter::cost)
  const auto cost_of = [&](std::uint32_t p) {
    const float c = options.area_costs[impl.mesh->poly_area[p]];
    const float area = std::isfinite(c) ? c : 1.0F;
    return (impl.mesh->poly_flags[p] & mesh::kPolyFlagCrouch) != 0 ? area * options.crouch_cost
                                                                   : area;
  };
  if (std::isnan(common)) common = cost_of(src);
  if (cost_of(src) != common || cost_of(dst) != common) return false;
  cost = common;
  corners = excludes;
  return true;
}

}  // namespace

NavQuery::NavQuery(const Planner& planner)
    : planner_(planner.impl_), scratch_(std::make_unique<Scratch>()) {
  scratch_->nodes.resize(planner.graph().arc_count() + 1);
  if (planner.links() != nullptr) scratch_->entries.resize(planner.graph().vertex_count());
  scratch_->heap.reserve(256);
}
NavQuery::NavQuery(NavQuery&&) noexcept = default;
NavQuery& NavQuery::operator=(NavQuery&&) noexcept = default;
NavQuery::~NavQuery() = default;

double NavQuery::last_search_cost() const {
  return scratch_->last_cost;
}

Result<Path> NavQuery::find_path(Vec3 start, Vec3 goal, const QueryOptions& options) {
  Path path;
  LEAPNAV_TRY(find_path(start, goal, options, path));
  return path;
}

Status NavQuery::find_path(Vec3 start, Vec3 goal, const QueryOptions& options, Path& out) {
  out.clear();
  LEAPNAV_TRY(begin_path(start, goal, options));
  LEAPNAV_TRY(update_path(std::numeric_limits<std::uint32_t>::max()));
  return finish_path(out);
}

Status NavQuery::begin_path(Vec3 start, Vec3 goal, const QueryOptions& options) {
  Scratch& s = *scratch_;
  s.phase = Scratch::Phase::Idle;
  s.filter.reset();
  s.last_cost = 0.0;
  if (!is_finite(start)) return make_error(ErrorCode::NonFinite, "find_path: start is not finite");
  if (!is_finite(goal)) return make_error(ErrorCode::NonFinite, "find_path: goal is not finite");
  LEAPNAV_TRY(check_options(options));
  // note: a query with the area and crouch costs of the previous valid query (bit for bit, the
  // usual case) reuses its check and heuristic scale; the comparison is branch-free (it
  // vectorises)
  std::uint32_t differ = std::bit_cast<std::uint32_t>(s.options.crouch_cost) ^
                         std::bit_cast<std::uint32_t>(options.crouch_cost);
  for (std::size_t a = 0; a < options.area_costs.size(); ++a) {
    differ |= std::bit_cast<std::uint32_t>(s.options.area_costs[a]) ^
              std::bit_cast<std::uint32_t>(options.area_costs[a]);
  }
  if (!s.costs_checked || differ != 0) {
    s.costs_checked = false;
    LEAPNAV_TRY_ASSIGN(s.heuristic_scale, detail::check_filter(options));
  }
  const Planner::Impl& impl = *planner_;
  s.options = options;
  s.costs_checked = true;
  // note: from here on jump_configs holds every link configuration the query may use (jumps and
  // ledge links alike); allowed_configs of the copy gives the same bits again
  s.options.jump_configs = impl.allowed_configs(options);
  s.options.jumps = true;
  s.early.reset();
  s.early_tile = kNoTile;
  s.phase = Scratch::Phase::Done;
  if (!impl.locate(start, options.search_extent, s.from)) {
    s.early = PathStatus::StartNotOnMesh;
    return {};
  }
  if (!impl.locate(goal, options.search_extent, s.to)) {
    s.early = PathStatus::GoalNotOnMesh;
    return {};
  }
  const std::uint32_t start_poly = mesh::index(s.from.poly);
  const std::uint32_t goal_poly = mesh::index(s.to.poly);
  if (impl.tiles) {
    for (const std::uint32_t p : {start_poly, goal_poly}) {
      if (impl.tiles->poly_unloaded(p)) {
        s.early = PathStatus::NoPath;
        s.early_tile = impl.tiles->poly_tile[p];
        return {};
      }
    }
  }
  if (!passes_filter(options, *impl.mesh, goal_poly)) {
    s.early = PathStatus::NoPath;
    return {};
  }
  s.jumps = impl.jumps_enabled(options);
  const std::vector<std::uint32_t>& islands = s.jumps ? impl.jump_island : impl.island;
  if (islands[start_poly] != islands[goal_poly] ||
      (s.jumps && !impl.may_reach(start_poly, goal_poly))) {
    s.early = PathStatus::NoPath;
    return {};
  }
  // note: walking only, the search always runs from the lower polygon id to the higher, so a
  // query and its reverse search identically and their paths are mirror images (equal lengths);
  // only a Partial result is searched again in the requested direction. Jump arcs are directed,
  // so with jumps the search runs forwards.
  s.use_exact =
      options.walk_search == WalkSearch::Exact && !s.jumps &&
      exact_applies(impl, s.options, start_poly, goal_poly, s.exact_cost, s.exact_corners);
  // note: unloaded tiles exclude polygons, so the exact search may turn at any vertex
  if (s.use_exact && impl.tiles && impl.tiles->unloaded_count.load() != 0) s.exact_corners = true;
  s.swapped = !s.jumps && start_poly > goal_poly;
  const Vec2 s2 = xz(s.from.point);
  const Vec2 g2 = xz(s.to.point);
  if (s.swapped) {
    s.start_search(impl, goal_poly, g2, start_poly, s2);
  } else {
    s.start_search(impl, start_poly, s2, goal_poly, g2);
  }
  s.phase = Scratch::Phase::Searching;
  return {};
}

Result<SliceStatus> NavQuery::update_path(std::uint32_t max_iterations) {
  Scratch& s = *scratch_;
  if (max_iterations == 0) {
    return make_error(ErrorCode::InvalidArgument, "update_path: max_iterations must be at least 1");
  }
  if (s.phase == Scratch::Phase::Idle) {
    return make_error(ErrorCode::InvalidArgument,
                      "update_path: no search in progress (call begin_path first)");
  }
  SliceStatus status;
  const Planner::Impl& impl = *planner_;
  while (s.phase == Scratch::Phase::Searching && status.expanded < max_iterations) {
    status.expanded += s.step_search(impl, max_iterations - status.expanded);
    if (!s.run.finished) break;
    if (s.swapped && s.outcome.out_of_nodes) {
      // a Partial result is searched again in the requested direction
      s.swapped = false;
      s.start_search(impl, mesh::index(s.from.poly), xz(s.from.point), mesh::index(s.to.poly),
                     xz(s.to.point));
      continue;
    }
    s.phase = Scratch::Phase::Done;
  }
  status.done = s.phase == Scratch::Phase::Done;
  return status;
}

Status NavQuery::finish_path(Path& out) {
  out.clear();
  Scratch& s = *scratch_;
  if (s.phase != Scratch::Phase::Done) {
    return make_error(ErrorCode::InvalidArgument,
                      s.phase == Scratch::Phase::Idle
                          ? "finish_path: no search to finish (call begin_path first)"
                          : "finish_path: the search is still in progress (call update_path "
                            "until it reports done)");
  }
  s.phase = Scratch::Phase::Idle;
  if (s.early) {
    out.status = *s.early;
    out.unloaded_tile = s.early_tile;
    out.blocked_by_unloaded_tiles = s.early_tile != kNoTile;
    return {};
  }
  const Planner::Impl& impl = *planner_;
  const NavGraph& graph = impl.graph;
  const Outcome& outcome = s.outcome;
  const QueryOptions& options = s.options;
  const Location& from = s.from;
  const Location& to = s.to;
  const Vec2 s2 = xz(from.point);
  const Vec2 g2 = xz(to.point);
  const bool swapped = s.swapped;
  out.nodes_expanded = outcome.expanded;
  if (!outcome.reached && !outcome.out_of_nodes) {
    out.status = PathStatus::NoPath;
    out.blocked_by_unloaded_tiles = s.filter && s.filter->refused_unloaded();
    return {};
  }
  // corridor and portals as walked from the start
  out.corridor.push_back(from.poly);
  s.portals.clear();
  bool has_jump = false;
  for (const std::uint32_t arc : s.arcs)
    has_jump = has_jump || graph.arc_kind[arc] == EdgeKind::Jump;
  if (swapped) {
    for (auto it = s.arcs.rbegin(); it != s.arcs.rend(); ++it) {
      out.corridor.push_back(mesh::PolyId{graph.arc_source[*it]});
      s.portals.push_back({impl.arc_right[*it], impl.arc_left[*it]});
    }
  } else {
    for (const std::uint32_t arc : s.arcs) {
      out.corridor.push_back(mesh::PolyId{graph.arc_target[arc]});
      s.portals.push_back({impl.arc_left[arc], impl.arc_right[arc]});
    }
  }
  const bool reached = outcome.reached;
  if (reached) s.last_cost = outcome.cost;
  out.search_cost = s.last_cost;
  Vec3 end = to.point;
  if (reached) {
    out.status = PathStatus::Found;
  } else {
    out.status = PathStatus::Partial;
    const std::uint32_t last = mesh::index(out.corridor.back());
    bool inside = false;
    const Vec2 e = impl.closest_point(last, g2, inside);
    end = {e.x, impl.height(last, e), e.y};
  }

  if (has_jump) {
    detail::assemble_jump_path(impl, s.arcs, from.point, end, options, s.jump, out);
    detail::split_postures(*impl.mesh, s.portals, out);
    return {};
  }

  // funnel, corners lifted to 3-D
  funnel(s2, xz(end), s.portals, s.corners);
  const std::size_t corner_count = s.corners.size();
  for (std::size_t i = 0; i < corner_count; ++i) {
    const Corner& c = s.corners[i];
    Vec3 p;
    if (i == 0) {
      p = from.point;
    } else if (i + 1 == corner_count) {
      p = end;
    } else {
      const std::uint32_t poly = mesh::index(out.corridor[c.corridor_index]);
      p = {c.point.x, impl.height(poly, c.point), c.point.y};
    }
    if (i > 0) {
      out.length += dist(xz(out.points.back()), xz(p));
      out.length_3d += distance(out.points.back(), p);
    }
    out.points.push_back(p);
  }
  PathSegment segment;
  segment.kind = SegmentKind::Walk;
  segment.first = 0;
  segment.last = static_cast<std::uint32_t>(out.points.size() - 1);
  segment.corridor_first = 0;
  segment.corridor_last = static_cast<std::uint32_t>(out.corridor.size() - 1);
  out.segments.push_back(segment);
  detail::split_postures(*impl.mesh, s.portals, out);
  return {};
}

Result<Path> find_path(const mesh::NavMesh& mesh, Vec3 start, Vec3 goal,
                       const QueryOptions& options) {
  LEAPNAV_TRY_ASSIGN(Planner planner, Planner::create(borrow(mesh)));
  NavQuery query(planner);
  return query.find_path(start, goal, options);
}

std::vector<Result<Path>> find_paths(const Planner& planner, std::span<const PathRequest> requests,
                                     const QueryOptions& options, int threads) {
  std::vector<std::optional<Result<Path>>> slots(requests.size());
  constexpr std::size_t kGrain = 64;
  parallel_for(threads, 0, requests.size(), kGrain, [&](std::size_t begin, std::size_t end) {
    NavQuery query(planner);
    for (std::size_t i = begin; i < end; ++i) {
      slots[i].emplace(query.find_path(requests[i].start, requests[i].goal, options));
    }
  });
  std::vector<Result<Path>> results;
  results.reserve(requests.size());
  for (auto& slot : slots) results.push_back(std::move(*slot));
  return results;
}

std::vector<Result<Path>> find_paths(const mesh::NavMesh& mesh,
                                     std::span<const PathRequest> requests,
                                     const QueryOptions& options, int threads) {
  auto planner = Planner::create(borrow(mesh));
  if (!planner.ok()) {
    std::vector<Result<Path>> results;
    results.reserve(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i) results.emplace_back(planner.error());
    return results;
  }
  return find_paths(*planner, requests, options, threads);
}

}  // namespace leapnav::plan
