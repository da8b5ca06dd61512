// Landmark selection and distances for the ALT heuristic (see landmarks.hpp): per island, the
// first landmark is the arc farthest in the plane from the island's lowest arc, each next one the
// arc farthest from the landmarks so far (farthest-point selection, Goldberg and Harrelson 2005,
// §6, with straight-line instead of graph distances so the Dijkstras are independent and run in
// parallel); a Dijkstra in double per landmark, stored as float.
#include "landmarks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "leapnav/core/parallel.hpp"

namespace leapnav::plan::detail {
namespace {

constexpr double kUnreached = std::numeric_limits<double>::infinity();

double mid_distance(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(a.x) - b.x;
  const double dy = static_cast<double>(a.y) - b.y;
  return std::sqrt(dx * dx + dy * dy);
}

/// Dijkstra from `source` over the walk arcs of its island; `out` is indexed by `local` (an arc's
/// position among its island's walk arcs) and sized to the island.
void dijkstra(const NavGraph& graph, const std::vector<Vec2>& arc_mid,
              const std::vector<std::uint32_t>& local, std::uint32_t source,
              std::vector<double>& out) {
  std::fill(out.begin(), out.end(), kUnreached);
  std::vector<std::pair<double, std::uint32_t>> heap;
  const auto later = std::greater<std::pair<double, std::uint32_t>>();
  out[local[source]] = 0.0;
  heap.emplace_back(0.0, source);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const auto [d, n] = heap.back();
    heap.pop_back();
    if (d > out[local[n]]) continue;
    // note: from the arc into q, any walk arc out of q; the reverse arc (same portal, distance
    // 0) makes the metric that of the undirected portal graph
    const std::uint32_t q = graph.arc_target[n];
    for (std::uint32_t a = graph.out_begin(q); a < graph.out_end(q); ++a) {
      if (graph.arc_kind[a] != EdgeKind::Walk) continue;
      const double nd = d + mid_distance(arc_mid[n], arc_mid[a]);
      if (nd < out[local[a]]) {
        out[local[a]] = nd;
        heap.emplace_back(nd, a);
        std::push_heap(heap.begin(), heap.end(), later);
      }
    }
  }
}

}  // namespace

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
  std::vector<std::uint32_t> local(arcs, 0);
  std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
  for (std::uint32_t a = 0; a < arcs; ++a) {
    if (graph.arc_kind[a] != EdgeKind::Walk) continue;
    const std::uint32_t i = island[graph.arc_source[a]];
    local[a] = fill[i] - first[i];
    members[fill[i]++] = a;
  }
  result.landmark_arc.assign(std::size_t(islands) * kSlots, kNoArc);
  result.slack.assign(islands, 0.0F);
  // landmarks: farthest-point selection in the plane (the first is the arc farthest from the
  // island's lowest arc, each next the one farthest from those chosen; ties to the lower arc id),
  // so that the Dijkstras are independent of each other
  std::vector<std::pair<std::uint32_t, std::uint32_t>> jobs;  // (island, slot)
  std::vector<double> nearest;
  for (std::uint32_t i = 0; i < islands; ++i) {
    const std::uint32_t size = first[i + 1] - first[i];
    if (size < Landmarks::kMinIslandArcs) continue;
    nearest.assign(size, kUnreached);
    std::uint32_t next = members[first[i]];
    for (std::uint32_t slot = 0; slot < kSlots; ++slot) {
      const Vec2 from = arc_mid[next];
      std::uint32_t best = 0;
      for (std::uint32_t k = 0; k < size; ++k) {
        nearest[k] = std::min(nearest[k], mid_distance(from, arc_mid[members[first[i] + k]]));
        if (nearest[k] > nearest[best]) best = k;
      }
      // note: the island's lowest arc only seeds the selection; it is not a landmark
      if (slot == 0) std::fill(nearest.begin(), nearest.end(), kUnreached);
      next = members[first[i] + best];
      result.landmark_arc[std::size_t(i) * kSlots + slot] = next;
      jobs.emplace_back(i, slot);
    }
  }
  if (jobs.empty()) return result;
  result.distance.assign(arcs * kSlots, 0.0F);
  std::vector<double> largest(jobs.size(), 0.0);
  // note: each job writes its own slot of its island's arcs, so any thread count gives the same
  parallel_for(0, 0, jobs.size(), 1, [&](std::size_t j0, std::size_t j1) {
    std::vector<double> from;
    for (std::size_t j = j0; j < j1; ++j) {
      const auto [i, slot] = jobs[j];
      from.resize(first[i + 1] - first[i]);
      dijkstra(graph, arc_mid, local, result.landmark_arc[std::size_t(i) * kSlots + slot], from);
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) {
        const double d = from[k - first[i]];
        result.distance[std::size_t(members[k]) * kSlots + slot] = static_cast<float>(d);
        largest[j] = std::max(largest[j], d);
      }
    }
  });
  // note: a stored distance is within half an ulp of the double one, the goal's distance adds a
  // float sum, and the difference one more rounding: 8 ulps of the largest cover them
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    float& slack = result.slack[jobs[j].first];
    slack = std::max(slack, static_cast<float>(largest[j] * 1e-6));
  }
  return result;
}

}  // namespace leapnav::plan::detail
