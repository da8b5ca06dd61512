// Watershed regions built and validated for the mesh tests (regions and contours share it).
#pragma once

#include <doctest/doctest.h>

#include <utility>

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/mesh/regions.hpp"
#include "leapnav/voxel/heightfield.hpp"

namespace leapnav::test {

/// Regions of a (validated) compact heightfield on `threads` threads; the RegionField is checked
/// with mesh::validate before it is returned.
inline mesh::RegionField regions_of(const voxel::CompactHeightfield& chf, const VoxelParams& params,
                                    int threads = 1) {
  const auto chf_status = voxel::validate(chf);
  REQUIRE_MESSAGE(chf_status.ok(), (chf_status.ok() ? "" : chf_status.error().message));
  BuildContext ctx;
  ctx.set_threads(threads);
  auto result = mesh::build_regions(chf, params, ctx);
  REQUIRE(result.ok());
  const auto status = mesh::validate(*result, chf);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
  return std::move(result).value();
}

}  // namespace leapnav::test
