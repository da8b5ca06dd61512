// Build configuration in world units (metres, degrees, square metres), one aggregate per stage,
// and the single function that derives voxel units from it. Conversions round conservatively:
// clearance and radius up, climb down.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"

namespace leapnav {

/// The agent's footprint: how the walkable area is eroded by agent.radius.
enum class AgentShape : std::uint8_t {
  Cylinder,  ///< an upright cylinder: round erosion (chamfer distance, as Recast)
  Box,       ///< an axis-aligned box of half-width radius: square (Chebyshev) erosion
};

/// "cylinder" or "box".
[[nodiscard]] std::string_view to_string(AgentShape shape) noexcept;
/// The shape named "cylinder" or "box"; InvalidArgument naming the text otherwise.
[[nodiscard]] Result<AgentShape> parse_agent_shape(std::string_view text);

/// The agent the navmesh is built for.
struct AgentConfig {
  float height = 2.0F;          ///< standing height [units: m] [range: > 0]
  float radius = 0.6F;          ///< cylinder radius [units: m] [range: >= 0]
  float max_climb = 0.9F;       ///< largest step up or down while walking [units: m] [range: >= 0]
  float max_slope_deg = 45.0F;  ///< steepest walkable slope [units: deg] [range: 0..90)
  /// Highest ledge a ledge link climbs (jump-up links, above max_climb) [units: m] [range: 0..1e4]
  float max_jump_up = 1.0F;
  /// Deepest drop of a drop link (below a ledge, above max_climb) [units: m] [range: 0..1e4]
  float max_drop = 2.5F;
  /// Crouching height: spans whose clearance lies in [crouch_height, height) are walkable as
  /// crouch areas; 0 = the agent does not crouch [units: m] [range: 0, or 0 < x < height]
  float crouch_height = 0.0F;
  AgentShape shape = AgentShape::Cylinder;  ///< footprint, for the erosion by radius
  friend bool operator==(const AgentConfig&, const AgentConfig&) = default;
};

/// The voxel grid.
struct VoxelConfig {
  float cell_size = 0.3F;    ///< horizontal (x, z) cell size [units: m] [range: 0.001..100]
  float cell_height = 0.2F;  ///< vertical cell size [units: m] [range: 0.001..100]
  friend bool operator==(const VoxelConfig&, const VoxelConfig&) = default;
};

/// Watershed region filtering.
struct RegionConfig {
  float min_region_area =
      5.76F;  ///< islands smaller than this are dropped [units: m²] [range: 0..2^31-1 cells]
  float merge_region_area = 36.0F;  ///< regions smaller than this merge into a neighbour [units:
                                    ///< m²] [range: 0..2^31-1 cells]
  friend bool operator==(const RegionConfig&, const RegionConfig&) = default;
};

/// Contours, polygons and heights.
struct PolyConfig {
  float max_edge_len =
      12.0F;  ///< border edges longer than this are split; 0 = never [units: m] [range: >= 0]
  float max_edge_error = 0.39F;     ///< contour simplification tolerance [units: m] [range: >= 0]
  int max_verts_per_poly = 6;       ///< [range: 3..12]
  float detail_sample_dist = 1.8F;  ///< height sample spacing [units: m] [range: 0 or >= cell_size]
  float detail_max_error = 0.2F;    ///< allowed height error of height_at [units: m] [range: >= 0]
  friend bool operator==(const PolyConfig&, const PolyConfig&) = default;
};

/// Everything a navmesh build needs besides the triangles.
struct BuildConfig {
  std::string name = "default";  ///< informational: the named configuration this came from
  VoxelConfig voxel;
  AgentConfig agent;
  RegionConfig region;
  PolyConfig poly;
  friend bool operator==(const BuildConfig&, const BuildConfig&) = default;
};

/// Largest agent height, climb or radius in voxel units (connections store 8-bit values).
inline constexpr int kMaxWalkableCells = 255;

/// Largest region area in cells (region.min_region_area and merge_region_area divided by the
/// cell area): the cell counts are ints, and a region of 2^31 cells is far past any grid that
/// fits the memory limit.
inline constexpr int kMaxRegionAreaCells = 2'147'483'647;

/// Largest number of vertices a polygon may have.
inline constexpr int kMaxVertsPerPolyLimit = 12;

/// The names accepted by named_config(): "default" and "thesis".
[[nodiscard]] std::vector<std::string_view> named_config_names();

/// A named configuration: "default" (Recast demo defaults) or "thesis"
/// (van de Kerkhof §8.1). Cell-denominated defaults (region 8²/20² cells, edge error 1.3 cells,
/// detail 6 cells / 1 cell height) are converted to world units with that config's cell sizes.
[[nodiscard]] Result<BuildConfig> named_config(std::string_view name);

/// Checks every field against its documented range; the message names the field.
[[nodiscard]] Status validate(const BuildConfig& config);

/// The configuration in voxel units, derived in exactly one place.
struct VoxelParams {
  float cell_size = 0.0F;
  float cell_height = 0.0F;
  /// The clearance a span needs to be walkable in any posture: the crouching height when the
  /// agent crouches, else the agent height; in cells, rounded up [units: cell heights]
  int walkable_height = 0;
  /// The agent's standing height in cells, rounded up; spans with clearance in
  /// [walkable_height, standing_height) are crouch areas [units: cell heights]
  int standing_height = 0;
  int walkable_climb = 0;   ///< max climb in cells, rounded down [units: cell heights]
  int walkable_radius = 0;  ///< agent radius in cells, rounded up [units: cells]
  AgentShape shape = AgentShape::Cylinder;  ///< round or square erosion
  float walkable_slope_cos = 0;    ///< cos(max slope): a triangle is walkable when normal.y >= this
  int min_region_cells = 0;        ///< min_region_area in cells, rounded up
  int merge_region_cells = 0;      ///< merge_region_area in cells, rounded up
  int max_edge_len_cells = 0;      ///< max_edge_len in cells, rounded down (0 = no splitting)
  float max_edge_error_cells = 0;  ///< max_edge_error in cells
  int max_verts_per_poly = 0;
  float detail_sample_dist = 0;  ///< [units: m]
  float detail_max_error = 0;    ///< [units: m]
};

/// Converts a validated configuration to voxel units.
[[nodiscard]] VoxelParams derive_voxel_params(const BuildConfig& config);

}  // namespace leapnav
