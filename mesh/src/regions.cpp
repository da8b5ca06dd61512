// Watershed regions over the distance field (pipeline.md §2; the scheme of Recast's
// rcBuildRegions, written from its description). Levels descend two at a time from the highest
// distance; at each level existing regions grow breadth-first (bounded Jacobi passes, so the
// result does not depend on visiting order) and the remaining spans seed new regions by flood
// fill down to the next level (as Recast's flood does: a seed takes the ridge below it before
// another seed can start there). Then regions holding two spans of a column are split, small
// islands dropped, small regions merged into their smallest neighbour, and ids renumbered
// 1..count in order.
#include "leapnav/mesh/regions.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "leapnav/core/hash.hpp"
#include "leapnav/core/parallel.hpp"
#include "span_graph.hpp"

namespace leapnav::mesh {

namespace {

using detail::kNoSpan;
using detail::SpanGraph;

constexpr int kExpandPassesPerLevel = 8;
// note: a level's pending spans are rarely this many; below it a pass runs faster on one thread
constexpr std::size_t kExpandGrain = 8192;
constexpr std::size_t kPrefetchAhead = 8;
constexpr std::uint32_t kUnbounded = std::numeric_limits<std::uint32_t>::max();
// gather_regions splits the spans into this many parts when there are at least kGatherPartMin
constexpr std::size_t kGatherParts = 8;
constexpr std::size_t kGatherPartMin = 32768;

struct Watershed {
  Watershed(const voxel::CompactHeightfield& field, const SpanGraph& span_graph, int thread_count)
      : chf(field), graph(span_graph), threads(thread_count) {
    const std::size_t span_count = field.spans.size();
    region.resize(span_count);
    cost.resize(span_count);
    parallel_for(threads, 0, span_count, 16384, [&](std::size_t b, std::size_t e) {
      std::fill(region.begin() + static_cast<std::ptrdiff_t>(b),
                region.begin() + static_cast<std::ptrdiff_t>(e), 0U);
      std::fill(cost.begin() + static_cast<std::ptrdiff_t>(b),
                cost.begin() + static_cast<std::ptrdiff_t>(e), 0U);
    });
  }

  const voxel::CompactHeightfield& chf;
  const SpanGraph& graph;
  int threads = 1;
  detail::UninitializedVector<std::uint32_t> region;  // per span, 0 = none
  detail::UninitializedVector<std::uint32_t> cost;    // per span, growth cost from its seed area
  std::uint32_t next_id = 1;
  std::vector<std::uint32_t> stack;  // flood fill

  [[nodiscard]] bool walkable(std::uint32_t s) const { return chf.areas[s] != voxel::kNullArea; }

  // note: a flood stops short of spans that touch (4- or diagonally) another region, so that
  // two seeds never fuse; the gap is filled by the expansion that follows.
  [[nodiscard]] bool touches_other_region(std::uint32_t s, std::uint32_t id) const {
    for (int dir = 0; dir < 4; ++dir) {
      const std::uint32_t n = graph.neighbor(s, dir);
      if (n == kNoSpan) continue;
      if (region[n] != 0 && region[n] != id) return true;
      const std::uint32_t d = graph.neighbor(n, (dir + 1) & 3);
      if (d != kNoSpan && region[d] != 0 && region[d] != id) return true;
    }
    return false;
  }

  // Flood fill from `seed` over unassigned spans of the same area with distance >= `floor`. The
  // claimed spans do not depend on the visiting order: the neighbour check reads only the other
  // regions, which the flood does not change.
  bool flood(std::uint32_t seed, std::uint16_t floor, bool check_neighbors) {
    const std::uint32_t id = next_id;
    if (check_neighbors && touches_other_region(seed, id)) return false;
    stack.assign(1, seed);
    region[seed] = id;
    cost[seed] = 0;
    std::uint32_t claimed = 0;
    while (!stack.empty()) {
      const std::uint32_t s = stack.back();
      stack.pop_back();
      if (check_neighbors && touches_other_region(s, id)) {
        region[s] = 0;
        continue;
      }
      ++claimed;
      for (int dir = 0; dir < 4; ++dir) {
        const std::uint32_t n = graph.neighbor(s, dir);
        if (n == kNoSpan || region[n] != 0 || chf.areas[n] != chf.areas[s] ||
            chf.distance[n] < floor) {
          continue;
        }
        region[n] = id;
        cost[n] = 0;
        stack.push_back(n);
      }
    }
    if (claimed == 0) return false;
    ++next_id;
    return true;
  }

  struct Claim {
    std::uint32_t region = 0;
    std::uint32_t cost = 0;
  };
  std::vector<Claim> claims;  // per pending span, its claim in the current pass

  // Grows regions into `pending` (unassigned, all with distance >= the current level) and drops
  // the spans it assigns. Each pass reads the state before the pass, so the order of `pending`
  // is irrelevant.
  void expand(std::vector<std::uint32_t>& pending, std::uint32_t max_passes) {
    for (std::uint32_t pass = 0; pass < max_passes && !pending.empty(); ++pass) {
      claims.resize(pending.size());
      parallel_for(threads, 0, pending.size(), kExpandGrain, [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) {
          const std::uint32_t s = pending[k];
          // note: the pending spans are scattered; fetching the links a few spans ahead hides
          // most of the cache misses
          if (k + kPrefetchAhead < e) graph.prefetch(pending[k + kPrefetchAhead]);
          // note: branch-free; a missing link reads `s` itself, which has no region
          const std::uint8_t area = chf.areas[s];
          std::uint32_t best_region = 0;
          std::uint32_t best_cost = std::numeric_limits<std::uint32_t>::max();
          for (int dir = 0; dir < 4; ++dir) {
            const std::uint32_t link = graph.neighbor(s, dir);
            const std::uint32_t n = link == kNoSpan ? s : link;
            const std::uint32_t r = region[n];
            const bool usable = (r != 0) & (chf.areas[n] == area);
            const std::uint32_t c =
                usable ? cost[n] + 2 : std::numeric_limits<std::uint32_t>::max();
            const bool better = c < best_cost;
            best_region = better ? r : best_region;
            best_cost = better ? c : best_cost;
          }
          claims[k] = {best_region, best_cost};
        }
      });
      std::size_t kept = 0;
      for (std::size_t k = 0; k < pending.size(); ++k) {
        const std::uint32_t s = pending[k];
        if (claims[k].region == 0) {
          pending[kept++] = s;
          continue;
        }
        region[s] = claims[k].region;
        cost[s] = claims[k].cost;
      }
      const bool changed = kept != pending.size();
      pending.resize(kept);
      if (!changed) break;
    }
  }
};

struct DistanceOrder {
  detail::UninitializedVector<std::uint32_t> spans;  // walkable, by descending distance, index
  std::vector<std::uint32_t> at_least;  // per distance d <= the maximum, spans with distance >= d
};

// The walkable spans by descending distance, by span index within a distance: a counting sort
// over fixed chunks of spans (per chunk a histogram; a bucket's spans are placed chunk by chunk).
DistanceOrder spans_by_distance(const voxel::CompactHeightfield& chf, int threads) {
  constexpr std::size_t kChunk = 16384;
  const std::size_t span_count = chf.spans.size();
  const std::uint8_t* areas = chf.areas.data();
  const std::uint16_t* distance = chf.distance.data();
  // note: the recorded maximum saves a pass over the spans; when a distance exceeds it (an
  // inconsistent input) the histograms are counted again up to the true maximum
  std::uint16_t bound = chf.max_distance;
  std::size_t buckets = 0;
  std::size_t chunk = 0;
  std::size_t chunks = 0;
  std::vector<std::uint32_t> start;
  for (int attempt = 0; attempt < 2; ++attempt) {
    buckets = static_cast<std::size_t>(bound) + 1;
    // note: one chunk when the histograms would outweigh the spans (a few huge distances)
    chunk = chunk_count(0, span_count, kChunk) * buckets > span_count + buckets
                ? std::max<std::size_t>(span_count, 1)
                : kChunk;
    chunks = chunk_count(0, span_count, chunk);
    start.assign(chunks * buckets, 0);
    std::vector<std::uint16_t> chunk_max(chunks, 0);
    parallel_for(threads, 0, span_count, chunk, [&](std::size_t b, std::size_t e) {
      std::uint32_t* histogram = start.data() + (b / chunk) * buckets;
      std::uint16_t m = 0;
      for (std::size_t s = b; s < e; ++s) {
        if (areas[s] == voxel::kNullArea) continue;
        m = std::max(m, distance[s]);
        ++histogram[std::min(distance[s], bound)];
      }
      chunk_max[b / chunk] = m;
    });
    std::uint16_t true_max = 0;
    for (const std::uint16_t m : chunk_max) true_max = std::max(true_max, m);
    if (true_max <= bound) break;
    bound = true_max;
  }
  // the walkable maximum: the highest non-empty bucket
  std::size_t top = buckets;
  while (top > 1) {
    bool empty = true;
    for (std::size_t c = 0; c < chunks && empty; ++c) empty = start[c * buckets + top - 1] == 0;
    if (!empty) break;
    --top;
  }
  DistanceOrder order;
  order.at_least.resize(std::max<std::size_t>(top, 1));
  std::uint32_t total = 0;
  for (std::size_t d = order.at_least.size(); d-- > 0;) {
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::uint32_t n = start[c * buckets + d];
      start[c * buckets + d] = total;
      total += n;
    }
    order.at_least[d] = total;
  }
  order.spans.resize(total);
  std::uint32_t* out = order.spans.data();
  parallel_for(threads, 0, span_count, chunk, [&](std::size_t b, std::size_t e) {
    std::uint32_t* cursor = start.data() + (b / chunk) * buckets;
    for (std::size_t s = b; s < e; ++s) {
      if (areas[s] != voxel::kNullArea) out[cursor[distance[s]]++] = static_cast<std::uint32_t>(s);
    }
  });
  return order;
}

// The columns holding two or more spans, ascending (listed per fixed chunk of columns in
// parallel, then joined in chunk order).
std::vector<std::uint32_t> stacked_columns(const voxel::CompactHeightfield& chf, int threads) {
  constexpr std::size_t kColumnChunk = 16384;
  const std::size_t columns = static_cast<std::size_t>(chf.grid.column_count());
  const std::uint32_t* column_first = chf.column_first.data();
  std::vector<std::vector<std::uint32_t>> parts(chunk_count(0, columns, kColumnChunk));
  parallel_for(threads, 0, columns, kColumnChunk, [&](std::size_t c0, std::size_t c1) {
    std::vector<std::uint32_t>& part = parts[c0 / kColumnChunk];
    for (std::size_t c = c0; c < c1; ++c) {
      if (column_first[c + 1] - column_first[c] >= 2) part.push_back(static_cast<std::uint32_t>(c));
    }
  });
  std::size_t total = 0;
  for (const auto& part : parts) total += part.size();
  std::vector<std::uint32_t> out;
  out.reserve(total);
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// Splits every region that holds two spans of one column into pieces that do not, by flood fill
// that refuses spans whose column the growing piece already covers. Returns the new id count.
std::uint32_t split_overlapping_regions(const voxel::CompactHeightfield& chf,
                                        const SpanGraph& graph,
                                        const std::vector<std::uint32_t>& multi_span_columns,
                                        detail::UninitializedVector<std::uint32_t>& region,
                                        std::uint32_t id_count) {
  const std::size_t columns = static_cast<std::size_t>(chf.grid.column_count());
  std::vector<char> overlapping(id_count + 1, 0);
  std::vector<std::uint32_t> ids;
  for (const std::uint32_t c : multi_span_columns) {
    const std::uint32_t first = chf.first(c);
    const std::uint32_t end = chf.end(c);
    if (end - first == 2) {
      if (region[first] != 0 && region[first] == region[first + 1]) overlapping[region[first]] = 1;
      continue;
    }
    ids.clear();
    for (std::uint32_t i = first; i < end; ++i) {
      if (region[i] != 0) ids.push_back(region[i]);
    }
    std::sort(ids.begin(), ids.end());
    for (std::size_t k = 1; k < ids.size(); ++k) {
      if (ids[k] == ids[k - 1]) overlapping[ids[k]] = 1;
    }
  }
  if (std::find(overlapping.begin(), overlapping.end(), 1) == overlapping.end()) return id_count;

  std::vector<std::uint32_t> column_piece(columns, 0);
  std::vector<char> done(region.size(), 0);
  std::uint32_t next = id_count + 1;
  std::deque<std::uint32_t> queue;
  for (std::uint32_t seed = 0; seed < region.size(); ++seed) {
    const std::uint32_t old_id = region[seed];
    // note: done first: spans relabelled by an earlier piece hold ids past overlapping's end
    if (done[seed] || old_id == 0 || !overlapping[old_id]) continue;
    const std::uint32_t piece = next++;
    region[seed] = piece;
    done[seed] = 1;
    column_piece[graph.column[seed]] = piece;
    queue.assign(1, seed);
    while (!queue.empty()) {
      const std::uint32_t s = queue.front();
      queue.pop_front();
      for (int dir = 0; dir < 4; ++dir) {
        const std::uint32_t n = graph.neighbor(s, dir);
        if (n == kNoSpan || done[n] || region[n] != old_id) continue;
        if (column_piece[graph.column[n]] == piece) continue;
        region[n] = piece;
        done[n] = 1;
        column_piece[graph.column[n]] = piece;
        queue.push_back(n);
      }
    }
  }
  return next - 1;
}

struct RegionInfo {
  std::uint32_t spans = 0;
  std::uint8_t area = voxel::kNullArea;
  bool alive = false;
  std::uint32_t merged_into = 0;
  std::vector<std::uint32_t> neighbors;  // sorted, regions sharing a connected span edge
  std::vector<std::uint32_t> floors;     // sorted, regions sharing a column
};

void insert_sorted(std::vector<std::uint32_t>& list, std::uint32_t value) {
  const auto it = std::lower_bound(list.begin(), list.end(), value);
  if (it == list.end() || *it != value) list.insert(it, value);
}

void erase_sorted(std::vector<std::uint32_t>& list, std::uint32_t value) {
  const auto it = std::lower_bound(list.begin(), list.end(), value);
  if (it != list.end() && *it == value) list.erase(it);
}

bool contains_sorted(const std::vector<std::uint32_t>& list, std::uint32_t value) {
  return std::binary_search(list.begin(), list.end(), value);
}

// Sorted unique neighbour lists from (region, neighbour) pairs packed as region << 32 | neighbour.
void fill_lists(std::vector<std::uint64_t>& pairs, std::vector<RegionInfo>& info,
                std::vector<std::uint32_t> RegionInfo::*list) {
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const std::uint64_t pair : pairs)
    (info[pair >> 32].*list).push_back(static_cast<std::uint32_t>(pair));
}

std::vector<RegionInfo> gather_regions(const voxel::CompactHeightfield& chf, const SpanGraph& graph,
                                       const std::vector<std::uint32_t>& multi_span_columns,
                                       const detail::UninitializedVector<std::uint32_t>& region,
                                       std::uint32_t id_count, int threads) {
  std::vector<RegionInfo> info(id_count + 1);
  // note: a fixed number of parts (not of threads); the outputs are sums and sorted unique
  // pairs, so neither the parts nor their order show in the result
  const std::size_t span_count = region.size();
  // note: the per-part tables (id_count + 1 entries each) stay below the span count in total
  const std::size_t parts =
      span_count < kGatherPartMin
          ? 1
          : std::clamp<std::size_t>(span_count / (std::size_t{id_count} + 1), 1, kGatherParts);
  const std::size_t part_size = (span_count + parts - 1) / parts;
  struct Part {
    std::vector<std::uint32_t> spans;     // per region id
    std::vector<std::uint8_t> area;       // per region id, of its last span in the part
    std::vector<std::uint64_t> adjacent;  // region << 32 | neighbour
  };
  std::vector<Part> part_out(parts);
  parallel_for(threads, 0, parts, 1, [&](std::size_t p0, std::size_t p1) {
    for (std::size_t p = p0; p < p1; ++p) {
      Part& out = part_out[p];
      out.spans.assign(id_count + 1, 0);
      out.area.assign(id_count + 1, voxel::kNullArea);
      // note: consecutive boundary spans mostly repeat the last pair of their region; skip
      // those before sorting
      std::vector<std::uint32_t> last_neighbor(id_count + 1, 0);
      const std::size_t end = std::min(span_count, (p + 1) * part_size);
      for (std::size_t si = p * part_size; si < end; ++si) {
        const auto s = static_cast<std::uint32_t>(si);
        const std::uint32_t r = region[s];
        if (r == 0) continue;
        out.spans[r] += 1;
        out.area[r] = chf.areas[s];
        // note: a missing link reads `s` itself; one well-predicted branch for interior spans
        std::array<std::uint32_t, 4> around{};
        bool inside = true;
        for (int dir = 0; dir < 4; ++dir) {
          const std::uint32_t link = graph.neighbor(s, dir);
          const std::uint32_t rn = region[link == kNoSpan ? s : link];
          around[static_cast<std::size_t>(dir)] = rn;
          inside &= (rn == r) | (rn == 0);
        }
        if (inside) continue;
        for (const std::uint32_t rn : around) {
          if (rn == r || rn == 0 || last_neighbor[r] == rn) continue;
          last_neighbor[r] = rn;
          out.adjacent.push_back(std::uint64_t{r} << 32 | rn);
        }
      }
    }
  });
  std::vector<std::uint64_t> adjacent;
  // note: in part order, so a region's area is that of its last span, as in one pass
  for (Part& part : part_out) {
    for (std::uint32_t r = 1; r <= id_count; ++r) {
      if (part.spans[r] == 0) continue;
      info[r].spans += part.spans[r];
      info[r].area = part.area[r];
      info[r].alive = true;
    }
    adjacent.insert(adjacent.end(), part.adjacent.begin(), part.adjacent.end());
    part = {};
  }
  std::vector<std::uint64_t> stacked;
  std::vector<std::uint32_t> last_floor(id_count + 1, 0);
  for (const std::uint32_t c : multi_span_columns) {
    const std::uint32_t end = chf.end(c);
    for (std::uint32_t i = chf.first(c); i < end; ++i) {
      for (std::uint32_t j = i + 1; j < end; ++j) {
        if (region[i] == 0 || region[j] == 0 || region[i] == region[j]) continue;
        if (last_floor[region[i]] == region[j]) continue;
        last_floor[region[i]] = region[j];
        stacked.push_back(std::uint64_t{region[i]} << 32 | region[j]);
        stacked.push_back(std::uint64_t{region[j]} << 32 | region[i]);
      }
    }
  }
  fill_lists(adjacent, info, &RegionInfo::neighbors);
  fill_lists(stacked, info, &RegionInfo::floors);
  return info;
}

// Removes groups of connected same-area regions whose total span count is below min_cells.
void remove_small_islands(std::vector<RegionInfo>& info, int min_cells) {
  if (min_cells <= 0) return;
  std::vector<char> seen(info.size(), 0);
  std::vector<std::uint32_t> group;
  for (std::uint32_t r = 1; r < info.size(); ++r) {
    if (!info[r].alive || seen[r]) continue;
    group.assign(1, r);
    seen[r] = 1;
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < group.size(); ++k) {
      const RegionInfo& current = info[group[k]];
      total += current.spans;
      for (const std::uint32_t n : current.neighbors) {
        if (seen[n] || !info[n].alive || info[n].area != current.area) continue;
        seen[n] = 1;
        group.push_back(n);
      }
    }
    if (total >= static_cast<std::uint64_t>(min_cells)) continue;
    for (const std::uint32_t g : group) info[g].alive = false;
  }
  for (RegionInfo& region : info) {
    if (region.alive) continue;
    region.neighbors.clear();
    region.floors.clear();
  }
  for (RegionInfo& region : info) {
    std::erase_if(region.neighbors, [&](std::uint32_t n) { return !info[n].alive; });
    std::erase_if(region.floors, [&](std::uint32_t n) { return !info[n].alive; });
  }
}

// Merges each region smaller than merge_cells into its smallest same-area neighbour with which
// it shares no column, until nothing changes. Merged regions record merged_into.
void merge_small_regions(std::vector<RegionInfo>& info, int merge_cells) {
  if (merge_cells <= 0) return;
  bool merged = true;
  while (merged) {
    merged = false;
    for (std::uint32_t r = 1; r < info.size(); ++r) {
      RegionInfo& small = info[r];
      if (!small.alive || small.spans >= static_cast<std::uint32_t>(merge_cells)) continue;
      std::uint32_t target = 0;
      for (const std::uint32_t n : small.neighbors) {
        const RegionInfo& candidate = info[n];
        if (candidate.area != small.area || contains_sorted(small.floors, n)) continue;
        if (target == 0 || candidate.spans < info[target].spans) target = n;
      }
      if (target == 0) continue;
      RegionInfo& into = info[target];
      into.spans += small.spans;
      for (const std::uint32_t n : small.neighbors) {
        erase_sorted(info[n].neighbors, r);
        if (n != target) {
          insert_sorted(info[n].neighbors, target);
          insert_sorted(into.neighbors, n);
        }
      }
      for (const std::uint32_t f : small.floors) {
        erase_sorted(info[f].floors, r);
        insert_sorted(info[f].floors, target);
        insert_sorted(into.floors, f);
      }
      small.alive = false;
      small.merged_into = target;
      small.neighbors.clear();
      small.floors.clear();
      merged = true;
    }
  }
}

// Counts the components of walkable spans joined by links between spans of equal area that have
// at least min_cells spans, stopping once the count passes `stop_above`.
// note: regions grow only across such links (flood and expansion both require equal areas), so
// each region lies inside one component, a component's regions are one group of the island filter,
// and a component of min_cells or more spans keeps at least one region through the filter and the
// merges: the count is a lower bound on the final region count, cheap next to the watershed.
std::uint64_t large_components(const voxel::CompactHeightfield& chf, const SpanGraph& graph,
                               int min_cells, std::uint64_t stop_above) {
  const std::size_t span_count = chf.spans.size();
  std::vector<bool> seen(span_count, false);
  std::vector<std::uint32_t> stack;
  std::uint64_t count = 0;
  const auto needed = static_cast<std::uint64_t>(std::max(min_cells, 1));
  for (std::size_t seed = 0; seed < span_count && count <= stop_above; ++seed) {
    if (seen[seed] || chf.areas[seed] == voxel::kNullArea) continue;
    seen[seed] = true;
    stack.assign(1, static_cast<std::uint32_t>(seed));
    std::uint64_t size = 0;
    while (!stack.empty()) {
      const std::uint32_t s = stack.back();
      stack.pop_back();
      ++size;
      for (int dir = 0; dir < 4; ++dir) {
        const std::uint32_t n = graph.neighbor(s, dir);
        if (n == kNoSpan || seen[n] || chf.areas[n] != chf.areas[s]) continue;
        seen[n] = true;
        stack.push_back(n);
      }
    }
    if (size >= needed) ++count;
  }
  return count;
}

}  // namespace

Result<RegionField> build_regions(const voxel::CompactHeightfield& chf, const VoxelParams& params,
                                  BuildContext& ctx) {
  auto timer = ctx.scoped_timer("regions");
  LEAPNAV_TRY(detail::check_heightfield_arrays(chf, "regions", true));
  LEAPNAV_TRY(ctx.check_memory("regions", static_cast<std::uint64_t>(chf.spans.size()) * 40));
  LEAPNAV_TRY_ASSIGN(const SpanGraph graph,
                     detail::make_checked_span_graph(chf, "regions", ctx.threads()));
  return detail::build_regions_on(chf, graph, params, ctx);
}

Result<RegionField> detail::build_regions_on(const voxel::CompactHeightfield& chf,
                                             const SpanGraph& graph, const VoxelParams& params,
                                             BuildContext& ctx) {
  const std::size_t span_count = chf.spans.size();
  LEAPNAV_TRY(ctx.check_memory("regions", static_cast<std::uint64_t>(span_count) * 40));
  const int threads = ctx.threads();
  constexpr std::uint64_t kMaxRegions = std::numeric_limits<std::uint16_t>::max();
  // note: components of at least min_cells spans number at most span_count / min_cells; only
  // when that bound passes the limit is counting them (a flood over every span) needed
  const auto needed = static_cast<std::uint64_t>(std::max(params.min_region_cells, 1));
  if (span_count / needed > kMaxRegions &&
      large_components(chf, graph, params.min_region_cells, kMaxRegions) > kMaxRegions) {
    return make_error(ErrorCode::InvalidArgument,
                      "regions: more than 65535 separate walkable areas of at least "
                      "region.min_region_area (" +
                          std::to_string(params.min_region_cells) +
                          " cells) each; their regions would exceed the limit of 65535 (found "
                          "before the watershed)");
  }

  Watershed ws(chf, graph, threads);

  // bucket walkable spans by distance, then descend two levels at a time
  const DistanceOrder by_distance = spans_by_distance(chf, threads);
  std::size_t next_bucket = 0;
  // note: always the unassigned walkable spans with distance >= level, in by_distance order
  std::vector<std::uint32_t> pending;
  pending.reserve(by_distance.spans.size());
  // note: starts one step above the top so that level 0 is always processed
  const auto max_distance = static_cast<std::uint32_t>(by_distance.at_least.size() - 1);
  std::uint32_t level = (max_distance & ~1U) + 2U;
  while (level > 0) {
    LEAPNAV_TRY(ctx.check_cancel("regions"));
    level = level >= 2 ? level - 2 : 0;
    const std::size_t end_bucket = by_distance.at_least[level];
    // note: spans a flood of the level above already claimed stay out
    for (std::size_t k = next_bucket; k < end_bucket; ++k) {
      const std::uint32_t s = by_distance.spans[k];
      if (ws.region[s] == 0) pending.push_back(s);
    }
    next_bucket = end_bucket;
    ws.expand(pending, kExpandPassesPerLevel);
    const std::uint32_t ids_before = ws.next_id;
    const auto floor = static_cast<std::uint16_t>(level >= 2 ? level - 2 : 0);
    for (const std::uint32_t s : pending) {
      if (ws.region[s] == 0) ws.flood(s, floor, true);
    }
    // note: a flood that starts no region changes nothing
    if (ws.next_id != ids_before) {
      std::erase_if(pending, [&](std::uint32_t s) { return ws.region[s] != 0; });
    }
  }
  ws.expand(pending, kUnbounded);
  // note: spans reverted by the neighbour check and unreachable by 4-connected growth
  for (const std::uint32_t s : pending) {
    if (ws.region[s] == 0) ws.flood(s, 0, false);
  }
  LEAPNAV_TRY(ctx.check_cancel("regions"));

  detail::UninitializedVector<std::uint32_t>& region = ws.region;
  const std::vector<std::uint32_t> multi_span_columns = stacked_columns(chf, threads);
  const std::uint32_t id_count =
      split_overlapping_regions(chf, graph, multi_span_columns, region, ws.next_id - 1);
  std::vector<RegionInfo> info =
      gather_regions(chf, graph, multi_span_columns, region, id_count, threads);
  remove_small_islands(info, params.min_region_cells);
  merge_small_regions(info, params.merge_region_cells);

  // renumber: surviving regions in ascending watershed id order
  std::vector<std::uint32_t> final_id(info.size(), 0);
  std::uint32_t count = 0;
  for (std::uint32_t r = 1; r < info.size(); ++r) {
    if (info[r].alive && info[r].spans > 0) final_id[r] = ++count;
  }
  if (count > std::numeric_limits<std::uint16_t>::max()) {
    return make_error(ErrorCode::InvalidArgument,
                      "regions: " + std::to_string(count) + " regions exceed the limit of 65535");
  }
  for (std::uint32_t r = 1; r < info.size(); ++r) {
    if (info[r].alive || info[r].merged_into == 0) continue;
    std::uint32_t target = info[r].merged_into;
    while (!info[target].alive && info[target].merged_into != 0) target = info[target].merged_into;
    final_id[r] = info[target].alive ? final_id[target] : 0;
  }

  RegionField out;
  out.region_count = static_cast<std::uint16_t>(count);
  out.span_region.resize(span_count);
  parallel_for(threads, 0, span_count, 16384, [&](std::size_t b, std::size_t e) {
    for (std::size_t s = b; s < e; ++s)
      out.span_region[s] = static_cast<std::uint16_t>(final_id[region[s]]);
  });
  if (count == 0 && span_count > 0) ctx.warn("regions: no region survived filtering");
  return out;
}

Status validate(const RegionField& regions, const voxel::CompactHeightfield& chf) {
  LEAPNAV_TRY(detail::check_heightfield(chf, "regions validate", false));
  const std::size_t span_count = chf.spans.size();
  if (regions.span_region.size() != span_count) {
    return make_error(ErrorCode::Internal,
                      "regions: " + std::to_string(regions.span_region.size()) + " ids for " +
                          std::to_string(span_count) + " spans");
  }
  const std::uint32_t count = regions.region_count;
  std::vector<std::uint32_t> first_span(count + 1, kNoSpan);
  std::vector<std::uint32_t> size(count + 1, 0);
  for (std::uint32_t s = 0; s < span_count; ++s) {
    const std::uint16_t r = regions.span_region[s];
    if (r > count) {
      return make_error(ErrorCode::Internal, "regions: span " + std::to_string(s) + " has id " +
                                                 std::to_string(r) + " > count " +
                                                 std::to_string(count));
    }
    if (r == kNoRegion) continue;
    if (chf.areas[s] == voxel::kNullArea) {
      return make_error(ErrorCode::Internal,
                        "regions: unwalkable span " + std::to_string(s) + " has a region");
    }
    if (first_span[r] == kNoSpan) {
      first_span[r] = s;
    } else if (chf.areas[first_span[r]] != chf.areas[s]) {
      return make_error(ErrorCode::Internal,
                        "regions: region " + std::to_string(r) + " mixes area ids");
    }
    ++size[r];
  }
  for (std::uint32_t r = 1; r <= count; ++r) {
    if (size[r] == 0) {
      return make_error(ErrorCode::Internal, "regions: id " + std::to_string(r) + " is unused");
    }
  }
  const std::size_t columns = static_cast<std::size_t>(chf.grid.column_count());
  for (std::size_t c = 0; c < columns; ++c) {
    for (std::uint32_t i = chf.first(c); i < chf.end(c); ++i) {
      for (std::uint32_t j = i + 1; j < chf.end(c); ++j) {
        if (regions.span_region[i] != kNoRegion &&
            regions.span_region[i] == regions.span_region[j]) {
          return make_error(ErrorCode::Internal,
                            "regions: region " + std::to_string(regions.span_region[i]) +
                                " holds spans " + std::to_string(i) + " and " + std::to_string(j) +
                                " of column " + std::to_string(c));
        }
      }
    }
  }
  const SpanGraph graph = detail::make_span_graph(chf, 1);
  std::vector<char> reached(span_count, 0);
  std::vector<std::uint32_t> stack;
  for (std::uint32_t r = 1; r <= count; ++r) {
    stack.assign(1, first_span[r]);
    reached[first_span[r]] = 1;
    std::uint32_t seen = 0;
    while (!stack.empty()) {
      const std::uint32_t s = stack.back();
      stack.pop_back();
      ++seen;
      for (int dir = 0; dir < 4; ++dir) {
        const std::uint32_t n = graph.neighbor(s, dir);
        if (n == kNoSpan || reached[n] || regions.span_region[n] != r) continue;
        reached[n] = 1;
        stack.push_back(n);
      }
    }
    if (seen != size[r]) {
      return make_error(ErrorCode::Internal, "regions: region " + std::to_string(r) +
                                                 " is not 4-connected (" + std::to_string(seen) +
                                                 " of " + std::to_string(size[r]) +
                                                 " spans reached)");
    }
  }
  return {};
}

std::uint64_t content_hash(const RegionField& regions) {
  ContentHasher hasher;
  hasher.add_string("leapnav.mesh.RegionField");
  hasher.add_pod(regions.region_count);
  hasher.add_vector(regions.span_region);
  return hasher.digest();
}

}  // namespace leapnav::mesh
