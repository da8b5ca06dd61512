// Closed-form test scenes for jump links: grid-aligned boxes voxelised exactly (a box covers a
// column when it overlaps the cell's interior), a compact heightfield with Recast's connection
// rule, and a navmesh of hand-placed rectangles (platform tops shrunk by the agent radius) with
// its span -> polygon map. The triangles come from io::SceneBuilder, for the soundness checker.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "leapnav/core/config.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::test {

/// A walkable rectangle [x0, x1] × [z0, z1] at height y (a navmesh polygon).
struct Rect {
  float x0, z0, x1, z1, y;
};

struct JumpScene {
  BuildConfig config;
  TriangleMesh triangles;
  voxel::Heightfield solid;
  voxel::CompactHeightfield open;
  mesh::NavMesh navmesh;
};

class JumpSceneBuilder {
 public:
  /// A grid of width x depth columns of 0.25 m from the origin, heights up to 12 m.
  JumpSceneBuilder(int width, int depth) {
    config_.voxel = VoxelConfig{0.25F, 0.25F};
    config_.agent = AgentConfig{1.8F, 0.25F, 0.5F, 45.0F};
    grid_.origin = Vec3{0.0F, 0.0F, 0.0F};
    grid_.cell_size = 0.25F;
    grid_.cell_height = 0.25F;
    grid_.width = width;
    grid_.depth = depth;
    grid_.height = 48;
  }
  JumpSceneBuilder& agent(AgentConfig a) {
    config_.agent = a;
    return *this;
  }
  JumpSceneBuilder& box(Vec3 min, Vec3 max) {
    AABB b;
    b.extend(min);
    b.extend(max);
    boxes_.push_back(b);
    return *this;
  }
  /// A box whose top (shrunk by the agent radius) is one polygon.
  JumpSceneBuilder& platform(Vec3 min, Vec3 max) {
    box(min, max);
    const float r = config_.agent.radius;
    return polygon(Rect{min.x + r, min.z + r, max.x - r, max.z - r, max.y});
  }
  JumpSceneBuilder& polygon(Rect rect) {
    rects_.push_back(rect);
    return *this;
  }

  [[nodiscard]] JumpScene build() const {
    JumpScene scene;
    scene.config = config_;
    io::SceneBuilder triangles("jump-scene");
    for (const AABB& b : boxes_) triangles.add_box(b.min, b.max);
    scene.triangles = triangles.take();
    build_solid(scene.solid);
    build_open(scene.solid, scene.open);
    build_navmesh(scene.open, scene.navmesh);
    return scene;
  }

 private:
  void build_solid(voxel::Heightfield& hf) const {
    hf.grid = grid_;
    const auto columns = static_cast<std::size_t>(grid_.column_count());
    hf.column_first.assign(columns + 1, 0);
    std::vector<std::vector<voxel::Span>> per(columns);
    const float cs = grid_.cell_size;
    const float ch = grid_.cell_height;
    for (const AABB& b : boxes_) {
      for (int z = 0; z < grid_.depth; ++z) {
        for (int x = 0; x < grid_.width; ++x) {
          const float cx0 = static_cast<float>(x) * cs;
          const float cz0 = static_cast<float>(z) * cs;
          if (!(b.min.x < cx0 + cs && b.max.x > cx0 && b.min.z < cz0 + cs && b.max.z > cz0))
            continue;
          const auto lo = static_cast<std::uint16_t>(std::floor(b.min.y / ch + 1e-4F));
          const auto hi = static_cast<std::uint16_t>(std::ceil(b.max.y / ch - 1e-4F));
          per[grid_.column_index(x, z)].push_back({lo, hi, voxel::kWalkableArea});
        }
      }
    }
    for (std::size_t c = 0; c < columns; ++c) {
      auto& spans = per[c];
      std::sort(spans.begin(), spans.end(),
                [](const voxel::Span& a, const voxel::Span& b) { return a.min < b.min; });
      std::vector<voxel::Span> merged;
      for (const voxel::Span& s : spans) {
        if (!merged.empty() && s.min <= merged.back().max)
          merged.back().max = std::max(merged.back().max, s.max);
        else
          merged.push_back(s);
      }
      hf.spans.insert(hf.spans.end(), merged.begin(), merged.end());
      hf.column_first[c + 1] = static_cast<std::uint32_t>(hf.spans.size());
    }
  }

  void build_open(const voxel::Heightfield& hf, voxel::CompactHeightfield& chf) const {
    chf.grid = grid_;
    chf.walkable_height = static_cast<int>(std::ceil(config_.agent.height / grid_.cell_height));
    chf.walkable_climb = static_cast<int>(std::floor(config_.agent.max_climb / grid_.cell_height));
    const auto columns = static_cast<std::size_t>(grid_.column_count());
    chf.column_first.assign(columns + 1, 0);
    for (std::size_t c = 0; c < columns; ++c) {
      for (std::uint32_t s = hf.first(c); s < hf.end(c); ++s) {
        const std::uint16_t y = hf.spans[s].max;
        const int top = s + 1 < hf.end(c) ? hf.spans[s + 1].min : 0xFFFF;
        if (top - y < chf.walkable_height) continue;
        voxel::CompactSpan open;
        open.y = y;
        open.clearance =
            top == 0xFFFF ? voxel::kUnboundedClearance : static_cast<std::uint16_t>(top - y);
        chf.spans.push_back(open);
        chf.areas.push_back(voxel::kWalkableArea);
      }
      chf.column_first[c + 1] = static_cast<std::uint32_t>(chf.spans.size());
    }
    for (int z = 0; z < grid_.depth; ++z) {
      for (int x = 0; x < grid_.width; ++x) {
        const std::size_t c = grid_.column_index(x, z);
        for (std::uint32_t s = chf.first(c); s < chf.end(c); ++s) {
          for (int dir = 0; dir < 4; ++dir) {
            const int nx = x + voxel::dir_dx(dir);
            const int nz = z + voxel::dir_dz(dir);
            if (!grid_.in_bounds(nx, nz)) continue;
            const std::size_t n = grid_.column_index(nx, nz);
            for (std::uint32_t t = chf.first(n); t < chf.end(n); ++t) {
              const int a_top = chf.spans[s].y + std::min<int>(chf.spans[s].clearance, 0x7FFF);
              const int b_top = chf.spans[t].y + std::min<int>(chf.spans[t].clearance, 0x7FFF);
              const int overlap = std::min(a_top, b_top) - std::max(chf.spans[s].y, chf.spans[t].y);
              if (std::abs(chf.spans[s].y - chf.spans[t].y) <= chf.walkable_climb &&
                  overlap >= chf.walkable_height) {
                chf.spans[s].neighbor[static_cast<std::size_t>(dir)] =
                    static_cast<std::uint8_t>(t - chf.first(n));
                break;
              }
            }
          }
        }
      }
    }
  }

  void build_navmesh(const voxel::CompactHeightfield& chf, mesh::NavMesh& nm) const {
    nm.config = config_;
    nm.grid = grid_;
    nm.poly_first.push_back(0);
    for (const Rect& r : rects_) {
      const auto base = static_cast<std::uint32_t>(nm.vertices.size());
      nm.vertices.push_back({r.x0, r.y, r.z0});
      nm.vertices.push_back({r.x1, r.y, r.z0});
      nm.vertices.push_back({r.x1, r.y, r.z1});
      nm.vertices.push_back({r.x0, r.y, r.z1});
      for (std::uint32_t k = 0; k < 4; ++k) {
        nm.poly_vertices.push_back(base + k);
        nm.poly_neighbors.push_back(mesh::kNoPoly);
      }
      nm.poly_first.push_back(static_cast<std::uint32_t>(nm.poly_vertices.size()));
      nm.poly_region.push_back(static_cast<std::uint16_t>(nm.poly_region.size()));
      nm.poly_area.push_back(voxel::kWalkableArea);
      nm.poly_flags.push_back(0);
      AABB b;
      b.extend({r.x0, r.y, r.z0});
      b.extend({r.x1, r.y, r.z1});
      nm.poly_bounds.push_back(b);
    }
    nm.span_column_first = chf.column_first;
    nm.span_y.resize(chf.spans.size());
    nm.span_poly.assign(chf.spans.size(), mesh::kNoPoly);
    for (int z = 0; z < grid_.depth; ++z) {
      for (int x = 0; x < grid_.width; ++x) {
        const std::size_t c = grid_.column_index(x, z);
        for (std::uint32_t s = chf.first(c); s < chf.end(c); ++s) {
          nm.span_y[s] = chf.spans[s].y;
          const float px = static_cast<float>(x) * grid_.cell_size;
          const float pz = static_cast<float>(z) * grid_.cell_size;
          const float py = static_cast<float>(chf.spans[s].y) * grid_.cell_height;
          for (std::size_t p = 0; p < rects_.size(); ++p) {
            const Rect& r = rects_[p];
            if (px >= r.x0 && px <= r.x1 && pz >= r.z0 && pz <= r.z1 &&
                std::abs(py - r.y) < 0.5F * grid_.cell_height) {
              nm.span_poly[s] = static_cast<std::uint32_t>(p);
              break;
            }
          }
        }
      }
    }
  }

  BuildConfig config_;
  GridSpec grid_;
  std::vector<AABB> boxes_;
  std::vector<Rect> rects_;
};

/// A 12 m x 12 m floor 1 m high cut into a 4 x 4 grid of 3 m polygons (the outer ones shrunk by
/// the 0.25 m agent radius): about 2,000 sample points at step 1 and links between the polygons
/// everywhere, for the cancellation and memory-limit tests.
inline JumpScene grid_floor_scene() {
  JumpSceneBuilder builder(48, 48);
  builder.box({0, 0, 0}, {12, 1, 12});
  for (int pz = 0; pz < 4; ++pz) {
    for (int px = 0; px < 4; ++px) {
      const auto x0 = static_cast<float>(px) * 3.0F;
      const auto z0 = static_cast<float>(pz) * 3.0F;
      builder.polygon({px == 0 ? 0.25F : x0, pz == 0 ? 0.25F : z0, px == 3 ? 11.75F : x0 + 3.0F,
                       pz == 3 ? 11.75F : z0 + 3.0F, 1.0F});
    }
  }
  return builder.build();
}

}  // namespace leapnav::test
