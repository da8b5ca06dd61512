// Hand-built navmeshes for planning tests: polygons given by vertex lists (CCW in xz), adjacency
// derived from shared edges, heights from the vertices (no height patches), plus grid scenes with
// removed cells and seeded random grids.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::test {

/// A NavMesh from vertices and polygons (vertex indices, CCW in xz).
inline mesh::NavMesh make_navmesh(std::vector<Vec3> vertices,
                                  const std::vector<std::vector<std::uint32_t>>& polygons) {
  mesh::NavMesh nav;
  nav.config.poly.max_verts_per_poly = 6;
  nav.vertices = std::move(vertices);
  nav.poly_first.push_back(0);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edge_owner;
  for (std::uint32_t p = 0; p < polygons.size(); ++p) {
    const auto& poly = polygons[p];
    AABB bounds;
    for (std::size_t k = 0; k < poly.size(); ++k) {
      nav.poly_vertices.push_back(poly[k]);
      bounds.extend(nav.vertices[poly[k]]);
      edge_owner[{poly[k], poly[(k + 1) % poly.size()]}] = p;
    }
    nav.poly_first.push_back(static_cast<std::uint32_t>(nav.poly_vertices.size()));
    nav.poly_bounds.push_back(bounds);
    nav.poly_region.push_back(0);
    nav.poly_area.push_back(1);
    nav.poly_flags.push_back(0);
  }
  for (std::uint32_t p = 0; p < polygons.size(); ++p) {
    const auto& poly = polygons[p];
    for (std::size_t k = 0; k < poly.size(); ++k) {
      const auto it = edge_owner.find({poly[(k + 1) % poly.size()], poly[k]});
      nav.poly_neighbors.push_back(it == edge_owner.end() ? mesh::kNoPoly : it->second);
    }
  }
  return nav;
}

/// A grid of nx × nz square cells of side `cell` starting at (x0, z0), keeping the cells where
/// keep(i, j) is true; each kept cell is a quad, or two triangles when split(i, j). Heights from
/// height(x, z).
inline mesh::NavMesh grid_navmesh(int nx, int nz, float cell,
                                  const std::function<bool(int, int)>& keep,
                                  const std::function<bool(int, int)>& split = {},
                                  const std::function<float(float, float)>& height = {},
                                  float x0 = 0.0F, float z0 = 0.0F) {
  std::vector<Vec3> vertices;
  for (int j = 0; j <= nz; ++j) {
    for (int i = 0; i <= nx; ++i) {
      const float x = x0 + static_cast<float>(i) * cell;
      const float z = z0 + static_cast<float>(j) * cell;
      vertices.push_back({x, height ? height(x, z) : 0.0F, z});
    }
  }
  const auto v = [nx](int i, int j) { return static_cast<std::uint32_t>(i + j * (nx + 1)); };
  std::vector<std::vector<std::uint32_t>> polygons;
  for (int j = 0; j < nz; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (!keep(i, j)) continue;
      // CCW in xz with x right and z up: (i,j) (i+1,j) (i+1,j+1) (i,j+1)
      if (split && split(i, j)) {
        polygons.push_back({v(i, j), v(i + 1, j), v(i + 1, j + 1)});
        polygons.push_back({v(i, j), v(i + 1, j + 1), v(i, j + 1)});
      } else {
        polygons.push_back({v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)});
      }
    }
  }
  return make_navmesh(std::move(vertices), polygons);
}

/// A seeded random grid: cells removed with probability `hole`, random diagonal splits, a gentle
/// slope.
inline mesh::NavMesh random_grid_navmesh(int nx, int nz, float hole, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> kept(static_cast<std::size_t>(nx * nz));
  std::vector<std::uint8_t> split(static_cast<std::size_t>(nx * nz));
  std::uniform_real_distribution<float> u(0.0F, 1.0F);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    kept[k] = u(rng) >= hole ? 1 : 0;
    split[k] = u(rng) < 0.5F ? 1 : 0;
  }
  // note: no two kept cells may touch only at a corner (a zero-width pinch)
  const auto at = [&](int i, int j) -> std::uint8_t& {
    return kept[static_cast<std::size_t>(i + j * nx)];
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int j = 0; j + 1 < nz; ++j) {
      for (int i = 0; i + 1 < nx; ++i) {
        const bool a = at(i, j) != 0, b = at(i + 1, j) != 0;
        const bool c = at(i, j + 1) != 0, d = at(i + 1, j + 1) != 0;
        if (a && d && !b && !c) {
          at(i + 1, j) = 1;
          changed = true;
        }
        if (b && c && !a && !d) {
          at(i, j) = 1;
          changed = true;
        }
      }
    }
  }
  return grid_navmesh(
      nx, nz, 1.0F, [&](int i, int j) { return kept[static_cast<std::size_t>(i + j * nx)] != 0; },
      [&](int i, int j) { return split[static_cast<std::size_t>(i + j * nx)] != 0; },
      [](float x, float z) { return 0.05F * x + 0.02F * z; });
}

}  // namespace leapnav::test
