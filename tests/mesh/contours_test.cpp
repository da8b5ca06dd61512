// Region contours on small ASCII heightfields: exact outlines of simple floors, hole bridging,
// shared corners of adjacent regions, edge splitting, the simplification tolerance and
// determinism. Every RegionField and ContourSet produced here is validated.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "leapnav/mesh/contours.hpp"
#include "leapnav/mesh/regions.hpp"
#include "mesh/region_fixture.hpp"
#include "support/chf_builder.hpp"

namespace {

using leapnav::BuildContext;
using leapnav::VoxelParams;
using leapnav::mesh::Contour;
using leapnav::mesh::ContourSet;
using leapnav::mesh::ContourVertex;
using leapnav::mesh::kNoRegion;
using leapnav::mesh::RegionField;
using leapnav::test::ChfLayer;
using leapnav::test::make_chf;

VoxelParams params_with(int min_cells, int merge_cells, float max_error = 1.3F,
                        int max_edge_len = 0) {
  VoxelParams params;
  params.min_region_cells = min_cells;
  params.merge_region_cells = merge_cells;
  params.max_edge_error_cells = max_error;
  params.max_edge_len_cells = max_edge_len;
  return params;
}

std::string describe(const ContourSet& set) {
  std::ostringstream out;
  for (const Contour& c : set.contours) {
    out << "region " << c.region << ":";
    for (const ContourVertex& v : c.vertices) {
      out << " (" << v.x << "," << v.y << "," << v.z << "|" << v.neighbor_region << ")";
    }
    out << "\n raw:";
    for (const ContourVertex& v : c.raw) {
      out << " (" << v.x << "," << v.y << "," << v.z << "|" << v.neighbor_region << ")";
    }
    out << "\n";
  }
  return out.str();
}

struct Built {
  RegionField regions;
  ContourSet contours;
};

Built build(const leapnav::voxel::CompactHeightfield& chf, const VoxelParams& params,
            int threads = 1) {
  RegionField regions = leapnav::test::regions_of(chf, params, threads);
  BuildContext ctx;
  ctx.set_threads(threads);
  auto contours = leapnav::mesh::build_contours(chf, regions, params, ctx);
  REQUIRE(contours.ok());
  const auto status = leapnav::mesh::validate(*contours);
  const std::string message =
      (status.ok() ? std::string() : status.error().message) + "\n" + describe(*contours);
  REQUIRE_MESSAGE(status.ok(), message);
  return {std::move(regions), std::move(contours).value()};
}

std::vector<std::string> filled(int width, int depth, char c = '.') {
  return std::vector<std::string>(static_cast<std::size_t>(depth),
                                  std::string(static_cast<std::size_t>(width), c));
}

std::int64_t doubled_area(const std::vector<ContourVertex>& vs) {
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const ContourVertex& a = vs[i];
    const ContourVertex& b = vs[(i + 1) % vs.size()];
    sum += static_cast<std::int64_t>(a.x) * b.z - static_cast<std::int64_t>(b.x) * a.z;
  }
  return sum;
}

// Every edge between two regions has both endpoints, with identical (x, y, z), in a contour of
// the region across it.
void check_shared_corners(const ContourSet& set) {
  std::set<std::tuple<int, int, int, int>> corners;  // (region, x, y, z)
  for (const Contour& c : set.contours) {
    for (const ContourVertex& v : c.vertices) corners.emplace(c.region, v.x, v.y, v.z);
  }
  for (const Contour& c : set.contours) {
    const std::size_t n = c.vertices.size();
    for (std::size_t i = 0; i < n; ++i) {
      const ContourVertex& a = c.vertices[i];
      const ContourVertex& b = c.vertices[(i + 1) % n];
      if (a.neighbor_region == kNoRegion || a.neighbor_region == c.region) continue;
      const bool has_a = corners.count({a.neighbor_region, a.x, a.y, a.z}) == 1;
      const bool has_b = corners.count({a.neighbor_region, b.x, b.y, b.z}) == 1;
      CHECK_MESSAGE(has_a, "region ", c.region, " corner (", a.x, ",", a.y, ",", a.z,
                    ") missing in region ", a.neighbor_region, "\n", describe(set));
      CHECK_MESSAGE(has_b, "region ", c.region, " corner (", b.x, ",", b.y, ",", b.z,
                    ") missing in region ", a.neighbor_region, "\n", describe(set));
    }
  }
}

double distance_to_polygon(const ContourVertex& p, const std::vector<ContourVertex>& polygon) {
  double best = 1e30;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const ContourVertex& a = polygon[i];
    const ContourVertex& b = polygon[(i + 1) % polygon.size()];
    const double abx = b.x - a.x;
    const double abz = b.z - a.z;
    const double len2 = abx * abx + abz * abz;
    double t = len2 > 0 ? ((p.x - a.x) * abx + (p.z - a.z) * abz) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double dx = p.x - (a.x + t * abx);
    const double dz = p.z - (a.z + t * abz);
    best = std::min(best, std::sqrt(dx * dx + dz * dz));
  }
  return best;
}

// Whether the point (px, pz) (in eighths of a cell) lies inside the closed polygon scaled by 8
// (even-odd; bridges, run twice, cancel out). Sets on_edge when it lies on an edge.
bool contains_eighths(const std::vector<ContourVertex>& polygon, std::int64_t px, std::int64_t pz,
                      bool& on_edge) {
  bool inside = false;
  const std::size_t n = polygon.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const std::int64_t ax = 8 * std::int64_t{polygon[i].x};
    const std::int64_t az = 8 * std::int64_t{polygon[i].z};
    const std::int64_t bx = 8 * std::int64_t{polygon[j].x};
    const std::int64_t bz = 8 * std::int64_t{polygon[j].z};
    const std::int64_t cross = (bx - ax) * (pz - az) - (bz - az) * (px - ax);
    if (cross == 0 && std::min(ax, bx) <= px && px <= std::max(ax, bx) && std::min(az, bz) <= pz &&
        pz <= std::max(az, bz)) {
      on_edge = true;
      return false;
    }
    if ((az > pz) != (bz > pz)) {
      // x of the edge at pz, compared exactly
      const bool right = (bz > az) ? cross > 0 : cross < 0;
      if (right) inside = !inside;
    }
  }
  return inside;
}

// On a single-storey map, no point of a cell that has a region (sampled at 4 points per cell, off
// the edges) is inside two contours. (Cells without a region are left out: walls simplified with
// a large tolerance may stray across a narrow gap from both sides.)
void check_no_overlap(const ContourSet& set, const leapnav::voxel::CompactHeightfield& chf,
                      const RegionField& regions, const std::string& context) {
  const int width = set.grid.width;
  const int depth = set.grid.depth;
  constexpr std::pair<int, int> kSamples[4] = {{3, 1}, {5, 3}, {1, 5}, {7, 7}};
  std::vector<char> has_region(static_cast<std::size_t>(width) * static_cast<std::size_t>(depth));
  for (std::size_t column = 0; column < has_region.size(); ++column) {
    for (std::uint32_t s = chf.column_first[column]; s < chf.column_first[column + 1]; ++s) {
      if (regions.span_region[s] != kNoRegion) has_region[column] = 1;
    }
  }
  // per sample, the first contour found around it
  std::vector<int> owner(has_region.size() * 4, -1);
  for (std::size_t c = 0; c < set.contours.size(); ++c) {
    const Contour& contour = set.contours[c];
    int min_x = width;
    int max_x = 0;
    int min_z = depth;
    int max_z = 0;
    for (const ContourVertex& v : contour.vertices) {
      min_x = std::min(min_x, v.x);
      max_x = std::max(max_x, v.x);
      min_z = std::min(min_z, v.z);
      max_z = std::max(max_z, v.z);
    }
    for (int z = min_z; z < max_z; ++z) {
      for (int x = min_x; x < max_x; ++x) {
        const auto column = static_cast<std::size_t>(z) * static_cast<std::size_t>(width) +
                            static_cast<std::size_t>(x);
        if (!has_region[column]) continue;
        for (std::size_t k = 0; k < 4; ++k) {
          bool on_edge = false;
          const std::int64_t px = 8 * std::int64_t{x} + kSamples[k].first;
          const std::int64_t pz = 8 * std::int64_t{z} + kSamples[k].second;
          if (!contains_eighths(contour.vertices, px, pz, on_edge)) continue;
          int& first = owner[column * 4 + k];
          if (first < 0) {
            first = static_cast<int>(c);
            continue;
          }
          CHECK_MESSAGE(first < 0, "cell (", x, ", ", z, ") lies in the contours of regions ",
                        set.contours[static_cast<std::size_t>(first)].region, " and ",
                        contour.region, "\n", describe(set), context);
        }
      }
    }
  }
}

// A region field by hand: over a single-storey heightfield from `rows`, letter 'A' + k in
// `region_rows` puts the column's span into region k + 1; anything else leaves it without region.
RegionField hand_regions(const leapnav::voxel::CompactHeightfield& chf,
                         const std::vector<std::string>& region_rows) {
  RegionField regions;
  regions.span_region.assign(chf.spans.size(), kNoRegion);
  const int width = chf.grid.width;
  for (int z = 0; z < chf.grid.depth; ++z) {
    for (int x = 0; x < width; ++x) {
      const char c = region_rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)];
      if (c < 'A' || c > 'Z') continue;
      const auto id = static_cast<std::uint16_t>(c - 'A' + 1);
      regions.region_count = std::max(regions.region_count, id);
      const auto column = static_cast<std::size_t>(z) * static_cast<std::size_t>(width) +
                          static_cast<std::size_t>(x);
      for (std::uint32_t s = chf.column_first[column]; s < chf.column_first[column + 1]; ++s) {
        regions.span_region[s] = id;
      }
    }
  }
  return regions;
}

bool has_vertex(const Contour& contour, int x, int z) {
  return std::any_of(contour.vertices.begin(), contour.vertices.end(),
                     [&](const ContourVertex& v) { return v.x == x && v.z == z; });
}

}  // namespace

TEST_SUITE("mesh.contours") {
  TEST_CASE("a square floor gives one contour with its 4 corners, counter-clockwise") {
    const auto chf = make_chf(filled(12, 12));
    const Built built = build(chf, params_with(4, 20));
    REQUIRE(built.contours.contours.size() == 1);
    const Contour& c = built.contours.contours[0];
    CHECK(c.region == 1);
    CHECK(c.area == leapnav::voxel::kWalkableArea);
    REQUIRE(c.vertices.size() == 4);
    const std::set<std::pair<int, int>> expected = {{0, 0}, {12, 0}, {12, 12}, {0, 12}};
    std::set<std::pair<int, int>> got;
    for (const ContourVertex& v : c.vertices) {
      got.emplace(v.x, v.z);
      CHECK(v.y == 0);
      CHECK(v.neighbor_region == kNoRegion);
    }
    CHECK(got == expected);
    CHECK(doubled_area(c.vertices) == 2 * 144);
    CHECK(c.raw.size() == 48);
  }

  TEST_CASE("a floor with a pillar gives one contour bridged around the hole") {
    std::vector<std::string> rows = filled(12, 12);
    for (int z = 5; z < 7; ++z) rows[static_cast<std::size_t>(z)].replace(5, 2, "  ");
    const auto chf = make_chf(rows);
    const Built built = build(chf, params_with(0, 1000));
    REQUIRE(built.regions.region_count == 1);
    REQUIRE(built.contours.contours.size() == 1);
    const Contour& c = built.contours.contours[0];
    // outer square minus the 2x2 pillar
    CHECK(doubled_area(c.vertices) == 2 * (144 - 4));
    std::set<std::pair<int, int>> got;
    for (const ContourVertex& v : c.vertices) got.emplace(v.x, v.z);
    for (const auto& corner : std::vector<std::pair<int, int>>{{5, 5}, {7, 5}, {7, 7}, {5, 7}}) {
      CHECK(got.count(corner) == 1);
    }
    // 4 outer + 4 hole + 2 bridge duplicates
    CHECK(c.vertices.size() == 10);
    int bridge_edges = 0;
    for (const ContourVertex& v : c.vertices) bridge_edges += v.neighbor_region == c.region ? 1 : 0;
    CHECK(bridge_edges == 2);
  }

  TEST_CASE("a floor with several pillars bridges every hole") {
    std::vector<std::string> rows = filled(20, 14);
    for (const auto& [x, z] : std::vector<std::pair<int, int>>{{4, 4}, {12, 3}, {8, 9}, {15, 10}}) {
      rows[static_cast<std::size_t>(z)].replace(static_cast<std::size_t>(x), 2, "  ");
      rows[static_cast<std::size_t>(z + 1)].replace(static_cast<std::size_t>(x), 2, "  ");
    }
    const auto chf = make_chf(rows);
    const Built built = build(chf, params_with(0, 1000));
    std::int64_t total = 0;
    for (const Contour& c : built.contours.contours) total += doubled_area(c.vertices);
    CHECK(total == 2 * (20 * 14 - 4 * 4));
  }

  TEST_CASE("a region enclosed by another is bridged into it and shares its corners") {
    std::vector<std::string> rows = filled(16, 16);
    for (int z = 5; z < 11; ++z) rows[static_cast<std::size_t>(z)].replace(5, 6, "bbbbbb");
    const auto chf = make_chf(rows);
    const Built built = build(chf, params_with(0, 0));
    REQUIRE(built.regions.region_count >= 2);
    std::int64_t outer_area = 0;
    std::int64_t inner_area = 0;
    for (const Contour& c : built.contours.contours) {
      (c.area == leapnav::test::kSecondArea ? inner_area : outer_area) += doubled_area(c.vertices);
    }
    CHECK(inner_area == 2 * 36);
    CHECK(outer_area == 2 * (256 - 36));
    check_shared_corners(built.contours);
  }

  TEST_CASE("two rooms joined by a corridor share identical corner vertices") {
    const std::vector<std::string> rows = {
        "........     ........",  //
        "........     ........",  //
        "........     ........",  //
        "........     ........",  //
        ".....................",  //
        "........     ........",  //
        "........     ........",  //
        "........     ........",  //
    };
    const auto chf = make_chf(rows);
    const Built built = build(chf, params_with(0, 0));
    CHECK(built.contours.contours.size() >= 2);
    std::int64_t total = 0;
    for (const Contour& c : built.contours.contours) total += doubled_area(c.vertices);
    // every cell is covered exactly once when the shared chains coincide: 8*8*2 + 5
    CHECK(total == 2 * (8 * 8 * 2 + 5));
    check_shared_corners(built.contours);
  }

  TEST_CASE("long border edges are split when max_edge_len is set") {
    const auto chf = make_chf(filled(30, 4));
    const Built unsplit = build(chf, params_with(0, 0, 1.3F, 0));
    REQUIRE(unsplit.contours.contours.size() == 1);
    CHECK(unsplit.contours.contours[0].vertices.size() == 4);
    const Built split = build(chf, params_with(0, 0, 1.3F, 8));
    REQUIRE(split.contours.contours.size() == 1);
    const auto& vs = split.contours.contours[0].vertices;
    CHECK(vs.size() > 4);
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const auto& a = vs[i];
      const auto& b = vs[(i + 1) % vs.size()];
      const int dx = b.x - a.x;
      const int dz = b.z - a.z;
      CHECK(dx * dx + dz * dz <= 64);
    }
  }

  TEST_CASE("corner heights follow the floor and a step is shared by both sides") {
    // left half at height 0, right half at height 1 (within climb): one or more regions; every
    // contour vertex height is the highest connected floor at that corner
    std::vector<std::string> rows = filled(12, 6);
    for (auto& row : rows) row.replace(6, 6, "111111");
    const auto chf = make_chf(rows);
    const Built built = build(chf, params_with(0, 0, 0.0F));
    check_shared_corners(built.contours);
    for (const Contour& c : built.contours.contours) {
      for (const ContourVertex& v : c.vertices) CHECK(v.y == (v.x >= 6 ? 1 : 0));
    }
  }

  TEST_CASE("a two-storey fixture gives contours on both storeys") {
    ChfLayer ground{0, filled(10, 10)};
    ChfLayer deck{10, filled(10, 10)};
    const auto chf = make_chf({ground, deck});
    const Built built = build(chf, params_with(0, 0));
    REQUIRE(built.regions.region_count == 2);
    REQUIRE(built.contours.contours.size() == 2);
    std::set<int> heights;
    for (const Contour& c : built.contours.contours) {
      CHECK(c.vertices.size() == 4);
      for (const ContourVertex& v : c.vertices) heights.insert(v.y);
    }
    CHECK(heights == std::set<int>{0, 10});
  }

  TEST_CASE(
      "random maps: valid contours, walls within tolerance, no overlap, shared corners, "
      "thread-independent") {
    std::mt19937 rng(99);
    for (int trial = 0; trial < 60; ++trial) {
      std::vector<std::string> rows = filled(36, 28);
      std::uniform_int_distribution<int> xs(0, 35);
      std::uniform_int_distribution<int> zs(0, 27);
      std::uniform_int_distribution<int> kind(0, 9);
      std::uniform_int_distribution<int> blob(1, 4);
      for (int k = 0; k < 40; ++k) {
        const int x0 = xs(rng);
        const int z0 = zs(rng);
        const int size = blob(rng);
        const int c = kind(rng);
        const char ch = c < 6 ? ' ' : (c < 7 ? 'x' : static_cast<char>('0' + c - 7));
        for (int z = z0; z < std::min(28, z0 + size); ++z) {
          for (int x = x0; x < std::min(36, x0 + size); ++x) {
            rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = ch;
          }
        }
      }
      std::string rows_text;
      for (const auto& row : rows) rows_text += row + "\n";
      const auto chf = make_chf(rows);
      const float error = trial % 2 == 0 ? 1.3F : 0.5F;
      const VoxelParams params = params_with(trial % 3 == 0 ? 0 : 8, trial % 4 == 0 ? 0 : 30, error,
                                             trial % 5 == 0 ? 6 : 0);
      const Built one = build(chf, params, 1);
      const Built four = build(chf, params, 4);
      CHECK(leapnav::mesh::content_hash(one.contours) ==
            leapnav::mesh::content_hash(four.contours));
      CHECK(leapnav::mesh::content_hash(one.regions) == leapnav::mesh::content_hash(four.regions));
      check_shared_corners(one.contours);
      for (const Contour& c : one.contours.contours) {
        for (std::size_t i = 0; i < c.raw.size(); ++i) {
          const ContourVertex& raw = c.raw[i];
          // note: a portal to another region may be its straight chord (see the straight-portal
          // tests); walls are held to the tolerance
          if (raw.neighbor_region != kNoRegion) continue;
          CHECK_MESSAGE(distance_to_polygon(raw, c.vertices) <= error + 1e-9, trial, " region ",
                        c.region, " raw (", raw.x, ",", raw.z, ")\n", describe(one.contours), "\n",
                        rows_text);
        }
      }
    }
  }

  TEST_CASE("random maps: straight portals never make the contours of two regions overlap") {
    // one storey (no steps between regions), tolerance 0.5 (walls alone never overlap then), many
    // small regions from scattered holes: chords that would pass a hole or another portal occur
    std::mt19937 rng(7);
    for (int trial = 0; trial < 24; ++trial) {
      constexpr int kSize = 120;
      std::vector<std::string> rows = filled(kSize, kSize);
      std::uniform_int_distribution<int> at(0, kSize - 1);
      std::uniform_int_distribution<int> kind(0, 9);
      std::uniform_int_distribution<int> blob(1, 3);
      const int blobs = trial % 2 == 0 ? 360 : 500;
      for (int k = 0; k < blobs; ++k) {
        const int x0 = at(rng);
        const int z0 = at(rng);
        const int size = blob(rng);
        const char ch = kind(rng) < 8 ? ' ' : 'x';
        for (int z = z0; z < std::min(kSize, z0 + size); ++z) {
          for (int x = x0; x < std::min(kSize, x0 + size); ++x) {
            rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = ch;
          }
        }
      }
      std::string rows_text;
      for (const auto& row : rows) rows_text += row + "\n";
      const auto chf = make_chf(rows);
      CAPTURE(trial);
      const Built built = build(chf, params_with(trial % 4 < 2 ? 0 : 4, 0, 0.5F), 1);
      check_no_overlap(built.contours, chf, built.regions, rows_text);
      check_shared_corners(built.contours);
    }
  }

  TEST_CASE("a bent portal becomes its chord in both regions when nothing lies in the way") {
    // A below-left, B above-right; their boundary bends at (12, 4) and (12, 16)
    std::vector<std::string> region_rows;
    for (int z = 0; z < 20; ++z) {
      std::string row;
      for (int x = 0; x < 24; ++x) row += (z < 4 || (x >= 12 && z < 16)) ? 'B' : 'A';
      region_rows.push_back(row);
    }
    const auto chf = make_chf(filled(24, 20));
    const RegionField regions = hand_regions(chf, region_rows);
    BuildContext ctx;
    auto contours = leapnav::mesh::build_contours(chf, regions, params_with(0, 0, 0.5F), ctx);
    REQUIRE(contours.ok());
    REQUIRE(leapnav::mesh::validate(*contours).ok());
    REQUIRE(contours->contours.size() == 2);
    for (const Contour& c : contours->contours) {
      CAPTURE(c.region);
      CHECK(has_vertex(c, 0, 4));
      CHECK(has_vertex(c, 24, 16));
      CHECK_FALSE(has_vertex(c, 12, 4));
      CHECK_FALSE(has_vertex(c, 12, 16));
    }
    check_shared_corners(*contours);
    check_no_overlap(*contours, chf, regions, "");
  }

  TEST_CASE("a portal keeps its bends where its chord would pass a hole or cross a wall") {
    // the same two regions; (a) a missing cell of A between the bent boundary and the chord,
    // (b) missing cells of A across the chord
    for (const int variant : {0, 1}) {
      CAPTURE(variant);
      std::vector<std::string> rows = filled(24, 20);
      std::vector<std::string> region_rows;
      for (int z = 0; z < 20; ++z) {
        std::string row;
        for (int x = 0; x < 24; ++x) row += (z < 4 || (x >= 12 && z < 16)) ? 'B' : 'A';
        region_rows.push_back(row);
      }
      if (variant == 0) {
        rows[5][9] = ' ';  // inside the pocket (0, 4), (12, 4), (12, 10), touching neither
      } else {
        for (int z = 6; z < 11; ++z) rows[static_cast<std::size_t>(z)][6] = ' ';  // chord: z = 7
      }
      const auto chf = make_chf(rows);
      const RegionField regions = hand_regions(chf, region_rows);
      BuildContext ctx;
      auto contours = leapnav::mesh::build_contours(chf, regions, params_with(0, 0, 0.5F), ctx);
      REQUIRE(contours.ok());
      REQUIRE(leapnav::mesh::validate(*contours).ok());
      for (const Contour& c : contours->contours) {
        CAPTURE(c.region);
        CHECK(has_vertex(c, 12, 4));
        CHECK(has_vertex(c, 12, 16));
      }
      check_shared_corners(*contours);
      check_no_overlap(*contours, chf, regions, "");
    }
  }

  TEST_CASE("validate rejects clockwise, short and off-grid contours") {
    ContourSet set;
    set.grid.width = 4;
    set.grid.depth = 4;
    set.grid.height = 10;
    Contour c;
    c.region = 1;
    c.vertices = {{0, 0, 0, 0}, {4, 0, 0, 0}, {4, 0, 4, 0}, {0, 0, 4, 0}};
    set.contours = {c};
    CHECK(leapnav::mesh::validate(set).ok());
    std::reverse(set.contours[0].vertices.begin(), set.contours[0].vertices.end());
    CHECK_FALSE(leapnav::mesh::validate(set).ok());
    set.contours[0].vertices = {{0, 0, 0, 0}, {4, 0, 0, 0}};
    CHECK_FALSE(leapnav::mesh::validate(set).ok());
    set.contours[0].vertices = {{0, 0, 0, 0}, {5, 0, 0, 0}, {4, 0, 4, 0}};
    CHECK_FALSE(leapnav::mesh::validate(set).ok());
    set.contours[0].vertices = {{0, 0, 0, 0}, {4, 0, 0, 0}, {4, 0, 0, 0}, {0, 0, 4, 0}};
    CHECK_FALSE(leapnav::mesh::validate(set).ok());
  }

  TEST_CASE("a region id above the region count and decreasing column offsets are rejected") {
    const auto chf = make_chf(filled(6, 6));
    BuildContext ctx;
    for (const std::size_t at : {std::size_t{0}, chf.spans.size() / 2, chf.spans.size() - 1}) {
      CAPTURE(at);
      RegionField regions;
      regions.region_count = 2;
      regions.span_region.assign(chf.spans.size(), 1);
      regions.span_region[at] = 2;  // the largest valid id
      CHECK(leapnav::mesh::build_contours(chf, regions, params_with(0, 0), ctx).ok());
      regions.span_region[at] = 3;
      const auto result = leapnav::mesh::build_contours(chf, regions, params_with(0, 0), ctx);
      REQUIRE_FALSE(result.ok());
      CHECK(result.error().code == leapnav::ErrorCode::InvalidArgument);
      CHECK(result.error().message ==
            "contours: span " + std::to_string(at) + " has region 3 > region_count 2");
    }
    RegionField regions;
    regions.region_count = 1;
    regions.span_region.assign(chf.spans.size(), 1);
    auto broken = chf;
    broken.column_first[3] = broken.column_first[4] + 1;
    const auto result = leapnav::mesh::build_contours(broken, regions, params_with(0, 0), ctx);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == leapnav::ErrorCode::InvalidArgument);
    CHECK(result.error().message.find("column offsets decrease at column 3") != std::string::npos);
  }

  TEST_CASE("mismatched region field is rejected") {
    const auto chf = make_chf(filled(4, 4));
    RegionField regions;
    regions.span_region.assign(3, 0);
    BuildContext ctx;
    const auto result = leapnav::mesh::build_contours(chf, regions, params_with(0, 0), ctx);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == leapnav::ErrorCode::InvalidArgument);
  }
}
