// NavMesh queries and checks: height lookup (per-column floor samples with a vertex-fan fallback),
// centre and area in xz, the content hash over every field but the config, and the structural
// validator (CSR sizes, index ranges, convex CCW polygons, symmetric adjacency, finite values).
#include "leapnav/mesh/navmesh.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "array_checks.hpp"
#include "leapnav/core/hash.hpp"

namespace leapnav::mesh {
namespace {

// Height of the fan triangulation (vertex 0, k, k + 1) at (x, z): the triangle whose smallest
// barycentric coordinate is largest (so points outside the polygon extrapolate the nearest one).
float fan_height(const NavMesh& mesh, PolyId p, float x, float z) {
  const auto poly = mesh.polygon(p);
  if (poly.empty()) return 0.0F;
  const Vec3 a = mesh.vertices[poly[0]];
  double best_score = -1e300;
  double best_h = a.y;
  for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
    const Vec3 b = mesh.vertices[poly[k]];
    const Vec3 c = mesh.vertices[poly[k + 1]];
    const double v0x = double(b.x) - a.x, v0z = double(b.z) - a.z;
    const double v1x = double(c.x) - a.x, v1z = double(c.z) - a.z;
    const double v2x = double(x) - a.x, v2z = double(z) - a.z;
    const double den = v0x * v1z - v1x * v0z;
    if (std::abs(den) < 1e-12) continue;
    const double u = (v2x * v1z - v1x * v2z) / den;
    const double v = (v0x * v2z - v2x * v0z) / den;
    const double w = 1.0 - u - v;
    const double score = std::min(w, std::min(u, v));
    if (score > best_score) {
      best_score = score;
      best_h = w * a.y + u * b.y + v * c.y;
    }
  }
  return static_cast<float>(best_h);
}

Status fail(const std::string& what) {
  return make_error(ErrorCode::Internal, "navmesh: " + what);
}

// How far a polygon corner may lie on the reflex side of its neighbours' chord and still count as
// convex (a straight corner) [units: cells].
constexpr double kConvexToleranceCells = 1e-3;
// The least doubled xz area of a polygon [units: cells²].
constexpr double kMinAreaCells = 1e-3;

}  // namespace

float height_at(const NavMesh& mesh, PolyId p, float x, float z) {
  const std::uint32_t pi = index(p);
  if (pi < mesh.height_patches.size() && mesh.grid.cell_size > 0.0F) {
    const HeightPatch& patch = mesh.height_patches[pi];
    if (patch.width > 0 && patch.depth > 0) {
      const float fx = std::floor((x - mesh.grid.origin.x) / mesh.grid.cell_size);
      const float fz = std::floor((z - mesh.grid.origin.z) / mesh.grid.cell_size);
      const auto clamp_to = [](float v, std::int32_t lo, int n) {
        const float rel = v - static_cast<float>(lo);
        if (!(rel >= 0.0F)) return 0;  // also NaN
        if (rel >= static_cast<float>(n - 1)) return n - 1;
        return static_cast<int>(rel);
      };
      const int i = clamp_to(fx, patch.x0, patch.width);
      const int j = clamp_to(fz, patch.z0, patch.depth);
      const float* samples = mesh.height_samples.data() + patch.first;
      const float h = samples[i + j * patch.width];
      if (!std::isnan(h)) return h;
      // nearest finite sample by rings of growing Chebyshev radius
      const int max_r = std::max<int>(patch.width, patch.depth);
      for (int r = 1; r < max_r; ++r) {
        float best = 0.0F;
        int best_d2 = -1;
        for (int dj = -r; dj <= r; ++dj) {
          const int jj = j + dj;
          if (jj < 0 || jj >= patch.depth) continue;
          const bool edge_row = dj == -r || dj == r;
          for (int di = -r; di <= r; di += edge_row ? 1 : 2 * r) {
            const int ii = i + di;
            if (ii < 0 || ii >= patch.width) continue;
            const float s = samples[ii + jj * patch.width];
            if (std::isnan(s)) continue;
            const int d2 = di * di + dj * dj;
            if (best_d2 < 0 || d2 < best_d2) {
              best_d2 = d2;
              best = s;
            }
          }
        }
        if (best_d2 >= 0) return best;
      }
    }
  }
  return fan_height(mesh, p, x, z);
}

Vec3 polygon_center(const NavMesh& mesh, PolyId p) {
  const auto poly = mesh.polygon(p);
  if (poly.empty()) return {};
  // area-weighted centroid of the fan, relative to vertex 0 for precision
  const Vec3 o = mesh.vertices[poly[0]];
  double cx = 0.0, cz = 0.0, area = 0.0;
  for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
    const Vec3 b = mesh.vertices[poly[k]];
    const Vec3 c = mesh.vertices[poly[k + 1]];
    const double bx = double(b.x) - o.x, bz = double(b.z) - o.z;
    const double ex = double(c.x) - o.x, ez = double(c.z) - o.z;
    const double a = 0.5 * (bx * ez - ex * bz);
    area += a;
    cx += a * (bx + ex) / 3.0;
    cz += a * (bz + ez) / 3.0;
  }
  double x = 0.0, z = 0.0;
  if (std::abs(area) > 0.0) {
    x = o.x + cx / area;
    z = o.z + cz / area;
  } else {
    for (const std::uint32_t v : poly) {
      x += mesh.vertices[v].x;
      z += mesh.vertices[v].z;
    }
    x /= static_cast<double>(poly.size());
    z /= static_cast<double>(poly.size());
  }
  const auto fx = static_cast<float>(x);
  const auto fz = static_cast<float>(z);
  return {fx, height_at(mesh, p, fx, fz), fz};
}

double polygon_area(const NavMesh& mesh, PolyId p) {
  const auto poly = mesh.polygon(p);
  double sum = 0.0;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const Vec3 a = mesh.vertices[poly[k]];
    const Vec3 b = mesh.vertices[poly[(k + 1) % poly.size()]];
    sum += double(a.x) * b.z - double(b.x) * a.z;
  }
  return 0.5 * sum;
}

namespace {

// The polygon arrays and the height patches, hashed alike by content_hash and grid_space_hash.
void add_polygons(ContentHasher& h, const NavMesh& mesh) {
  h.add_vector(mesh.poly_first);
  h.add_vector(mesh.poly_vertices);
  h.add_vector(mesh.poly_neighbors);
  h.add_vector(mesh.poly_region);
  h.add_vector(mesh.poly_area);
  h.add_vector(mesh.poly_flags);
}

void add_height_patches(ContentHasher& h, const NavMesh& mesh) {
  h.add_pod(static_cast<std::uint64_t>(mesh.height_patches.size()));
  for (const HeightPatch& p : mesh.height_patches) {
    h.add_pod(p.x0);
    h.add_pod(p.z0);
    h.add_pod(p.width);
    h.add_pod(p.depth);
    h.add_pod(p.first);
  }
}

}  // namespace

namespace {

// content_hash's word sequences: sums of x_i B^i modulo the Mersenne prime 2^61 - 1. Words are
// below 2^32, so every sum and product stays exact in 64 and 128 bits.
constexpr std::uint64_t kMod = (std::uint64_t{1} << 61U) - 1;
constexpr std::uint64_t kBase = 0x0B5AD4ECEDA1CE2AULL % kMod;

__extension__ using Wide = unsigned __int128;

constexpr std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b) {
  const Wide z = static_cast<Wide>(a) * b;
  const std::uint64_t r =
      (static_cast<std::uint64_t>(z) & kMod) + static_cast<std::uint64_t>(z >> 61U);
  return r >= kMod ? r - kMod : r;
}
constexpr std::uint64_t add_mod(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t r = a + b;
  return r >= kMod ? r - kMod : r;
}
// B^(2^k) for every bit of an exponent, so a power costs one product per set bit.
constexpr std::array<std::uint64_t, 64> kSquares = [] {
  std::array<std::uint64_t, 64> out{};
  out[0] = kBase;
  for (std::size_t k = 1; k < out.size(); ++k) out[k] = mul_mod(out[k - 1], out[k - 1]);
  return out;
}();
constexpr std::uint64_t pow_mod(std::uint64_t e) {
  std::uint64_t result = 1;
  for (std::size_t k = 0; e != 0; ++k, e >>= 1U) {
    if ((e & 1U) != 0) result = mul_mod(result, kSquares[k]);
  }
  return result;
}
constexpr std::uint64_t pow_mod_of(std::uint64_t b, std::uint64_t e) {
  std::uint64_t result = 1;
  while (e != 0) {
    if ((e & 1U) != 0) result = mul_mod(result, b);
    b = mul_mod(b, b);
    e >>= 1U;
  }
  return result;
}
constexpr std::uint64_t kBase2 = mul_mod(kBase, kBase);
constexpr std::uint64_t kBase3 = mul_mod(kBase2, kBase);
constexpr std::uint64_t kBase4 = mul_mod(kBase2, kBase2);
// 1 / (B - 1) and 1 / (B^4 - 1) (Fermat: a^(p - 2)), for the geometric sums of B^k
constexpr std::uint64_t kInvBase1 = pow_mod_of(kBase - 1, kMod - 2);
constexpr std::uint64_t kInvBase4 = pow_mod_of(kBase4 - 1, kMod - 2);
static_assert(mul_mod(kBase - 1, kInvBase1) == 1 && mul_mod(kBase4 - 1, kInvBase4) == 1);

// Sum of B^k over k < n, given B^n: (B^n - 1) / (B - 1).
constexpr std::uint64_t geometric(std::uint64_t power_n) {
  return mul_mod(add_mod(power_n, kMod - 1), kInvBase1);
}

// Sum of word(i) B^i over i < n: four interleaved Horner chains from the end, so the
// multiplications overlap.
template <class Word>
std::uint64_t poly_sum(std::size_t n, const Word& word) {
  std::array<std::uint64_t, 4> acc{};
  const std::size_t blocks = n / 4;
  for (std::size_t b = blocks; b-- > 0;) {
    const std::size_t i = 4 * b;
    acc[0] = add_mod(mul_mod(acc[0], kBase4), word(i));
    acc[1] = add_mod(mul_mod(acc[1], kBase4), word(i + 1));
    acc[2] = add_mod(mul_mod(acc[2], kBase4), word(i + 2));
    acc[3] = add_mod(mul_mod(acc[3], kBase4), word(i + 3));
  }
  std::uint64_t sum = add_mod(add_mod(acc[0], mul_mod(acc[1], kBase)),
                              add_mod(mul_mod(acc[2], kBase2), mul_mod(acc[3], kBase3)));
  if (4 * blocks < n) {
    std::uint64_t power = pow_mod(4 * blocks);
    for (std::size_t i = 4 * blocks; i < n; ++i) {
      sum = add_mod(sum, mul_mod(word(i), power));
      power = mul_mod(power, kBase);
    }
  }
  return sum;
}

std::uint64_t float_word(float v) {
  return std::bit_cast<std::uint32_t>(v);
}

std::uint64_t sample_word(float s) {
  // note: every NaN hashes alike, whatever its payload
  return std::isnan(s) ? std::uint64_t{0x7FC00000U} : float_word(s);
}

// An id stored relative to `base`, modulo the prime (a slice's ids may point before it).
std::uint64_t relative(std::uint32_t id, std::uint32_t base) {
  return id >= base ? std::uint64_t{id - base} : std::uint64_t{id} + kMod - base;
}

enum Sequence : std::uint8_t {
  kVertexWords,
  kPolyFirstWords,
  kCornerVertexWords,
  kCornerNeighborWords,
  kRegionWords,
  kAreaWords,
  kFlagWords,
  kBoundsWords,
  kPatchWords,
  kSampleWords,
};

std::uint64_t patch_word(const HeightPatch& p, std::size_t field, std::uint32_t sample_base) {
  switch (field) {
    case 0:
      return static_cast<std::uint32_t>(p.x0);
    case 1:
      return static_cast<std::uint32_t>(p.z0);
    case 2:
      return std::uint64_t{p.width} | (std::uint64_t{p.depth} << 16U);
    default:
      return relative(p.first, sample_base);
  }
}

// The lengths of the sequences of `mesh` (words).
std::array<std::uint64_t, TileHashPart::kSequences> sequence_lengths(const NavMesh& mesh) {
  return {3 * std::uint64_t{mesh.vertices.size()},
          mesh.poly_first.size(),
          mesh.poly_vertices.size(),
          mesh.poly_neighbors.size(),
          mesh.poly_region.size(),
          mesh.poly_area.size(),
          mesh.poly_flags.size(),
          6 * std::uint64_t{mesh.poly_bounds.size()},
          4 * std::uint64_t{mesh.height_patches.size()},
          mesh.height_samples.size()};
}

std::uint64_t digest(const NavMesh& mesh,
                     const std::array<std::uint64_t, TileHashPart::kSequences>& sums) {
  ContentHasher h;
  h.add_string("leapnav.mesh.NavMesh.v2");
  const GridSpec& g = mesh.grid;
  h.add_pod(g.origin.x);
  h.add_pod(g.origin.y);
  h.add_pod(g.origin.z);
  h.add_pod(g.cell_size);
  h.add_pod(g.cell_height);
  h.add_pod(static_cast<std::int64_t>(g.width));
  h.add_pod(static_cast<std::int64_t>(g.depth));
  h.add_pod(static_cast<std::int64_t>(g.height));
  const auto lengths = sequence_lengths(mesh);
  for (std::size_t s = 0; s < sums.size(); ++s) {
    h.add_pod(lengths[s]);
    h.add_pod(sums[s]);
  }
  h.add_vector(mesh.tile_poly_first);
  h.add_vector(mesh.span_column_first);
  h.add_vector(mesh.span_y);
  h.add_vector(mesh.span_poly);
  return h.digest();
}

}  // namespace

std::uint64_t content_hash(const NavMesh& mesh) {
  static_assert(sizeof(Vec3) == 3 * sizeof(float) && sizeof(AABB) == 2 * sizeof(Vec3));
  std::array<std::uint64_t, TileHashPart::kSequences> sums{};
  const auto* vertex_floats = reinterpret_cast<const float*>(mesh.vertices.data());
  sums[kVertexWords] = poly_sum(3 * mesh.vertices.size(),
                                [&](std::size_t i) { return float_word(vertex_floats[i]); });
  const auto words32 = [](const std::vector<std::uint32_t>& v) {
    return poly_sum(v.size(), [&](std::size_t i) { return std::uint64_t{v[i]}; });
  };
  sums[kPolyFirstWords] = words32(mesh.poly_first);
  sums[kCornerVertexWords] = words32(mesh.poly_vertices);
  sums[kCornerNeighborWords] = words32(mesh.poly_neighbors);
  sums[kRegionWords] = poly_sum(mesh.poly_region.size(),
                                [&](std::size_t i) { return std::uint64_t{mesh.poly_region[i]}; });
  sums[kAreaWords] = poly_sum(mesh.poly_area.size(),
                              [&](std::size_t i) { return std::uint64_t{mesh.poly_area[i]}; });
  sums[kFlagWords] = poly_sum(mesh.poly_flags.size(),
                              [&](std::size_t i) { return std::uint64_t{mesh.poly_flags[i]}; });
  const auto* bound_floats = reinterpret_cast<const float*>(mesh.poly_bounds.data());
  sums[kBoundsWords] = poly_sum(6 * mesh.poly_bounds.size(),
                                [&](std::size_t i) { return float_word(bound_floats[i]); });
  sums[kPatchWords] = poly_sum(4 * mesh.height_patches.size(), [&](std::size_t i) {
    return patch_word(mesh.height_patches[i / 4], i % 4, 0);
  });
  sums[kSampleWords] = poly_sum(mesh.height_samples.size(),
                                [&](std::size_t i) { return sample_word(mesh.height_samples[i]); });
  return digest(mesh, sums);
}

TileHashPart tile_hash_part(const NavMesh& mesh, const TileSlices& s) {
  TileHashPart part;
  const std::size_t polys = mesh.polygon_count();
  const std::uint64_t poly_end = std::uint64_t{s.poly_first} + s.poly_count;
  if (std::uint64_t{s.vertex_first} + s.vertex_count > mesh.vertices.size() || poly_end > polys ||
      std::uint64_t{s.sample_first} + s.sample_count > mesh.height_samples.size() ||
      mesh.poly_region.size() != polys || mesh.poly_area.size() != polys ||
      mesh.poly_flags.size() != polys || mesh.poly_bounds.size() != polys ||
      (!mesh.height_patches.empty() && mesh.height_patches.size() != polys) ||
      mesh.poly_vertices.size() != mesh.poly_neighbors.size())
    return part;
  const std::uint32_t c0 = s.poly_count == 0 ? 0 : mesh.poly_first[s.poly_first];
  const std::uint32_t c1 = s.poly_count == 0 ? 0 : mesh.poly_first[poly_end];
  if (c1 < c0 || c1 > mesh.poly_vertices.size()) return part;
  part.valid = true;
  part.vertices = s.vertex_count;
  part.polygons = s.poly_count;
  part.corners = c1 - c0;
  part.samples = s.sample_count;
  part.patches = !mesh.height_patches.empty();
  const std::size_t p0 = s.poly_first;
  const std::size_t np = s.poly_count;
  const std::size_t nc = part.corners;
  // note: B^(slice length) from the few distinct lengths (3 nv, np, nc, 6 np, 4 np, ns words)
  const std::uint64_t power_nv = pow_mod(s.vertex_count);
  const std::uint64_t power_np = pow_mod(np);
  const std::uint64_t power_2np = mul_mod(power_np, power_np);
  const std::uint64_t power_4np = mul_mod(power_2np, power_2np);
  const std::uint64_t power_nc = pow_mod(nc);
  part.power[kVertexWords] = mul_mod(mul_mod(power_nv, power_nv), power_nv);
  part.power[kPolyFirstWords] = power_np;
  part.power[kCornerVertexWords] = power_nc;
  part.power[kCornerNeighborWords] = power_nc;
  part.power[kRegionWords] = power_np;
  part.power[kAreaWords] = power_np;
  part.power[kFlagWords] = power_np;
  part.power[kBoundsWords] = mul_mod(power_4np, power_2np);
  part.power[kPatchWords] = part.patches ? power_4np : 1;
  part.power[kSampleWords] = pow_mod(s.sample_count);

  const auto* vertex_floats =
      reinterpret_cast<const float*>(mesh.vertices.data()) + 3 * std::size_t{s.vertex_first};
  part.sum[kVertexWords] = poly_sum(3 * std::size_t{s.vertex_count},
                                    [&](std::size_t i) { return float_word(vertex_floats[i]); });
  part.sum[kPolyFirstWords] =
      poly_sum(np, [&](std::size_t i) { return relative(mesh.poly_first[p0 + 1 + i], c0); });
  part.corner_unit = geometric(power_np);
  part.sum[kCornerVertexWords] = poly_sum(
      nc, [&](std::size_t i) { return relative(mesh.poly_vertices[c0 + i], s.vertex_first); });
  part.vertex_unit = geometric(power_nc);
  part.sum[kCornerNeighborWords] = poly_sum(nc, [&](std::size_t i) {
    const std::uint32_t n = mesh.poly_neighbors[c0 + i];
    return n == kNoPoly ? std::uint64_t{n} : relative(n, s.poly_first);
  });
  part.poly_unit = poly_sum(nc, [&](std::size_t i) {
    return std::uint64_t{mesh.poly_neighbors[c0 + i] != kNoPoly ? 1U : 0U};
  });
  part.sum[kRegionWords] =
      poly_sum(np, [&](std::size_t i) { return std::uint64_t{mesh.poly_region[p0 + i]}; });
  part.sum[kAreaWords] =
      poly_sum(np, [&](std::size_t i) { return std::uint64_t{mesh.poly_area[p0 + i]}; });
  part.sum[kFlagWords] =
      poly_sum(np, [&](std::size_t i) { return std::uint64_t{mesh.poly_flags[p0 + i]}; });
  const auto* bound_floats = reinterpret_cast<const float*>(mesh.poly_bounds.data()) + 6 * p0;
  part.sum[kBoundsWords] =
      poly_sum(6 * np, [&](std::size_t i) { return float_word(bound_floats[i]); });
  if (part.patches) {
    part.sum[kPatchWords] = poly_sum(4 * np, [&](std::size_t i) {
      return patch_word(mesh.height_patches[p0 + i / 4], i % 4, s.sample_first);
    });
    // B^3 + B^7 + ... + B^(4 np - 1) = B^3 (B^(4 np) - 1) / (B^4 - 1)
    part.sample_unit = mul_mod(kBase3, mul_mod(add_mod(power_4np, kMod - 1), kInvBase4));
  }
  part.sum[kSampleWords] = poly_sum(s.sample_count, [&](std::size_t i) {
    return sample_word(mesh.height_samples[s.sample_first + i]);
  });
  return part;
}

std::uint64_t content_hash_of_parts(const NavMesh& mesh, std::span<const TileHashPart> parts) {
  std::uint64_t vertices = 0;
  std::uint64_t polygons = 0;
  std::uint64_t corners = 0;
  std::uint64_t samples = 0;
  const bool patches = !mesh.height_patches.empty();
  for (const TileHashPart& part : parts) {
    if (!part.valid || part.patches != patches) return content_hash(mesh);
    vertices += part.vertices;
    polygons += part.polygons;
    corners += part.corners;
    samples += part.samples;
  }
  const std::size_t count = mesh.polygon_count();
  if (vertices != mesh.vertices.size() || polygons != count ||
      corners != mesh.poly_vertices.size() || corners != mesh.poly_neighbors.size() ||
      samples != mesh.height_samples.size() || mesh.poly_region.size() != count ||
      mesh.poly_area.size() != count || mesh.poly_flags.size() != count ||
      mesh.poly_bounds.size() != count || (patches && mesh.height_patches.size() != count))
    return content_hash(mesh);
  std::array<std::uint64_t, TileHashPart::kSequences> sums{};
  std::array<std::uint64_t, TileHashPart::kSequences> at{};
  at.fill(1);
  // note: poly_first[0] leads its sequence; the tiles' entries follow it
  if (!mesh.poly_first.empty()) {
    sums[kPolyFirstWords] = mesh.poly_first[0];
    at[kPolyFirstWords] = kBase;
  }
  std::uint64_t vertex_base = 0;
  std::uint64_t poly_base = 0;
  std::uint64_t corner_base = 0;
  std::uint64_t sample_base = 0;
  for (const TileHashPart& part : parts) {
    std::array<std::uint64_t, TileHashPart::kSequences> term = part.sum;
    term[kPolyFirstWords] = add_mod(term[kPolyFirstWords], mul_mod(corner_base, part.corner_unit));
    term[kCornerVertexWords] =
        add_mod(term[kCornerVertexWords], mul_mod(vertex_base, part.vertex_unit));
    term[kCornerNeighborWords] =
        add_mod(term[kCornerNeighborWords], mul_mod(poly_base, part.poly_unit));
    term[kPatchWords] = add_mod(term[kPatchWords], mul_mod(sample_base, part.sample_unit));
    for (std::size_t q = 0; q < term.size(); ++q) {
      sums[q] = add_mod(sums[q], mul_mod(at[q], term[q]));
      at[q] = mul_mod(at[q], part.power[q]);
    }
    vertex_base += part.vertices;
    poly_base += part.polygons;
    corner_base += part.corners;
    sample_base += part.samples;
  }
  return digest(mesh, sums);
}

std::uint64_t grid_space_hash(const NavMesh& mesh) {
  ContentHasher h;
  h.add_string("leapnav.mesh.NavMesh.grid_space");
  const GridSpec& g = mesh.grid;
  h.add_pod(g.cell_size);
  h.add_pod(g.cell_height);
  h.add_pod(static_cast<std::int64_t>(g.width));
  h.add_pod(static_cast<std::int64_t>(g.depth));
  h.add_pod(static_cast<std::int64_t>(g.height));
  const double cs = g.cell_size > 0.0F ? g.cell_size : 1.0;
  const double ch = g.cell_height > 0.0F ? g.cell_height : 1.0;
  const auto level = [&](float y) {
    return static_cast<std::int64_t>(std::llround((double{y} - double{g.origin.y}) / ch));
  };
  h.add_pod(static_cast<std::uint64_t>(mesh.vertices.size()));
  for (const Vec3& v : mesh.vertices) {
    h.add_pod(static_cast<std::int64_t>(std::llround((double{v.x} - double{g.origin.x}) / cs)));
    h.add_pod(level(v.y));
    h.add_pod(static_cast<std::int64_t>(std::llround((double{v.z} - double{g.origin.z}) / cs)));
  }
  add_polygons(h, mesh);
  add_height_patches(h, mesh);
  h.add_pod(static_cast<std::uint64_t>(mesh.height_samples.size()));
  for (const float s : mesh.height_samples) {
    h.add_pod(std::isfinite(s) ? level(s) : std::numeric_limits<std::int64_t>::min());
  }
  h.add_vector(mesh.span_column_first);
  h.add_vector(mesh.span_y);
  h.add_vector(mesh.span_poly);
  return h.digest();
}

namespace {

// validate's checks of the whole arrays' shape: CSR sizes and ends, tile_poly_first, the
// per-polygon arrays' sizes, finite vertices. Sets the convexity tolerance (in cells) from the
// vertices' magnitude.
Status check_shape(const NavMesh& mesh, double& tolerance) {
  const std::size_t count = mesh.polygon_count();
  if (!mesh.poly_first.empty()) {
    if (mesh.poly_first.front() != 0) return fail("poly_first[0] is not 0");
    if (mesh.poly_first.back() != mesh.poly_vertices.size()) {
      return fail("poly_first does not end at poly_vertices.size()");
    }
  } else if (!mesh.poly_vertices.empty()) {
    return fail("poly_vertices without poly_first");
  }
  if (mesh.poly_neighbors.size() != mesh.poly_vertices.size()) {
    return fail("poly_neighbors and poly_vertices differ in size");
  }
  if (!mesh.tile_poly_first.empty()) {
    const auto& t = mesh.tile_poly_first;
    if (t.size() < 2) return fail("tile_poly_first has fewer than 2 entries");
    if (t.front() != 0) return fail("tile_poly_first[0] is not 0");
    if (t.back() != count) {
      return fail("tile_poly_first ends at " + std::to_string(t.back()) + ", not at the " +
                  std::to_string(count) + " polygons");
    }
    for (std::size_t i = 1; i < t.size(); ++i) {
      if (t[i] < t[i - 1]) return fail("tile_poly_first decreases at tile " + std::to_string(i));
    }
  }
  if (mesh.poly_region.size() != count || mesh.poly_area.size() != count ||
      mesh.poly_flags.size() != count || mesh.poly_bounds.size() != count) {
    return fail("per-polygon arrays differ in size from the polygon count");
  }
  if (!mesh.height_patches.empty() && mesh.height_patches.size() != count)
    return fail("height_patches not one per polygon");
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    if (!is_finite(mesh.vertices[v])) return fail("vertex " + std::to_string(v) + " not finite");
  }
  const double cs = mesh.grid.cell_size > 0.0F ? mesh.grid.cell_size : 1.0;
  // note: vertices are stored as float world coordinates, so far from the origin they are off
  // their grid corners by up to half a float step at their magnitude; the tolerance is a fixed
  // fraction of a cell plus that rounding, expressed in cells
  double magnitude =
      std::max(std::abs(double{mesh.grid.origin.x}), std::abs(double{mesh.grid.origin.z}));
  for (const Vec3& v : mesh.vertices) {
    magnitude = std::max({magnitude, double{std::abs(v.x)}, double{std::abs(v.z)}});
  }
  const double rounding = 2.0 * magnitude * std::numeric_limits<float>::epsilon() / cs;
  tolerance = kConvexToleranceCells + rounding;
  return {};
}

// validate's checks of polygon p (the shape checked): vertex count and indices, convex and CCW,
// neighbours that share the edge back; with height patches, its patch in range.
Status check_polygon(const NavMesh& mesh, std::size_t p, double tolerance) {
  const std::size_t count = mesh.polygon_count();
  int max_verts = mesh.config.poly.max_verts_per_poly;
  if (max_verts < 3 || max_verts > kMaxVertsPerPolyLimit) max_verts = kMaxVertsPerPolyLimit;
  const double cs = mesh.grid.cell_size > 0.0F ? mesh.grid.cell_size : 1.0;
  const double origin_x = mesh.grid.origin.x;
  const double origin_z = mesh.grid.origin.z;
  const auto name = [p] { return "polygon " + std::to_string(p); };
  if (mesh.poly_first[p + 1] < mesh.poly_first[p]) return fail("poly_first decreases at " + name());
  const std::size_t n = mesh.poly_first[p + 1] - mesh.poly_first[p];
  if (n < 3 || n > static_cast<std::size_t>(max_verts)) {
    return fail(name() + " has " + std::to_string(n) + " vertices (allowed 3.." +
                std::to_string(max_verts) + ")");
  }
  const auto poly = mesh.polygon(PolyId{static_cast<std::uint32_t>(p)});
  for (std::size_t k = 0; k < n; ++k) {
    if (poly[k] >= mesh.vertices.size()) return fail(name() + " has a vertex index out of range");
    for (std::size_t m = k + 1; m < n; ++m) {
      if (poly[k] == poly[m]) return fail(name() + " repeats a vertex");
    }
  }
  // convex and CCW in xz, in cell units relative to the grid origin: no vertex may lie more
  // than the tolerance to the right of the chord joining its neighbours
  double area2 = 0.0;
  const auto cell_xz = [&](std::uint32_t v) {
    return std::array<double, 2>{(double{mesh.vertices[v].x} - origin_x) / cs,
                                 (double{mesh.vertices[v].z} - origin_z) / cs};
  };
  const std::array<double, 2> o = cell_xz(poly[0]);
  for (std::size_t k = 0; k < n; ++k) {
    const std::array<double, 2> a = cell_xz(poly[k]);
    const std::array<double, 2> b = cell_xz(poly[(k + 1) % n]);
    const std::array<double, 2> c = cell_xz(poly[(k + 2) % n]);
    const double acx = c[0] - a[0], acz = c[1] - a[1];
    const double abx = b[0] - a[0], abz = b[1] - a[1];
    const double chord = std::sqrt(acx * acx + acz * acz);
    // note: b left of the chord a -> c by more than the tolerance is a reflex corner
    if (abx * acz - abz * acx < -tolerance * chord) {
      return fail(name() + " is not convex (or not CCW) at vertex " + std::to_string((k + 1) % n));
    }
    area2 += (a[0] - o[0]) * (b[1] - o[1]) - (b[0] - o[0]) * (a[1] - o[1]);
  }
  if (!(area2 > kMinAreaCells)) return fail(name() + " has no positive area in xz (not CCW?)");
  const auto nbs = mesh.neighbors(PolyId{static_cast<std::uint32_t>(p)});
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t q = nbs[k];
    if (q == kNoPoly) continue;
    if (q >= count || q == p) return fail(name() + " has an invalid neighbour");
    const std::uint32_t a = poly[k];
    const std::uint32_t b = poly[(k + 1) % n];
    const auto qpoly = mesh.polygon(PolyId{q});
    const auto qnbs = mesh.neighbors(PolyId{q});
    bool found = false;
    for (std::size_t m = 0; m < qpoly.size(); ++m) {
      if (qpoly[m] == b && qpoly[(m + 1) % qpoly.size()] == a && qnbs[m] == p) found = true;
    }
    if (!found) {
      return fail(name() + " edge " + std::to_string(k) + " names neighbour " + std::to_string(q) +
                  " which does not share it back");
    }
  }
  if (!mesh.height_patches.empty()) {
    const HeightPatch& hp = mesh.height_patches[p];
    const std::uint64_t end =
        std::uint64_t{hp.first} + std::uint64_t{hp.width} * std::uint64_t{hp.depth};
    if (end > mesh.height_samples.size()) {
      return fail("height patch of polygon " + std::to_string(p) + " exceeds height_samples");
    }
  }
  return {};
}

}  // namespace

Status validate(const NavMesh& mesh) {
  double tolerance = 0.0;
  LEAPNAV_TRY(check_shape(mesh, tolerance));
  for (std::size_t p = 0; p < mesh.polygon_count(); ++p)
    LEAPNAV_TRY(check_polygon(mesh, p, tolerance));
  if (detail::any_infinite(mesh.height_samples.data(), mesh.height_samples.size()))
    return fail("infinite height sample");
  if (!mesh.span_column_first.empty() || !mesh.span_poly.empty() || !mesh.span_y.empty()) {
    if (mesh.span_column_first.empty() || mesh.span_column_first.back() != mesh.span_poly.size() ||
        mesh.span_y.size() != mesh.span_poly.size()) {
      return fail("span map arrays differ in size");
    }
    if (detail::any_decrease(mesh.span_column_first.data(), mesh.span_column_first.size()))
      return fail("span_column_first decreases");
    if (detail::any_index_out_of_range(mesh.span_poly.data(), mesh.span_poly.size(),
                                       static_cast<std::uint32_t>(mesh.polygon_count())))
      return fail("span_poly names a polygon out of range");
  }
  return {};
}

Status validate_polygons(const NavMesh& mesh, std::span<const std::uint32_t> polygons) {
  if (!mesh.span_column_first.empty() || !mesh.span_poly.empty() || !mesh.span_y.empty())
    return fail("the mesh has a span map (validate checks it, validate_polygons does not)");
  double tolerance = 0.0;
  LEAPNAV_TRY(check_shape(mesh, tolerance));
  for (const std::uint32_t p : polygons) {
    if (p >= mesh.polygon_count()) {
      return fail("polygon " + std::to_string(p) + " to check is not one of the " +
                  std::to_string(mesh.polygon_count()) + " polygons");
    }
    LEAPNAV_TRY(check_polygon(mesh, p, tolerance));
    if (mesh.height_patches.empty()) continue;
    const HeightPatch& hp = mesh.height_patches[p];
    if (detail::any_infinite(mesh.height_samples.data() + hp.first,
                             std::size_t{hp.width} * std::size_t{hp.depth}))
      return fail("infinite height sample in the patch of polygon " + std::to_string(p));
  }
  return {};
}

}  // namespace leapnav::mesh
