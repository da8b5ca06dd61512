// Build configurations as JSON files, and the resolver the CLI uses for --config: a named
// configuration ("default", "thesis") or a JSON file whose sections and keys mirror BuildConfig
// field for field (core/config.hpp). Unknown keys are errors, values are range-checked with
// validate(BuildConfig).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "leapnav/core/config.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/io/file_io.hpp"

namespace leapnav::io {

/// Parses a configuration from JSON text; `source` names it in messages. The document is an object
/// with optional keys:
///   "base":   a named configuration to start from (default "default"),
///   "name":   the configuration's name (default: `source` without directory and extension),
///   "voxel":  {"cell_size", "cell_height"},
///   "agent":  {"height", "radius", "max_climb", "max_slope_deg", "max_jump_up", "max_drop"},
///   "region": {"min_region_area", "merge_region_area"},
///   "poly":   {"max_edge_len", "max_edge_error", "max_verts_per_poly", "detail_sample_dist",
///              "detail_max_error"},
/// in the units of config.hpp (metres, square metres, degrees). Missing keys keep the base value.
/// Errors: ParseError for malformed JSON (with line and column); InvalidArgument for an unknown
/// key or section (named, with the known ones listed), a value of the wrong type, an unknown base,
/// or a value out of range (validate's message).
[[nodiscard]] Result<BuildConfig> parse_config_json(std::string_view text, std::string_view source);

/// Reads and parses a JSON configuration file (IoError when it cannot be read, MemoryLimit when
/// it is larger than max_bytes).
[[nodiscard]] Result<BuildConfig> load_config_json(
    const std::filesystem::path& path, std::uint64_t max_bytes = default_max_file_bytes());

/// A named configuration when `name_or_path` is one of named_config_names(), else a JSON file.
/// A name that is neither (no such file, no ".json" and no directory separator) is an
/// InvalidArgument error listing the names.
[[nodiscard]] Result<BuildConfig> resolve_config(
    std::string_view name_or_path, std::uint64_t max_bytes = default_max_file_bytes());

/// The configuration as pretty-printed JSON (every section and key, in config.hpp order) that
/// parse_config_json reads back to an identical BuildConfig.
[[nodiscard]] std::string config_to_json(const BuildConfig& config);

}  // namespace leapnav::io
