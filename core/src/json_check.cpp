// JSON text checked by one SAX pass that names duplicate keys and overflowing numbers by their
// key path (see json_check.hpp).
#include "leapnav/core/json_check.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace leapnav {
namespace {

using Json = nlohmann::json;

/// nlohmann's exception id for a number the lexer read but a double cannot hold ("1e400").
constexpr int kNumberOverflow = 406;

/// Drops nlohmann's "[json.exception.parse_error.101] " prefix from a message.
std::string without_prefix(std::string what) {
  if (const std::size_t close = what.find("] ");
      what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
    what.erase(0, close + 2);
  return what;
}

/// Walks the text once, tracking the key path and each open object's keys; stops at the first
/// problem and keeps its message.
class JsonChecker : public nlohmann::json_sax<Json> {
 public:
  explicit JsonChecker(std::string_view source) : source_(source) {}

  bool null() override { return true; }
  bool boolean(bool /*unused*/) override { return true; }
  bool number_integer(number_integer_t /*unused*/) override { return true; }
  bool number_unsigned(number_unsigned_t /*unused*/) override { return true; }
  bool number_float(number_float_t /*unused*/, const string_t& /*unused*/) override { return true; }
  bool string(string_t& /*unused*/) override { return true; }
  bool binary(binary_t& /*unused*/) override { return true; }
  bool start_object(std::size_t /*unused*/) override {
    frames_.push_back(Frame{});
    return true;
  }
  bool key(string_t& name) override {
    Frame& frame = frames_.back();
    frame.name = name;
    if (!frame.keys.insert(name).second) {
      error_ = make_error(ErrorCode::InvalidArgument,
                          std::string(source_) + ": " + path() + " is given twice");
      return false;
    }
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return true;
  }
  bool start_array(std::size_t /*unused*/) override {
    frames_.push_back(Frame{"[]", {}});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return true;
  }
  bool parse_error(std::size_t /*unused*/, const std::string& token,
                   const nlohmann::detail::exception& ex) override {
    if (ex.id == kNumberOverflow) {
      const std::string where = path();
      error_ = make_error(ErrorCode::InvalidArgument,
                          std::string(source_) + ": " + (where.empty() ? "a value" : where) +
                              " = " + token + " is out of range (not representable as a double)");
    } else {
      error_ = make_error(ErrorCode::ParseError,
                          std::string(source_) + ": malformed JSON: " + without_prefix(ex.what()));
    }
    return false;
  }

  /// The first problem found, if any.
  [[nodiscard]] const std::optional<Error>& error() const { return error_; }

 private:
  struct Frame {
    std::string name;                      ///< the current key, or "[]" in an array
    std::unordered_set<std::string> keys;  ///< an object's keys so far
  };

  [[nodiscard]] std::string path() const {
    std::string out;
    for (const Frame& frame : frames_) {
      if (!out.empty()) out += '.';
      out += frame.name;
    }
    return out;
  }

  std::string_view source_;
  std::vector<Frame> frames_;
  std::optional<Error> error_;
};

}  // namespace

Status check_json_text(std::string_view text, std::string_view source) {
  JsonChecker checker(source);
  const bool clean = Json::sax_parse(text.begin(), text.end(), &checker);
  if (checker.error()) return *checker.error();
  if (!clean) return make_error(ErrorCode::ParseError, std::string(source) + ": malformed JSON");
  return {};
}

}  // namespace leapnav
