// index_links: the stable (start polygon, land polygon, configuration) order and the group
// arrays, by counting passes or, when the ids' ranges are large, by a comparison sort.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "leapnav/jumplinks/jump_links.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

JumpLinkSet random_links(std::mt19937& rng, std::size_t n, std::uint32_t polygons,
                         std::uint32_t land_range, std::uint16_t configs) {
  JumpLinkSet set;
  set.configs.assign(configs, kJumpC1);
  for (std::size_t k = 0; k < n; ++k) {
    JumpLink l;
    l.start_poly = static_cast<std::uint32_t>(rng() % polygons);
    l.land_poly = static_cast<std::uint32_t>(rng() % land_range);
    l.config = static_cast<std::uint16_t>(rng() % configs);
    // the position tells links apart, so the order within a group is checked too
    l.start = Vec3{static_cast<float>(k), 0.0F, 0.0F};
    set.links.push_back(l);
  }
  return set;
}

void check_indexed(JumpLinkSet set, std::size_t polygons) {
  std::vector<JumpLink> expected = set.links;
  std::stable_sort(expected.begin(), expected.end(), [](const JumpLink& a, const JumpLink& b) {
    return std::make_tuple(a.start_poly, a.land_poly, a.config) <
           std::make_tuple(b.start_poly, b.land_poly, b.config);
  });
  index_links(set, polygons);
  REQUIRE(set.links == expected);
  REQUIRE(set.poly_first.size() == polygons + 1);
  for (std::size_t p = 0; p < polygons; ++p) {
    for (std::uint32_t g = set.poly_first[p]; g < set.poly_first[p + 1]; ++g) {
      for (std::uint32_t k = set.group_first[g]; k < set.group_first[g + 1]; ++k) {
        CHECK(set.links[k].start_poly == p);
        CHECK(set.links[k].land_poly == set.group_land_poly[g]);
      }
    }
  }
  CHECK(set.group_first.back() == set.links.size());
}

}  // namespace

TEST_SUITE("jumplinks.index_links") {
  TEST_CASE("counting passes give the stable order of a comparison sort") {
    std::mt19937 rng(20261125);
    // few polygons and configurations: the counting passes
    check_indexed(random_links(rng, 5000, 40, 40, 3), 40);
    check_indexed(random_links(rng, 100, 7, 7, 1), 7);
    // land polygon ids far beyond the input's size: the comparison sort
    JumpLinkSet sparse = random_links(rng, 300, 20, 20, 2);
    for (JumpLink& l : sparse.links) l.land_poly = l.land_poly * 1000003U % 4000000U;
    check_indexed(sparse, 20);
    // fewer than 64 links
    check_indexed(random_links(rng, 30, 5, 5, 2), 5);
  }
}
