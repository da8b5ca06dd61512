// The query file of `leapnav paths`: one 'x1 y1 z1 x2 y2 z2' per line, read as a stream (never
// held whole) with a bounded line length, so a device or pipe without line ends is refused.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "leapnav/core/result.hpp"
#include "leapnav/planning/path.hpp"

namespace leapnav::cli {

/// Longest accepted query line [units: bytes].
inline constexpr std::size_t kMaxQueryLineBytes = 4096;

/// Reads path requests from a file or stdin ("-"), a batch at a time.
class QueryReader {
 public:
  /// Opens `name` ("-" = stdin); IoError naming it when it cannot be opened or is a directory.
  [[nodiscard]] static Result<QueryReader> open(const std::string& name);

  /// Appends up to `max_count` requests to `out` (cleared first); an empty batch means the end.
  /// Blank lines and lines starting with '#' are skipped. Errors name the file and line:
  /// ParseError for a line that is not six numbers or is longer than kMaxQueryLineBytes,
  /// NonFinite for a nan, inf or out-of-float-range coordinate, IoError for a failed read.
  [[nodiscard]] Status next_batch(std::vector<plan::PathRequest>& out, std::size_t max_count);

  /// Lines read so far.
  [[nodiscard]] std::uint64_t lines() const { return line_; }

 private:
  QueryReader(std::string name, std::FILE* file, bool owned);
  /// The next physical line without its end; false at the end of the input.
  [[nodiscard]] Result<bool> next_line(std::string& line);
  [[nodiscard]] Error error_at(ErrorCode code, const std::string& message) const;

  std::string name_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  ///< unread bytes are buffer_[begin_, end_)
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t line_ = 0;
};

}  // namespace leapnav::cli
