// The 3x3x3 neighbourhood of a voxel and the JPS-3D pruning rules over it (spec C1-G, C1-N, C1-F):
// natural neighbours (sub-directions of the arrival direction) and forced neighbours by the
// canonical rule: n = x + m is forced iff the move x -> n is legal and every canonical move
// sequence (each move a sub-direction of the previous one) from the parent p = x - d to n inside
// the cube, avoiding x, is strictly longer than |d| + |m|. ForcedTable compiles the rule into
// per-(direction, candidate) lists of "cells that must be free" masks, one per short canonical
// path; forced_oracle is an independent Dijkstra over (cell, last move) states to check it against.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace leapnav::grid3d {

/// Corner rule for diagonal moves (C1-G).
enum class CornerRule : std::uint8_t {
  Cut,    ///< a move is legal iff its target voxel is free (the thesis: point agent)
  NoCut,  ///< legal iff every voxel of the box spanned by the move is free (HOG2, MovingAI)
};

/// A set of cells of the 3x3x3 cube (bit i = cell i), or of directions (cell i != 13).
using CellMask = std::uint32_t;

/// Cell i of the cube <-> offset (dx, dy, dz) in {-1, 0, 1}^3: i = (dx+1) + 3(dy+1) + 9(dz+1).
/// Cell 13 is the centre; the 26 others double as move directions.
inline constexpr int kCentre = 13;
[[nodiscard]] constexpr int cell_index(int dx, int dy, int dz) {
  return (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
}
struct Offset3 {
  int dx = 0;
  int dy = 0;
  int dz = 0;
};
[[nodiscard]] constexpr Offset3 cell_offset(int cell) {
  return {cell % 3 - 1, (cell / 3) % 3 - 1, cell / 9 - 1};
}
/// Non-zero components of a direction (1, 2 or 3).
[[nodiscard]] constexpr int axis_count(int dir) {
  const Offset3 o = cell_offset(dir);
  return (o.dx != 0 ? 1 : 0) + (o.dy != 0 ? 1 : 0) + (o.dz != 0 ? 1 : 0);
}
/// The Euclidean length of a move: 1, sqrt 2 or sqrt 3.
[[nodiscard]] double move_cost(int dir);
/// c is a sub-direction of d (every component of c is 0 or equal to d's); c = d included.
[[nodiscard]] bool is_subdirection(int c, int d);
/// The direction -d.
[[nodiscard]] constexpr int reverse(int dir) {
  return 26 - dir;
}
/// The cells (other than the centre) of the box spanned by the centre and centre + dir.
[[nodiscard]] CellMask move_box(int dir);
/// Directions of the legal moves out of the centre given the blocked cells.
[[nodiscard]] CellMask legal_moves(CellMask blocked, CornerRule rule);
namespace detail {
// The cells of the cube whose offset along an axis (0 x, 1 y, 2 z) equals side (+1 or -1).
constexpr CellMask axis_cells(int axis, int side) {
  CellMask mask = 0;
  for (int c = 0; c < 27; ++c) {
    const Offset3 o = cell_offset(c);
    const int v = axis == 0 ? o.dx : (axis == 1 ? o.dy : o.dz);
    if (v == side) mask |= CellMask{1} << c;
  }
  return mask;
}
}  // namespace detail
/// legal_moves(blocked, NoCut) in word operations: a move is legal iff its target is free and so
/// is the cell with any one of its non-zero offsets set to 0 (the centre counts as free); three
/// passes, one per axis, each ANDing a cell with the cell one step back toward the centre along
/// that axis, give the AND over the 2^k cells of the box.
[[nodiscard]] constexpr CellMask legal_moves_nocut(CellMask blocked) {
  constexpr CellMask kCube = (CellMask{1} << 27) - 1;
  constexpr CellMask kCentreBit = CellMask{1} << kCentre;
  constexpr int kShift[3] = {1, 3, 9};
  constexpr CellMask kPos[3] = {detail::axis_cells(0, 1), detail::axis_cells(1, 1),
                                detail::axis_cells(2, 1)};
  constexpr CellMask kNeg[3] = {detail::axis_cells(0, -1), detail::axis_cells(1, -1),
                                detail::axis_cells(2, -1)};
  CellMask ok = (~blocked & kCube) | kCentreBit;
  for (int a = 0; a < 3; ++a) {
    ok &= ~(kPos[a] & ~(ok << kShift[a])) & ~(kNeg[a] & ~(ok >> kShift[a]));
  }
  return ok & ~kCentreBit;
}
/// Natural(x, d): the legal sub-directions of d.
[[nodiscard]] CellMask natural_moves(int dir, CellMask blocked, CornerRule rule);

/// Which alternative paths the oracle admits.
enum class OracleRule : std::uint8_t {
  Canonical,  ///< C1-F: canonical move sequences only (what leapnav uses)
  Literal,    ///< the thesis's Definition 2 read literally: any path avoiding x (unsafe in 3-D)
};

/// Forced(x, d) by brute force: Dijkstra over (cell, last move) states inside the cube from the
/// parent cell to every cell, avoiding the centre. `blocked` must not contain the centre.
[[nodiscard]] CellMask forced_oracle(int dir, CellMask blocked, CornerRule rule,
                                     OracleRule oracle = OracleRule::Canonical);

/// The canonical rule compiled into free-cell masks, one table per corner rule.
class ForcedTable {
 public:
  /// The shared table for a rule (built once, thread-safe).
  [[nodiscard]] static const ForcedTable& get(CornerRule rule);

  /// Forced(x, d): directions m such that n = x + m is a forced neighbour.
  [[nodiscard]] CellMask forced(int dir, CellMask blocked) const;
  /// Forced(x, d) given legal = legal_moves(blocked, rule), without branches: under both rules
  /// every candidate has exactly one alternative path left (checked when the table is built), so
  /// m is forced iff the move is legal and that path holds a blocked cell; the candidates of a
  /// direction sharing a path form one group (at most kMaxGroups). Equals forced(dir, blocked)
  /// (test: grid3d.neighbourhood).
  [[nodiscard]] CellMask forced_given_legal(int dir, CellMask blocked, CellMask legal) const {
    // note: the 8 groups as two 4-lane vectors (GCC/Clang vector extensions): a lane's moves
    // count when its path holds a blocked cell; no branch (random fill mispredicts one per group)
    const Groups& groups = groups_[static_cast<std::size_t>(dir)];
    const Lanes b = {blocked, blocked, blocked, blocked};
    const Lanes zero = {0, 0, 0, 0};
    const auto hit0 = static_cast<Lanes>((groups.path[0] & b) != zero) & groups.moves[0];
    const auto hit1 = static_cast<Lanes>((groups.path[1] & b) != zero) & groups.moves[1];
    const Lanes hit = hit0 | hit1;
    return (hit[0] | hit[1] | hit[2] | hit[3]) & legal;
  }
  static constexpr int kMaxGroups = 8;
  /// Cells whose blocking can force a neighbour for direction dir: if none of them is blocked,
  /// Forced(x, d) is empty.
  [[nodiscard]] CellMask trigger(int dir) const { return trigger_[static_cast<std::size_t>(dir)]; }
  /// Total number of path masks stored (a size measure).
  [[nodiscard]] std::size_t path_mask_count() const { return masks_.size(); }
  /// The cells any rule of this direction reads (trigger and legality).
  [[nodiscard]] CellMask relevant(int dir) const {
    return relevant_[static_cast<std::size_t>(dir)];
  }

  /// One candidate neighbour x + move of a direction: forced iff every cell of legal_needs_free
  /// is free and every path mask holds a blocked cell (the rule as a formula, for word-parallel
  /// evaluation).
  struct CandidateRule {
    int move = 0;
    CellMask legal_needs_free = 0;
    std::span<const CellMask> paths;
  };
  /// The candidates of a direction in table order.
  [[nodiscard]] std::vector<CandidateRule> candidates(int dir) const;

  explicit ForcedTable(CornerRule rule);

 private:
  struct Candidate {
    std::uint8_t move = 0;
    CellMask legal_needs_free = 0;  ///< cells the move x -> x + m needs free
    std::uint32_t first = 0;        ///< into masks_
    std::uint32_t count = 0;
  };
  std::array<std::uint32_t, 28> candidate_first_{};  ///< per direction into candidates_
  std::vector<Candidate> candidates_;
  std::vector<CellMask> masks_;  ///< per candidate: cells one alternative path needs free
  std::array<CellMask, 27> trigger_{};
  std::array<CellMask, 27> relevant_{};
  /// Per direction: the distinct alternative paths (unused groups have an empty path, which
  /// never holds a blocked cell) and the candidate moves each one decides.
  using Lanes = CellMask __attribute__((vector_size(16)));
  struct Groups {
    Lanes path[2] = {};  ///< lane i of vector j: group 4 j + i
    Lanes moves[2] = {};
  };
  std::array<Groups, 27> groups_{};
};

}  // namespace leapnav::grid3d
