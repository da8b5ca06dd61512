// Bounded whole-file reads shared by every reader (io's OBJ, .lnav and configuration readers, the
// platformer's tile maps and parameter files, grid3d's .3dmap / .3dscen): a regular file larger
// than the bound is refused before it is read, a pipe or device once it passes the bound (or the
// fixed stream cap, whichever is smaller), and read errors are errors, never a silent end of file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "leapnav/core/result.hpp"

namespace leapnav {

/// The largest file a reader loads under a memory limit: half of it (the other half is left for
/// what is parsed from the text) [units: bytes].
[[nodiscard]] constexpr std::uint64_t max_file_bytes(std::uint64_t memory_limit) {
  return memory_limit / 2;
}

/// The most a pipe or device (anything but a regular file) may give, whatever the bound: its size
/// is not known before reading, so /dev/zero or a runaway producer is cut off here instead of at
/// half the memory limit (gigabytes by default). A larger input is read from a regular file
/// [units: bytes].
inline constexpr std::uint64_t kMaxStreamBytes = std::uint64_t{256} << 20U;

/// Reads a whole file of at most `max_bytes` bytes. Errors name the path as given: IoError when
/// it is missing, a directory, cannot be opened or a read fails (never a silent end of file);
/// MemoryLimit when a regular file is larger than max_bytes (checked before reading) or a pipe
/// or device gives more than min(max_bytes, kMaxStreamBytes) (checked while reading, so
/// /dev/zero ends there).
[[nodiscard]] Result<std::string> read_file(const std::filesystem::path& path,
                                            std::uint64_t max_bytes);

/// max_file_bytes(BuildContext::default_memory_limit()).
[[nodiscard]] std::uint64_t default_max_file_bytes();

/// read_file with the bound for the default memory limit (default_max_file_bytes()).
[[nodiscard]] Result<std::string> read_file(const std::filesystem::path& path);

}  // namespace leapnav
