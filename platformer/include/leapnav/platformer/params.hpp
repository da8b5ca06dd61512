// The jumping agent and the link generator's constants (spec §B.1, B1 and B6), in tiles and
// seconds, read from a JSON object {"a", "v_max", "v_b", "h_max", "g", "h_div", "s_div", "dt",
// "T", "distance_max", "collider": [w, h]}. Every key is optional; the defaults are the spec's
// fixture parameters (§B.3), which P1-P6 are stated for.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "leapnav/core/file_read.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::platformer {

/// Largest h_div or s_div.
inline constexpr int kMaxDivisions = 64;
/// Largest collider side [units: tiles].
inline constexpr int kMaxColliderTiles = 16;
/// Largest number of samples per trajectory (floor(T / dt)).
inline constexpr int kMaxSamples = 100000;

/// What one jumping agent can do and how finely its jumps are sampled.
struct PlatformerParams {
  /// run acceleration [units: tiles/s²] [range: 0..1e4]
  double a = 9.7;
  /// run max speed, the top of the jump speed grid [units: tiles/s] [range: > 0, <= 1e4]
  double v_max = 6.3;
  /// jump base speed, the horizontal speed at take-off [units: tiles/s] [range: 0..1e4]
  double v_b = 2.1;
  /// jump max height [units: tiles] [range: > 0, <= 1e4]
  double h_max = 3.3;
  /// gravity (the article leaves it to its controller) [units: tiles/s²] [range: > 0, <= 1e5]
  double g = 19.3;
  /// jump heights h_max·i/h_div, i = 1..h_div [range: 1..kMaxDivisions]
  int h_div = 3;
  /// jump speed caps v_max·j/s_div, j = 1..s_div [range: 1..kMaxDivisions]
  int s_div = 3;
  /// time between trajectory samples [units: s] [range: > 0, <= T]
  double dt = 1.0 / 32;
  /// jump duration sampled [units: s] [range: > 0, <= 1e4; floor(T/dt) in 1..kMaxSamples]
  double T = 1.5;
  /// largest height of the landing sample above the floor [units: tiles] [range: 0..1e4]
  double distance_max = 0.5;
  /// collider width [units: tiles] [range: 1..kMaxColliderTiles]
  int collider_w = 1;
  /// collider height [units: tiles] [range: 1..kMaxColliderTiles]
  int collider_h = 1;
  friend bool operator==(const PlatformerParams&, const PlatformerParams&) = default;
};

/// Samples per trajectory: floor(T / dt), with a relative tolerance of 1e-9 so that T = 1, dt = 0.1
/// gives 10.
[[nodiscard]] int sample_count(const PlatformerParams& params);

/// Checks every field against its documented range; the message names the field, its value and
/// the range, prefixed by `where` ("p.json: 'g' = -1 is out of range (> 0 tiles/s²)").
[[nodiscard]] Status validate(const PlatformerParams& params, std::string_view where = "params");

/// Parses a JSON object of parameters over the defaults and validates it. Errors: ParseError
/// (malformed JSON, not an object, a value of the wrong type, collider not two integers),
/// InvalidArgument (unknown key, naming the known ones; a value out of range), NonFinite.
[[nodiscard]] Result<PlatformerParams> parse_params_json(std::string_view text,
                                                         std::string_view name);

/// Reads and parses a parameter file of at most `max_bytes` bytes (read_file: IoError when it
/// cannot be read, MemoryLimit past the bound, naming the path).
[[nodiscard]] Result<PlatformerParams> load_params(
    const std::filesystem::path& path, std::uint64_t max_bytes = default_max_file_bytes());

/// The parameters as a JSON object text (every key), e.g. for `--json` output.
[[nodiscard]] std::string to_json_text(const PlatformerParams& params);

}  // namespace leapnav::platformer
