// Ledge and ladder links merged into a jump link set (ledge_planner.hpp).
#include "leapnav/planning/ledge_planner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace leapnav::plan {
namespace {

constexpr std::size_t kMaxSamples = 16;

Vec3 lerp(Vec3 a, Vec3 b, double t) {
  return {static_cast<float>(a.x + t * (static_cast<double>(b.x) - a.x)),
          static_cast<float>(a.y + t * (static_cast<double>(b.y) - a.y)),
          static_cast<float>(a.z + t * (static_cast<double>(b.z) - a.z))};
}

}  // namespace

SegmentKind segment_kind(ledge::LedgeKind kind) {
  switch (kind) {
    case ledge::LedgeKind::Walk:
      return SegmentKind::Walk;
    case ledge::LedgeKind::StepUp:
      return SegmentKind::StepUp;
    case ledge::LedgeKind::StepDown:
      return SegmentKind::StepDown;
    case ledge::LedgeKind::JumpUp:
      return SegmentKind::JumpUp;
    case ledge::LedgeKind::Drop:
      return SegmentKind::Drop;
    case ledge::LedgeKind::Ladder:
      return SegmentKind::Ladder;
  }
  return SegmentKind::Walk;
}

MergedLinks merge_links(const jump::JumpLinkSet* jumps, const ledge::LedgeLinkSet& ledges,
                        std::size_t polygon_count, float spacing) {
  MergedLinks out;
  jump::JumpLinkSet& set = out.links;
  if (jumps != nullptr) {
    set.configs = jumps->configs;
    set.links = jumps->links;
  }
  out.extras.config_kind.assign(set.configs.size(), SegmentKind::Jump);
  const auto base = static_cast<std::uint16_t>(set.configs.size());
  for (int k = 0; k < ledge::kLedgeKindCount; ++k) {
    set.configs.push_back({1.0F, 1.0F, 1.0F});
    out.extras.config_kind.push_back(segment_kind(static_cast<ledge::LedgeKind>(k)));
  }
  out.extras.link_cost.assign(set.links.size(), std::numeric_limits<float>::quiet_NaN());
  for (const ledge::LedgeLink& l : ledges.links) {
    const double length = distance(xz(l.source_a), xz(l.source_b));
    const std::size_t pieces =
        l.kind == ledge::LedgeKind::Ladder || !(length > 0.0)
            ? 0
            : std::min(kMaxSamples,
                       static_cast<std::size_t>(std::ceil(length / std::max(spacing, 1e-3F))));
    for (std::size_t i = 0; i <= pieces; ++i) {
      const double t = pieces == 0 ? 0.0 : static_cast<double>(i) / static_cast<double>(pieces);
      jump::JumpLink link;
      link.start = lerp(l.source_a, l.source_b, t);
      link.land_a = lerp(l.dest_a, l.dest_b, t);
      link.land_b = link.land_a;
      link.config = static_cast<std::uint16_t>(base + static_cast<int>(l.kind));
      link.start_poly = l.source_poly;
      link.land_poly = l.dest_poly;
      set.links.push_back(link);
      out.extras.link_cost.push_back(l.cost);
    }
  }
  // note: index_links sorts stably by (start_poly, land_poly, config); the costs follow the
  // same permutation
  std::vector<std::uint32_t> order(set.links.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const jump::JumpLink& x = set.links[a];
    const jump::JumpLink& y = set.links[b];
    return std::tie(x.start_poly, x.land_poly, x.config) <
           std::tie(y.start_poly, y.land_poly, y.config);
  });
  std::vector<jump::JumpLink> links(order.size());
  std::vector<float> costs(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    links[i] = set.links[order[i]];
    costs[i] = out.extras.link_cost[order[i]];
  }
  set.links = std::move(links);
  out.extras.link_cost = std::move(costs);
  jump::index_links(set, polygon_count);
  return out;
}

Result<Planner> create_planner(std::shared_ptr<const mesh::NavMesh> mesh,
                               const jump::JumpLinkSet* jumps, const ledge::LedgeLinkSet* ledges) {
  if (mesh == nullptr)
    return make_error(ErrorCode::InvalidArgument, "create_planner: the mesh is null");
  if (ledges == nullptr || ledges->links.empty()) {
    return Planner::create(
        std::move(mesh),
        jumps == nullptr ? nullptr : std::make_shared<const jump::JumpLinkSet>(*jumps));
  }
  if (const Status valid = ledge::validate(*ledges, *mesh); !valid) {
    return make_error(ErrorCode::InvalidArgument,
                      "create_planner: invalid ledge links (" + valid.error().message + ")");
  }
  const float spacing = std::max(mesh->grid.cell_size, 0.25F);
  MergedLinks merged = merge_links(jumps, *ledges, mesh->polygon_count(), spacing);
  return Planner::create(std::move(mesh),
                         std::make_shared<const jump::JumpLinkSet>(std::move(merged.links)),
                         std::move(merged.extras));
}

}  // namespace leapnav::plan
