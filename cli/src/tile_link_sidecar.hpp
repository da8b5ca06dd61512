// The link options of a tiled build with a tile cache (`build --tile-size N --cache F --jump ...`
// / `--ledge-links`), kept beside the cache in `F.links` (JSON) so `rebuild` regenerates links
// with the options they were built with. The tiles' jump links themselves are not stored: the
// old .lnav holds them exactly, and jump::tile_links_cache_from_set splits them by start tile.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/tile_links.hpp"

namespace leapnav::cli {

struct TileLinkSidecar {
  jump::TiledLinkOptions links;  ///< jumps empty: no jump links
  bool ledge_links = false;
  std::uint64_t navmesh_hash = 0;  ///< the stitched navmesh the links were built on
};

/// F + ".links".
[[nodiscard]] std::filesystem::path sidecar_path(const std::filesystem::path& cache);

/// Writes atomically; IoError naming the path when it cannot.
[[nodiscard]] Status save_sidecar(const TileLinkSidecar& sidecar,
                                  const std::filesystem::path& path);

/// Reads and checks it (every field present and of its type, options valid); CorruptFile /
/// InvalidArgument naming the path.
[[nodiscard]] Result<TileLinkSidecar> load_sidecar(const std::filesystem::path& path,
                                                   std::uint64_t max_bytes);

}  // namespace leapnav::cli
