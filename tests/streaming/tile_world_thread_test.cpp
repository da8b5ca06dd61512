// Queries while tiles load and unload on another thread: every query runs on the snapshot it
// took, never enters a tile that snapshot does not hold, and the world's last state is what the
// loading thread set. Run under TSan (the *thread* filter of scripts/test.sh).

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "leapnav/streaming/tile_world.hpp"
#include "streaming/stream_scenes.hpp"

using namespace leapnav;

TEST_SUITE("stream.world") {
  TEST_CASE("queries on two threads while a third thread loads and unloads tiles") {
    const test::TiledWorld& floor = test::stream_floor();
    auto blocks = stream::split_tiles(floor.mesh, nullptr);
    REQUIRE(blocks.ok());
    auto made = stream::TileWorld::create(
        std::make_shared<stream::MemoryTileSource>(std::move(blocks).value()));
    REQUIRE(made.ok());
    stream::TileWorld& world = *made;
    const std::uint32_t tiles = world.tile_count();
    std::atomic<bool> done{false};
    std::atomic<int> failures{0};
    std::vector<std::uint32_t> last;

    std::thread loader([&] {
      std::mt19937 rng(1);
      std::bernoulli_distribution coin(0.6);
      for (int round = 0; round < 40; ++round) {
        if (round % 3 == 0) {
          std::vector<std::uint32_t> set;
          for (std::uint32_t t = 0; t < tiles; ++t) {
            if (coin(rng)) set.push_back(t);
          }
          if (!world.set_loaded(set).ok()) failures.fetch_add(1);
          last = set;
        } else {
          const auto t = static_cast<std::uint32_t>(rng() % tiles);
          const Status s = coin(rng) ? world.load_tile(t) : world.unload_tile(t);
          if (!s.ok()) failures.fetch_add(1);
          // keep `last` in step with the world
          auto it = std::find(last.begin(), last.end(), t);
          if (world.tile_loaded(t) && it == last.end()) last.push_back(t);
          if (!world.tile_loaded(t) && it != last.end()) last.erase(it);
        }
        (void)world.resident_bytes();
      }
      done.store(true);
    });

    const auto query = [&](unsigned seed, int& found) {
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> coord(0.5F, 29.5F);
      int queries = 0;
      while (!done.load() || queries < 20) {
        const auto snap = world.snapshot();
        const Vec3 s{coord(rng), 0.0F, coord(rng)};
        const Vec3 g{coord(rng), 0.0F, coord(rng)};
        auto path = snap->find_path(s, g);
        ++queries;
        if (!path.ok()) {
          failures.fetch_add(1);
          continue;
        }
        if (path->status == plan::PathStatus::Found) ++found;
        for (const mesh::PolyId p : path->corridor) {
          if (!snap->tile_loaded(snap->polygon_tile(p).first)) failures.fetch_add(1);
        }
        // a path through the world's current snapshot as well (the world's own entry point)
        if (!world.find_path(s, g).ok()) failures.fetch_add(1);
      }
    };
    int found_a = 0;
    int found_b = 0;
    std::thread other([&] { query(2, found_b); });
    query(3, found_a);
    loader.join();
    other.join();
    CHECK(failures.load() == 0);
    MESSAGE((found_a + found_b) << " paths found while tiles changed");
    for (std::uint32_t t = 0; t < tiles; ++t) {
      CHECK(world.tile_loaded(t) == (std::find(last.begin(), last.end(), t) != last.end()));
    }
  }
}
