#include "support/shared_level.hpp"

#include <doctest/doctest.h>

#include "leapnav/core/context.hpp"
#include "leapnav/io/obj.hpp"
#include "support/shared_data.hpp"

namespace leapnav::test {

std::optional<SharedLevel> build_shared_level(std::string_view file, std::string_view config) {
  const auto path = shared_mesh(file);
  if (!path) return std::nullopt;
  auto triangles = io::load_obj(path->string());
  REQUIRE(triangles.ok());
  auto named = named_config(config);
  REQUIRE(named.ok());
  BuildContext ctx;
  auto built = mesh::build_navmesh(*triangles, *named, ctx);
  REQUIRE(built.ok());
  return SharedLevel{std::move(triangles).value(), *named, std::move(built).value()};
}

std::optional<mesh::NavMesh> build_shared_navmesh(std::string_view file, std::string_view config) {
  auto level = build_shared_level(file, config);
  if (!level) return std::nullopt;
  return std::move(level->built.navmesh);
}

}  // namespace leapnav::test
