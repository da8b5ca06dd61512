// The typed NavMesh accessors (PolyId, kNoPolyId) agree with the raw CSR arrays they read, and
// adjacency through them is symmetric.
#include <doctest/doctest.h>

#include <cstdint>

#include "leapnav/core/config.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"

using namespace leapnav;
using leapnav::mesh::kNoPoly;
using leapnav::mesh::kNoPolyId;
using leapnav::mesh::PolyId;

TEST_SUITE("mesh.poly_id") {
  TEST_CASE("typed accessors read the same ids as the raw arrays; adjacency is symmetric") {
    const auto scene = io::builtin_scene("demo");
    REQUIRE(scene.ok());
    BuildContext ctx;
    ctx.set_threads(1);
    const auto built = mesh::build_navmesh(*scene, *named_config("default"), ctx);
    REQUIRE(built.ok());
    const mesh::NavMesh& nav = built->navmesh;
    REQUIRE(nav.polygon_count() > 1);
    std::uint32_t expected = 0;
    std::size_t boundary = 0;
    std::size_t shared = 0;
    for (const PolyId p : nav.polygon_ids()) {
      CHECK(mesh::index(p) == expected++);
      CHECK(nav.vertex_count(p) == nav.polygon(p).size());
      std::size_t edge = 0;
      for (const PolyId n : nav.neighbor_ids(p)) {
        const std::uint32_t raw = nav.poly_neighbors[nav.poly_first[mesh::index(p)] + edge];
        CHECK(mesh::index(n) == raw);
        CHECK(nav.neighbor(p, edge) == n);
        if (n == kNoPolyId) {
          ++boundary;
        } else {
          ++shared;
          REQUIRE(mesh::index(n) < nav.polygon_count());
          int back = 0;
          for (const PolyId m : nav.neighbor_ids(n)) back += m == p ? 1 : 0;
          CHECK(back >= 1);
        }
        ++edge;
      }
      CHECK(edge == nav.vertex_count(p));
    }
    CHECK(expected == nav.polygon_count());
    CHECK(boundary > 0);
    CHECK(shared > 0);
    REQUIRE_FALSE(nav.span_poly.empty());
    std::size_t mapped = 0;
    for (std::size_t s = 0; s < nav.span_poly.size(); ++s) {
      const PolyId p = nav.span_polygon(s);
      CHECK(mesh::index(p) == nav.span_poly[s]);
      if (p != kNoPolyId) {
        ++mapped;
        CHECK(mesh::index(p) < nav.polygon_count());
      }
    }
    CHECK(mapped > 0);
    CHECK(mesh::index(kNoPolyId) == kNoPoly);
  }
}
