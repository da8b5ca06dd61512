// Built-in scenes: the hand-made "demo" level and the generated "city:N" grid, both assembled from
// SceneBuilder solids with fixed arithmetic only (no randomness beyond an integer hash of the block
// coordinates), and the "terrain:N" height grid of fixed sine waves, so every run gives the same
// triangles. The spec resolver also parses the jump scenes' specs (built in jump_scenes.cpp).
#include "leapnav/io/scenes.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numbers>
#include <string>
#include <vector>

#include "leapnav/core/hash.hpp"
#include "leapnav/io/jump_scenes.hpp"
#include "leapnav/io/scene_builder.hpp"
#include "leapnav/io/text_format.hpp"

namespace leapnav::io {
namespace {

/// "valid: ..." for error messages: the forms of builtin_scene_forms().
const std::string& valid_forms() {
  static const std::string text = [] {
    std::string t = "valid:";
    for (const std::string& form : builtin_scene_forms()) t += (t.size() > 6 ? ", " : " ") + form;
    return t;
  }();
  return text;
}

/// The demo level (see builtin_scene). Ground is solid down to y = -4.5 so every drop has walls.
TriangleMesh demo_scene() {
  SceneBuilder b("builtin:demo");
  constexpr float kBase = -4.5F;
  const Vec2 west{-1, 0};
  const Vec2 north{0, -1};
  const Vec2 south{0, 1};

  // plaza: x 0..40, z 0..28 at y 0, around the sunken courtyard (x 26..36, z 2..14)
  b.add_box({0, kBase, 0}, {26, 0, 28});
  b.add_box({26, kBase, 0}, {36, 0, 2});
  b.add_box({26, kBase, 14}, {36, 0, 28});
  b.add_box({36, kBase, 0}, {40, 0, 28});

  // raised platform (2 m): 30 deg ramp up on its east side, 50 deg (too steep) on its south side
  b.add_box({2, 0, 2}, {10, 2, 10});
  const auto run_for = [](float rise, float angle_deg) {
    return static_cast<float>(rise / std::tan(angle_deg * 3.14159265358979323846 / 180.0));
  };
  const float run30 = run_for(2.0F, 30.0F);
  const float run50 = run_for(2.0F, 50.0F);
  b.add_ramp({10 + run30, 0, 6}, west, run30, 3, 30);
  b.add_ramp({6, 0, 10 + run50}, north, run50, 3, 50);

  // sunken courtyard (-3 m): stairs up at its south-east corner, a 3 m wide bridge across it
  // at y 0 (deck 0.3 m thick: 2.7 m of clearance underneath)
  b.add_box({26, kBase, 2}, {36, -3, 14});
  b.add_stairs({34, -3, 10.4F}, south, 4, 6, 0.5F, 0.6F);
  b.add_box({26, -0.3F, 6.5F}, {36, 0, 9.5F});

  // second storey (floor at 3 m, 2.7 m clear underneath) on four pillars, stairs from the east
  b.add_box({14, 2.7F, 14}, {24, 3, 22});
  for (const Vec2 p :
       {Vec2{14.6F, 14.6F}, Vec2{23.4F, 14.6F}, Vec2{14.6F, 21.4F}, Vec2{23.4F, 21.4F}})
    b.add_prism({p.x, 0, p.y}, 0.35F, 2.7F, 8);
  b.add_stairs({30, 0, 16.5F}, west, 3, 10, 0.3F, 0.6F);

  // free-standing pillars
  for (const float x : {17.0F, 20.0F, 23.0F}) b.add_prism({x, 0, 11}, 0.5F, 4, 8);

  // low overhang: a 1.3 m high tunnel, too low for a 2 m agent; its roof is a platform
  b.add_box({3, 0, 16}, {3.3F, 1.3F, 20});
  b.add_box({8.7F, 0, 16}, {9, 1.3F, 20});
  b.add_box({3, 1.3F, 16}, {9, 1.6F, 20});

  // low walls of 0.6 (a step), 1.0 and 1.2 m (jumps)
  b.add_box({28, 0, 21}, {28.3F, 0.6F, 26});
  b.add_box({31, 0, 21}, {31.3F, 1.0F, 26});
  b.add_box({34, 0, 21}, {34.3F, 1.2F, 26});

  // pit (-4 m) along the south side: a pier from the plaza, stepping stones with gaps of 1, 2, 4
  // and 6 m, and stairs back up to the plaza at the east end
  b.add_box({0, kBase, 28}, {40, -4, 40});
  b.add_box({1, -4, 28}, {5, 0, 39});
  b.add_box({6, -4, 35}, {10, 0, 39});
  b.add_box({12, -4, 35}, {16, 0, 39});
  b.add_box({20, -4, 35}, {24, 0, 39});
  b.add_box({30, -4, 35}, {34, 0, 39});
  b.add_stairs({38, -4, 34.4F}, north, 4, 8, 0.5F, 0.8F);
  return b.take();
}

/// A 64-bit integer mix of block coordinates and a salt (SplitMix64 finaliser).
std::uint64_t block_hash(std::uint64_t x, std::uint64_t z, std::uint64_t salt) {
  std::uint64_t h = x * 0x9E3779B97F4A7C15ULL ^ (z + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
  h ^= salt * 0x94D049BB133111EBULL;
  return mix64(h);
}

constexpr float kCityPitch = 40.0F;   // block + street
constexpr float kCityStreet = 10.0F;  // street width
constexpr float kCityKerb = 0.15F;    // kerb height: a step
constexpr float kCityMargin = 1.0F;   // pavement between kerb and buildings
constexpr float kCityBottom = -1.0F;  // bottom of the ground tiles and buildings

/// The layout of city block (bx, bz). xs (and zs) are its 8 breakpoints along x (z): block edge,
/// kerb edge, first building, gap start, gap end, second building's end, kerb edge, block edge.
/// Building i (cx = i & 1, cz = i >> 1) covers xs[2 + 2 cx]..xs[3 + 2 cx], zs[2 + 2 cz]..zs[3 + 2
/// cz] up to roof[i], with its 3 x 3 m hut's (x, z) minimum corner at hut[i].
struct CityBlock {
  float xs[8];
  float zs[8];
  float roof[4];
  Vec2 hut[4];
};

CityBlock city_block(int bx, int bz) {
  static constexpr float kGaps[4] = {1.0F, 2.0F, 3.0F, 5.0F};
  static constexpr float kHeights[8] = {4, 6, 8, 9, 12, 15, 18, 24};
  CityBlock c{};
  const float x0 = static_cast<float>(bx) * kCityPitch;
  const float z0 = static_cast<float>(bz) * kCityPitch;
  const auto ux = static_cast<std::uint64_t>(bx);
  const auto uz = static_cast<std::uint64_t>(bz);
  const float size = kCityPitch - kCityStreet;
  const float bx0 = x0 + 0.5F * kCityStreet;
  const float bz0 = z0 + 0.5F * kCityStreet;

  // four buildings split by one gap along x and one along z
  const std::uint64_t h = block_hash(ux, uz, 1);
  const float gap_x = kGaps[h & 3U];
  const float gap_z = kGaps[(h >> 2U) & 3U];
  const float inner = size - 2.0F * kCityMargin;
  const float split_x = inner * (0.35F + 0.3F * static_cast<float>((h >> 4U) & 7U) / 7.0F);
  const float split_z = inner * (0.35F + 0.3F * static_cast<float>((h >> 7U) & 7U) / 7.0F);
  const float mid_x = bx0 + kCityMargin + split_x;
  const float mid_z = bz0 + kCityMargin + split_z;
  const float xs[8] = {x0,
                       bx0,
                       bx0 + kCityMargin,
                       mid_x - 0.5F * gap_x,
                       mid_x + 0.5F * gap_x,
                       bx0 + size - kCityMargin,
                       bx0 + size,
                       x0 + kCityPitch};
  const float zs[8] = {z0,
                       bz0,
                       bz0 + kCityMargin,
                       mid_z - 0.5F * gap_z,
                       mid_z + 0.5F * gap_z,
                       bz0 + size - kCityMargin,
                       bz0 + size,
                       z0 + kCityPitch};
  std::copy(std::begin(xs), std::end(xs), std::begin(c.xs));
  std::copy(std::begin(zs), std::end(zs), std::begin(c.zs));
  for (int i = 0; i < 4; ++i) {
    const int cx = i & 1;
    const int cz = i >> 1;
    const float lo_x = xs[2 + 2 * cx];
    const float hi_x = xs[3 + 2 * cx];
    const float lo_z = zs[2 + 2 * cz];
    const float hi_z = zs[3 + 2 * cz];
    const std::uint64_t hb = block_hash(ux, uz, 2 + static_cast<std::uint64_t>(i));
    c.roof[i] = kCityKerb + kHeights[hb & 7U];
    // the roof hut sits in one corner of the roof, 1 m from its edges
    c.hut[i] = {(hb >> 3U) & 1U ? lo_x + 1.0F : hi_x - 4.0F,
                (hb >> 4U) & 1U ? lo_z + 1.0F : hi_z - 4.0F};
  }
  return c;
}

/// One box of a block's ground, in cells of the block's 7 x 7 grid between its breakpoints:
/// x cells x_lo..x_hi - 1, z cells z_lo..z_hi - 1; kerb pieces reach y kCityKerb, street pieces 0.
struct GroundPiece {
  int x_lo, x_hi, z_lo, z_hi;
  bool kerb;
};

/// The ground of every block: its grid cells except the four under buildings, merged into boxes
/// (runs of equal cells along x, then runs with the same x range along z). The layout of the cells
/// is the same in every block, so this is computed once; it gives 13 pieces.
const std::vector<GroundPiece>& ground_pieces() {
  static const std::vector<GroundPiece> pieces = [] {
    enum Kind { kStreetCell, kKerbCell, kBuildingCell };
    const auto kind = [](int ix, int iz) {
      if (ix < 1 || ix > 5 || iz < 1 || iz > 5) return kStreetCell;
      return (ix == 2 || ix == 4) && (iz == 2 || iz == 4) ? kBuildingCell : kKerbCell;
    };
    std::vector<GroundPiece> out;
    for (int iz = 0; iz < 7; ++iz) {
      for (int ix = 0; ix < 7;) {
        const Kind k = kind(ix, iz);
        int end = ix + 1;
        while (end < 7 && kind(end, iz) == k) ++end;
        if (k != kBuildingCell) {
          const bool kerb = k == kKerbCell;
          const auto open = std::find_if(out.begin(), out.end(), [&](const GroundPiece& p) {
            return p.z_hi == iz && p.x_lo == ix && p.x_hi == end && p.kerb == kerb;
          });
          if (open != out.end())
            open->z_hi = iz + 1;
          else
            out.push_back({ix, end, iz, iz + 1, kerb});
        }
        ix = end;
      }
    }
    return out;
  }();
  return pieces;
}

/// N x N city blocks (see builtin_scene); exactly 252 triangles (21 boxes) per block.
TriangleMesh city_scene(int n) {
  SceneBuilder b("builtin:city:" + std::to_string(n));
  const std::vector<GroundPiece>& pieces = ground_pieces();
  for (int bz = 0; bz < n; ++bz) {
    for (int bx = 0; bx < n; ++bx) {
      const CityBlock c = city_block(bx, bz);
      // note: the voxel stage sees surfaces, so a closed box is hollow; ground under a building
      // would leave a walkable floor inside it. The ground leaves the footprints out and each
      // building reaches down to the ground's bottom instead.
      for (const GroundPiece& p : pieces)
        b.add_box({c.xs[p.x_lo], kCityBottom, c.zs[p.z_lo]},
                  {c.xs[p.x_hi], p.kerb ? kCityKerb : 0.0F, c.zs[p.z_hi]});
      for (int i = 0; i < 4; ++i) {
        const int cx = i & 1;
        const int cz = i >> 1;
        b.add_box({c.xs[2 + 2 * cx], kCityBottom, c.zs[2 + 2 * cz]},
                  {c.xs[3 + 2 * cx], c.roof[i], c.zs[3 + 2 * cz]});
        b.add_box({c.hut[i].x, c.roof[i], c.hut[i].y},
                  {c.hut[i].x + 3.0F, c.roof[i] + 2.5F, c.hut[i].y + 3.0F});
      }
    }
  }
  return b.take();
}

/// Height of the rolling terrain at (x, z) [m]: four fixed waves (wavelengths 11 to 97 m,
/// amplitudes 0.8 to 4 m) within about +-9 m. Their steepest sums exceed 45 deg only in places.
float terrain_height(float x, float z) {
  constexpr double kTau = 2.0 * std::numbers::pi;
  const auto dx = static_cast<double>(x);
  const auto dz = static_cast<double>(z);
  return static_cast<float>(
      4.0 * std::sin(kTau * dx / 97.0 + 0.3) * std::cos(kTau * dz / 83.0 - 0.5) +
      2.5 * std::sin(kTau * (dx + 0.6 * dz) / 41.0 + 1.3) +
      2.0 * std::cos(kTau * dx / 23.0 - 0.7) * std::sin(kTau * dz / 19.0 + 0.4) +
      0.8 * std::sin(kTau * (0.8 * dx - dz) / 11.0 + 2.1));
}

/// N x N terrain tiles of 40 m as one 1 m height grid (see builtin_scene).
TriangleMesh terrain_scene(int n) {
  constexpr int kCellsPerTile = 40;
  SceneBuilder b("builtin:terrain:" + std::to_string(n));
  b.add_height_grid({0.0F, 0.0F}, 1.0F, kCellsPerTile * n, kCellsPerTile * n, terrain_height);
  return b.take();
}

Error invalid_spec(std::string_view spec, std::string_view why) {
  return make_error(ErrorCode::InvalidArgument, "built-in scene '" + std::string(spec) + "': " +
                                                    std::string(why) + " (" + valid_forms() + ")");
}

}  // namespace

Result<TriangleMesh> builtin_scene(std::string_view spec) {
  if (spec == "demo") return demo_scene();
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  if (name == "city" || name == "terrain") {
    if (colon == std::string_view::npos)
      return invalid_spec(spec, std::string(name) + " needs a size N");
    const std::string_view arg = spec.substr(colon + 1);
    int n = 0;
    const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), n);
    if (arg.empty() || end != arg.data() + arg.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
      return invalid_spec(spec, "N '" + std::string(arg) + "' is not an integer");
    const int max_n = name == "city" ? kMaxCityBlocks : kMaxTerrainTiles;
    if (ec == std::errc::result_out_of_range || n < 1 || n > max_n)
      return invalid_spec(spec, "N = " + std::string(arg) + " is out of range");
    return name == "city" ? city_scene(n) : terrain_scene(n);
  }
  if (name == "pillar") {
    if (colon != std::string_view::npos) return invalid_spec(spec, "pillar takes no arguments");
    return pillar_scene();
  }
  for (const JumpSceneFamily& family : jump_scene_families()) {
    if (name != family.name) continue;
    const std::string letter(family.parameter);
    if (colon == std::string_view::npos)
      return invalid_spec(spec, std::string(name) + " needs a value " + letter);
    const std::string_view arg = spec.substr(colon + 1);
    float x = 0.0F;
    const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), x);
    if (arg.empty() || end != arg.data() + arg.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
      return invalid_spec(spec, letter + " '" + std::string(arg) + "' is not a number");
    if (ec == std::errc() && !std::isfinite(x))
      return invalid_spec(spec, letter + " '" + std::string(arg) + "' is not a finite number");
    if (ec == std::errc::result_out_of_range || x < family.min || x > family.max)
      return invalid_spec(spec, letter + " = " + std::string(arg) + " is out of range");
    return family.build(x);
  }
  if (name == "demo") return invalid_spec(spec, "demo takes no arguments");
  return invalid_spec(spec, "unknown scene");
}

std::uint64_t builtin_scene_bytes(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  if ((name != "city" && name != "terrain") || colon == std::string_view::npos) return 0;
  const std::string_view arg = spec.substr(colon + 1);
  int n = 0;
  const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), n);
  if (ec != std::errc() || end != arg.data() + arg.size() || n < 1) return 0;
  const std::uint64_t blocks = std::uint64_t{static_cast<unsigned>(n)} * static_cast<unsigned>(n);
  constexpr std::uint64_t kBytesPerVertex = sizeof(Vec3);
  constexpr std::uint64_t kBytesPerTriangle = sizeof(std::array<std::uint32_t, 3>);
  if (name == "city") {
    // note: 21 boxes of 8 vertices and 12 triangles a block, grown by push_back (capacity up to
    // twice the size while the last doubling copies)
    return 2 * blocks * (21 * 8 * kBytesPerVertex + 21 * 12 * kBytesPerTriangle);
  }
  // terrain: one reserved height grid of 40 x 40 cells a tile
  const std::uint64_t side = 40 * static_cast<std::uint64_t>(n);
  return (side + 1) * (side + 1) * kBytesPerVertex + 2 * side * side * kBytesPerTriangle;
}

std::vector<AABB> city_buildings(int n) {
  std::vector<AABB> out;
  if (n < 1 || n > kMaxCityBlocks) return out;
  out.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * 4U);
  for (int bz = 0; bz < n; ++bz) {
    for (int bx = 0; bx < n; ++bx) {
      const CityBlock c = city_block(bx, bz);
      for (int i = 0; i < 4; ++i) {
        const int cx = i & 1;
        const int cz = i >> 1;
        out.push_back({{c.xs[2 + 2 * cx], kCityBottom, c.zs[2 + 2 * cz]},
                       {c.xs[3 + 2 * cx], c.roof[i], c.zs[3 + 2 * cz]}});
      }
    }
  }
  return out;
}

std::vector<std::string> builtin_scene_forms() {
  std::vector<std::string> forms = {"demo", "city:N with N in 1.." + std::to_string(kMaxCityBlocks),
                                    "terrain:N with N in 1.." + std::to_string(kMaxTerrainTiles)};
  for (const JumpSceneFamily& f : jump_scene_families()) {
    const std::string letter(f.parameter);
    std::string form = std::string(f.name) + ":" + letter + " with " + letter + " in ";
    append_float(form, f.min);
    form += "..";
    append_float(form, f.max);
    forms.push_back(std::move(form));
  }
  forms.emplace_back("pillar");
  return forms;
}

std::vector<std::string> builtin_scene_names() {
  std::vector<std::string> names = {"city", "demo", "pillar", "terrain"};
  for (const JumpSceneFamily& f : jump_scene_families()) names.emplace_back(f.name);
  std::sort(names.begin(), names.end());
  return names;
}

Result<TriangleMesh> load_scene(std::string_view spec, const ObjOptions& options) {
  constexpr std::string_view kPrefix = "builtin:";
  if (spec.substr(0, kPrefix.size()) == kPrefix) return builtin_scene(spec.substr(kPrefix.size()));
  return load_obj(std::filesystem::path(std::string(spec)), options);
}

std::uint64_t triangle_mesh_hash(const TriangleMesh& mesh) {
  ContentHasher hasher;
  hasher.add_pod(static_cast<std::uint64_t>(mesh.vertices.size()));
  for (const Vec3& v : mesh.vertices) hasher.add_point(v);
  hasher.add_vector(mesh.triangles);
  return hasher.digest();
}

}  // namespace leapnav::io
