// The ledge pass (Golodetz Listing 4 generalised, seeds spec A6/A10): for every facing pair of
// boundary edges, the rise delta(x) of the second edge's floor above the first's is measured on
// the navmesh's surface (its height detail, as paths are lifted), not on the polygons' vertices: a
// polygon that slopes with stairs beside a ledge has vertex heights far from the floor under most
// of its edge. The surface beside an edge is one column's sample between column borders, so the
// overlap is cut at the borders of both edges and each stretch is classified (walk, step,
// jump-up / drop); contiguous stretches of one kind whose floors a straight segment follows to a
// cell height form one directed link per direction (e -> f with rise delta, f -> e with rise
// -delta), kept when longer than min_length; then the soundness check keeps the passing pieces.
// On meshes without height detail (hand-made ones) the floor is the edge's own vertex heights,
// linear along it, and each kind is one interval of the overlap.
#include "leapnav/ledgelinks/ledge_links.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

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

/// A piece of a pair's overlap [x0, x1] along u where the rise lies in one kind's range, with
/// the source and destination floors at its ends (linear in between) [units: m].
struct Fragment {
  LedgeKind kind = LedgeKind::Walk;
  double x0 = 0.0;
  double x1 = 0.0;
  double src0 = 0.0;
  double src1 = 0.0;
  double dst0 = 0.0;
  double dst1 = 0.0;
};

/// One boundary edge of a pair and the floor beside it: the navmesh's surface (mesh::height_at,
/// the height detail paths are lifted with) on the edge moved `nudge` into the polygon (so that
/// an edge on a column border reads the column on the polygon's side), which is one column's
/// sample between the places where that line crosses a column border; without a height patch
/// (hand-made meshes), the edge's own vertex heights, linear along it.
class Side {
 public:
  Side(const mesh::NavMesh& navmesh, const detail::BoundaryEdge& e, double u0, double u1,
       double nudge)
      : edge(&e), nav_(&navmesh), u0_(u0), u1_(u1) {
    const std::uint32_t p = e.poly;
    patched_ = p < navmesh.height_patches.size() && navmesh.height_patches[p].width > 0 &&
               navmesh.height_patches[p].depth > 0 && navmesh.grid.cell_size > 0.0F;
    inset_x_ = -nudge * e.nx;
    inset_z_ = -nudge * e.nz;
  }

  const detail::BoundaryEdge* edge;

  /// The edge's point at u, at floor height y.
  [[nodiscard]] Vec3 point(double u, double y) const {
    const Vec3 v = lerp(edge->p, edge->q, (u - u0_) / (u1_ - u0_));
    return {v.x, static_cast<float>(y), v.z};
  }

  /// Where the inset line crosses a column border strictly inside (lo, hi).
  void add_breaks(double lo, double hi, std::vector<double>& out) const {
    if (!patched_) return;
    const auto& grid = nav_->grid;
    const double cs = grid.cell_size;
    const auto crossings = [&](double a, double b, double origin) {
      // the coordinate runs from a (u = u0_) to b (u = u1_)
      if (a == b) return;
      const double at_lo = a + (lo - u0_) / (u1_ - u0_) * (b - a);
      const double at_hi = a + (hi - u0_) / (u1_ - u0_) * (b - a);
      const double c0 = std::floor((std::min(at_lo, at_hi) - origin) / cs);
      const double c1 = std::floor((std::max(at_lo, at_hi) - origin) / cs);
      for (double c = c0 + 1.0; c <= c1; c += 1.0) {
        const double u = u0_ + (origin + c * cs - a) / (b - a) * (u1_ - u0_);
        if (u > lo && u < hi) out.push_back(u);
      }
    };
    crossings(edge->p.x + inset_x_, edge->q.x + inset_x_, grid.origin.x);
    crossings(edge->p.z + inset_z_, edge->q.z + inset_z_, grid.origin.z);
  }

  /// The floor at the ends of [a, b], a stretch between two breaks; `mid` is inside it.
  [[nodiscard]] std::pair<double, double> floor(double a, double b, double mid) const {
    if (!patched_) return {y_at(a), y_at(b)};
    const Vec3 v = lerp(edge->p, edge->q, (mid - u0_) / (u1_ - u0_));
    const double h =
        mesh::height_at(*nav_, mesh::PolyId{edge->poly}, static_cast<float>(v.x + inset_x_),
                        static_cast<float>(v.z + inset_z_));
    return {h, h};
  }

 private:
  [[nodiscard]] double y_at(double u) const {
    return lerp(edge->p, edge->q, (u - u0_) / (u1_ - u0_)).y;
  }

  const mesh::NavMesh* nav_;
  double u0_;
  double u1_;
  double inset_x_ = 0.0;
  double inset_z_ = 0.0;
  bool patched_ = false;
};

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

std::size_t crossings_made(const LedgeLinkSet& a, const LedgeLinkSet& b) {
  constexpr int kSamples = 11;
  constexpr double kNear = 0.3;  // [m]
  constexpr double kRise = 0.1;  // [m]
  std::size_t made = 0;
  for (const LedgeLink& l : a.links) {
    for (int k = 0; k < kSamples; ++k) {
      const double s = k / double{kSamples - 1};
      const auto at = [s](Vec3 p, Vec3 q) {
        return Vec3{static_cast<float>(p.x + s * (double{q.x} - p.x)),
                    static_cast<float>(p.y + s * (double{q.y} - p.y)),
                    static_cast<float>(p.z + s * (double{q.z} - p.z))};
      };
      const Vec3 src = at(l.source_a, l.source_b);
      const Vec3 dst = at(l.dest_a, l.dest_b);
      for (const LedgeLink& m : b.links) {
        const double ux = double{m.source_b.x} - m.source_a.x;
        const double uz = double{m.source_b.z} - m.source_a.z;
        const double len2 = ux * ux + uz * uz;
        if (!(len2 > 0.0)) continue;
        const double t = ((src.x - m.source_a.x) * ux + (src.z - m.source_a.z) * uz) / len2;
        if (t < -0.05 || t > 1.05) continue;
        const double tc = std::clamp(t, 0.0, 1.0);
        const double px = m.source_a.x + tc * ux;
        const double pz = m.source_a.z + tc * uz;
        const double qx = m.dest_a.x + tc * (double{m.dest_b.x} - m.dest_a.x);
        const double qz = m.dest_a.z + tc * (double{m.dest_b.z} - m.dest_a.z);
        const double rise = m.dest_a.y + tc * (double{m.dest_b.y} - m.dest_a.y) -
                            (m.source_a.y + tc * (double{m.source_b.y} - m.source_a.y));
        if (std::hypot(px - src.x, pz - src.z) < kNear &&
            std::hypot(qx - dst.x, qz - dst.z) < kNear &&
            std::abs(rise - (double{dst.y} - src.y)) < kRise) {
          ++made;
          break;
        }
      }
    }
  }
  return made;
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

  // the column an edge runs along on its polygon's side: where the agent's centre stands
  const double nudge = 0.05 * static_cast<double>(cs);
  const double deviation = static_cast<double>(ch) + kThresholdSlack;
  std::vector<LedgeLink> candidates;
  std::vector<double> breaks;
  std::vector<Fragment> fragments;
  for (const auto& [i, j] : pairs) {
    const detail::BoundaryEdge& e = edges[i];
    const detail::BoundaryEdge& f = edges[j];
    // the shared frame of edges_face: u along the line
    const detail::PairFrame frame = detail::pair_frame(e, f);
    const double lo = frame.lo;
    const double hi = frame.hi;
    const Side side_e(navmesh, e, frame.e0, frame.e1, nudge);
    const Side side_f(navmesh, f, frame.f0, frame.f1, nudge);
    // stretches of [lo, hi] over which each side's floor is one column's sample (or linear)
    breaks.assign({lo, hi});
    side_e.add_breaks(lo, hi, breaks);
    side_f.add_breaks(lo, hi, breaks);
    std::sort(breaks.begin(), breaks.end());
    breaks.erase(
        std::unique(breaks.begin(), breaks.end(), [](double a, double b) { return b - a <= 1e-9; }),
        breaks.end());
    breaks.back() = hi;
    for (const bool forward : {true, false}) {
      // forward: e -> f with rise delta; backward: f -> e with rise -delta
      const Side& src = forward ? side_e : side_f;
      const Side& dst = forward ? side_f : side_e;
      fragments.clear();
      for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
        const double a = breaks[k];
        const double b = breaks[k + 1];
        const double mid = 0.5 * (a + b);
        const auto [s0, s1] = src.floor(a, b, mid);
        const auto [d0, d1] = dst.floor(a, b, mid);
        for (const KindRange& range : ranges) {
          const auto t = rise_interval(d0 - s0, d1 - s1, range);
          if (!t) continue;
          Fragment g;
          g.kind = range.kind;
          g.x0 = a + t->first * (b - a);
          g.x1 = a + t->second * (b - a);
          g.src0 = s0 + t->first * (s1 - s0);
          g.src1 = s0 + t->second * (s1 - s0);
          g.dst0 = d0 + t->first * (d1 - d0);
          g.dst1 = d0 + t->second * (d1 - d0);
          fragments.push_back(g);
        }
      }
      // fragments are ordered along u within each kind; join contiguous ones of one kind while
      // the straight segment between the run's end floors stays within `deviation` of every
      // fragment's floor at its middle (so a link's segments follow the surface to a cell height)
      for (const KindRange& range : ranges) {
        std::size_t run_first = fragments.size();
        std::size_t run_last = fragments.size();
        const auto emit = [&]() {
          if (run_first == fragments.size()) return;
          const Fragment& g0 = fragments[run_first];
          const Fragment& g1 = fragments[run_last];
          run_first = fragments.size();
          if (g1.x1 - g0.x0 <= min_length) return;
          LedgeLink link;
          link.kind = range.kind;
          link.source_poly = src.edge->poly;
          link.dest_poly = dst.edge->poly;
          link.source_a = src.point(g0.x0, g0.src0);
          link.source_b = src.point(g1.x1, g1.src1);
          link.dest_a = dst.point(g0.x0, g0.dst0);
          link.dest_b = dst.point(g1.x1, g1.dst1);
          link.cost = kind_cost(range.kind);
          // note: segments run along the source edge's own direction (its polygon's CCW order),
          // whichever of the two edges the pair happened to list first
          const detail::BoundaryEdge& se = *src.edge;
          const double run_x = static_cast<double>(link.source_b.x) - link.source_a.x;
          const double run_z = static_cast<double>(link.source_b.z) - link.source_a.z;
          if (run_x * (static_cast<double>(se.q.x) - se.p.x) +
                  run_z * (static_cast<double>(se.q.z) - se.p.z) <
              0.0) {
            std::swap(link.source_a, link.source_b);
            std::swap(link.dest_a, link.dest_b);
          }
          candidates.push_back(link);
        };
        const auto follows = [&](std::size_t last) {
          const Fragment& g0 = fragments[run_first];
          const Fragment& g1 = fragments[last];
          const double len = g1.x1 - g0.x0;
          for (std::size_t k = run_first; k <= last; ++k) {
            const Fragment& g = fragments[k];
            const double t = len > 0.0 ? (0.5 * (g.x0 + g.x1) - g0.x0) / len : 0.0;
            const double src_line = g0.src0 + t * (g1.src1 - g0.src0);
            const double dst_line = g0.dst0 + t * (g1.dst1 - g0.dst0);
            if (std::abs(0.5 * (g.src0 + g.src1) - src_line) > deviation ||
                std::abs(0.5 * (g.dst0 + g.dst1) - dst_line) > deviation)
              return false;
          }
          return true;
        };
        for (std::size_t k = 0; k < fragments.size(); ++k) {
          if (fragments[k].kind != range.kind) continue;
          if (run_first != fragments.size() && fragments[k].x0 - fragments[run_last].x1 <= 1e-9 &&
              follows(k)) {
            run_last = k;
            continue;
          }
          emit();
          run_first = k;
          run_last = k;
        }
        emit();
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
    for (const Vec3 v : {l.source_a, l.source_b, l.dest_a, l.dest_b}) h.add_point(v);
    h.add_pod(l.cost);
  }
  return h.digest();
}

}  // namespace leapnav::ledge
