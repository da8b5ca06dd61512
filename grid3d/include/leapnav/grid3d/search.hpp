// Shortest paths for a point agent on the occupancy grid (Ranttila 2019; spec C1-A, C1-J, C1-S,
// C1-O1..O3): 26-connected moves costing 1, sqrt 2, sqrt 3; the 3-D octile heuristic; A* with an
// open list that pops as one heap would (open_list.hpp) and one closed entry per voxel; JPS-3D
// (canonical forced neighbours, jump recursion with straight then 2-axis sub-sweeps); the P variant
// skips the forced test on voxels whose 26 neighbours are all free (an exact bit per voxel, a 3x3x3
// erosion of the free set), the D variant stops a top-level jump after K steps, PD does both. Every
// variant returns an optimal path (tests: against Dijkstra on random grids).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/grid3d/neighbourhood.hpp"
#include "leapnav/grid3d/occupancy.hpp"
#include "leapnav/grid3d/open_list.hpp"

namespace leapnav::grid3d {

enum class Algorithm : std::uint8_t {
  AStar,  ///< A* over every voxel
  Jps,    ///< JPS-3D
  JpsP,   ///< JPS-3D with the exact free bit (C1-O1)
  JpsD,   ///< JPS-3D with the depth limit K (C1-O2)
  JpsPD,  ///< both (C1-O3)
};
/// "astar", "jps", "jps-p", "jps-d", "jps-pd".
[[nodiscard]] std::string_view to_string(Algorithm algorithm) noexcept;
/// Parses the names above; the error lists them.
[[nodiscard]] Result<Algorithm> parse_algorithm(std::string_view name);
/// "cut", "nocut".
[[nodiscard]] std::string_view to_string(CornerRule rule) noexcept;
[[nodiscard]] Result<CornerRule> parse_corner_rule(std::string_view name);

struct SearchConfig {
  Algorithm algorithm = Algorithm::JpsPD;
  CornerRule corners = CornerRule::Cut;
  int depth = 32;  ///< K of the D variants [units: steps] [range: 1..1000000]
  /// D variants: when true (the default), every step of a jump's sub-sweeps also spends the
  /// budget of K (the thesis's Figure 31 counter, which the spec accepts as an alternative to
  /// C1-O2); when it runs out, the diagonal voxel being swept from becomes a jump point. When
  /// false (C1-O2 as written), only the top-level direction counts and sub-sweeps run free:
  /// 12-50x slower than A* in open space (bench), where the shared budget is faster than A*.
  bool depth_includes_sub_sweeps = true;
  /// JPS variants: straight jumps test 62 voxels per step on rows of the bit stream (the blocked
  /// voxel ahead and the forced-neighbour rule as word operations, one stream per axis). False
  /// steps one voxel at a time (the reference the word sweeps are checked against). Jump points,
  /// costs, expansions and voxels touched are the same either way.
  bool word_sweeps = true;
};
/// Checks the depth range; the message names the field.
[[nodiscard]] Status validate(const SearchConfig& config);

enum class FlyStatus : std::uint8_t {
  Found,         ///< a path from the start to the goal
  NoPath,        ///< the goal is not reachable
  StartOutside,  ///< the start lies outside the grid
  GoalOutside,   ///< the goal lies outside the grid
  StartBlocked,  ///< the start voxel is blocked
  GoalBlocked,   ///< the goal voxel is blocked
};
/// "found", "no_path", "start_outside", "goal_outside", "start_blocked", "goal_blocked".
[[nodiscard]] std::string_view to_string(FlyStatus status) noexcept;

struct FlyPath {
  FlyStatus status = FlyStatus::NoPath;
  double cost = 0.0;  ///< path length [units: voxels]; 0 unless found
  /// Start, every turning point, goal: consecutive points differ by k * c for one move c.
  std::vector<VoxelCoord> points;
  std::uint64_t expanded = 0;  ///< nodes taken from the open list and expanded
  /// Voxels visited: A* evaluates a neighbour; JPS steps into a voxel during a jump.
  std::uint64_t touched = 0;
};

/// 3-D octile distance: |d| sorted a <= b <= c, a sqrt 3 + (b - a) sqrt 2 + (c - b).
[[nodiscard]] double octile(VoxelCoord a, VoxelCoord b);

/// Checks a found path: endpoints, every step a legal move under the rule, cost equal to the sum
/// of the step costs (1e-9). The message names the first bad step.
[[nodiscard]] Status check_path(const OccupancyGrid& grid, VoxelCoord start, VoxelCoord goal,
                                const FlyPath& path, CornerRule rule);

/// Plans on one grid; keeps per-voxel search arrays between queries (each query resets the voxels
/// the previous one reached). The grid must outlive the planner and stay unchanged. Not
/// thread-safe; use one planner per thread.
class FlyPlanner {
 public:
  explicit FlyPlanner(const OccupancyGrid& grid);

  /// A shortest path from start to goal. Errors: InvalidArgument (config), MemoryLimit (a grid
  /// with 2^32 or more padded voxels).
  [[nodiscard]] Result<FlyPath> find_path(VoxelCoord start, VoxelCoord goal,
                                          const SearchConfig& config);

  /// Bytes of the search arrays (13 per padded voxel once allocated, and 4 per voxel a query
  /// reached), the transposed streams and the free bits.
  [[nodiscard]] std::uint64_t memory_bytes() const;
  /// Voxels with the free bit (all 26 neighbours in bounds and free); computes the bits.
  [[nodiscard]] std::uint64_t free_voxel_count();

  /// jump_3D(from, dir) as a JPS query toward `goal` would run it (C1-J), for tests: the voxel
  /// returned (found = false for null) and the voxels stepped into. The D variants apply K.
  struct JumpProbe {
    bool found = false;
    VoxelCoord at;
    std::uint64_t touched = 0;
  };
  [[nodiscard]] JumpProbe probe_jump(VoxelCoord from, int dir, VoxelCoord goal,
                                     const SearchConfig& config);

 private:
  template <CornerRule R>
  void run_astar(std::uint32_t start, std::uint32_t goal, FlyPath& path);
  template <CornerRule R, bool P>
  void run_jps(std::uint32_t start, std::uint32_t goal, int limit, bool shared, FlyPath& path);
  /// The bit stream of one axis: that axis fastest (x uses the grid's own stream).
  struct AxisStream {
    std::vector<std::uint64_t> owned;
    const std::uint64_t* words = nullptr;
    std::int64_t guard = 0;
    std::int64_t stride[3] = {};  ///< per padded axis x, y, z
    std::int64_t offset[27] = {};
    /// The free bits (C1-O1) in this stream's layout (x uses free_bits_); empty until P asks.
    std::vector<std::uint64_t> free_owned;
    const std::uint64_t* free_words = nullptr;
  };
  /// The forced rule of one straight direction as word operations: the rows it reads (the row of
  /// the jump and up to eight rows beside it, each read once per window), the cells (slots: a row
  /// and a shift; slot 0 is the voxel entered), per candidate the slots that must be free and,
  /// per alternative path, the slots of which one must be blocked (cells the move itself needs
  /// free are dropped from the paths; a candidate left with an empty path is never forced).
  struct SweepProgram {
    int row_count = 0;
    int row_cell[9] = {};  ///< a cell of each row with no offset along the jump
    int slot_count = 0;
    int slot_row[27] = {};
    int slot_shift[27] = {};
    struct Cand {
      std::uint32_t legal_slots = 0;
      std::uint32_t first = 0;
      std::uint32_t count = 0;
    };
    std::vector<Cand> cands;
    std::vector<std::uint32_t> paths;
    /// When every candidate reads one cell that must be free and one that must be blocked (the
    /// rule `cut`: x + d + l forced iff x + l blocked and x + d + l free), those pairs as
    /// (row, shift of the blocked cell, shift of the free cell); empty otherwise.
    struct Pair {
      std::uint8_t row = 0;
      std::uint8_t blocked_shift = 0;
      std::uint8_t free_shift = 0;
    };
    std::vector<Pair> pairs;
  };
  template <CornerRule R, bool P>
  std::uint32_t sweep(std::uint32_t from, VoxelCoord from_at, int dir, int limit,
                      std::uint32_t goal, std::uint64_t& touched, int* budget);
  void prepare_sweeps(CornerRule rule, bool need_free_bits);
  template <CornerRule R, bool P>
  std::uint32_t jump(std::uint32_t from, VoxelCoord from_at, int dir, CellMask from_mask,
                     bool from_free, int limit, std::uint32_t goal, std::uint64_t& touched,
                     int* budget);
  [[nodiscard]] CellMask neighbourhood(std::int64_t node) const;
  /// grid_->coord in 32-bit arithmetic (node ids stay below 2^32; 64-bit division costs more).
  [[nodiscard]] VoxelCoord coord(std::uint32_t node) const {
    const std::uint32_t py = node / stride_y_;
    const std::uint32_t rest = node - py * stride_y_;
    const std::uint32_t pz = rest / stride_z_;
    const std::uint32_t px = rest - pz * stride_z_;
    return {static_cast<int>(px) - 1, static_cast<int>(py) - 1, static_cast<int>(pz) - 1};
  }
  [[nodiscard]] bool free_bit(std::int64_t node) const {
    const auto b = static_cast<std::uint64_t>(node + guard_);
    return ((free_bits_[b >> 6] >> (b & 63)) & 1U) != 0;
  }
  template <CornerRule R>
  CellMask forced(int dir, CellMask mask) const;
  void prepare(CornerRule rule, bool need_free_bits);
  void begin_query();
  /// Records g for a node reached with a better g (the caller checked ng < g_[node]).
  void improve(std::uint32_t node, double ng, std::uint32_t parent) {
    if (g_[node] == kUnseen) visited_.push_back(node);
    g_[node] = ng;
    parent_[node] = parent;
  }
  void finish_path(std::uint32_t start, std::uint32_t goal, FlyPath& path) const;

  const OccupancyGrid* grid_;
  std::vector<std::uint64_t> free_bits_;
  /// Per padded voxel, 8 bytes read per neighbour: +infinity unseen, g >= 0 open, -g closed
  /// (the sign bit; the start closes as -0.0), so `ng < g_[n]` alone says whether a neighbour is
  /// improved: never when closed. The nodes a query sets are listed and reset by the next one.
  static constexpr double kUnseen = std::numeric_limits<double>::infinity();
  std::vector<double> g_;
  std::vector<std::uint32_t> parent_;  ///< written on improvement only
  std::vector<std::uint32_t> visited_;
  std::vector<std::uint8_t> dir_;
  OpenList open_;
  CornerRule rule_ = CornerRule::Cut;
  /// The grid's bit stream, guard and strides (set by prepare; the grid does not change).
  const std::uint64_t* bits_ = nullptr;
  std::int64_t guard_ = 0;
  std::int64_t sy_ = 0;
  std::int64_t sz_ = 0;
  const ForcedTable* table_ = nullptr;
  std::int64_t offset_[27] = {};
  std::uint32_t stride_y_ = 1;
  std::uint32_t stride_z_ = 1;
  AxisStream streams_[3];
  SweepProgram programs_[27];  ///< per straight direction, for sweep_rule_
  CornerRule sweep_rule_ = CornerRule::Cut;
  bool sweeps_ready_ = false;
  bool word_sweeps_ = true;
  VoxelCoord goal_at_;  ///< the goal of the running query or probe (when it has one)
  /// The steps of the last jump or sweep that returned a voxel (set on every such return, so
  /// after a top-level jump it is that jump's).
  int jump_steps_ = 0;
};

}  // namespace leapnav::grid3d
