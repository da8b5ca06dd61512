// Whole-file input and output shared by every reader and writer: reads bounded by the memory
// limit (a pipe or device that never ends is refused once it passes the bound), read errors as
// errors, and writes through a unique temporary file in the target's directory renamed into
// place, so that concurrent writers to one path leave one complete file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "leapnav/core/result.hpp"

namespace leapnav::io {

/// The largest file a reader loads under a memory limit: half of it (the other half is left for
/// what is parsed from the text) [units: bytes].
[[nodiscard]] constexpr std::uint64_t max_file_bytes(std::uint64_t memory_limit) {
  return memory_limit / 2;
}

/// Reads a whole file of at most `max_bytes` bytes. Errors name the path as given: IoError when
/// it is missing, a directory, cannot be opened or a read fails (never a silent end of file);
/// MemoryLimit when a regular file is larger than max_bytes (checked before reading) or a pipe
/// or device gives more than max_bytes (checked while reading, so /dev/zero ends there).
[[nodiscard]] Result<std::string> read_file(const std::filesystem::path& path,
                                            std::uint64_t max_bytes);

/// max_file_bytes(BuildContext::default_memory_limit()).
[[nodiscard]] std::uint64_t default_max_file_bytes();

/// read_file with the bound for the default memory limit (default_max_file_bytes()).
[[nodiscard]] Result<std::string> read_file(const std::filesystem::path& path);

/// Writes `bytes` to `path` atomically: into a new temporary file with a unique name in the same
/// directory (created exclusively, permissions 0666 less the umask), flushed to disk, then renamed
/// over `path`. Readers and other writers see either the old file or a complete new one; of two
/// concurrent writers the last rename wins, and each reports success. The temporary is removed on
/// failure. IoError naming `path` when anything fails.
[[nodiscard]] Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

}  // namespace leapnav::io
