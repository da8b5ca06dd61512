// The error channel for untrusted input: a [[nodiscard]] value-or-error result carrying an error
// code and a message that says where ("dungeon.obj:42: face index 17 out of range").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "leapnav/core/assert.hpp"

namespace leapnav {

/// What went wrong. Each code maps to one CLI exit code (see exit_code()).
enum class ErrorCode : std::uint8_t {
  InvalidArgument,     ///< a configuration, option or query value out of its documented range
  IoError,             ///< a file could not be opened, read or written
  ParseError,          ///< malformed text input (OBJ, JSON)
  NonFinite,           ///< a NaN or infinite number in the input
  IndexOutOfRange,     ///< an index in the input refers to nothing
  EmptyInput,          ///< the input holds nothing to work on (e.g. an OBJ without faces)
  CorruptFile,         ///< a binary file failed its checks (magic, checksum, counts)
  UnsupportedVersion,  ///< a binary file written by a newer format version
  MemoryLimit,         ///< the work would need more memory than allowed; refused before allocating
  Cancelled,           ///< the caller cancelled through BuildContext
  Internal,            ///< a bug: an invariant of our own output does not hold
};

/// A stable, lower-case name for an error code ("parse_error").
[[nodiscard]] std::string_view to_string(ErrorCode code) noexcept;

/// The CLI exit code for an error: 1 bad input, 3 internal error (0 ok and 2 usage are the CLI's).
[[nodiscard]] int exit_code(ErrorCode code) noexcept;

/// An error code with a message that names the place (file:line, stage, field).
struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;
};

/// Builds an Error.
[[nodiscard]] inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

/// A value of type T, or an Error.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::in_place_index<0>, std::move(value)) {}      // NOLINT(implicit)
  Result(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(implicit)

  [[nodiscard]] bool ok() const noexcept { return storage_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  [[nodiscard]] T& value() & {
    LEAPNAV_ASSERT(ok(), "value() of an error result");
    return std::get<0>(storage_);
  }
  [[nodiscard]] const T& value() const& {
    LEAPNAV_ASSERT(ok(), "value() of an error result");
    return std::get<0>(storage_);
  }
  [[nodiscard]] T&& value() && {
    LEAPNAV_ASSERT(ok(), "value() of an error result");
    return std::get<0>(std::move(storage_));
  }
  [[nodiscard]] const Error& error() const& {
    LEAPNAV_ASSERT(!ok(), "error() of a value result");
    return std::get<1>(storage_);
  }
  [[nodiscard]] Error&& error() && {
    LEAPNAV_ASSERT(!ok(), "error() of a value result");
    return std::get<1>(std::move(storage_));
  }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> storage_;
};

/// Success or an Error, for operations with no value.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT(implicit)

  [[nodiscard]] bool ok() const noexcept { return !error_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  [[nodiscard]] const Error& error() const& {
    LEAPNAV_ASSERT(!ok(), "error() of a success result");
    return *error_;
  }
  [[nodiscard]] Error&& error() && {
    LEAPNAV_ASSERT(!ok(), "error() of a success result");
    return std::move(*error_);
  }

 private:
  std::optional<Error> error_;
};

using Status = Result<void>;

}  // namespace leapnav

#define LEAPNAV_CONCAT_INNER(a, b) a##b
#define LEAPNAV_CONCAT(a, b) LEAPNAV_CONCAT_INNER(a, b)

/// Evaluates a Status expression and returns its error from the enclosing function.
#define LEAPNAV_TRY(expr)                                                         \
  do {                                                                            \
    auto leapnav_try_status_ = (expr);                                            \
    if (!leapnav_try_status_.ok()) return std::move(leapnav_try_status_).error(); \
  } while (false)

/// Evaluates a Result<T> expression; on error returns it, else moves the value into `lhs`.
// note: lhs may be a declaration ("auto x"), so it cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define LEAPNAV_TRY_ASSIGN(lhs, expr)                                        \
  auto LEAPNAV_CONCAT(leapnav_try_result_, __LINE__) = (expr);               \
  if (!LEAPNAV_CONCAT(leapnav_try_result_, __LINE__).ok())                   \
    return std::move(LEAPNAV_CONCAT(leapnav_try_result_, __LINE__)).error(); \
  lhs = std::move(LEAPNAV_CONCAT(leapnav_try_result_, __LINE__)).value()
// NOLINTEND(bugprone-macro-parentheses)
