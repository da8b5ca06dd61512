// Builds against the installed leapnav package and runs the pipeline through the umbrella header,
// as an engine would: a level from in-memory arrays, jump links, a save and load through memory,
// and walk and jump paths through a planner that owns what it plans over.
#include <cstdio>
#include <leapnav/leapnav.hpp>
#include <utility>

namespace {

/// Two 8 x 8 m floor slabs 0.5 m thick with a 2 m gap between them along x.
leapnav::TriangleMesh two_slabs() {
  leapnav::TriangleMesh level;
  level.name = "two-slabs";
  const auto add_box = [&level](leapnav::Vec3 lo, leapnav::Vec3 hi) {
    const auto first = static_cast<std::uint32_t>(level.vertices.size());
    for (int k = 0; k < 8; ++k) {
      level.vertices.push_back(
          {(k & 1) != 0 ? hi.x : lo.x, (k & 2) != 0 ? hi.y : lo.y, (k & 4) != 0 ? hi.z : lo.z});
    }
    // top face (+y, CCW seen from above) and the four sides, two triangles each
    const std::uint32_t faces[5][4] = {
        {2, 6, 7, 3}, {0, 1, 5, 4}, {0, 4, 6, 2}, {1, 3, 7, 5}, {4, 5, 7, 6}};
    for (const auto& f : faces) {
      level.triangles.push_back({first + f[0], first + f[1], first + f[2]});
      level.triangles.push_back({first + f[0], first + f[2], first + f[3]});
    }
  };
  add_box({0.0F, -0.5F, 0.0F}, {8.0F, 0.0F, 8.0F});
  add_box({10.0F, -0.5F, 0.0F}, {18.0F, 0.0F, 8.0F});
  return level;
}

}  // namespace

int main() {
  auto config = leapnav::named_config("default");
  if (!config) return 1;
  leapnav::BuildContext ctx;
  const leapnav::TriangleMesh level = two_slabs();
  auto built = leapnav::mesh::build_navmesh(level, *config, ctx);
  if (!built) {
    std::fprintf(stderr, "consumer: %s\n", built.error().message.c_str());
    return 1;
  }
  // the CLI's link pipeline: search, walkable filter, refinement, compaction
  leapnav::jump::SoundLinkOptions jumps;
  jumps.jumps.jumps = {leapnav::jump::kJumpC2};
  jumps.jumps.step = 4;
  auto links = leapnav::jump::build_sound_links(level, *built, config->agent, jumps, ctx);
  if (!links || links->set.quantum <= 0.0F) return 1;

  // save and load through memory, then keep only the loaded asset: the planner owns its data
  const leapnav::io::NavFile file{built->navmesh, std::move(links->set)};
  auto loaded = leapnav::io::decode_nav_file(leapnav::io::encode_nav_file(file), "memory");
  if (!loaded || !loaded->links) return 1;
  auto planner = leapnav::plan::Planner::create(loaded->navmesh, &*loaded->links);
  loaded = leapnav::Result<leapnav::io::NavFile>(leapnav::io::NavFile{});
  if (!planner) return 1;

  leapnav::plan::NavQuery query(*planner);
  leapnav::plan::QueryOptions walk;
  walk.jumps = false;
  auto walk_path = query.find_path({2.0F, 0.0F, 4.0F}, {6.0F, 0.0F, 6.0F}, walk);
  if (!walk_path || walk_path->status != leapnav::plan::PathStatus::Found) return 1;
  auto no_walk = query.find_path({2.0F, 0.0F, 4.0F}, {16.0F, 0.0F, 4.0F}, walk);
  if (!no_walk || no_walk->status != leapnav::plan::PathStatus::NoPath) return 1;
  auto jump_path = query.find_path({2.0F, 0.0F, 4.0F}, {16.0F, 0.0F, 4.0F});
  if (!jump_path || jump_path->status != leapnav::plan::PathStatus::Found ||
      jump_path->jump_count == 0)
    return 1;
  std::printf(
      "consumer: %zu polygons, %zu jump links, a walk of %.2f m, a path of %.2f m with %u "
      "jumps\n",
      planner->mesh().polygon_count(), planner->links()->links.size(), walk_path->length,
      jump_path->length, jump_path->jump_count);
  return 0;
}
