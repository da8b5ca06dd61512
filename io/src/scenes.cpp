// Built-in scenes: the hand-made "demo" level and the generated "city:N" grid, both assembled from
// SceneBuilder solids with fixed arithmetic only (no randomness beyond an integer hash of the block
// coordinates), so every run gives the same triangles.
#include "leapnav/io/scenes.hpp"

#include <charconv>
#include <cmath>

#include "leapnav/core/hash.hpp"
#include "leapnav/io/scene_builder.hpp"

namespace leapnav::io {
namespace {

constexpr std::string_view kValidForms = "valid: demo, city:N with N in 1..256";

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
  h ^= h >> 30U;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 27U;
  h *= 0x94D049BB133111EBULL;
  h ^= h >> 31U;
  return h;
}

/// N x N city blocks (see builtin_scene); exactly 120 triangles per block.
TriangleMesh city_scene(int n) {
  SceneBuilder b("builtin:city:" + std::to_string(n));
  constexpr float kPitch = 40.0F;   // block + street
  constexpr float kStreet = 10.0F;  // street width
  constexpr float kKerb = 0.15F;    // kerb height: a step
  constexpr float kMargin = 1.0F;   // pavement between kerb and buildings
  static constexpr float kGaps[4] = {1.0F, 2.0F, 3.0F, 5.0F};
  static constexpr float kHeights[8] = {4, 6, 8, 9, 12, 15, 18, 24};
  for (int bz = 0; bz < n; ++bz) {
    for (int bx = 0; bx < n; ++bx) {
      const float x0 = static_cast<float>(bx) * kPitch;
      const float z0 = static_cast<float>(bz) * kPitch;
      const auto ux = static_cast<std::uint64_t>(bx);
      const auto uz = static_cast<std::uint64_t>(bz);
      b.add_box({x0, -1, z0}, {x0 + kPitch, 0, z0 + kPitch});
      const float bx0 = x0 + 0.5F * kStreet;
      const float bz0 = z0 + 0.5F * kStreet;
      const float size = kPitch - kStreet;
      b.add_box({bx0, 0, bz0}, {bx0 + size, kKerb, bz0 + size});

      // four buildings split by one gap along x and one along z
      const std::uint64_t h = block_hash(ux, uz, 1);
      const float gap_x = kGaps[h & 3U];
      const float gap_z = kGaps[(h >> 2U) & 3U];
      const float inner = size - 2.0F * kMargin;
      const float split_x = inner * (0.35F + 0.3F * static_cast<float>((h >> 4U) & 7U) / 7.0F);
      const float split_z = inner * (0.35F + 0.3F * static_cast<float>((h >> 7U) & 7U) / 7.0F);
      const float xs[3] = {bx0 + kMargin, bx0 + kMargin + split_x, bx0 + size - kMargin};
      const float zs[3] = {bz0 + kMargin, bz0 + kMargin + split_z, bz0 + size - kMargin};
      for (int i = 0; i < 4; ++i) {
        const int cx = i & 1;
        const int cz = i >> 1;
        const float lo_x = xs[cx] + (cx == 1 ? 0.5F * gap_x : 0.0F);
        const float hi_x = xs[cx + 1] - (cx == 0 ? 0.5F * gap_x : 0.0F);
        const float lo_z = zs[cz] + (cz == 1 ? 0.5F * gap_z : 0.0F);
        const float hi_z = zs[cz + 1] - (cz == 0 ? 0.5F * gap_z : 0.0F);
        const std::uint64_t hb = block_hash(ux, uz, 2 + static_cast<std::uint64_t>(i));
        const float top = kKerb + kHeights[hb & 7U];
        b.add_box({lo_x, kKerb, lo_z}, {hi_x, top, hi_z});
        // a 3 x 3 x 2.5 m roof hut in one corner of the roof
        const float hut_x = (hb >> 3U) & 1U ? lo_x + 1.0F : hi_x - 4.0F;
        const float hut_z = (hb >> 4U) & 1U ? lo_z + 1.0F : hi_z - 4.0F;
        b.add_box({hut_x, top, hut_z}, {hut_x + 3.0F, top + 2.5F, hut_z + 3.0F});
      }
    }
  }
  return b.take();
}

Error invalid_spec(std::string_view spec, std::string_view why) {
  return make_error(ErrorCode::InvalidArgument, "built-in scene '" + std::string(spec) +
                                                    "': " + std::string(why) + " (" +
                                                    std::string(kValidForms) + ")");
}

}  // namespace

Result<TriangleMesh> builtin_scene(std::string_view spec) {
  if (spec == "demo") return demo_scene();
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  if (name == "city") {
    if (colon == std::string_view::npos) return invalid_spec(spec, "city needs a size N");
    const std::string_view arg = spec.substr(colon + 1);
    int n = 0;
    const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), n);
    if (arg.empty() || end != arg.data() + arg.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range))
      return invalid_spec(spec, "N '" + std::string(arg) + "' is not an integer");
    if (ec == std::errc::result_out_of_range || n < 1 || n > kMaxCityBlocks)
      return invalid_spec(spec, "N = " + std::string(arg) + " is out of range");
    return city_scene(n);
  }
  if (name == "demo") return invalid_spec(spec, "demo takes no arguments");
  return invalid_spec(spec, "unknown scene");
}

std::vector<std::string> builtin_scene_names() {
  return {"city", "demo"};
}

Result<TriangleMesh> load_scene(std::string_view spec, const ObjOptions& options) {
  constexpr std::string_view kPrefix = "builtin:";
  if (spec.substr(0, kPrefix.size()) == kPrefix) return builtin_scene(spec.substr(kPrefix.size()));
  return load_obj(std::filesystem::path(std::string(spec)), options);
}

std::uint64_t triangle_mesh_hash(const TriangleMesh& mesh) {
  ContentHasher hasher;
  hasher.add_pod(static_cast<std::uint64_t>(mesh.vertices.size()));
  for (const Vec3& v : mesh.vertices) {
    hasher.add_pod(v.x);
    hasher.add_pod(v.y);
    hasher.add_pod(v.z);
  }
  hasher.add_vector(mesh.triangles);
  return hasher.digest();
}

}  // namespace leapnav::io
