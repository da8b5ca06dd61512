// The ledge pass (Golodetz Listing 4 generalised, seeds spec A6/A10): for every facing pair of
// boundary edges, the height difference delta(x) of the second edge above the first is linear
// along their overlap, so each class of rise (walk, step, jump-up / drop) is one interval of it;
// every interval longer than min_length gives one directed link per direction (e -> f with rise
// delta, f -> e with rise -delta), then the soundness check keeps the passing pieces.
#include "leapnav/ledgelinks/ledge_links.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

#include "edge_pairs.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/ledgelinks/ledge_check.hpp"

namespace leapnav::ledge {
namespace {

/// Thresholds compare with this slack, so that a rise of exactly max_climb or max_jump_up (a
/// whole number of cell heights, off by float rounding of the vertex heights) is inside
/// [units: m].
constexpr double kThresholdSlack = 1e-4;

Error invalid(const std::string& message) {
  return make_error(ErrorCode::InvalidArgument, "ledge links: " + message);
}

struct Frame {
  double ux = 0.0;
  double uz = 0.0;
};

Vec3 lerp(Vec3 a, Vec3 b, double t) {
  return {static_cast<float>(a.x + t * (static_cast<double>(b.x) - a.x)),
          static_cast<float>(a.y + t * (static_cast<double>(b.y) - a.y)),
          static_cast<float>(a.z + t * (static_cast<double>(b.z) - a.z))};
}

struct KindRange {
  LedgeKind kind;
  double lo;
  double hi;
  bool closed_lo;  ///< lo itself belongs to the range
  bool closed_hi;  ///< hi itself belongs to the range
};

/// The part [t0, t1] of [0, 1] where d0 + t (d1 - d0) lies in the range; nullopt when empty.
/// note: the ranges share their ends, so a constant rise on a shared end belongs to exactly one
/// of them (the closed side); a varying rise meets a shared end only at one t.
std::optional<std::pair<double, double>> rise_interval(double d0, double d1, const KindRange& r) {
  const double lo = r.lo;
  const double hi = r.hi;
  if (d0 == d1) {
    const bool above = r.closed_lo ? d0 >= lo : d0 > lo;
    const bool below = r.closed_hi ? d0 <= hi : d0 < hi;
    if (above && below) return std::make_pair(0.0, 1.0);
    return std::nullopt;
  }
  double a = (lo - d0) / (d1 - d0);
  double b = (hi - d0) / (d1 - d0);
  if (a > b) std::swap(a, b);
  a = std::max(a, 0.0);
  b = std::min(b, 1.0);
  if (!(a < b)) return std::nullopt;
  return std::make_pair(a, b);
}

}  // namespace

std::string_view to_string(LedgeKind kind) noexcept {
  switch (kind) {
    case LedgeKind::Walk:
      return "walk";
    case LedgeKind::StepUp:
      return "step_up";
    case LedgeKind::StepDown:
      return "step_down";
    case LedgeKind::JumpUp:
      return "jump_up";
    case LedgeKind::Drop:
      return "drop";
    case LedgeKind::Ladder:
      return "ladder";
  }
  return "unknown";
}

LedgeOptions tiled_ledge_options() {
  LedgeOptions options;
  options.tiled_outlines = true;
  return options;
}

Status validate(const LedgeOptions& o) {
  const auto finite_nonneg = [](float v) { return std::isfinite(v) && v >= 0.0F; };
  if (!finite_nonneg(o.max_gap)) return invalid("max_gap must be finite and >= 0");
  if (!(std::isfinite(o.max_angle_deg) && o.max_angle_deg >= 0.0F && o.max_angle_deg <= 10.0F))
    return invalid("max_angle_deg must be in 0..10");
  if (!(std::isfinite(o.max_tiled_angle_deg) && o.max_tiled_angle_deg >= 0.0F &&
        o.max_tiled_angle_deg <= 20.0F))
    return invalid("max_tiled_angle_deg must be in 0..20");
  if (!finite_nonneg(o.walk_epsilon)) return invalid("walk_epsilon must be finite and >= 0");
  if (!finite_nonneg(o.min_length)) return invalid("min_length must be finite and >= 0");
  if (!finite_nonneg(o.step_cost) || !finite_nonneg(o.jump_up_cost) || !finite_nonneg(o.drop_cost))
    return invalid("costs must be finite and >= 0");
  return {};
}

void sort_links(std::vector<LedgeLink>& links) {
  const auto key = [](const LedgeLink& l) {
    return std::make_tuple(l.source_poly, l.dest_poly, static_cast<int>(l.kind), l.source_a.x,
                           l.source_a.z, l.source_a.y, l.source_b.x, l.source_b.z, l.source_b.y,
                           l.dest_a.x, l.dest_a.z, l.dest_a.y, l.dest_b.x, l.dest_b.z, l.dest_b.y,
                           l.cost);
  };
  std::sort(links.begin(), links.end(),
            [&](const LedgeLink& a, const LedgeLink& b) { return key(a) < key(b); });
  links.erase(std::unique(links.begin(), links.end()), links.end());
}

Result<LedgeLinkSet> build_ledge_links(const mesh::NavMesh& navmesh, const TriangleMesh* triangles,
                                       const LedgeOptions& options, BuildContext& ctx) {
  LEAPNAV_TRY(validate(options));
  if (options.check && triangles == nullptr)
    return invalid("the soundness check needs the level's triangles");
  BuildContext::ScopedTimer timer(ctx, "ledge_links");
  const AgentConfig& agent = navmesh.config.agent;
  const float cs = navmesh.grid.cell_size;
  const float ch = navmesh.grid.cell_height;
  detail::PairParams params;
  if (options.max_gap > 0.0F) {
    params.max_gap = options.max_gap;
  } else {
    const double radius_cells = std::ceil(static_cast<double>(agent.radius) / cs - 1e-6);
    params.max_gap = (2.0 * radius_cells + 2.0) * cs + navmesh.config.poly.max_edge_error;
  }
  params.min_gap = -0.5 * static_cast<double>(cs);
  params.max_angle_deg = options.max_angle_deg;
  if (options.tiled_outlines) {
    params.outline_error = navmesh.config.poly.max_edge_error;
    params.max_total_angle_deg = std::max(options.max_angle_deg, options.max_tiled_angle_deg);
  }
  const double min_length = options.min_length > 0.0F ? options.min_length : 0.5 * cs;
  params.min_overlap = min_length;

  LedgeLinkSet out;
  const std::vector<detail::BoundaryEdge> edges = detail::boundary_edges(navmesh, params);
  out.stats.boundary_edges = edges.size();
  out.stats.plane_groups = detail::count_planes(edges);
  const auto pairs = detail::facing_pairs(edges, params);
  out.stats.facing_pairs = pairs.size();
  LEAPNAV_TRY(ctx.check_cancel("ledge_links"));

  const double eps = options.walk_epsilon;
  const double climb = agent.max_climb + kThresholdSlack;
  const double jump = agent.max_jump_up + kThresholdSlack;
  const double drop = agent.max_drop + kThresholdSlack;
  const std::array<KindRange, 5> ranges{{
      {LedgeKind::Walk, -eps, eps, true, true},
      {LedgeKind::StepUp, eps, climb, false, true},
      {LedgeKind::StepDown, -climb, -eps, true, false},
      {LedgeKind::JumpUp, climb, std::max(climb, jump), false, true},
      {LedgeKind::Drop, -std::max(climb, drop), -climb, true, false},
  }};
  const auto kind_cost = [&](LedgeKind kind) -> float {
    switch (kind) {
      case LedgeKind::StepUp:
      case LedgeKind::StepDown:
        return options.step_cost;
      case LedgeKind::JumpUp:
        return options.jump_up_cost;
      case LedgeKind::Drop:
        return options.drop_cost;
      default:
        return 0.0F;
    }
  };

  std::vector<LedgeLink> candidates;
  for (const auto& [i, j] : pairs) {
    const detail::BoundaryEdge& e = edges[i];
    const detail::BoundaryEdge& f = edges[j];
    // the shared frame of edges_face: u along the line
    const detail::PairFrame frame = detail::pair_frame(e, f);
    const double e0 = frame.e0;
    const double e1 = frame.e1;
    const double f0 = frame.f0;
    const double f1 = frame.f1;
    const double lo = frame.lo;
    const double hi = frame.hi;
    const auto on_e = [&](double x) { return lerp(e.p, e.q, (x - e0) / (e1 - e0)); };
    const auto on_f = [&](double x) { return lerp(f.p, f.q, (x - f0) / (f1 - f0)); };
    const Vec3 pe_lo = on_e(lo);
    const Vec3 pe_hi = on_e(hi);
    const Vec3 pf_lo = on_f(lo);
    const Vec3 pf_hi = on_f(hi);
    const double d_lo = static_cast<double>(pf_lo.y) - pe_lo.y;
    const double d_hi = static_cast<double>(pf_hi.y) - pe_hi.y;
    const double span = hi - lo;
    for (const bool forward : {true, false}) {
      // forward: e -> f with rise delta; backward: f -> e with rise -delta
      const double r_lo = forward ? d_lo : -d_lo;
      const double r_hi = forward ? d_hi : -d_hi;
      for (const KindRange& range : ranges) {
        const auto t = rise_interval(r_lo, r_hi, range);
        if (!t || (t->second - t->first) * span <= min_length) continue;
        const double x0 = lo + t->first * span;
        const double x1 = lo + t->second * span;
        LedgeLink link;
        link.kind = range.kind;
        link.source_poly = forward ? e.poly : f.poly;
        link.dest_poly = forward ? f.poly : e.poly;
        link.source_a = forward ? on_e(x0) : on_f(x0);
        link.source_b = forward ? on_e(x1) : on_f(x1);
        link.dest_a = forward ? on_f(x0) : on_e(x0);
        link.dest_b = forward ? on_f(x1) : on_e(x1);
        link.cost = kind_cost(range.kind);
        // note: segments run along the source edge's own direction (its polygon's CCW order),
        // whichever of the two edges the pair happened to list first
        const detail::BoundaryEdge& src = forward ? e : f;
        const double run_x = static_cast<double>(link.source_b.x) - link.source_a.x;
        const double run_z = static_cast<double>(link.source_b.z) - link.source_a.z;
        if (run_x * (static_cast<double>(src.q.x) - src.p.x) +
                run_z * (static_cast<double>(src.q.z) - src.p.z) <
            0.0) {
          std::swap(link.source_a, link.source_b);
          std::swap(link.dest_a, link.dest_b);
        }
        candidates.push_back(link);
      }
    }
  }
  out.stats.candidates = candidates.size();
  LEAPNAV_TRY(ctx.check_cancel("ledge_links"));

  if (!options.check) {
    out.links = std::move(candidates);
    sort_links(out.links);
    return out;
  }
  const LedgeChecker checker(*triangles, agent, ch);
  std::vector<std::vector<LedgeLink>> slots(candidates.size());
  std::vector<std::uint64_t> tested(candidates.size(), 0);
  parallel_for(ctx.threads(), 0, candidates.size(), 16, [&](std::size_t b, std::size_t end) {
    LedgeChecker::Scratch scratch;
    for (std::size_t c = b; c < end; ++c) {
      const std::uint64_t before = scratch.tested;
      slots[c] =
          check_ledge_link(checker, candidates[c], static_cast<float>(min_length), ch, scratch);
      tested[c] = scratch.tested - before;
    }
  });
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    out.stats.triangles_tested += tested[c];
    const LedgeLink& whole = candidates[c];
    const bool intact = slots[c].size() == 1 && slots[c][0] == whole;
    if (!intact) ++out.stats.links_failing;
    if (slots[c].empty()) ++out.stats.links_dropped;
    for (const LedgeLink& piece : slots[c]) out.links.push_back(piece);
  }
  sort_links(out.links);
  return out;
}

Status validate(const LedgeLinkSet& set, const mesh::NavMesh& navmesh) {
  const std::size_t polys = navmesh.polygon_count();
  for (std::size_t i = 0; i < set.links.size(); ++i) {
    const LedgeLink& l = set.links[i];
    const std::string where = "ledge link " + std::to_string(i) + ": ";
    if (l.source_poly >= polys || l.dest_poly >= polys)
      return make_error(ErrorCode::Internal, where + "polygon out of range");
    if (l.source_poly == l.dest_poly && l.kind != LedgeKind::Ladder)
      return make_error(ErrorCode::Internal, where + "source and destination polygon are equal");
    if (!is_finite(l.source_a) || !is_finite(l.source_b) || !is_finite(l.dest_a) ||
        !is_finite(l.dest_b))
      return make_error(ErrorCode::Internal, where + "point is not finite");
    if (!(std::isfinite(l.cost) && l.cost >= 0.0F))
      return make_error(ErrorCode::Internal, where + "cost is not finite and >= 0");
    if (static_cast<int>(l.kind) >= kLedgeKindCount)
      return make_error(ErrorCode::Internal, where + "unknown kind");
  }
  std::vector<LedgeLink> sorted = set.links;
  sort_links(sorted);
  if (sorted != set.links)
    return make_error(ErrorCode::Internal, "ledge links are not sorted or hold duplicates");
  return {};
}

std::uint64_t content_hash(const LedgeLinkSet& set) {
  ContentHasher h;
  h.add_pod(static_cast<std::uint64_t>(set.links.size()));
  for (const LedgeLink& l : set.links) {
    h.add_pod(static_cast<std::uint8_t>(l.kind));
    h.add_pod(l.source_poly);
    h.add_pod(l.dest_poly);
    for (const Vec3 v : {l.source_a, l.source_b, l.dest_a, l.dest_b}) {
      h.add_pod(v.x);
      h.add_pod(v.y);
      h.add_pod(v.z);
    }
    h.add_pod(l.cost);
  }
  return h.digest();
}

}  // namespace leapnav::ledge
