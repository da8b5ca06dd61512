// Atomic writes (POSIX: open O_EXCL + fdatasync + rename).
#include "leapnav/io/file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>

namespace leapnav::io {
namespace {

std::string errno_text(int error) {
  return std::string(std::strerror(error));
}

/// A name no other writer picks: the process id, a per-process counter and random bits.
std::string temporary_name(const std::filesystem::path& path) {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 random{std::random_device{}()};
  char suffix[64];
  std::snprintf(suffix, sizeof(suffix), ".%ld.%llu.%016llx.tmp", static_cast<long>(getpid()),
                static_cast<unsigned long long>(counter.fetch_add(1)),
                static_cast<unsigned long long>(random()));
  return path.filename().string() + suffix;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { close(); }
  [[nodiscard]] int get() const { return fd_; }
  int close() {
    const int result = fd_ >= 0 ? ::close(fd_) : 0;
    fd_ = -1;
    return result;
  }

 private:
  int fd_;
};

}  // namespace

namespace {

/// Writes straight into an existing device or pipe (-o /dev/stdout), which cannot be replaced.
Status write_in_place(const std::filesystem::path& path, std::string_view bytes) {
  const std::string shown = path.string();
  Fd out(::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC));
  if (out.get() < 0)
    return make_error(ErrorCode::IoError, shown + ": cannot write (" + errno_text(errno) + ")");
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(out.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return make_error(ErrorCode::IoError, shown + ": write failed (" + errno_text(errno) + ")");
    written += static_cast<std::size_t>(n);
  }
  if (out.close() != 0)
    return make_error(ErrorCode::IoError, shown + ": write failed (" + errno_text(errno) + ")");
  return {};
}

}  // namespace

Status write_file_atomic(const std::filesystem::path& given, std::string_view bytes) {
  const std::string shown = given.string();
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(given, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    if (std::filesystem::is_directory(status))
      return make_error(ErrorCode::IoError, shown + ": is a directory, not a file");
    return write_in_place(given, bytes);
  }
  // note: a symbolic link is followed, so the file it points to is replaced, not the link
  std::filesystem::path path = given;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(given, ec))) {
    const std::filesystem::path target = std::filesystem::weakly_canonical(given, ec);
    if (!ec) path = target;
  }
  const std::filesystem::path dir = path.parent_path();
  std::filesystem::path temp;
  int fd = -1;
  // note: O_EXCL makes the name this writer's alone; a clash (another writer drew the same
  // random bits) is retried with a new name.
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    temp = dir / temporary_name(path);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      return make_error(ErrorCode::IoError, shown + ": cannot write (" + errno_text(errno) + ")");
  }
  if (fd < 0)
    return make_error(ErrorCode::IoError, shown + ": cannot create a unique temporary file");
  Fd out(fd);
  const auto fail = [&](const std::string& what, int error) {
    out.close();
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    return make_error(ErrorCode::IoError, shown + ": " + what + " (" + errno_text(error) + ")");
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(out.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed", errno);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fdatasync(out.get()) != 0 && errno != EINVAL) return fail("write failed", errno);
  if (out.close() != 0) return fail("write failed", errno);
  if (::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot write", errno);
  return {};
}

}  // namespace leapnav::io
