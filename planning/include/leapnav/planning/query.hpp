// Path queries on a navmesh (thesis §3.2 and §6): locate the start and goal
// polygons through an R-tree over polygon bounds, A* over the navigation graph whose search nodes
// are the arcs (entering a polygon through a portal at a fixed crossing point, or by a jump at its
// link group's representative landing point), then the simple stupid funnel over the corridor's
// portals, or with jumps the modified funnel per sub-corridor with a greedy link choice. A Planner
// is immutable and shared between threads; each thread queries through its own NavQuery, which
// owns the search buffers (no allocation per query once they have grown). The one mutable part
// is the loaded/unloaded flag per tile of a tiled mesh (Planner::unload_tile), atomic.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "leapnav/core/geometry.hpp"
#include "leapnav/core/result.hpp"
#include "leapnav/jumplinks/jump_links.hpp"
#include "leapnav/mesh/navmesh.hpp"
#include "leapnav/planning/funnel.hpp"
#include "leapnav/planning/graph.hpp"
#include "leapnav/planning/path.hpp"

namespace leapnav::plan {

/// A point located on the mesh.
struct Location {
  mesh::PolyId poly{};
  /// The point of the polygon nearest the query point: its xz clamped into the polygon, its y
  /// from mesh::height_at [units: m].
  Vec3 point;
  float distance = 0.0F;  ///< 3-D distance from the query point to `point` [units: m]
  bool inside = false;    ///< the query point's xz lies inside the polygon
};

/// The shared, read-only planning data of one navmesh: the graph, islands, portal geometry and
/// the spatial index. A Planner is a cheap, copyable handle to immutable data that it owns jointly
/// with its copies and with every NavQuery made from it: the mesh and link set it plans over stay
/// alive as long as any of them does, so moving, copying or destroying the object (or the asset
/// that held the mesh it was created from) never leaves a dangling query.
class Planner {
 public:
  /// Checks the mesh with mesh::validate and builds the planning data (walking only). The mesh is
  /// copied; pass a shared_ptr to share it instead. A mesh (or links, below) that fails its
  /// validate is InvalidArgument, the message naming the failed check.
  [[nodiscard]] static Result<Planner> create(const mesh::NavMesh& mesh);
  /// The same with jump links: `links` is checked with jump::validate against the mesh and gets
  /// one jump arc per group (start polygon -> land polygon). Null means walking only. A group's
  /// representative points are the mean of its links' starts and the mean of their land segments'
  /// midpoints (xz); its jump arc costs |takeoff - landing| + QueryOptions::jump_cost. The mesh
  /// and the links are copied.
  [[nodiscard]] static Result<Planner> create(const mesh::NavMesh& mesh,
                                              const jump::JumpLinkSet* links);
  /// The same without copies: the planner shares ownership of the mesh and of the links (null
  /// means walking only). InvalidArgument when `mesh` is null.
  [[nodiscard]] static Result<Planner> create(std::shared_ptr<const mesh::NavMesh> mesh,
                                              std::shared_ptr<const jump::JumpLinkSet> links = {});
  /// The same over a link set that also holds ledge and ladder links (ledge_planner.hpp makes
  /// one): extras.config_kind gives per configuration of `links` how its links are traversed
  /// (SegmentKind::Jump for the thesis's jumps, which QueryOptions::jumps and jump_configs
  /// select; any other kind is selected by QueryOptions::ledge_links), extras.link_cost per link
  /// the A* cost that replaces QueryOptions::jump_cost for a non-jump link. InvalidArgument when
  /// the sizes do not match the set or a cost is negative or not finite.
  struct LinkExtras {
    std::vector<SegmentKind> config_kind;
    std::vector<float> link_cost;
  };
  [[nodiscard]] static Result<Planner> create(std::shared_ptr<const mesh::NavMesh> mesh,
                                              std::shared_ptr<const jump::JumpLinkSet> links,
                                              LinkExtras extras);
  /// How links of configuration c are traversed (SegmentKind::Jump without extras).
  [[nodiscard]] SegmentKind config_kind(std::uint32_t c) const;

  Planner(const Planner&) = default;
  Planner(Planner&&) noexcept = default;
  Planner& operator=(const Planner&) = default;
  Planner& operator=(Planner&&) noexcept = default;
  ~Planner() = default;

  [[nodiscard]] const mesh::NavMesh& mesh() const;
  [[nodiscard]] const NavGraph& graph() const;
  /// The link set the planner plans over (null when walking only).
  [[nodiscard]] const jump::JumpLinkSet* links() const;
  /// The mesh and the link set as shared values (the link set null when walking only).
  [[nodiscard]] std::shared_ptr<const mesh::NavMesh> shared_mesh() const;
  [[nodiscard]] std::shared_ptr<const jump::JumpLinkSet> shared_links() const;
  /// Bytes of the planning data built for the mesh (graph, islands, link groups, portal
  /// geometry, landmarks, exact-search fans, tile flags; sizes, not capacities), plus an estimate
  /// of the R-tree's (its entries and one node per 16 of them). Not the mesh or the link set,
  /// which the planner may share with its caller.
  [[nodiscard]] std::uint64_t memory_bytes() const;
  /// The island (connected component of the walk graph) of polygon p.
  [[nodiscard]] std::uint32_t island(mesh::PolyId p) const;

  /// Among the polygons whose bounds meet the box point ± extent, the one whose surface is
  /// nearest the point: for a polygon containing the point's xz this is |height_at - y|, for the
  /// others the 3-D distance to the polygon's nearest point; the nearest point must itself lie in
  /// the box. Ties go to the lower polygon id. nullopt when no polygon qualifies. Errors on
  /// non-finite input or a negative extent. Safe to call from several threads at once.
  [[nodiscard]] Result<std::optional<Location>> locate(Vec3 point, Vec3 extent) const;

  /// Streaming, for meshes from a tiled build (mesh::NavMesh::tile_poly_first): tiles are
  /// unloaded and loaded by their index in the build's TileLayout; all start loaded. A query never
  /// enters a polygon of an unloaded tile, by walking or by any link (jump, ledge, ladder); a
  /// start or goal whose polygon lies in an unloaded tile gets PathStatus::NoPath with
  /// Path::unloaded_tile naming the tile, and a search cut off only by unloaded tiles reports
  /// Path::blocked_by_unloaded_tiles. The state is shared by this planner's copies and their
  /// NavQuery objects. Thread safety: one atomic flag per tile, so load_tile and unload_tile may
  /// run concurrently with queries and with each other; a query running while a tile changes may
  /// see it either way. Unloading frees no memory: the stitched mesh keeps every tile's polygons
  /// (see docs/tiles.md, "Streaming").
  /// The number of tiles (0 for a mesh without tiles).
  [[nodiscard]] std::uint32_t tile_count() const;
  /// The tile of polygon p (kNoTile for a mesh without tiles).
  [[nodiscard]] std::uint32_t tile_of(mesh::PolyId p) const;
  /// Whether the tile is loaded (false for an index >= tile_count()).
  [[nodiscard]] bool tile_loaded(std::uint32_t tile) const;
  /// Unloads (load_tile: loads again) a tile; unloading an unloaded tile or loading a loaded one
  /// does nothing. InvalidArgument for an index >= tile_count() (naming it and the count).
  Status unload_tile(std::uint32_t tile);
  Status load_tile(std::uint32_t tile);

  /// The planning data (defined in the library's sources only).
  struct Impl;

 private:
  friend class NavQuery;
  friend struct PlannerAccess;
  explicit Planner(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

/// What one NavQuery::update_path call did.
struct SliceStatus {
  bool done = false;           ///< the search has ended: finish_path gives the path
  std::uint32_t expanded = 0;  ///< A* node expansions this call did (at most its budget)
};

/// Per-thread query state over a Planner's data, which it keeps alive (the Planner object itself
/// may be moved or destroyed while the query is in use).
class NavQuery {
 public:
  explicit NavQuery(const Planner& planner);
  NavQuery(NavQuery&&) noexcept;
  NavQuery& operator=(NavQuery&&) noexcept;
  NavQuery(const NavQuery&) = delete;
  NavQuery& operator=(const NavQuery&) = delete;
  ~NavQuery();

  /// A path from start to goal. Errors only on invalid input (see PathStatus).
  [[nodiscard]] Result<Path> find_path(Vec3 start, Vec3 goal, const QueryOptions& options = {});
  /// The same, writing into `out` and reusing its buffers.
  [[nodiscard]] Status find_path(Vec3 start, Vec3 goal, const QueryOptions& options, Path& out);

  /// Sliced (time-budgeted) search: begin_path checks the input, locates both ends and starts the
  /// A* (abandoning any search in progress); update_path runs it for at most `max_iterations`
  /// node expansions (>= 1); once an update reports done, finish_path writes the path, the same
  /// Path find_path returns for the same arguments. find_path is these three calls with an
  /// unbounded update. InvalidArgument for an update without a search begun, and for a finish
  /// before the search is done; QueryOptions::max_nodes still bounds the whole search (Partial).
  [[nodiscard]] Status begin_path(Vec3 start, Vec3 goal, const QueryOptions& options = {});
  [[nodiscard]] Result<SliceStatus> update_path(std::uint32_t max_iterations);
  [[nodiscard]] Status finish_path(Path& out);

  /// The A* cost of the last Found query: the length of the crossing-point polyline from the start
  /// through the corridor's crossing points to the goal, in xz, plus per jump its group's
  /// representative length and the jump cost (Path::search_cost) [units: m].
  [[nodiscard]] double last_search_cost() const;

 private:
  struct Scratch;
  std::shared_ptr<const Planner::Impl> planner_;  ///< shared with the Planner it came from
  std::unique_ptr<Scratch> scratch_;
};

/// The crossing point A* uses for portal (a, b) under `model`, given the query's start and goal
/// (for TowardGoal, `start` is the point the search reaches the portal from).
[[nodiscard]] Vec2 crossing_point(Vec2 a, Vec2 b, Vec2 start, Vec2 goal, CrossingPoint model);

/// locate() on a mesh without a Planner (builds one; for one-off calls).
[[nodiscard]] Result<std::optional<Location>> locate(const mesh::NavMesh& mesh, Vec3 point,
                                                     Vec3 search_extent);

/// find_path() on a mesh without a Planner (builds one; for one-off calls). Errors also when the
/// mesh fails mesh::validate.
[[nodiscard]] Result<Path> find_path(const mesh::NavMesh& mesh, Vec3 start, Vec3 goal,
                                     const QueryOptions& options = {});

/// Many queries on `threads` threads (0 or less = all, 1 = sequential) through parallel_for, one
/// NavQuery per chunk; result i answers request i, identical for any thread count.
[[nodiscard]] std::vector<Result<Path>> find_paths(const Planner& planner,
                                                   std::span<const PathRequest> requests,
                                                   const QueryOptions& options, int threads);
[[nodiscard]] std::vector<Result<Path>> find_paths(const mesh::NavMesh& mesh,
                                                   std::span<const PathRequest> requests,
                                                   const QueryOptions& options, int threads);

}  // namespace leapnav::plan
