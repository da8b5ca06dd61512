// Planner ownership: a Planner and its NavQuery objects share the immutable mesh and link set, so
// an engine asset holding {NavFile, optional<Planner>} can be moved (push_back into a vector),
// copied or destroyed while queries still run. Run under ASan, a dangling pointer here fails.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/planning/query.hpp"
#include "planning/scenes.hpp"

using namespace leapnav;

namespace {

/// Two 4 x 4 m platforms at y = 0 with a 2 m gap in x, and one C2 link group across the gap
/// (polygon 0 -> polygon 1), so that a path from one to the other needs the jump.
io::NavFile gap_file() {
  io::NavFile file;
  file.navmesh = test::make_navmesh(
      {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {6, 0, 0}, {10, 0, 0}, {10, 0, 4}, {6, 0, 4}},
      {{0, 1, 2, 3}, {4, 5, 6, 7}});
  file.navmesh.grid = {{0.0F, 0.0F, 0.0F}, 0.25F, 0.1F, 40, 16, 10};
  jump::JumpLinkSet links;
  links.configs = {jump::kJumpC2};
  links.links.push_back({{3.75F, 0.0F, 2.0F}, {6.25F, 0.0F, 1.0F}, {6.25F, 0.0F, 3.0F}, 0, 0, 1});
  jump::index_links(links, file.navmesh.polygon_count());
  file.links = std::move(links);
  return file;
}

/// The asset an engine keeps per level.
struct LevelAsset {
  io::NavFile file;
  std::optional<plan::Planner> planner;
};

LevelAsset load_asset() {
  LevelAsset asset;
  // note: through the file format, as an engine loads it
  auto decoded = io::decode_nav_file(io::encode_nav_file(gap_file()), "gap");
  if (!decoded.ok()) FAIL(decoded.error().message);
  asset.file = std::move(*decoded);
  auto planner =
      plan::Planner::create(asset.file.navmesh, asset.file.links ? &*asset.file.links : nullptr);
  REQUIRE(planner.ok());
  asset.planner = std::move(*planner);
  return asset;
}

void check_jump_path(plan::NavQuery& query) {
  auto path = query.find_path({1.0F, 0.0F, 2.0F}, {9.0F, 0.0F, 2.0F});
  REQUIRE(path.ok());
  CHECK(path->status == plan::PathStatus::Found);
  CHECK(path->jump_count == 1);
}

}  // namespace

TEST_SUITE("plan.ownership") {
  TEST_CASE("assets holding a file and its planner survive being moved into a vector") {
    std::vector<LevelAsset> assets;
    for (int i = 0; i < 9; ++i) assets.push_back(load_asset());  // reallocates several times
    for (LevelAsset& asset : assets) {
      plan::NavQuery query(*asset.planner);
      check_jump_path(query);
      CHECK(asset.planner->links() != nullptr);
    }
  }

  TEST_CASE("a query keeps the mesh alive after the planner and the asset are destroyed") {
    std::optional<plan::NavQuery> query;
    {
      LevelAsset asset = load_asset();
      query.emplace(*asset.planner);
    }
    check_jump_path(*query);
  }

  TEST_CASE("a copied planner shares its data with the original") {
    LevelAsset asset = load_asset();
    const plan::Planner copy =
        *asset.planner;  // NOLINT(performance-unnecessary-copy-initialization)
    CHECK(&copy.mesh() == &asset.planner->mesh());
    CHECK(copy.shared_mesh().use_count() >= 2);
    asset.planner.reset();
    plan::NavQuery query(copy);
    check_jump_path(query);
  }

  TEST_CASE("a planner created from shared data does not copy it") {
    auto mesh = std::make_shared<const mesh::NavMesh>(gap_file().navmesh);
    auto planner = plan::Planner::create(mesh);
    REQUIRE(planner.ok());
    CHECK(&planner->mesh() == mesh.get());
    CHECK(planner->links() == nullptr);
  }

  TEST_CASE("a null shared mesh is an InvalidArgument error") {
    auto planner = plan::Planner::create(std::shared_ptr<const mesh::NavMesh>{});
    REQUIRE_FALSE(planner.ok());
    CHECK(planner.error().code == ErrorCode::InvalidArgument);
  }
}
