// Compact height detail: a flat polygon's height patch (every finite sample the same float) is
// replaced by one sample. height_at reads the sample of the column clamped into the patch, or the
// nearest finite one, so for such a patch it returns that value everywhere, before and after: the
// compaction is lossless for every query, and most floors of built levels are flat.
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "leapnav/mesh/heights.hpp"

namespace leapnav::mesh {

std::size_t compact_flat_patches(NavMesh& mesh) {
  if (mesh.height_patches.empty()) return 0;
  std::size_t flattened = 0;
  std::vector<float> samples;
  samples.reserve(mesh.height_samples.size());
  for (HeightPatch& patch : mesh.height_patches) {
    const float* first = mesh.height_samples.data() + patch.first;
    const std::size_t n = std::size_t{patch.width} * patch.depth;
    bool found = false;
    bool flat = true;
    float value = 0.0F;
    for (std::size_t k = 0; k < n && flat; ++k) {
      if (std::isnan(first[k])) continue;
      if (!found) {
        value = first[k];
        found = true;
      } else {
        // note: bitwise, so -0 and 0 stay apart and the value is exactly the old sample
        flat = std::bit_cast<std::uint32_t>(value) == std::bit_cast<std::uint32_t>(first[k]);
      }
    }
    const auto start = static_cast<std::uint32_t>(samples.size());
    if (found && flat && n > 1) {
      samples.push_back(value);
      patch.width = 1;
      patch.depth = 1;
      ++flattened;
    } else {
      samples.insert(samples.end(), first, first + n);
    }
    patch.first = start;
  }
  // note: the reserve above is the uncompacted size; a tiled build keeps every finished tile
  // until stitching, so without this each tile held its full patch capacity (57 % of the heap at
  // the peak of a city:10 build)
  samples.shrink_to_fit();
  mesh.height_samples = std::move(samples);
  return flattened;
}

}  // namespace leapnav::mesh
