// The jump-link generator (thesis §5.1-5.5, storage §7.1): obstacle field, sample points on the
// south-west top corners of walkable spans every `step` columns, land voxels per sample and
// configuration, chains of consecutive neighbouring land voxels in one polygon, Zhao-Saalfeld
// per chain, one link per simplified segment. Samples, grouped by start polygon, run in parallel
// in fixed chunks whose outputs are joined in chunk order; each start polygon's links are then
// ordered by land polygon and configuration (ties in sample order), so any thread count gives
// the same link set.
#include "leapnav/jumplinks/jump_links.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <tuple>

#include "leapnav/core/hash.hpp"
#include "leapnav/core/memory.hpp"
#include "leapnav/core/parallel.hpp"
#include "leapnav/jumplinks/land_search.hpp"
#include "leapnav/jumplinks/obstacle_field.hpp"
#include "leapnav/jumplinks/zhao_saalfeld.hpp"

namespace leapnav::jump {

namespace {

// A sample point: column, floor height and start polygon, as the land search takes it.
using Sample = LandSearch::Start;

// Whether two open spans are neighbours: connected along an axis, or in diagonal columns and
// sharing a connected neighbour span (thesis §5.5).
bool spans_adjacent(const voxel::CompactHeightfield& open, const LandVoxel& a, const LandVoxel& b) {
  const int dx = b.x - a.x;
  const int dz = b.z - a.z;
  if (std::abs(dx) > 1 || std::abs(dz) > 1 || (dx == 0 && dz == 0)) return false;
  const GridSpec& grid = open.grid;
  const auto step = [&](int x, int z, std::uint32_t s, int dir, std::uint32_t& n) {
    if (open.spans[s].neighbor[static_cast<std::size_t>(dir)] == voxel::kNotConnected) return false;
    if (!grid.in_bounds(x + voxel::dir_dx(dir), z + voxel::dir_dz(dir))) return false;
    n = open.neighbor_index(x, z, s, dir);
    return true;
  };
  const auto dir_of = [](int ddx, int ddz) {
    if (ddx == -1) return 0;
    if (ddz == 1) return 1;
    if (ddx == 1) return 2;
    return 3;
  };
  std::uint32_t n = 0;
  if (dx == 0 || dz == 0) return step(a.x, a.z, a.span, dir_of(dx, dz), n) && n == b.span;
  const int dir_x = dir_of(dx, 0);
  const int dir_z = dir_of(0, dz);
  std::uint32_t m = 0;
  if (step(a.x, a.z, a.span, dir_x, n) && step(a.x + dx, a.z, n, dir_z, m) && m == b.span)
    return true;
  if (step(a.x, a.z, a.span, dir_z, n) && step(a.x, a.z + dz, n, dir_x, m) && m == b.span)
    return true;
  return false;
}

// The top-face centre of open span `span` in column (x, z): a land point of a link.
Vec3 voxel_centre(const voxel::CompactHeightfield& open, int x, int z, std::uint32_t span) {
  const GridSpec& grid = open.grid;
  return {grid.origin.x + (static_cast<float>(x) + 0.5F) * grid.cell_size,
          grid.origin.y + static_cast<float>(open.spans[span].y) * grid.cell_height,
          grid.origin.z + (static_cast<float>(z) + 0.5F) * grid.cell_size};
}

auto link_key(const JumpLink& l) {
  return std::make_tuple(l.start_poly, l.land_poly, l.config);
}

// A link as the search's chunks hold it until the link set is gathered: its sample (index into
// the grouped samples), land polygon, and land segment ends as (column, open span); half the
// bytes of a JumpLink, expanded into one when the link set is written.
struct LinkRecord {
  std::uint32_t sample = 0;
  std::uint32_t land_poly = 0;
  std::uint32_t column_a = 0;
  std::uint32_t span_a = 0;
  std::uint32_t column_b = 0;
  std::uint32_t span_b = 0;
};

struct ChunkOut {
  std::vector<LinkRecord> links;
  std::uint64_t cells = 0;
  std::uint64_t land_voxels = 0;
  std::uint64_t chains = 0;
};

// Chains of consecutive land voxels (counter-clockwise order) that are neighbours in one polygon,
// the last chain joined to the first when they meet across the +x axis; each simplified.
void emit_links(const voxel::CompactHeightfield& open, std::span<const LandVoxel> voxels,
                std::uint32_t sample, float epsilon, ChunkOut& out, std::vector<LandVoxel>& chain,
                std::vector<Vec2>& flat) {
  const std::size_t n = voxels.size();
  if (n == 0) return;
  const GridSpec& grid = open.grid;
  const auto record = [&](const LandVoxel& a, const LandVoxel& b) {
    out.links.push_back(
        LinkRecord{sample, a.poly, static_cast<std::uint32_t>(grid.column_index(a.x, a.z)), a.span,
                   static_cast<std::uint32_t>(grid.column_index(b.x, b.z)), b.span});
  };
  // start after the first break so that no chain wraps; a closed ring is cut before voxel 0
  std::size_t first = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const LandVoxel& a = voxels[k];
    const LandVoxel& b = voxels[(k + 1) % n];
    if (n == 1 || a.poly != b.poly || !spans_adjacent(open, a, b)) {
      first = (k + 1) % n;
      break;
    }
  }
  std::size_t k = 0;
  while (k < n) {
    chain.clear();
    chain.push_back(voxels[(first + k) % n]);
    std::size_t len = 1;
    while (k + len < n) {
      const LandVoxel& a = voxels[(first + k + len - 1) % n];
      const LandVoxel& b = voxels[(first + k + len) % n];
      if (a.poly != b.poly || !spans_adjacent(open, a, b)) break;
      chain.push_back(b);
      ++len;
    }
    ++out.chains;
    if (chain.size() == 1) {
      record(chain[0], chain[0]);
    } else {
      flat.clear();
      for (const LandVoxel& v : chain) flat.push_back(xz(voxel_centre(open, v.x, v.z, v.span)));
      const std::vector<std::uint32_t> kept = zhao_saalfeld(flat, epsilon);
      for (std::size_t s = 0; s + 1 < kept.size(); ++s) record(chain[kept[s]], chain[kept[s + 1]]);
    }
    k += len;
  }
}

}  // namespace

std::uint64_t JumpLinkSet::memory_bytes() const {
  return configs.size() * sizeof(JumpConfig) + links.size() * sizeof(JumpLink) +
         (poly_first.size() + group_land_poly.size() + group_first.size()) * sizeof(std::uint32_t);
}

namespace {

// The links (pointers, in gathered order) in the stable (start, land, config) order: an index
// list into `links`, from two counting passes (stably by land polygon and configuration, then
// stably by start polygon). Empty when the ids' ranges would make the count tables larger than
// a few times the input (the callers then sort).
std::vector<std::uint32_t> counting_order(const std::vector<const JumpLink*>& links,
                                          std::size_t polygon_count) {
  const std::size_t n = links.size();
  if (n < 64 || n > std::numeric_limits<std::uint32_t>::max()) return {};
  // note: one pass over the links (their memory is the slow part) for the keys and their ranges
  std::vector<std::uint32_t> land_key(n);
  std::vector<std::uint32_t> start_key(n);
  std::uint32_t max_start = 0;
  std::uint32_t max_land = 0;
  std::uint32_t max_config = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const JumpLink& link = *links[k];
    start_key[k] = link.start_poly;
    land_key[k] = link.land_poly;
    max_start = std::max(max_start, link.start_poly);
    max_land = std::max(max_land, link.land_poly);
    max_config = std::max<std::uint32_t>(max_config, link.config);
  }
  const std::uint64_t land_keys = (std::uint64_t{max_land} + 1) * (std::uint64_t{max_config} + 1);
  if (max_start > n + polygon_count || land_keys > 4 * (n + polygon_count)) return {};
  if (max_config > 0) {
    for (std::size_t k = 0; k < n; ++k)
      land_key[k] = land_key[k] * (max_config + 1) + links[k]->config;
  }
  // note: fresh pages cost about as much as the passes themselves, so the buffers are reused:
  // by start polygon into land_key's storage once pass one has read it
  std::vector<std::uint32_t> next;
  const auto counting_pass = [n, &next](const std::vector<std::uint32_t>& key, std::size_t keys,
                                        const std::uint32_t* order,
                                        std::vector<std::uint32_t>& out) {
    next.assign(keys + 1, 0);
    for (const std::uint32_t k : key) ++next[std::size_t{k} + 1];
    for (std::size_t v = 1; v <= keys; ++v) next[v] += next[v - 1];
    for (std::size_t t = 0; t < n; ++t) {
      const std::uint32_t k = order == nullptr ? static_cast<std::uint32_t>(t) : order[t];
      out[next[key[k]]++] = k;
    }
  };
  std::vector<std::uint32_t> by_land(n);
  counting_pass(land_key, static_cast<std::size_t>(land_keys), nullptr, by_land);
  std::vector<std::uint32_t> order = std::move(land_key);
  counting_pass(start_key, std::size_t{max_start} + 1, by_land.data(), order);
  return order;
}

// The links in gathered order, stably sorted by (start, land, config), into `out`.
void sort_links(const std::vector<const JumpLink*>& links, std::size_t polygon_count,
                std::vector<JumpLink>& out) {
  const std::vector<std::uint32_t> order = counting_order(links, polygon_count);
  out.clear();
  out.reserve(links.size());
  if (!order.empty()) {
    for (const std::uint32_t k : order) out.push_back(*links[k]);
    return;
  }
  for (const JumpLink* link : links) out.push_back(*link);
  std::stable_sort(out.begin(), out.end(),
                   [](const JumpLink& a, const JumpLink& b) { return link_key(a) < link_key(b); });
}

// The links of `parts` (in gathered order: configuration by configuration, the parts of
// configuration c from config_first[c] on, each configuration's links grouped by start polygon
// in ascending order) stably sorted by (start, land, config), expanded into `out`: start polygon
// by start polygon, its run in each configuration is gathered (configurations ascending) and
// ordered by land polygon, ties in gathered order.
void gather_links(const std::vector<std::vector<LinkRecord>>& parts,
                  const std::vector<std::size_t>& config_first, std::span<const Sample> samples,
                  const voxel::CompactHeightfield& open, std::size_t polygon_count,
                  std::vector<JumpLink>& out) {
  std::size_t total = 0;
  for (const std::vector<LinkRecord>& part : parts) total += part.size();
  out.clear();
  out.reserve(total);
  prefault(out.data(), total * sizeof(JumpLink));
  const GridSpec& grid = open.grid;
  const auto width = static_cast<std::uint32_t>(grid.width);
  const auto centre = [&](std::uint32_t column, std::uint32_t span) {
    return voxel_centre(open, static_cast<int>(column % width), static_cast<int>(column / width),
                        span);
  };
  struct Cursor {
    std::size_t part = 0;
    std::size_t end = 0;  // one past the configuration's last part
    std::size_t index = 0;
  };
  std::vector<Cursor> cursors;
  for (std::size_t c = 0; c + 1 < config_first.size(); ++c)
    cursors.push_back({config_first[c], config_first[c + 1], 0});
  const auto current = [&parts](const Cursor& cursor) -> const LinkRecord* {
    return cursor.part < cursor.end ? &parts[cursor.part][cursor.index] : nullptr;
  };
  // note: one start polygon's links at a time, by pointer (its links stay in cache)
  struct Local {
    const LinkRecord* link;
    std::uint16_t config;
  };
  std::vector<Local> local;
  std::vector<std::uint32_t> lands;
  std::vector<std::uint32_t> order;
  std::vector<std::uint32_t> slot(polygon_count, 0);  // per land polygon; zero between polygons
  while (true) {
    std::uint32_t poly = std::numeric_limits<std::uint32_t>::max();
    bool any = false;
    for (const Cursor& cursor : cursors) {
      if (const LinkRecord* link = current(cursor)) {
        poly = std::min(poly, samples[link->sample].poly);
        any = true;
      }
    }
    if (!any) break;
    local.clear();
    for (std::size_t c = 0; c < cursors.size(); ++c) {
      Cursor& cursor = cursors[c];
      while (cursor.part < cursor.end) {
        const std::vector<LinkRecord>& part = parts[cursor.part];
        const LinkRecord& link = part[cursor.index];
        if (samples[link.sample].poly != poly) break;
        local.push_back({&link, static_cast<std::uint16_t>(c)});
        if (++cursor.index == part.size()) {
          ++cursor.part;
          cursor.index = 0;
        }
      }
    }
    // a counting sort over the few land polygons present (sorted), positions in gathered order
    lands.clear();
    for (const Local& l : local) {
      if (slot[l.link->land_poly]++ == 0) lands.push_back(l.link->land_poly);
    }
    std::sort(lands.begin(), lands.end());
    std::uint32_t next = 0;
    for (const std::uint32_t land : lands) {
      const std::uint32_t count = slot[land];
      slot[land] = next;
      next += count;
    }
    order.resize(local.size());
    for (std::uint32_t k = 0; k < local.size(); ++k) order[slot[local[k].link->land_poly]++] = k;
    for (const std::uint32_t land : lands) slot[land] = 0;
    for (const std::uint32_t k : order) {
      const LinkRecord& link = *local[k].link;
      const Sample& sample = samples[link.sample];
      const Vec3 start{grid.origin.x + static_cast<float>(sample.x) * grid.cell_size,
                       grid.origin.y + static_cast<float>(sample.y) * grid.cell_height,
                       grid.origin.z + static_cast<float>(sample.z) * grid.cell_size};
      out.push_back(JumpLink{start, centre(link.column_a, link.span_a),
                             centre(link.column_b, link.span_b), local[k].config, sample.poly,
                             link.land_poly});
    }
  }
}

}  // namespace

void index_links(JumpLinkSet& set, std::size_t polygon_count) {
  // note: gathered links arrive in a thread-independent order (configuration, sample, counter-
  // clockwise), so a stable sort on the group key is a total order on the output
  std::vector<const JumpLink*> links;
  links.reserve(set.links.size());
  for (const JumpLink& link : set.links) links.push_back(&link);
  std::vector<JumpLink> sorted;
  sort_links(links, polygon_count, sorted);
  set.links = std::move(sorted);
  index_sorted_links(set, polygon_count);
}

void index_sorted_links(JumpLinkSet& set, std::size_t polygon_count) {
  set.poly_first.assign(polygon_count + 1, 0);
  set.group_land_poly.clear();
  set.group_first.clear();
  std::vector<std::uint32_t> groups_per_poly(polygon_count, 0);
  for (std::size_t k = 0; k < set.links.size(); ++k) {
    const JumpLink& link = set.links[k];
    const bool new_group = k == 0 || set.links[k - 1].start_poly != link.start_poly ||
                           set.links[k - 1].land_poly != link.land_poly;
    if (!new_group) continue;
    set.group_land_poly.push_back(link.land_poly);
    set.group_first.push_back(static_cast<std::uint32_t>(k));
    if (link.start_poly < polygon_count) ++groups_per_poly[link.start_poly];
  }
  set.group_first.push_back(static_cast<std::uint32_t>(set.links.size()));
  for (std::size_t p = 0; p < polygon_count; ++p)
    set.poly_first[p + 1] = set.poly_first[p] + groups_per_poly[p];
}

Result<JumpLinkSet> build_jump_links(const voxel::Heightfield& solid,
                                     const voxel::CompactHeightfield& open,
                                     const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                     const JumpLinkOptions& options, BuildContext& ctx) {
  return build_jump_links(solid, open, navmesh, agent, options, SampleWindow{}, ctx);
}

namespace {

// The checks both build_jump_links overloads make before any work.
Status check_inputs(const voxel::Heightfield& solid, const voxel::CompactHeightfield& open,
                    const mesh::NavMesh& navmesh, const JumpLinkOptions& options,
                    const SampleWindow& window) {
  LEAPNAV_TRY(validate(options));
  if (window.x0 < 0 || window.z0 < 0 || window.phase_x < 0 || window.phase_z < 0)
    return make_error(ErrorCode::InvalidArgument,
                      "jump links: the sample window has a negative first column or phase");
  if (!(solid.grid == open.grid))
    return make_error(ErrorCode::InvalidArgument,
                      "jump links: solid and compact heightfields have different grids");
  if (navmesh.span_poly.size() != open.spans.size() ||
      navmesh.span_column_first != open.column_first)
    return make_error(ErrorCode::InvalidArgument,
                      "jump links: the navmesh's span -> polygon map is not aligned with the "
                      "compact heightfield (" +
                          std::to_string(navmesh.span_poly.size()) + " mapped spans, " +
                          std::to_string(open.spans.size()) + " open spans)");
  return {};
}

}  // namespace

Result<JumpLinkSet> build_jump_links(const voxel::Heightfield& solid,
                                     const voxel::CompactHeightfield& open,
                                     const mesh::NavMesh& navmesh, const AgentConfig& agent,
                                     const JumpLinkOptions& options, const SampleWindow& window,
                                     BuildContext& ctx) {
  LEAPNAV_TRY(check_inputs(solid, open, navmesh, options, window));
  LEAPNAV_TRY_ASSIGN(const ObstacleBits field,
                     build_obstacle_bits(solid, agent, ctx, BitsKept::ApproxOnly));
  return build_jump_links(solid, open, navmesh, options, window, field, ctx);
}

Result<JumpLinkSet> build_jump_links(const voxel::Heightfield& solid,
                                     const voxel::CompactHeightfield& open,
                                     const mesh::NavMesh& navmesh, const JumpLinkOptions& options,
                                     const SampleWindow& window, const ObstacleBits& field,
                                     BuildContext& ctx) {
  LEAPNAV_TRY(check_inputs(solid, open, navmesh, options, window));
  const GridSpec& grid = open.grid;
  const std::size_t polygon_count = navmesh.polygon_count();

  if (!(field.grid == grid))
    return make_error(ErrorCode::InvalidArgument,
                      "jump links: the obstacle field's grid differs from the heightfields'");
  JumpLinkSet set;
  set.configs = options.jumps;
  LEAPNAV_TRY(ctx.check_cancel("jump links"));

  // note: every estimate below counts the stage's arrays alive at that point (upper bounds), so
  // a refusal comes before the allocation it names
  const std::uint64_t field_bytes = field.bits.size() * sizeof(std::uint64_t);
  // the samples twice (while they are grouped), the group starts, the centre polygons
  const std::uint64_t centre_bytes = CentrePolygonCache::bytes(open, navmesh);
  LEAPNAV_TRY(ctx.check_memory("jump links: sample points and centre polygons",
                               field_bytes + open.spans.size() * 2 * sizeof(Sample) + centre_bytes +
                                   (polygon_count + 1) * sizeof(std::uint32_t)));
  std::vector<Sample> samples;
  {
    auto timer = ctx.scoped_timer("jump_samples");
    const int step = options.step;
    const int x_end = window.x1 < 0 ? grid.width : std::min(window.x1, grid.width);
    const int z_end = window.z1 < 0 ? grid.depth : std::min(window.z1, grid.depth);
    // the first column at or after the window's start whose (column + phase) the step divides
    const auto first_sampled = [step](int start, int phase) {
      return start + (step - (start + phase) % step) % step;
    };
    for (int z = first_sampled(window.z0, window.phase_z); z < z_end; z += step) {
      for (int x = first_sampled(window.x0, window.phase_x); x < x_end; x += step) {
        const std::size_t column = grid.column_index(x, z);
        for (std::uint32_t s = open.first(column); s < open.end(column); ++s) {
          const std::uint32_t poly = navmesh.span_poly[s];
          if (poly == mesh::kNoPoly || poly >= polygon_count) continue;
          if (!open.areas.empty() && open.areas[s] == voxel::kNullArea) continue;
          samples.push_back(Sample{x, z, open.spans[s].y, poly});
        }
      }
    }
  }
  set.stats.sample_points = samples.size();
  // note: the samples grouped by start polygon (stably), so that each configuration's links come
  // out grouped by start polygon and the link set needs no global sort, only one within each
  // start polygon's links
  {
    auto timer = ctx.scoped_timer("jump_samples");
    std::vector<std::uint32_t> begin(polygon_count + 1, 0);
    for (const Sample& sample : samples) ++begin[sample.poly + 1];
    for (std::size_t p = 0; p < polygon_count; ++p) begin[p + 1] += begin[p];
    std::vector<Sample> grouped(samples.size());
    for (const Sample& sample : samples) grouped[begin[sample.poly]++] = sample;
    samples = std::move(grouped);
  }
  const CentrePolygonCache centre_poly(open, navmesh);
  LEAPNAV_TRY(ctx.check_cancel("jump links"));
  const std::uint64_t fixed_bytes = field_bytes + samples.size() * sizeof(Sample) + centre_bytes;

  // note: the chunks' link records are kept (in gathered order) and expanded once, sorted, into
  // the link set; a concatenated copy first would cost another pass and its page faults
  std::vector<std::vector<LinkRecord>> parts;
  std::vector<std::size_t> config_first;  // per configuration, its first part; then parts.size()
  std::uint64_t part_links = 0;
  std::uint64_t part_bytes = 0;
  {
    auto timer = ctx.scoped_timer("jump_search");
    constexpr std::size_t kGrain = 32;
    // samples between two checks (cancel, memory, progress) on the calling thread
    constexpr std::size_t kBlock = 32 * kGrain;
    const std::uint64_t limit = ctx.memory_limit();
    const std::size_t chunk_total = chunk_count(0, samples.size(), kGrain);
    for (std::size_t c = 0; c < set.configs.size(); ++c) {
      const std::uint64_t tables = LandSearch::table_bytes(field, set.configs[c]);
      const std::uint64_t base = fixed_bytes + tables + part_bytes + chunk_total * sizeof(ChunkOut);
      LEAPNAV_TRY(ctx.check_memory("jump links: search tables", base));
      const LandSearch search(field, open, set.configs[c]);
      std::vector<ChunkOut> chunks(chunk_total);
      config_first.push_back(parts.size());
      std::atomic<std::uint64_t> found{0};
      std::atomic<bool> over_limit{false};
      for (std::size_t block = 0; block < samples.size(); block += kBlock) {
        const std::size_t block_end = std::min(samples.size(), block + kBlock);
        parallel_for(ctx.threads(), block, block_end, kGrain, [&](std::size_t b, std::size_t e) {
          ChunkOut& out = chunks[b / kGrain];
          if (ctx.cancelled() || over_limit.load(std::memory_order_relaxed)) return;
          // note: the chunk's samples are searched together (quadrant by quadrant), then their
          // land voxels become links sample by sample
          thread_local std::vector<LandVoxel> block_voxels;
          thread_local std::vector<std::uint32_t> found_first;
          search.find_many(std::span<const Sample>(samples).subspan(b, e - b), centre_poly,
                           block_voxels, found_first, &out.cells);
          out.land_voxels += block_voxels.size();
          std::vector<LandVoxel> chain;
          std::vector<Vec2> flat;
          for (std::size_t k = b; k < e; ++k) {
            if (ctx.cancelled() || over_limit.load(std::memory_order_relaxed)) return;
            const auto voxels =
                std::span<const LandVoxel>(block_voxels)
                    .subspan(found_first[k - b], found_first[k - b + 1] - found_first[k - b]);
            const std::size_t before = out.links.size();
            emit_links(open, voxels, static_cast<std::uint32_t>(k), options.epsilon, out, chain,
                       flat);
            const std::uint64_t added = out.links.size() - before;
            if (added == 0) continue;
            // note: a chunk's vector holds at most twice its links; the links found so far only
            // grow, so once over the limit the whole build is, whatever the thread count
            const std::uint64_t total = found.fetch_add(added, std::memory_order_relaxed) + added;
            if (base + 2 * total * sizeof(LinkRecord) > limit)
              over_limit.store(true, std::memory_order_relaxed);
          }
        });
        LEAPNAV_TRY(ctx.check_cancel("jump links"));
        if (over_limit.load()) {
          return make_error(ErrorCode::MemoryLimit,
                            "jump links: the links of jump configuration " + std::to_string(c) +
                                " would need more than the memory limit of " +
                                std::to_string((limit + (1U << 20U) - 1) >> 20U) +
                                " MiB; raise the limit or sample with a larger step");
        }
        ctx.progress("jump_search",
                     (static_cast<double>(c) +
                      static_cast<double>(block_end) / static_cast<double>(samples.size())) /
                         static_cast<double>(set.configs.size()));
      }
      for (ChunkOut& chunk : chunks) {
        set.stats.cells_visited += chunk.cells;
        set.stats.land_voxels += chunk.land_voxels;
        set.stats.chains += chunk.chains;
        if (chunk.links.empty()) continue;
        part_links += chunk.links.size();
        part_bytes += chunk.links.capacity() * sizeof(LinkRecord);
        parts.push_back(std::move(chunk.links));
      }
    }
  }
  {
    auto timer = ctx.scoped_timer("jump_segments");
    config_first.push_back(parts.size());
    // the parts, the sorted copy, one start polygon's links and order (at most all of them),
    // the per-polygon slots, the group arrays
    LEAPNAV_TRY(ctx.check_memory(
        "jump links: link set",
        fixed_bytes + part_bytes + part_links * (2 * sizeof(JumpLink) + sizeof(std::uint32_t)) +
            (4 * (polygon_count + 2) + 2 * (part_links + 1)) * sizeof(std::uint32_t)));
    gather_links(parts, config_first, samples, open, polygon_count, set.links);
    std::vector<std::vector<LinkRecord>>().swap(parts);
    index_sorted_links(set, polygon_count);
  }
  return set;
}

Status validate(const JumpLinkSet& set, const mesh::NavMesh& navmesh) {
  const std::size_t polys = navmesh.polygon_count();
  const auto fail = [](const std::string& what) {
    return make_error(ErrorCode::Internal, "jump links: " + what);
  };
  if (set.poly_first.size() != polys + 1) return fail("poly_first has the wrong size");
  if (set.group_first.size() != set.group_land_poly.size() + 1)
    return fail("group arrays differ in size");
  if (set.poly_first.back() != set.group_land_poly.size())
    return fail("poly_first does not cover the groups");
  if (set.group_first.back() != set.links.size())
    return fail("group_first does not cover the links");
  for (std::size_t k = 0; k < set.links.size(); ++k) {
    const JumpLink& l = set.links[k];
    const std::string where = "link " + std::to_string(k) + ": ";
    if (l.start_poly >= polys || l.land_poly >= polys) return fail(where + "polygon out of range");
    if (l.start_poly == l.land_poly) return fail(where + "lands in its start polygon");
    if (l.config >= set.configs.size()) return fail(where + "configuration out of range");
    if (!is_finite(l.start) || !is_finite(l.land_a) || !is_finite(l.land_b))
      return fail(where + "not finite");
    if (k > 0 && link_key(set.links[k]) < link_key(set.links[k - 1]))
      return fail(where + "not sorted");
  }
  for (std::size_t p = 0; p < polys; ++p) {
    if (set.poly_first[p] > set.poly_first[p + 1]) return fail("poly_first not monotone");
    for (std::uint32_t g = set.poly_first[p]; g < set.poly_first[p + 1]; ++g) {
      if (set.group_first[g] >= set.group_first[g + 1])
        return fail("empty group " + std::to_string(g));
      for (std::uint32_t k = set.group_first[g]; k < set.group_first[g + 1]; ++k) {
        if (set.links[k].start_poly != p || set.links[k].land_poly != set.group_land_poly[g])
          return fail("link " + std::to_string(k) + " is filed under the wrong group");
      }
    }
  }
  return {};
}

std::uint64_t content_hash(const JumpLinkSet& set) {
  ContentHasher hasher;
  hasher.add_pod(static_cast<std::uint64_t>(set.configs.size()));
  for (const JumpConfig& c : set.configs) {
    hasher.add_pod(c.height);
    hasher.add_pod(c.distance);
    hasher.add_pod(c.max_fall);
  }
  hasher.add_pod(static_cast<std::uint64_t>(set.links.size()));
  for (const JumpLink& l : set.links) {
    for (const Vec3& p : {l.start, l.land_a, l.land_b}) {
      hasher.add_pod(p.x);
      hasher.add_pod(p.y);
      hasher.add_pod(p.z);
    }
    hasher.add_pod(l.config);
    hasher.add_pod(l.start_poly);
    hasher.add_pod(l.land_poly);
  }
  hasher.add_vector(set.poly_first);
  hasher.add_vector(set.group_land_poly);
  hasher.add_vector(set.group_first);
  // note: only a lattice set hashes its quantum, so plain sets keep their hashes
  if (set.quantum != 0.0F) hasher.add_pod(set.quantum);
  return hasher.digest();
}

}  // namespace leapnav::jump
