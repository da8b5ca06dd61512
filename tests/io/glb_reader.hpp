// A small binary glTF reader for tests, written from the glTF 2.0 specification independently of
// the exporter's library: it checks the container (magic, version, total length, 4-byte aligned
// JSON and BIN chunks), parses the JSON with nlohmann and decodes float and uint32 accessors from
// the BIN chunk, checking every view and accessor lies inside its buffer.
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace leapnav::test {

struct Glb {
  nlohmann::json json;
  std::string bin;
  std::string error;  ///< empty when the container and every accessor are well formed

  /// The root nodes' names in scene order.
  [[nodiscard]] std::vector<std::string> node_names() const {
    std::vector<std::string> out;
    for (const auto& n : json["scenes"][0]["nodes"])
      out.push_back(json["nodes"][n.get<int>()]["name"]);
    return out;
  }
  /// The node's (only) primitive.
  [[nodiscard]] const nlohmann::json* primitive(const std::string& name) const {
    for (const auto& n : json["nodes"])
      if (n["name"] == name) return &json["meshes"][n["mesh"].get<int>()]["primitives"][0];
    return nullptr;
  }
  [[nodiscard]] const nlohmann::json* node(const std::string& name) const {
    for (const auto& n : json["nodes"])
      if (n["name"] == name) return &n;
    return nullptr;
  }
  /// Accessor `index` decoded as floats (component type 5126) or uint32 (5125) widened to double.
  [[nodiscard]] std::vector<double> values(int index) const {
    const auto& a = json["accessors"][index];
    const auto& v = json["bufferViews"][a["bufferView"].get<int>()];
    const std::size_t offset = v.value("byteOffset", 0U) + a.value("byteOffset", 0U);
    const std::size_t components = a["type"] == "SCALAR" ? 1 : (a["type"] == "VEC3" ? 3 : 4);
    const std::size_t n = a["count"].get<std::size_t>() * components;
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (a["componentType"] == 5126) {
        float f = 0;
        std::memcpy(&f, bin.data() + offset + 4 * i, 4);
        out[i] = f;
      } else {
        std::uint32_t u = 0;
        std::memcpy(&u, bin.data() + offset + 4 * i, 4);
        out[i] = u;
      }
    }
    return out;
  }
  [[nodiscard]] std::size_t count(int accessor) const {
    return json["accessors"][accessor]["count"].get<std::size_t>();
  }
};

inline std::uint32_t read_u32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

inline Glb read_glb(const std::string& bytes) {
  Glb glb;
  if (bytes.size() < 20) return glb.error = "shorter than a GLB header", glb;
  if (bytes.compare(0, 4, "glTF") != 0) return glb.error = "bad magic", glb;
  if (read_u32(bytes, 4) != 2) return glb.error = "version is not 2", glb;
  if (read_u32(bytes, 8) != bytes.size()) return glb.error = "length field != file size", glb;
  const std::uint32_t json_length = read_u32(bytes, 12);
  if (read_u32(bytes, 16) != 0x4E4F534AU) return glb.error = "first chunk is not JSON", glb;
  if (json_length % 4 != 0 || 20 + std::size_t{json_length} > bytes.size())
    return glb.error = "bad JSON chunk length", glb;
  glb.json = nlohmann::json::parse(bytes.substr(20, json_length), nullptr, false);
  if (glb.json.is_discarded()) return glb.error = "JSON chunk does not parse", glb;
  const std::size_t bin_at = 20 + std::size_t{json_length};
  if (bin_at < bytes.size()) {
    if (bin_at + 8 > bytes.size()) return glb.error = "truncated BIN chunk header", glb;
    const std::uint32_t bin_length = read_u32(bytes, bin_at);
    if (read_u32(bytes, bin_at + 4) != 0x004E4942U) return glb.error = "second chunk not BIN", glb;
    if (bin_length % 4 != 0 || bin_at + 8 + bin_length != bytes.size())
      return glb.error = "bad BIN chunk length", glb;
    glb.bin = bytes.substr(bin_at + 8, bin_length);
  }
  if (glb.json["asset"]["version"] != "2.0") return glb.error = "asset.version is not 2.0", glb;
  const auto& buffers = glb.json["buffers"];
  if (buffers.size() != 1 || buffers[0].contains("uri") ||
      buffers[0]["byteLength"].get<std::size_t>() > glb.bin.size())
    return glb.error = "expected one buffer inside the BIN chunk", glb;
  for (const auto& v : glb.json["bufferViews"])
    if (v.value("byteOffset", 0U) + v["byteLength"].get<std::size_t>() > glb.bin.size())
      return glb.error = "a buffer view exceeds the buffer", glb;
  for (const auto& a : glb.json["accessors"]) {
    const auto& v = glb.json["bufferViews"][a["bufferView"].get<int>()];
    const std::size_t components = a["type"] == "SCALAR" ? 1 : (a["type"] == "VEC3" ? 3 : 4);
    if (a["count"].get<std::size_t>() * components * 4 + a.value("byteOffset", 0U) >
        v["byteLength"].get<std::size_t>())
      return glb.error = "an accessor exceeds its view", glb;
  }
  return glb;
}

}  // namespace leapnav::test
