// The link options of a tiled build with a tile cache (`build --tile-size N --cache F --jump ...`
// / `--ledge-links`), kept beside the cache in `F.links` (JSON) so `rebuild` regenerates links
// with the options they were built with. The tiles' jump links themselves are not stored: the
// old .lnav holds them exactly, and jump::tile_links_cache_from_set splits them by start tile.
// Authored ladders (`--links FILE`) are kept by content ("authored_links", the links file's own
// JSON form), so a rebuild re-attaches them without the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "leapnav/core/context.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/links_file.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/ledgelinks/ledge_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::cli {

struct TileLinkSidecar {
  jump::TiledLinkOptions links;  ///< jumps empty: no jump links
  bool ledge_links = false;
  std::optional<io::AuthoredLinks> authored;  ///< the ladders of `--links`, when given
  std::uint64_t navmesh_hash = 0;             ///< the stitched navmesh the links were built on
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

/// The ledge links (when `ledge_links`, with ledge::tiled_ledge_options: `navmesh` is a tiled
/// build's stitched mesh) and the authored ladders (when given) of `navmesh`, one sorted set;
/// nullopt when neither is asked for. A ladder error is prefixed with `source` (the links file, or
/// the sidecar that keeps its ladders).
[[nodiscard]] Result<std::optional<ledge::LedgeLinkSet>> ledges_and_ladders(
    const mesh::NavMesh& navmesh, const TriangleMesh& mesh, bool ledge_links,
    const std::optional<io::AuthoredLinks>& authored, const std::string& source, BuildContext& ctx);

}  // namespace leapnav::cli
