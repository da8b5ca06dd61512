// A built-in scene (io::builtin_scene) built in tiles into one stitched navmesh, and the 1 m gap
// scene in tiles with its jump links, for tests that need a tiled world; each fails the current
// test when the scene or the build fails.
#pragma once

#include <optional>
#include <string>

#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::test {

/// `scene` built with the named configuration in `tile_size`-cell tiles.
mesh::NavMesh tiled_builtin_navmesh(const std::string& scene, int tile_size,
                                    const std::string& config = "default");

/// A tiled navmesh and, when built with them, its jump links and its ledge and ladder links.
struct TiledWorld {
  mesh::NavMesh mesh;
  std::optional<jump::JumpLinkSet> links;
  std::optional<ledge::LedgeLinkSet> ledges{};
  [[nodiscard]] const jump::JumpLinkSet* link_set() const { return links ? &*links : nullptr; }
  [[nodiscard]] const ledge::LedgeLinkSet* ledge_set() const { return ledges ? &*ledges : nullptr; }
};

/// io::gap_scene(1 m) built with "thesis" in 16-cell tiles, with uncompacted C1 jump links
/// (step 1) from jump::build_tiled_jump_links; the gap lies on a tile border, so links cross
/// tiles (checked: the set is not empty).
TiledWorld tiled_gap_world();

}  // namespace leapnav::test
