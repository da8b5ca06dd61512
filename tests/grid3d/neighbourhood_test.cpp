// The canonical forced-neighbour rule (spec C1-F): the compiled tables against the brute-force
// 3x3x3 oracle, and the thesis's examples T1-T4 as exact sets.
#include <doctest/doctest.h>

#include <bit>
#include <initializer_list>
#include <random>

#include "leapnav/grid3d/neighbourhood.hpp"

using namespace leapnav::grid3d;

namespace {

CellMask cells(std::initializer_list<Offset3> offsets) {
  CellMask mask = 0;
  for (const Offset3 o : offsets) mask |= CellMask{1} << cell_index(o.dx, o.dy, o.dz);
  return mask;
}

int dir(int dx, int dy, int dz) {
  return cell_index(dx, dy, dz);
}

// A random neighbourhood consistent with arriving at the centre by d: the parent free and, under
// nocut, the arriving move's box free.
CellMask random_neighbourhood(std::mt19937_64& rng, int d, CornerRule rule) {
  const double fill = std::uniform_real_distribution<double>(0.0, 0.7)(rng);
  CellMask mask = 0;
  for (int c = 0; c < 27; ++c) {
    if (c != kCentre && std::uniform_real_distribution<double>(0.0, 1.0)(rng) < fill) {
      mask |= CellMask{1} << c;
    }
  }
  mask &= ~(CellMask{1} << reverse(d));
  if (rule == CornerRule::NoCut) mask &= ~move_box(reverse(d));
  return mask;
}

void check_oracle_and_table(int d, CellMask blocked, CornerRule rule, CellMask expected) {
  CAPTURE(d);
  CAPTURE(blocked);
  CHECK(forced_oracle(d, blocked, rule) == expected);
  CHECK(ForcedTable::get(rule).forced(d, blocked) == expected);
}

}  // namespace

TEST_SUITE("grid3d.neighbourhood") {
  TEST_CASE(
      "nocut legal moves by word operations equal the box test on every sparse and 500,000 "
      "random neighbourhoods") {
    const auto check = [](CellMask blocked) {
      CAPTURE(blocked);
      REQUIRE(legal_moves_nocut(blocked) == legal_moves(blocked, CornerRule::NoCut));
    };
    // every neighbourhood with at most three blocked cells (the centre left free)
    check(0);
    for (int a = 0; a < 27; ++a) {
      if (a == kCentre) continue;
      check(CellMask{1} << a);
      for (int b = a + 1; b < 27; ++b) {
        if (b == kCentre) continue;
        check((CellMask{1} << a) | (CellMask{1} << b));
        for (int c = b + 1; c < 27; ++c) {
          if (c == kCentre) continue;
          check((CellMask{1} << a) | (CellMask{1} << b) | (CellMask{1} << c));
        }
      }
    }
    std::mt19937_64 rng(261);
    for (int i = 0; i < 500000; ++i) {
      // fill rates spread over 0-100 % by ANDing 1-4 random words
      CellMask blocked = static_cast<CellMask>(rng());
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) blocked &= static_cast<CellMask>(rng());
      if (i % 2 == 1) blocked = ~blocked;
      check(blocked & ((CellMask{1} << 27) - 1) & ~(CellMask{1} << kCentre));
    }
  }

  TEST_CASE("natural neighbours number 1, 3 and 7 for straight, 2-axis and 3-axis moves") {
    for (int d = 0; d < 27; ++d) {
      if (d == kCentre) continue;
      const int expected = axis_count(d) == 1 ? 1 : (axis_count(d) == 2 ? 3 : 7);
      CHECK(std::popcount(natural_moves(d, 0, CornerRule::Cut)) == expected);
      CHECK(std::popcount(natural_moves(d, 0, CornerRule::NoCut)) == expected);
    }
  }

  TEST_CASE("an empty neighbourhood forces nothing in any direction under either rule") {
    for (int d = 0; d < 27; ++d) {
      if (d == kCentre) continue;
      for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
        CHECK(forced_oracle(d, 0, rule) == 0);
        CHECK(ForcedTable::get(rule).forced(d, 0) == 0);
      }
    }
  }

  TEST_CASE("T1: straight moves force the thesis's Examples 2-4 neighbours") {
    const int d = dir(1, 0, 0);
    check_oracle_and_table(d, cells({{0, 0, -1}}), CornerRule::Cut, cells({{1, 0, -1}}));
    check_oracle_and_table(d, cells({{0, -1, -1}}), CornerRule::Cut, cells({{1, -1, -1}}));
    check_oracle_and_table(d, cells({{0, -1, -1}, {0, -1, 0}}), CornerRule::Cut,
                           cells({{1, -1, -1}, {1, -1, 0}}));
    check_oracle_and_table(d, cells({{0, 1, 0}}), CornerRule::Cut, cells({{1, 1, 0}}));
    check_oracle_and_table(d, cells({{-1, 1, 0}}), CornerRule::Cut, 0);
    CHECK(natural_moves(d, cells({{0, 1, 0}}), CornerRule::Cut) == cells({{1, 0, 0}}));
  }

  TEST_CASE("T1: a straight move's forced set is the closed form of jps3d under cut") {
    // x + d + l forced iff x + l blocked and x + d + l free, for the 8 lateral offsets l.
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 4000; ++trial) {
      const int axis = trial % 6;
      const int sign = axis < 3 ? 1 : -1;
      const Offset3 dv{axis % 3 == 0 ? sign : 0, axis % 3 == 1 ? sign : 0,
                       axis % 3 == 2 ? sign : 0};
      const int d = dir(dv.dx, dv.dy, dv.dz);
      const CellMask blocked = random_neighbourhood(rng, d, CornerRule::Cut);
      CellMask expected = 0;
      for (int c = 0; c < 27; ++c) {
        const Offset3 l = cell_offset(c);
        if (l.dx * dv.dx + l.dy * dv.dy + l.dz * dv.dz != 0) continue;
        if (c == kCentre) continue;
        if ((l.dx != 0 && dv.dx != 0) || (l.dy != 0 && dv.dy != 0) || (l.dz != 0 && dv.dz != 0))
          continue;
        const int ahead = cell_index(l.dx + dv.dx, l.dy + dv.dy, l.dz + dv.dz);
        if (((blocked >> c) & 1U) != 0 && ((blocked >> ahead) & 1U) == 0) {
          expected |= CellMask{1} << ahead;
        }
      }
      CAPTURE(d);
      CAPTURE(blocked);
      CHECK(ForcedTable::get(CornerRule::Cut).forced(d, blocked) == expected);
    }
  }

  TEST_CASE("T2: 2-axis moves force the thesis's Examples 5-7 neighbours") {
    const int d = dir(1, 1, 0);
    check_oracle_and_table(d, 0, CornerRule::Cut, 0);
    CHECK(natural_moves(d, 0, CornerRule::Cut) == cells({{1, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
    check_oracle_and_table(d, cells({{0, -1, 0}}), CornerRule::Cut, cells({{1, -1, 0}}));
    check_oracle_and_table(d, cells({{-1, 0, 0}}), CornerRule::Cut, cells({{-1, 1, 0}}));
    check_oracle_and_table(d, cells({{0, -1, 0}, {0, -1, 1}}), CornerRule::Cut,
                           cells({{1, -1, 0}, {1, -1, 1}}));
    check_oracle_and_table(d, cells({{0, -1, 1}}), CornerRule::Cut, cells({{1, -1, 1}}));
    check_oracle_and_table(d, cells({{0, 0, 1}}), CornerRule::Cut,
                           cells({{0, 1, 1}, {1, 0, 1}, {1, 1, 1}}));
  }

  TEST_CASE("T3: 3-axis moves force the thesis's Examples 8-9 neighbours") {
    const int d = dir(1, 1, 1);
    check_oracle_and_table(d, 0, CornerRule::Cut, 0);
    CHECK(std::popcount(natural_moves(d, 0, CornerRule::Cut)) == 7);
    check_oracle_and_table(d, cells({{-1, 0, 0}}), CornerRule::Cut,
                           cells({{-1, 0, 1}, {-1, 1, 0}, {-1, 1, 1}}));
    check_oracle_and_table(d, cells({{0, -1, -1}}), CornerRule::Cut, cells({{1, -1, -1}}));
    check_oracle_and_table(d, cells({{-1, -1, 0}}), CornerRule::Cut, cells({{-1, -1, 1}}));
  }

  TEST_CASE("T4: nocut forced sets of the benchmark rule") {
    check_oracle_and_table(dir(1, 0, 0), cells({{0, 0, -1}}), CornerRule::NoCut, 0);
    check_oracle_and_table(
        dir(1, 0, 0), cells({{-1, 1, 0}}), CornerRule::NoCut,
        cells({{0, 1, -1}, {0, 1, 0}, {0, 1, 1}, {1, 1, -1}, {1, 1, 0}, {1, 1, 1}}));
    check_oracle_and_table(dir(1, 1, 0), cells({{0, -1, 0}}), CornerRule::NoCut,
                           cells({{0, 0, -1},
                                  {0, 0, 1},
                                  {0, 1, -1},
                                  {0, 1, 1},
                                  {1, 0, -1},
                                  {1, 0, 1},
                                  {1, 1, -1},
                                  {1, 1, 1}}));
  }

  TEST_CASE("the tables equal the oracle for every direction with one or two blocked cells") {
    for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
      const ForcedTable& table = ForcedTable::get(rule);
      for (int d = 0; d < 27; ++d) {
        if (d == kCentre) continue;
        for (int a = 0; a < 27; ++a) {
          for (int b = a; b < 27; ++b) {
            if (a == kCentre || b == kCentre) continue;
            const CellMask blocked = (CellMask{1} << a) | (CellMask{1} << b);
            if (((blocked >> reverse(d)) & 1U) != 0) continue;
            if (rule == CornerRule::NoCut && (blocked & move_box(reverse(d))) != 0) continue;
            const CellMask want = forced_oracle(d, blocked, rule);
            const CellMask got = table.forced(d, blocked);
            if (want != got) {
              CAPTURE(d);
              CAPTURE(blocked);
              CHECK(got == want);
            }
          }
        }
      }
    }
  }

  TEST_CASE(
      "the grouped forced rule equals the tables for every neighbourhood with up to three blocked "
      "cells and on seeded random ones, in every direction under both rules") {
    std::mt19937_64 rng(20261126);
    int mismatches = 0;
    int checked = 0;
    const auto check = [&](const ForcedTable& table, CornerRule rule, int d, CellMask blocked) {
      const CellMask got = table.forced_given_legal(d, blocked, legal_moves(blocked, rule));
      if (got != table.forced(d, blocked)) {
        ++mismatches;
        CAPTURE(d);
        CAPTURE(blocked);
        CHECK(got == table.forced(d, blocked));
      }
      ++checked;
    };
    for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
      const ForcedTable& table = ForcedTable::get(rule);
      for (int d = 0; d < 27; ++d) {
        if (d == kCentre) continue;
        for (int a = 0; a < 27; ++a) {
          for (int b = a; b < 27; ++b) {
            for (int c = b; c < 27; ++c) {
              if (a == kCentre || b == kCentre || c == kCentre) continue;
              check(table, rule, d, (CellMask{1} << a) | (CellMask{1} << b) | (CellMask{1} << c));
            }
          }
        }
        check(table, rule, d, 0);
      }
      for (int trial = 0; trial < 200000; ++trial) {
        int d = static_cast<int>(rng() % 26);
        if (d >= kCentre) ++d;
        // any fill, arrival-consistent or not: the two forms agree on every mask
        const CellMask blocked = static_cast<CellMask>(rng()) &
                                 static_cast<CellMask>(rng() | rng()) &
                                 (((CellMask{1} << 27) - 1) & ~(CellMask{1} << kCentre));
        check(table, rule, d, blocked);
      }
    }
    CHECK(mismatches == 0);
    CHECK(checked > 400000);
  }

  TEST_CASE("the tables equal the oracle on seeded random neighbourhoods in every direction") {
    // note: the benchmark's --validate-rules runs millions of these; CI runs a bounded sample.
    std::mt19937_64 rng(20260526);
    int mismatches = 0;
    for (const CornerRule rule : {CornerRule::Cut, CornerRule::NoCut}) {
      const ForcedTable& table = ForcedTable::get(rule);
      for (int trial = 0; trial < 6000; ++trial) {
        int d = static_cast<int>(rng() % 26);
        if (d >= kCentre) ++d;
        const CellMask blocked = random_neighbourhood(rng, d, rule);
        if (forced_oracle(d, blocked, rule) != table.forced(d, blocked)) ++mismatches;
      }
    }
    CHECK(mismatches == 0);
  }
}
