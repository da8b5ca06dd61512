// Compact link sets (link_compact.hpp): per (start polygon, land polygon, configuration) a greedy
// set cover under the detour bound, the kept links put on the power-of-two lattice and checked
// exactly there; a link failing on the lattice is excluded and its cover recomputed. Covers run
// in parallel over fixed chunks of groups into per-group slots, so the output does not depend on
// the thread count.
#include "leapnav/jumplinks/link_compact.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
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
  return {};
}

float lattice_quantum(int shift) {
  return std::ldexp(1.0F, -shift);
}

std::optional<std::int32_t> lattice_index(float v, float quantum) {
  const double k = std::nearbyint(static_cast<double>(v) / static_cast<double>(quantum));
  if (!std::isfinite(k) || std::abs(k) >= 16777216.0) return std::nullopt;
  return static_cast<std::int32_t>(k);
}

namespace {

double xz_distance(Vec3 a, Vec3 b) {
  return std::hypot(static_cast<double>(a.x) - b.x, static_cast<double>(a.z) - b.z);
}

// The xz distance from p to the segment a-b.
double segment_distance(Vec3 p, Vec3 a, Vec3 b) {
  const double dx = static_cast<double>(b.x) - a.x;
  const double dz = static_cast<double>(b.z) - a.z;
  const double len2 = dx * dx + dz * dz;
  double u = 0.0;
  if (len2 > 0.0)
    u = std::clamp(
        ((static_cast<double>(p.x) - a.x) * dx + (static_cast<double>(p.z) - a.z) * dz) / len2, 0.0,
        1.0);
  return std::hypot(static_cast<double>(p.x) - (a.x + u * dx),
                    static_cast<double>(p.z) - (a.z + u * dz));
}

// The detour of replacing `dropped` by `kept` (link_compact.hpp, the cover).
double detour(const JumpLink& dropped, const JumpLink& kept) {
  return xz_distance(dropped.start, kept.start) +
         std::max(segment_distance(dropped.land_a, kept.land_a, kept.land_b),
                  segment_distance(dropped.land_b, kept.land_a, kept.land_b));
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
  bool lost = false;
};

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
      for (const std::uint32_t k : kept) out.links.push_back(lattice[k]);
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
            if (j == i || detour(links[j], links[i]) <= radius) cover_.push_back(j);
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
