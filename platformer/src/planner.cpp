// A* over the platformer nav graph with the heuristic |Δc| · k, k = the smallest cost per column
// of any column-changing link (see planner.hpp for why not |Δx| / v_max). The heuristic is
// consistent: a link crossing |Δc| columns costs at least k·|Δc|.
#include "leapnav/platformer/planner.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>

namespace leapnav::platformer {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNone = 0xFFFFFFFFU;

struct OpenEntry {
  double f = 0;
  std::uint32_t node = 0;
  // note: a min-heap on (f, node) so ties resolve by node id, deterministically
  bool operator>(const OpenEntry& o) const { return f != o.f ? f > o.f : node > o.node; }
};

std::string tile_text(Tile t) {
  return "(" + std::to_string(t.c) + ", " + std::to_string(t.r) + ")";
}

}  // namespace

std::string_view to_string(PathStatus status) noexcept {
  switch (status) {
    case PathStatus::Found:
      return "found";
    case PathStatus::NoPath:
      return "no_path";
    case PathStatus::StartNotOnMesh:
      return "start_not_on_mesh";
    case PathStatus::GoalNotOnMesh:
      return "goal_not_on_mesh";
  }
  return "no_path";
}

double heuristic_rate(const NavGraph& graph) {
  double rate = kInfinity;
  for (const NavLink& link : graph.links) {
    const int dc = std::abs(graph.point(link.to).tile.c - graph.point(link.from).tile.c);
    if (dc > 0) rate = std::min(rate, link.cost / dc);
  }
  return rate == kInfinity ? 0.0 : rate;
}

Result<PlatformerPath> find_path(const NavGraph& graph, Tile from, Tile to) {
  for (const auto& [tile, what] : {std::pair{from, "start"}, std::pair{to, "goal"}}) {
    if (tile.c < 0 || tile.r < 0 || tile.c >= graph.width || tile.r >= graph.height) {
      return make_error(ErrorCode::InvalidArgument, std::string("find_path: ") + what + " tile " +
                                                        tile_text(tile) + " is outside the " +
                                                        std::to_string(graph.width) + " x " +
                                                        std::to_string(graph.height) + " map");
    }
  }
  PlatformerPath path;
  const NavPointId start = graph.point_of(from);
  const NavPointId goal = graph.point_of(to);
  if (start == kNoNavPoint) {
    path.status = PathStatus::StartNotOnMesh;
    return path;
  }
  if (goal == kNoNavPoint) {
    path.status = PathStatus::GoalNotOnMesh;
    return path;
  }
  const double rate = heuristic_rate(graph);
  const auto h = [&](std::uint32_t node) {
    return rate * std::abs(graph.points[node].tile.c - to.c);
  };
  const std::size_t n = graph.points.size();
  std::vector<double> g(n, kInfinity);
  std::vector<std::uint32_t> parent_link(n, kNone);
  std::vector<std::uint8_t> closed(n, 0);
  std::priority_queue<OpenEntry, std::vector<OpenEntry>, std::greater<>> open;
  const auto s = static_cast<std::uint32_t>(start);
  const auto goal_node = static_cast<std::uint32_t>(goal);
  g[s] = 0;
  open.push({h(s), s});
  while (!open.empty()) {
    const OpenEntry top = open.top();
    open.pop();
    if (closed[top.node] != 0) continue;
    closed[top.node] = 1;
    ++path.expanded;
    if (top.node == goal_node) break;
    for (std::uint32_t li = graph.link_first[top.node]; li < graph.link_first[top.node + 1]; ++li) {
      const NavLink& link = graph.links[li];
      const auto next = static_cast<std::uint32_t>(link.to);
      const double candidate = g[top.node] + link.cost;
      if (closed[next] == 0 && candidate < g[next]) {
        g[next] = candidate;
        parent_link[next] = li;
        open.push({candidate + h(next), next});
      }
    }
  }
  if (closed[goal_node] == 0) {
    path.status = PathStatus::NoPath;
    return path;
  }
  path.status = PathStatus::Found;
  path.cost = g[goal_node];
  for (std::uint32_t node = goal_node; node != s;) {
    const std::uint32_t li = parent_link[node];
    const NavLink& link = graph.links[li];
    path.steps.push_back(
        {link.kind, graph.point(link.from).tile, graph.point(link.to).tile, li, link.cost});
    node = static_cast<std::uint32_t>(link.from);
  }
  std::reverse(path.steps.begin(), path.steps.end());
  return path;
}

std::vector<double> dijkstra_costs(const NavGraph& graph, NavPointId from) {
  std::vector<double> g(graph.points.size(), kInfinity);
  std::priority_queue<OpenEntry, std::vector<OpenEntry>, std::greater<>> open;
  const auto s = static_cast<std::uint32_t>(from);
  g[s] = 0;
  open.push({0, s});
  while (!open.empty()) {
    const OpenEntry top = open.top();
    open.pop();
    if (top.f > g[top.node]) continue;
    for (std::uint32_t li = graph.link_first[top.node]; li < graph.link_first[top.node + 1]; ++li) {
      const NavLink& link = graph.links[li];
      const auto next = static_cast<std::uint32_t>(link.to);
      if (g[top.node] + link.cost < g[next]) {
        g[next] = g[top.node] + link.cost;
        open.push({g[next], next});
      }
    }
  }
  return g;
}

}  // namespace leapnav::platformer
