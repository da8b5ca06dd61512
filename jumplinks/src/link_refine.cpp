// Link refinement (link_refine.hpp): endpoints lifted to the triangles' surface, the exact check
// per link, and bisection of failing land segments into passing pieces. Links run in parallel in
// fixed chunks whose outputs are joined in chunk order, so the result does not depend on the
// thread count.
#include "leapnav/jumplinks/link_refine.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "leapnav/core/parallel.hpp"

namespace leapnav::jump {

double surface_height(const LinkChecker& checker, const mesh::NavMesh& navmesh, double x, double z,
                      double voxel_lo, double voxel_hi) {
  const GridSpec& grid = navmesh.grid;
  const double slope_deg = std::clamp<double>(navmesh.config.agent.max_slope_deg, 0.0, 89.0);
  const double drop = grid.cell_height + grid.cell_size * std::numbers::sqrt2 *
                                             std::tan(slope_deg * std::numbers::pi / 180.0);
  return checker.surface_height(x, z, voxel_lo - drop - 1e-3, voxel_hi + 1e-3);
}

namespace {

struct ChunkOut {
  std::vector<JumpLink> links;
  LinkRefineStats stats;
};

// An endpoint with the voxel heights it came from.
struct End {
  Vec3 point;  // lifted
  double voxel_lo = 0.0;
  double voxel_hi = 0.0;
  int standing = 0;  // 0 not yet tested, -1 the landing pose here fails (standing_fails), 1 not
};

class Refiner {
 public:
  Refiner(const LinkChecker& checker, const mesh::NavMesh& navmesh,
          const LinkRefineOptions& options)
      : checker_(checker), navmesh_(navmesh), options_(options) {}

  // The point lifted to the surface; false (point unchanged) when no triangle is in reach.
  bool lift(Vec3& p, double voxel_lo, double voxel_hi) const {
    const double y = surface_height(checker_, navmesh_, p.x, p.z, voxel_lo, voxel_hi);
    if (std::isnan(y)) return false;
    p.y = static_cast<float>(y);
    return true;
  }

  void refine(const JumpLink& voxel_link, const JumpConfig& config, ChunkOut& out) {
    ++out.stats.links_in;
    JumpLink link = voxel_link;
    for (Vec3* p : {&link.start, &link.land_a, &link.land_b}) {
      if (!lift(*p, p->y, p->y)) ++out.stats.surface_misses;
    }
    if (!checker_.check(link, config, false, scratch_).failed()) {
      out.links.push_back(link);
      ++out.stats.links_out;
      return;
    }
    ++out.stats.links_failing;
    // note: when the start pose fails every piece fails (same start), so the bisection would
    // emit nothing
    if (checker_.standing_fails(link.start)) {
      ++out.stats.links_dropped;
      return;
    }
    const std::size_t before = out.links.size();
    End a{link.land_a, voxel_link.land_a.y, voxel_link.land_a.y};
    End b{link.land_b, voxel_link.land_b.y, voxel_link.land_b.y};
    pieces(link, config, a, b, out);
    const std::size_t kept = out.links.size() - before;
    out.stats.links_out += kept;
    if (kept == 0)
      ++out.stats.links_dropped;
    else
      ++out.stats.links_shortened;
  }

 private:
  // The failing piece a-b bisected: its halves checked, passing ones emitted in segment order.
  void pieces(const JumpLink& link, const JumpConfig& config, End& a, End& b, ChunkOut& out) {
    const double len = std::hypot(static_cast<double>(b.point.x) - a.point.x,
                                  static_cast<double>(b.point.z) - a.point.z);
    if (len <= options_.min_piece) return;
    End mid;
    mid.point = (a.point + b.point) * 0.5F;
    mid.voxel_lo = std::min(a.voxel_lo, b.voxel_lo);
    mid.voxel_hi = std::max(a.voxel_hi, b.voxel_hi);
    lift(mid.point, mid.voxel_lo, mid.voxel_hi);
    half(link, config, a, mid, out);
    half(link, config, mid, b, out);
  }

  // Whether the landing pose at e fails (then so does every piece ending at e), tested once.
  bool standing_fails(End& e) const {
    if (e.standing == 0) e.standing = checker_.standing_fails(e.point) ? -1 : 1;
    return e.standing < 0;
  }

  void half(const JumpLink& link, const JumpConfig& config, End& a, End& b, ChunkOut& out) {
    JumpLink piece = link;
    piece.land_a = a.point;
    piece.land_b = b.point;
    // note: a piece with a failing landing pose at an end fails check(), so it is split without
    // running the check (the same pieces result)
    if (!standing_fails(a) && !standing_fails(b) &&
        !checker_.check(piece, config, false, scratch_).failed())
      out.links.push_back(piece);
    else
      pieces(link, config, a, b, out);
  }

  const LinkChecker& checker_;
  const mesh::NavMesh& navmesh_;
  const LinkRefineOptions& options_;
  LinkChecker::Scratch scratch_;
};

}  // namespace

Result<LinkRefineStats> refine_links(JumpLinkSet& set, const TriangleMesh& triangles,
                                     const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                     const LinkRefineOptions& options, BuildContext& ctx) {
  auto timer = ctx.scoped_timer("jump_refine");
  for (const JumpLink& link : set.links) {
    if (link.config >= set.configs.size()) {
      return make_error(ErrorCode::InvalidArgument, "jump links: a link names configuration " +
                                                        std::to_string(link.config) + " of " +
                                                        std::to_string(set.configs.size()));
    }
  }
  const LinkChecker checker(triangles, navmesh, agent, options.check);
  constexpr std::size_t kGrain = 64;
  const std::size_t n = set.links.size();
  std::vector<ChunkOut> chunks(chunk_count(0, n, kGrain));
  parallel_for(ctx.threads(), 0, n, kGrain, [&](std::size_t b, std::size_t e) {
    if (ctx.cancelled()) return;
    ChunkOut& out = chunks[b / kGrain];
    Refiner refiner(checker, navmesh, options);
    for (std::size_t k = b; k < e; ++k) {
      const JumpLink& link = set.links[k];
      refiner.refine(link, set.configs[link.config], out);
    }
  });
  LEAPNAV_TRY(ctx.check_cancel("jump links: refinement"));
  LinkRefineStats stats;
  std::vector<JumpLink> links;
  for (ChunkOut& chunk : chunks) {
    stats.links_in += chunk.stats.links_in;
    stats.surface_misses += chunk.stats.surface_misses;
    stats.links_failing += chunk.stats.links_failing;
    stats.links_shortened += chunk.stats.links_shortened;
    stats.links_dropped += chunk.stats.links_dropped;
    stats.links_out += chunk.stats.links_out;
    links.insert(links.end(), chunk.links.begin(), chunk.links.end());
  }
  set.links = std::move(links);
  index_links(set, navmesh.polygon_count());
  set.stats.surface_misses += stats.surface_misses;
  set.stats.links_failing += stats.links_failing;
  set.stats.links_shortened += stats.links_shortened;
  set.stats.links_dropped += stats.links_dropped;
  return stats;
}

}  // namespace leapnav::jump
