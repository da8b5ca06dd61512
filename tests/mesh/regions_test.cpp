// Watershed regions on small ASCII heightfields: exact region counts, filtering, the height-field
// rule and determinism across thread counts. Every RegionField produced here is validated.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "leapnav/mesh/regions.hpp"
#include "support/chf_builder.hpp"

namespace {

using leapnav::BuildContext;
using leapnav::VoxelParams;
using leapnav::mesh::RegionField;
using leapnav::test::ChfLayer;
using leapnav::test::make_chf;

VoxelParams params_with(int min_cells, int merge_cells) {
  VoxelParams params;
  params.min_region_cells = min_cells;
  params.merge_region_cells = merge_cells;
  return params;
}

RegionField regions_of(const leapnav::voxel::CompactHeightfield& chf, const VoxelParams& params,
                       int threads = 1) {
  BuildContext ctx;
  ctx.set_threads(threads);
  auto result = leapnav::mesh::build_regions(chf, params, ctx);
  REQUIRE(result.ok());
  const auto status = leapnav::mesh::validate(*result, chf);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
  return std::move(result).value();
}

std::vector<std::string> filled(int width, int depth, char c = '.') {
  return std::vector<std::string>(static_cast<std::size_t>(depth),
                                  std::string(static_cast<std::size_t>(width), c));
}

std::set<std::uint16_t> ids_in(const RegionField& regions) {
  return {regions.span_region.begin(), regions.span_region.end()};
}

}  // namespace

TEST_SUITE("mesh.regions") {
  TEST_CASE("a square floor is one region") {
    const auto chf = make_chf(filled(12, 12));
    const RegionField regions = regions_of(chf, params_with(4, 20));
    CHECK(regions.region_count == 1);
    CHECK(ids_in(regions) == std::set<std::uint16_t>{1});
  }

  TEST_CASE("without merging, two rooms joined by a corridor keep separate regions") {
    const std::vector<std::string> rows = {
        "........     ........",   //
        "........     ........",   //
        "........     ........",   //
        "........     ........",   //
        "......................",  //
        "........     ........",   //
        "........     ........",   //
        "........     ........",   //
    };
    const auto chf = make_chf(rows);
    const RegionField unmerged = regions_of(chf, params_with(0, 0));
    CHECK(unmerged.region_count >= 2);
    // the two room centres are in different regions
    const auto at = [&](const RegionField& r, int x, int z) {
      return r.span_region[chf.first(chf.grid.column_index(x, z))];
    };
    CHECK(at(unmerged, 3, 3) != at(unmerged, 18, 3));
    CHECK(at(unmerged, 3, 3) != 0);
    // with a large merge threshold everything connected becomes one region
    const RegionField merged = regions_of(chf, params_with(0, 1000));
    CHECK(merged.region_count == 1);
  }

  TEST_CASE("unwalkable and missing spans get no region") {
    const std::vector<std::string> rows = {
        "......",  //
        "..xx..",  //
        "..xx..",  //
        "......",  //
    };
    const auto chf = make_chf(rows);
    const RegionField regions = regions_of(chf, params_with(0, 0));
    for (std::uint32_t s = 0; s < chf.spans.size(); ++s) {
      CHECK((chf.areas[s] == leapnav::voxel::kNullArea) == (regions.span_region[s] == 0));
    }
  }

  TEST_CASE("small islands are removed and large ones kept") {
    const std::vector<std::string> rows = {
        "..........  ..",  //
        "..........  ..",  //
        "..........    ",  //
        "..........    ",  //
        "..........   .",  //
    };
    const auto chf = make_chf(rows);
    const RegionField regions = regions_of(chf, params_with(5, 0));
    const auto at = [&](int x, int z) {
      return regions.span_region[chf.first(chf.grid.column_index(x, z))];
    };
    CHECK(at(12, 0) == 0);  // 2x2 island of 4 cells < 5
    CHECK(at(13, 4) == 0);  // single cell
    CHECK(at(0, 0) != 0);
    const RegionField kept = regions_of(chf, params_with(4, 0));
    CHECK(kept.span_region[chf.first(chf.grid.column_index(12, 0))] != 0);
    CHECK(kept.span_region[chf.first(chf.grid.column_index(13, 4))] == 0);
  }

  TEST_CASE("a small region merges into its smallest neighbour") {
    // a 10x7 room and a 5x5 room joined by a 1-cell corridor: the small room seeds its own
    // region (20-odd spans), which merges away when the threshold is 40
    const std::vector<std::string> rows = {
        "..........         ",  //
        "..........    .....",  //
        "..........    .....",  //
        "...................",  //
        "..........    .....",  //
        "..........    .....",  //
        "..........         ",  //
    };
    const auto chf = make_chf(rows);
    const RegionField unmerged = regions_of(chf, params_with(0, 0));
    const RegionField merged = regions_of(chf, params_with(0, 40));
    CHECK(unmerged.region_count > merged.region_count);
    // no region of the merged field is smaller than 40
    std::vector<int> sizes(merged.region_count + 1, 0);
    for (const auto r : merged.span_region) sizes[r] += 1;
    int small = 0;
    for (std::size_t r = 1; r < sizes.size(); ++r) small += sizes[r] < 40 ? 1 : 0;
    CHECK(small == 0);
  }

  TEST_CASE("a two-storey spiral is split so no region holds two spans of a column") {
    // ground floor at 0, a ramp climbing one cell per step along z, upper floor at 10 over the
    // ground floor: one flood could cover both storeys; regions must not stack
    ChfLayer ground{0,
                    {
                        "..........0",  //
                        "..........1",  //
                        "..........2",  //
                        "..........3",  //
                        "..........4",  //
                        "..........5",  //
                        "..........6",  //
                        "..........7",  //
                        "..........8",  //
                        "..........9",  //
                    }};
    ChfLayer upper{10,
                   {
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "          ",   //
                       "..........0",  //
                   }};
    // the ramp's top (9) connects to the upper floor row at z = 10 (height 10); make the upper
    // floor cover the ground floor by adding a storey right above it
    ChfLayer deck{10, filled(10, 10)};
    const auto chf = make_chf({ground, upper, deck});
    for (const int merge : {0, 1000}) {
      const RegionField regions = regions_of(chf, params_with(0, merge));
      CHECK(regions.region_count >= 2);
      const auto column_region = [&](int x, int z, int k) {
        return regions
            .span_region[chf.first(chf.grid.column_index(x, z)) + static_cast<std::uint32_t>(k)];
      };
      CHECK(column_region(3, 3, 0) != column_region(3, 3, 1));
      CHECK(column_region(3, 3, 0) != 0);
      CHECK(column_region(3, 3, 1) != 0);
    }
  }

  TEST_CASE("regions are identical for 1 and 4 threads on random maps") {
    std::mt19937 rng(1234);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<std::string> rows = filled(40, 30);
      std::uniform_int_distribution<int> coord(0, 39);
      std::uniform_int_distribution<int> kind(0, 9);
      for (int k = 0; k < 120; ++k) {
        const int x = coord(rng);
        const int z = coord(rng) % 30;
        const int c = kind(rng);
        rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] =
            c < 6 ? ' ' : (c < 8 ? 'x' : static_cast<char>('0' + c - 7));
      }
      const auto chf = make_chf(rows);
      const auto params = params_with(trial % 3 == 0 ? 0 : 6, trial % 2 == 0 ? 0 : 25);
      const RegionField one = regions_of(chf, params, 1);
      const RegionField four = regions_of(chf, params, 4);
      CHECK(one.span_region == four.span_region);
      CHECK(leapnav::mesh::content_hash(one) == leapnav::mesh::content_hash(four));
    }
  }

  TEST_CASE("a heightfield without a distance field is rejected") {
    auto chf = make_chf(filled(4, 4));
    chf.distance.clear();
    BuildContext ctx;
    const auto result = leapnav::mesh::build_regions(chf, params_with(0, 0), ctx);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == leapnav::ErrorCode::InvalidArgument);
  }

  TEST_CASE("validate rejects a region holding two spans of one column") {
    ChfLayer ground{0, filled(3, 3)};
    ChfLayer deck{10, filled(3, 3)};
    const auto chf = make_chf({ground, deck});
    RegionField bad;
    bad.region_count = 1;
    bad.span_region.assign(chf.spans.size(), 1);
    CHECK_FALSE(leapnav::mesh::validate(bad, chf).ok());
  }

  TEST_CASE("an empty heightfield gives no regions") {
    const auto chf = make_chf(std::vector<std::string>{"   ", "   "});
    const RegionField regions = regions_of(chf, params_with(0, 0));
    CHECK(regions.region_count == 0);
  }
}
