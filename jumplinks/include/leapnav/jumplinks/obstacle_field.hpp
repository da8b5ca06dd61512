// The obstacle field (thesis §5.2, "dilated heightfield") for a cylinder agent: an open voxel is
// blocked when the agent's cylinder with its feet anywhere in that voxel would touch solid
// geometry. Solid spans grow downward by the agent height and sideways to every column whose
// cell comes closer than the agent radius. Unlike the thesis prototype (point agents), we build it.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::jump {

/// "This blocked span's top voxel is not a walkable voxel".
inline constexpr std::uint32_t kNoWalkableSpan = std::numeric_limits<std::uint32_t>::max();

/// A run [min, max) of blocked voxels in one column [units: cell heights]. When its top voxel is
/// a walkable floor (the top of a solid span with an open span of the compact heightfield right
/// above it, not covered by dilation), walkable_span is that compact span's flat index.
struct ObstacleSpan {
  std::uint16_t min = 0;
  std::uint16_t max = 0;
  std::uint32_t walkable_span = kNoWalkableSpan;
  friend bool operator==(const ObstacleSpan&, const ObstacleSpan&) = default;
};

/// Blocked voxels per column, CSR like voxel::Heightfield: column c = x + z * width owns
/// spans[column_first[c] .. column_first[c + 1]), sorted bottom to top, disjoint, not touching.
struct ObstacleField {
  GridSpec grid;
  int grow_down = 0;  ///< cells each solid span grows downward: ceil(agent height / ch)
  int reach = 0;      ///< largest column offset a solid span blocks sideways
  std::vector<std::uint32_t> column_first;  ///< size column_count() + 1
  std::vector<ObstacleSpan> spans;
  [[nodiscard]] std::uint32_t first(std::size_t column) const { return column_first[column]; }
  [[nodiscard]] std::uint32_t end(std::size_t column) const { return column_first[column + 1]; }
};

/// The blocked runs of every column as 8-bit planes, one grid row at a time, for testing many
/// columns of a row against height bands at once. Row r holds kPlanes planes of `stride` values;
/// position p (0 <= p < row length) of plane q is values[(r * kPlanes + q) * stride + p]. Planes:
/// lo0, hi0: the column's lowest run [lo, hi); lo1, hi1: its second run, or, when it has more than
/// two, the hull of all but the lowest (its approx bit then set: the hull also holds open voxels,
/// so a band meeting it must be checked against the bits). Voxel index v is stored as
/// encode(v) = v - kBias, exactly for v <= kMaxExact; a larger bound is stored as kClamped and
/// its column is approximate too (a band above kMaxExact meets it whenever it meets the rest of
/// the run). A missing run is (kNoRunLo, kNoRunHi), which no band meets. Positions from the row
/// length to stride - 1 hold no runs (padding for wide loads). Approx bits: bit p % 64 of
/// approx[r * approx_words + p / 64].
struct RunPlanes {
  using Value = std::int8_t;
  static constexpr int kPlanes = 4;
  enum Plane : int { kLo0 = 0, kHi0 = 1, kLo1 = 2, kHi1 = 3 };
  static constexpr int kBias = 127;
  /// The largest voxel index stored exactly (as 126); larger ones are stored as kClamped.
  static constexpr int kMaxExact = 253;
  static constexpr Value kClamped = 127;
  static constexpr Value kNoRunLo = 127;
  static constexpr Value kNoRunHi = -128;
  /// Positions past a row's end that a wide load may read.
  static constexpr int kPadding = 64;
  int stride = 0;
  int approx_words = 0;  ///< per row: covers stride positions and one word more
  std::vector<Value> values;
  std::vector<std::uint64_t> approx;
  /// The stored value of voxel index v >= 0 (kClamped above kMaxExact).
  [[nodiscard]] static constexpr Value encode(int v) {
    return v > kMaxExact ? kClamped : static_cast<Value>(v - kBias);
  }
  /// The voxel index of a value stored exactly.
  [[nodiscard]] static constexpr int decode(Value u) { return int{u} + kBias; }
  [[nodiscard]] const Value* row(int r) const {
    return values.data() + static_cast<std::size_t>(r) * kPlanes * static_cast<std::size_t>(stride);
  }
  [[nodiscard]] const std::uint64_t* approx_row(int r) const {
    return approx.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(approx_words);
  }
};

/// Which columns' bits build_obstacle_bits keeps.
enum class BitsKept : std::uint8_t {
  All,         ///< every column's
  ApproxOnly,  ///< with planes, only the columns whose planes are approximate (the planes hold
               ///< the others exactly); without planes, every column's
};

/// The blocked voxels of the obstacle field as bit rows: the words of column c = x + z * width,
/// bit k (of word k / 64) set when voxel k is blocked. With all_bits, column c owns
/// bits[c * words .. (c + 1) * words); else only the columns whose planes are approximate (approx
/// bit set in rows_x) have bits, in rows_x order (row by row, x ascending): the k-th of them at
/// bits[k * words ..].
struct ObstacleBits {
  GridSpec grid;
  int grow_down = 0;  ///< as ObstacleField::grow_down
  int reach = 0;      ///< as ObstacleField::reach
  int words = 0;      ///< 64-bit words per column (covering every solid span's top)
  bool all_bits = true;
  std::vector<std::uint64_t> bits;
  /// Without all_bits: per word of rows_x.approx, the number of kept columns before the word's
  /// first position (the kept columns are the approximate ones, in rows_x order), so a column's
  /// bits are found in constant time.
  std::vector<std::uint32_t> kept_before;
  /// The same runs as planes: rows along x (row z, position x) and along z (row x, position z).
  /// Present (non-empty) when every voxel index fits in 15 bits (words <= kMaxPlaneWords), so
  /// that the search's 16-bit band arithmetic holds them.
  RunPlanes rows_x;
  RunPlanes rows_z;
  static constexpr int kMaxPlaneWords = 511;
  [[nodiscard]] bool has_planes() const { return !rows_x.values.empty(); }
  /// The bits of column (x, z), or nullptr when they were not kept.
  [[nodiscard]] const std::uint64_t* column(int x, int z) const {
    const auto w = static_cast<std::size_t>(words);
    if (all_bits) return bits.data() + grid.column_index(x, z) * w;
    const std::size_t at =
        static_cast<std::size_t>(z) * static_cast<std::size_t>(rows_x.approx_words) +
        static_cast<std::size_t>(x) / 64;
    const std::uint64_t flags = rows_x.approx[at];
    const auto bit = static_cast<unsigned>(x) % 64;
    if (((flags >> bit) & 1U) == 0) return nullptr;
    const auto before =
        static_cast<std::size_t>(std::popcount(flags & ((std::uint64_t{1} << bit) - 1)));
    return bits.data() + (kept_before[at] + before) * w;
  }
  /// The bits of column c = x + z * width, or nullptr when they were not kept.
  [[nodiscard]] const std::uint64_t* column(std::size_t c) const {
    const auto width = static_cast<std::size_t>(grid.width);
    return column(static_cast<int>(c % width), static_cast<int>(c / width));
  }
};

/// The obstacle field's blocked voxels as bits (what build_obstacle_field reads back as runs),
/// from the solid heightfield alone. Errors when the agent is invalid or the memory limit would be
/// exceeded; ErrorCode::Cancelled when ctx is cancelled before or during it. Timer: jump_obstacles.
[[nodiscard]] Result<ObstacleBits> build_obstacle_bits(const voxel::Heightfield& solid,
                                                       const AgentConfig& agent, BuildContext& ctx,
                                                       BitsKept kept = BitsKept::All);

/// The per-column content of an obstacle field over a rectangle of world columns: what a field
/// assembled from pieces copies (tiled link builds, tile_voxels.hpp). Plane values in both
/// orientations (as RunPlanes, without padding: rows_x[(z * kPlanes + q) * width + x], rows_z[(x *
/// kPlanes + q) * depth + z], x and z relative to (x0, z0)), the approx flag per column (row-major)
/// and, for approximate columns, their bits (`words` a column).
struct ObstacleColumns {
  int x0 = 0;  ///< first world column
  int z0 = 0;
  int width = 0;
  int depth = 0;
  int words = 0;
  std::vector<RunPlanes::Value> rows_x;
  std::vector<RunPlanes::Value> rows_z;
  std::vector<std::uint8_t> approx;
  std::vector<std::uint32_t> bits_at;  ///< per column: its first word in bits, or kNoBits
  std::vector<std::uint64_t> bits;
  static constexpr std::uint32_t kNoBits = std::numeric_limits<std::uint32_t>::max();
};

/// Columns [x0, x1) x [z0, z1) of `field` (any BitsKept; with or without planes), which holds
/// columns from world column (origin_x, origin_z) on. Empty columns (no geometry) when `field` is
/// null.
[[nodiscard]] ObstacleColumns obstacle_columns(const ObstacleBits* field, int origin_x,
                                               int origin_z, int x0, int z0, int x1, int z1);

/// The rectangle that holds world column (x, z) of an assembled field.
using ObstacleSource = std::function<const ObstacleColumns*(int, int)>;

/// The field build_obstacle_bits(solid, agent, ctx, BitsKept::ApproxOnly) gives, with every
/// column's content copied from `source` instead of dilating `solid` (whose grid and tallest span
/// still fix the field's grid and words; its first column is world column (origin_x, origin_z)):
/// equal to it in every column whose blocking neighbourhood the source columns were built with.
/// Without planes (a field taller than kMaxPlaneWords words) it is build_obstacle_bits itself.
/// Timer: jump_obstacles.
[[nodiscard]] Result<ObstacleBits> assemble_obstacle_bits(const voxel::Heightfield& solid,
                                                          int origin_x, int origin_z,
                                                          const AgentConfig& agent,
                                                          const ObstacleSource& source,
                                                          BuildContext& ctx);

/// Builds the obstacle field from the solid heightfield; `open` (the compact heightfield built
/// from it) tells which span tops are walkable floors. Column offsets (dx, dz) are blocked when the
/// two cells' closest points are nearer than agent.radius: cs² (max(|dx|-1,0)² + max(|dz|-1,0)²)
/// < radius². Errors when the grids differ or the agent is invalid.
[[nodiscard]] Result<ObstacleField> build_obstacle_field(const voxel::Heightfield& solid,
                                                         const voxel::CompactHeightfield& open,
                                                         const AgentConfig& agent,
                                                         BuildContext& ctx);

/// Invariants of the bits and planes: array sizes, and every column's planes (both orientations)
/// equal to the runs its bits hold (first run, second run or hull of the rest, approx flag,
/// padding without runs).
[[nodiscard]] Status validate(const ObstacleBits& field);

/// Structural invariants: CSR sizes, spans sorted, disjoint and not touching, walkable spans in
/// range and sitting at the span's top.
[[nodiscard]] Status validate(const ObstacleField& field, const voxel::CompactHeightfield& open);

}  // namespace leapnav::jump
