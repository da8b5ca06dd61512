// Navmesh exports for other tools: JSON (vertices, polygons with neighbours and regions, config,
// grid, and optionally jump links) and OBJ (one face per polygon; jump links as line elements).
// Text only; numbers are written in shortest round-trip form, so the exported values are the
// navmesh's and links' float values exactly.
#pragma once

#include <string>

#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::io {

/// The navmesh as a JSON document:
///   {"vertices": [[x, y, z], ...],                       metres
///    "polygons": [{"vertices": [i, ...],                 indices into "vertices", CCW in xz
///                  "neighbors": [p or -1, ...],          across edge k (vertex k to k + 1);
///                                                        -1 on the boundary
///                  "region": r, "area": a, "flags": f}, ...],
///    "config": {...},                                    as config_to_json
///    "grid": {"origin": [x, y, z], "cell_size", "cell_height", "width", "depth", "height"},
///    "links": [{"start": [x, y, z],                      only when `links` is given; metres
///               "land": [[x, y, z], [x, y, z]],          land segment ends (equal for a point)
///               "h": h, "d": d, "max_fall": f,           the link's jump configuration, metres
///               "start_polygon": p, "land_polygon": q}, ...]}
/// A link's index in "links" is its id: it is its index in links.links, the order of the
/// JumpLinkSet (by start polygon, land polygon, configuration), by which the path planner and
/// the .lnav file refer to links. `links` must pass jump::validate against navmesh.
[[nodiscard]] std::string export_navmesh_json(const mesh::NavMesh& navmesh,
                                              const jump::JumpLinkSet* links = nullptr);

/// The navmesh as OBJ text: its vertices and one `f` per polygon, grouped per region
/// (`g region_R`). Faces are written in reverse polygon order so that they face up in OBJ
/// viewers (the polygons are CCW in xz, which points their normal down). With `links`, a final
/// group `g jump_links` adds the link points as vertices after the navmesh's and, per link in id
/// order, three `l` elements: start -> land_a, start -> land_b, land_a -> land_b (a degenerate
/// segment gives two equal vertices). Each link's lines are preceded by `# link K`.
[[nodiscard]] std::string export_navmesh_obj(const mesh::NavMesh& navmesh,
                                             const jump::JumpLinkSet* links = nullptr);

}  // namespace leapnav::io
