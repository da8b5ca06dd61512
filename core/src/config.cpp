// Named configurations, range validation and the world → voxel unit conversion.
#include "leapnav/core/config.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace leapnav {
namespace {

// note: world values are floats whose ratios land a hair off integers (2.0 / 0.2); a small
// tolerance keeps "exactly 10 cells" at 10 when rounding up and down.
constexpr double kRoundTolerance = 1e-4;

int ceil_cells(double value) {
  return static_cast<int>(std::ceil(value - kRoundTolerance));
}
int floor_cells(double value) {
  return static_cast<int>(std::floor(value + kRoundTolerance));
}

BuildConfig from_cells(std::string name, float cs, float ch, AgentConfig agent) {
  BuildConfig config;
  config.name = std::move(name);
  config.voxel = {cs, ch};
  config.agent = agent;
  config.region.min_region_area = 8.0F * 8.0F * cs * cs;
  config.region.merge_region_area = 20.0F * 20.0F * cs * cs;
  config.poly.max_edge_len = 12.0F;
  config.poly.max_edge_error = 1.3F * cs;
  config.poly.max_verts_per_poly = 6;
  config.poly.detail_sample_dist = 6.0F * cs;
  config.poly.detail_max_error = 1.0F * ch;
  return config;
}

Status out_of_range(std::string_view field, double value, const std::string& range) {
  return make_error(ErrorCode::InvalidArgument, "config: " + std::string(field) + " = " +
                                                    std::to_string(value) + " is out of range (" +
                                                    range + ")");
}

}  // namespace

std::string_view to_string(AgentShape shape) noexcept {
  return shape == AgentShape::Box ? "box" : "cylinder";
}

Result<AgentShape> parse_agent_shape(std::string_view text) {
  if (text == "cylinder") return AgentShape::Cylinder;
  if (text == "box") return AgentShape::Box;
  return make_error(ErrorCode::InvalidArgument, "config: agent.shape = '" + std::string(text) +
                                                    "' is not a shape (known: cylinder, box)");
}

std::vector<std::string_view> named_config_names() {
  return {"default", "thesis"};
}

Result<BuildConfig> named_config(std::string_view name) {
  if (name == "default")
    return from_cells("default", 0.3F, 0.2F, AgentConfig{2.0F, 0.6F, 0.9F, 45.0F});
  if (name == "thesis")
    return from_cells("thesis", 0.25F, 0.25F, AgentConfig{1.8F, 0.25F, 0.9F, 45.0F});
  return make_error(ErrorCode::InvalidArgument,
                    "unknown configuration '" + std::string(name) + "' (known: default, thesis)");
}

Status validate(const BuildConfig& c) {
  const auto finite_in = [](double v, double lo, double hi) {
    return std::isfinite(v) && v >= lo && v <= hi;
  };
  if (!finite_in(c.voxel.cell_size, 0.001, 100.0))
    return out_of_range("voxel.cell_size", c.voxel.cell_size, "0.001..100 m");
  if (!finite_in(c.voxel.cell_height, 0.001, 100.0))
    return out_of_range("voxel.cell_height", c.voxel.cell_height, "0.001..100 m");
  if (!finite_in(c.agent.height, 1e-6, 1e4) || c.agent.height <= 0)
    return out_of_range("agent.height", c.agent.height, "> 0 m");
  if (!finite_in(c.agent.radius, 0.0, 1e4))
    return out_of_range("agent.radius", c.agent.radius, ">= 0 m");
  if (!finite_in(c.agent.max_climb, 0.0, 1e4))
    return out_of_range("agent.max_climb", c.agent.max_climb, ">= 0 m");
  if (!(std::isfinite(c.agent.max_slope_deg) && c.agent.max_slope_deg >= 0.0F &&
        c.agent.max_slope_deg < 90.0F))
    return out_of_range("agent.max_slope_deg", c.agent.max_slope_deg, "0..90 deg, 90 excluded");
  if (!finite_in(c.agent.max_jump_up, 0.0, 1e4))
    return out_of_range("agent.max_jump_up", c.agent.max_jump_up, "0..10000 m");
  if (!finite_in(c.agent.max_drop, 0.0, 1e4))
    return out_of_range("agent.max_drop", c.agent.max_drop, "0..10000 m");
  if (!(std::isfinite(c.agent.crouch_height) &&
        (c.agent.crouch_height == 0.0F ||
         (c.agent.crouch_height > 0.0F && c.agent.crouch_height < c.agent.height))))
    return out_of_range("agent.crouch_height", c.agent.crouch_height,
                        "0 = no crouching, or > 0 m and below agent.height");
  if (c.agent.shape != AgentShape::Cylinder && c.agent.shape != AgentShape::Box)
    return make_error(ErrorCode::InvalidArgument,
                      "config: agent.shape = " + std::to_string(static_cast<int>(c.agent.shape)) +
                          " is not a shape (known: cylinder, box)");
  if (!finite_in(c.region.min_region_area, 0.0, 1e12))
    return out_of_range("region.min_region_area", c.region.min_region_area, ">= 0 m2");
  if (!finite_in(c.region.merge_region_area, 0.0, 1e12))
    return out_of_range("region.merge_region_area", c.region.merge_region_area, ">= 0 m2");
  if (!finite_in(c.poly.max_edge_len, 0.0, 1e6))
    return out_of_range("poly.max_edge_len", c.poly.max_edge_len, ">= 0 m");
  if (!finite_in(c.poly.max_edge_error, 0.0, 1e6))
    return out_of_range("poly.max_edge_error", c.poly.max_edge_error, ">= 0 m");
  if (c.poly.max_verts_per_poly < 3 || c.poly.max_verts_per_poly > kMaxVertsPerPolyLimit)
    return out_of_range("poly.max_verts_per_poly", c.poly.max_verts_per_poly, "3..12");
  if (!finite_in(c.poly.detail_sample_dist, 0.0, 1e6) ||
      (c.poly.detail_sample_dist > 0.0F && c.poly.detail_sample_dist < c.voxel.cell_size))
    return out_of_range("poly.detail_sample_dist", c.poly.detail_sample_dist,
                        "0, or >= voxel.cell_size m");
  if (!finite_in(c.poly.detail_max_error, 0.0, 1e6))
    return out_of_range("poly.detail_max_error", c.poly.detail_max_error, ">= 0 m");
  // note: every value derive_voxel_params turns into an int cell count is checked here, in
  // double precision, before the conversion (an out-of-range float -> int conversion is undefined
  // behaviour; in Release it silently gave 0, so a huge min_region_area removed nothing).
  const double cell_area = static_cast<double>(c.voxel.cell_size) * c.voxel.cell_size;
  if (static_cast<double>(c.region.min_region_area) / cell_area > kMaxRegionAreaCells)
    return out_of_range("region.min_region_area", c.region.min_region_area,
                        "at most " + std::to_string(kMaxRegionAreaCells) + " cells of " +
                            std::to_string(c.voxel.cell_size) + " m");
  if (static_cast<double>(c.region.merge_region_area) / cell_area > kMaxRegionAreaCells)
    return out_of_range("region.merge_region_area", c.region.merge_region_area,
                        "at most " + std::to_string(kMaxRegionAreaCells) + " cells of " +
                            std::to_string(c.voxel.cell_size) + " m");
  const VoxelParams p = derive_voxel_params(c);
  if (p.standing_height > kMaxWalkableCells)
    return out_of_range("agent.height", c.agent.height, "at most 255 cell heights");
  if (p.walkable_climb > kMaxWalkableCells)
    return out_of_range("agent.max_climb", c.agent.max_climb, "at most 255 cell heights");
  if (p.walkable_radius > kMaxWalkableCells)
    return out_of_range("agent.radius", c.agent.radius, "at most 255 cells");
  return {};
}

VoxelParams derive_voxel_params(const BuildConfig& c) {
  const double cs = c.voxel.cell_size;
  const double ch = c.voxel.cell_height;
  VoxelParams p;
  p.cell_size = c.voxel.cell_size;
  p.cell_height = c.voxel.cell_height;
  p.standing_height = std::max(1, ceil_cells(c.agent.height / ch));
  p.walkable_height =
      c.agent.crouch_height > 0.0F
          ? std::min(p.standing_height, std::max(1, ceil_cells(c.agent.crouch_height / ch)))
          : p.standing_height;
  p.walkable_climb = std::max(0, floor_cells(c.agent.max_climb / ch));
  p.walkable_radius = std::max(0, ceil_cells(c.agent.radius / cs));
  p.shape = c.agent.shape;
  p.walkable_slope_cos = static_cast<float>(
      std::cos(static_cast<double>(c.agent.max_slope_deg) * std::numbers::pi / 180.0));
  p.min_region_cells = std::max(0, ceil_cells(c.region.min_region_area / (cs * cs)));
  p.merge_region_cells = std::max(0, ceil_cells(c.region.merge_region_area / (cs * cs)));
  p.max_edge_len_cells = std::max(0, floor_cells(c.poly.max_edge_len / cs));
  p.max_edge_error_cells = static_cast<float>(c.poly.max_edge_error / cs);
  p.max_verts_per_poly = c.poly.max_verts_per_poly;
  p.detail_sample_dist = c.poly.detail_sample_dist;
  p.detail_max_error = c.poly.detail_max_error;
  return p;
}

}  // namespace leapnav
