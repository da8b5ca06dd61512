// Query file reading: a 64 KiB buffer refilled with fread, lines split with memchr, numbers read
// with io::parse_decimal (the OBJ reader's rules).
#include "query_input.hpp"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "leapnav/io/text_format.hpp"

namespace leapnav::cli {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{64} << 10U;

int no_close(std::FILE* /*unused*/) {
  return 0;
}

}  // namespace

QueryReader::QueryReader(std::string name, std::FILE* file, bool owned)
    : name_(std::move(name)),
      file_(file, owned ? &std::fclose : &no_close),
      buffer_(kBufferBytes) {}

Result<QueryReader> QueryReader::open(const std::string& name) {
  if (name == "-") return QueryReader("stdin", stdin, false);
  std::error_code ec;
  if (std::filesystem::is_directory(name, ec))
    return make_error(ErrorCode::IoError, name + ": is a directory, not a file");
  std::FILE* file = std::fopen(name.c_str(), "rb");
  if (file == nullptr)
    return make_error(ErrorCode::IoError,
                      name + ": cannot open (" + std::string(std::strerror(errno)) + ")");
  return QueryReader(name, file, true);
}

Error QueryReader::error_at(ErrorCode code, const std::string& message) const {
  return make_error(code, name_ + ":" + std::to_string(line_) + ": " + message);
}

Result<bool> QueryReader::next_line(std::string& line) {
  line.clear();
  for (;;) {
    const char* first = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(first, '\n', end_ - begin_));
    const std::size_t take =
        newline != nullptr ? static_cast<std::size_t>(newline - first) : end_ - begin_;
    if (line.size() + take > kMaxQueryLineBytes) {
      ++line_;
      return error_at(
          ErrorCode::ParseError,
          "line longer than " + std::to_string(kMaxQueryLineBytes) + " bytes; not a query file");
    }
    line.append(first, take);
    if (newline != nullptr) {
      begin_ += take + 1;
      ++line_;
      return true;
    }
    begin_ = end_ = 0;
    if (eof_) {
      if (line.empty()) return false;
      ++line_;
      return true;
    }
    end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
    if (end_ < buffer_.size()) {
      if (std::ferror(file_.get()) != 0)
        return make_error(ErrorCode::IoError,
                          name_ + ": read error (" + std::string(std::strerror(errno)) + ")");
      eof_ = true;
    }
  }
}

Status QueryReader::next_batch(std::vector<plan::PathRequest>& out, std::size_t max_count) {
  out.clear();
  std::string line;
  while (out.size() < max_count) {
    LEAPNAV_TRY_ASSIGN(const bool more, next_line(line));
    if (!more) break;
    std::string_view rest = line;
    std::array<float, 6> values{};
    std::size_t count = 0;
    bool malformed = false;
    bool comment = false;
    for (;;) {
      const std::size_t start = rest.find_first_not_of(" \t\r");
      if (start == std::string_view::npos) break;
      rest.remove_prefix(start);
      const std::size_t stop = std::min(rest.find_first_of(" \t\r"), rest.size());
      const std::string_view token = rest.substr(0, stop);
      rest.remove_prefix(stop);
      if (count == 0 && token[0] == '#') {
        comment = true;
        break;
      }
      double value = 0.0;
      const io::DecimalParse parsed = io::parse_decimal(token, value);
      if (parsed == io::DecimalParse::Malformed || count == values.size()) {
        malformed = true;
        break;
      }
      if (parsed == io::DecimalParse::Overflow || !std::isfinite(value) ||
          std::abs(value) > static_cast<double>(std::numeric_limits<float>::max())) {
        std::string shown(token.substr(0, 40));
        return error_at(ErrorCode::NonFinite, "coordinate '" + shown + "' is not a finite number");
      }
      values[count++] = static_cast<float>(value);
    }
    if (comment || (count == 0 && !malformed)) continue;
    if (malformed || count != values.size())
      return error_at(ErrorCode::ParseError, "expected six numbers 'x1 y1 z1 x2 y2 z2'");
    out.push_back({{values[0], values[1], values[2]}, {values[3], values[4], values[5]}});
  }
  return {};
}

}  // namespace leapnav::cli
