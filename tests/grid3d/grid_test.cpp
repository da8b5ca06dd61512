// The occupancy grid: layout invariants, heightfield resampling and round trips, MovingAI files
// and the agent-box dilation against brute force.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "leapnav/grid3d/convert.hpp"
#include "leapnav/grid3d/occupancy.hpp"
#include "leapnav/grid3d/scenes.hpp"

using namespace leapnav;
using namespace leapnav::grid3d;

namespace {

OccupancyGrid made(Result<OccupancyGrid> r) {
  REQUIRE(r.ok());
  return std::move(r).value();
}

voxel::Heightfield field_with(float cs, float ch, int w, int d, int h,
                              const std::vector<std::vector<voxel::Span>>& columns) {
  voxel::Heightfield f;
  f.grid.cell_size = cs;
  f.grid.cell_height = ch;
  f.grid.width = w;
  f.grid.depth = d;
  f.grid.height = h;
  for (const auto& column : columns) {
    f.column_first.push_back(static_cast<std::uint32_t>(f.spans.size()));
    f.spans.insert(f.spans.end(), column.begin(), column.end());
  }
  f.column_first.push_back(static_cast<std::uint32_t>(f.spans.size()));
  REQUIRE(voxel::validate(f).ok());
  return f;
}

}  // namespace

TEST_SUITE("grid3d.grid") {
  TEST_CASE("a new grid is free inside, blocked outside, and holds about one bit per voxel") {
    const OccupancyGrid grid = made(make_grid(93, 93, 93));
    CHECK(validate(grid).ok());
    CHECK(grid.blocked_count() == 0);
    CHECK_FALSE(grid.blocked({0, 0, 0}));
    CHECK(grid.blocked({-1, 0, 0}));
    CHECK(grid.blocked({0, 93, 0}));
    // 93^3 voxels padded to 95^3 plus two guard layers: under 1.2 bits per voxel
    CHECK(static_cast<double>(grid.memory_bytes()) * 8.0 / static_cast<double>(grid.voxel_count()) <
          1.2);
    OccupancyGrid copy = grid;
    copy.set_blocked({5, 6, 7}, true);
    CHECK(copy.blocked({5, 6, 7}));
    CHECK(copy.blocked_count() == 1);
    CHECK(validate(copy).ok());
    CHECK(content_hash(copy) != content_hash(grid));
  }

  TEST_CASE("validate names an unblocked border cell") {
    OccupancyGrid grid = made(make_grid(4, 4, 4));
    const auto b = static_cast<std::uint64_t>(grid.node({-1, 0, 0}) + grid.guard_bits());
    grid.bits[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
    const Status s = validate(grid);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().message.find("border cell (-1, 0, 0)") != std::string::npos);
  }

  TEST_CASE("make_grid rejects empty and oversized extents") {
    CHECK(make_grid(0, 4, 4).error().code == ErrorCode::InvalidArgument);
    CHECK(make_grid(4, 4, kMaxGridSide3 + 1).error().code == ErrorCode::InvalidArgument);
    CHECK(make_grid(65536, 65536, 65536).error().code == ErrorCode::MemoryLimit);
  }

  TEST_CASE("resampling a finer heightfield blocks every voxel that solid overlaps") {
    // cell size 0.25 m, cell height 0.25 m, 2 x 1 columns, into 0.5 m voxels
    const voxel::Heightfield f =
        field_with(0.25F, 0.25F, 2, 2, 8, {{{1, 3, 0}}, {}, {}, {{6, 7, 0}}});
    const OccupancyGrid grid = made(from_heightfield(f, 0.5F));
    CHECK(grid.width == 1);
    CHECK(grid.depth == 1);
    CHECK(grid.height == 4);
    // span [0.25, 0.75) m overlaps voxels 0 and 1; span [1.5, 1.75) m overlaps voxel 3
    CHECK(grid.blocked({0, 0, 0}));
    CHECK(grid.blocked({0, 1, 0}));
    CHECK_FALSE(grid.blocked({0, 2, 0}));
    CHECK(grid.blocked({0, 3, 0}));
  }

  TEST_CASE("resampling a coarser cell height keeps touching solid out of the free voxel") {
    // cell height 0.3 m into 0.2 m voxels: span [0.3, 0.6) covers voxel 1 partly, 2 fully
    const voxel::Heightfield f = field_with(0.2F, 0.3F, 1, 1, 4, {{{1, 2, 0}}});
    const OccupancyGrid grid = made(from_heightfield(f, 0.2F));
    CHECK(grid.height == 6);
    CHECK_FALSE(grid.blocked({0, 0, 0}));
    CHECK(grid.blocked({0, 1, 0}));
    CHECK(grid.blocked({0, 2, 0}));
    CHECK_FALSE(grid.blocked({0, 3, 0}));
  }

  TEST_CASE("grid to heightfield and back is lossless on random grids") {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      OccupancyGrid grid = made(
          random_grid(7 + static_cast<int>(seed), 9, 5, 0.1 * static_cast<double>(seed), seed));
      grid.voxel_size = 0.25F;
      grid.origin = {-3.0F, 1.5F, 2.25F};
      auto field = to_heightfield(grid);
      REQUIRE(field.ok());
      CHECK(voxel::validate(*field).ok());
      const OccupancyGrid back = made(from_heightfield(*field, 0.25F));
      CHECK(same_occupancy(back, grid));
      // and the heightfield survives the other way round
      auto again = to_heightfield(back);
      REQUIRE(again.ok());
      CHECK(again->spans == field->spans);
      CHECK(again->column_first == field->column_first);
    }
  }

  TEST_CASE(".3dmap text round-trips and keeps HOG2's axes") {
    OccupancyGrid grid = made(random_grid(6, 4, 5, 0.3, 9));
    const std::string text = write_3dmap(grid);
    CHECK(text.rfind("voxel 6 4 5\n", 0) == 0);
    const OccupancyGrid back = made(parse_3dmap(text, "r.3dmap"));
    CHECK(same_occupancy(back, grid));
    const OccupancyGrid one = made(parse_3dmap("voxel 3 2 4\n2 1 3\n", "one.3dmap"));
    CHECK(one.width == 3);
    CHECK(one.height == 2);
    CHECK(one.depth == 4);
    CHECK(one.blocked_count() == 1);
    CHECK(one.blocked({2, 1, 3}));
    const OccupancyGrid rev = made(parse_3dmap("rev_voxel 2 2 2\n0 0 0\n1 1 1\n", "rev.3dmap"));
    CHECK(rev.blocked_count() == 6);
    CHECK_FALSE(rev.blocked({1, 1, 1}));
  }

  TEST_CASE(".3dmap errors name the file and line") {
    auto e = parse_3dmap("", "empty.3dmap");
    CHECK(e.error().code == ErrorCode::EmptyInput);
    e = parse_3dmap("voxels 1 2 3\n", "h.3dmap");
    CHECK(e.error().code == ErrorCode::ParseError);
    CHECK(e.error().message == "h.3dmap:1: expected the header 'voxel W H D'");
    e = parse_3dmap("voxel 4 4 4\n1 2 3\n\n1 x 3\n", "bad.3dmap");
    CHECK(e.error().code == ErrorCode::ParseError);
    CHECK(e.error().message == "bad.3dmap:4: expected three integers 'x y z'");
    e = parse_3dmap("voxel 4 4 4\n1 2 4\n", "out.3dmap");
    CHECK(e.error().code == ErrorCode::IndexOutOfRange);
    CHECK(e.error().message == "out.3dmap:2: voxel (1, 2, 4) is outside the 4 x 4 x 4 map");
    e = parse_3dmap("voxel 0 4 4\n", "zero.3dmap");
    CHECK(e.error().code == ErrorCode::InvalidArgument);
    CHECK(read_3dmap("/no/such.3dmap").error().code == ErrorCode::IoError);
  }

  TEST_CASE(".3dscen files parse with their optimal costs and report bad lines") {
    const auto scen = parse_3dscen(
        "version 1\nmaps/a.3dmap\n1 2 3 4 5 6 7.5 1.0\n0 0 0 1 1 1 1.7320508 0 0\n", "a.3dscen");
    REQUIRE(scen.ok());
    CHECK(scen->map_name == "maps/a.3dmap");
    REQUIRE(scen->entries.size() == 2);
    CHECK(scen->entries[0].start == VoxelCoord{1, 2, 3});
    CHECK(scen->entries[0].goal == VoxelCoord{4, 5, 6});
    CHECK(scen->entries[0].cost == 7.5);
    CHECK(scen->entries[1].line == 4);
    auto bad = parse_3dscen("version 1\nm\n1 2 3 4 5 6 nan 0\n", "b.3dscen");
    CHECK(bad.error().code == ErrorCode::ParseError);
    CHECK(bad.error().message.rfind("b.3dscen:3: ", 0) == 0);
    CHECK(parse_3dscen("version 1\n", "c.3dscen").error().code == ErrorCode::EmptyInput);
  }

  TEST_CASE(
      "dilating by an agent box blocks exactly the voxels whose box meets solid or the outside") {
    const OccupancyGrid grid = made(random_grid(9, 8, 7, 0.04, 3));
    const AgentBox box{1, 0, 2};
    const OccupancyGrid out = made(dilate(grid, box));
    CHECK(validate(out).ok());
    int mismatches = 0;
    for (int y = 0; y < grid.height; ++y) {
      for (int z = 0; z < grid.depth; ++z) {
        for (int x = 0; x < grid.width; ++x) {
          bool hit = false;
          for (int dy = -box.radius_y; dy <= box.radius_y; ++dy)
            for (int dz = -box.radius_z; dz <= box.radius_z; ++dz)
              for (int dx = -box.radius_x; dx <= box.radius_x; ++dx)
                hit = hit || grid.blocked({x + dx, y + dy, z + dz});
          mismatches += hit != out.blocked({x, y, z}) ? 1 : 0;
        }
      }
    }
    CHECK(mismatches == 0);
    CHECK(same_occupancy(made(dilate(grid, {})), grid));
    CHECK(dilate(grid, {65, 0, 0}).error().code == ErrorCode::InvalidArgument);
  }
}
