// The `F.links` file of a tile cache (tile_link_sidecar.hpp): JSON with the jump configurations
// (h, d, max_fall), step, epsilon, link set, detour, runs, ledge links, the authored ladders
// (optional key "authored_links", in the links file's own form) and the navmesh hash.
#include "tile_link_sidecar.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "leapnav/core/hash.hpp"
#include "leapnav/core/json_check.hpp"
#include "leapnav/io/file_io.hpp"
#include "leapnav/ledgelinks/ladders.hpp"

namespace leapnav::cli {

std::filesystem::path sidecar_path(const std::filesystem::path& cache) {
  std::filesystem::path out = cache;
  out += ".links";
  return out;
}

Status save_sidecar(const TileLinkSidecar& sidecar, const std::filesystem::path& path) {
  nlohmann::json j;
  nlohmann::json jumps = nlohmann::json::array();
  for (const jump::JumpConfig& c : sidecar.links.jumps.jumps)
    jumps.push_back({c.height, c.distance, c.max_fall});
  j["jumps"] = jumps;
  j["step"] = sidecar.links.jumps.step;
  j["epsilon"] = sidecar.links.jumps.epsilon;
  j["link_set"] = sidecar.links.compact ? "compact" : "full";
  j["detour"] = sidecar.links.compact_options.detour;
  j["runs"] = sidecar.links.compact_options.runs;
  j["walkable_filter"] = sidecar.links.filter.enabled;
  j["walkable_slack"] = sidecar.links.filter.slack;
  j["walkable_whole_groups"] = sidecar.links.filter.whole_groups;
  j["ledge_links"] = sidecar.ledge_links;
  if (sidecar.authored) {
    // note: floats widen to doubles exactly and print round-trip, so reading them back as the
    // links file is read (double, then float) gives the same bits
    nlohmann::json ladders = nlohmann::json::array();
    for (const ledge::Ladder& l : sidecar.authored->ladders) {
      ladders.push_back(
          {{"bottom", {l.bottom.x, l.bottom.y, l.bottom.z}}, {"top", {l.top.x, l.top.y, l.top.z}}});
    }
    j["authored_links"] = {{"ladders", ladders},
                           {"climb_speed", sidecar.authored->ladder_options.climb_speed}};
  }
  j["navmesh_hash"] = hash_to_hex(sidecar.navmesh_hash);
  return io::write_file_atomic(path, j.dump(2) + "\n");
}

Result<TileLinkSidecar> load_sidecar(const std::filesystem::path& path, std::uint64_t max_bytes) {
  LEAPNAV_TRY_ASSIGN(const std::string text, read_file(path, max_bytes));
  const std::string name = path.string();
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::CorruptFile, name + ": " + why);
  };
  if (Status s = check_json_text(text, name); !s.ok())
    return make_error(ErrorCode::CorruptFile, std::move(s).error().message);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
  for (const char* key :
       {"jumps", "step", "epsilon", "link_set", "detour", "runs", "ledge_links", "navmesh_hash"}) {
    if (!j.contains(key)) return bad(std::string("has no '") + key + "'");
  }
  TileLinkSidecar out;
  try {
    for (const nlohmann::json& c : j.at("jumps")) {
      if (!c.is_array() || c.size() != 3)
        return bad("'jumps' holds an entry that is not [h, d, f]");
      out.links.jumps.jumps.push_back({c[0].get<float>(), c[1].get<float>(), c[2].get<float>()});
    }
    out.links.jumps.step = j.at("step").get<int>();
    out.links.jumps.epsilon = j.at("epsilon").get<float>();
    const std::string set = j.at("link_set").get<std::string>();
    if (set != "compact" && set != "full") return bad("'link_set' is not compact or full");
    out.links.compact = set == "compact";
    out.links.compact_options.detour = j.at("detour").get<float>();
    out.links.compact_options.runs = j.at("runs").get<bool>();
    // note: a sidecar written before the walkable-link filter existed describes a build without it
    out.links.filter.enabled = j.contains("walkable_filter") && j.at("walkable_filter").get<bool>();
    if (j.contains("walkable_slack")) out.links.filter.slack = j.at("walkable_slack").get<float>();
    if (j.contains("walkable_whole_groups"))
      out.links.filter.whole_groups = j.at("walkable_whole_groups").get<bool>();
    out.ledge_links = j.at("ledge_links").get<bool>();
    const std::string hash = j.at("navmesh_hash").get<std::string>();
    std::size_t used = 0;
    out.navmesh_hash = std::stoull(hash, &used, 16);
    if (used != hash.size()) return bad("'navmesh_hash' is not hexadecimal");
  } catch (const std::exception&) {
    return bad("a field has the wrong type");
  }
  if (!out.links.jumps.jumps.empty()) {
    if (auto s = jump::validate(out.links); !s)
      return make_error(ErrorCode::InvalidArgument, name + ": " + s.error().message);
  }
  if (j.contains("authored_links")) {
    // note: checked by the links file's own parser, so a sidecar holds nothing a links file
    // could not
    LEAPNAV_TRY_ASSIGN(
        io::AuthoredLinks authored,
        io::parse_links_json(j.at("authored_links").dump(), name + " 'authored_links'"));
    out.authored = std::move(authored);
  }
  return out;
}

Result<std::optional<ledge::LedgeLinkSet>> ledges_and_ladders(
    const mesh::NavMesh& navmesh, const TriangleMesh& mesh, bool ledge_links,
    const std::optional<io::AuthoredLinks>& authored, const std::string& source,
    BuildContext& ctx) {
  if (!ledge_links && !authored) return std::optional<ledge::LedgeLinkSet>{};
  ledge::LedgeLinkSet ledges;
  if (ledge_links) {
    LEAPNAV_TRY_ASSIGN(ledges,
                       ledge::build_ledge_links(navmesh, &mesh, ledge::tiled_ledge_options(), ctx));
  }
  if (authored) {
    auto ladders = ledge::ladder_links(navmesh, authored->ladders, authored->ladder_options);
    if (!ladders) return make_error(ladders.error().code, source + ": " + ladders.error().message);
    for (const ledge::LedgeLink& l : *ladders) ledges.links.push_back(l);
    ledge::sort_links(ledges.links);
  }
  return std::optional<ledge::LedgeLinkSet>{std::move(ledges)};
}

}  // namespace leapnav::cli
