//===- InputGenerator.cpp - Deterministic test inputs ---------------------===//
#include "InputGenerator.h"

#include "ArrayUtils.h"
#include "ScatterIndexInputs.h"

#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/HloComputation.h"
#include "hlo_parser/OpAttributes.h"
#include "support/SplitMix64.h"

#include <cmath>
#include <optional>

namespace hlo::interp {
namespace {

enum class Use { Plain, Positive, Index };

bool passesThrough(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::Convert: case HloOpcode::Bitcast: case HloOpcode::Reshape:
  case HloOpcode::Broadcast: case HloOpcode::Copy: case HloOpcode::Transpose:
  case HloOpcode::Slice: case HloOpcode::Reverse: case HloOpcode::Concatenate:
    return true;
  default:
    return false;
  }
}

/// The most constraining use of `value`, looking `depth` users deep.
/// The parameter of the computation a fusion or call passes its operand
/// `index` to, if any.
const HloInstruction *calledParameter(const HloInstruction &user, int64_t index) {
  const HloComputation *called = user.opcode() == HloOpcode::Fusion
                                     ? user.fusedComputation()
                                     : toApply(user);
  if (!called || index >= called->parameterCount())
    return nullptr;
  return called->parameter(index);
}

Use useOf(const HloInstruction &value, int depth) {
  if (depth > 8)
    return Use::Plain;
  Use use = Use::Plain;
  for (const HloInstruction *user : value.users()) {
    for (int64_t i = 0; i < user->operandCount(); ++i) {
      if (user->operand(i) != &value)
        continue;
      Use found = Use::Plain;
      switch (user->opcode()) {
      case HloOpcode::Log: case HloOpcode::Sqrt: case HloOpcode::Rsqrt:
      case HloOpcode::Log1p: case HloOpcode::Acosh:
        found = Use::Positive;
        break;
      case HloOpcode::Power: // the base
        found = i == 0 ? Use::Positive : Use::Plain;
        break;
      case HloOpcode::Divide: // the divisor
      case HloOpcode::Remainder:
        found = i == 1 ? Use::Positive : Use::Plain;
        break;
      case HloOpcode::DynamicSlice:
        found = i >= 1 ? Use::Index : Use::Plain;
        break;
      case HloOpcode::DynamicUpdateSlice:
        found = i >= 2 ? Use::Index : Use::Plain;
        break;
      case HloOpcode::Gather:
        found = i == 1 ? Use::Index : Use::Plain;
        break;
      case HloOpcode::Scatter:
        found = i == (user->operandCount() - 1) / 2 ? Use::Index : Use::Plain;
        break;
      case HloOpcode::Fusion:
      case HloOpcode::Call:
        if (const HloInstruction *parameter = calledParameter(*user, i))
          found = useOf(*parameter, depth + 1);
        break;
      default:
        if (passesThrough(user->opcode()))
          found = useOf(*user, depth + 1);
        break;
      }
      if (found == Use::Index)
        return Use::Index;
      if (found == Use::Positive)
        use = Use::Positive;
    }
  }
  return use;
}

/// The identity of output `index` of `reducer`, if it is a plain add,
/// multiply, and, or, xor, maximum or minimum of its parameters.
std::optional<double> reducerIdentity(const HloComputation &reducer, int64_t index,
                                      PrimitiveType type) {
  if (reducer.isDeclaration())
    return std::nullopt;
  const HloInstruction *root = reducer.root();
  int64_t arity = reducer.parameterCount() / 2;
  if (root->opcode() == HloOpcode::Tuple) {
    if (index >= root->operandCount())
      return std::nullopt;
    root = root->operand(index);
  }
  auto isParameter = [&](const HloInstruction *operand, int64_t number) {
    return operand->opcode() == HloOpcode::Parameter && operand->parameterNumber() == number;
  };
  if (root->operandCount() != 2 ||
      !((isParameter(root->operand(0), index) && isParameter(root->operand(1), index + arity)) ||
        (isParameter(root->operand(1), index) && isParameter(root->operand(0), index + arity))))
    return std::nullopt;
  bool isFloat = isFloatingPoint(type);
  int bits = primitiveBitWidth(type);
  bool isUnsigned = isUnsignedIntegral(type) || type == PrimitiveType::Pred;
  double lowest = isFloat ? -INFINITY
                  : isUnsigned ? 0.0
                               : -std::ldexp(1.0, bits - 1);
  double highest = isFloat ? INFINITY
                   : type == PrimitiveType::Pred ? 1.0
                   : isUnsigned ? std::ldexp(1.0, bits) - 1
                                : std::ldexp(1.0, bits - 1) - 1;
  // Extremes of 64-bit integers are not doubles: leave those random.
  bool exact = isFloat || bits < 53;
  switch (root->opcode()) {
  case HloOpcode::Maximum:
  case HloOpcode::Minimum:
    if (!exact)
      return std::nullopt;
    break;
  case HloOpcode::And:
    if (!exact && isUnsigned)
      return std::nullopt;
    break;
  default:
    break;
  }
  switch (root->opcode()) {
  case HloOpcode::Add:
  case HloOpcode::Or:
  case HloOpcode::Xor:
    return 0.0;
  case HloOpcode::Multiply:
    return 1.0;
  case HloOpcode::And:
    return type == PrimitiveType::Pred || isUnsigned ? highest : -1.0;
  case HloOpcode::Maximum:
    return lowest;
  case HloOpcode::Minimum:
    return highest;
  default:
    return std::nullopt;
  }
}

/// The identity `value` must be when it is a reduction's init (HLO requires
/// it: a reduction may apply its init any number of times).
std::optional<double> identityOfInitUse(const HloInstruction &value, int depth) {
  if (depth > 8 || !value.shape().isArray())
    return std::nullopt;
  for (const HloInstruction *user : value.users()) {
    for (int64_t i = 0; i < user->operandCount(); ++i) {
      if (user->operand(i) != &value)
        continue;
      switch (user->opcode()) {
      case HloOpcode::Reduce:
      case HloOpcode::ReduceWindow: {
        int64_t arity = user->operandCount() / 2;
        const HloComputation *reducer = toApply(*user);
        if (i >= arity && reducer)
          if (auto identity = reducerIdentity(*reducer, i - arity, value.shape().elementType()))
            return identity;
        break;
      }
      case HloOpcode::Fusion:
      case HloOpcode::Call: {
        if (const HloInstruction *parameter = calledParameter(*user, i))
          if (auto identity = identityOfInitUse(*parameter, depth + 1))
            return identity;
        break;
      }
      default:
        // Through conversions and data movement (an init converted to the
        // reducer's type).
        if (passesThrough(user->opcode()))
          if (auto identity = identityOfInitUse(*user, depth + 1))
            return identity;
        break;
      }
    }
  }
  return std::nullopt;
}

} // namespace

InputRange inputRangeFor(const HloInstruction &parameter) {
  if (std::optional<double> identity = identityOfInitUse(parameter, 0))
    return {*identity, *identity};
  PrimitiveType type = parameter.shape().isArray() ? parameter.shape().elementType()
                                                   : PrimitiveType::F32;
  switch (useOf(parameter, 0)) {
  case Use::Index:
    return {0, 16};
  case Use::Positive:
    return isIntegral(type) ? InputRange{1, 20} : InputRange{0.25, 2};
  case Use::Plain:
    break;
  }
  if (isUnsignedIntegral(type))
    return {0, 40};
  if (isIntegral(type))
    return {-20, 20};
  if (type == PrimitiveType::F8E8M0FNU) // powers of two, no zero or sign:
    return {0.125, 8};                  // [-1, 1] would be half NaNs
  return {-1, 1};
}

Literal generateInput(const Shape &shape, InputRange range, uint64_t seed) {
  if (shape.isTuple()) {
    std::vector<Literal> elements;
    for (size_t i = 0; i < shape.tupleShapes().size(); ++i)
      elements.push_back(generateInput(shape.tupleShapes()[i], range, seed * 31 + i + 1));
    return Literal::tuple(std::move(elements));
  }
  Literal result(shape);
  uint64_t state = seed;
  PrimitiveType type = shape.elementType();
  int64_t count = result.elementCount();
  if (range.low == range.high) { // one value (a reduction's identity)
    for (int64_t i = 0; i < count; ++i) {
      if (isFloatingPoint(type) || isComplex(type))
        result.realData()[i] = range.low;
      else
        result.intData()[i] = wrapInteger(static_cast<int64_t>(range.low), type);
    }
    return result;
  }
  if (type == PrimitiveType::Pred) {
    for (int64_t i = 0; i < count; ++i)
      result.intData()[i] = splitmix64(state) >> 63;
    return result;
  }
  if (isIntegral(type)) {
    int64_t low = static_cast<int64_t>(std::ceil(range.low));
    int64_t high = static_cast<int64_t>(std::floor(range.high));
    uint64_t span = static_cast<uint64_t>(high - low) + 1;
    for (int64_t i = 0; i < count; ++i)
      result.intData()[i] = wrapInteger(low + static_cast<int64_t>(splitmix64(state) % span), type);
    return result;
  }
  PrimitiveType component = isComplex(type) ? complexComponentType(type) : type;
  for (int64_t i = 0; i < count; ++i) {
    result.realData()[i] = roundToFloatType(
        range.low + (range.high - range.low) * unitInterval(state), component);
    if (isComplex(type))
      result.imagData()[i] = roundToFloatType(
          range.low + (range.high - range.low) * unitInterval(state), component);
  }
  return result;
}

Literal generateInputFor(const HloInstruction &parameter, const Shape &shape, uint64_t seed) {
  if (std::optional<Literal> indices = promisedScatterIndices(parameter, shape, seed))
    return std::move(*indices);
  return generateInput(shape, inputRangeFor(parameter), seed);
}

} // namespace hlo::interp
