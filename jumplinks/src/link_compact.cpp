// Compact link sets (link_compact.hpp): per (start polygon, land polygon, configuration) a greedy
// set cover under the detour bound, the kept links put on the power-of-two lattice and checked
// exactly there; a link failing on the lattice is excluded and its cover recomputed. Covers run
// in parallel over fixed chunks of groups into per-group slots, so the output does not depend on
// the thread count.
#include "leapnav/jumplinks/link_compact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "leapnav/core/parallel.hpp"
#include "leapnav/jumplinks/link_refine.hpp"

namespace leapnav::jump {

Status validate(const LinkCompactOptions& options) {
  if (!std::isfinite(options.detour) || options.detour < 0.0F)
    return make_error(ErrorCode::InvalidArgument, "link compaction: detour " +
                                                      std::to_string(options.detour) +
                                                      " m is not a finite length >= 0");
  if (options.quantum_shift < 0 || options.quantum_shift > 16)
    return make_error(ErrorCode::InvalidArgument, "link compaction: quantum_shift " +
                                                      std::to_string(options.quantum_shift) +
                                                      " is outside 0..16");
  if (!std::isfinite(options.run_tolerance) || options.run_tolerance < 0.0F)
    return make_error(ErrorCode::InvalidArgument, "link compaction: run_tolerance " +
                                                      std::to_string(options.run_tolerance) +
                                                      " m is not a finite length >= 0");
  return {};
}

float lattice_quantum(int shift) {
  return std::ldexp(1.0F, -shift);
}

namespace {

double xz_distance(Vec3 a, Vec3 b) {
  return std::hypot(static_cast<double>(a.x) - b.x, static_cast<double>(a.z) - b.z);
}

// The xz offset from the point of the segment a-b closest to p, to p.
std::pair<double, double> segment_offset(Vec3 p, Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(b.x) - a.x;
  const double dz = static_cast<double>(b.z) - a.z;
  const double len2 = dx * dx + dz * dz;
  double u = 0.0;
  if (len2 > 0.0)
    u = std::clamp(
        ((static_cast<double>(p.x) - a.x) * dx + (static_cast<double>(p.z) - a.z) * dz) / len2, 0.0,
        1.0);
  return {static_cast<double>(p.x) - (a.x + u * dx), static_cast<double>(p.z) - (a.z + u * dz)};
}

// The xz distance from p to the segment a-b.
double segment_distance(Vec3 p, Vec3 a, Vec3 b) {
  const auto [ex, ez] = segment_offset(p, a, b);
  return std::hypot(ex, ez);
}

// The detour of replacing `dropped` by `kept` (link_compact.hpp, the cover).
double detour(const JumpLink& dropped, const JumpLink& kept) {
  return xz_distance(dropped.start, kept.start) +
         std::max(segment_distance(dropped.land_a, kept.land_a, kept.land_b),
                  segment_distance(dropped.land_b, kept.land_a, kept.land_b));
}

// Whether detour(dropped, kept) <= radius, decided with sqrt where the sum is clearly on one side
// (sqrt of the sum of squares and hypot differ by a few ulps, far below the 1e-9 m margin) and
// with detour() itself otherwise, so the verdict is detour()'s (hypot is slow).
bool detour_within(const JumpLink& dropped, const JumpLink& kept, double radius) {
  const auto seg2 = [](Vec3 p, Vec3 a, Vec3 b) {
    const auto [ex, ez] = segment_offset(p, a, b);
    return ex * ex + ez * ez;
  };
  const double sx = static_cast<double>(dropped.start.x) - kept.start.x;
  const double sz = static_cast<double>(dropped.start.z) - kept.start.z;
  const double fast = std::sqrt(sx * sx + sz * sz) +
                      std::sqrt(std::max(seg2(dropped.land_a, kept.land_a, kept.land_b),
                                         seg2(dropped.land_b, kept.land_a, kept.land_b)));
  constexpr double kMargin = 1e-9;
  if (fast < radius - kMargin) return true;
  if (fast > radius + kMargin) return false;
  return detour(dropped, kept) <= radius;
}

// A cover group: links [first, last) of the input sharing start polygon, land polygon and
// configuration.
struct Group {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
};

struct GroupOut {
  std::vector<JumpLink> links;
  std::uint64_t lattice_failing = 0;
  std::uint64_t links_checked = 0;
  std::uint64_t runs = 0;
  std::uint64_t run_links = 0;
  std::uint64_t run_refused = 0;
  bool lost = false;
};

// A link's lattice indices: start, land_a, land_b (x, y, z each).
using LatticeLink = std::array<std::int64_t, 9>;

// How far p lies outside the convex (CCW in xz) polygon poly: the largest signed distance to
// its edge lines, <= 0 inside [units: m].
double outside_distance(const mesh::NavMesh& navmesh, std::uint32_t poly, double x, double z) {
  const std::span<const std::uint32_t> ids = navmesh.polygon(mesh::PolyId{poly});
  double worst = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const Vec3 a = navmesh.vertices[ids[i]];
    const Vec3 b = navmesh.vertices[ids[(i + 1) % ids.size()]];
    const double ex = static_cast<double>(b.x) - a.x;
    const double ez = static_cast<double>(b.z) - a.z;
    const double len = std::hypot(ex, ez);
    if (len <= 0.0) continue;
    // CCW in xz (x right, z up): the outside of edge a->b is to its right
    const double cross = ex * (z - a.z) - ez * (x - a.x);
    worst = std::max(worst, -cross / len);
  }
  return worst;
}

class Compactor {
 public:
  Compactor(const JumpLinkSet& full, const LinkChecker& checker, const mesh::NavMesh& navmesh,
            const LinkCompactOptions& options)
      : full_(full),
        checker_(checker),
        navmesh_(navmesh),
        options_(options),
        quantum_(lattice_quantum(options.quantum_shift)) {}

  void compact(const Group& group, GroupOut& out) {
    const std::size_t n = group.last - group.first;
    const JumpLink* links = full_.links.data() + group.first;
    build_covers(links, n);
    std::vector<bool> excluded(n, false);
    std::vector<int> verdict(n, 0);  // 0 unchecked, 1 passes on the lattice, -1 fails
    std::vector<JumpLink> lattice(n);
    const JumpConfig& config = full_.configs[links[0].config];
    for (;;) {
      const std::vector<std::uint32_t> kept = greedy_cover(excluded);
      if (kept.empty()) {
        out.lost = true;
        return;
      }
      bool all_pass = true;
      for (const std::uint32_t k : kept) {
        if (verdict[k] == 0) {
          lattice[k] = to_lattice(links[k]);
          ++out.links_checked;
          verdict[k] = checker_.check(lattice[k], config, false, scratch_).failed() ? -1 : 1;
          if (verdict[k] < 0) ++out.lattice_failing;
        }
        if (verdict[k] < 0) {
          excluded[k] = true;
          all_pass = false;
        }
      }
      if (!all_pass) continue;
      std::vector<JumpLink> chosen;
      chosen.reserve(kept.size());
      for (const std::uint32_t k : kept) chosen.push_back(lattice[k]);
      if (options_.runs)
        make_runs(chosen, config, out);
      else
        out.links = std::move(chosen);
      return;
    }
  }

 private:
  // cover_first_/cover_: the links i covers (itself included), ascending, in CSR layout. Starts
  // are binned in square cells of the detour's size, so only the 3 x 3 cells around a start can
  // hold covered links.
  void build_covers(const JumpLink* links, std::size_t n) {
    cover_first_.assign(1, 0);
    cover_.clear();
    const double radius = options_.detour;
    const double cell = std::max(radius, 0.05);
    const auto key = [&](const JumpLink& l) {
      return std::pair<std::int64_t, std::int64_t>(
          static_cast<std::int64_t>(std::floor(static_cast<double>(l.start.x) / cell)),
          static_cast<std::int64_t>(std::floor(static_cast<double>(l.start.z) / cell)));
    };
    binned_.resize(n);
    for (std::size_t i = 0; i < n; ++i) binned_[i] = {key(links[i]), static_cast<std::uint32_t>(i)};
    std::sort(binned_.begin(), binned_.end());
    const double radius2 = radius * radius;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t first = cover_.size();
      const auto [cx, cz] = key(links[i]);
      for (std::int64_t ox = -1; ox <= 1; ++ox) {
        for (std::int64_t oz = -1; oz <= 1; ++oz) {
          const std::pair<std::int64_t, std::int64_t> c(cx + ox, cz + oz);
          auto it = std::lower_bound(binned_.begin(), binned_.end(), Binned{c, 0});
          for (; it != binned_.end() && it->first == c; ++it) {
            const std::uint32_t j = it->second;
            const double dx = static_cast<double>(links[j].start.x) - links[i].start.x;
            const double dz = static_cast<double>(links[j].start.z) - links[i].start.z;
            if (j != i && dx * dx + dz * dz > radius2) continue;
            if (j == i || detour_within(links[j], links[i], radius)) cover_.push_back(j);
          }
        }
      }
      std::sort(cover_.begin() + static_cast<std::ptrdiff_t>(first), cover_.end());
      cover_first_.push_back(static_cast<std::uint32_t>(cover_.size()));
    }
  }

  // Greedy set cover over the links not excluded: the one covering most uncovered links first
  // (ties: lowest index); ascending indices of the kept links.
  std::vector<std::uint32_t> greedy_cover(const std::vector<bool>& excluded) const {
    const std::size_t n = cover_first_.size() - 1;
    std::vector<bool> covered(n, false);
    // max-heap on (gain, -index), gains recomputed lazily
    using Entry = std::pair<std::size_t, std::int64_t>;
    std::priority_queue<Entry> heap;
    for (std::size_t i = 0; i < n; ++i)
      if (!excluded[i]) heap.emplace(cover_size(i), -static_cast<std::int64_t>(i));
    std::vector<std::uint32_t> kept;
    while (!heap.empty()) {
      const auto [stale_gain, neg_index] = heap.top();
      heap.pop();
      if (stale_gain == 0) break;
      const auto i = static_cast<std::uint32_t>(-neg_index);
      std::size_t gain = 0;
      for (std::uint32_t c = cover_first_[i]; c < cover_first_[i + 1]; ++c)
        gain += covered[cover_[c]] ? 0 : 1;
      if (gain == 0) continue;
      if (!heap.empty() && Entry(gain, neg_index) < heap.top()) {
        heap.emplace(gain, neg_index);
        continue;
      }
      kept.push_back(i);
      for (std::uint32_t c = cover_first_[i]; c < cover_first_[i + 1]; ++c)
        covered[cover_[c]] = true;
    }
    std::sort(kept.begin(), kept.end());
    return kept;
  }

  // The endpoint on the lattice: x and z rounded towards the centre of the polygon's bounds
  // (away from the walls the polygon keeps the agent's radius from), the height lifted to the
  // surface there and rounded up.
  Vec3 to_lattice(Vec3 p, std::uint32_t poly) const {
    // note: compact_links checked every coordinate against the lattice range first
    const double q = quantum_;
    const AABB& bounds = navmesh_.poly_bounds[poly];
    const auto inward = [&](float v, float lo, float hi) {
      const double k = static_cast<double>(v) / q;
      const double centre = (static_cast<double>(lo) + hi) * 0.5 / q;
      return (k < centre ? std::ceil(k) : std::floor(k)) * q;
    };
    const double x = inward(p.x, bounds.min.x, bounds.max.x);
    const double z = inward(p.z, bounds.min.z, bounds.max.z);
    double y = surface_height(checker_, navmesh_, x, z, static_cast<double>(p.y) - 0.01,
                              static_cast<double>(p.y) + 0.01);
    if (std::isnan(y)) y = p.y;
    const double k = std::ceil(y / q);
    return {static_cast<float>(x), static_cast<float>(k * q), static_cast<float>(z)};
  }

  JumpLink to_lattice(const JumpLink& link) const {
    JumpLink out = link;
    out.start = to_lattice(link.start, link.start_poly);
    out.land_a = to_lattice(link.land_a, link.land_poly);
    out.land_b = to_lattice(link.land_b, link.land_poly);
    return out;
  }

  [[nodiscard]] LatticeLink indices(const JumpLink& l) const {
    LatticeLink k{};
    const std::array<float, 9> v = {l.start.x,  l.start.y,  l.start.z,  l.land_a.x, l.land_a.y,
                                    l.land_a.z, l.land_b.x, l.land_b.y, l.land_b.z};
    for (std::size_t c = 0; c < 9; ++c) k[c] = lattice_index(v[c], quantum_).value_or(0);
    return k;
  }

  [[nodiscard]] JumpLink from_indices(const LatticeLink& k, const JumpLink& proto) const {
    const double q = quantum_;
    const auto f = [&](std::size_t c) { return static_cast<float>(static_cast<double>(k[c]) * q); };
    JumpLink out = proto;
    out.start = {f(0), f(1), f(2)};
    out.land_a = {f(3), f(4), f(5)};
    out.land_b = {f(6), f(7), f(8)};
    return out;
  }

  // Chains of near-translates along `axis` (0: x, 2: z), each a list of indices into k in
  // order along the axis (link_compact.hpp, "Runs").
  [[nodiscard]] std::vector<std::vector<std::uint32_t>> chains(const std::vector<LatticeLink>& k,
                                                               std::size_t axis) const {
    constexpr std::int64_t kMatch = 4;  // quanta
    const std::size_t other = 2 - axis;
    const auto max_step = static_cast<std::int64_t>(std::ceil(8.0 / quantum_));
    std::vector<std::uint32_t> order(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::tie(k[a][other], k[a][axis], a) < std::tie(k[b][other], k[b][axis], b);
    });
    std::vector<bool> used(k.size(), false);
    std::vector<std::vector<std::uint32_t>> out;
    for (const std::uint32_t first : order) {
      if (used[first]) continue;
      used[first] = true;
      std::vector<std::uint32_t> chain{first};
      std::int64_t step = 0;
      for (;;) {
        const LatticeLink& cur = k[chain.back()];
        // candidates: starts within kMatch of cur along the other axis (a block of `order`)
        auto it =
            std::lower_bound(order.begin(), order.end(), cur[other] - kMatch,
                             [&](std::uint32_t a, std::int64_t v) { return k[a][other] < v; });
        std::int64_t best_step = 0;
        std::uint32_t best = 0;
        bool found = false;
        for (; it != order.end() && k[*it][other] <= cur[other] + kMatch; ++it) {
          if (used[*it]) continue;
          const LatticeLink& next = k[*it];
          const std::int64_t d = next[axis] - cur[axis];
          if (d <= 0 || d > max_step || (step != 0 && std::abs(d - step) > kMatch)) continue;
          bool same = true;
          for (std::size_t c = 0; c < 9 && same; ++c)
            same = std::abs(next[c] - cur[c] - (c % 3 == axis ? d : 0)) <= kMatch;
          if (same && (!found || d < best_step)) {
            found = true;
            best_step = d;
            best = *it;
          }
        }
        if (!found) break;
        if (step == 0) step = best_step;
        used[best] = true;
        chain.push_back(best);
      }
      out.push_back(std::move(chain));
    }
    return out;
  }

  // Whether `member`, standing for kept link `kept`, may replace it (link_compact.hpp, "Runs").
  bool member_valid(const JumpLink& member, const JumpLink& kept, const JumpConfig& config) {
    const double q = quantum_;
    const std::array<std::pair<Vec3, Vec3>, 3> points = {std::pair{member.start, kept.start},
                                                         std::pair{member.land_a, kept.land_a},
                                                         std::pair{member.land_b, kept.land_b}};
    for (std::size_t p = 0; p < 3; ++p) {
      const auto [m, k] = points[p];
      const double tolerance = static_cast<double>(options_.run_tolerance) + 1e-9;
      if (std::abs(static_cast<double>(m.x) - k.x) > tolerance ||
          std::abs(static_cast<double>(m.y) - k.y) > tolerance ||
          std::abs(static_cast<double>(m.z) - k.z) > tolerance)
        return false;
      const std::uint32_t poly = p == 0 ? member.start_poly : member.land_poly;
      if (outside_distance(navmesh_, poly, m.x, m.z) >
          outside_distance(navmesh_, poly, k.x, k.z) + q)
        return false;
      const double y = surface_height(checker_, navmesh_, m.x, m.z, static_cast<double>(m.y) - 0.01,
                                      static_cast<double>(m.y) + 0.01);
      if (std::isnan(y) || m.y < y || m.y > y + 2.0 * q) return false;
    }
    return !checker_.check(member, config, false, scratch_).failed();
  }

  // Arranges the group's kept (checked, lattice) links into runs of exact translates and
  // appends them to out.links, runs consecutive.
  void make_runs(const std::vector<JumpLink>& kept, const JumpConfig& config, GroupOut& out) {
    std::vector<LatticeLink> k(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) k[i] = indices(kept[i]);
    std::vector<std::vector<std::uint32_t>> best = chains(k, 0);
    if (std::vector<std::vector<std::uint32_t>> along_z = chains(k, 2);
        along_z.size() < best.size())
      best = std::move(along_z);
    for (const std::vector<std::uint32_t>& chain : best) {
      std::size_t at = 0;
      while (at < chain.size()) {
        const LatticeLink& base = k[chain[at]];
        out.links.push_back(kept[chain[at]]);
        std::size_t members = 1;
        if (chain.size() - at >= 2) {
          const LatticeLink& last = k[chain.back()];
          const auto steps = static_cast<double>(chain.size() - 1 - at);
          std::array<std::int64_t, 3> t{};
          for (std::size_t c = 0; c < 3; ++c) {
            const double mean =
                static_cast<double>((last[c] - base[c]) + (last[c + 3] - base[c + 3]) +
                                    (last[c + 6] - base[c + 6])) /
                (3.0 * steps);
            t[c] = static_cast<std::int64_t>(std::llround(mean));
          }
          for (; at + members < chain.size(); ++members) {
            LatticeLink m = base;
            for (std::size_t c = 0; c < 9; ++c)
              m[c] += static_cast<std::int64_t>(members) * t[c % 3];
            const JumpLink& replaced = kept[chain[at + members]];
            // note: a member equal to the kept link it replaces was checked with it
            if (m == k[chain[at + members]]) {
              out.links.push_back(replaced);
              continue;
            }
            const JumpLink member = from_indices(m, replaced);
            ++out.links_checked;
            if (!member_valid(member, replaced, config)) {
              ++out.run_refused;
              break;
            }
            out.links.push_back(member);
          }
        }
        if (members >= 2) {
          ++out.runs;
          out.run_links += members;
        }
        at += members;
      }
    }
  }

  const JumpLinkSet& full_;
  const LinkChecker& checker_;
  const mesh::NavMesh& navmesh_;
  const LinkCompactOptions& options_;
  float quantum_;
  LinkChecker::Scratch scratch_;
  using Binned = std::pair<std::pair<std::int64_t, std::int64_t>, std::uint32_t>;
  [[nodiscard]] std::size_t cover_size(std::size_t i) const {
    return cover_first_[i + 1] - cover_first_[i];
  }

  std::vector<std::uint32_t> cover_first_;
  std::vector<std::uint32_t> cover_;
  std::vector<Binned> binned_;
};

}  // namespace

Result<CompactLinks> compact_links(const JumpLinkSet& full, const TriangleMesh& triangles,
                                   const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                   const LinkCompactOptions& options, BuildContext& ctx) {
  auto timer = ctx.scoped_timer("jump_compact");
  LEAPNAV_TRY(validate(options));
  const float quantum = lattice_quantum(options.quantum_shift);
  std::vector<Group> groups;
  for (std::size_t k = 0; k < full.links.size(); ++k) {
    const JumpLink& link = full.links[k];
    if (link.config >= full.configs.size()) {
      return make_error(ErrorCode::InvalidArgument, "jump links: link " + std::to_string(k) +
                                                        " names configuration " +
                                                        std::to_string(link.config) + " of " +
                                                        std::to_string(full.configs.size()));
    }
    for (const Vec3& p : {link.start, link.land_a, link.land_b}) {
      // note: x and z round up or down and the height is lifted (<= 1 cm) and rounded up,
      // hence the headroom
      for (const float v : {p.x, p.y - 0.02F, p.y + 0.02F, p.z}) {
        if (!lattice_index(v - quantum, quantum) || !lattice_index(v + quantum, quantum)) {
          return make_error(ErrorCode::InvalidArgument,
                            "jump links: link " + std::to_string(k) + " has coordinate " +
                                std::to_string(v) + " m, beyond the lattice of " +
                                std::to_string(quantum) + " m (|x| < 2^24 quanta)");
        }
      }
    }
    const bool new_group = k == 0 || full.links[k - 1].start_poly != link.start_poly ||
                           full.links[k - 1].land_poly != link.land_poly ||
                           full.links[k - 1].config != link.config;
    if (new_group) groups.push_back({static_cast<std::uint32_t>(k), 0});
    groups.back().last = static_cast<std::uint32_t>(k + 1);
  }

  const LinkChecker checker(triangles, navmesh, agent, options.check);
  std::vector<GroupOut> outs(groups.size());
  constexpr std::size_t kGrain = 16;
  parallel_for(ctx.threads(), 0, groups.size(), kGrain, [&](std::size_t b, std::size_t e) {
    if (ctx.cancelled()) return;
    Compactor compactor(full, checker, navmesh, options);
    for (std::size_t g = b; g < e; ++g) compactor.compact(groups[g], outs[g]);
  });
  LEAPNAV_TRY(ctx.check_cancel("jump links: compaction"));

  CompactLinks result;
  result.set.configs = full.configs;
  result.set.stats = full.stats;
  result.set.quantum = quantum;
  result.stats.links_in = full.links.size();
  result.stats.groups = groups.size();
  for (GroupOut& out : outs) {
    result.stats.lattice_failing += out.lattice_failing;
    result.stats.links_checked += out.links_checked;
    result.stats.runs += out.runs;
    result.stats.run_links += out.run_links;
    result.stats.run_refused += out.run_refused;
    if (out.lost) ++result.stats.groups_lost;
    result.set.links.insert(result.set.links.end(), out.links.begin(), out.links.end());
  }
  result.stats.links_out = result.set.links.size();
  index_links(result.set, navmesh.polygon_count());
  return result;
}

Status validate_compact(const JumpLinkSet& set, const mesh::NavMesh& navmesh) {
  LEAPNAV_TRY(validate(set, navmesh));
  const float q = set.quantum;
  int exponent = 0;
  if (!(q > 0.0F) || std::frexp(q, &exponent) != 0.5F || q < lattice_quantum(16) || q > 1.0F)
    return make_error(ErrorCode::Internal, "jump links: quantum " + std::to_string(q) +
                                               " m is not a power of two in [2^-16, 1]");
  for (std::size_t k = 0; k < set.links.size(); ++k) {
    const JumpLink& l = set.links[k];
    for (const Vec3& p : {l.start, l.land_a, l.land_b}) {
      for (const float v : {p.x, p.y, p.z}) {
        const auto index = lattice_index(v, q);
        if (!index || static_cast<float>(static_cast<double>(*index) * q) != v)
          return make_error(ErrorCode::Internal, "jump links: link " + std::to_string(k) +
                                                     " has coordinate " + std::to_string(v) +
                                                     " off the lattice of " + std::to_string(q) +
                                                     " m");
      }
    }
  }
  return {};
}

}  // namespace leapnav::jump
