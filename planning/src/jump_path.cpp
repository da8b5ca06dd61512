// Local planning with jumps (thesis §6.2.1 and §6.2.2). Per jump, greedily: the funnel of the
// current sub-corridor is advanced to its end; a backward funnel runs over the next sub-corridor
// from its target (the goal, or the xz centroid of its last polygon); every allowed link of the
// jump's group is scored by the current funnel's estimate to its start plus the chain start ->
// land segment -> backward funnel portal -> backward apex; the lowest score wins (ties: lower link
// id). Scoring prunes with a lower bound (the chain without the backward portal), so a group
// costs one cheap bound per link and a full chain only for promising links.
#include "jump_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "leapnav/jumplinks/trajectory.hpp"

namespace leapnav::plan::detail {
namespace {

Vec2 centroid_xz(const Planner::Impl& impl, std::uint32_t p) {
  const mesh::NavMesh& nav = *impl.mesh;
  double x = 0.0;
  double z = 0.0;
  const std::uint32_t first = nav.poly_first[p];
  const std::uint32_t last = nav.poly_first[p + 1];
  for (std::uint32_t s = first; s < last; ++s) {
    const Vec2 v = impl.xz_vertices[nav.poly_vertices[s]];
    x += v.x;
    z += v.y;
  }
  const double n = last > first ? static_cast<double>(last - first) : 1.0;
  return {static_cast<float>(x / n), static_cast<float>(z / n)};
}

/// The 3-D point of the land segment [a, b] whose xz is nearest to p (heights interpolated).
Vec3 on_land_segment(Vec3 a, Vec3 b, Vec2 p) {
  const double dx = static_cast<double>(b.x) - a.x;
  const double dz = static_cast<double>(b.z) - a.z;
  const double len2 = dx * dx + dz * dz;
  if (len2 <= 0.0) return a;
  double u = ((static_cast<double>(p.x) - a.x) * dx + (static_cast<double>(p.y) - a.z) * dz) / len2;
  u = std::clamp(u, 0.0, 1.0);
  return {static_cast<float>(a.x + u * dx),
          static_cast<float>(a.y + u * (static_cast<double>(b.y) - a.y)),
          static_cast<float>(a.z + u * dz)};
}
/// The link of a jump: the allowed link of its group with the lowest estimated length (§6.2.2).
/// Links come in runs sharing a start (and configuration), so the forward estimate is computed
/// once per run, and |start - backward apex| bounds every link's backward part from below: runs
/// are scored from the best bound on, and a run or link whose bound cannot beat the best score
/// is skipped. The result equals the full scan's (lowest score, then lowest link id) up to
/// rounding of the bounds.
std::uint32_t choose_link(const Planner::Impl& impl, JumpPathScratch& s,
                          std::span<const Portal> next, Vec2 target, std::uint32_t group,
                          const QueryOptions& options) {
  const jump::JumpLinkSet& links = *impl.links;
  s.reversed.clear();
  for (std::size_t p = next.size(); p > 0; --p) {
    s.reversed.push_back({next[p - 1].right, next[p - 1].left});
  }
  s.back.start_walk(target, s.reversed);
  s.back.advance();
  const FunnelState& bs = s.back.state();
  const bool back_point = bs.left == bs.apex && bs.right == bs.apex;
  const std::uint32_t run_begin = impl.group_run_first[group];
  const std::uint32_t run_end = impl.group_run_first[group + 1];
  const double inf = std::numeric_limits<double>::infinity();
  s.run_forward.clear();
  s.run_bound.clear();
  std::uint32_t first_run = run_begin;
  double first_bound = inf;
  for (std::uint32_t r = run_begin; r < run_end; ++r) {
    const std::uint32_t config = links.links[impl.run_first[r]].config;
    double forward = inf;
    double bound = inf;
    if ((config_bit(config) & options.jump_configs) != 0) {
      const Vec2 x = impl.run_start[r];
      forward = s.run.estimate(x);
      bound = forward + distance(x, bs.apex);
    }
    s.run_forward.push_back(forward);
    s.run_bound.push_back(bound);
    if (bound < first_bound) {
      first_bound = bound;
      first_run = r;
    }
  }
  std::uint32_t best = kNoLink;
  double best_score = inf;
  const auto score_run = [&](std::uint32_t r) {
    const double forward = s.run_forward[r - run_begin];
    const Vec2 x = impl.run_start[r];
    for (std::uint32_t l = impl.run_first[r]; l < impl.run_first[r + 1]; ++l) {
      const jump::JumpLink& link = links.links[l];
      const Vec2 la = xz(link.land_a);
      const Vec2 lb = xz(link.land_b);
      const double bound = forward + via_length(x, la, lb, bs.apex);
      if (bound > best_score || (bound == best_score && l > best)) continue;
      const double score =
          back_point ? bound : forward + chain_length(x, la, lb, bs.left, bs.right, bs.apex);
      if (score < best_score || (score == best_score && l < best)) {
        best_score = score;
        best = l;
      }
    }
  };
  if (first_bound < inf) score_run(first_run);
  for (std::uint32_t r = run_begin; r < run_end; ++r) {
    if (r == first_run) continue;
    const double bound = s.run_bound[r - run_begin];
    if (bound == inf || bound > best_score) continue;
    if (bound == best_score && impl.run_first[r] > best) continue;
    score_run(r);
  }
  // note: A* only takes groups with an allowed link, so best is set; the fallback keeps it safe.
  return best == kNoLink ? links.group_first[group] : best;
}

}  // namespace

void assemble_jump_path(const Planner::Impl& impl, std::span<const std::uint32_t> arcs, Vec3 start,
                        Vec3 end, const QueryOptions& options, JumpPathScratch& scratch,
                        Path& out) {
  const NavGraph& graph = impl.graph;
  const jump::JumpLinkSet& links = *impl.links;
  JumpPathScratch& s = scratch;
  s.portals.clear();
  s.jump_at.clear();
  s.jump_group.clear();
  s.portal_split.clear();
  for (std::size_t k = 0; k < arcs.size(); ++k) {
    const std::uint32_t arc = arcs[k];
    if (graph.arc_kind[arc] == EdgeKind::Walk) {
      s.portals.push_back({impl.arc_left[arc], impl.arc_right[arc]});
    } else {
      s.jump_at.push_back(static_cast<std::uint32_t>(k));
      s.jump_group.push_back(graph.arc_index[arc]);
      s.portal_split.push_back(static_cast<std::uint32_t>(s.portals.size()));
    }
  }
  const std::size_t jumps = s.jump_at.size();
  const auto corridor_count = static_cast<std::uint32_t>(out.corridor.size());
  const auto sub_first = [&](std::size_t k) -> std::uint32_t {
    return k == 0 ? 0 : s.jump_at[k - 1] + 1;
  };
  const auto sub_last = [&](std::size_t k) -> std::uint32_t {
    return k == jumps ? corridor_count - 1 : s.jump_at[k];
  };
  const auto sub_portals = [&](std::size_t k) -> std::span<const Portal> {
    const std::size_t b = k == 0 ? 0 : s.portal_split[k - 1];
    const std::size_t e = k == jumps ? s.portals.size() : s.portal_split[k];
    return std::span<const Portal>(s.portals).subspan(b, e - b);
  };
  const Vec2 goal2 = xz(end);
  // Appends a run's corners from `from` on, lifted on their polygons; the last is `last_point`.
  const auto append_walk = [&](const std::vector<Corner>& corners, std::size_t from,
                               std::uint32_t corridor_base, Vec3 last_point) {
    for (std::size_t c = from; c + 1 < corners.size(); ++c) {
      const Vec2 p = corners[c].point;
      const std::uint32_t poly =
          mesh::index(out.corridor[corridor_base + corners[c].corridor_index]);
      out.points.push_back({p.x, impl.height(poly, p), p.y});
    }
    out.points.push_back(last_point);
  };

  out.points.push_back(start);
  s.run.start_walk(xz(start), sub_portals(0));
  const jump::JumpLink* previous = nullptr;
  for (std::size_t r = 0; r <= jumps; ++r) {
    s.run.advance();
    Vec2 target2 = goal2;
    Vec3 last_point = end;
    std::uint32_t chosen = kNoLink;
    if (r < jumps) {
      const bool last_jump = r + 1 == jumps;
      const Vec2 next_target =
          last_jump ? goal2 : centroid_xz(impl, mesh::index(out.corridor[sub_last(r + 1)]));
      chosen = choose_link(impl, s, sub_portals(r + 1), next_target, s.jump_group[r], options);
      target2 = xz(links.links[chosen].start);
      last_point = links.links[chosen].start;
    }
    s.run.finish(target2);
    const std::vector<Corner>& corners = s.run.corners();
    std::size_t walk_first = out.points.size() - 1;
    std::size_t from = 1;
    if (previous != nullptr) {
      const Vec3 landing = on_land_segment(previous->land_a, previous->land_b, corners[1].point);
      PathSegment hop;
      hop.kind = previous->config < impl.config_kind.size() ? impl.config_kind[previous->config]
                                                            : SegmentKind::Jump;
      hop.first = static_cast<std::uint32_t>(out.points.size() - 1);
      hop.last = hop.first + 1;
      hop.corridor_first = sub_last(r - 1);
      hop.corridor_last = sub_first(r);
      hop.link = static_cast<std::uint32_t>(previous - links.links.data());
      if (hop.kind == SegmentKind::Jump) {
        hop.jump_height = links.configs[previous->config].height;
        hop.jump_distance =
            static_cast<float>(jump::fit_distance(hop.jump_height, previous->start, landing));
        ++out.jump_count;
      }
      out.points.push_back(landing);
      out.segments.push_back(hop);
      walk_first = hop.last;
      from = 2;
    }
    append_walk(corners, from, sub_first(r), last_point);
    PathSegment walk;
    walk.kind = SegmentKind::Walk;
    walk.first = static_cast<std::uint32_t>(walk_first);
    walk.last = static_cast<std::uint32_t>(out.points.size() - 1);
    walk.corridor_first = sub_first(r);
    walk.corridor_last = sub_last(r);
    out.segments.push_back(walk);
    if (r < jumps) {
      previous = &links.links[chosen];
      s.run.start_jump(xz(previous->start), xz(previous->land_a), xz(previous->land_b),
                       sub_portals(r + 1), r + 1 == jumps ? &goal2 : nullptr);
    }
  }
  for (std::size_t i = 1; i < out.points.size(); ++i) {
    out.length += distance(xz(out.points[i - 1]), xz(out.points[i]));
    out.length_3d += distance(out.points[i - 1], out.points[i]);
  }
}

}  // namespace leapnav::plan::detail
