#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "jumplinks/jump_scene.hpp"
#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/jumplinks/land_search.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"
#include "support/shared_level.hpp"

using namespace leapnav;
using namespace leapnav::jump;

namespace {

std::vector<ObstacleSpan> column(const ObstacleField& f, int x, int z) {
  const std::size_t c = f.grid.column_index(x, z);
  return {f.spans.begin() + f.first(c), f.spans.begin() + f.end(c)};
}

// Random solid columns (several disjoint spans, heights up to several 64-voxel words) with an
// open span on top of some solid spans; no navmesh needed.
struct RandomField {
  voxel::Heightfield solid;
  voxel::CompactHeightfield open;
};

// Empty heightfields on a grid of 0.25 m cells.
RandomField empty_field(int width, int depth, int height) {
  RandomField f;
  GridSpec grid;
  grid.cell_size = 0.25F;
  grid.cell_height = 0.25F;
  grid.width = width;
  grid.depth = depth;
  grid.height = height;
  f.solid.grid = grid;
  f.open.grid = grid;
  return f;
}

RandomField random_field(std::mt19937& rng, int width, int depth, int height) {
  RandomField f = empty_field(width, depth, height);
  const GridSpec& grid = f.solid.grid;
  const auto columns = static_cast<std::size_t>(grid.column_count());
  f.solid.column_first.assign(columns + 1, 0);
  f.open.column_first.assign(columns + 1, 0);
  for (std::size_t c = 0; c < columns; ++c) {
    int y = static_cast<int>(rng() % 8);
    const int count = static_cast<int>(rng() % 4);
    for (int k = 0; k < count && y < height - 2; ++k) {
      const int top = std::min(height - 1, y + 1 + static_cast<int>(rng() % 90));
      f.solid.spans.push_back(
          {static_cast<std::uint16_t>(y), static_cast<std::uint16_t>(top), voxel::kNullArea});
      if (rng() % 2 == 0) {
        voxel::CompactSpan open;
        open.y = static_cast<std::uint16_t>(top);
        f.open.spans.push_back(open);
      }
      y = top + 1 + static_cast<int>(rng() % 20);
    }
    f.solid.column_first[c + 1] = static_cast<std::uint32_t>(f.solid.spans.size());
    f.open.column_first[c + 1] = static_cast<std::uint32_t>(f.open.spans.size());
  }
  return f;
}

// Reference: voxel k of column (x, z) is blocked when some solid span of a column within the
// radius covers it after growing down.
bool reference_blocked(const voxel::Heightfield& solid, const AgentConfig& agent, int grow, int x,
                       int z, int k) {
  const GridSpec& g = solid.grid;
  const int limit = static_cast<int>(agent.radius / g.cell_size) + 2;
  for (int dz = -limit; dz <= limit; ++dz) {
    for (int dx = -limit; dx <= limit; ++dx) {
      const double gx = std::max(std::abs(dx) - 1, 0) * static_cast<double>(g.cell_size);
      const double gz = std::max(std::abs(dz) - 1, 0) * static_cast<double>(g.cell_size);
      const double r = agent.radius;
      if (!(dx == 0 && dz == 0) && !(gx * gx + gz * gz < r * r)) continue;
      if (!g.in_bounds(x + dx, z + dz)) continue;
      const std::size_t c = g.column_index(x + dx, z + dz);
      for (std::uint32_t s = solid.first(c); s < solid.end(c); ++s)
        if (k >= solid.spans[s].min - grow && k < solid.spans[s].max) return true;
    }
  }
  return false;
}

// Every voxel of every column of `field` is blocked exactly when reference_blocked says so.
void check_blocked_voxels(const ObstacleField& field, const voxel::Heightfield& solid,
                          const AgentConfig& agent) {
  const GridSpec& g = solid.grid;
  for (int z = 0; z < g.depth; ++z) {
    for (int x = 0; x < g.width; ++x) {
      const auto runs = column(field, x, z);
      std::size_t r = 0;
      for (int k = 0; k < g.height; ++k) {
        while (r < runs.size() && runs[r].max <= k) ++r;
        const bool got = r < runs.size() && runs[r].min <= k;
        REQUIRE(got == reference_blocked(solid, agent, field.grow_down, x, z, k));
      }
    }
  }
}

}  // namespace

TEST_SUITE("jumplinks.obstacle_field") {
  TEST_CASE(
      "a floor stays walkable and a wall blocks the feet heights beside it within the radius") {
    // floor 2 m thick at y [0, 1]; a wall column block at x [2, 2.25] up to 3 m
    const test::JumpScene scene = test::JumpSceneBuilder(16, 16)
                                      .box({0, 0, 0}, {4, 1, 4})
                                      .box({2, 1, 0}, {2.25F, 3, 4})
                                      .build();
    BuildContext ctx;
    const auto field = build_obstacle_field(scene.solid, scene.open, scene.config.agent, ctx);
    REQUIRE(field.ok());
    CHECK(validate(*field, scene.open).ok());
    CHECK(field->grow_down == 8);  // 1.8 / 0.25 = 7.2, up
    CHECK(field->reach == 1);      // radius 0.25 = one cell: only the 8 neighbours
    // far from the wall: one run [0, 4) (floor, grown down to 0), top walkable
    auto far = column(*field, 0, 5);
    REQUIRE(far.size() == 1);
    CHECK(far[0].min == 0);
    CHECK(far[0].max == 4);
    CHECK(far[0].walkable_span != kNoWalkableSpan);
    // the wall's column and its neighbours (x = 7, 9) are blocked up to the wall top (12); the
    // wall's own top is a floor, its neighbours' floors (at 4) are buried
    for (const int x : {7, 8, 9}) {
      auto c = column(*field, x, 5);
      REQUIRE(c.size() == 1);
      CHECK(c[0].max == 12);
      CHECK((c[0].walkable_span != kNoWalkableSpan) == (x == 8));
    }
    // two columns away the floor is walkable again
    auto next = column(*field, 10, 5);
    REQUIRE(next.size() == 1);
    CHECK(next[0].max == 4);
    CHECK(next[0].walkable_span != kNoWalkableSpan);
  }

  TEST_CASE("a ceiling grows down by the agent height and a larger radius reaches farther") {
    // floor at 1 m, a slab at [4, 4.25] m over x [2, 4]
    AgentConfig agent{1.8F, 0.6F, 0.5F, 45.0F};
    const test::JumpScene scene = test::JumpSceneBuilder(16, 8)
                                      .agent(agent)
                                      .box({0, 0, 0}, {4, 1, 2})
                                      .box({2, 4, 0}, {4, 4.25F, 2})
                                      .build();
    BuildContext ctx;
    const auto field = build_obstacle_field(scene.solid, scene.open, agent, ctx);
    REQUIRE(field.ok());
    CHECK(validate(*field, scene.open).ok());
    CHECK(field->reach == 3);  // 0.6 m: offsets with gap (|d| - 1) * 0.25 < 0.6, so |d| <= 3
    // under the slab: floor run [0, 4) and the slab grown down by 8: [8, 17)
    auto under = column(*field, 10, 4);
    REQUIRE(under.size() == 2);
    CHECK(under[0].max == 4);
    CHECK(under[1].min == 8);
    CHECK(under[1].max == 17);
    // 3 columns left of the slab (x = 5) still blocked, 4 columns left (x = 4) not
    CHECK(column(*field, 5, 4).size() == 2);
    CHECK(column(*field, 4, 4).size() == 1);
  }

  TEST_CASE("random tall columns match a voxel-by-voxel reference for 1 and 2 threads") {
    std::mt19937 rng(20261121);
    for (int round = 0; round < 4; ++round) {
      const RandomField f = random_field(rng, 9 + round, 7, 300);
      AgentConfig agent{1.8F, round % 2 == 0 ? 0.25F : 0.6F, 0.5F, 45.0F};
      BuildContext one;
      one.set_threads(1);
      BuildContext two;
      two.set_threads(2);
      const auto field = build_obstacle_field(f.solid, f.open, agent, one);
      const auto again = build_obstacle_field(f.solid, f.open, agent, two);
      REQUIRE(field.ok());
      REQUIRE(again.ok());
      CHECK(validate(*field, f.open).ok());
      CHECK(field->spans == again->spans);
      CHECK(field->column_first == again->column_first);
      check_blocked_voxels(*field, f.solid, agent);
      const GridSpec& g = f.solid.grid;
      for (int z = 0; z < g.depth; ++z) {
        for (int x = 0; x < g.width; ++x) {
          const auto runs = column(*field, x, z);
          const std::size_t c = g.column_index(x, z);
          for (const ObstacleSpan& run : runs) {
            std::uint32_t expected = kNoWalkableSpan;
            for (std::uint32_t s = f.open.first(c); s < f.open.end(c); ++s)
              if (f.open.spans[s].y == run.max) expected = s;
            CHECK(run.walkable_span == expected);
          }
        }
      }
    }
  }

  TEST_CASE("rows narrower than the agent's sideways reach match the voxel-by-voxel reference") {
    // a row of 1-5 columns holds fewer words than the dilation shifts by (radius 1.2 m: 6 columns)
    std::mt19937 rng(20261122);
    for (const int width : {1, 2, 3, 5}) {
      for (const float radius : {0.6F, 1.2F}) {
        const RandomField f = random_field(rng, width, 9, 150);
        const AgentConfig agent{1.8F, radius, 0.5F, 45.0F};
        BuildContext ctx;
        const auto field = build_obstacle_field(f.solid, f.open, agent, ctx);
        REQUIRE(field.ok());
        CHECK(validate(*field, f.open).ok());
        CHECK(field->reach >= 3);
        check_blocked_voxels(*field, f.solid, agent);
      }
    }
  }

  TEST_CASE("a field too tall for the planes keeps every bit and searches voxel by voxel") {
    // one column of solid 40,000 voxels tall: 626 words, beyond the 15 bits of the search's
    // 16-bit band arithmetic
    RandomField f = empty_field(6, 6, 40100);
    const GridSpec& grid = f.solid.grid;
    const auto columns = static_cast<std::size_t>(grid.column_count());
    f.solid.column_first.assign(columns + 1, 0);
    f.open.column_first.assign(columns + 1, 0);
    for (std::size_t c = 0; c < columns; ++c) {
      const std::uint16_t top = c == 14 ? 40000 : 4;
      f.solid.spans.push_back({0, top, voxel::kNullArea});
      voxel::CompactSpan open;
      open.y = top;
      f.open.spans.push_back(open);
      f.solid.column_first[c + 1] = static_cast<std::uint32_t>(f.solid.spans.size());
      f.open.column_first[c + 1] = static_cast<std::uint32_t>(f.open.spans.size());
    }
    AgentConfig agent{1.8F, 0.25F, 0.5F, 45.0F};
    BuildContext ctx;
    auto bits = build_obstacle_bits(f.solid, agent, ctx, BitsKept::ApproxOnly);
    REQUIRE(bits.ok());
    CHECK(!bits->has_planes());
    CHECK(bits->all_bits);
    CHECK(bits->words > ObstacleBits::kMaxPlaneWords);
    const Status status = validate(*bits);
    CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
    for (const auto kernel : {LandSearch::Kernel::Planes, LandSearch::Kernel::PlanesAvx2,
                              LandSearch::Kernel::PlanesAvx512})
      CHECK(!LandSearch::supported(*bits, kernel));
    const LandSearch search(*bits, f.open, kJumpC1);
    CHECK(search.kernel() == LandSearch::Kernel::Bits);
    // a search from a floor next to the tower runs (the tower blocks its quadrants' cells)
    std::vector<std::uint32_t> centre(f.open.spans.size(), 1);
    std::vector<LandVoxel> voxels;
    std::uint64_t cells = 0;
    search.find(0, 0, 4, 0, centre, voxels, &cells);
    CHECK(cells > 0);
  }

  TEST_CASE("the run planes hold every column's runs in both orientations") {
    std::mt19937 rng(20261122);
    for (int round = 0; round < 4; ++round) {
      // 300 voxels: five words per column, runs across word boundaries, up to three per column
      const RandomField f = random_field(rng, 11 + round, 9 + 2 * round, 300);
      AgentConfig agent{1.8F, round % 2 == 0 ? 0.25F : 0.6F, 0.5F, 45.0F};
      for (const int threads : {1, 2}) {
        BuildContext ctx;
        ctx.set_threads(threads);
        auto bits = build_obstacle_bits(f.solid, agent, ctx);
        REQUIRE(bits.ok());
        REQUIRE(bits->has_planes());
        const Status status = validate(*bits);
        CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
        // a wrong value is caught
        bits->rows_z.values[static_cast<std::size_t>(bits->rows_z.stride) + 1] ^= 1;
        CHECK(!validate(*bits).ok());
      }
    }
  }

  TEST_CASE("a grid mismatch is an error") {
    const test::JumpScene scene = test::JumpSceneBuilder(8, 8).box({0, 0, 0}, {2, 1, 2}).build();
    voxel::CompactHeightfield other = scene.open;
    other.grid.width = 9;
    BuildContext ctx;
    CHECK_FALSE(build_obstacle_field(scene.solid, other, scene.config.agent, ctx).ok());
  }
}

namespace {

// The land voxels and cell counts of every open span as a sample, per kernel, equal to the bits
// kernel's (the one that reads the field voxel by voxel).
// The kernels run on `bits` (all bits kept) and on `sparse` (only the approximate columns').
void check_kernels_agree(const ObstacleBits& bits, const ObstacleBits& sparse,
                         const voxel::CompactHeightfield& open,
                         std::span<const std::uint32_t> centre, const JumpConfig& config,
                         int step) {
  REQUIRE(bits.all_bits);
  REQUIRE(!sparse.all_bits);
  CHECK(!LandSearch::supported(sparse, LandSearch::Kernel::Bits));
  const LandSearch reference(bits, open, config, LandSearch::Kernel::Bits);
  REQUIRE(reference.kernel() == LandSearch::Kernel::Bits);
  const GridSpec& g = open.grid;
  int compared = 0;
  for (const auto kernel : {LandSearch::Kernel::Planes, LandSearch::Kernel::PlanesAvx2,
                            LandSearch::Kernel::PlanesAvx512}) {
    if (!LandSearch::supported(bits, kernel)) {
      MESSAGE("kernel " << static_cast<int>(kernel) << " not supported here; skipped");
      continue;
    }
    const LandSearch search(bits, open, config, kernel);
    const LandSearch on_sparse(sparse, open, config, kernel);
    REQUIRE(search.kernel() == kernel);
    REQUIRE(on_sparse.kernel() == kernel);
    ++compared;
    std::uint64_t samples = 0;
    std::uint64_t voxels = 0;
    std::vector<LandSearch::Start> starts;
    std::vector<std::vector<LandVoxel>> wanted;
    std::uint64_t wanted_cells = 0;
    for (int z = 0; z < g.depth; z += step) {
      for (int x = 0; x < g.width; x += step) {
        const std::size_t c = g.column_index(x, z);
        for (std::uint32_t s = open.first(c); s < open.end(c); ++s) {
          std::vector<LandVoxel> want;
          std::vector<LandVoxel> got;
          std::uint64_t want_cells = 0;
          std::uint64_t got_cells = 0;
          const int y = open.spans[s].y;
          reference.find(x, z, y, centre[s], centre, want, &want_cells);
          search.find(x, z, y, centre[s], centre, got, &got_cells);
          REQUIRE(got == want);
          REQUIRE(got_cells == want_cells);
          got.clear();
          got_cells = 0;
          on_sparse.find(x, z, y, centre[s], centre, got, &got_cells);
          REQUIRE(got == want);
          REQUIRE(got_cells == want_cells);
          ++samples;
          voxels += want.size();
          starts.push_back({x, z, y, centre[s]});
          wanted.push_back(want);
          wanted_cells += want_cells;
        }
      }
    }
    CHECK(samples > 0);
    CHECK(voxels > 0);
    // several starts at once, in blocks of uneven sizes: each start's voxels as find gives them
    std::vector<LandVoxel> block;
    std::vector<std::uint32_t> first;
    std::uint64_t block_cells = 0;
    for (std::size_t b = 0, size = 1; b < starts.size(); b += size, size = size % 37 + 5) {
      const std::size_t n = std::min(size, starts.size() - b);
      on_sparse.find_many(std::span(starts).subspan(b, n), centre, block, first, &block_cells);
      REQUIRE(first.size() == n + 1);
      REQUIRE(first.back() == block.size());
      for (std::size_t k = 0; k < n; ++k) {
        REQUIRE(std::vector<LandVoxel>(block.begin() + first[k], block.begin() + first[k + 1]) ==
                wanted[b + k]);
      }
    }
    CHECK(block_cells == wanted_cells);
  }
  // every machine that runs the tests has the portable plane kernel
  CHECK(compared >= 1);
}

// Terraced ground (tops from `ground` to ground + 8 voxels) in blocks of 4 x 4 columns, some
// blocks with one or two platforms stacked above (columns of up to three solid spans, tops up to
// ground + 80 voxels), a floor on every top.
RandomField terraced_field(std::mt19937& rng, int width, int depth, int ground_base) {
  RandomField f = empty_field(width, depth, 320);
  const GridSpec& grid = f.solid.grid;
  const int bw = (width + 3) / 4;
  const int bd = (depth + 3) / 4;
  std::vector<int> ground(static_cast<std::size_t>(bw * bd));
  std::vector<int> layers(ground.size());
  for (std::size_t b = 0; b < ground.size(); ++b) {
    ground[b] = ground_base + static_cast<int>(rng() % 9);
    layers[b] = static_cast<int>(rng() % 6) < 4 ? 0 : 1 + static_cast<int>(rng() % 2);
  }
  const auto columns = static_cast<std::size_t>(grid.column_count());
  f.solid.column_first.assign(columns + 1, 0);
  f.open.column_first.assign(columns + 1, 0);
  for (int z = 0; z < depth; ++z) {
    for (int x = 0; x < width; ++x) {
      const auto b = static_cast<std::size_t>((x / 4) + (z / 4) * bw);
      const int spans[3][2] = {
          {0, ground[b]}, {ground[b] + 30, ground[b] + 33}, {ground[b] + 70, ground[b] + 72}};
      for (int k = 0; k <= layers[b]; ++k) {
        f.solid.spans.push_back({static_cast<std::uint16_t>(spans[k][0]),
                                 static_cast<std::uint16_t>(spans[k][1]), voxel::kNullArea});
        voxel::CompactSpan open;
        open.y = static_cast<std::uint16_t>(spans[k][1]);
        f.open.spans.push_back(open);
      }
      const std::size_t c = grid.column_index(x, z);
      f.solid.column_first[c + 1] = static_cast<std::uint32_t>(f.solid.spans.size());
      f.open.column_first[c + 1] = static_cast<std::uint32_t>(f.open.spans.size());
    }
  }
  return f;
}

}  // namespace

TEST_SUITE("jumplinks.land_search") {
  TEST_CASE("division by a reciprocal equals integer division") {
    std::mt19937_64 rng(20261124);
    for (std::uint64_t d = 1; d <= 5000; ++d) {
      const std::uint64_t recip = detail::reciprocal(d);
      for (const std::uint64_t n :
           {std::uint64_t{0}, d - 1, d, d + 1, d * d - 1, d * d, 4 * d * d + 3})
        REQUIRE(detail::divide(n, d, recip) == n / d);
      for (int k = 0; k < 200; ++k) {
        const std::uint64_t n = rng() >> (1 + rng() % 62);
        REQUIRE(detail::divide(n, d, recip) == n / d);
      }
    }
    for (int k = 0; k < 100000; ++k) {
      const std::uint64_t d = 1 + (rng() >> (1 + rng() % 62));
      const std::uint64_t n = rng() >> 1;
      REQUIRE(detail::divide(n, d, detail::reciprocal(d)) == n / d);
    }
  }

  TEST_CASE("every plane kernel finds the bits kernel's land voxels on stacked terraces") {
    std::mt19937 rng(20261123);
    // which band widths and plane forms the rounds exercised
    bool narrow = false;
    bool wide = false;
    bool clamped = false;
    for (int round = 0; round < 3; ++round) {
      // the last round's tops pass RunPlanes::kMaxExact: clamped planes and 16-bit bands
      const RandomField f = terraced_field(rng, 40 + 7 * round, 36, round < 2 ? 100 : 200);
      AgentConfig agent{1.8F, 0.25F, 0.5F, 45.0F};
      BuildContext ctx;
      auto bits = build_obstacle_bits(f.solid, agent, ctx);
      REQUIRE(bits.ok());
      auto sparse = build_obstacle_bits(f.solid, agent, ctx, BitsKept::ApproxOnly);
      REQUIRE(sparse.ok());
      const Status status = validate(*sparse);
      CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
      CHECK(sparse->rows_x.values == bits->rows_x.values);
      CHECK(sparse->rows_z.values == bits->rows_z.values);
      CHECK(sparse->rows_z.approx == bits->rows_z.approx);
      CHECK(!sparse->bits.empty());
      CHECK(sparse->bits.size() < bits->bits.size() / 4);
      // a kept column missing is caught
      ObstacleBits missing = *sparse;
      missing.bits.resize(missing.bits.size() - static_cast<std::size_t>(missing.words));
      CHECK(!validate(missing).ok());
      // every column's bits are found through the rank, equal to the full layout's
      for (int z = 0; z < f.solid.grid.depth; ++z) {
        for (int x = 0; x < f.solid.grid.width; ++x) {
          const std::uint64_t* kept = sparse->column(x, z);
          if (kept == nullptr) continue;
          const std::uint64_t* all = bits->column(x, z);
          REQUIRE(std::equal(kept, kept + sparse->words, all));
        }
      }
      // a wrong rank is caught
      ObstacleBits misranked = *sparse;
      const auto flagged =
          std::find_if(misranked.rows_x.approx.begin(), misranked.rows_x.approx.end(),
                       [](std::uint64_t w) { return w != 0; });
      REQUIRE(flagged != misranked.rows_x.approx.end());
      ++misranked.kept_before[static_cast<std::size_t>(flagged - misranked.rows_x.approx.begin())];
      CHECK(!validate(misranked).ok());
      // an approximate flag past a row's end is caught
      ObstacleBits past_end = *sparse;
      const int end = past_end.grid.width;
      past_end.rows_x.approx[static_cast<std::size_t>(end / 64)] |= std::uint64_t{1} << (end % 64);
      CHECK(!validate(past_end).ok());
      // arbitrary polygons, so that some land voxels are kept and some are skipped
      std::vector<std::uint32_t> centre(f.open.spans.size());
      for (std::size_t s = 0; s < centre.size(); ++s)
        centre[s] = static_cast<std::uint32_t>((s * 7919U) % 5U);
      for (const JumpConfig& config : {kJumpC1, kJumpC2, kJumpC3, JumpConfig{2.0F, 4.0F, 30.0F},
                                       JumpConfig{2.0F, 4.0F, 40.0F}}) {
        check_kernels_agree(*bits, *sparse, f.open, centre, config, 1 + round);
        const LandSearch search(*sparse, f.open, config, LandSearch::Kernel::Planes);
        (search.narrow_bands() ? narrow : wide) = true;
      }
      for (int z = 0; z < f.solid.grid.depth; ++z) {
        for (int x = 0; x < f.solid.grid.width; ++x) {
          const RunPlanes::Value* at = sparse->rows_x.row(z) + x;
          if (at[RunPlanes::kHi0 * sparse->rows_x.stride] == RunPlanes::kClamped ||
              at[RunPlanes::kHi1 * sparse->rows_x.stride] == RunPlanes::kClamped)
            clamped = true;
        }
      }
    }
    CHECK(narrow);
    CHECK(wide);
    CHECK(clamped);
  }

  TEST_CASE(
      "the centre-polygon cache gives every span centre_polygons' answer on the real levels") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      for (const char* config : {"default", "thesis"}) {
        const auto level = test::build_shared_level(file, config);
        if (!level) continue;
        const voxel::CompactHeightfield& open = level->built.voxels.compact;
        const std::vector<std::uint32_t> want = centre_polygons(open, level->built.navmesh, 1);
        const CentrePolygonCache cache(open, level->built.navmesh);
        const GridSpec& g = open.grid;
        std::size_t checked = 0;
        std::size_t elsewhere = 0;  // spans whose centre lies outside their own polygon
        for (int z = 0; z < g.depth; ++z) {
          for (int x = 0; x < g.width; ++x) {
            const std::size_t c = g.column_index(x, z);
            for (std::uint32_t s = open.first(c); s < open.end(c); ++s) {
              REQUIRE(cache.get(x, z, s) == want[s]);
              // asked again: the stored value
              REQUIRE(cache.get(x, z, s) == want[s]);
              elsewhere += want[s] != level->built.navmesh.span_poly[s] ? 1U : 0U;
              ++checked;
            }
          }
        }
        CHECK(checked == want.size());
        // both branches of the test are exercised: own polygon and the others
        CHECK(elsewhere > 0);
      }
    }
  }

  TEST_CASE("every plane kernel finds the bits kernel's land voxels on the real levels") {
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto level = test::build_shared_level(file, "thesis");
      if (!level) continue;
      const AgentConfig& agent = level->config.agent;
      const mesh::BuildOutput& built = level->built;
      BuildContext ctx;
      auto bits = build_obstacle_bits(built.voxels.solid, agent, ctx);
      REQUIRE(bits.ok());
      auto sparse = build_obstacle_bits(built.voxels.solid, agent, ctx, BitsKept::ApproxOnly);
      REQUIRE(sparse.ok());
      for (const ObstacleBits* field : {&*bits, &*sparse}) {
        const Status status = validate(*field);
        CHECK_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
      }
      const std::vector<std::uint32_t> centre =
          centre_polygons(built.voxels.compact, built.navmesh, 0);
      for (const JumpConfig& jump : {kJumpC1, kJumpC2, kJumpC3}) {
        check_kernels_agree(*bits, *sparse, built.voxels.compact, centre, jump, 9);
        // both levels are low enough for 8-bit bands
        CHECK(LandSearch(*sparse, built.voxels.compact, jump).narrow_bands());
      }
    }
  }
}
