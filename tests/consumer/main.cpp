// Builds against the installed leapnav package and runs a small job through its public headers.
#include <cstdio>

#include <leapnav/core/config.hpp>

int main() {
  const auto config = leapnav::named_config("default");
  if (!config.ok()) {
    std::fprintf(stderr, "consumer: %s\n", config.error().message.c_str());
    return 1;
  }
  std::printf("consumer: linked leapnav, default cell size %.2f m\n",
              static_cast<double>(config->voxel.cell_size));
  return 0;
}
