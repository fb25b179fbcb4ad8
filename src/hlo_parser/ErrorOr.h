//===- ErrorOr.h - A value or an error message, without LLVM ----*- C++ -*-===//
//
// The parser and the interpreter build without LLVM (hlo-run links no
// LLVM), so their fallible functions cannot return llvm::Expected or
// llvm::Error. They return these instead:
//  - ErrorOr<T>: a value, or the message of the error that prevented it;
//  - Status: success, or an error message (for functions without a value).
// Both are [[nodiscard]], so a caller cannot drop an error unread. Unlike
// llvm::Expected, an error that is never looked at does not abort.
//
//   ErrorOr<Shape> shape = parseShapeText(text);
//   if (!shape)
//     return report(shape.error());
//   use(*shape);
//
// A function fails with `return makeError("message");`.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_ERROROR_H
#define HLO_PARSER_ERROROR_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace hlo {

/// An error message on its way into an ErrorOr<T> or a Status.
struct [[nodiscard]] ErrorMessage {
  std::string message;
};

/// The failure `message`, for any ErrorOr<T> or Status.
inline ErrorMessage makeError(std::string message) {
  return ErrorMessage{std::move(message)};
}

/// A `T`, or an error message saying why there is none.
template <class T> class [[nodiscard]] ErrorOr {
public:
  ErrorOr(const T &value) : value(value) {}
  ErrorOr(T &&value) : value(std::move(value)) {}
  ErrorOr(ErrorMessage error) : message(std::move(error.message)) {}

  /// Whether there is a value (no error).
  explicit operator bool() const { return value.has_value(); }

  T &operator*() {
    assert(value && "no value in a failed ErrorOr");
    return *value;
  }
  const T &operator*() const {
    assert(value && "no value in a failed ErrorOr");
    return *value;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  /// The error message; only for a result without a value.
  const std::string &error() const {
    assert(!value && "no error in a successful ErrorOr");
    return message;
  }

private:
  std::optional<T> value;
  std::string message;
};

/// Success, or an error message.
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  Status(ErrorMessage error) : failed(true), message(std::move(error.message)) {}

  /// Whether it succeeded.
  explicit operator bool() const { return !failed; }

  /// The error message; only for a failure.
  const std::string &error() const {
    assert(failed && "no error in a successful Status");
    return message;
  }

private:
  Status() = default;

  bool failed = false;
  std::string message;
};

} // namespace hlo

#endif // HLO_PARSER_ERROROR_H
