// Landmark selection and distances for the ALT heuristic (see landmarks.hpp): per island, the
// first landmark is the arc farthest from the island's lowest arc, each next one the arc farthest
// from the landmarks so far (farthest-point selection, Goldberg and Harrelson 2005, §6); a
// Dijkstra in double per landmark, stored as float.
#include "landmarks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace leapnav::plan::detail {
namespace {

constexpr double kUnreached = std::numeric_limits<double>::infinity();

double mid_distance(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(a.x) - b.x;
  const double dy = static_cast<double>(a.y) - b.y;
  return std::sqrt(dx * dx + dy * dy);
}

/// Dijkstra from `source` over walk arcs into `out` (sized arc count; the caller sets the
/// source's island to +infinity before); `heap` is reused storage.
void dijkstra(const NavGraph& graph, const std::vector<Vec2>& arc_mid, std::uint32_t source,
              std::vector<double>& out, std::vector<std::pair<double, std::uint32_t>>& heap) {
  heap.clear();
  const auto later = std::greater<std::pair<double, std::uint32_t>>();
  out[source] = 0.0;
  heap.emplace_back(0.0, source);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [d, n] = heap.back();
    heap.pop_back();
    if (d > out[n]) continue;
    // note: from the arc into q, any walk arc out of q; the reverse arc (same portal, distance
    // 0) makes the metric that of the undirected portal graph
    const std::uint32_t q = graph.arc_target[n];
    for (std::uint32_t a = graph.out_begin(q); a < graph.out_end(q); ++a) {
      if (graph.arc_kind[a] != EdgeKind::Walk) continue;
      const double nd = d + mid_distance(arc_mid[n], arc_mid[a]);
      if (nd < out[a]) {
        out[a] = nd;
        heap.emplace_back(nd, a);
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
  }
}

}  // namespace

std::vector<double> landmark_dijkstra(const NavGraph& graph, const std::vector<Vec2>& arc_mid,
                                      std::uint32_t source) {
  std::vector<double> out(graph.arc_count(), kUnreached);
  std::vector<std::pair<double, std::uint32_t>> heap;
  dijkstra(graph, arc_mid, source, out, heap);
  return out;
}

Landmarks build_landmarks(const NavGraph& graph, const std::vector<Vec2>& arc_mid,
                          const std::vector<std::uint32_t>& island) {
  constexpr std::uint32_t kSlots = Landmarks::kSlots;
  Landmarks result;
  const std::size_t arcs = graph.arc_count();
  std::uint32_t islands = 0;
  for (const std::uint32_t i : island) islands = std::max(islands, i + 1);
  // walk arcs per island, in arc order (counting sort)
  std::vector<std::uint32_t> first(std::size_t(islands) + 1, 0);
  for (std::size_t a = 0; a < arcs; ++a) {
    if (graph.arc_kind[a] == EdgeKind::Walk) ++first[island[graph.arc_source[a]] + 1];
  }
  for (std::uint32_t i = 0; i < islands; ++i) first[i + 1] += first[i];
  std::vector<std::uint32_t> members(first.back());
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::uint32_t a = 0; a < arcs; ++a) {
    if (graph.arc_kind[a] == EdgeKind::Walk) members[fill[island[graph.arc_source[a]]]++] = a;
  }
  result.landmark_arc.assign(std::size_t(islands) * kSlots, kNoArc);
  result.slack.assign(islands, 0.0F);
  bool any = false;
  for (std::uint32_t i = 0; i < islands; ++i)
    any = any || first[i + 1] - first[i] >= Landmarks::kMinIslandArcs;
  if (!any) return result;
  result.distance.assign(arcs * kSlots, 0.0F);
  std::vector<double> from(arcs);
  std::vector<double> nearest(arcs);
  std::vector<std::pair<double, std::uint32_t>> heap;
  for (std::uint32_t i = 0; i < islands; ++i) {
    if (first[i + 1] - first[i] < Landmarks::kMinIslandArcs) continue;
    // the arc farthest from `score` (largest finite value, ties to the lower arc id)
    const auto farthest = [&](const std::vector<double>& score) {
      std::uint32_t best = members[first[i]];
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) {
        const std::uint32_t a = members[k];
        if (score[a] > score[best]) best = a;
      }
      return best;
    };
    const auto reset = [&](std::vector<double>& values) {
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) values[members[k]] = kUnreached;
    };
    reset(from);
    dijkstra(graph, arc_mid, members[first[i]], from, heap);
    std::uint32_t next = farthest(from);
    reset(nearest);
    double largest = 0.0;
    for (std::uint32_t slot = 0; slot < kSlots; ++slot) {
      result.landmark_arc[std::size_t(i) * kSlots + slot] = next;
      reset(from);
      dijkstra(graph, arc_mid, next, from, heap);
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) {
        const std::uint32_t a = members[k];
        result.distance[std::size_t(a) * kSlots + slot] = static_cast<float>(from[a]);
        largest = std::max(largest, from[a]);
        nearest[a] = std::min(nearest[a], from[a]);
      }
      next = farthest(nearest);
    }
    // note: a stored distance is within half an ulp of the double one, the goal's distance
    // adds a float sum, and the difference one more rounding: 8 ulps of the largest cover them
    result.slack[i] = static_cast<float>(largest * 1e-6);
  }
  return result;
}

}  // namespace leapnav::plan::detail
