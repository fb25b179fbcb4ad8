//===- ArrayUtils.h - Element storage and index helpers --------*- C++ -*-===//
//
// Owns the small vocabulary the interpreter's op files share: which storage
// an element type uses in a Literal, rounding/wrapping a computed value to
// its element type, row-major strides and multi-index walks, copying one
// element between arrays, physical (layout) order, InterpreterError, and
// running independent tasks on every core.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_ARRAYUTILS_H
#define HLO_INTERPRETER_ARRAYUTILS_H

#include "hlo_parser/HloInstruction.h"
#include "hlo_parser/Literal.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hlo::interp {

/// Values flow between instructions as shared, immutable literals so that
/// parameters, tuples and get-tuple-element share big arrays.
using ValuePtr = std::shared_ptr<const Literal>;

/// An error while evaluating `instruction` (null when not tied to one).
class InterpreterError : public std::runtime_error {
public:
  InterpreterError(const HloInstruction *instruction, const std::string &message)
      : std::runtime_error(message), instruction(instruction) {}
  const HloInstruction *instruction;
};

/// An array larger than the evaluator's --max-elements: the reference is
/// out of reach rather than wrong (hlo-run --skip-oversized skips it).
class InterpreterLimitError : public InterpreterError {
public:
  using InterpreterError::InterpreterError;
};

[[noreturn]] void fail(const HloInstruction &instruction,
                       const std::string &message);

enum class ElementClass { Pred, Signed, Unsigned, Float, Complex };
ElementClass elementClass(PrimitiveType type);

/// The low `width` bits set.
inline uint64_t widthMask(int width) {
  return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

/// Wraps 64-bit values to an integer type (two's complement, sign- or
/// zero-extended into 64 bits; pred becomes 0/1), the type's width decided
/// once for loops over whole arrays.
class IntegerWrap {
public:
  explicit IntegerWrap(PrimitiveType type);
  int64_t operator()(uint64_t value) const {
    if (isPred)
      return value != 0;
    value &= mask;
    if (isSigned && width < 64 && ((value >> (width - 1)) & 1))
      value |= ~mask;
    return static_cast<int64_t>(value);
  }

private:
  bool isPred;
  bool isSigned;
  int width;
  uint64_t mask;
};

/// `value` wrapped to the integer `type` (see IntegerWrap).
inline int64_t wrapInteger(int64_t value, PrimitiveType type) {
  return IntegerWrap(type)(static_cast<uint64_t>(value));
}

/// The dimensions in [0, rank) in neither `batch` nor `contracting`, in
/// order: a dot operand's free dimensions.
std::vector<int64_t> freeDimensions(int64_t rank, const std::vector<int64_t> &batch,
                                    const std::vector<int64_t> &contracting);

/// Row-major strides of `dims`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &dims);

/// Row-major linear index of `index` given `strides`.
inline int64_t linearIndex(const std::vector<int64_t> &index,
                           const std::vector<int64_t> &strides) {
  int64_t linear = 0;
  for (size_t i = 0; i < index.size(); ++i)
    linear += index[i] * strides[i];
  return linear;
}

/// Calls `visit(index, linear)` for every multi-index of `dims` in row-major
/// order.
template <typename Visit>
void forEachIndex(const std::vector<int64_t> &dims, Visit visit) {
  int64_t count = 1;
  for (int64_t d : dims)
    count *= d;
  if (count <= 0)
    return;
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    visit(index, linear);
    for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
      if (++index[d] < dims[d])
        break;
      index[d] = 0;
    }
  }
}

/// dst[dstIndex] = src[srcIndex]; both of the same element class.
inline void copyElement(Literal &dst, int64_t dstIndex, const Literal &src,
                        int64_t srcIndex) {
  if (!src.intData().empty()) {
    dst.intData()[dstIndex] = src.intData()[srcIndex];
    return;
  }
  dst.realData()[dstIndex] = src.realData()[srcIndex];
  if (!src.imagData().empty())
    dst.imagData()[dstIndex] = src.imagData()[srcIndex];
}

/// A literal of `shape` with every element equal to element `index` of
/// `scalar`.
Literal filledWith(const Shape &shape, const Literal &scalar, int64_t index = 0);

/// The result of an instruction with one array per output: the array
/// itself, or a tuple of `leaves` when `shape` is a tuple.
Literal packLeaves(const Shape &shape, std::vector<Literal> leaves);

/// The physical position (linear offset in memory under the shape's
/// layout) of every logical row-major element: result[logical] = physical.
std::vector<int64_t> physicalOffsets(const Shape &shape);

/// The operand's data as signed 64-bit index values (dynamic-slice starts,
/// gather and scatter indices); a u64 of 2^63 or more saturates to
/// INT64_MAX (out of range, as it is).
int64_t indexValue(const Literal &literal, int64_t i);

/// Runs `task(t)` for every t in [0, tasks): on this thread when `work`
/// (multiply-adds, say) is small, else on every core, tasks handed out in
/// order. Tasks must write disjoint results.
void forEachTask(int64_t tasks, double work, const std::function<void(int64_t)> &task);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_ARRAYUTILS_H
