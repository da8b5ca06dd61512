// Bounded whole-file reads: a regular file is sized first (one allocation, refused before
// reading); a pipe or device is read in doubling chunks and refused as soon as it passes its bound.
#include "leapnav/core/file_read.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

#include "leapnav/core/context.hpp"

namespace leapnav {
namespace {

std::string bytes_text(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t{16} << 20U)) return std::to_string(bytes >> 20U) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Result<std::string> read_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const std::string shown = path.string();
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status))
    return make_error(ErrorCode::IoError, shown + ": no such file");
  if (std::filesystem::is_directory(status))
    return make_error(ErrorCode::IoError, shown + ": is a directory, not a file");
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                             &std::fclose);
  if (!file)
    return make_error(ErrorCode::IoError,
                      shown + ": cannot open (" + std::string(std::strerror(errno)) + ")");
  const bool regular = std::filesystem::is_regular_file(status);
  // note: the stream cap applies only when it is the tighter bound, so a small --max-memory keeps
  // its own message
  const bool capped = !regular && kMaxStreamBytes < max_bytes;
  const std::uint64_t bound = capped ? kMaxStreamBytes : max_bytes;
  const auto too_large = [&](const std::string& what) {
    const std::string why = capped ? " a pipe or device may give (read a larger input from a "
                                     "regular file)"
                                   : " an input may have (half the memory limit; see --max-memory)";
    return make_error(ErrorCode::MemoryLimit,
                      shown + ": " + what + " more than the " + bytes_text(bound) + why);
  };
  std::string data;
  if (regular) {
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec) {
      if (size > bound) return too_large("the file has " + bytes_text(size) + ",");
      data.resize(static_cast<std::size_t>(size));
    }
  }
  std::size_t filled = 0;
  for (;;) {
    if (filled == data.size()) {
      if (filled > bound) return too_large("not read further: it gave");
      const std::uint64_t grown = std::max<std::uint64_t>(data.size() * 2, 1 << 16);
      data.resize(static_cast<std::size_t>(std::min<std::uint64_t>(grown, bound + 1)));
    }
    const std::size_t want = data.size() - filled;
    const std::size_t got = std::fread(data.data() + filled, 1, want, file.get());
    filled += got;
    if (got < want) break;
  }
  if (std::ferror(file.get()) != 0)
    return make_error(ErrorCode::IoError,
                      shown + ": read error (" + std::string(std::strerror(errno)) + ")");
  if (filled > bound) return too_large("not read further: it gave");
  data.resize(filled);
  return data;
}

std::uint64_t default_max_file_bytes() {
  return max_file_bytes(BuildContext::default_memory_limit());
}

Result<std::string> read_file(const std::filesystem::path& path) {
  return read_file(path, default_max_file_bytes());
}

}  // namespace leapnav
