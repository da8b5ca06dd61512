// The C API's streaming worlds: a tile pack opened through libleapnav_c plans as the C++
// stream::TileWorld does, statuses name unloaded tiles, hostile arguments get their status and a
// message, and queries on two threads run while a third loads and unloads tiles.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "leapnav/leapnav.h"
#include "leapnav/streaming/tile_pack.hpp"
#include "streaming/stream_scenes.hpp"
#include "support/cli_run.hpp"

namespace {

std::string floor_pack() {
  static const std::string path = [] {
    auto blocks = leapnav::stream::split_tiles(leapnav::test::stream_floor().mesh, nullptr);
    REQUIRE(blocks.ok());
    const std::string p = leapnav::test::temp_file("leapnav_capi_world", "floor.lnavpack");
    REQUIRE(leapnav::stream::save_tile_pack(*blocks, p).ok());
    return p;
  }();
  return path;
}

}  // namespace

TEST_SUITE("capi.world") {
  TEST_CASE("a world opened from a tile pack plans over its loaded tiles as the C++ world") {
    leapnav_world* world = nullptr;
    REQUIRE(leapnav_world_open(floor_pack().c_str(), &world) == LEAPNAV_OK);
    CHECK(leapnav_world_tile_count(world) == 25);
    auto source = leapnav::stream::PackTileSource::open(floor_pack());
    REQUIRE(source.ok());
    auto cpp = leapnav::stream::TileWorld::create(*source);
    REQUIRE(cpp.ok());
    const std::vector<std::uint32_t> window = {0, 1, 2, 5, 6, 7, 10, 11, 12};
    REQUIRE(leapnav_world_set_loaded(world, window.data(), window.size()) == LEAPNAV_OK);
    REQUIRE(cpp->set_loaded(window).ok());
    CHECK(leapnav_world_tile_loaded(world, 6) == 1);
    CHECK(leapnav_world_tile_loaded(world, 24) == 0);
    const std::uint64_t with_window = leapnav_world_resident_bytes(world);
    CHECK(with_window > 0);

    leapnav_world_query* query = nullptr;
    REQUIRE(leapnav_world_query_create(world, &query) == LEAPNAV_OK);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> coord(0.5F, 29.5F);
    int found = 0;
    for (int i = 0; i < 40; ++i) {
      const float start[3] = {coord(rng), 0.0F, coord(rng)};
      const float goal[3] = {coord(rng), 0.0F, coord(rng)};
      leapnav_path_info info{};
      REQUIRE(leapnav_world_find_path(query, start, goal, nullptr, &info) == LEAPNAV_OK);
      auto expected = cpp->find_path({start[0], start[1], start[2]}, {goal[0], goal[1], goal[2]});
      REQUIRE(expected.ok());
      CHECK(static_cast<int>(info.status) == static_cast<int>(expected->status));
      CHECK(info.unloaded_tile == expected->unloaded_tile);
      CHECK((info.blocked_by_unloaded_tiles != 0) == expected->blocked_by_unloaded_tiles);
      REQUIRE(info.point_count == expected->points.size());
      std::vector<float> xyz(3 * info.point_count);
      REQUIRE(leapnav_world_path_points(query, xyz.data(), info.point_count) == LEAPNAV_OK);
      for (std::size_t k = 0; k < info.point_count; ++k) CHECK(xyz[3 * k] == expected->points[k].x);
      std::vector<leapnav_path_segment> segments(info.segment_count);
      CHECK(leapnav_world_path_segments(query, segments.data(), segments.size()) == LEAPNAV_OK);
      if (info.status == LEAPNAV_PATH_NO_PATH && info.unloaded_tile != UINT32_MAX) {
        const float* end =
            leapnav_world_tile_loaded(world, leapnav_world_tile_at(world, start)) ? goal : start;
        CHECK(leapnav_world_tile_at(world, end) == info.unloaded_tile);
      }
      found += info.status == LEAPNAV_PATH_FOUND ? 1 : 0;
    }
    CHECK(found > 0);
    REQUIRE(leapnav_world_unload_tile(world, 6) == LEAPNAV_OK);
    CHECK(leapnav_world_resident_bytes(world) < with_window);
    REQUIRE(leapnav_world_load_tile(world, 6) == LEAPNAV_OK);
    leapnav_world_query_free(query);
    leapnav_world_free(world);
  }

  TEST_CASE("world calls with hostile arguments return their status and name the input") {
    leapnav_world* world = nullptr;
    CHECK(leapnav_world_open(nullptr, &world) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(world == nullptr);
    CHECK(leapnav_world_open(floor_pack().c_str(), nullptr) == LEAPNAV_INVALID_ARGUMENT);
    const std::string missing = leapnav::test::temp_file("leapnav_capi_world", "none.lnavpack");
    CHECK(leapnav_world_open(missing.c_str(), &world) == LEAPNAV_IO_ERROR);
    CHECK(std::string(leapnav_last_error()).find("none.lnavpack") != std::string::npos);
    CHECK(world == nullptr);
    REQUIRE(leapnav_world_open(floor_pack().c_str(), &world) == LEAPNAV_OK);
    CHECK(leapnav_world_load_tile(world, 25) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(std::string(leapnav_last_error()).find("tile 25") != std::string::npos);
    CHECK(leapnav_world_unload_tile(nullptr, 0) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(leapnav_world_set_loaded(world, nullptr, 3) == LEAPNAV_INVALID_ARGUMENT);
    CHECK(leapnav_world_set_loaded(world, nullptr, 0) == LEAPNAV_OK);
    CHECK(leapnav_world_tile_count(nullptr) == 0);
    CHECK(leapnav_world_tile_at(nullptr, nullptr) == UINT32_MAX);
    CHECK(leapnav_world_tile_loaded(nullptr, 0) == 0);
    CHECK(leapnav_world_resident_bytes(nullptr) == 0);
    leapnav_world_query* query = nullptr;
    CHECK(leapnav_world_query_create(nullptr, &query) == LEAPNAV_INVALID_ARGUMENT);
    REQUIRE(leapnav_world_query_create(world, &query) == LEAPNAV_OK);
    const float p[3] = {1.0F, 0.0F, 1.0F};
    const float nan[3] = {NAN, 0.0F, 1.0F};
    leapnav_path_info info{};
    CHECK(leapnav_world_find_path(query, nan, p, nullptr, &info) == LEAPNAV_NON_FINITE);
    CHECK(leapnav_world_find_path(query, nullptr, p, nullptr, &info) == LEAPNAV_INVALID_ARGUMENT);
    // nothing loaded: the start's tile is named
    REQUIRE(leapnav_world_find_path(query, p, p, nullptr, &info) == LEAPNAV_OK);
    CHECK(info.status == LEAPNAV_PATH_NO_PATH);
    CHECK(info.unloaded_tile == 0);
    CHECK(info.blocked_by_unloaded_tiles == 1);
    CHECK(leapnav_world_path_points(query, nullptr, 0) == LEAPNAV_OK);
    leapnav_world_query_free(query);
    leapnav_world_free(world);
    leapnav_world_free(nullptr);
    leapnav_world_query_free(nullptr);
  }

  TEST_CASE("world queries on two threads while a third thread loads and unloads tiles") {
    leapnav_world* world = nullptr;
    REQUIRE(leapnav_world_open(floor_pack().c_str(), &world) == LEAPNAV_OK);
    std::atomic<bool> done{false};
    std::atomic<int> failures{0};
    std::thread loader([&] {
      std::mt19937 rng(9);
      for (int round = 0; round < 30; ++round) {
        const auto t = static_cast<std::uint32_t>(rng() % 25);
        const leapnav_status s = (round % 3 == 0) ? leapnav_world_unload_tile(world, t)
                                                  : leapnav_world_load_tile(world, t);
        if (s != LEAPNAV_OK) failures.fetch_add(1);
      }
      done.store(true);
    });
    const auto run = [&](unsigned seed) {
      leapnav_world_query* query = nullptr;
      if (leapnav_world_query_create(world, &query) != LEAPNAV_OK) {
        failures.fetch_add(1);
        return;
      }
      std::mt19937 rng(seed);
      std::uniform_real_distribution<float> coord(0.5F, 29.5F);
      int queries = 0;
      while (!done.load() || queries < 10) {
        const float a[3] = {coord(rng), 0.0F, coord(rng)};
        const float b[3] = {coord(rng), 0.0F, coord(rng)};
        leapnav_path_info info{};
        if (leapnav_world_find_path(query, a, b, nullptr, &info) != LEAPNAV_OK)
          failures.fetch_add(1);
        ++queries;
      }
      leapnav_world_query_free(query);
    };
    std::thread other(run, 1U);
    run(2U);
    loader.join();
    other.join();
    CHECK(failures.load() == 0);
    leapnav_world_free(world);
  }
}
