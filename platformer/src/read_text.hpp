// Reads a whole text file for the platformer's loaders (tile maps, parameter files), with the
// errors named after the path: a directory, a file that cannot be opened, a failed read.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "leapnav/core/result.hpp"

namespace leapnav::platformer::detail {

inline Result<std::string> read_text_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::IoError, path.string() + ": is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::IoError, path.string() + ": cannot open (no such file?)");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return make_error(ErrorCode::IoError, path.string() + ": read error");
  return buffer.str();
}

}  // namespace leapnav::platformer::detail
