// The bucketed open list against a reference heap: the same pop sequence on random A*-like
// (monotone) and arbitrary push orders, equal f values and equal g values included.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "leapnav/grid3d/open_list.hpp"

using namespace leapnav::grid3d;

namespace {

constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrt3 = 1.7320508075688772;

struct Before {
  bool operator()(const OpenItem& a, const OpenItem& b) const { return before(a, b); }
};
using Reference = std::multiset<OpenItem, Before>;

bool same(const OpenItem& a, const OpenItem& b) {
  return a.f_bits == b.f_bits && a.g_node == b.g_node;
}

// A key as A* makes them: a few moves of 1, sqrt 2, sqrt 3 above a base, so that equal f values
// (and equal g values) recur.
double step_key(std::mt19937_64& rng, double base) {
  static constexpr double kCosts[3] = {1.0, kSqrt2, kSqrt3};
  std::uniform_int_distribution<int> pick(0, 2);
  std::uniform_int_distribution<int> count(0, 2);
  double f = base;
  for (int i = count(rng); i > 0; --i) f += kCosts[pick(rng)];
  return f;
}

// Runs one random sequence of pushes and pops against the reference; `monotone` keeps every push
// at most 2 sqrt 3 above the last pop (A* with a consistent heuristic), otherwise keys are
// anywhere in [0, spread). Returns the number of pops compared.
int run_sequence(OpenList& list, std::mt19937_64& rng, bool monotone, double spread, int pushes) {
  list.clear();
  Reference reference;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<std::uint32_t> node(0, 50);
  std::uniform_int_distribution<int> g_pick(0, 7);
  double last = 10.0 * unit(rng);
  int pops = 0;
  for (int i = 0; i < pushes; ++i) {
    double f = 0.0;
    if (monotone) {
      f = unit(rng) < 0.3 ? last : step_key(rng, last);
      if (unit(rng) < 0.05) f = std::nextafter(last, 0.0);  // a rounding step below the last pop
    } else {
      f = spread * unit(rng);
    }
    const OpenItem item = OpenItem::make(f, static_cast<float>(g_pick(rng)), node(rng));
    list.push(item);
    reference.insert(item);
    CHECK(list.size() == reference.size());
    // pop now and then, sometimes several in a row
    while (!reference.empty() && unit(rng) < 0.45) {
      OpenItem got;
      REQUIRE(list.pop(got));
      const OpenItem want = *reference.begin();
      reference.erase(reference.begin());
      REQUIRE(same(got, want));
      last = got.f();
      ++pops;
    }
  }
  while (!reference.empty()) {
    OpenItem got;
    REQUIRE(list.pop(got));
    const OpenItem want = *reference.begin();
    reference.erase(reference.begin());
    REQUIRE(same(got, want));
    ++pops;
  }
  OpenItem none;
  CHECK_FALSE(list.pop(none));
  CHECK(list.empty());
  return pops;
}

}  // namespace

TEST_SUITE("grid3d.open_list") {
  TEST_CASE("monotone A*-like keys pop in the reference heap's order, ties included") {
    std::mt19937_64 rng(26);
    OpenList list;
    int pops = 0;
    for (int run = 0; run < 200; ++run) pops += run_sequence(list, rng, true, 0.0, 400);
    CHECK(pops == 200 * 400);
  }

  TEST_CASE("arbitrary keys, smaller than the last pop or beyond the ring, pop in order too") {
    std::mt19937_64 rng(27);
    // a narrow ring (4 buckets of 0.5) so that most keys start in the overflow
    OpenList narrow(0.5, 4);
    OpenList wide;
    for (int run = 0; run < 100; ++run) {
      CHECK(run_sequence(narrow, rng, false, run % 2 == 0 ? 40.0 : 3000.0, 300) == 300);
      CHECK(run_sequence(wide, rng, false, 2.0, 300) == 300);
      CHECK(run_sequence(narrow, rng, true, 0.0, 300) == 300);
    }
  }

  TEST_CASE("entries dropped as their bucket becomes the heap are the only ones missing") {
    std::mt19937_64 rng(28);
    OpenList list;
    std::uniform_int_distribution<std::uint32_t> node(0, 99);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // a node id divisible by 3 stands for a closed node: the caller skips it after a pop anyway
    const auto closed = [](const OpenItem& item) { return item.node() % 3 == 0; };
    std::uint64_t dropped_somewhere = 0;
    for (int run = 0; run < 100; ++run) {
      list.clear();
      Reference reference;
      double last = 0.0;
      for (int i = 0; i < 500; ++i) {
        const OpenItem item = OpenItem::make(step_key(rng, last), 1.0F, node(rng));
        list.push(item);
        reference.insert(item);
        if (unit(rng) < 0.4) {
          // the caller's loop: pop until an entry that is not closed
          OpenItem want;
          bool have_want = false;
          while (!reference.empty()) {
            want = *reference.begin();
            reference.erase(reference.begin());
            if (!closed(want)) {
              have_want = true;
              break;
            }
          }
          OpenItem got;
          bool have_got = false;
          while (list.pop(got, closed)) {
            if (!closed(got)) {
              have_got = true;
              break;
            }
          }
          REQUIRE(have_got == have_want);
          if (have_got) {
            REQUIRE(same(got, want));
            last = got.f();
          }
        }
      }
      dropped_somewhere += list.size() < reference.size() ? 1U : 0U;
    }
    // the drop test ran on some buckets (else this test would check nothing beyond the first)
    CHECK(dropped_somewhere > 0);
  }
}
