// A* and JPS-3D over the bit-packed occupancy grid (spec C1-A, C1-J, C1-S, C1-O1..O3).
// Nodes are padded voxel ids; a 3x3x3 neighbourhood is nine 3-bit reads from the bit stream. Both
// searches keep one closed entry per voxel; JPS stores the direction of a jump point's best
// parent and expands it with Natural(d) + Forced(d). Forced sets come from ForcedTable's grouped
// form (legal moves AND the candidates of the alternative paths holding a blocked cell).
#include "leapnav/grid3d/search.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace leapnav::grid3d {
namespace {

static_assert(std::endian::native == std::endian::little, "the neighbourhood reads assume it");

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrt3 = 1.7320508075688772;
constexpr std::uint8_t kNoDir = 0xFF;
constexpr std::uint32_t kNone = ~std::uint32_t{0};
constexpr CellMask kAllMoves = ((CellMask{1} << 27) - 1) & ~(CellMask{1} << kCentre);

struct DirTables {
  double cost[27] = {};
  CellMask box[27] = {};
  CellMask sub[27] = {};       // sub-directions of d, d included
  int proper_sub[27][6] = {};  // straight first (x, y, z), then xy, xz, yz
  int proper_count[27] = {};
  DirTables() {
    for (int d = 0; d < 27; ++d) {
      if (d == kCentre) continue;
      cost[d] = move_cost(d);
      box[d] = move_box(d);
      for (int c = 0; c < 27; ++c) {
        if (c != kCentre && is_subdirection(c, d)) sub[d] |= CellMask{1} << c;
      }
      const Offset3 o = cell_offset(d);
      int n = 0;
      if (axis_count(d) >= 2) {
        if (o.dx != 0) proper_sub[d][n++] = cell_index(o.dx, 0, 0);
        if (o.dy != 0) proper_sub[d][n++] = cell_index(0, o.dy, 0);
        if (o.dz != 0) proper_sub[d][n++] = cell_index(0, 0, o.dz);
      }
      if (axis_count(d) == 3) {
        proper_sub[d][n++] = cell_index(o.dx, o.dy, 0);
        proper_sub[d][n++] = cell_index(o.dx, 0, o.dz);
        proper_sub[d][n++] = cell_index(0, o.dy, o.dz);
      }
      proper_count[d] = n;
    }
  }
};

// note: built once at start-up rather than on first use, so that the jump loop reads it without
// the guard of a function-local static.
const DirTables kDirTables;

const DirTables& dirs() {
  return kDirTables;
}

template <CornerRule R>
inline bool legal(CellMask mask, int dir) {
  if constexpr (R == CornerRule::Cut) {
    return ((mask >> dir) & 1U) == 0;
  } else {
    return (mask & dirs().box[dir]) == 0;
  }
}

template <CornerRule R>
inline CellMask legal_set(CellMask mask) {
  if constexpr (R == CornerRule::Cut) {
    return ~mask & kAllMoves;
  } else {
    return legal_moves_nocut(mask);
  }
}

inline std::uint32_t read3(const std::uint64_t* words, std::int64_t bit) {
  std::uint64_t v = 0;
  std::memcpy(&v, reinterpret_cast<const unsigned char*>(words) + (bit >> 3), sizeof(v));
  return static_cast<std::uint32_t>((v >> (bit & 7)) & 7U);
}

inline std::uint64_t read64(const std::vector<std::uint64_t>& words, std::int64_t bit) {
  const auto i = static_cast<std::size_t>(bit >> 6);
  const auto sh = static_cast<unsigned>(bit & 63);
  std::uint64_t v = words[i] >> sh;
  if (sh != 0) v |= words[i + 1] << (64 - sh);
  return v;
}

// 64 bits of a stream from any bit index (the streams keep a spare word at the end).
inline std::uint64_t read64p(const std::uint64_t* words, std::int64_t bit) {
  const auto i = static_cast<std::size_t>(bit >> 6);
  const auto sh = static_cast<unsigned>(bit & 63);
  return (words[i] >> sh) | ((words[i + 1] << 1) << (63 - sh));
}

inline double octile_inline(VoxelCoord a, VoxelCoord b) {
  const int x = std::abs(a.x - b.x);
  const int y = std::abs(a.y - b.y);
  const int z = std::abs(a.z - b.z);
  const int lo = std::min({x, y, z});
  const int hi = std::max({x, y, z});
  const int mid = x + y + z - lo - hi;
  return lo * kSqrt3 + (mid - lo) * kSqrt2 + (hi - mid);
}

}  // namespace

std::string_view to_string(Algorithm algorithm) noexcept {
  switch (algorithm) {
    case Algorithm::AStar:
      return "astar";
    case Algorithm::Jps:
      return "jps";
    case Algorithm::JpsP:
      return "jps-p";
    case Algorithm::JpsD:
      return "jps-d";
    case Algorithm::JpsPD:
      return "jps-pd";
  }
  return "?";
}

Result<Algorithm> parse_algorithm(std::string_view name) {
  for (const Algorithm a :
       {Algorithm::AStar, Algorithm::Jps, Algorithm::JpsP, Algorithm::JpsD, Algorithm::JpsPD}) {
    if (name == to_string(a)) return a;
  }
  return make_error(
      ErrorCode::InvalidArgument,
      "--algo: '" + std::string(name) + "' is not an algorithm (astar, jps, jps-p, jps-d, jps-pd)");
}

std::string_view to_string(CornerRule rule) noexcept {
  return rule == CornerRule::Cut ? "cut" : "nocut";
}

Result<CornerRule> parse_corner_rule(std::string_view name) {
  if (name == "cut") return CornerRule::Cut;
  if (name == "nocut") return CornerRule::NoCut;
  return make_error(ErrorCode::InvalidArgument,
                    "--corners: '" + std::string(name) + "' is not a corner rule (cut, nocut)");
}

Status validate(const SearchConfig& config) {
  if (config.depth < 1 || config.depth > 1000000) {
    return make_error(
        ErrorCode::InvalidArgument,
        "search: depth = " + std::to_string(config.depth) + " is out of range (1..1000000 steps)");
  }
  return {};
}

std::string_view to_string(FlyStatus status) noexcept {
  switch (status) {
    case FlyStatus::Found:
      return "found";
    case FlyStatus::NoPath:
      return "no_path";
    case FlyStatus::StartOutside:
      return "start_outside";
    case FlyStatus::GoalOutside:
      return "goal_outside";
    case FlyStatus::StartBlocked:
      return "start_blocked";
    case FlyStatus::GoalBlocked:
      return "goal_blocked";
  }
  return "?";
}

double octile(VoxelCoord a, VoxelCoord b) {
  return octile_inline(a, b);
}

Status check_path(const OccupancyGrid& grid, VoxelCoord start, VoxelCoord goal, const FlyPath& path,
                  CornerRule rule) {
  if (path.status != FlyStatus::Found) return {};
  if (path.points.empty() || !(path.points.front() == start) || !(path.points.back() == goal)) {
    return make_error(ErrorCode::Internal, "check_path: the path does not join start and goal");
  }
  double cost = 0.0;
  for (std::size_t i = 0; i + 1 < path.points.size(); ++i) {
    const VoxelCoord a = path.points[i];
    const VoxelCoord b = path.points[i + 1];
    const int dx = b.x - a.x;
    const int dy = b.y - a.y;
    const int dz = b.z - a.z;
    const int k = std::max({std::abs(dx), std::abs(dy), std::abs(dz)});
    const auto unit = [k](int v) { return v == 0 ? 0 : v / k; };
    if (k == 0 || (dx != 0 && std::abs(dx) != k) || (dy != 0 && std::abs(dy) != k) ||
        (dz != 0 && std::abs(dz) != k)) {
      return make_error(ErrorCode::Internal, "check_path: segment " + std::to_string(i) +
                                                 " is not a straight or diagonal run");
    }
    const Offset3 o{unit(dx), unit(dy), unit(dz)};
    const int dir = cell_index(o.dx, o.dy, o.dz);
    VoxelCoord at = a;
    for (int s = 0; s < k; ++s) {
      for (int ax = 0; ax <= (o.dx != 0 ? 1 : 0); ++ax) {
        for (int ay = 0; ay <= (o.dy != 0 ? 1 : 0); ++ay) {
          for (int az = 0; az <= (o.dz != 0 ? 1 : 0); ++az) {
            const bool target =
                ax == (o.dx != 0 ? 1 : 0) && ay == (o.dy != 0 ? 1 : 0) && az == (o.dz != 0 ? 1 : 0);
            if (!target && rule == CornerRule::Cut) continue;
            const VoxelCoord c{at.x + ax * o.dx, at.y + ay * o.dy, at.z + az * o.dz};
            if (grid.blocked(c)) {
              return make_error(ErrorCode::Internal,
                                "check_path: step " + std::to_string(s) + " of segment " +
                                    std::to_string(i) + " enters blocked voxel (" +
                                    std::to_string(c.x) + ", " + std::to_string(c.y) + ", " +
                                    std::to_string(c.z) + ")");
            }
          }
        }
      }
      at = {at.x + o.dx, at.y + o.dy, at.z + o.dz};
      cost += move_cost(dir);
    }
  }
  if (std::abs(cost - path.cost) > 1e-9) {
    return make_error(ErrorCode::Internal, "check_path: cost " + std::to_string(path.cost) +
                                               " differs from its steps' sum " +
                                               std::to_string(cost));
  }
  return {};
}

FlyPlanner::FlyPlanner(const OccupancyGrid& grid) : grid_(&grid) {
  // find_path refuses grids of 2^32 or more padded voxels before any search uses these
  stride_y_ = static_cast<std::uint32_t>(std::min<std::int64_t>(grid.stride_y(), kNone));
  stride_z_ = static_cast<std::uint32_t>(std::min<std::int64_t>(grid.stride_z(), kNone));
  for (int d = 0; d < 27; ++d) {
    const Offset3 o = cell_offset(d);
    offset_[d] = o.dx + o.dy * grid.stride_y() + o.dz * grid.stride_z();
  }
}

std::uint64_t FlyPlanner::memory_bytes() const {
  return g_.size() * sizeof(double) + parent_.size() * 4 + visited_.capacity() * 4 + dir_.size() +
         free_bits_.size() * 8 + open_.memory_bytes() +
         (streams_[1].owned.size() + streams_[2].owned.size()) * 8;
}

// note: the word sweeps read a straight jump's row and the eight rows around it 62 voxels at a
// time. Rows along x are the grid's stream; rows along y and z come from two transposed copies
// (2 more bits per padded voxel), built on the first JPS query. Each stream has a blocked guard of
// more than one plane plus 64 bits at both ends, so a window may overhang the row's blocked
// border into neighbouring rows: bits past the first blocked voxel are never used.
void FlyPlanner::prepare_sweeps(CornerRule rule, bool need_free_bits) {
  const std::int64_t pw = grid_->padded_width();
  const std::int64_t ph = grid_->padded_height();
  const std::int64_t pd = grid_->padded_depth();
  if (streams_[0].words == nullptr) {
    AxisStream& x = streams_[0];
    x.words = grid_->bits.data();
    x.guard = grid_->guard_bits();
    x.stride[0] = 1;
    x.stride[1] = grid_->stride_y();
    x.stride[2] = grid_->stride_z();
    const std::int64_t count = grid_->padded_count();
    // y fastest: py + ph * (px + pw * pz); z fastest: pz + pd * (px + pw * py)
    const std::int64_t strides[2][3] = {{ph, 1, ph * pw}, {pd, pd * pw, 1}};
    for (int a = 1; a < 3; ++a) {
      AxisStream& st = streams_[a];
      const std::int64_t* sd = strides[a - 1];
      st.stride[0] = sd[0];
      st.stride[1] = sd[1];
      st.stride[2] = sd[2];
      const std::int64_t plane = std::max({sd[0], sd[1], sd[2]});
      st.guard = ((plane + sd[0] + sd[1] + sd[2] + 64) / 64) * 64 + 64;
      st.owned.assign(static_cast<std::size_t>((2 * st.guard + count + 63) / 64 + 2),
                      ~std::uint64_t{0});
      const std::int64_t guard = grid_->guard_bits();
      const std::uint64_t* src = grid_->bits.data();
      for (std::int64_t py = 0; py < ph; ++py) {
        for (std::int64_t pz = 0; pz < pd; ++pz) {
          const std::int64_t row = guard + py * grid_->stride_y() + pz * grid_->stride_z();
          for (std::int64_t px = 0; px < pw; ++px) {
            const std::int64_t b = row + px;
            if (((src[b >> 6] >> (b & 63)) & 1U) != 0) continue;
            const std::int64_t bit = st.guard + px * sd[0] + py * sd[1] + pz * sd[2];
            st.owned[static_cast<std::size_t>(bit >> 6)] &= ~(std::uint64_t{1} << (bit & 63));
          }
        }
      }
      st.words = st.owned.data();
    }
    for (AxisStream& st : streams_) {
      for (int c = 0; c < 27; ++c) {
        const Offset3 o = cell_offset(c);
        st.offset[c] = o.dx * st.stride[0] + o.dy * st.stride[1] + o.dz * st.stride[2];
      }
    }
  }
  if (need_free_bits && streams_[0].free_words == nullptr) {
    streams_[0].free_words = free_bits_.data();
    const std::int64_t count = grid_->padded_count();
    for (int a = 1; a < 3; ++a) {
      AxisStream& st = streams_[a];
      st.free_owned.assign(st.owned.size(), 0);
      for (std::int64_t w = st.guard / 64; w < (st.guard + count + 63) / 64; ++w) {
        std::uint64_t any = 0;
        for (const std::int64_t offset : st.offset) any |= read64p(st.words, 64 * w + offset);
        st.free_owned[static_cast<std::size_t>(w)] = ~any;
      }
      st.free_words = st.free_owned.data();
    }
  }
  if (sweeps_ready_ && sweep_rule_ == rule) return;
  const ForcedTable& table = ForcedTable::get(rule);
  for (int d = 0; d < 27; ++d) {
    if (d == kCentre || axis_count(d) != 1) continue;
    const Offset3 od = cell_offset(d);
    SweepProgram& prog = programs_[d];
    prog = SweepProgram{};
    int slot_of[27];
    int row_of[27];
    std::fill(std::begin(slot_of), std::end(slot_of), -1);
    std::fill(std::begin(row_of), std::end(row_of), -1);
    const auto slots = [&](CellMask cells) {
      std::uint32_t out = 0;
      while (cells != 0) {
        const int c = std::countr_zero(cells);
        cells &= cells - 1;
        if (slot_of[c] < 0) {
          // the cell's row: its offsets across the jump, none along it
          const Offset3 o = cell_offset(c);
          const int along = o.dx * od.dx + o.dy * od.dy + o.dz * od.dz;  // +-1 or 0, times sign
          const int sign = od.dx + od.dy + od.dz;
          const int row_cell =
              cell_index(od.dx != 0 ? 0 : o.dx, od.dy != 0 ? 0 : o.dy, od.dz != 0 ? 0 : o.dz);
          if (row_of[row_cell] < 0) {
            row_of[row_cell] = prog.row_count;
            prog.row_cell[prog.row_count++] = row_cell;
          }
          slot_of[c] = prog.slot_count;
          prog.slot_row[prog.slot_count] = row_of[row_cell];
          // the row is read from one bit before the window: a cell at offset a along the axis
          // (in the axis's positive sense) is the row shifted right by 1 + a
          prog.slot_shift[prog.slot_count] = 1 + along * sign;
          ++prog.slot_count;
        }
        out |= std::uint32_t{1} << slot_of[c];
      }
      return out;
    };
    slots(CellMask{1} << kCentre);  // slot 0: the voxel entered
    for (const ForcedTable::CandidateRule& cand : table.candidates(d)) {
      bool never = false;
      for (const CellMask p : cand.paths) never = never || (p & ~cand.legal_needs_free) == 0;
      if (never) continue;
      SweepProgram::Cand pc;
      pc.legal_slots = slots(cand.legal_needs_free);
      pc.first = static_cast<std::uint32_t>(prog.paths.size());
      pc.count = static_cast<std::uint32_t>(cand.paths.size());
      for (const CellMask p : cand.paths) prog.paths.push_back(slots(p & ~cand.legal_needs_free));
      prog.cands.push_back(pc);
    }
    bool simple = true;
    for (const SweepProgram::Cand& c : prog.cands) {
      simple = simple && std::popcount(c.legal_slots) == 1 && c.count == 1 &&
               std::popcount(prog.paths[c.first]) == 1 &&
               prog.slot_row[std::countr_zero(c.legal_slots)] ==
                   prog.slot_row[std::countr_zero(prog.paths[c.first])];
    }
    if (simple) {
      for (const SweepProgram::Cand& c : prog.cands) {
        const int free_slot = std::countr_zero(c.legal_slots);
        const int blocked_slot = std::countr_zero(prog.paths[c.first]);
        prog.pairs.push_back({static_cast<std::uint8_t>(prog.slot_row[free_slot]),
                              static_cast<std::uint8_t>(prog.slot_shift[blocked_slot]),
                              static_cast<std::uint8_t>(prog.slot_shift[free_slot])});
      }
    }
  }
  sweep_rule_ = rule;
  sweeps_ready_ = true;
}

// note: the grid's words, guard and strides are copied into the planner by prepare(), so the
// nine reads need no loads through grid_ and no guard arithmetic (called several times per JPS
// expansion).
inline CellMask FlyPlanner::neighbourhood(std::int64_t node) const {
  const std::int64_t base = node + guard_ - 1;
  CellMask mask = 0;
  int shift = 0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      mask |= read3(bits_, base + dy * sy_ + dz * sz_) << shift;
      shift += 3;
    }
  }
  return mask;
}

template <CornerRule R>
CellMask FlyPlanner::forced(int dir, CellMask mask) const {
  return table_->forced_given_legal(dir, mask, legal_set<R>(mask));
}

// A straight jump (C1-J with a straight d) 62 voxels per step: in a window of the row ahead, the
// blocked voxels (slot 0) and the voxels with a forced neighbour (the rule's formula over the
// shifted words of the cells it reads), the goal and the step limit as single bits; the first
// blocked voxel before any stop gives null. Steps, voxels touched and the budget advance exactly
// as the one-voxel loop would.
template <CornerRule R, bool P>
std::uint32_t FlyPlanner::sweep(std::uint32_t from, VoxelCoord at, int dir, int limit,
                                std::uint32_t goal, std::uint64_t& touched, int* budget) {
  std::int64_t steps = 0;
  // a window is 62 voxels: each row is read once from one bit before the window, and the cells
  // one voxel behind and ahead are that word shifted by 0 and 2
  constexpr int kWindow = 62;
  constexpr std::uint64_t kValid = (std::uint64_t{1} << kWindow) - 1;
  const Offset3 o = cell_offset(dir);
  const int axis = o.dx != 0 ? 0 : (o.dy != 0 ? 1 : 2);
  const bool forward = (o.dx + o.dy + o.dz) > 0;
  const AxisStream& st = streams_[axis];
  const std::int64_t id =
      st.guard + (at.x + 1) * st.stride[0] + (at.y + 1) * st.stride[1] + (at.z + 1) * st.stride[2];
  constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max();
  std::int64_t goal_steps = kFar;
  if (goal != kNone) {
    const VoxelCoord g = goal_at_;
    const int along[3] = {g.x - at.x, g.y - at.y, g.z - at.z};
    if (along[(axis + 1) % 3] == 0 && along[(axis + 2) % 3] == 0) {
      const std::int64_t k = forward ? along[axis] : -along[axis];
      if (k > 0) goal_steps = k;
    }
  }
  std::int64_t cap = limit > 0 ? limit : kFar;
  if (budget != nullptr) cap = std::min<std::int64_t>(cap, std::max(*budget, 1));
  const SweepProgram& prog = programs_[dir];
  // bit j of a window is the voxel at (window start + j) along the axis; the travel order is
  // j ascending forward, descending backward
  const auto bit_at = [forward](std::int64_t k) {
    return std::uint64_t{1} << (forward ? k : kWindow - 1 - k);
  };
  const auto first = [forward](std::uint64_t word) {
    return forward ? std::countr_zero(word & kValid) : std::countl_zero(word << (64 - kWindow));
  };
  std::uint64_t rows[9];
  std::uint64_t w[27];
  while (true) {
    const std::int64_t base = forward ? id + 1 + steps : id - steps - kWindow;
    std::uint64_t limits = 0;
    if (goal_steps > steps && goal_steps <= steps + kWindow) {
      limits |= bit_at(goal_steps - steps - 1);
    }
    if (cap > steps && cap <= steps + kWindow) limits |= bit_at(cap - steps - 1);
    if constexpr (P) {
      // voxels with the free bit are free and have no forced neighbour: a window of them up to
      // the goal or the limit needs no other word
      const std::uint64_t not_free = ~read64p(st.free_words, base) & kValid;
      const int first_limit = first(limits);
      if (first_limit < first(not_free)) {
        const std::int64_t taken = steps + first_limit + 1;
        touched += static_cast<std::uint64_t>(taken);
        if (budget != nullptr) *budget -= static_cast<int>(taken);
        jump_steps_ = static_cast<int>(taken);
        return static_cast<std::uint32_t>(from + taken * offset_[dir]);
      }
      if (not_free == 0) {
        steps += kWindow;
        continue;
      }
    }
    for (int r = 0; r < prog.row_count; ++r) {
      rows[r] = read64p(st.words, base - 1 + st.offset[prog.row_cell[r]]);
    }
    std::uint64_t stop = limits;
    if (!prog.pairs.empty()) {
      for (const SweepProgram::Pair& pr : prog.pairs) {
        stop |= (rows[pr.row] >> pr.blocked_shift) & ~(rows[pr.row] >> pr.free_shift);
      }
      w[0] = rows[prog.slot_row[0]] >> prog.slot_shift[0];
    } else {
      std::uint64_t any = 0;
      for (int s = 0; s < prog.slot_count; ++s) {
        w[s] = rows[prog.slot_row[s]] >> prog.slot_shift[s];
        any |= s > 0 ? w[s] : 0;
      }
      if ((any & kValid) != 0) {
        for (const SweepProgram::Cand& c : prog.cands) {
          std::uint64_t ok = ~std::uint64_t{0};
          for (std::uint32_t m = c.legal_slots; m != 0; m &= m - 1) ok &= ~w[std::countr_zero(m)];
          for (std::uint32_t k = 0; k < c.count && ok != 0; ++k) {
            std::uint64_t any_blocked = 0;
            for (std::uint32_t m = prog.paths[c.first + k]; m != 0; m &= m - 1) {
              any_blocked |= w[std::countr_zero(m)];
            }
            ok &= any_blocked;
          }
          stop |= ok;
        }
      }
    }
    const std::uint64_t blocked = w[0] & kValid;
    stop &= kValid;
    if ((blocked | stop) != 0) {
      const int first_blocked = first(blocked);
      const int first_stop = first(stop);
      const bool found = first_stop < first_blocked;
      const std::int64_t taken = steps + (found ? first_stop + 1 : first_blocked);
      touched += static_cast<std::uint64_t>(taken);
      if (budget != nullptr) *budget -= static_cast<int>(taken);
      jump_steps_ = static_cast<int>(taken);
      return found ? static_cast<std::uint32_t>(from + taken * offset_[dir]) : kNone;
    }
    steps += kWindow;
  }
}

void FlyPlanner::prepare(CornerRule rule, bool need_free_bits) {
  const auto count = static_cast<std::size_t>(grid_->padded_count());
  if (g_.size() != count) {
    g_.assign(count, kUnseen);
    parent_.assign(count, 0);
    visited_.clear();
    dir_.assign(count, kNoDir);
  }
  rule_ = rule;
  table_ = &ForcedTable::get(rule);
  bits_ = grid_->bits.data();
  guard_ = grid_->guard_bits();
  sy_ = grid_->stride_y();
  sz_ = grid_->stride_z();
  if (need_free_bits && free_bits_.empty()) {
    // free(v) iff the 27 cells around v are free: the complement of the OR of 27 shifted streams.
    const std::vector<std::uint64_t>& bits = grid_->bits;
    free_bits_.assign(bits.size(), 0);
    const std::int64_t guard = grid_->guard_bits();
    const std::int64_t first = guard / 64;
    const std::int64_t last = (guard + grid_->padded_count() + 63) / 64;
    for (std::int64_t w = first; w < last; ++w) {
      std::uint64_t any = 0;
      for (const std::int64_t offset : offset_) any |= read64(bits, 64 * w + offset);
      free_bits_[static_cast<std::size_t>(w)] = ~any;
    }
  }
}

std::uint64_t FlyPlanner::free_voxel_count() {
  prepare(rule_, true);
  std::uint64_t count = 0;
  for (const std::uint64_t w : free_bits_) count += static_cast<std::uint64_t>(std::popcount(w));
  return count;
}

void FlyPlanner::begin_query() {
  for (const std::uint32_t n : visited_) g_[n] = kUnseen;
  visited_.clear();
  open_.clear();
}

void FlyPlanner::finish_path(std::uint32_t start, std::uint32_t goal, FlyPath& path) const {
  path.status = FlyStatus::Found;
  path.cost = -g_[goal];  // closed
  std::vector<VoxelCoord> chain;
  for (std::uint32_t n = goal;; n = parent_[n]) {
    chain.push_back(grid_->coord(n));
    if (n == start) break;
  }
  std::reverse(chain.begin(), chain.end());
  // keep turning points only
  path.points.clear();
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (i > 0 && i + 1 < chain.size()) {
      const VoxelCoord a = chain[i - 1];
      const VoxelCoord b = chain[i];
      const VoxelCoord c = chain[i + 1];
      const auto unit = [](int v) { return (v > 0) - (v < 0); };
      if (unit(b.x - a.x) == unit(c.x - b.x) && unit(b.y - a.y) == unit(c.y - b.y) &&
          unit(b.z - a.z) == unit(c.z - b.z)) {
        continue;
      }
    }
    path.points.push_back(chain[i]);
  }
}

template <CornerRule R>
void FlyPlanner::run_astar(std::uint32_t start, std::uint32_t goal, FlyPath& path) {
  const DirTables& t = dirs();
  const VoxelCoord goal_at = grid_->coord(goal);
  improve(start, 0.0, start);
  open_.push(OpenItem::make(octile(grid_->coord(start), goal_at), 0.0F, start));
  const auto closed = [this](const OpenItem& entry) { return std::signbit(g_[entry.node()]); };
  OpenItem item;
  while (open_.pop(item, closed)) {
    const std::uint32_t node = item.node();
    double& rec = g_[node];
    if (std::signbit(rec)) continue;  // closed
    const double g = rec;
    rec = -g;
    ++path.expanded;
    if (node == goal) {
      finish_path(start, goal, path);
      return;
    }
    const VoxelCoord at = coord(node);
    CellMask moves = legal_set<R>(neighbourhood(node));
    while (moves != 0) {
      const int d = std::countr_zero(moves);
      moves &= moves - 1;
      const auto next = static_cast<std::uint32_t>(node + offset_[d]);
      ++path.touched;
      const double ng = g + t.cost[d];
      if (ng < g_[next]) {  // unseen, or open with a larger g; never closed
        improve(next, ng, node);
        const Offset3 o = cell_offset(d);
        open_.push(
            OpenItem::make(ng + octile_inline({at.x + o.dx, at.y + o.dy, at.z + o.dz}, goal_at),
                           static_cast<float>(ng), next));
      }
    }
  }
  path.status = FlyStatus::NoPath;
}

template <CornerRule R, bool P>
std::uint32_t FlyPlanner::jump(std::uint32_t from, VoxelCoord from_at, int dir, CellMask from_mask,
                               bool from_free, int limit, std::uint32_t goal,
                               std::uint64_t& touched, int* budget) {
  const DirTables& t = dirs();
  if (word_sweeps_ && t.proper_count[dir] == 0) {
    return sweep<R, P>(from, from_at, dir, limit, goal, touched, budget);
  }
  const Offset3 o = cell_offset(dir);
  VoxelCoord next_at = from_at;
  std::uint32_t at = from;
  CellMask mask = from_mask;
  bool is_free = from_free;
  int steps = 0;
  while (true) {
    if (!is_free && !legal<R>(mask, dir)) return kNone;
    const auto next = static_cast<std::uint32_t>(at + offset_[dir]);
    next_at = {next_at.x + o.dx, next_at.y + o.dy, next_at.z + o.dz};
    ++steps;
    ++touched;
    if (budget != nullptr) --*budget;
    jump_steps_ = steps;
    if (next == goal) return next;
    if (P && free_bit(next)) {
      mask = 0;
      is_free = true;
    } else {
      mask = neighbourhood(next);
      is_free = false;
      if (forced<R>(dir, mask) != 0) return next;
    }
    for (int i = 0; i < t.proper_count[dir]; ++i) {
      // note: a sub-sweep that ran out of a shared budget returns non-null too, which makes
      // `next` a jump point; its expansion redoes the sweep with a fresh budget.
      const int sub = t.proper_sub[dir][i];
      // a sub-jump whose first move is illegal returns null at once with nothing touched (in
      // random fill, about as often as the fill rate): skip its call and setup
      if (!is_free && !legal<R>(mask, sub)) continue;
      const std::uint32_t hit =
          word_sweeps_ && t.proper_count[sub] == 0
              ? sweep<R, P>(next, next_at, sub, 0, goal, touched, budget)
              : jump<R, P>(next, next_at, sub, mask, is_free, 0, goal, touched, budget);
      if (hit != kNone) {
        jump_steps_ = steps;
        return next;
      }
    }
    if ((limit > 0 && steps >= limit) || (budget != nullptr && *budget <= 0)) {
      jump_steps_ = steps;
      return next;
    }
    at = next;
  }
}

template <CornerRule R, bool P>
void FlyPlanner::run_jps(std::uint32_t start, std::uint32_t goal, int limit, bool shared,
                         FlyPath& path) {
  const DirTables& t = dirs();
  const VoxelCoord goal_at = grid_->coord(goal);
  goal_at_ = goal_at;
  improve(start, 0.0, start);
  dir_[start] = kNoDir;
  open_.push(OpenItem::make(octile(grid_->coord(start), goal_at), 0.0F, start));
  const auto closed = [this](const OpenItem& entry) { return std::signbit(g_[entry.node()]); };
  // the straight-jump probe's score (see below): probing stops for the query below kProbeOff
  constexpr int kProbeOff = -64;
  constexpr int kProbeCap = 64;
  int probe_score = 0;
  OpenItem item;
  while (open_.pop(item, closed)) {
    const std::uint32_t node = item.node();
    if (std::signbit(g_[node])) continue;  // closed
    const double g = g_[node];
    g_[node] = -g;
    ++path.expanded;
    if (node == goal) {
      finish_path(start, goal, path);
      return;
    }
    const bool node_free = P && free_bit(node);
    const CellMask mask = node_free ? 0 : neighbourhood(node);
    const int d = dir_[node];
    CellMask moves = 0;
    if (d == kNoDir) {
      moves = legal_set<R>(mask);
    } else {
      const CellMask legal = legal_set<R>(mask);
      moves = (legal & t.sub[d]) | (node_free ? 0 : table_->forced_given_legal(d, mask, legal));
    }
    const VoxelCoord at = coord(node);
    while (moves != 0) {
      const int c = std::countr_zero(moves);
      moves &= moves - 1;
      int budget = limit;
      int* const spend = shared && limit > 0 ? &budget : nullptr;
      // straight moves go to the word sweep without the jump's frame (the same call jump makes)
      std::uint32_t found = kNone;
      if (word_sweeps_ && t.proper_count[c] == 0) {
        // note: a straight jump's first voxel alone, from its 3x3x3 neighbourhood, before the
        // word window: in random fill most straight jumps end there (the voxel entered has a
        // forced neighbour, or the one after it is blocked), and the probe costs less than the
        // window's setup; in buildings straight jumps run along walls and the probe is wasted
        // (9 % of JPS-PD's time there). So a query probes while its probes mostly decide the
        // jump: a hit scores 1, a miss 2 against it. Results, steps, touched and the budget
        // are the window's either way.
        bool decided = false;
        if (probe_score > kProbeOff) {
          const auto next = static_cast<std::uint32_t>(node + offset_[c]);
          if (!(P && free_bit(next))) {
            const CellMask m = neighbourhood(next);
            const bool stop = next == goal || limit == 1 || forced<R>(c, m) != 0;
            if (stop || ((m >> c) & 1U) != 0) {  // a jump point, or null after one step
              ++path.touched;
              if (spend != nullptr) --budget;
              jump_steps_ = 1;
              found = stop ? next : kNone;
              decided = true;
              probe_score = std::min(probe_score + 1, kProbeCap);
            } else {
              probe_score -= 2;
            }
          }
        }
        if (!decided) found = sweep<R, P>(node, at, c, limit, goal, path.touched, spend);
      } else {
        // note: the first step of jump() here, without its frame: the move is legal, and in
        // random fill the voxel entered mostly has a forced neighbour (a jump point after one
        // step); otherwise jump() runs from the start (same result, steps, touched, budget)
        const auto next = static_cast<std::uint32_t>(node + offset_[c]);
        if (next == goal || (!(P && free_bit(next)) && forced<R>(c, neighbourhood(next)) != 0)) {
          ++path.touched;
          if (spend != nullptr) --budget;
          jump_steps_ = 1;
          found = next;
        } else {
          found = jump<R, P>(node, at, c, mask, node_free, limit, goal, path.touched, spend);
        }
      }
      if (found == kNone) continue;
      // the steps of the jump that returned `found` (no division to recover its coordinates)
      const int k = jump_steps_;
      const Offset3 o = cell_offset(c);
      const VoxelCoord to{at.x + k * o.dx, at.y + k * o.dy, at.z + k * o.dz};
      const double ng = g + k * t.cost[c];
      if (ng < g_[found]) {  // unseen, or open with a larger g; never closed
        improve(found, ng, node);
        dir_[found] = static_cast<std::uint8_t>(c);
        // note: among entries of equal f, a jump point with the free bit (so no forced
        // neighbour: its expansion follows the sub-directions of c only) whose natural cone
        // misses the goal comes after the others. In open space every move toward the goal lies
        // on some shortest path, so many jump points tie; those are dead ends there, and deeper
        // g first alone would expand them before the one that reaches the goal. Elsewhere few
        // voxels carry the free bit and the order is that of before; the test is only made when
        // the expanded voxel is free too (no extra load in dense space). A tie-break only: the
        // cost is A*'s whatever it is.
        bool preferred = true;
        if (P && node_free && free_bit(found)) {
          const int ex = goal_at.x - to.x;
          const int ey = goal_at.y - to.y;
          const int ez = goal_at.z - to.z;
          preferred = (o.dx == 0 ? ex == 0 : ex * o.dx >= 0) &&
                      (o.dy == 0 ? ey == 0 : ey * o.dy >= 0) &&
                      (o.dz == 0 ? ez == 0 : ez * o.dz >= 0);
        }
        open_.push(OpenItem::make(ng + octile_inline(to, goal_at), static_cast<float>(ng), found,
                                  preferred));
      }
    }
  }
  path.status = FlyStatus::NoPath;
}

Result<FlyPath> FlyPlanner::find_path(VoxelCoord start, VoxelCoord goal,
                                      const SearchConfig& config) {
  LEAPNAV_TRY(validate(config));
  if (grid_->padded_count() >= static_cast<std::int64_t>(kNone)) {
    return make_error(ErrorCode::MemoryLimit,
                      "fly: the grid has " + std::to_string(grid_->padded_count()) +
                          " padded voxels; the planner handles fewer than 2^32");
  }
  FlyPath path;
  if (!grid_->in_bounds(start)) {
    path.status = FlyStatus::StartOutside;
    return path;
  }
  if (!grid_->in_bounds(goal)) {
    path.status = FlyStatus::GoalOutside;
    return path;
  }
  if (grid_->blocked(start)) {
    path.status = FlyStatus::StartBlocked;
    return path;
  }
  if (grid_->blocked(goal)) {
    path.status = FlyStatus::GoalBlocked;
    return path;
  }
  const bool use_free = config.algorithm == Algorithm::JpsP || config.algorithm == Algorithm::JpsPD;
  const bool use_depth =
      config.algorithm == Algorithm::JpsD || config.algorithm == Algorithm::JpsPD;
  prepare(config.corners, use_free);
  word_sweeps_ = config.word_sweeps;
  if (config.algorithm != Algorithm::AStar && word_sweeps_) {
    prepare_sweeps(config.corners, use_free);
  }
  begin_query();
  const auto s = static_cast<std::uint32_t>(grid_->node(start));
  const auto g = static_cast<std::uint32_t>(grid_->node(goal));
  const int limit = use_depth ? config.depth : 0;
  const bool cut = config.corners == CornerRule::Cut;
  const bool shared = config.depth_includes_sub_sweeps;
  if (config.algorithm == Algorithm::AStar) {
    if (cut) {
      run_astar<CornerRule::Cut>(s, g, path);
    } else {
      run_astar<CornerRule::NoCut>(s, g, path);
    }
  } else if (cut) {
    if (use_free) {
      run_jps<CornerRule::Cut, true>(s, g, limit, shared, path);
    } else {
      run_jps<CornerRule::Cut, false>(s, g, limit, shared, path);
    }
  } else if (use_free) {
    run_jps<CornerRule::NoCut, true>(s, g, limit, shared, path);
  } else {
    run_jps<CornerRule::NoCut, false>(s, g, limit, shared, path);
  }
  return path;
}

FlyPlanner::JumpProbe FlyPlanner::probe_jump(VoxelCoord from, int dir, VoxelCoord goal,
                                             const SearchConfig& config) {
  const bool use_free = config.algorithm == Algorithm::JpsP || config.algorithm == Algorithm::JpsPD;
  const bool use_depth =
      config.algorithm == Algorithm::JpsD || config.algorithm == Algorithm::JpsPD;
  prepare(config.corners, use_free);
  word_sweeps_ = config.word_sweeps;
  if (word_sweeps_) prepare_sweeps(config.corners, use_free);
  JumpProbe probe;
  const auto s = static_cast<std::uint32_t>(grid_->node(from));
  const auto g = grid_->in_bounds(goal) ? static_cast<std::uint32_t>(grid_->node(goal)) : kNone;
  goal_at_ = goal;
  const int limit = use_depth ? config.depth : 0;
  const bool from_free = use_free && free_bit(s);
  const CellMask mask = from_free ? 0 : neighbourhood(s);
  std::uint32_t found = kNone;
  const bool cut = config.corners == CornerRule::Cut;
  int budget = limit;
  int* shared = config.depth_includes_sub_sweeps && limit > 0 ? &budget : nullptr;
  if (cut && use_free) {
    found =
        jump<CornerRule::Cut, true>(s, from, dir, mask, from_free, limit, g, probe.touched, shared);
  } else if (cut) {
    found = jump<CornerRule::Cut, false>(s, from, dir, mask, from_free, limit, g, probe.touched,
                                         shared);
  } else if (use_free) {
    found = jump<CornerRule::NoCut, true>(s, from, dir, mask, from_free, limit, g, probe.touched,
                                          shared);
  } else {
    found = jump<CornerRule::NoCut, false>(s, from, dir, mask, from_free, limit, g, probe.touched,
                                           shared);
  }
  probe.found = found != kNone;
  if (probe.found) probe.at = grid_->coord(found);
  return probe;
}

}  // namespace leapnav::grid3d
