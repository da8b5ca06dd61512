// The compact height-detail payload of a .lnav file (chunk "HGTC", layout in navmesh_file.hpp):
// height samples as integer height levels, each predicted from its decoded neighbours in the
// patch (LOCO-I's median edge detector on levels) and stored as a 2-bit code (residual 0, +1, -1,
// or escape) plus an escape stream of varints for larger residuals, NaN and samples that are not
// on the level lattice (kept as raw f32). Lossless: every decoded sample has the saved float's
// bits (any NaN decodes as the quiet NaN, which height_at and content_hash treat alike).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "leapnav/mesh/navmesh.hpp"

namespace leapnav::io::detail {

/// The "HGTC" payload of the mesh's height detail, or nullopt when the patches do not lay their
/// samples out as consecutive blocks (every sample must belong to exactly one patch whose `first`
/// is the end of the previous such block; other patches may share any block): then the writer
/// keeps the raw "HGHT" chunk. Levels are counted from grid.origin.y in grid.cell_height steps.
[[nodiscard]] std::optional<std::vector<std::byte>> encode_compact_heights(const mesh::NavMesh& m);

/// Decodes an "HGTC" payload into patches and samples. On malformed data returns false and sets
/// `message` (without the chunk name). Allocates at most 4 samples per code byte and one patch per
/// patch byte of the payload.
[[nodiscard]] bool decode_compact_heights(std::span<const std::byte> payload,
                                          std::vector<mesh::HeightPatch>& patches,
                                          std::vector<float>& samples, std::string& message);

}  // namespace leapnav::io::detail
