// A small hand-made NavMesh for io tests: three 3 x 3 m polygons (two quads sharing an edge at
// y = 0 and a triangle on a second level at y = 2 overlapping the first quad), with height patches
// (one NaN sample) and a span map on a 20 x 10 grid. It passes mesh::validate.
#pragma once

#include <cmath>
#include <limits>

#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::test {

inline mesh::NavMesh small_navmesh() {
  mesh::NavMesh m;
  m.config = *named_config("default");
  m.grid.origin = {0, 0, 0};
  m.grid.cell_size = 0.3F;
  m.grid.cell_height = 0.2F;
  m.grid.width = 20;
  m.grid.depth = 10;
  m.grid.height = 20;
  // quads A (0..3) and B (3..6) in x, z 0..3; CCW in xz: shoelace sum x_i z_i+1 - x_i+1 z_i > 0
  m.vertices = {{0, 0, 0}, {3, 0, 0}, {3, 0, 3}, {0, 0, 3}, {6, 0, 0},
                {6, 0, 3}, {0, 2, 0}, {2, 2, 0}, {0, 2, 2}};
  m.poly_first = {0, 4, 8, 11};
  m.poly_vertices = {0, 1, 2, 3, 1, 4, 5, 2, 6, 7, 8};
  m.poly_neighbors = {mesh::kNoPoly, 1, mesh::kNoPoly, mesh::kNoPoly, mesh::kNoPoly, mesh::kNoPoly,
                      mesh::kNoPoly, 0, mesh::kNoPoly, mesh::kNoPoly, mesh::kNoPoly};
  m.poly_region = {1, 1, 2};
  m.poly_area = {63, 63, 63};
  m.poly_flags = {0, 4, 0};
  for (std::size_t p = 0; p < 3; ++p) {
    AABB box;
    for (std::uint32_t k = m.poly_first[p]; k < m.poly_first[p + 1]; ++k)
      box.extend(m.vertices[m.poly_vertices[k]]);
    m.poly_bounds.push_back(box);
  }
  m.height_patches = {{0, 0, 2, 2, 0}, {10, 0, 1, 2, 4}, {0, 0, 1, 1, 6}};
  m.height_samples = {0.0F, 0.1F, 0.0F, std::numeric_limits<float>::quiet_NaN(), 0.0F, 0.0F, 2.0F};
  m.span_column_first.assign(201, 0);
  // one walkable span in columns 0, 1 and 11 (polygons 0, 0, 1) and one unmapped span in column 2
  m.span_y = {0, 0, 0, 10};
  m.span_poly = {0, 0, mesh::kNoPoly, 1};
  const std::uint32_t counts_up_to[] = {0, 1, 2, 3};
  for (std::size_t c = 0; c < 201; ++c)
    m.span_column_first[c] = c <= 2 ? counts_up_to[c] : (c <= 11 ? 3 : 4);
  return m;
}

}  // namespace leapnav::test
