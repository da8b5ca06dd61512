// `render --png` writes its PNG as every other output is written: rsvg-convert's bytes go to a
// unique temporary in the target's directory renamed into place, so a failed conversion leaves
// an existing PNG as it was.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/cli_run.hpp"

#ifdef LEAPNAV_CLI_PATH

using leapnav::test::run_cli;

namespace {

std::filesystem::path fresh_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("leapnav_render_png_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int temporaries(const std::filesystem::path& dir) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    count += entry.path().extension() == ".tmp" ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_SUITE("cli.render_png") {
  TEST_CASE("render --png replaces an existing PNG with a complete one and leaves no temporary") {
    if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0) {
      MESSAGE("skipped: rsvg-convert is not installed (Debian package librsvg2-bin)");
      return;
    }
    const auto dir = fresh_dir("replace");
    const std::string lnav = (dir / "demo.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    const auto png = dir / "demo.png";
    std::ofstream(png, std::ios::binary) << "old picture";
    const auto r = run_cli("render " + lnav + " --png -o " + (dir / "demo.svg").string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.output);
    const std::string bytes = slurp(png);
    CHECK(bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    CHECK(temporaries(dir) == 0);
  }

  TEST_CASE("a conversion that fails half-way leaves the previous PNG untouched") {
    const auto dir = fresh_dir("fail");
    const auto bin = dir / "bin";
    std::filesystem::create_directories(bin);
    // a converter that writes part of a picture (to -o FILE when given, as rsvg-convert does,
    // else to stdout) and then fails
    std::ofstream(bin / "rsvg-convert")
        << "#!/bin/sh\nif [ \"$1\" = -o ]; then printf 'half a picture' > \"$2\"; else printf "
           "'half a picture'; fi\nexit 1\n";
    std::filesystem::permissions(bin / "rsvg-convert", std::filesystem::perms::owner_all);
    const std::string lnav = (dir / "demo.lnav").string();
    REQUIRE(run_cli("build builtin:demo -o " + lnav).exit_code == 0);
    const auto png = dir / "demo.png";
    std::ofstream(png, std::ios::binary) << "old picture";
    const char* old_path = std::getenv("PATH");
    const std::string saved = old_path != nullptr ? old_path : "/usr/bin:/bin";
    ::setenv("PATH", (bin.string() + ":" + saved).c_str(), 1);
    const auto r = run_cli("render " + lnav + " --png -o " + (dir / "demo.svg").string());
    ::setenv("PATH", saved.c_str(), 1);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("rsvg-convert failed to write " + png.string() + " [io_error]") !=
          std::string::npos);
    CHECK(slurp(png) == "old picture");
    CHECK(temporaries(dir) == 0);
  }
}

#endif  // LEAPNAV_CLI_PATH
