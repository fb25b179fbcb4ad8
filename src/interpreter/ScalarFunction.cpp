//===- ScalarFunction.cpp - Calling a computation on scalars --------------===//
#include "ScalarFunction.h"

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
