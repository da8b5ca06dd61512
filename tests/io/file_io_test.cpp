// Bounded reads and atomic writes: a file past the bound is refused before it is read, a device
// without end is refused once it passes the bound, read errors are errors, and concurrent writers
// to one path leave one complete file.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <latch>
#include <string>
#include <thread>

#include "leapnav/io/file_io.hpp"

using namespace leapnav;
using namespace leapnav::io;

namespace {

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("leapnav_file_io_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_SUITE("io.file_io") {
  TEST_CASE("a file within the bound is read whole; one past it is refused naming it") {
    const auto dir = fresh_dir("read");
    const auto path = dir / "ten.txt";
    std::ofstream(path, std::ios::binary) << "0123456789";
    const auto whole = read_file(path, 10);
    REQUIRE(whole.ok());
    CHECK(*whole == "0123456789");
    const auto refused = read_file(path, 9);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::MemoryLimit);
    CHECK(refused.error().message ==
          path.string() +
              ": the file has 10 bytes, more than the 9 bytes an input may have (half the "
              "memory limit; see --max-memory)");
    CHECK(max_file_bytes(std::uint64_t{100} << 20U) == std::uint64_t{50} << 20U);
  }

  TEST_CASE("a device without end is refused once it passes the bound") {
    if (!std::filesystem::exists("/dev/zero")) return;
    const auto refused = read_file("/dev/zero", std::uint64_t{1} << 20U);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::MemoryLimit);
    CHECK(refused.error().message.rfind(
              "/dev/zero: not read further: it gave more than the 1048576 bytes", 0) == 0);
  }

  TEST_CASE("a read that fails is an error, not an end of file") {
    // note: reading /proc/self/mem at offset 0 (an unmapped address) fails with EIO
    if (!std::filesystem::exists("/proc/self/mem")) return;
    const auto failed = read_file("/proc/self/mem", std::uint64_t{1} << 20U);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().code == ErrorCode::IoError);
    CHECK(failed.error().message.rfind("/proc/self/mem: read error (", 0) == 0);
  }

  TEST_CASE("missing files and directories are io errors naming the path") {
    const auto dir = fresh_dir("missing");
    CHECK(read_file(dir / "nope", 100).error().message ==
          (dir / "nope").string() + ": no such file");
    CHECK(read_file(dir, 100).error().message == dir.string() + ": is a directory, not a file");
    CHECK(write_file_atomic(dir, "x").error().message ==
          dir.string() + ": is a directory, not a file");
    CHECK(write_file_atomic(dir / "no" / "such" / "dir.txt", "x").error().code ==
          ErrorCode::IoError);
  }

  TEST_CASE("two writers forced to overlap leave one complete file and both succeed") {
    const auto dir = fresh_dir("overlap");
    const auto path = dir / "out.lnav";
    // note: 4 MiB each, released together by a latch every round, so the two writes are in
    // flight at once; with one shared temporary name this lost a file or mixed two.
    const std::string a(std::size_t{4} << 20U, 'a');
    const std::string b(std::size_t{4} << 20U, 'b');
    constexpr int kRounds = 8;
    for (int round = 0; round < kRounds; ++round) {
      std::latch start(2);
      Status first;
      Status second;
      std::thread ta([&] {
        start.arrive_and_wait();
        first = write_file_atomic(path, a);
      });
      std::thread tb([&] {
        start.arrive_and_wait();
        second = write_file_atomic(path, b);
      });
      ta.join();
      tb.join();
      CHECK(first.ok());
      CHECK(second.ok());
      const std::string left = slurp(path);
      CHECK((left == a || left == b));
    }
    // no temporary is left behind
    int entries = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++entries;
    CHECK(entries == 1);
  }

  TEST_CASE("a write replaces the file a symbolic link points to, with the umask's permissions") {
    const auto dir = fresh_dir("link");
    const auto target = dir / "real.txt";
    const auto link = dir / "link.txt";
    std::ofstream(target) << "old";
    std::filesystem::create_symlink(target, link);
    REQUIRE(write_file_atomic(link, "new").ok());
    CHECK(std::filesystem::is_symlink(link));
    CHECK(slurp(target) == "new");
    const mode_t mask = umask(022);
    umask(mask);
    const auto perms = std::filesystem::status(target).permissions();
    CHECK(static_cast<unsigned>(perms) == (0666U & ~static_cast<unsigned>(mask)));
  }
}
