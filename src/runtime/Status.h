//===- Status.h - Error results of hlo-run's fallible calls -----*- C++ -*-===//
//
// Owns how errors travel through the runtime: a fallible call returns a
// Status (success, or a failure with its message) or an Expected<T> (a
// value, or a failure with its message) instead of filling a string
// out-parameter with the error. Both types are [[nodiscard]], so a
// result cannot be dropped unchecked. The runtime links no LLVM (see
// CMakeLists.txt), hence these small types in place of llvm::Error and
// llvm::Expected; they throw nothing and need only C++17.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_STATUS_H
#define HLO_RUNTIME_STATUS_H

#include <cassert>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace hlo::runtime {

/// Success, or a failure and the message that explains it (which may be
/// empty where the failure was reported already).
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  static Status failure(std::string message) {
    Status status;
    status.failed = true;
    status.message = std::move(message);
    return status;
  }

  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  /// The failure's message; empty on success.
  const std::string &error() const { return message; }

private:
  Status() = default;

  bool failed = false;
  std::string message;
};

/// A T, or a failure and its message. Converts from a T (or what makes
/// one) and from a failed Status, so a function returning Expected<T> can
/// `return value;` and `return Status::failure("...");`.
template <typename T> class [[nodiscard]] Expected {
public:
  template <typename U,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Status> &&
                                        !std::is_same_v<std::decay_t<U>, Expected> &&
                                        std::is_constructible_v<T, U &&>>>
  Expected(U &&value) : storage(std::in_place_index<0>, std::forward<U>(value)) {}
  Expected(Status failure) : storage(std::in_place_index<1>, failure.error()) {
    assert(!failure.ok() && "an Expected made from a successful Status");
  }

  bool ok() const { return storage.index() == 0; }
  explicit operator bool() const { return ok(); }
  /// The failure's message; empty when there is a value.
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
    assert(ok() && "reading the value of a failed Expected");
    return std::get<0>(storage);
  }
  const T &get() const {
    assert(ok() && "reading the value of a failed Expected");
    return std::get<0>(storage);
  }

  std::variant<T, std::string> storage;
};

} // namespace hlo::runtime

#endif // HLO_RUNTIME_STATUS_H
