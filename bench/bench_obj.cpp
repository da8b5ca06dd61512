// OBJ reader throughput: a large OBJ (a city scene written out) parsed from memory, in MB/s.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "harness.hpp"
#include "leapnav/core/hash.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/io/scenes.hpp"

namespace leapnav::bench {

void run_obj_suite(const Options& options, Report& report) {
  // note: city:48 written as OBJ is tens of MB: large enough that the per-file overhead vanishes.
  const auto mesh = io::builtin_scene("city:48");
  if (!mesh) {
    std::cerr << "bench: " << mesh.error().message << '\n';
    return;
  }
  const auto path = std::filesystem::temp_directory_path() / "leapnav_bench_city48.obj";
  if (auto status = io::write_obj(*mesh, path); !status) {
    std::cerr << "bench: " << status.error().message << '\n';
    return;
  }
  const auto bytes = std::filesystem::file_size(path);
  std::vector<double> ms;
  std::uint64_t triangles = 0;
  for (int r = 0; r < std::max(3, options.repeat / 4); ++r) {
    const auto start = std::chrono::steady_clock::now();
    auto loaded = io::load_obj(path);
    const auto end = std::chrono::steady_clock::now();
    if (!loaded) {
      std::cerr << "bench: " << loaded.error().message << '\n';
      return;
    }
    triangles = loaded->triangles.size();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::filesystem::remove(path);
  const Summary s = summarize(ms);
  std::ostringstream extra;
  extra << "bytes=" << bytes << " triangles=" << triangles
        << " MB_per_s=" << static_cast<double>(bytes) / 1e6 / (s.median / 1000.0);
  report.add({"city:48.obj", "-", "load_obj", 1, s, "", extra.str()});
}

}  // namespace leapnav::bench
