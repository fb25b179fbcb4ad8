//===- ScalarFunction.cpp - Calling a computation on scalars --------------===//
#include "ScalarFunction.h"

#include <unordered_map>

namespace hlo::interp {

ScalarFunction::ScalarFunction(const HloComputation &computation, Evaluator &evaluator)
    : computation(computation), evaluator(evaluator) {
  for (const HloInstruction *parameter : computation.parameters())
    parameterTypes.push_back(parameter->shape().elementType());
  const HloInstruction *root = computation.root();
  if (computation.parameterCount() == 2 && root->operandCount() == 2 &&
      isElementwiseOpcode(root->opcode()) && root->opcode() != HloOpcode::Convert &&
      root->shape().isArray() && root->shape().rank() == 0 &&
      root->operand(0)->opcode() == HloOpcode::Parameter &&
      root->operand(1)->opcode() == HloOpcode::Parameter &&
      root->operand(0) != root->operand(1)) {
    binaryRoot = root;
    swapped = root->operand(0)->parameterNumber() == 1;
  }
  if (!binaryRoot && !buildSteps()) {
    steps.clear();
    resultSteps.clear();
  }
}

bool ScalarFunction::buildSteps() {
  std::unordered_map<const HloInstruction *, size_t> stepOf;
  auto isScalar = [](const HloInstruction *instruction) {
    return instruction->shape().isArray() && instruction->shape().rank() == 0;
  };
  for (const auto &owned : computation.instructions()) {
    const HloInstruction *instruction = owned.get();
    HloOpcode opcode = instruction->opcode();
    if (instruction == computation.root() && opcode == HloOpcode::Tuple) {
      for (const HloInstruction *operand : instruction->operands()) {
        auto found = stepOf.find(operand);
        if (found == stepOf.end())
          return false;
        resultSteps.push_back(found->second);
      }
      return true;
    }
    bool elementwise = isElementwiseOpcode(opcode) && opcode != HloOpcode::ReducePrecision &&
                       opcode != HloOpcode::StochasticConvert;
    // A bitcast of a scalar (XLA writes them for a scalar's bitcast-convert
    // after optimizations) reinterprets its bits as a bitcast-convert does.
    bool reinterprets = opcode == HloOpcode::BitcastConvert || opcode == HloOpcode::Bitcast;
    if (reinterprets) {
      // Same-width bits between integers and real floats only.
      PrimitiveType from = instruction->operand(0)->shape().elementType();
      PrimitiveType to = instruction->shape().elementType();
      auto plain = [](PrimitiveType type) { return isIntegral(type) || isFloatingPoint(type); };
      if (!plain(from) || !plain(to) || primitiveBitWidth(from) != primitiveBitWidth(to))
        return false;
    }
    if (!isScalar(instruction) || !(elementwise || reinterprets || opcode == HloOpcode::Parameter ||
                                    opcode == HloOpcode::Constant))
      return false;
    Step step{instruction, {}, {}};
    for (const HloInstruction *operand : instruction->operands()) {
      auto found = stepOf.find(operand);
      if (found == stepOf.end())
        return false;
      step.operands.push_back(found->second);
    }
    if (opcode == HloOpcode::Constant)
      step.constant = loadScalar(*evaluator.evaluateInstruction(*instruction, {}), 0);
    stepOf[instruction] = steps.size();
    steps.push_back(std::move(step));
  }
  resultSteps.push_back(stepOf.at(computation.root()));
  return true;
}

std::vector<Scalar> ScalarFunction::runSteps(const std::vector<Scalar> &arguments) const {
  std::vector<Scalar> values(steps.size());
  for (size_t n = 0; n < steps.size(); ++n) {
    const Step &step = steps[n];
    const HloInstruction &instruction = *step.instruction;
    PrimitiveType resultType = instruction.shape().elementType();
    auto operand = [&](size_t k) { return values[step.operands[k]]; };
    auto operandType = [&](size_t k) { return instruction.operand(k)->shape().elementType(); };
    try {
      switch (instruction.opcode()) {
      case HloOpcode::Parameter:
        values[n] = arguments.at(static_cast<size_t>(instruction.parameterNumber()));
        break;
      case HloOpcode::Constant:
        values[n] = step.constant;
        break;
      case HloOpcode::Select:
        values[n] = operand(0).i ? operand(1) : operand(2);
        break;
      case HloOpcode::Clamp:
        values[n] = clampScalar(operandType(1), operand(0), operand(1), operand(2));
        break;
      case HloOpcode::Convert:
        values[n] = convertScalar(operand(0), operandType(0), resultType);
        break;
      case HloOpcode::Bitcast:
      case HloOpcode::BitcastConvert:
        values[n] = scalarFromBits(scalarBits(operand(0), operandType(0)), resultType);
        break;
      default:
        values[n] = step.operands.size() == 1
                        ? evaluateUnary(instruction.opcode(), operandType(0), resultType,
                                        operand(0))
                        : evaluateBinary(instruction.opcode(), &instruction, operandType(0),
                                         resultType, operand(0), operand(1));
      }
    } catch (const InterpreterError &error) {
      if (error.instruction)
        throw;
      fail(instruction, error.what());
    }
  }
  std::vector<Scalar> results;
  for (size_t index : resultSteps)
    results.push_back(values[index]);
  return results;
}

bool ScalarFunction::isFloatAdd() const {
  if (!binaryRoot || binaryRoot->opcode() != HloOpcode::Add)
    return false;
  PrimitiveType type = binaryRoot->shape().elementType();
  return isFloatingPoint(type) || isComplex(type);
}

std::vector<Scalar> ScalarFunction::operator()(const std::vector<Scalar> &arguments) const {
  if (binaryRoot) {
    const Scalar &x = arguments[swapped ? 1 : 0], &y = arguments[swapped ? 0 : 1];
    return {evaluateBinary(binaryRoot->opcode(), binaryRoot, parameterTypes[0],
                           binaryRoot->shape().elementType(), x, y)};
  }
  if (!steps.empty())
    return runSteps(arguments);
  std::vector<ValuePtr> values;
  values.reserve(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) {
    auto literal = std::make_shared<Literal>(Shape(parameterTypes[i], {}));
    storeScalar(*literal, 0, arguments[i]);
    values.push_back(std::move(literal));
  }
  ValuePtr result = evaluator.evaluate(computation, values);
  std::vector<Scalar> results;
  if (result->shape().isTuple()) {
    for (const Literal &element : result->tupleElements())
      results.push_back(loadScalar(element, 0));
  } else {
    results.push_back(loadScalar(*result, 0));
  }
  return results;
}

} // namespace hlo::interp
