// Names and CLI exit codes of error codes.
#include "leapnav/core/result.hpp"

namespace leapnav {

std::string_view to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::InvalidArgument:
      return "invalid_argument";
    case ErrorCode::IoError:
      return "io_error";
    case ErrorCode::ParseError:
      return "parse_error";
    case ErrorCode::NonFinite:
      return "non_finite";
    case ErrorCode::IndexOutOfRange:
      return "index_out_of_range";
    case ErrorCode::EmptyInput:
      return "empty_input";
    case ErrorCode::CorruptFile:
      return "corrupt_file";
    case ErrorCode::UnsupportedVersion:
      return "unsupported_version";
    case ErrorCode::MemoryLimit:
      return "memory_limit";
    case ErrorCode::Cancelled:
      return "cancelled";
    case ErrorCode::Internal:
      return "internal";
  }
  return "unknown";
}

int exit_code(ErrorCode code) noexcept {
  return code == ErrorCode::Internal ? 3 : 1;
}

}  // namespace leapnav
