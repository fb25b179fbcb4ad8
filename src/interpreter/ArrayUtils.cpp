//===- ArrayUtils.cpp - Element storage and index helpers ----------------===//
#include "ArrayUtils.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <thread>

namespace hlo::interp {

void fail(const HloInstruction &instruction, const std::string &message) {
  throw InterpreterError(&instruction, message);
}

ElementClass elementClass(PrimitiveType type) {
  if (type == PrimitiveType::Pred)
    return ElementClass::Pred;
  if (isSignedIntegral(type))
    return ElementClass::Signed;
  if (isUnsignedIntegral(type))
    return ElementClass::Unsigned;
  if (isComplex(type))
    return ElementClass::Complex;
  return ElementClass::Float;
}

IntegerWrap::IntegerWrap(PrimitiveType type)
    : isPred(type == PrimitiveType::Pred), isSigned(isSignedIntegral(type)),
      width(isPred ? 1 : primitiveBitWidth(type)), mask(widthMask(width)) {}

std::vector<int64_t> freeDimensions(int64_t rank, const std::vector<int64_t> &batch,
                                    const std::vector<int64_t> &contracting) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) == contracting.end())
      dims.push_back(d);
  return dims;
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * dims[i + 1];
  return strides;
}

Literal filledWith(const Shape &shape, const Literal &scalar, int64_t index) {
  Literal result(shape);
  if (!scalar.intData().empty()) {
    std::fill(result.intData().begin(), result.intData().end(),
              scalar.intData()[index]);
    return result;
  }
  std::fill(result.realData().begin(), result.realData().end(),
            scalar.realData()[index]);
  if (!scalar.imagData().empty())
    std::fill(result.imagData().begin(), result.imagData().end(),
              scalar.imagData()[index]);
  return result;
}

Literal packLeaves(const Shape &shape, std::vector<Literal> leaves) {
  if (!shape.isTuple())
    return std::move(leaves[0]);
  return Literal::tuple(std::move(leaves));
}

std::vector<int64_t> physicalOffsets(const Shape &shape) {
  const std::vector<int64_t> &dims = shape.dimensions();
  // Physical strides: the minor-most dimension has stride 1.
  std::vector<int64_t> strides(dims.size(), 1);
  int64_t stride = 1;
  for (int64_t dim : shape.layoutOrDefault().minorToMajor) {
    strides[dim] = stride;
    stride *= dims[dim];
  }
  std::vector<int64_t> offsets(std::max<int64_t>(shape.elementCount(), 0));
  forEachIndex(dims, [&](const std::vector<int64_t> &index, int64_t linear) {
    offsets[linear] = linearIndex(index, strides);
  });
  return offsets;
}

int64_t indexValue(const Literal &literal, int64_t i) {
  int64_t value = literal.intData()[i];
  // A u64 past 2^63 is past every end, not negative.
  if (literal.shape().elementType() == PrimitiveType::U64 && value < 0)
    return std::numeric_limits<int64_t>::max();
  return value;
}

void forEachTask(int64_t tasks, double work, const std::function<void(int64_t)> &task) {
  unsigned threads = work < 4e6 ? 1 : std::max(1u, std::thread::hardware_concurrency());
  std::atomic<int64_t> next{0};
  auto worker = [&] {
    for (int64_t t = next++; t < tasks; t = next++)
      task(t);
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads && t < tasks; ++t)
    helpers.emplace_back(worker);
  worker();
  for (std::thread &helper : helpers)
    helper.join();
}

} // namespace hlo::interp
