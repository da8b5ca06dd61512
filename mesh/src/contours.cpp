// Region contours (pipeline.md §2; the scheme of Recast's rcBuildContours, written from its
// description). Per region: walk every boundary loop over cell edges (raw corner vertices, each
// labelled with the region across the edge it starts), orient loops counter-clockwise (outer) /
// clockwise (holes), keep region-change vertices, Douglas-Peucker in between with a direction
// fixed by the chain's endpoints (so two regions simplify a shared chain identically), split long
// border edges; then, in a second pass that reads every region's first-pass outline, reduce each
// portal whose chord is clear to that chord (contour_portals.cpp: as in Recast, but only where it
// stays inside both regions), drop degenerate vertices and bridge holes.
// Regions run in parallel, one slot each per pass.
#include "leapnav/mesh/contours.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "array_checks.hpp"
#include "contour_detail.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/core/parallel.hpp"
#include "span_graph.hpp"

namespace leapnav::mesh {

namespace {

// Spans per chunk of the boundary-bit and grouping passes.
constexpr std::size_t kSpanChunk = 8192;

using detail::kNoSpan;
using detail::same_xz;
using detail::SpanGraph;
using Loop = std::vector<ContourVertex>;

struct Inputs {
  const voxel::CompactHeightfield& chf;
  const SpanGraph& graph;
  const std::vector<std::uint16_t>& region;
  float max_error = 0.0F;
  int max_edge_len = 0;
  bool keep_grid_edges = false;  ///< tiles: keep vertices where the outline meets the grid edge
};

// The highest floor among the walkable spans connected (within the 2x2 cells around the corner)
// to span s; the corner lies between s's sides dir and dir + 1. The set is the same from any of
// its spans, so regions meeting at the corner through connected spans agree on the height.
std::int32_t corner_height(const Inputs& in, std::uint32_t s, int dir) {
  const int dir2 = (dir + 1) & 3;
  // note: the four columns around the corner, compared by index (members are connected, so
  // every candidate is a neighbour of a block column and the index test equals the xz test)
  const auto width = static_cast<std::int64_t>(in.graph.width);
  const std::int64_t c0 = in.graph.column[s];
  const std::int64_t step1 = voxel::dir_dx(dir) + voxel::dir_dz(dir) * width;
  const std::int64_t step2 = voxel::dir_dx(dir2) + voxel::dir_dz(dir2) * width;
  const std::int64_t block[4] = {c0, c0 + step1, c0 + step2, c0 + step1 + step2};
  std::uint32_t members[8];
  int count = 0;
  members[count++] = s;
  std::int32_t height = in.chf.spans[s].y;
  for (int k = 0; k < count; ++k) {
    for (int d = 0; d < 4; ++d) {
      const std::uint32_t n = in.graph.neighbor(members[k], d);
      if (n == kNoSpan || in.chf.areas[n] == voxel::kNullArea) continue;
      const std::int64_t nc = in.graph.column[n];
      if (nc != block[0] && nc != block[1] && nc != block[2] && nc != block[3]) continue;
      if (std::find(members, members + count, n) != members + count) continue;
      if (count == 8) break;
      members[count++] = n;
      height = std::max<std::int32_t>(height, in.chf.spans[n].y);
    }
  }
  return height;
}

struct RawLoop {
  Loop vertices;
  /// Per vertex: three or more distinct regions (kNoRegion counting as one) meet at the corner.
  std::vector<char> junction;
  /// Per vertex: 1 + the side of the grid whose outer edge the edge starting there lies on, else
  /// 0 (filled for tiles only), so that a tile's corner is kept too.
  std::vector<char> grid_edge;
};

// The region of span n, kNoRegion for none.
std::uint16_t region_of(const Inputs& in, std::uint32_t n) {
  return n == kNoSpan ? kNoRegion : in.region[n];
}

// Whether the 2x2 cells around the corner between sides dir and dir + 1 of span s hold three or
// more distinct regions. Such a corner must be kept by every region around it, even by one that
// sees no change of neighbour there (its neighbour's outline turns away around another region).
bool is_junction(const Inputs& in, std::uint32_t s, int dir) {
  const int dir2 = (dir + 1) & 3;
  const std::uint32_t a = in.graph.neighbor(s, dir);
  const std::uint32_t b = in.graph.neighbor(s, dir2);
  std::uint32_t diagonal = kNoSpan;
  if (a != kNoSpan) diagonal = in.graph.neighbor(a, dir2);
  if (diagonal == kNoSpan && b != kNoSpan) diagonal = in.graph.neighbor(b, dir);
  const std::uint16_t ids[4] = {in.region[s], region_of(in, a), region_of(in, b),
                                region_of(in, diagonal)};
  int distinct = 0;
  for (int i = 0; i < 4; ++i) {
    bool seen = false;
    for (int j = 0; j < i; ++j) seen = seen || ids[j] == ids[i];
    distinct += seen ? 0 : 1;
  }
  return distinct >= 3;
}

// Walks one loop from (start, start_dir), clearing the edge bits it passes. The raw walk turns
// clockwise in xz; the returned loop is reversed, so outer loops come out counter-clockwise.
// Each vertex is labelled with the region across the edge that starts at it (after reversal).
RawLoop walk_loop(const Inputs& in, detail::UninitializedVector<std::uint8_t>& edges,
                  std::uint32_t start, int start_dir) {
  RawLoop out;
  Loop& loop = out.vertices;
  struct Step {
    std::uint32_t span;
    int dir;
  };
  std::vector<Step> steps;  // the span and side of the edge each vertex ends (walk order)
  std::uint32_t s = start;
  int dir = start_dir;
  const std::size_t limit = in.graph.span_count() * 8 + 8;
  for (std::size_t step = 0; step < limit; ++step) {
    if (edges[s] & (1U << dir)) {
      ContourVertex v;
      v.x = in.graph.x(s);
      v.z = in.graph.z(s);
      if (dir == 0) v.z += 1;
      if (dir == 1) {
        v.x += 1;
        v.z += 1;
      }
      if (dir == 2) v.x += 1;
      v.neighbor_region = region_of(in, in.graph.neighbor(s, dir));
      loop.push_back(v);
      steps.push_back({s, dir});
      out.junction.push_back(is_junction(in, s, dir) ? 1 : 0);
      if (in.keep_grid_edges) {
        const bool outside = !in.chf.grid.in_bounds(in.graph.x(s) + voxel::dir_dx(dir),
                                                    in.graph.z(s) + voxel::dir_dz(dir));
        out.grid_edge.push_back(outside ? static_cast<char>(dir + 1) : 0);
      }
      edges[s] = static_cast<std::uint8_t>(edges[s] & ~(1U << dir));
      dir = (dir + 1) & 3;
    } else {
      s = in.graph.neighbor(s, dir);
      dir = (dir + 3) & 3;
    }
    if (s == start && dir == start_dir) break;
  }
  // note: a corner where the region meets itself across a step has two floor heights; a vertex
  // takes the height seen through its portal edge(s), so both regions of a portal agree on it
  const std::size_t n = loop.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Step in_edge = steps[i];
    const Step out_edge = steps[(i + 1) % n];
    const std::int32_t h_in = corner_height(in, in_edge.span, in_edge.dir);
    // note: a turn stays on one span and shares the corner, whose height is the same
    const bool same_corner =
        out_edge.span == in_edge.span && out_edge.dir == ((in_edge.dir + 1) & 3);
    const std::int32_t h_out =
        same_corner ? h_in : corner_height(in, out_edge.span, (out_edge.dir + 3) & 3);
    const bool in_portal = loop[i].neighbor_region != kNoRegion;
    const bool out_portal = loop[(i + 1) % n].neighbor_region != kNoRegion;
    if (in_portal == out_portal) {
      loop[i].y = std::max(h_in, h_out);
    } else {
      loop[i].y = in_portal ? h_in : h_out;
    }
  }
  std::reverse(loop.begin(), loop.end());
  std::reverse(out.junction.begin(), out.junction.end());
  std::reverse(out.grid_edge.begin(), out.grid_edge.end());
  return out;
}

double segment_distance2(const ContourVertex& p, const ContourVertex& a, const ContourVertex& b) {
  const double abx = b.x - a.x;
  const double abz = b.z - a.z;
  double dx = p.x - a.x;
  double dz = p.z - a.z;
  const double len2 = abx * abx + abz * abz;
  if (len2 > 0.0) {
    const double t = std::clamp((dx * abx + dz * abz) / len2, 0.0, 1.0);
    dx -= t * abx;
    dz -= t * abz;
  }
  return dx * dx + dz * dz;
}

bool less_xz(const ContourVertex& a, const ContourVertex& b) {
  return a.x != b.x ? a.x < b.x : a.z < b.z;
}

// Marks of a raw vertex in a loop draft.
constexpr char kDropped = 0;
constexpr char kKept = 1;
constexpr char kAnchor = 2;  // a change of neighbour region or a junction

// Douglas-Peucker on the raw chain from kept index a to kept index b (cyclic): marks the raw
// vertices to keep. The chain is processed from its lexicographically smaller endpoint so the
// region on the other side, which walks it backwards, makes the same choices.
void simplify_chain(const Loop& raw, std::size_t a, std::size_t b, double tolerance2,
                    std::vector<char>& keep) {
  const std::size_t n = raw.size();
  const std::size_t steps = (b + n - a) % n == 0 ? n : (b + n - a) % n;
  if (steps < 2) return;
  // chain[k] = raw index, in canonical direction
  std::vector<std::size_t> chain(steps + 1);
  for (std::size_t k = 0; k <= steps; ++k) chain[k] = (a + k) % n;
  if (less_xz(raw[b], raw[a])) std::reverse(chain.begin(), chain.end());
  std::vector<std::pair<std::size_t, std::size_t>> stack{{0, steps}};
  while (!stack.empty()) {
    const auto [lo, hi] = stack.back();
    stack.pop_back();
    double best = -1.0;
    std::size_t best_k = 0;
    for (std::size_t k = lo + 1; k < hi; ++k) {
      const double d = segment_distance2(raw[chain[k]], raw[chain[lo]], raw[chain[hi]]);
      if (d > best) {
        best = d;
        best_k = k;
      }
    }
    if (best_k == 0 || best <= tolerance2) continue;
    keep[chain[best_k]] = kKept;
    stack.emplace_back(lo, best_k);
    stack.emplace_back(best_k, hi);
  }
}

std::vector<std::size_t> kept_indices(const std::vector<char>& keep) {
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) kept.push_back(i);
  }
  return kept;
}

// A loop after the walk and the Douglas-Peucker / long-edge pass, before portals are straightened
// and holes bridged.
struct LoopDraft {
  RawLoop raw;
  std::vector<char> keep;   // per raw vertex: kDropped, kKept or kAnchor
  bool has_change = false;  // some vertex is an anchor (else the loop has one neighbour all round)
  Loop simplified;          // the kept raw vertices in loop order
  /// The ends of every portal chain (from an anchor to the next, another region across it).
  std::vector<std::pair<ContourVertex, ContourVertex>> portal_ends;
};

// Tiles: an outer loop that meets the grid edge and lost more than a quarter of its area to
// simplification keeps every corner of its walls. Such a loop is a thin strip of floor cut off
// by the tile edge (one cell deep along it, say): its walls run from the tile edge back to the
// tile edge, and Douglas-Peucker with a tolerance above the strip's depth cuts it to a sliver
// or nothing, where the one-tile build, whose region goes on past the tile edge, keeps it.
// note: only wall corners (no region across either edge) are added, so the portal chains the
// neighbouring regions share are simplified as before
void keep_thin_tile_walls(const RawLoop& raw_loop, std::vector<char>& keep) {
  const Loop& raw = raw_loop.vertices;
  const std::size_t n = raw.size();
  if (std::none_of(raw_loop.grid_edge.begin(), raw_loop.grid_edge.end(),
                   [](char side) { return side != 0; })) {
    return;
  }
  const std::int64_t raw_area = detail::doubled_area(raw);
  if (raw_area <= 0) return;
  Loop simplified;
  for (const std::size_t i : kept_indices(keep)) simplified.push_back(raw[i]);
  if (simplified.size() >= 3 && detail::doubled_area(simplified) * 4 >= raw_area * 3) return;
  for (std::size_t i = 0; i < n; ++i) {
    const ContourVertex& prev = raw[(i + n - 1) % n];
    const ContourVertex& next = raw[(i + 1) % n];
    if (keep[i] != kDropped || prev.neighbor_region != kNoRegion ||
        raw[i].neighbor_region != kNoRegion || detail::orient(prev, raw[i], next) == 0) {
      continue;
    }
    keep[i] = kKept;
  }
}

// Douglas-Peucker between anchors, then long border edges split (see the file comment).
LoopDraft draft_loop(RawLoop raw_loop, const Inputs& in) {
  LoopDraft draft;
  const Loop& raw = raw_loop.vertices;
  const std::size_t n = raw.size();
  std::vector<char>& keep = draft.keep;
  keep.assign(n, kDropped);
  bool any_change = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (raw_loop.junction[i] || raw[i].neighbor_region != raw[(i + n - 1) % n].neighbor_region) {
      keep[i] = kAnchor;
      any_change = true;
    }
    // note: in a tile, a run along the tile edge is a portal to the next tile, not a wall
    if (in.keep_grid_edges && raw_loop.grid_edge[i] != raw_loop.grid_edge[(i + n - 1) % n]) {
      keep[i] = kAnchor;
      any_change = true;
    }
  }
  if (!any_change) {
    std::size_t lo = 0;
    std::size_t hi = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (less_xz(raw[i], raw[lo])) lo = i;
      if (less_xz(raw[hi], raw[i])) hi = i;
    }
    keep[lo] = kKept;
    keep[hi] = kKept;
  }
  const double tolerance2 = static_cast<double>(in.max_error) * static_cast<double>(in.max_error);
  // Douglas-Peucker between kept vertices, then split long border edges at their middle raw
  // vertex; a split can move an edge away from raw vertices, so repeat until both are satisfied
  const std::int64_t max_len2 = static_cast<std::int64_t>(in.max_edge_len) * in.max_edge_len;
  bool split = true;
  while (split) {
    std::vector<std::size_t> kept = kept_indices(keep);
    for (std::size_t k = 0; k < kept.size(); ++k) {
      simplify_chain(raw, kept[k], kept[(k + 1) % kept.size()], tolerance2, keep);
    }
    split = false;
    if (in.max_edge_len <= 0) break;
    kept = kept_indices(keep);
    for (std::size_t k = 0; k < kept.size(); ++k) {
      const std::size_t a = kept[k];
      const std::size_t b = kept[(k + 1) % kept.size()];
      if (raw[a].neighbor_region != kNoRegion) continue;
      const std::int64_t dx = raw[b].x - raw[a].x;
      const std::int64_t dz = raw[b].z - raw[a].z;
      const std::size_t steps = (b + n - a) % n == 0 ? n : (b + n - a) % n;
      if (dx * dx + dz * dz <= max_len2 || steps < 2) continue;
      keep[(a + steps / 2) % n] = kKept;
      split = true;
    }
  }
  if (in.keep_grid_edges) keep_thin_tile_walls(raw_loop, keep);
  for (const std::size_t i : kept_indices(keep)) draft.simplified.push_back(raw[i]);
  draft.has_change = any_change;
  if (any_change) {
    std::vector<std::size_t> anchors;
    for (std::size_t i = 0; i < n; ++i) {
      if (keep[i] == kAnchor) anchors.push_back(i);
    }
    for (std::size_t a = 0; a < anchors.size(); ++a) {
      const ContourVertex& start = raw[anchors[a]];
      if (start.neighbor_region == kNoRegion) continue;
      draft.portal_ends.emplace_back(start, raw[anchors[(a + 1) % anchors.size()]]);
    }
  }
  draft.raw = std::move(raw_loop);
  return draft;
}

// The loop from the kept raw vertices. Falls back to the raw loop's direction-change vertices
// when simplification leaves a degenerate polygon or flips its orientation (outer loops are
// counter-clockwise, holes clockwise).
Loop assemble_loop(const Loop& raw, const std::vector<char>& keep, bool hole) {
  const std::size_t n = raw.size();
  Loop out;
  for (const std::size_t i : kept_indices(keep)) out.push_back(raw[i]);
  // drop zero-length edges (the later vertex carries the outgoing label)
  bool changed = true;
  while (changed && out.size() >= 3) {
    changed = false;
    for (std::size_t i = 0; i < out.size() && out.size() >= 3; ++i) {
      const std::size_t m = out.size();
      if (!same_xz(out[i], out[(i + 1) % m])) continue;
      // note: the merged corner keeps the outgoing label; its height comes from the portal side
      // when the incoming edge is a portal (the neighbour region sees that height)
      if (out[(i + m - 1) % m].neighbor_region != kNoRegion) out[(i + 1) % m].y = out[i].y;
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(i));
      changed = true;
    }
  }
  const std::int64_t area = detail::doubled_area(out);
  if (out.size() < 3 || (hole ? area >= 0 : area <= 0)) {
    out.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const ContourVertex& prev = raw[(i + n - 1) % n];
      const ContourVertex& next = raw[(i + 1) % n];
      if (detail::orient(prev, raw[i], next) != 0 ||
          prev.neighbor_region != raw[i].neighbor_region) {
        out.push_back(raw[i]);
      }
    }
  }
  return out;
}

struct RegionOutput {
  std::vector<Contour> contours;
  std::vector<std::string> warnings;
};

// A region's loops after the first pass: outer loops, holes, and the holes of each outer loop.
struct RegionDraft {
  std::vector<LoopDraft> outers;
  std::vector<LoopDraft> holes;
  std::vector<std::vector<std::size_t>> holes_of;
  std::uint8_t area = voxel::kNullArea;
};

// First pass over one region: walk its loops and simplify each on its own.
RegionDraft draft_region(const Inputs& in, const std::uint32_t* spans, std::size_t span_count,
                         detail::UninitializedVector<std::uint8_t>& edges) {
  RegionDraft draft;
  std::vector<RawLoop> outers;
  std::vector<RawLoop> holes;
  for (std::size_t k = 0; k < span_count; ++k) {
    const std::uint32_t s = spans[k];
    if (edges[s] == 0) continue;
    for (int dir = 0; dir < 4; ++dir) {
      if (!(edges[s] & (1U << dir))) continue;
      RawLoop raw = walk_loop(in, edges, s, dir);
      if (raw.vertices.size() < 3) continue;
      const std::int64_t area = detail::doubled_area(raw.vertices);
      if (area > 0) {
        outers.push_back(std::move(raw));
      } else if (area < 0) {
        holes.push_back(std::move(raw));
      }
    }
  }
  if (outers.empty()) return draft;
  draft.area = in.chf.areas[spans[0]];
  // each hole goes to the smallest outer loop that contains its smallest vertex
  draft.holes_of.resize(outers.size());
  for (std::size_t h = 0; h < holes.size(); ++h) {
    const Loop& hole = holes[h].vertices;
    const ContourVertex probe = *std::min_element(hole.begin(), hole.end(), less_xz);
    std::size_t best = 0;
    std::int64_t best_area = std::numeric_limits<std::int64_t>::max();
    for (std::size_t o = 0; o < outers.size(); ++o) {
      const std::int64_t area = detail::doubled_area(outers[o].vertices);
      if (area < best_area && detail::contains_or_touches(outers[o].vertices, probe)) {
        best = o;
        best_area = area;
      }
    }
    draft.holes_of[best].push_back(h);
  }
  for (RawLoop& raw : outers) draft.outers.push_back(draft_loop(std::move(raw), in));
  for (RawLoop& raw : holes) draft.holes.push_back(draft_loop(std::move(raw), in));
  return draft;
}

// How many portal chains of the region's loops run between p and q (either way).
std::size_t portals_between(const RegionDraft& draft, const ContourVertex& p,
                            const ContourVertex& q) {
  std::size_t count = 0;
  for (const std::vector<LoopDraft>* loops : {&draft.outers, &draft.holes}) {
    for (const LoopDraft& loop : *loops) {
      for (const auto& [a, b] : loop.portal_ends) {
        if ((same_xz(a, p) && same_xz(b, q)) || (same_xz(a, q) && same_xz(b, p))) ++count;
      }
    }
  }
  return count;
}

// The simplified loops of a region (before hole bridging), appended to `loops`.
void append_loops(const RegionDraft& draft, std::vector<const Loop*>& loops) {
  for (const LoopDraft& loop : draft.outers) loops.push_back(&loop.simplified);
  for (const LoopDraft& loop : draft.holes) loops.push_back(&loop.simplified);
}

// The kept marks of `loop` with every clear portal chain reduced to its chord (see
// detail::chord_is_clear). The decision reads only first-pass drafts, so the region across the
// portal, deciding the same chain from its side, agrees.
std::vector<char> straighten_portals(const LoopDraft& loop, std::uint16_t region_id,
                                     const std::vector<RegionDraft>& drafts) {
  std::vector<char> keep = loop.keep;
  if (!loop.has_change) return keep;
  const Loop& raw = loop.raw.vertices;
  const std::vector<std::size_t> kept = kept_indices(keep);
  std::vector<std::size_t> anchors;
  for (std::size_t k = 0; k < kept.size(); ++k) {
    if (keep[kept[k]] == kAnchor) anchors.push_back(k);
  }
  Loop chain;
  std::vector<const Loop*> obstacles;
  for (std::size_t a = 0; a < anchors.size(); ++a) {
    const std::size_t first = anchors[a];
    const std::size_t last = anchors[(a + 1) % anchors.size()];
    const std::size_t steps = (last + kept.size() - first) % kept.size() == 0
                                  ? kept.size()
                                  : (last + kept.size() - first) % kept.size();
    const std::uint16_t neighbor = raw[kept[first]].neighbor_region;
    if (steps < 2 || neighbor == kNoRegion || neighbor == region_id) continue;
    const ContourVertex& p = raw[kept[first]];
    const ContourVertex& q = raw[kept[last]];
    // note: another portal between the same two vertices (a loop of two portal chains) could
    // become the same chord; both stay as they are (the chain itself counts once per side)
    if (portals_between(drafts[region_id], p, q) + portals_between(drafts[neighbor], p, q) != 2) {
      continue;
    }
    chain.clear();
    for (std::size_t k = 0; k <= steps; ++k) chain.push_back(raw[kept[(first + k) % kept.size()]]);
    obstacles.clear();
    append_loops(drafts[region_id], obstacles);
    append_loops(drafts[neighbor], obstacles);
    if (!detail::chord_is_clear(chain, obstacles)) continue;
    for (std::size_t k = 1; k < steps; ++k) keep[kept[(first + k) % kept.size()]] = kDropped;
  }
  return keep;
}

// Second pass over one region: straighten clear portals, assemble the loops, bridge the holes.
RegionOutput finish_region(std::uint16_t region_id, const std::vector<RegionDraft>& drafts) {
  RegionOutput out;
  const RegionDraft& draft = drafts[region_id];
  for (std::size_t o = 0; o < draft.outers.size(); ++o) {
    const LoopDraft& outer = draft.outers[o];
    Contour contour;
    contour.region = region_id;
    contour.area = draft.area;
    contour.vertices =
        assemble_loop(outer.raw.vertices, straighten_portals(outer, region_id, drafts), false);
    contour.raw = outer.raw.vertices;
    std::vector<Loop> simplified_holes;
    for (const std::size_t h : draft.holes_of[o]) {
      const LoopDraft& hole = draft.holes[h];
      Loop simple =
          assemble_loop(hole.raw.vertices, straighten_portals(hole, region_id, drafts), true);
      if (simple.size() >= 3 && detail::doubled_area(simple) < 0) {
        simplified_holes.push_back(std::move(simple));
      }
      contour.raw.insert(contour.raw.end(), hole.raw.vertices.begin(), hole.raw.vertices.end());
    }
    detail::bridge_holes(contour.vertices, std::move(simplified_holes), region_id, out.warnings);
    out.contours.push_back(std::move(contour));
  }
  return out;
}

// The checks of `regions` and `params` against a heightfield whose arrays are consistent.
Status check_contour_inputs(const voxel::CompactHeightfield& chf, const RegionField& regions,
                            const VoxelParams& params) {
  const std::size_t span_count = chf.spans.size();
  if (regions.span_region.size() != span_count) {
    return make_error(ErrorCode::InvalidArgument,
                      "contours: " + std::to_string(regions.span_region.size()) +
                          " region ids for " + std::to_string(span_count) + " spans");
  }
  if (detail::any_above(regions.span_region.data(), span_count, regions.region_count)) {
    for (std::size_t s = 0; s < span_count; ++s) {
      if (regions.span_region[s] > regions.region_count) {
        return make_error(ErrorCode::InvalidArgument,
                          "contours: span " + std::to_string(s) + " has region " +
                              std::to_string(regions.span_region[s]) + " > region_count " +
                              std::to_string(regions.region_count));
      }
    }
  }
  if (!(params.max_edge_error_cells >= 0.0F) || !std::isfinite(params.max_edge_error_cells) ||
      params.max_edge_len_cells < 0) {
    return make_error(ErrorCode::InvalidArgument,
                      "contours: max_edge_error_cells and max_edge_len_cells must be >= 0");
  }
  return {};
}

// build_contours() after the checks.
Result<ContourSet> contours_of(const voxel::CompactHeightfield& chf, const SpanGraph& graph,
                               const RegionField& regions, const VoxelParams& params,
                               BuildContext& ctx, bool keep_grid_edges = false) {
  const std::size_t span_count = chf.spans.size();
  const int threads = ctx.threads();
  const Inputs in{chf,
                  graph,
                  regions.span_region,
                  params.max_edge_error_cells,
                  params.max_edge_len_cells,
                  keep_grid_edges};

  // boundary edge bits per span (the neighbour is missing or in another region) and, per fixed
  // chunk of spans, how many spans each region has there
  const std::size_t count = regions.region_count;
  const std::size_t ids = count + 1;
  // note: one chunk when the per-chunk counts would outweigh the spans (very many regions)
  const std::size_t chunk = chunk_count(0, span_count, kSpanChunk) * ids > span_count + ids
                                ? std::max<std::size_t>(span_count, 1)
                                : kSpanChunk;
  const std::size_t chunks = chunk_count(0, span_count, chunk);
  std::vector<std::uint32_t> chunk_first(chunks * ids, 0);
  detail::UninitializedVector<std::uint8_t> edges(span_count);
  parallel_for(threads, 0, span_count, chunk, [&](std::size_t b, std::size_t e) {
    std::uint32_t* in_chunk = chunk_first.data() + (b / chunk) * ids;
    for (std::size_t s = b; s < e; ++s) {
      const std::uint16_t r = regions.span_region[s];
      if (r == kNoRegion) {
        edges[s] = 0;
        continue;
      }
      ++in_chunk[r];
      std::uint8_t bits = 0;
      for (int dir = 0; dir < 4; ++dir) {
        const std::uint32_t n = graph.neighbor(static_cast<std::uint32_t>(s), dir);
        if (n == kNoSpan || regions.span_region[n] != r)
          bits |= static_cast<std::uint8_t>(1U << dir);
      }
      edges[s] = bits;
    }
  });

  // spans grouped by region, span order within a region: each chunk writes its spans of region r
  // after those of the earlier chunks
  std::vector<std::uint32_t> first(count + 2, 0);
  {
    std::uint32_t total = 0;
    for (std::size_t r = 1; r <= count; ++r) {
      first[r] = total;
      for (std::size_t c = 0; c < chunks; ++c) {
        const std::uint32_t n = chunk_first[c * ids + r];
        chunk_first[c * ids + r] = total;
        total += n;
      }
    }
    first[count + 1] = total;
  }
  detail::UninitializedVector<std::uint32_t> by_region(first[count + 1]);
  parallel_for(threads, 0, span_count, chunk, [&](std::size_t b, std::size_t e) {
    std::uint32_t* cursor = chunk_first.data() + (b / chunk) * ids;
    for (std::size_t s = b; s < e; ++s) {
      const std::uint16_t r = regions.span_region[s];
      if (r != kNoRegion) by_region[cursor[r]++] = static_cast<std::uint32_t>(s);
    }
  });

  // note: two passes, so that both regions of a portal decide its straightening from the same
  // first-pass outlines, whatever the order in which regions run
  std::vector<RegionDraft> drafts(count + 1);
  parallel_for(threads, 1, count + 1, 1, [&](std::size_t r0, std::size_t r1) {
    for (std::size_t r = r0; r < r1; ++r) {
      if (first[r + 1] == first[r]) continue;
      drafts[r] = draft_region(in, by_region.data() + first[r], first[r + 1] - first[r], edges);
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("contours"));
  std::vector<RegionOutput> slots(count + 1);
  parallel_for(threads, 1, count + 1, 1, [&](std::size_t r0, std::size_t r1) {
    for (std::size_t r = r0; r < r1; ++r) {
      slots[r] = finish_region(static_cast<std::uint16_t>(r), drafts);
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("contours"));

  ContourSet out;
  out.grid = chf.grid;
  for (std::size_t r = 1; r <= count; ++r) {
    for (std::string& warning : slots[r].warnings) ctx.warn(std::move(warning));
    for (Contour& contour : slots[r].contours) {
      const std::int64_t area = detail::doubled_area(contour.vertices);
      if (contour.vertices.size() < 3 || area <= 0) {
        ctx.warn("contours: region " + std::to_string(r) + ": degenerate outline (" +
                 std::to_string(contour.vertices.size()) + " vertices) dropped");
        continue;
      }
      out.contours.push_back(std::move(contour));
    }
  }
  return out;
}

}  // namespace

Result<ContourSet> build_contours(const voxel::CompactHeightfield& chf, const RegionField& regions,
                                  const VoxelParams& params, BuildContext& ctx) {
  auto timer = ctx.scoped_timer("contours");
  LEAPNAV_TRY(detail::check_heightfield_arrays(chf, "contours", false));
  LEAPNAV_TRY(check_contour_inputs(chf, regions, params));
  LEAPNAV_TRY(ctx.check_memory("contours", static_cast<std::uint64_t>(chf.spans.size()) * 24));
  LEAPNAV_TRY_ASSIGN(const SpanGraph graph,
                     detail::make_checked_span_graph(chf, "contours", ctx.threads()));
  return contours_of(chf, graph, regions, params, ctx);
}

Result<ContourSet> detail::build_contours_on(const voxel::CompactHeightfield& chf,
                                             const SpanGraph& graph, const RegionField& regions,
                                             const VoxelParams& params, BuildContext& ctx,
                                             bool keep_grid_edges) {
  LEAPNAV_TRY(check_contour_inputs(chf, regions, params));
  LEAPNAV_TRY(ctx.check_memory("contours", static_cast<std::uint64_t>(chf.spans.size()) * 24));
  return contours_of(chf, graph, regions, params, ctx, keep_grid_edges);
}

Status validate(const ContourSet& contours) {
  const GridSpec& grid = contours.grid;
  std::uint16_t max_region = 0;
  for (const Contour& contour : contours.contours)
    max_region = std::max(max_region, contour.region);
  std::uint16_t previous = 0;
  for (std::size_t c = 0; c < contours.contours.size(); ++c) {
    const Contour& contour = contours.contours[c];
    const std::string where = "contours: contour " + std::to_string(c) + " (region " +
                              std::to_string(contour.region) + ")";
    if (contour.region == kNoRegion)
      return make_error(ErrorCode::Internal, where + " has no region");
    if (contour.region < previous) {
      return make_error(ErrorCode::Internal, where + " is out of region order");
    }
    previous = contour.region;
    const std::size_t n = contour.vertices.size();
    if (n < 3) {
      return make_error(ErrorCode::Internal, where + " has " + std::to_string(n) + " vertices");
    }
    for (std::size_t i = 0; i < n; ++i) {
      const ContourVertex& v = contour.vertices[i];
      const std::string at = where + " vertex " + std::to_string(i);
      if (v.x < 0 || v.x > grid.width || v.z < 0 || v.z > grid.depth || v.y < 0 ||
          v.y > std::max(grid.height, static_cast<int>(kMaxGridHeight))) {
        return make_error(ErrorCode::Internal, at + " (" + std::to_string(v.x) + ", " +
                                                   std::to_string(v.y) + ", " +
                                                   std::to_string(v.z) + ") is off the grid");
      }
      if (same_xz(v, contour.vertices[(i + 1) % n])) {
        return make_error(ErrorCode::Internal, at + " starts a zero-length edge");
      }
      if (v.neighbor_region > max_region) {
        return make_error(ErrorCode::Internal,
                          at + " has neighbour region " + std::to_string(v.neighbor_region) +
                              " beyond the last region " + std::to_string(max_region));
      }
    }
    if (detail::doubled_area(contour.vertices) <= 0) {
      return make_error(ErrorCode::Internal, where + " is not counter-clockwise in xz");
    }
  }
  return {};
}

std::uint64_t content_hash(const ContourSet& contours) {
  ContentHasher hasher;
  hasher.add_string("leapnav.mesh.ContourSet");
  const GridSpec& grid = contours.grid;
  hasher.add_pod(grid.origin.x);
  hasher.add_pod(grid.origin.y);
  hasher.add_pod(grid.origin.z);
  hasher.add_pod(grid.cell_size);
  hasher.add_pod(grid.cell_height);
  hasher.add_pod(grid.width);
  hasher.add_pod(grid.depth);
  hasher.add_pod(grid.height);
  hasher.add_pod(static_cast<std::uint64_t>(contours.contours.size()));
  const auto add_vertices = [&](const std::vector<ContourVertex>& vertices) {
    hasher.add_pod(static_cast<std::uint64_t>(vertices.size()));
    for (const ContourVertex& v : vertices) {
      hasher.add_pod(v.x);
      hasher.add_pod(v.y);
      hasher.add_pod(v.z);
      hasher.add_pod(v.neighbor_region);
    }
  };
  for (const Contour& contour : contours.contours) {
    hasher.add_pod(contour.region);
    hasher.add_pod(contour.area);
    add_vertices(contour.vertices);
    add_vertices(contour.raw);
  }
  return hasher.digest();
}

}  // namespace leapnav::mesh
