//===- ElementMagnitudes.cpp - The scale each element's error has ---------===//
#include "ElementMagnitudes.h"

#include "interpreter/ElementwiseOps.h"
#include "interpreter/Ops.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/HloModule.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <unordered_map>

namespace hlo::runtime {
namespace {

using interp::ValuePtr;
using MagnitudePtr = std::shared_ptr<const Literal>;

bool isFloatLike(PrimitiveType type) { return isFloatingPoint(type) || isComplex(type); }

bool isFloatArray(const Literal &value) {
  return value.shape().isArray() && isFloatLike(value.shape().elementType());
}

Literal f64Array(const Shape &like) {
  return Literal(Shape(PrimitiveType::F64, like.dimensions()));
}

/// |value| per element, in the structure of `value` (non-finite values and
/// non-arrays: 0, so that one infinity does not widen every sum it meets).
Literal absoluteOf(const Literal &value) {
  const Shape &shape = value.shape();
  if (shape.isTuple()) {
    std::vector<Literal> elements;
    for (const Literal &element : value.tupleElements())
      elements.push_back(absoluteOf(element));
    return Literal::tuple(std::move(elements));
  }
  if (!shape.isArray())
    return Literal(shape);
  Literal magnitude = f64Array(shape);
  std::vector<double> &out = magnitude.realData();
  PrimitiveType type = shape.elementType();
  for (size_t i = 0; i < out.size(); ++i) {
    double m = isComplex(type) ? std::abs(std::complex<double>(value.realData()[i],
                                                               value.imagData()[i]))
               : isFloatingPoint(type) ? std::fabs(value.realData()[i])
                                       : std::fabs(static_cast<double>(value.intData()[i]));
    out[i] = std::isfinite(m) ? m : 0;
  }
  return magnitude;
}

/// `magnitude`'s values in an array of `value`'s shape and type (to run
/// `value`'s instruction on them).
Literal inValueType(const Literal &magnitude, const Literal &value) {
  Literal result(value.shape());
  result.realData() = magnitude.realData();
  return result;
}

/// The magnitudes of an instruction run on magnitudes: its float leaves'
/// values; other leaves, |value|.
Literal fromSubstituted(const Literal &result, const Literal &value) {
  if (value.shape().isTuple()) {
    std::vector<Literal> elements;
    for (size_t i = 0; i < value.tupleElements().size(); ++i)
      elements.push_back(fromSubstituted(result.tupleElements()[i], value.tupleElements()[i]));
    return Literal::tuple(std::move(elements));
  }
  if (!isFloatArray(value))
    return absoluteOf(value);
  Literal magnitude = f64Array(value.shape());
  for (size_t i = 0; i < magnitude.realData().size(); ++i) {
    double m = std::fabs(result.realData()[i]);
    magnitude.realData()[i] = std::isfinite(m) ? m : 0;
  }
  return magnitude;
}

void flattenInto(const Literal &value, std::vector<Literal> &leaves) {
  if (value.shape().isTuple()) {
    for (const Literal &element : value.tupleElements())
      flattenInto(element, leaves);
    return;
  }
  if (value.shape().isArray())
    leaves.push_back(value);
}

class MagnitudeWalker {
public:
  explicit MagnitudeWalker(interp::Evaluator &evaluator) : evaluator(evaluator) {}

  std::pair<ValuePtr, MagnitudePtr> computation(const HloComputation &computation,
                                                const std::vector<ValuePtr> &arguments,
                                                const std::vector<MagnitudePtr> &magnitudes) {
    // Operands freed after their last user, as Evaluator::evaluate.
    interp::EvaluationOrder evaluation = interp::evaluationOrder(computation);
    const std::vector<const HloInstruction *> &order = evaluation.instructions;
    std::unordered_map<const HloInstruction *, int64_t> &remainingUses = evaluation.uses;
    std::unordered_map<const HloInstruction *, std::pair<ValuePtr, MagnitudePtr>> values;
    for (const HloInstruction *instruction : order) {
      if (instruction->opcode() == HloOpcode::Parameter) {
        values[instruction] = {arguments.at(instruction->parameterNumber()),
                               magnitudes.at(instruction->parameterNumber())};
        continue;
      }
      std::vector<ValuePtr> operandValues;
      std::vector<MagnitudePtr> operandMagnitudes;
      for (const HloInstruction *operand : instruction->operands()) {
        operandValues.push_back(values.at(operand).first);
        operandMagnitudes.push_back(values.at(operand).second);
      }
      auto result = this->instruction(*instruction, operandValues, operandMagnitudes);
      for (const HloInstruction *operand : instruction->operands())
        if (--remainingUses[operand] == 0)
          values.erase(operand);
      values[instruction] = std::move(result);
    }
    return values.at(computation.root());
  }

  std::pair<ValuePtr, MagnitudePtr> instruction(const HloInstruction &inst,
                                                const std::vector<ValuePtr> &values,
                                                const std::vector<MagnitudePtr> &magnitudes) {
    const HloComputation *called = nullptr;
    if (inst.opcode() == HloOpcode::Fusion)
      called = inst.fusedComputation();
    else if (inst.opcode() == HloOpcode::Call)
      called = toApply(inst);
    if (called && !called->isDeclaration() &&
        called->parameterCount() == static_cast<int64_t>(values.size()))
      return computation(*called, values, magnitudes);
    ValuePtr value = evaluator.evaluateInstruction(inst, values);
    Literal magnitude;
    try {
      magnitude = magnitudeOf(inst, values, magnitudes, *value);
    } catch (const std::exception &) {
      // A rule the operands do not fit: the element's own size.
      magnitude = absoluteOf(*value);
    }
    return {value, std::make_shared<const Literal>(std::move(magnitude))};
  }

private:
  interp::Evaluator &evaluator;

  /// The instruction run on its float operands' magnitudes.
  Literal substituted(const HloInstruction &inst, const std::vector<ValuePtr> &values,
                      const std::vector<MagnitudePtr> &magnitudes, const Literal &value) {
    std::vector<ValuePtr> operands;
    for (size_t k = 0; k < values.size(); ++k)
      operands.push_back(isFloatArray(*values[k])
                             ? std::make_shared<const Literal>(
                                   inValueType(*magnitudes[k], *values[k]))
                             : values[k]);
    ValuePtr result = evaluator.evaluateInstruction(inst, operands);
    return fromSubstituted(*result, value);
  }

  Literal magnitudeOf(const HloInstruction &inst, const std::vector<ValuePtr> &values,
                      const std::vector<MagnitudePtr> &magnitudes, const Literal &value) {
    const Shape &shape = inst.shape();
    // An integer converted from a float keeps the float's magnitude (its
    // bound may let it differ by more than one, ReductionTolerance.h).
    if (inst.opcode() == HloOpcode::Convert && isFloatArray(*values[0]) &&
        !isComplex(values[0]->shape().elementType()))
      return *magnitudes[0];
    if (shape.isArray() && !isFloatLike(shape.elementType()))
      return absoluteOf(value);
    auto elementwise = [&](auto combine) {
      Literal result = f64Array(shape);
      for (size_t i = 0; i < result.realData().size(); ++i)
        result.realData()[i] = combine(i);
      return result;
    };
    auto m = [&](size_t k, size_t i) { return magnitudes[k]->realData()[i]; };
    switch (inst.opcode()) {
    case HloOpcode::Add:
    case HloOpcode::Subtract:
    case HloOpcode::Complex:
      return elementwise([&](size_t i) { return m(0, i) + m(1, i); });
    case HloOpcode::Multiply: {
      // First order: |b| m_a + |a| m_b.
      auto size = [&](size_t k, size_t i) {
        const Literal &v = *values[k];
        return isComplex(v.shape().elementType())
                   ? std::abs(std::complex<double>(v.realData()[i], v.imagData()[i]))
                   : std::fabs(v.realData()[i]);
      };
      return elementwise([&](size_t i) {
        double sum = size(1, i) * m(0, i) + size(0, i) * m(1, i);
        return std::isfinite(sum) ? sum : 0.0;
      });
    }
    case HloOpcode::Negate:
    case HloOpcode::Abs:
    case HloOpcode::Real:
    case HloOpcode::Imag:
    case HloOpcode::ReducePrecision:
    case HloOpcode::Copy:
      return *magnitudes[0];
    case HloOpcode::Convert:
      return isFloatArray(*values[0]) ? *magnitudes[0] : absoluteOf(value);
    case HloOpcode::Bitcast:
      if (values[0]->shape().isArray() &&
          values[0]->shape().elementType() == shape.elementType())
        return substituted(inst, values, magnitudes, value);
      return absoluteOf(value);
    case HloOpcode::Tuple: {
      std::vector<Literal> elements;
      for (const MagnitudePtr &operand : magnitudes)
        elements.push_back(*operand);
      return Literal::tuple(std::move(elements));
    }
    case HloOpcode::GetTupleElement:
      return magnitudes[0]->tupleElements().at(tupleIndex(inst));
    case HloOpcode::Dot: {
      Literal result = f64Array(shape);
      result.realData() = interp::floatDotSums(dotDimensionNumbers(inst), *magnitudes[0],
                                               *magnitudes[1], PrimitiveType::F64);
      return result;
    }
    case HloOpcode::Convolution: {
      Literal result = f64Array(shape);
      result.realData() =
          interp::floatConvolutionSums(inst, interp::convolutionSpecOf(inst), *magnitudes[0],
                                       *magnitudes[1], result.shape());
      return result;
    }
    case HloOpcode::Reduce:
      if (values.size() == 2 && isParameterSum(toApply(inst)))
        return reducedSum(inst, *magnitudes[0], magnitudes[1]->realData().at(0));
      return substituted(inst, values, magnitudes, value);
    case HloOpcode::Select:
      if (!shape.isArray())
        return absoluteOf(value);
      return elementwise([&](size_t i) {
        const Literal &pred = *values[0];
        bool take = pred.intData()[pred.elementCount() == 1 ? 0 : i] != 0;
        size_t k = take ? 1 : 2;
        return m(k, magnitudes[k]->realData().size() == 1 ? 0 : i);
      });
    case HloOpcode::Clamp:
      if (!shape.isArray() || !isFloatingPoint(shape.elementType()))
        return absoluteOf(value);
      return clampMagnitude(values, magnitudes, shape);
    case HloOpcode::Reshape:
    case HloOpcode::Transpose:
    case HloOpcode::Broadcast:
    case HloOpcode::Slice:
    case HloOpcode::Reverse:
    case HloOpcode::Concatenate:
    case HloOpcode::Pad:
    case HloOpcode::Gather:
    case HloOpcode::DynamicSlice:
    case HloOpcode::DynamicUpdateSlice:
    case HloOpcode::Scatter:
    case HloOpcode::ReduceWindow:
      return substituted(inst, values, magnitudes, value);
    case HloOpcode::CustomCall:
      if (customCallTarget(inst).rfind("__cublas$", 0) == 0)
        return substituted(inst, values, magnitudes, value);
      return absoluteOf(value);
    default:
      break;
    }
    bool realOperands = std::all_of(values.begin(), values.end(), [&](const ValuePtr &v) {
      return v->shape().isArray() && isFloatingPoint(v->shape().elementType()) &&
             v->elementCount() == shape.elementCount();
    });
    if (isElementwiseOpcode(inst.opcode()) && shape.isArray() &&
        isFloatingPoint(shape.elementType()) && (values.size() == 1 || values.size() == 2) &&
        realOperands)
      return propagated(inst, values, magnitudes, shape);
    return absoluteOf(value);
  }

  /// sum over the reduced dimensions of the operand's magnitudes, plus the
  /// initial value's.
  static Literal reducedSum(const HloInstruction &inst, const Literal &operand, double init) {
    Literal result = f64Array(inst.shape());
    const std::vector<int64_t> &dims = operand.shape().dimensions();
    std::vector<bool> reduced(dims.size(), false);
    for (int64_t d : inst.dimensions())
      reduced[d] = true;
    std::vector<int64_t> kept;
    for (size_t d = 0; d < dims.size(); ++d)
      if (!reduced[d])
        kept.push_back(dims[d]);
    std::vector<int64_t> strides = interp::rowMajorStrides(kept);
    std::vector<double> &out = result.realData();
    for (double &v : out)
      v = init;
    interp::forEachIndex(dims, [&](const std::vector<int64_t> &index, int64_t linear) {
      int64_t o = 0;
      for (size_t d = 0, j = 0; d < dims.size(); ++d)
        if (!reduced[d])
          o += index[d] * strides[j++];
      out[o] += operand.realData()[linear];
    });
    return result;
  }

  static Literal clampMagnitude(const std::vector<ValuePtr> &values,
                                const std::vector<MagnitudePtr> &magnitudes,
                                const Shape &shape) {
    Literal result = f64Array(shape);
    auto at = [](const Literal &array, size_t i) {
      return array.realData()[array.realData().size() == 1 ? 0 : i];
    };
    for (size_t i = 0; i < result.realData().size(); ++i) {
      double low = at(*values[0], i), x = at(*values[1], i), high = at(*values[2], i);
      size_t k = x < low ? 0 : x > high ? 2 : 1;
      result.realData()[i] = at(*magnitudes[k], i);
    }
    return result;
  }

  /// First order: sum_k |df/dx_k| m_k, each derivative the steeper of the
  /// two one-sided differences in double, the step 2^-20 of the larger of
  /// |x_k| and m_k.
  static Literal propagated(const HloInstruction &inst, const std::vector<ValuePtr> &values,
                            const std::vector<MagnitudePtr> &magnitudes, const Shape &shape) {
    Literal result = f64Array(shape);
    constexpr PrimitiveType f64 = PrimitiveType::F64;
    size_t arity = values.size();
    auto evaluate = [&](const std::array<double, 2> &x) {
      interp::Scalar a{0, x[0], 0};
      if (arity == 1)
        return interp::evaluateUnary(inst.opcode(), f64, f64, a).re;
      interp::Scalar b{0, x[1], 0};
      return interp::evaluateBinary(inst.opcode(), &inst, f64, f64, a, b).re;
    };
    for (size_t i = 0; i < result.realData().size(); ++i) {
      std::array<double, 2> x = {0, 0};
      for (size_t k = 0; k < arity; ++k)
        x[k] = values[k]->realData()[i];
      double f0 = evaluate(x), total = 0;
      if (!std::isfinite(f0))
        continue;
      for (size_t k = 0; k < arity; ++k) {
        double mk = magnitudes[k]->realData()[i];
        if (mk == 0)
          continue;
        double step = std::ldexp(std::max(std::fabs(x[k]), mk), -20);
        double slope = 0;
        for (double sign : {1.0, -1.0}) {
          std::array<double, 2> moved = x;
          moved[k] += sign * step;
          double f1 = evaluate(moved);
          if (std::isfinite(f1))
            slope = std::max(slope, std::fabs(f1 - f0) / step);
        }
        total += slope * mk;
      }
      result.realData()[i] = std::isfinite(total) ? total : 0;
    }
    return result;
  }
};

ValueWithMagnitudes leavesOf(std::pair<ValuePtr, MagnitudePtr> result) {
  ValueWithMagnitudes out;
  out.value = std::move(result.first);
  flattenInto(*result.second, out.magnitudes);
  return out;
}

} // namespace

ValueWithMagnitudes evaluateWithMagnitudes(interp::Evaluator &evaluator,
                                           const HloComputation &computation,
                                           const std::vector<ValuePtr> &arguments) {
  std::vector<MagnitudePtr> magnitudes;
  for (const ValuePtr &argument : arguments)
    magnitudes.push_back(std::make_shared<const Literal>(absoluteOf(*argument)));
  return leavesOf(MagnitudeWalker(evaluator).computation(computation, arguments, magnitudes));
}

ValueWithMagnitudes evaluateInstructionWithMagnitudes(interp::Evaluator &evaluator,
                                                      const HloInstruction &instruction,
                                                      const std::vector<ValuePtr> &operands) {
  std::vector<MagnitudePtr> magnitudes;
  for (const ValuePtr &operand : operands)
    magnitudes.push_back(std::make_shared<const Literal>(absoluteOf(*operand)));
  return leavesOf(MagnitudeWalker(evaluator).instruction(instruction, operands, magnitudes));
}

namespace {

int64_t largestLeaf(const Shape &shape) {
  if (shape.isTuple()) {
    int64_t largest = 0;
    for (const Shape &element : shape.tupleShapes())
      largest = std::max(largest, largestLeaf(element));
    return largest;
  }
  return shape.isArray() ? std::max<int64_t>(shape.elementCount(), 0) : 0;
}

} // namespace

int64_t largestArrayElements(const HloModule &module) {
  int64_t largest = 0;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      largest = std::max(largest, largestLeaf(instruction->shape()));
  return largest;
}

ModuleReference evaluateModuleReference(interp::Evaluator &evaluator,
                                        const std::vector<ValuePtr> &inputs,
                                        bool withMagnitudes) {
  ModuleReference reference;
  const HloModule &module = evaluator.hloModule();
  if (withMagnitudes && largestArrayElements(module) > kMagnitudeElementLimit) {
    withMagnitudes = false;
    reference.scaleByLargest = true;
  }
  ValueWithMagnitudes evaluated;
  if (withMagnitudes)
    evaluated = evaluateWithMagnitudes(evaluator, *module.entry(), inputs);
  else
    evaluated.value = evaluator.run(inputs);
  flattenInto(*evaluated.value, reference.expected);
  reference.magnitudes = std::move(evaluated.magnitudes);
  return reference;
}

Literal largestValueScale(const Literal &expected) {
  Literal scale = f64Array(expected.shape());
  if (!isFloatArray(expected))
    return scale;
  Literal sizes = absoluteOf(expected);
  double largest = 0;
  for (double m : sizes.realData())
    largest = std::max(largest, m);
  for (size_t i = 0; i < scale.realData().size(); ++i)
    scale.realData()[i] = largest + sizes.realData()[i];
  return scale;
}

} // namespace hlo::runtime
