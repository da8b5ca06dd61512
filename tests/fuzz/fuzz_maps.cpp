// Fuzz target: the text readers of the flying and platformer planners (.3dmap, .3dscen, tile maps,
// platformer parameter JSON) on arbitrary bytes must return a value or an error, never crash, hang
// or read out of bounds. A returned value must pass its validate() and survive a round trip
// through its writer where one exists. The first byte picks the reader; the rest is the text.
//
// Extents: a .3dmap header may declare up to 2^34 voxels (2 GiB of bits), which the commands bound
// with --max-memory (tested in tests/cli). Here headers over 2^24 voxels are skipped so that the
// fuzzer explores the parser rather than the allocator, and grids with more than 2^18 blocked
// voxels are not round-tripped (the writer's output is one line per blocked voxel).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "leapnav/core/assert.hpp"
#include "leapnav/grid3d/convert.hpp"
#include "leapnav/grid3d/occupancy.hpp"
#include "leapnav/platformer/params.hpp"
#include "leapnav/platformer/tile_map.hpp"

namespace {

constexpr std::uint64_t kMaxFuzzVoxels = std::uint64_t{1} << 24;
constexpr std::uint64_t kMaxRoundTripBlocked = std::uint64_t{1} << 18;

// The voxel count the header (the first line with a word on it) declares, or 0 when that line is
// not a header of three positive extents within the side limit.
std::uint64_t declared_voxels(std::string_view text) {
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    std::string word;
    if (!(in >> word)) continue;
    long long w = 0;
    long long h = 0;
    long long d = 0;
    if (!(in >> w >> h >> d) || w <= 0 || h <= 0 || d <= 0) return 0;
    const auto limit = static_cast<long long>(leapnav::grid3d::kMaxGridSide3);
    if (w > limit || h > limit || d > limit) return 0;
    return static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h) *
           static_cast<std::uint64_t>(d);
  }
  return 0;
}

void fuzz_3dmap(std::string_view text) {
  if (declared_voxels(text) > kMaxFuzzVoxels) return;
  const auto grid = leapnav::grid3d::parse_3dmap(text, "fuzz.3dmap");
  if (!grid.ok()) return;
  LEAPNAV_ASSERT(leapnav::grid3d::validate(*grid).ok(), "parse_3dmap returned an invalid grid");
  // the writer prints one line per blocked voxel: a "rev_voxel" header makes a few bytes of input
  // millions of lines, so the round trip is kept to grids a fuzzer can rewrite quickly
  if (grid->blocked_count() > kMaxRoundTripBlocked) return;
  const auto again = leapnav::grid3d::parse_3dmap(leapnav::grid3d::write_3dmap(*grid), "again");
  LEAPNAV_ASSERT(again.ok(), "write_3dmap wrote a map parse_3dmap refuses");
  LEAPNAV_ASSERT(leapnav::grid3d::same_occupancy(*grid, *again), "3dmap round trip changed it");
}

void fuzz_3dscen(std::string_view text) {
  const auto scen = leapnav::grid3d::parse_3dscen(text, "fuzz.3dscen");
  if (!scen.ok()) return;
  for (const auto& entry : scen->entries) {
    LEAPNAV_ASSERT(entry.line >= 1, "a scenario entry without a line number");
  }
}

void fuzz_tile_map(std::string_view text) {
  const auto map = leapnav::platformer::parse_tile_map(text, "fuzz.map");
  if (!map.ok()) return;
  LEAPNAV_ASSERT(leapnav::platformer::validate(*map).ok(),
                 "parse_tile_map returned an invalid map");
  const auto again =
      leapnav::platformer::parse_tile_map(leapnav::platformer::to_text(*map), "again");
  LEAPNAV_ASSERT(again.ok(), "to_text wrote a map parse_tile_map refuses");
  LEAPNAV_ASSERT(
      again->width == map->width && again->height == map->height && again->solid == map->solid,
      "tile map round trip changed it");
}

void fuzz_params(std::string_view text) {
  const auto params = leapnav::platformer::parse_params_json(text, "fuzz.json");
  if (!params.ok()) return;
  LEAPNAV_ASSERT(leapnav::platformer::validate(*params).ok(),
                 "parse_params_json returned parameters out of range");
  const auto again =
      leapnav::platformer::parse_params_json(leapnav::platformer::to_json_text(*params), "again");
  LEAPNAV_ASSERT(again.ok(), "to_json_text wrote parameters parse_params_json refuses");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      fuzz_3dmap(text);
      break;
    case 1:
      fuzz_3dscen(text);
      break;
    case 2:
      fuzz_tile_map(text);
      break;
    default:
      fuzz_params(text);
      break;
  }
  return 0;
}
