// Tile blocks: assembling every block gives the original mesh and links exactly; any subset
// gives what a straightforward reference makes of the original with the other tiles removed
// (prefix counts for the new ids, written without the blocks' offset tables).

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "leapnav/streaming/tile_blocks.hpp"
#include "streaming/stream_scenes.hpp"

using namespace leapnav;

namespace {

std::vector<const stream::TileBlock*> pointers(const stream::TileBlocks& blocks,
                                               const std::vector<char>& keep) {
  std::vector<const stream::TileBlock*> out;
  for (const stream::TileBlock& b : blocks.blocks) {
    if (keep[b.tile] != 0) out.push_back(&b);
  }
  return out;
}

// The original mesh with the polygons of tiles not in `keep` removed: kept vertices are those of
// kept tiles' slices and those kept polygons use, in their order; samples those of kept tiles.
struct Reference {
  mesh::NavMesh mesh;
  std::optional<jump::JumpLinkSet> links;
  std::optional<ledge::LedgeLinkSet> ledges;
};

Reference remove_tiles(const mesh::NavMesh& m, const jump::JumpLinkSet* links,
                       const ledge::LedgeLinkSet* ledges, const stream::WorldLayout& layout,
                       const std::vector<char>& keep) {
  const std::size_t tiles = keep.size();
  std::vector<char> keep_poly(m.polygon_count(), 0);
  std::vector<char> keep_vertex(m.vertices.size(), 0);
  std::vector<char> keep_sample(m.height_samples.size(), 0);
  for (std::size_t t = 0; t < tiles; ++t) {
    if (keep[t] == 0) continue;
    for (std::uint32_t p = m.tile_poly_first[t]; p < m.tile_poly_first[t + 1]; ++p) {
      keep_poly[p] = 1;
      for (const std::uint32_t v : m.polygon(mesh::PolyId{p})) keep_vertex[v] = 1;
    }
    for (std::uint32_t v = layout.tile_vertex_first[t]; v < layout.tile_vertex_first[t + 1]; ++v)
      keep_vertex[v] = 1;
    for (std::uint32_t s = layout.tile_sample_first[t]; s < layout.tile_sample_first[t + 1]; ++s)
      keep_sample[s] = 1;
  }
  const auto prefix = [](const std::vector<char>& kept) {
    std::vector<std::uint32_t> out(kept.size() + 1, 0);
    for (std::size_t i = 0; i < kept.size(); ++i) out[i + 1] = out[i] + (kept[i] != 0 ? 1U : 0U);
    return out;
  };
  const std::vector<std::uint32_t> new_poly = prefix(keep_poly);
  const std::vector<std::uint32_t> new_vertex = prefix(keep_vertex);
  const std::vector<std::uint32_t> new_sample = prefix(keep_sample);
  Reference ref;
  mesh::NavMesh& r = ref.mesh;
  r.config = m.config;
  r.grid = m.grid;
  for (std::size_t v = 0; v < m.vertices.size(); ++v) {
    if (keep_vertex[v] != 0) r.vertices.push_back(m.vertices[v]);
  }
  for (std::size_t s = 0; s < m.height_samples.size(); ++s) {
    if (keep_sample[s] != 0) r.height_samples.push_back(m.height_samples[s]);
  }
  r.poly_first.push_back(0);
  for (const mesh::PolyId p : m.polygon_ids()) {
    const std::uint32_t i = mesh::index(p);
    if (keep_poly[i] == 0) continue;
    for (const std::uint32_t v : m.polygon(p)) r.poly_vertices.push_back(new_vertex[v]);
    for (const std::uint32_t n : m.neighbors(p))
      r.poly_neighbors.push_back(n == mesh::kNoPoly || keep_poly[n] == 0 ? mesh::kNoPoly
                                                                         : new_poly[n]);
    r.poly_first.push_back(static_cast<std::uint32_t>(r.poly_vertices.size()));
    r.poly_region.push_back(m.poly_region[i]);
    r.poly_area.push_back(m.poly_area[i]);
    r.poly_flags.push_back(m.poly_flags[i]);
    r.poly_bounds.push_back(m.poly_bounds[i]);
    if (!m.height_patches.empty()) {
      mesh::HeightPatch h = m.height_patches[i];
      h.first = new_sample[h.first];
      r.height_patches.push_back(h);
    }
  }
  r.tile_poly_first.push_back(0);
  for (std::size_t t = 0; t < tiles; ++t)
    r.tile_poly_first.push_back(new_poly[m.tile_poly_first[t + 1]]);
  if (links != nullptr) {
    jump::JumpLinkSet set;
    set.configs = links->configs;
    set.quantum = links->quantum;
    for (jump::JumpLink l : links->links) {
      if (keep_poly[l.start_poly] == 0 || keep_poly[l.land_poly] == 0) continue;
      l.start_poly = new_poly[l.start_poly];
      l.land_poly = new_poly[l.land_poly];
      set.links.push_back(l);
    }
    jump::index_links(set, r.polygon_count());
    ref.links = std::move(set);
  }
  if (ledges != nullptr) {
    ledge::LedgeLinkSet set;
    for (ledge::LedgeLink l : ledges->links) {
      if (keep_poly[l.source_poly] == 0 || keep_poly[l.dest_poly] == 0) continue;
      l.source_poly = new_poly[l.source_poly];
      l.dest_poly = new_poly[l.dest_poly];
      set.links.push_back(l);
    }
    ledge::sort_links(set.links);
    ref.ledges = std::move(set);
  }
  return ref;
}

void check_round_trip(const test::TiledWorld& world) {
  auto blocks = stream::split_tiles(world.mesh, world.link_set(), world.ledge_set());
  REQUIRE(blocks.ok());
  REQUIRE(stream::validate(blocks->layout).ok());
  for (const stream::TileBlock& b : blocks->blocks) CHECK(stream::validate(b, blocks->layout).ok());
  const std::uint32_t tiles = blocks->layout.tile_count();
  REQUIRE(tiles + 1 == world.mesh.tile_poly_first.size());

  // every block: the original, bit for bit
  std::vector<char> all(tiles, 1);
  auto whole = stream::assemble_tiles(blocks->layout, pointers(*blocks, all));
  REQUIRE(whole.ok());
  CHECK(mesh::content_hash(whole->mesh) == mesh::content_hash(world.mesh));
  CHECK(whole->mesh.vertices == world.mesh.vertices);
  CHECK(whole->mesh.poly_vertices == world.mesh.poly_vertices);
  CHECK(whole->mesh.poly_neighbors == world.mesh.poly_neighbors);
  CHECK(whole->mesh.height_patches == world.mesh.height_patches);
  CHECK(whole->mesh.tile_poly_first == world.mesh.tile_poly_first);
  CHECK(whole->links.has_value() == world.links.has_value());
  if (world.links) {
    CHECK(whole->links->links == world.links->links);
    CHECK(jump::content_hash(*whole->links) == jump::content_hash(*world.links));
  }
  CHECK(whole->ledges.has_value() == world.ledges.has_value());
  if (world.ledges) {
    CHECK(whole->ledges->links == world.ledges->links);
    CHECK(ledge::content_hash(*whole->ledges) == ledge::content_hash(*world.ledges));
  }

  // random subsets against the reference
  std::mt19937 rng(2024);
  int foreign_kept = 0;
  std::size_t dropped_ledges = 0;
  for (int round = 0; round < 12; ++round) {
    std::vector<char> keep(tiles, 0);
    const double share = round == 0 ? 0.0 : (round % 4 + 1) / 5.0;
    std::bernoulli_distribution coin(share);
    for (char& k : keep) k = coin(rng) ? 1 : 0;
    auto part = stream::assemble_tiles(blocks->layout, pointers(*blocks, keep));
    REQUIRE(part.ok());
    const Reference ref =
        remove_tiles(world.mesh, world.link_set(), world.ledge_set(), blocks->layout, keep);
    CAPTURE(round);
    CHECK(mesh::validate(part->mesh).ok());
    CHECK(mesh::content_hash(part->mesh) == mesh::content_hash(ref.mesh));
    CHECK(part->mesh.vertices == ref.mesh.vertices);
    CHECK(part->mesh.poly_neighbors == ref.mesh.poly_neighbors);
    if (world.links) {
      REQUIRE(part->links.has_value());
      CHECK(part->links->links == ref.links->links);
      CHECK(jump::content_hash(*part->links) == jump::content_hash(*ref.links));
      CHECK(jump::validate(*part->links, part->mesh).ok());
    }
    if (world.ledges) {
      REQUIRE(part->ledges.has_value());
      CHECK(part->ledges->links == ref.ledges->links);
      CHECK(ledge::validate(*part->ledges, part->mesh).ok());
      dropped_ledges += world.ledges->links.size() - part->ledges->links.size();
    }
    // vertices of removed tiles that kept polygons still use
    std::size_t own = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
      if (keep[t] != 0) own += blocks->blocks[t].vertices.size();
    }
    if (part->mesh.vertices.size() > own) ++foreign_kept;
  }
  MESSAGE(tiles << " tiles, " << foreign_kept << " subsets keeping vertices of removed tiles");
  if (world.ledges) CHECK(dropped_ledges > 0);
}

// Ledge links whose destination lies in another tile than their source.
int crossing_ledges(const stream::TileBlocks& blocks) {
  int crossing = 0;
  for (const stream::TileBlock& b : blocks.blocks) {
    for (const ledge::LedgeLink& l : b.ledges)
      crossing += blocks.layout.tile_of_poly(l.dest_poly) != b.tile ? 1 : 0;
  }
  return crossing;
}

}  // namespace

TEST_SUITE("stream.blocks") {
  TEST_CASE("assembling every block gives the floor back exactly and a subset the reference") {
    check_round_trip(test::stream_floor());
  }
  TEST_CASE("assembling every block gives city:2 back exactly and a subset the reference") {
    check_round_trip(test::stream_city());
  }
  TEST_CASE(
      "the gap scene's jump links across a tile border round-trip; links into removed "
      "tiles are dropped") {
    const test::TiledWorld& gap = test::stream_gap();
    check_round_trip(gap);
    // links cross tile borders in this scene
    auto blocks = stream::split_tiles(gap.mesh, gap.link_set());
    REQUIRE(blocks.ok());
    int crossing = 0;
    for (const stream::TileBlock& b : blocks->blocks) {
      for (const jump::JumpLink& l : b.links)
        crossing += blocks->layout.tile_of_poly(l.land_poly) != b.tile ? 1 : 0;
    }
    CHECK(crossing > 0);
  }

  TEST_CASE("demo's vertices used only outside their tile's run round-trip as foreign copies") {
    const test::TiledWorld& demo = test::stream_demo();
    check_round_trip(demo);
    auto blocks = stream::split_tiles(demo.mesh, nullptr);
    REQUIRE(blocks.ok());
    // the first-user order of demo's vertices has inversions, so some tile holds a foreign
    // vertex from a later tile's run
    int later = 0;
    for (const stream::TileBlock& b : blocks->blocks) {
      for (const std::uint32_t v : b.foreign_vertex_ids)
        later += blocks->layout.tile_of_vertex(v) > b.tile ? 1 : 0;
    }
    CHECK(later > 0);
  }

  TEST_CASE("the tile size is inferred from the mesh, and an untiled mesh is refused") {
    auto n = stream::infer_tile_size(test::stream_city().mesh);
    REQUIRE(n.ok());
    CHECK(*n == 32);
    auto f = stream::infer_tile_size(test::stream_floor().mesh);
    REQUIRE(f.ok());
    CHECK(*f == 20);
    mesh::NavMesh untiled = test::stream_floor().mesh;
    untiled.tile_poly_first.clear();
    auto refused = stream::split_tiles(untiled, nullptr);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("no tiles") != std::string::npos);
    auto wrong = stream::split_tiles(test::stream_floor().mesh, nullptr, 7);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message.find("tile size 7") != std::string::npos);
  }

  TEST_CASE("assemble refuses a tile given twice and a tile outside the layout") {
    auto blocks = stream::split_tiles(test::stream_floor().mesh, nullptr);
    REQUIRE(blocks.ok());
    std::vector<const stream::TileBlock*> twice{&blocks->blocks[3], &blocks->blocks[3]};
    auto dup = stream::assemble_tiles(blocks->layout, twice);
    REQUIRE_FALSE(dup.ok());
    CHECK(dup.error().message.find("twice") != std::string::npos);
    stream::TileBlock far = blocks->blocks[0];
    far.tile = 99;
    std::vector<const stream::TileBlock*> outside{&far};
    CHECK_FALSE(stream::assemble_tiles(blocks->layout, outside).ok());
    CHECK_FALSE(stream::validate(far, blocks->layout).ok());
  }

  TEST_CASE(
      "ledge, drop and ladder links across a tile border round-trip exactly; those into removed "
      "tiles are dropped") {
    const test::TiledWorld& w = test::stream_ledges();
    check_round_trip(w);
    auto blocks = stream::split_tiles(w.mesh, nullptr, w.ledge_set());
    REQUIRE(blocks.ok());
    CHECK(crossing_ledges(*blocks) > 0);
    CHECK(blocks->layout.ledges);
    std::size_t held = 0;
    for (const stream::TileBlock& b : blocks->blocks) held += b.ledges.size();
    CHECK(held == w.ledges->links.size());
    // jump-up and drop links and the ladder's two links, and the world's reach table
    const auto bit = [](ledge::LedgeKind k) {
      return static_cast<std::uint8_t>(1U << static_cast<unsigned>(k));
    };
    const std::uint8_t kinds = blocks->layout.ledge_kind_bits;
    CHECK((kinds & bit(ledge::LedgeKind::Ladder)) != 0);
    CHECK((kinds & bit(ledge::LedgeKind::JumpUp)) != 0);
    CHECK((kinds & bit(ledge::LedgeKind::Drop)) != 0);
    CHECK(blocks->layout.reach_components > 0);
    // walking, the three platforms are three islands; with the links one
    std::vector<std::uint32_t> islands;
    std::vector<std::uint32_t> link_islands;
    for (const stream::TileBlock& b : blocks->blocks) {
      islands.insert(islands.end(), b.island.begin(), b.island.end());
      link_islands.insert(link_islands.end(), b.link_island.begin(), b.link_island.end());
    }
    std::sort(islands.begin(), islands.end());
    std::sort(link_islands.begin(), link_islands.end());
    CHECK(std::unique(islands.begin(), islands.end()) - islands.begin() == 3);
    CHECK(std::unique(link_islands.begin(), link_islands.end()) - link_islands.begin() == 1);
  }

  TEST_CASE("a block whose ledge links are unsorted, foreign or of an unlisted kind is invalid") {
    const test::TiledWorld& rise = test::stream_ledges();
    auto blocks = stream::split_tiles(rise.mesh, nullptr, rise.ledge_set());
    REQUIRE(blocks.ok());
    const stream::TileBlock* with = nullptr;
    for (const stream::TileBlock& b : blocks->blocks) {
      if (b.ledges.size() >= 2) with = &b;
    }
    REQUIRE(with != nullptr);
    stream::TileBlock swapped = *with;
    std::swap(swapped.ledges.front(), swapped.ledges.back());
    CHECK_FALSE(stream::validate(swapped, blocks->layout).ok());
    stream::TileBlock foreign = *with;
    foreign.ledges.front().source_poly = blocks->layout.tile_poly_first.back() - 1;
    if (blocks->layout.tile_of_poly(foreign.ledges.front().source_poly) != with->tile)
      CHECK_FALSE(stream::validate(foreign, blocks->layout).ok());
    stream::WorldLayout none = blocks->layout;
    none.ledge_kind_bits = 0;
    none.ledges = false;
    CHECK_FALSE(stream::validate(*with, none).ok());
  }

  TEST_CASE("crouch flags of a tiled posture build survive blocks and assembly") {
    const test::TiledWorld& arch = test::stream_archway();
    std::size_t crouch = 0;
    for (const std::uint16_t f : arch.mesh.poly_flags) crouch += (f & mesh::kPolyFlagCrouch) != 0;
    CHECK(crouch > 0);
    CHECK(arch.mesh.tile_poly_first.size() > 2);
    check_round_trip(arch);
  }
}
