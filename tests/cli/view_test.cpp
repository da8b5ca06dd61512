// `leapnav export -o x.glb` and `leapnav view` end to end: the nodes the file gets for the options
// given, the viewer folder's files and its data script, and the errors (no links, no viewer
// bundle). The browser side is tested by viewer/test (scripts/viewer_test.sh).
#include <doctest/doctest.h>

#include "support/cli_run.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/glb_reader.hpp"

#ifdef LEAPNAV_CLI_PATH

namespace {

using ViewRun = leapnav::test::CliRun;

ViewRun run_leapnav(const std::string& args) {
  return leapnav::test::run_cli(args);
}

std::filesystem::path view_temp() {
  const auto dir = std::filesystem::temp_directory_path() / "leapnav_view_test";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_SUITE("cli.view") {
  TEST_CASE("export -o x.glb writes the nodes asked for: level, navmesh, edges, links, path") {
    const auto dir = view_temp();
    const std::string lnav = (dir / "demo.lnav").string();
    REQUIRE(run_leapnav("build builtin:demo --jump C2 --step 4 -o " + lnav).exit_code == 0);
    const std::string plain = (dir / "plain.glb").string();
    REQUIRE(run_leapnav("export " + lnav + " -o " + plain).exit_code == 0);
    leapnav::test::Glb glb = leapnav::test::read_glb(slurp(plain));
    REQUIRE(glb.error.empty());
    CHECK(glb.node_names() == std::vector<std::string>{"navmesh", "navmesh_edges"});

    const std::string full = (dir / "full.glb").string();
    const ViewRun r = run_leapnav("export " + lnav + " -o " + full +
                                  " --scene builtin:demo --links --max-links 50 --fill area"
                                  " --from 2.2,0.1,32.5 --to 22,0.1,37");
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("path: found") != std::string::npos);
    glb = leapnav::test::read_glb(slurp(full));
    REQUIRE(glb.error.empty());
    CHECK(glb.node_names() ==
          std::vector<std::string>{"level", "navmesh", "navmesh_edges", "links", "path"});
    CHECK((*glb.node("links"))["extras"]["link_ids"].size() == 50);
    CHECK((*glb.node("navmesh"))["extras"]["fill"] == "area");
  }

  TEST_CASE("a malformed --from is a usage error (exit 2) naming the option") {
    const auto dir = view_temp();
    const std::string lnav = (dir / "usage.lnav").string();
    REQUIRE(run_leapnav("build builtin:pillar -o " + lnav).exit_code == 0);
    const ViewRun r = run_leapnav("export " + lnav + " -o " + (dir / "u.glb").string() +
                                  " --from 1,2 --to 3,0,3");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("--from: '1,2' is not a point x,y,z") != std::string::npos);
  }

  TEST_CASE("export .glb --links of a file without links is bad input") {
    const auto dir = view_temp();
    const std::string lnav = (dir / "nolinks.lnav").string();
    REQUIRE(run_leapnav("build builtin:pillar -o " + lnav).exit_code == 0);
    const ViewRun r = run_leapnav("export " + lnav + " --links -o " + (dir / "x.glb").string());
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("nolinks.lnav: has no jump links") != std::string::npos);
  }

  TEST_CASE("view writes index.html, viewer.js, scene.glb and scene.js with the data") {
    const auto dir = view_temp();
    const std::string lnav = (dir / "demo_view.lnav").string();
    REQUIRE(run_leapnav("build builtin:demo --jump C1 --step 4 -o " + lnav).exit_code == 0);
    // a stand-in bundle: the command copies it as it is
    const auto bundle = dir / "bundle";
    std::filesystem::create_directories(bundle);
    std::ofstream(bundle / "index.html") << "<!doctype html><title>t</title>\n";
    std::ofstream(bundle / "viewer.js") << "// bundle\n";
    const auto out = dir / "demo_view";
    std::filesystem::remove_all(out);
    ViewRun r = run_leapnav("view " + lnav + " --viewer-dir " + bundle.string() + " -o " +
                            out.string() + " --scene builtin:demo");
    REQUIRE(r.exit_code == 0);
    CHECK(slurp(out / "viewer.js") == "// bundle\n");
    CHECK(slurp(out / "index.html").find("<title>t</title>") != std::string::npos);
    const std::string glb_bytes = slurp(out / "scene.glb");
    const leapnav::test::Glb glb = leapnav::test::read_glb(glb_bytes);
    REQUIRE(glb.error.empty());
    CHECK(glb.node_names() ==
          std::vector<std::string>{"level", "navmesh", "navmesh_edges", "links"});
    const std::string js = slurp(out / "scene.js");
    REQUIRE(js.rfind("window.LEAPNAV_DATA = {", 0) == 0);
    const auto data =
        nlohmann::json::parse(js.substr(js.find('{'), js.rfind('}') - js.find('{') + 1));
    CHECK(data["title"] == "demo_view.lnav");
    CHECK(data["nav"]["polygons"].size() == (*glb.node("navmesh"))["extras"]["polygons"]);
    CHECK(!data["nav"]["links"].empty());
    // the base64 copy decodes to the .glb's bytes
    const std::string b64 = data["glb"];
    CHECK(b64.size() == (glb_bytes.size() + 2) / 3 * 4);
    std::string decoded;
    std::uint32_t bits = 0;
    int held = 0;
    for (const char c : b64) {
      const std::string_view alphabet =
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      if (c == '=') break;
      bits = (bits << 6) | static_cast<std::uint32_t>(alphabet.find(c));
      held += 6;
      if (held >= 8) {
        held -= 8;
        decoded += static_cast<char>((bits >> held) & 0xFFU);
      }
    }
    CHECK(decoded == glb_bytes);

    r = run_leapnav("view " + lnav + " --viewer-dir " + (dir / "nothing").string() + " -o " +
                    out.string());
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("index.html: no such file; build the viewer with scripts/viewer.sh") !=
          std::string::npos);
  }
}

#endif  // LEAPNAV_CLI_PATH
