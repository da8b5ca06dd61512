// Navigation graph construction (pipeline.md §3, §5): one vertex per polygon, a walk arc per
// polygon edge with a neighbour, then a jump arc per link group of the polygon; CSR in polygon
// order, then edge order, then group order, so arc ids are deterministic. Islands by union-find
// over all arcs taken as undirected; strongly connected components by iterative Tarjan.
#include "leapnav/planning/graph.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

namespace leapnav::plan {

NavGraph build_graph(const mesh::NavMesh& mesh) {
  return build_graph(mesh, nullptr);
}

NavGraph build_graph(const mesh::NavMesh& mesh, const jump::JumpLinkSet* links) {
  NavGraph graph;
  const std::size_t polygons = mesh.polygon_count();
  if (links != nullptr && links->poly_first.size() != polygons + 1) links = nullptr;
  const auto groups_of = [links](std::size_t p) -> std::uint32_t {
    return links == nullptr ? 0 : links->poly_first[p + 1] - links->poly_first[p];
  };
  graph.arc_first.assign(polygons + 1, 0);
  for (std::size_t p = 0; p < polygons; ++p) {
    std::uint32_t count = groups_of(p);
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      if (mesh.poly_neighbors[s] != mesh::kNoPoly) ++count;
    }
    graph.arc_first[p + 1] = graph.arc_first[p] + count;
  }
  const std::size_t arcs = graph.arc_first[polygons];
  graph.arc_source.reserve(arcs);
  graph.arc_target.reserve(arcs);
  graph.arc_kind.reserve(arcs);
  graph.arc_index.reserve(arcs);
  for (std::size_t p = 0; p < polygons; ++p) {
    for (std::uint32_t s = mesh.poly_first[p]; s < mesh.poly_first[p + 1]; ++s) {
      if (mesh.poly_neighbors[s] == mesh::kNoPoly) continue;
      graph.arc_source.push_back(static_cast<std::uint32_t>(p));
      graph.arc_target.push_back(mesh.poly_neighbors[s]);
      graph.arc_kind.push_back(EdgeKind::Walk);
      graph.arc_index.push_back(s);
    }
    if (links == nullptr) continue;
    for (std::uint32_t g = links->poly_first[p]; g < links->poly_first[p + 1]; ++g) {
      graph.arc_source.push_back(static_cast<std::uint32_t>(p));
      graph.arc_target.push_back(links->group_land_poly[g]);
      graph.arc_kind.push_back(EdgeKind::Jump);
      graph.arc_index.push_back(g);
    }
  }
  return graph;
}

Status validate(const NavGraph& graph, const mesh::NavMesh& mesh, const jump::JumpLinkSet* links) {
  const auto fail = [](const std::string& what) {
    return make_error(ErrorCode::Internal, "NavGraph: " + what);
  };
  const std::size_t polygons = mesh.polygon_count();
  if (graph.arc_first.size() != polygons + 1) return fail("arc_first size != polygons + 1");
  if (graph.arc_first.front() != 0) return fail("arc_first[0] != 0");
  const std::size_t arcs = graph.arc_target.size();
  if (graph.arc_first.back() != arcs) return fail("arc_first back != arc count");
  if (graph.arc_source.size() != arcs || graph.arc_kind.size() != arcs ||
      graph.arc_index.size() != arcs) {
    return fail("arc arrays differ in size");
  }
  if (links != nullptr && links->poly_first.size() != polygons + 1) {
    return fail("link set does not match the mesh's polygon count");
  }
  for (std::size_t p = 0; p < polygons; ++p) {
    if (graph.arc_first[p] > graph.arc_first[p + 1]) return fail("arc_first not monotone");
    std::uint32_t next_group = links == nullptr ? 0 : links->poly_first[p];
    for (std::uint32_t a = graph.arc_first[p]; a < graph.arc_first[p + 1]; ++a) {
      const std::string where = "arc " + std::to_string(a) + ": ";
      if (graph.arc_source[a] != p) return fail(where + "source does not match arc_first");
      if (graph.arc_target[a] >= polygons) return fail(where + "target out of range");
      if (graph.arc_kind[a] == EdgeKind::Jump) {
        if (links == nullptr) return fail(where + "jump arc without a link set");
        if (graph.arc_index[a] != next_group || next_group >= links->poly_first[p + 1]) {
          return fail(where + "jump arc is not the next link group of its source polygon");
        }
        if (links->group_land_poly[next_group] != graph.arc_target[a]) {
          return fail(where + "jump arc's target is not its group's land polygon");
        }
        ++next_group;
        continue;
      }
      if (graph.arc_kind[a] != EdgeKind::Walk) return fail(where + "unknown kind");
      if (a > graph.arc_first[p] && graph.arc_kind[a - 1] != EdgeKind::Walk) {
        return fail(where + "walk arc after a jump arc");
      }
      const std::uint32_t slot = graph.arc_index[a];
      if (slot < mesh.poly_first[p] || slot >= mesh.poly_first[p + 1]) {
        return fail(where + "portal slot outside its source polygon");
      }
      if (mesh.poly_neighbors[slot] != graph.arc_target[a]) {
        return fail(where + "portal slot's neighbour is not the target");
      }
      bool reverse = false;
      const std::uint32_t q = graph.arc_target[a];
      for (std::uint32_t b = graph.arc_first[q]; b < graph.arc_first[q + 1]; ++b) {
        if (graph.arc_kind[b] == EdgeKind::Walk && graph.arc_target[b] == p) reverse = true;
      }
      if (!reverse) return fail(where + "walk arc without its reverse");
    }
    if (links != nullptr && next_group != links->poly_first[p + 1]) {
      return fail("polygon " + std::to_string(p) + ": a link group has no jump arc");
    }
  }
  return {};
}

std::vector<std::uint32_t> connected_components(const NavGraph& graph) {
  const std::size_t n = graph.vertex_count();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0U);
  const auto find = [&parent](std::uint32_t v) {
    while (parent[v] != v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  for (std::size_t a = 0; a < graph.arc_count(); ++a) {
    const std::uint32_t r1 = find(graph.arc_source[a]);
    const std::uint32_t r2 = find(graph.arc_target[a]);
    // note: the smaller root wins so each root is its component's lowest polygon id.
    if (r1 < r2) parent[r2] = r1;
    if (r2 < r1) parent[r1] = r2;
  }
  std::vector<std::uint32_t> component(n, 0);
  std::uint32_t next = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t root = find(v);
    component[v] = root == v ? next++ : component[root];
  }
  return component;
}

std::uint32_t strong_components(const NavGraph& graph, std::vector<std::uint32_t>& component) {
  const std::size_t n = graph.vertex_count();
  constexpr std::uint32_t kUnset = 0xFFFFFFFFU;
  std::vector<std::uint32_t> order(n, kUnset);
  std::vector<std::uint32_t> low(n, 0);
  std::vector<std::uint8_t> on_stack(n, 0);
  std::vector<std::uint32_t> stack;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> frames;  // (vertex, next arc)
  component.assign(n, 0);
  std::uint32_t counter = 0;
  std::uint32_t count = 0;
  const auto open = [&](std::uint32_t v) {
    order[v] = counter;
    low[v] = counter;
    ++counter;
    stack.push_back(v);
    on_stack[v] = 1;
    frames.emplace_back(v, graph.out_begin(v));
  };
  for (std::uint32_t root = 0; root < n; ++root) {
    if (order[root] != kUnset) continue;
    open(root);
    while (!frames.empty()) {
      const std::uint32_t v = frames.back().first;
      const std::uint32_t a = frames.back().second;
      if (a < graph.out_end(v)) {
        frames.back().second = a + 1;
        const std::uint32_t w = graph.arc_target[a];
        if (order[w] == kUnset) {
          open(w);
        } else if (on_stack[w] != 0) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      if (low[v] == order[v]) {
        std::uint32_t x = 0;
        do {
          x = stack.back();
          stack.pop_back();
          on_stack[x] = 0;
          component[x] = count;
        } while (x != v);
        ++count;
      }
      frames.pop_back();
      if (!frames.empty()) {
        const std::uint32_t u = frames.back().first;
        low[u] = std::min(low[u], low[v]);
      }
    }
  }
  return count;
}

}  // namespace leapnav::plan
