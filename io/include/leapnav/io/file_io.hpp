// Whole-file input and output shared by every reader and writer: reads bounded by the memory
// limit (the reader is core's, <leapnav/core/file_read.hpp>, re-exported here), and writes through
// a unique temporary file in the target's directory renamed into place, so that concurrent writers
// to one path leave one complete file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "leapnav/core/file_read.hpp"
#include "leapnav/core/result.hpp"

namespace leapnav::io {

// note: the bounded reader lives in core (the platformer and grid3d read files too); io's
// readers and callers keep their io:: names.
using ::leapnav::default_max_file_bytes;
using ::leapnav::kMaxStreamBytes;
using ::leapnav::max_file_bytes;
using ::leapnav::read_file;

/// Writes `bytes` to `path` atomically: into a new temporary file with a unique name in the same
/// directory (created exclusively, permissions 0666 less the umask), flushed to disk, then renamed
/// over `path`. Readers and other writers see either the old file or a complete new one; of two
/// concurrent writers the last rename wins, and each reports success. The temporary is removed on
/// failure. IoError naming `path` when anything fails.
[[nodiscard]] Status write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

}  // namespace leapnav::io
