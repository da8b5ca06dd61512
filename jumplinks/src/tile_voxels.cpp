// Per-tile voxel pieces and the neighbourhoods assembled from them (tile_voxels.hpp): a piece is
// the voxel stage of the tile widened by radius + 3 cells, cut down to the tile's own columns; an
// assembly copies each column of a rectangle from the piece of the tile that owns it.
#include "leapnav/jumplinks/tile_voxels.hpp"

#include <algorithm>
#include <string>

namespace leapnav::jump {

namespace {

// The extra cells beyond the agent radius that make a tile's own columns exact (as the tiled
// navmesh build's automatic border, mesh/src/tiles.cpp).
constexpr int kPieceBorderExtra = 3;

}  // namespace

std::uint64_t TileVoxelPiece::bytes() const {
  return (solid_first.size() + open_first.size() + obstacles.bits_at.size()) *
             sizeof(std::uint32_t) +
         solid.size() * sizeof(voxel::Span) + open.size() * sizeof(voxel::CompactSpan) +
         areas.size() + obstacles.rows_x.size() + obstacles.rows_z.size() +
         obstacles.approx.size() + obstacles.bits.size() * sizeof(std::uint64_t);
}

Status validate(const TileVoxelPiece& piece) {
  const auto fail = [](const std::string& what) {
    return make_error(ErrorCode::Internal, "tile voxel piece: " + what);
  };
  const std::size_t columns = static_cast<std::size_t>(std::max(0, piece.rect.width())) *
                              static_cast<std::size_t>(std::max(0, piece.rect.depth()));
  const auto csr = [&](const std::vector<std::uint32_t>& first, std::size_t spans,
                       const std::string& name) -> Status {
    if (first.size() != columns + 1) return fail(name + " has the wrong size");
    if (first.front() != 0 || first.back() != spans)
      return fail(name + " does not cover its spans");
    if (!std::is_sorted(first.begin(), first.end())) return fail(name + " is not monotone");
    return {};
  };
  LEAPNAV_TRY(csr(piece.solid_first, piece.solid.size(), "solid_first"));
  LEAPNAV_TRY(csr(piece.open_first, piece.open.size(), "open_first"));
  if (piece.areas.size() != piece.open.size()) return fail("areas differ in size from open");
  const ObstacleColumns& o = piece.obstacles;
  if (o.x0 != piece.rect.x0 || o.z0 != piece.rect.z0 || o.width != piece.rect.width() ||
      o.depth != piece.rect.depth())
    return fail("obstacle columns on another rectangle");
  if (o.rows_x.size() != columns * RunPlanes::kPlanes ||
      o.rows_z.size() != columns * RunPlanes::kPlanes || o.approx.size() != columns ||
      o.bits_at.size() != columns)
    return fail("obstacle column arrays have the wrong size");
  if (o.words <= 0) return fail("obstacle columns without words");
  const auto words = static_cast<std::size_t>(o.words);
  for (std::size_t c = 0; c < columns; ++c) {
    if ((o.approx[c] != 0) != (o.bits_at[c] != ObstacleColumns::kNoBits))
      return fail("obstacle column " + std::to_string(c) + ": approx flag and bits disagree");
    if (o.approx[c] != 0 && std::size_t{o.bits_at[c]} + words > o.bits.size())
      return fail("obstacle column " + std::to_string(c) + ": bits out of range");
  }
  return {};
}

int tile_piece_border(const BuildConfig& config) {
  return derive_voxel_params(config).walkable_radius + kPieceBorderExtra;
}

mesh::TileLayout tile_piece_layout(const mesh::TileLayout& layout, const BuildConfig& config) {
  mesh::TileLayout out = layout;
  out.border = tile_piece_border(config);
  return out;
}

Result<TileVoxelPiece> build_tile_voxel_piece(const TriangleMesh& mesh,
                                              std::span<const std::uint32_t> triangles,
                                              const mesh::TileLayout& layout, std::size_t tile,
                                              const BuildConfig& config, BuildContext& ctx) {
  if (tile >= layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "tile voxels: tile " + std::to_string(tile) + " out of range (" +
                          std::to_string(layout.tile_count()) + " tiles)");
  TileVoxelPiece piece;
  piece.rect = layout.interior(tile);
  const auto columns =
      static_cast<std::size_t>(piece.rect.width()) * static_cast<std::size_t>(piece.rect.depth());
  piece.solid_first.assign(columns + 1, 0);
  piece.open_first.assign(columns + 1, 0);
  if (triangles.empty()) {
    // no geometry: no spans and no obstacles in any column
    piece.obstacles = obstacle_columns(nullptr, piece.rect.x0, piece.rect.z0, 0, 0,
                                       piece.rect.width(), piece.rect.depth());
    return piece;
  }
  const mesh::TileLayout padded = tile_piece_layout(layout, config);
  const mesh::TileRect window = padded.bordered(tile);
  const TriangleMesh part =
      mesh::triangle_subset(mesh, triangles, mesh.name + " " + mesh::tile_name(layout, tile));
  BuildContext piece_ctx;
  init_task_context(piece_ctx, ctx);
  LEAPNAV_TRY_ASSIGN(const voxel::VoxelOutput voxels,
                     voxel::voxelize_window(part,
                                            voxel::GridWindow{layout.grid, window.x0, window.z0,
                                                              window.width(), window.depth()},
                                            config, piece_ctx, voxel::DistanceField::skip));
  LEAPNAV_TRY_ASSIGN(
      const ObstacleBits field,
      build_obstacle_bits(voxels.solid, config.agent, piece_ctx, BitsKept::ApproxOnly));
  piece.obstacles = obstacle_columns(&field, window.x0, window.z0, piece.rect.x0 - window.x0,
                                     piece.rect.z0 - window.z0, piece.rect.x1 - window.x0,
                                     piece.rect.z1 - window.z0);
  for (const auto& [stage, ms] : piece_ctx.timings()) ctx.add_time(stage, ms);
  const voxel::Heightfield& solid = voxels.solid;
  const voxel::CompactHeightfield& open = voxels.compact;
  std::size_t c = 0;
  for (int z = piece.rect.z0; z < piece.rect.z1; ++z) {
    for (int x = piece.rect.x0; x < piece.rect.x1; ++x, ++c) {
      const std::size_t column = solid.grid.column_index(x - window.x0, z - window.z0);
      piece.solid.insert(piece.solid.end(), solid.spans.begin() + solid.first(column),
                         solid.spans.begin() + solid.end(column));
      piece.open.insert(piece.open.end(), open.spans.begin() + open.first(column),
                        open.spans.begin() + open.end(column));
      piece.areas.insert(piece.areas.end(), open.areas.begin() + open.first(column),
                         open.areas.begin() + open.end(column));
      piece.solid_first[c + 1] = static_cast<std::uint32_t>(piece.solid.size());
      piece.open_first[c + 1] = static_cast<std::uint32_t>(piece.open.size());
    }
  }
  return piece;
}

Result<voxel::VoxelOutput> assemble_tile_voxels(const mesh::TileLayout& layout,
                                                const mesh::TileRect& rect,
                                                std::span<const TileVoxelPiece* const> pieces,
                                                const BuildConfig& config) {
  voxel::VoxelOutput out;
  LEAPNAV_TRY(assemble_tile_voxels_into(layout, rect, pieces, config, out));
  return out;
}

Status assemble_tile_voxels_into(const mesh::TileLayout& layout, const mesh::TileRect& rect,
                                 std::span<const TileVoxelPiece* const> pieces,
                                 const BuildConfig& config, voxel::VoxelOutput& out) {
  if (pieces.size() != layout.tile_count())
    return make_error(ErrorCode::InvalidArgument,
                      "tile voxels: " + std::to_string(pieces.size()) + " pieces for " +
                          std::to_string(layout.tile_count()) + " tiles");
  if (rect.x0 < 0 || rect.z0 < 0 || rect.x1 > layout.grid.width || rect.z1 > layout.grid.depth ||
      rect.width() <= 0 || rect.depth() <= 0)
    return make_error(ErrorCode::InvalidArgument,
                      "tile voxels: the rectangle is empty or leaves the world grid");
  const VoxelParams params = derive_voxel_params(config);
  out.stats = {};
  out.compact.distance.clear();
  out.compact.max_distance = 0;
  const GridSpec grid = layout.rect_grid(rect);
  voxel::Heightfield& solid = out.solid;
  voxel::CompactHeightfield& open = out.compact;
  solid.grid = grid;
  open.grid = grid;
  open.walkable_height = params.walkable_height;
  open.walkable_climb = params.walkable_climb;
  const auto columns = static_cast<std::size_t>(grid.column_count());
  solid.column_first.assign(columns + 1, 0);
  open.column_first.assign(columns + 1, 0);
  const int ts = layout.tile_size;
  const auto tiles_x = static_cast<std::size_t>(layout.tiles_x);
  // two passes: sizes, then copies
  for (int pass = 0; pass < 2; ++pass) {
    std::size_t c = 0;
    for (int z = rect.z0; z < rect.z1; ++z) {
      const auto tz = static_cast<std::size_t>(z / ts);
      int x = rect.x0;
      while (x < rect.x1) {
        const auto tx = static_cast<std::size_t>(x / ts);
        const TileVoxelPiece* piece = pieces[tx + tz * tiles_x];
        if (piece == nullptr)
          return make_error(
              ErrorCode::InvalidArgument,
              "tile voxels: no piece for " + mesh::tile_name(layout, tx + tz * tiles_x));
        const int x_end = std::min(rect.x1, piece->rect.x1);
        const auto row = static_cast<std::size_t>(z - piece->rect.z0) *
                         static_cast<std::size_t>(piece->rect.width());
        const std::size_t a = row + static_cast<std::size_t>(x - piece->rect.x0);
        const std::size_t b = row + static_cast<std::size_t>(x_end - piece->rect.x0);
        if (pass == 0) {
          for (std::size_t k = a; k < b; ++k, ++c) {
            solid.column_first[c + 1] = piece->solid_first[k + 1] - piece->solid_first[k];
            open.column_first[c + 1] = piece->open_first[k + 1] - piece->open_first[k];
          }
        } else {
          std::copy(piece->solid.begin() + piece->solid_first[a],
                    piece->solid.begin() + piece->solid_first[b],
                    solid.spans.begin() + solid.column_first[c]);
          std::copy(piece->open.begin() + piece->open_first[a],
                    piece->open.begin() + piece->open_first[b],
                    open.spans.begin() + open.column_first[c]);
          std::copy(piece->areas.begin() + piece->open_first[a],
                    piece->areas.begin() + piece->open_first[b],
                    open.areas.begin() + open.column_first[c]);
          c += b - a;
        }
        x = x_end;
      }
    }
    if (pass == 0) {
      for (std::size_t k = 0; k < columns; ++k) {
        solid.column_first[k + 1] += solid.column_first[k];
        open.column_first[k + 1] += open.column_first[k];
      }
      solid.spans.resize(solid.column_first[columns]);
      open.spans.resize(open.column_first[columns]);
      open.areas.resize(open.column_first[columns]);
    }
  }
  // connections leaving the rectangle are cut, as a window voxelized on its own has them
  const auto cut = [&](int x, int z, int dir) {
    const std::size_t column = grid.column_index(x, z);
    for (std::uint32_t s = open.first(column); s < open.end(column); ++s)
      open.spans[s].neighbor[static_cast<std::size_t>(dir)] = voxel::kNotConnected;
  };
  for (int z = 0; z < grid.depth; ++z) {
    cut(0, z, 0);
    cut(grid.width - 1, z, 2);
  }
  for (int x = 0; x < grid.width; ++x) {
    cut(x, 0, 3);
    cut(x, grid.depth - 1, 1);
  }
  out.stats.spans = solid.spans.size();
  out.stats.compact_spans = open.spans.size();
  for (const std::uint8_t area : open.areas) out.stats.walkable_spans += area != voxel::kNullArea;
  return {};
}

}  // namespace leapnav::jump
