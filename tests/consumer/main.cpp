// Builds against the installed leapnav package and runs the pipeline through its public headers,
// the way the README's "Using the library" section shows.
#include <cstdio>

#include <leapnav/io/scenes.hpp>
#include <leapnav/mesh/build.hpp>

int main() {
  auto scene = leapnav::io::builtin_scene("demo");
  auto config = leapnav::named_config("default");
  if (!scene.ok() || !config.ok()) return 1;
  leapnav::BuildContext ctx;
  auto built = leapnav::mesh::build_navmesh(*scene, *config, ctx);
  if (!built.ok()) {
    std::fprintf(stderr, "consumer: %s\n", built.error().message.c_str());
    return 1;
  }
  std::printf("consumer: %zu polygons on the demo scene\n", built->navmesh.polygon_count());
  return built->navmesh.polygon_count() > 0 ? 0 : 1;
}
