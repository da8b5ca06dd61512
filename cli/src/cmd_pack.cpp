// `leapnav pack`: a tiled .lnav (with its jump, ledge and ladder links) as a tile pack for
// streaming (streaming/tile_pack.hpp): one block per tile, a table to read each without the others.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "common.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/streaming/tile_blocks.hpp"
#include "leapnav/streaming/tile_pack.hpp"

namespace leapnav::cli {

void register_pack_command(CLI::App& root, Registry& registry) {
  struct PackOptions {
    std::string file;
    std::string output;
    int tile_size = 0;
    double max_memory_mib = 0.0;
  };
  auto opts = std::make_shared<PackOptions>();
  CLI::App* app = root.add_subcommand(
      "pack",
      "Write a tiled navmesh (.lnav from build --tile-size, with its jump, ledge and ladder "
      "links) as a tile "
      "pack (.lnavpack) whose tiles load and unload one by one");
  app->add_option("file", opts->file, "Tiled navmesh file (.lnav)")->required();
  app->add_option("-o,--output", opts->output, "Tile pack to write (.lnavpack)")->required();
  app->add_option("--tile-size", opts->tile_size,
                  "The build's tile size [units: cells]; 0 = inferred from the navmesh")
      ->check(CLI::Range(0, 1 << 20))
      ->capture_default_str();
  add_max_memory_option(*app, opts->max_memory_mib);
  registry.push_back(
      {app, [opts]() -> int {
         auto nav = io::load_nav_file(opts->file, input_limit_bytes(opts->max_memory_mib));
         if (!nav) return report(nav.error());
         if (nav->navmesh.tile_poly_first.empty()) {
           return report(make_error(ErrorCode::InvalidArgument,
                                    opts->file +
                                        ": not a tiled navmesh (build it with --tile-size N "
                                        "to pack it)"));
         }
         const jump::JumpLinkSet* links = nav->links ? &*nav->links : nullptr;
         const ledge::LedgeLinkSet* ledges = nav->ledges ? &*nav->ledges : nullptr;
         auto blocks = stream::split_tiles(nav->navmesh, links, ledges, opts->tile_size);
         if (!blocks) {
           Error e = blocks.error();
           e.message = opts->file + ": " + e.message;
           return report(e);
         }
         if (Status s = stream::save_tile_pack(*blocks, opts->output); !s) return report(s.error());
         const stream::WorldLayout& layout = blocks->layout;
         std::error_code ec;
         const auto in_bytes = std::filesystem::file_size(opts->file, ec);
         const auto out_bytes = std::filesystem::file_size(opts->output, ec);
         std::cout << opts->output << ": " << layout.tile_count() << " tiles (" << layout.tiles_x
                   << " x " << layout.tiles_z << " of " << layout.tile_size << " cells), "
                   << nav->navmesh.polygon_count() << " polygons, "
                   << (links != nullptr ? links->links.size() : 0) << " jump links, "
                   << (ledges != nullptr ? ledges->links.size() : 0) << " ledge and ladder links, "
                   << out_bytes << " bytes (" << opts->file << ": " << in_bytes << " bytes)\n";
         return kExitOk;
       }});
}

}  // namespace leapnav::cli
