#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <numeric>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/grid.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/core/memory.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"

using namespace leapnav;

TEST_SUITE("core.config") {
  TEST_CASE("the default configuration converts to Recast's voxel units") {
    const auto config = named_config("default");
    REQUIRE(config.ok());
    CHECK(validate(*config).ok());
    const VoxelParams p = derive_voxel_params(*config);
    CHECK(p.walkable_height == 10);
    CHECK(p.walkable_climb == 4);
    CHECK(p.walkable_radius == 2);
    CHECK(p.min_region_cells == 64);
    CHECK(p.merge_region_cells == 400);
    CHECK(p.max_edge_len_cells == 40);
    CHECK(p.max_edge_error_cells == doctest::Approx(1.3));
  }
  TEST_CASE("the thesis configuration converts conservatively") {
    const auto config = named_config("thesis");
    REQUIRE(config.ok());
    const VoxelParams p = derive_voxel_params(*config);
    CHECK(p.walkable_height == 8);  // 1.8 / 0.25 = 7.2, rounded up
    CHECK(p.walkable_climb == 3);   // 0.9 / 0.25 = 3.6, rounded down
    CHECK(p.walkable_radius == 1);
  }
  TEST_CASE("an unknown configuration name is an error naming the known ones") {
    const auto config = named_config("fast");
    REQUIRE_FALSE(config.ok());
    CHECK(config.error().code == ErrorCode::InvalidArgument);
    CHECK(config.error().message.find("default, thesis") != std::string::npos);
  }
  TEST_CASE("out-of-range fields are rejected with the field's name") {
    BuildConfig config = *named_config("default");
    config.voxel.cell_size = -0.3F;
    auto status = validate(config);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("voxel.cell_size") != std::string::npos);
    config = *named_config("default");
    config.agent.max_slope_deg = 95.0F;
    status = validate(config);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("agent.max_slope_deg") != std::string::npos);
    config = *named_config("default");
    config.poly.max_verts_per_poly = 2;
    CHECK_FALSE(validate(config).ok());
  }
}

TEST_SUITE("core.grid") {
  TEST_CASE("a grid rounds its size like Recast and refuses absurd extents") {
    AABB box;
    box.extend({0, 0, 0});
    box.extend({3.0F, 1.0F, 1.5F});
    const auto grid = make_grid(box, 0.3F, 0.2F);
    REQUIRE(grid.ok());
    CHECK(grid->width == 10);
    CHECK(grid->depth == 5);
    box.extend({1e30F, 0, 0});
    const auto huge = make_grid(box, 0.3F, 0.2F);
    REQUIRE_FALSE(huge.ok());
    CHECK(huge.error().code == ErrorCode::InvalidArgument);
  }
}

TEST_SUITE("core.parallel") {
  TEST_CASE("parallel_for covers every index exactly once for any thread count") {
    for (const int threads : {1, 2, 8}) {
      std::vector<std::atomic<int>> seen(1000);
      parallel_for(threads, 0, seen.size(), 7, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) seen[i].fetch_add(1);
      });
      for (const auto& s : seen) CHECK(s.load() == 1);
    }
  }
  TEST_CASE("parallel_reduce of floats is bit-identical for 1, 2 and 8 threads") {
    std::vector<float> values(100000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1.0F / static_cast<float>(i + 1);
    const auto sum = [&](int threads) {
      return parallel_reduce(
          threads, 0, values.size(), 1000, 0.0F,
          [&](std::size_t lo, std::size_t hi) {
            float s = 0.0F;
            for (std::size_t i = lo; i < hi; ++i) s += values[i];
            return s;
          },
          [](float a, float b) { return a + b; });
    };
    const float one = sum(1);
    CHECK(one == sum(2));
    CHECK(one == sum(8));
  }
}

TEST_SUITE("core.hash") {
  TEST_CASE("the hash depends on content and length, not on how it was fed") {
    std::vector<std::uint32_t> data(37);
    std::iota(data.begin(), data.end(), 1U);
    ContentHasher whole;
    whole.add_bytes(data.data(), data.size() * sizeof(std::uint32_t));
    ContentHasher pieces;
    pieces.add_bytes(data.data(), 3);
    pieces.add_bytes(reinterpret_cast<const char*>(data.data()) + 3, data.size() * 4 - 3);
    CHECK(whole.digest() == pieces.digest());
    ContentHasher other;
    data[20] = 0;
    other.add_bytes(data.data(), data.size() * sizeof(std::uint32_t));
    CHECK(other.digest() != whole.digest());
    CHECK(hash_to_hex(0xABCULL) == "0000000000000abc");
  }
}

TEST_SUITE("core.context") {
  TEST_CASE("memory checks refuse budgets above the limit with a message") {
    BuildContext ctx;
    ctx.set_memory_limit(1U << 20U);
    CHECK(ctx.check_memory("grid", 1000).ok());
    const auto status = ctx.check_memory("grid", 5U << 20U);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == ErrorCode::MemoryLimit);
    CHECK(status.error().message == "grid would need 5 MiB, more than the memory limit of 1 MiB");
    // small limits are shown in a unit where the need visibly exceeds the limit
    ctx.set_memory_limit(1048);  // --max-memory 0.001
    CHECK(ctx.check_memory("grid", 5000).error().message ==
          "grid would need 5000 bytes, more than the memory limit of 1048 bytes");
    ctx.set_memory_limit(100'000);
    CHECK(ctx.check_memory("grid", 100'001).error().message ==
          "grid would need 98 KiB, more than the memory limit of 97 KiB");
    ctx.set_memory_limit(std::uint64_t{100} << 20U);
    CHECK(ctx.check_memory("grid", (std::uint64_t{100} << 20U) + 1).error().message ==
          "grid would need 101 MiB, more than the memory limit of 100 MiB");
  }
  TEST_CASE("cancellation is reported as Cancelled") {
    BuildContext ctx;
    CHECK(ctx.check_cancel("rasterize").ok());
    ctx.request_cancel();
    const auto status = ctx.check_cancel("rasterize");
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == ErrorCode::Cancelled);
  }
  TEST_CASE("timers accumulate per stage in first-seen order") {
    BuildContext ctx;
    ctx.add_time("a", 1.0);
    ctx.add_time("b", 2.0);
    ctx.add_time("a", 3.0);
    REQUIRE(ctx.timings().size() == 2);
    CHECK(ctx.timings()[0].first == "a");
    CHECK(ctx.time_of("a") == doctest::Approx(4.0));
  }
}

TEST_SUITE("core.mesh") {
  TEST_CASE("validate names an out-of-range index and a non-finite vertex") {
    TriangleMesh mesh;
    mesh.name = "t";
    mesh.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    mesh.triangles = {{0, 1, 2}};
    CHECK(validate(mesh).ok());
    mesh.triangles.push_back({0, 1, 3});
    auto status = validate(mesh);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == ErrorCode::IndexOutOfRange);
    mesh.triangles.pop_back();
    mesh.vertices[1].x = std::numeric_limits<float>::quiet_NaN();
    status = validate(mesh);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == ErrorCode::NonFinite);
    CHECK(status.error().message == "t: vertex 1 is not finite");
    // a mesh without a name is named "triangle mesh" in messages (they began with ": ")
    mesh.name.clear();
    CHECK(validate(mesh).error().message == "triangle mesh: vertex 1 is not finite");
  }
}

TEST_SUITE("core.memory") {
  TEST_CASE("prefault populates a large range without changing it, and skips small ones") {
    std::vector<std::uint8_t> small(1024, 7);
    CHECK_FALSE(prefault(small.data(), small.size()));
    CHECK_FALSE(prefault(nullptr, std::size_t{1} << 24U));

    constexpr std::size_t kBytes = std::size_t{4} << 20U;
    std::vector<std::uint8_t> big;
    big.reserve(kBytes);
    const bool populated = prefault(big.data(), kBytes);
#if defined(__linux__)
    if (populated) {
      // every whole page inside the range is now resident
      const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
      const auto begin = reinterpret_cast<std::uintptr_t>(big.data());
      const std::uintptr_t first = (begin + page - 1) / page * page;
      const std::uintptr_t last = (begin + kBytes) / page * page;
      std::vector<unsigned char> resident((last - first) / page, 0);
      REQUIRE(mincore(reinterpret_cast<void*>(first), last - first, resident.data()) == 0);
      std::size_t absent = 0;
      for (const unsigned char r : resident) absent += (r & 1U) == 0 ? 1 : 0;
      CHECK(absent == 0);
    } else {
      MESSAGE("prefault: this kernel does not populate ranges (needs Linux 5.14)");
    }
#else
    CHECK_FALSE(populated);
#endif
    std::vector<std::uint32_t> v(1000);
    std::iota(v.begin(), v.end(), 0U);
    resize_prefaulted(v, std::size_t{1} << 20U);
    REQUIRE(v.size() == std::size_t{1} << 20U);
    bool kept = true;
    for (std::uint32_t k = 0; k < 1000; ++k) kept = kept && v[k] == k;
    CHECK(kept);
    CHECK(std::all_of(v.begin() + 1000, v.end(), [](std::uint32_t x) { return x == 0U; }));
    resize_prefaulted(v, 10);
    CHECK(v.size() == 10);
    CHECK(v[9] == 9U);
  }
}

TEST_SUITE("core.hash") {
  TEST_CASE("ContentHasher digests a byte stream the same however it is cut into calls") {
    std::vector<unsigned char> bytes(200);
    for (std::size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<unsigned char>((i * 37U + 11U) & 0xFFU);
    ContentHasher whole;
    whole.add_bytes(bytes.data(), bytes.size());
    // reference: one byte per call (the byte loop only)
    ContentHasher single;
    for (const unsigned char b : bytes) single.add_bytes(&b, 1);
    CHECK(single.digest() == whole.digest());
    for (const std::size_t first : {1U, 3U, 4U, 7U, 9U, 13U}) {
      for (const std::size_t second : {2U, 5U, 8U, 61U}) {
        ContentHasher cut;
        cut.add_bytes(bytes.data(), first);
        cut.add_bytes(bytes.data() + first, second);
        cut.add_bytes(bytes.data() + first + second, bytes.size() - first - second);
        CHECK(cut.digest() == whole.digest());
      }
    }
    ContentHasher other;
    bytes[100] ^= 1U;
    other.add_bytes(bytes.data(), bytes.size());
    CHECK(other.digest() != whole.digest());
  }
}
