// Navmesh exports for other tools: JSON (vertices, polygons with neighbours and regions, config,
// grid) and OBJ (one face per polygon). Text only; numbers are written in shortest round-trip
// form, so the exported values are the navmesh's float values exactly.
#pragma once

#include <string>

#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::io {

/// The navmesh as a JSON document:
///   {"vertices": [[x, y, z], ...],                       metres
///    "polygons": [{"vertices": [i, ...],                 indices into "vertices", CCW in xz
///                  "neighbors": [p or -1, ...],          across edge k (vertex k to k + 1);
///                                                        -1 on the boundary
///                  "region": r, "area": a, "flags": f}, ...],
///    "config": {...},                                    as config_to_json
///    "grid": {"origin": [x, y, z], "cell_size", "cell_height", "width", "depth", "height"}}
[[nodiscard]] std::string export_navmesh_json(const mesh::NavMesh& navmesh);

/// The navmesh as OBJ text: its vertices and one `f` per polygon, grouped per region
/// (`g region_R`). Faces are written in reverse polygon order so that they face up in OBJ
/// viewers (the polygons are CCW in xz, which points their normal down).
[[nodiscard]] std::string export_navmesh_obj(const mesh::NavMesh& navmesh);

}  // namespace leapnav::io
