//===- ErrorOr.h - A value or an error message, without LLVM ----*- C++ -*-===//
//
// The parser, the interpreter and hlo-run build without LLVM (hlo-run is
// copied to machines with only the NVIDIA driver), so their fallible
// functions cannot return llvm::Expected or llvm::Error. They return these
// instead:
//  - ErrorOr<T>: a value, or the message of the error that prevented it;
//  - Status: success, or an error message (for functions without a value).
// Both are [[nodiscard]], so a caller cannot drop an error unread. Unlike
// llvm::Expected, an error that is never looked at does not abort. They
// throw nothing.
//
//   ErrorOr<Shape> shape = parseShapeText(text);
//   if (!shape)
//     return report(shape.error());
//   use(*shape);
//
// A function fails with `return makeError("message");` (or, where a
// Status is wanted as a value, `Status::failure("message")`); a failed
// Status converts to any ErrorOr<T>, to pass a failure on.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_SUPPORT_ERROROR_H
#define HLO_SUPPORT_ERROROR_H

#include <cassert>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace hlo {

/// An error message on its way into an ErrorOr<T> or a Status.
struct [[nodiscard]] ErrorMessage {
  std::string message;
};

/// The failure `message`, for any ErrorOr<T> or Status.
inline ErrorMessage makeError(std::string message) {
  return ErrorMessage{std::move(message)};
}

/// Success, or a failure and its message (which may be empty where the
/// failure was reported already).
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  static Status failure(std::string message) { return makeError(std::move(message)); }
  Status(ErrorMessage error) : failed(true), message(std::move(error.message)) {}

  /// Whether it succeeded.
  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  /// The failure's message; empty on success.
  const std::string &error() const { return message; }

private:
  Status() = default;

  bool failed = false;
  std::string message;
};

/// A `T`, or an error message saying why there is none. Converts from a T
/// (or what makes one), from makeError(...) and from a failed Status.
template <class T> class [[nodiscard]] ErrorOr {
public:
  template <typename U,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Status> &&
                                        !std::is_same_v<std::decay_t<U>, ErrorMessage> &&
                                        !std::is_same_v<std::decay_t<U>, ErrorOr> &&
                                        std::is_constructible_v<T, U &&>>>
  ErrorOr(U &&value) : storage(std::in_place_index<0>, std::forward<U>(value)) {}
  ErrorOr(ErrorMessage error) : storage(std::in_place_index<1>, std::move(error.message)) {}
  ErrorOr(const Status &failure) : storage(std::in_place_index<1>, failure.error()) {
    assert(!failure.ok() && "an ErrorOr made from a successful Status");
  }

  /// Whether there is a value (no error).
  bool ok() const { return storage.index() == 0; }
  explicit operator bool() const { return ok(); }
  /// The error message; empty when there is a value.
  const std::string &error() const {
    static const std::string none;
    return ok() ? none : std::get<1>(storage);
  }
  /// The failure as a Status (success when there is a value), to pass it
  /// on from a function that returns another type.
  Status status() const { return ok() ? Status::success() : Status::failure(error()); }

  T &operator*() & { return get(); }
  const T &operator*() const & { return get(); }
  T &&operator*() && { return std::move(get()); }
  T *operator->() { return &get(); }
  const T *operator->() const { return &get(); }

private:
  T &get() {
    assert(ok() && "no value in a failed ErrorOr");
    return std::get<0>(storage);
  }
  const T &get() const {
    assert(ok() && "no value in a failed ErrorOr");
    return std::get<0>(storage);
  }

  std::variant<T, std::string> storage;
};

} // namespace hlo

#endif // HLO_SUPPORT_ERROROR_H
