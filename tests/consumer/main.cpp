// Builds against the installed leapnav package and runs the pipeline through its public headers,
// as the README's "Using the library" section shows.
#include <cstdio>

#include <leapnav/io/scenes.hpp>
#include <leapnav/jumplinks/jump_links.hpp>
#include <leapnav/mesh/build.hpp>
#include <leapnav/planning/query.hpp>

int main() {
  auto scene = leapnav::io::load_scene("builtin:demo");
  auto config = leapnav::named_config("default");
  if (!scene || !config) return 1;
  leapnav::BuildContext ctx;
  auto built = leapnav::mesh::build_navmesh(*scene, *config, ctx);
  if (!built) {
    std::fprintf(stderr, "consumer: %s\n", built.error().message.c_str());
    return 1;
  }
  auto planner = leapnav::plan::Planner::create(built->navmesh);
  if (!planner) return 1;
  leapnav::plan::NavQuery query(*planner);
  auto path = query.find_path({2.2F, 0.1F, 32.5F}, {32.0F, 0.1F, 18.0F});
  if (!path || path->status != leapnav::plan::PathStatus::Found) return 1;
  std::printf("consumer: %zu polygons, a path of %.2f m through %zu corners\n",
              built->navmesh.polygon_count(), path->length, path->points.size());

  // jump links for the thesis's C2 jump, then a path to a stepping stone only a jump reaches
  leapnav::jump::JumpLinkOptions jumps;
  jumps.jumps = {leapnav::jump::kJumpC2};
  jumps.step = 4;
  auto links = leapnav::jump::build_jump_links(built->voxels.solid, built->voxels.compact,
                                               built->navmesh, config->agent, jumps, ctx);
  if (!links) return 1;
  auto jump_planner = leapnav::plan::Planner::create(built->navmesh, &*links);
  if (!jump_planner) return 1;
  leapnav::plan::NavQuery jump_query(*jump_planner);
  auto jump_path = jump_query.find_path({2.2F, 0.1F, 32.5F}, {22.0F, 0.1F, 37.0F});
  if (!jump_path || jump_path->status != leapnav::plan::PathStatus::Found ||
      jump_path->jump_count == 0)
    return 1;
  std::printf("consumer: %zu jump links, a path of %.2f m with %u jumps\n", links->links.size(),
              jump_path->length, jump_path->jump_count);
  return 0;
}
