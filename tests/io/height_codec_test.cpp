// Compact height detail in .lnav files (chunk "HGTC"): it loads every sample with the bits it was
// saved with (levels, NaN, samples off the level lattice, patches that share samples), so
// height_at is unchanged at many points per polygon on tiled terrain and the real levels; files
// with the old "HGHT" chunk still load; damaged "HGTC" chunks give errors and never crash.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include "io/navmesh_fixture.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "support/shared_data.hpp"

using namespace leapnav;
using Bytes = std::vector<std::byte>;

namespace {

std::uint64_t get_u64(const Bytes& b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v |= std::to_integer<std::uint64_t>(b[at + i]) << (8 * i);
  return v;
}
void put_u64(Bytes& b, std::size_t at, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) b[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
}
void reseal(Bytes& b) {
  put_u64(b, 8, b.size());
  ContentHasher h;
  h.add_bytes(b.data(), b.size() - 8);
  put_u64(b, b.size() - 8, h.digest());
}
/// The offset of chunk `tag`'s header, or nullopt.
std::optional<std::size_t> chunk_at(const Bytes& b, std::string_view tag) {
  std::size_t at = 16;
  while (at + 12 <= b.size()) {
    if (std::memcmp(b.data() + at, tag.data(), 4) == 0) return at;
    at += 12 + get_u64(b, at + 4);
  }
  return std::nullopt;
}

/// Samples equal bit for bit, NaN equal to any NaN; returns the first index that differs.
std::optional<std::size_t> first_difference(const std::vector<float>& a,
                                            const std::vector<float>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (std::isnan(a[k]) && std::isnan(b[k])) continue;
    if (std::bit_cast<std::uint32_t>(a[k]) != std::bit_cast<std::uint32_t>(b[k])) return k;
  }
  return std::nullopt;
}

/// A valid mesh whose heights exercise every code: a 12 x 12 patch of a slope with steps of 0,
/// 1, 2 and 40 levels, NaN, off-lattice floats and -0, and polygon 2 sharing polygon 0's patch.
mesh::NavMesh coded_navmesh() {
  mesh::NavMesh m = test::small_navmesh();
  m.grid.origin.y = -3.1F;
  m.height_patches = {{0, 0, 12, 12, 0}, {10, 0, 3, 2, 144}, {0, 0, 12, 12, 0}};
  m.height_samples.clear();
  for (int j = 0; j < 12; ++j) {
    for (int i = 0; i < 12; ++i) {
      const int level = 20 + i + 2 * j + (i == 7 ? 40 : 0);
      m.height_samples.push_back(m.grid.level_to_world(level));
    }
  }
  m.height_samples[5] = std::numeric_limits<float>::quiet_NaN();
  m.height_samples[30] = 0.123456F;  // off the lattice
  m.height_samples[31] = -0.0F;
  for (const float f : {1.0F, std::numeric_limits<float>::quiet_NaN(), 1e9F, -7.5F, 0.0F, 2.0F})
    m.height_samples.push_back(f);
  return m;
}

mesh::NavMesh decoded(const Bytes& bytes) {
  auto out = io::decode_navmesh(bytes, "x.lnav");
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return std::move(out).value();
}

/// Saves `m` both ways, checks the compact file's heights against the mesh's (samples bit for
/// bit; height_at at 10 x 10 points over and a little beyond every polygon's bounds); returns
/// the height chunk sizes (compact, raw) [units: bytes].
std::pair<std::uint64_t, std::uint64_t> check_round_trip(const mesh::NavMesh& m) {
  const Bytes compact = io::encode_navmesh(m);
  const Bytes raw = io::encode_navmesh(m, io::HeightEncoding::Raw);
  const auto compact_chunk = chunk_at(compact, "HGTC");
  const auto raw_chunk = chunk_at(raw, "HGHT");
  REQUIRE(compact_chunk);
  REQUIRE(raw_chunk);
  CHECK_FALSE(chunk_at(compact, "HGHT"));
  const mesh::NavMesh loaded = decoded(compact);
  CHECK(loaded.height_patches == m.height_patches);
  const auto diff = first_difference(loaded.height_samples, m.height_samples);
  if (diff) FAIL_CHECK("sample " << *diff << " differs");
  CHECK(mesh::content_hash(loaded) == mesh::content_hash(m));
  CHECK(mesh::content_hash(decoded(raw)) == mesh::content_hash(m));
  int points = 0;
  for (std::uint32_t p = 0; p < m.polygon_count(); ++p) {
    const AABB& b = m.poly_bounds[p];
    for (int i = -1; i <= 8; ++i) {
      for (int j = -1; j <= 8; ++j) {
        const float x = b.min.x + (b.max.x - b.min.x) * static_cast<float>(i) / 7.0F;
        const float z = b.min.z + (b.max.z - b.min.z) * static_cast<float>(j) / 7.0F;
        const float h0 = mesh::height_at(m, mesh::PolyId{p}, x, z);
        const float h1 = mesh::height_at(loaded, mesh::PolyId{p}, x, z);
        ++points;
        if (std::bit_cast<std::uint32_t>(h0) != std::bit_cast<std::uint32_t>(h1))
          FAIL_CHECK("polygon " << p << " at " << x << ", " << z << ": " << h0 << " vs " << h1);
      }
    }
  }
  CHECK(points == 100 * static_cast<int>(m.polygon_count()));
  return {get_u64(compact, *compact_chunk + 4), get_u64(raw, *raw_chunk + 4)};
}

mesh::NavMesh build(const TriangleMesh& input, int tile_size) {
  BuildContext ctx;
  mesh::TileConfig tiles;
  tiles.tile_size = tile_size;
  auto out = mesh::build_tiled_navmesh(input, *named_config("default"), tiles, ctx);
  INFO((out.ok() ? std::string() : out.error().message));
  REQUIRE(out.ok());
  return std::move(out->navmesh);
}

}  // namespace

TEST_SUITE("io.height_codec") {
  TEST_CASE("compact heights load bit for bit: steps, NaN, off-lattice floats, shared patches") {
    const mesh::NavMesh m = coded_navmesh();
    REQUIRE(mesh::validate(m).ok());
    const auto [compact, raw] = check_round_trip(m);
    CHECK(compact < raw);
  }

  TEST_CASE(
      "tiled terrain and the real levels keep height_at exactly in a file a few times smaller") {
    struct Level {
      std::string name;
      std::optional<TriangleMesh> input;
      int tile_size;
    };
    std::vector<Level> levels;
    auto terrain = io::builtin_scene("terrain:3");
    REQUIRE(terrain.ok());
    levels.push_back({"terrain:3 tiled 64", std::move(terrain).value(), 64});
    for (const char* file : {"dungeon.obj", "nav_test.obj"}) {
      const auto path = test::shared_mesh(file);
      if (!path) continue;
      auto level = io::load_obj(*path);
      REQUIRE(level.ok());
      levels.push_back({std::string(file) + " untiled", *level, 0});
      levels.push_back({std::string(file) + " tiled 64", std::move(level).value(), 64});
    }
    for (const Level& level : levels) {
      CAPTURE(level.name);
      const mesh::NavMesh m = build(*level.input, level.tile_size);
      const auto [compact, raw] = check_round_trip(m);
      MESSAGE(level.name << ": " << m.height_samples.size() << " samples, height chunk " << raw
                         << " -> " << compact << " bytes");
      // note: measured 0.07-0.10 of the raw chunk (sloped terrain and the real levels alike)
      CHECK(compact * 5 < raw);
    }
  }

  TEST_CASE("a file with the raw height chunk (before HGTC) still loads") {
    const mesh::NavMesh m = coded_navmesh();
    const Bytes raw = io::encode_navmesh(m, io::HeightEncoding::Raw);
    REQUIRE(chunk_at(raw, "HGHT"));
    CHECK_FALSE(chunk_at(raw, "HGTC"));
    const mesh::NavMesh loaded = decoded(raw);
    CHECK(mesh::content_hash(loaded) == mesh::content_hash(m));
    // a mesh without height patches: the raw chunk (16 bytes) is smaller, so the writer keeps it
    mesh::NavMesh flat = test::small_navmesh();
    flat.height_patches.clear();
    flat.height_samples.clear();
    const Bytes flat_bytes = io::encode_navmesh(flat);
    CHECK(chunk_at(flat_bytes, "HGHT"));
    CHECK(mesh::content_hash(decoded(flat_bytes)) == mesh::content_hash(flat));
  }

  TEST_CASE("damaged HGTC chunks are refused with the chunk named, and never crash") {
    const Bytes good = io::encode_navmesh(coded_navmesh());
    const std::size_t header = *chunk_at(good, "HGTC");
    const std::size_t payload = header + 12;
    const std::size_t size = get_u64(good, header + 4);

    Bytes count = good;
    put_u64(count, payload + 8, get_u64(good, payload + 8) + 1);  // one more sample
    reseal(count);
    auto r = io::decode_navmesh(count, "x.lnav");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::CorruptFile);
    CHECK(r.error().message.rfind("x.lnav: chunk 'HGTC': ", 0) == 0);

    Bytes step = good;
    put_u64(step, payload + 16, 0);  // base 0, step 0
    reseal(step);
    r = io::decode_navmesh(step, "x.lnav");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message ==
          "x.lnav: chunk 'HGTC': level base and step must be finite, the step positive");

    // both height chunks: the raw one inserted before "END "
    const Bytes raw = io::encode_navmesh(coded_navmesh(), io::HeightEncoding::Raw);
    const std::size_t raw_at = *chunk_at(raw, "HGHT");
    const std::size_t raw_size = 12 + get_u64(raw, raw_at + 4);
    Bytes both = good;
    const std::size_t end = *chunk_at(both, "END ");
    both.insert(both.begin() + static_cast<std::ptrdiff_t>(end),
                raw.begin() + static_cast<std::ptrdiff_t>(raw_at),
                raw.begin() + static_cast<std::ptrdiff_t>(raw_at + raw_size));
    reseal(both);
    r = io::decode_navmesh(both, "x.lnav");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "x.lnav: chunk 'HGHT': beside chunk 'HGTC' (one height chunk)");

    // seeded flips and truncations of the payload, resealed: always an error or a valid mesh
    std::mt19937 rng(24);
    std::uniform_int_distribution<std::size_t> where(payload, payload + size - 1);
    int still_valid = 0;
    for (int n = 0; n < 3000; ++n) {
      Bytes b = good;
      const std::size_t at = where(rng);
      b[at] ^= static_cast<std::byte>(1U << (rng() % 8));
      if (n % 10 == 0) b[where(rng)] = static_cast<std::byte>(rng() & 0xFF);
      reseal(b);
      const auto out = io::decode_navmesh(b, "x.lnav");
      if (out.ok()) {
        ++still_valid;
        CHECK(mesh::validate(*out).ok());
      } else {
        CHECK(out.error().message.rfind("x.lnav: ", 0) == 0);
      }
    }
    for (std::size_t cut = payload; cut < payload + size; ++cut) {
      Bytes b = good;
      put_u64(b, header + 4, cut - payload);
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(cut),
              b.begin() + static_cast<std::ptrdiff_t>(payload + size));
      reseal(b);
      CHECK_FALSE(io::decode_navmesh(b, "x.lnav").ok());
    }
    MESSAGE("resealed mutations of HGTC that still decode to a valid navmesh: " << still_valid);
  }
}
