// JPS-3D pruning rules over the 3x3x3 cube (spec C1-F) and the brute-force oracle they are
// validated against. The table enumerates every canonical move sequence from the parent to each
// candidate neighbour no longer than the path via the centre (at most 2 sqrt 3, so at most three
// moves) and keeps the minimal sets of cells such a path needs free; a candidate is forced iff it
// is legal and every one of its sets contains a blocked cell.
#include "leapnav/grid3d/neighbourhood.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <queue>

#include "leapnav/core/assert.hpp"

namespace leapnav::grid3d {
namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kTolerance = 1e-9;

bool in_cube(Offset3 o) {
  return o.dx >= -1 && o.dx <= 1 && o.dy >= -1 && o.dy <= 1 && o.dz >= -1 && o.dz <= 1;
}

Offset3 add(Offset3 a, Offset3 b) {
  return {a.dx + b.dx, a.dy + b.dy, a.dz + b.dz};
}

int index_of(Offset3 o) {
  return cell_index(o.dx, o.dy, o.dz);
}

// Cells of the box spanned by `from` and `from + move` (both in the cube), the start excluded.
CellMask box_from(Offset3 from, int move) {
  const Offset3 m = cell_offset(move);
  CellMask mask = 0;
  for (int ax = 0; ax <= (m.dx != 0 ? 1 : 0); ++ax) {
    for (int ay = 0; ay <= (m.dy != 0 ? 1 : 0); ++ay) {
      for (int az = 0; az <= (m.dz != 0 ? 1 : 0); ++az) {
        if (ax == 0 && ay == 0 && az == 0) continue;
        const Offset3 c{from.dx + ax * m.dx, from.dy + ay * m.dy, from.dz + az * m.dz};
        mask |= CellMask{1} << index_of(c);
      }
    }
  }
  return mask;
}

// What a move from `from` needs free under a rule (the centre is free by assumption).
CellMask needs_free(Offset3 from, int move, CornerRule rule) {
  const CellMask centre = CellMask{1} << kCentre;
  if (rule == CornerRule::Cut) {
    return (CellMask{1} << index_of(add(from, cell_offset(move)))) & ~centre;
  }
  return box_from(from, move) & ~centre;
}

void drop_supersets(std::vector<CellMask>& masks) {
  std::sort(masks.begin(), masks.end(), [](CellMask a, CellMask b) {
    const int pa = std::popcount(a);
    const int pb = std::popcount(b);
    return pa != pb ? pa < pb : a < b;
  });
  masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
  std::vector<CellMask> kept;
  for (const CellMask m : masks) {
    bool superset = false;
    for (const CellMask k : kept) superset = superset || (m & k) == k;
    if (!superset) kept.push_back(m);
  }
  masks = std::move(kept);
}

// Every canonical path from `at` (last move `last`, -1 = none) to `target` within `budget`.
void enumerate(Offset3 at, int last, double length, double budget, int target, CellMask needed,
               CornerRule rule, std::vector<CellMask>& out) {
  if (index_of(at) == target) {
    out.push_back(needed);
    return;
  }
  for (int c = 0; c < 27; ++c) {
    if (c == kCentre) continue;
    if (last >= 0 && !is_subdirection(c, last)) continue;
    const double next_length = length + move_cost(c);
    if (next_length > budget + kTolerance) continue;
    const Offset3 next = add(at, cell_offset(c));
    if (!in_cube(next) || index_of(next) == kCentre) continue;
    enumerate(next, c, next_length, budget, target, needed | needs_free(at, c, rule), rule, out);
  }
}

}  // namespace

double move_cost(int dir) {
  const int axes = axis_count(dir);
  return axes == 1 ? 1.0 : (axes == 2 ? kSqrt2 : kSqrt3);
}

bool is_subdirection(int c, int d) {
  const Offset3 a = cell_offset(c);
  const Offset3 b = cell_offset(d);
  return (a.dx == 0 || a.dx == b.dx) && (a.dy == 0 || a.dy == b.dy) && (a.dz == 0 || a.dz == b.dz);
}

CellMask move_box(int dir) {
  return box_from({0, 0, 0}, dir) & ~(CellMask{1} << kCentre);
}

CellMask legal_moves(CellMask blocked, CornerRule rule) {
  CellMask legal = 0;
  for (int d = 0; d < 27; ++d) {
    if (d == kCentre) continue;
    const CellMask need = rule == CornerRule::Cut ? (CellMask{1} << d) : move_box(d);
    if ((blocked & need) == 0) legal |= CellMask{1} << d;
  }
  return legal;
}

CellMask natural_moves(int dir, CellMask blocked, CornerRule rule) {
  const CellMask legal = legal_moves(blocked, rule);
  CellMask natural = 0;
  for (int c = 0; c < 27; ++c) {
    if (c != kCentre && is_subdirection(c, dir) && ((legal >> c) & 1U) != 0) {
      natural |= CellMask{1} << c;
    }
  }
  return natural;
}

CellMask forced_oracle(int dir, CellMask blocked, CornerRule rule, OracleRule oracle) {
  LEAPNAV_ASSERT(((blocked >> kCentre) & 1U) == 0, "the centre is free");
  // states: cell * 27 + last move (kCentre = no move yet)
  constexpr int kStates = 27 * 27;
  std::array<double, kStates> dist{};
  dist.fill(std::numeric_limits<double>::infinity());
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  const int parent = reverse(dir);
  const int start_state = parent * 27 + kCentre;
  dist[static_cast<std::size_t>(start_state)] = 0.0;
  open.push({0.0, parent * 27 + kCentre});
  while (!open.empty()) {
    const auto [g, state] = open.top();
    open.pop();
    if (g > dist[static_cast<std::size_t>(state)]) continue;
    const int cell = state / 27;
    const int last = state % 27;
    const Offset3 at = cell_offset(cell);
    for (int c = 0; c < 27; ++c) {
      if (c == kCentre) continue;
      if (oracle == OracleRule::Canonical && last != kCentre && !is_subdirection(c, last)) continue;
      const Offset3 next = add(at, cell_offset(c));
      if (!in_cube(next) || index_of(next) == kCentre) continue;
      const CellMask need =
          rule == CornerRule::Cut ? (CellMask{1} << index_of(next)) : box_from(at, c);
      if ((blocked & need) != 0) continue;
      const int next_state = index_of(next) * 27 + (oracle == OracleRule::Canonical ? c : kCentre);
      const double ng = g + move_cost(c);
      if (ng < dist[static_cast<std::size_t>(next_state)]) {
        dist[static_cast<std::size_t>(next_state)] = ng;
        open.push({ng, next_state});
      }
    }
  }
  const CellMask legal = legal_moves(blocked, rule);
  CellMask forced = 0;
  for (int m = 0; m < 27; ++m) {
    if (m == kCentre || is_subdirection(m, dir) || ((legal >> m) & 1U) == 0) continue;
    double alt = std::numeric_limits<double>::infinity();
    for (int last = 0; last < 27; ++last)
      alt =
          std::min(alt, dist[(static_cast<std::size_t>(m) * 27) + static_cast<std::size_t>(last)]);
    if (move_cost(dir) + move_cost(m) < alt - kTolerance) forced |= CellMask{1} << m;
  }
  return forced;
}

ForcedTable::ForcedTable(CornerRule rule) {
  for (int d = 0; d < 27; ++d) {
    candidate_first_[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(candidates_.size());
    if (d == kCentre) continue;
    const Offset3 parent = cell_offset(reverse(d));
    CellMask trigger = 0;
    CellMask relevant = 0;
    for (int m = 0; m < 27; ++m) {
      if (m == kCentre || is_subdirection(m, d)) continue;
      std::vector<CellMask> paths;
      enumerate(parent, -1, 0.0, move_cost(d) + move_cost(m), m, 0, rule, paths);
      drop_supersets(paths);
      // note: a legal candidate has the cells its own move needs free, so they can be dropped
      // from the alternatives' masks; a candidate left with an always-free alternative (an
      // empty mask) is never forced.
      const CellMask legal_needs_free = rule == CornerRule::Cut ? (CellMask{1} << m) : move_box(m);
      for (CellMask& p : paths) p &= ~legal_needs_free;
      drop_supersets(paths);
      if (!paths.empty() && paths.front() == 0) continue;
      // every candidate has some alternative in the empty cube, so an empty path list never
      // occurs; the trigger mask below relies on it.
      LEAPNAV_ASSERT(!paths.empty(), "a candidate with no canonical alternative");
      Candidate cand;
      cand.move = static_cast<std::uint8_t>(m);
      cand.legal_needs_free = legal_needs_free;
      cand.first = static_cast<std::uint32_t>(masks_.size());
      cand.count = static_cast<std::uint32_t>(paths.size());
      for (const CellMask p : paths) {
        masks_.push_back(p);
        trigger |= p;
      }
      relevant |= cand.legal_needs_free;
      candidates_.push_back(cand);
      // forced_given_legal: one path per candidate, grouped by path
      LEAPNAV_ASSERT(paths.size() == 1, "a candidate with more than one canonical alternative");
      Groups& groups = groups_[static_cast<std::size_t>(d)];
      int g = 0;
      while (g < kMaxGroups && groups.path[g / 4][g % 4] != 0 &&
             groups.path[g / 4][g % 4] != paths.front()) {
        ++g;
      }
      LEAPNAV_ASSERT(g < kMaxGroups, "more than kMaxGroups alternative paths");
      groups.path[g / 4][g % 4] = paths.front();
      groups.moves[g / 4][g % 4] |= CellMask{1} << m;
    }
    trigger_[static_cast<std::size_t>(d)] = trigger;
    relevant_[static_cast<std::size_t>(d)] = relevant | trigger;
  }
  candidate_first_[27] = static_cast<std::uint32_t>(candidates_.size());
}

const ForcedTable& ForcedTable::get(CornerRule rule) {
  static const ForcedTable cut(CornerRule::Cut);
  static const ForcedTable nocut(CornerRule::NoCut);
  return rule == CornerRule::Cut ? cut : nocut;
}

std::vector<ForcedTable::CandidateRule> ForcedTable::candidates(int dir) const {
  std::vector<CandidateRule> out;
  const std::uint32_t end = candidate_first_[static_cast<std::size_t>(dir) + 1];
  for (std::uint32_t i = candidate_first_[static_cast<std::size_t>(dir)]; i < end; ++i) {
    const Candidate& cand = candidates_[i];
    out.push_back({cand.move, cand.legal_needs_free,
                   std::span<const CellMask>(masks_).subspan(cand.first, cand.count)});
  }
  return out;
}

CellMask ForcedTable::forced(int dir, CellMask blocked) const {
  if ((blocked & trigger_[static_cast<std::size_t>(dir)]) == 0) return 0;
  CellMask forced = 0;
  const std::uint32_t end = candidate_first_[static_cast<std::size_t>(dir) + 1];
  for (std::uint32_t i = candidate_first_[static_cast<std::size_t>(dir)]; i < end; ++i) {
    const Candidate& cand = candidates_[i];
    if ((blocked & cand.legal_needs_free) != 0) continue;
    bool every_path_blocked = true;
    for (std::uint32_t k = 0; k < cand.count && every_path_blocked; ++k) {
      every_path_blocked = (blocked & masks_[cand.first + k]) != 0;
    }
    if (every_path_blocked) forced |= CellMask{1} << cand.move;
  }
  return forced;
}

}  // namespace leapnav::grid3d
