// leapnav's public C++ API in one include: build a navmesh from triangles (mesh::build_navmesh),
// add jump links every one of which passes the exact check (jump::build_sound_links), save and load
// .lnav files (io::save_nav_file, io::load_nav_file), tiled builds (mesh::build_tiled_navmesh,
// jump::build_tiled_jump_links), ledge links (ledge::build_ledge_links), and
// plan walk, jump and ledge paths (plan::Planner, plan::create_planner, plan::NavQuery), stream
// tiled worlds from tile packs (stream::split_tiles, stream::save_tile_pack,
// stream::PackTileSource, stream::TileWorld). Link
// leapnav::runtime after find_package(leapnav); it needs neither Boost nor oneTBB. Errors are
// values (Result<T>, core/result.hpp); no function throws on bad input.
#pragma once

#include "leapnav/core/config.hpp"
#include "leapnav/core/context.hpp"
#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/core/triangle_mesh.hpp"
#include "leapnav/io/area_table.hpp"
#include "leapnav/io/config_file.hpp"
#include "leapnav/io/navmesh_file.hpp"
#include "leapnav/io/obj.hpp"
#include "leapnav/jumplinks/jump_config.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/jumplinks/sound_links.hpp"
#include "leapnav/jumplinks/tile_links.hpp"
#include "leapnav/mesh/build.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/mesh/tiles.hpp"
#include "leapnav/planning/ledge_planner.hpp"
#include "leapnav/planning/path.hpp"
#include "leapnav/planning/query.hpp"
#include "leapnav/planning/raycast.hpp"
#include "leapnav/planning/sample.hpp"
#include "leapnav/planning/spatial.hpp"
#include "leapnav/streaming/tile_blocks.hpp"
#include "leapnav/streaming/tile_pack.hpp"
#include "leapnav/streaming/tile_world.hpp"
