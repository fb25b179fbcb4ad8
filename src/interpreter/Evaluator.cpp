//===- Evaluator.cpp - The reference interpreter --------------------------===//
#include "Evaluator.h"

#include "ElementwiseOps.h"
#include "Ops.h"

#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/HloComputation.h"
#include "hlo_parser/OpAttributes.h"

#include <unordered_map>

namespace hlo::interp {
namespace {

ValuePtr share(Literal literal) {
  return std::make_shared<const Literal>(std::move(literal));
}

/// The constant's value under the instruction's shape, floats rounded to
/// their type.
Literal constantValue(const HloInstruction &instruction) {
  if (!instruction.hasLiteral() || instruction.literal().isElided())
    fail(instruction, "constant has no value (elided '{...}' literal)");
  const Literal &literal = instruction.literal();
  if (literal.shape().isTuple())
    return literal;
  Literal result = literal.withShape(instruction.shape());
  PrimitiveType type = instruction.shape().elementType();
  if (isFloatingPoint(type) || isComplex(type)) {
    for (double &value : result.realData())
      value = roundToFloatType(value, type);
    for (double &value : result.imagData())
      value = roundToFloatType(value, type);
  }
  return result;
}

} // namespace

ValuePtr Evaluator::run(const std::vector<ValuePtr> &arguments) {
  return evaluate(*module.entry(), arguments);
}

EvaluationOrder evaluationOrder(const HloComputation &computation) {
  // Post-order from the root (iterative: computations can be long chains).
  EvaluationOrder order;
  std::vector<std::pair<const HloInstruction *, size_t>> stack = {{computation.root(), 0}};
  order.uses[computation.root()] = 1; // the caller's use
  while (!stack.empty()) {
    auto &[instruction, next] = stack.back();
    if (next < instruction->operands().size()) {
      const HloInstruction *operand = instruction->operand(next++);
      if (order.uses[operand]++ == 0)
        stack.push_back({operand, 0});
      continue;
    }
    order.instructions.push_back(instruction);
    stack.pop_back();
  }
  return order;
}

ValuePtr Evaluator::evaluate(const HloComputation &computation,
                             const std::vector<ValuePtr> &arguments) {
  if (computation.isDeclaration())
    throw InterpreterError(nullptr, "computation '" + computation.name() +
                                        "' is declared but not defined");
  if (static_cast<int64_t>(arguments.size()) != computation.parameterCount())
    throw InterpreterError(computation.root(),
                           "computation '" + computation.name() + "' takes " +
                               std::to_string(computation.parameterCount()) +
                               " arguments, given " +
                               std::to_string(arguments.size()));
  EvaluationOrder evaluation = evaluationOrder(computation);
  const std::vector<const HloInstruction *> &order = evaluation.instructions;
  std::unordered_map<const HloInstruction *, int64_t> &remainingUses = evaluation.uses;

  std::unordered_map<const HloInstruction *, ValuePtr> values;
  for (const HloInstruction *instruction : order) {
    ValuePtr value;
    if (instruction->opcode() == HloOpcode::Parameter) {
      value = arguments.at(instruction->parameterNumber());
    } else {
      std::vector<ValuePtr> operands;
      operands.reserve(instruction->operandCount());
      for (const HloInstruction *operand : instruction->operands())
        operands.push_back(values.at(operand));
      value = evaluateInstruction(*instruction, operands);
      if (observer)
        observer(*instruction, operands, value);
      // Free operands whose last user this was.
      for (const HloInstruction *operand : instruction->operands())
        if (--remainingUses[operand] == 0)
          values.erase(operand);
    }
    values[instruction] = std::move(value);
  }
  return values.at(computation.root());
}

void Evaluator::checkSize(const HloInstruction &instruction, const Shape &shape) const {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      checkSize(instruction, element);
    return;
  }
  int64_t count = shape.elementCount();
  if (count < 0 || count > maxElements)
    throw InterpreterLimitError(
        &instruction, shape.toString(/*printLayout=*/false) + " has " +
                          (count < 0 ? std::string("unbounded") : std::to_string(count)) +
                          " elements, more than the interpreter's limit of " +
                          std::to_string(maxElements) + " per array");
}

ValuePtr Evaluator::evaluateInstruction(const HloInstruction &instruction,
                                        const std::vector<ValuePtr> &operandValues) {
  checkSize(instruction, instruction.shape());
  for (const HloComputation *called : instruction.calledComputations())
    if (called->isDeclaration())
      fail(instruction, "calls computation '" + called->name() +
                            "', which is declared but not defined in this module");
  Operands operands;
  for (const ValuePtr &value : operandValues)
    operands.push_back(value.get());
  HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::BitcastConvert)
    return share(evaluateBitcastConvert(instruction, *operands[0]));
  if (isElementwiseOpcode(opcode))
    return share(evaluateElementwise(instruction, operands));
  if (isShapeOpcode(opcode))
    return share(evaluateShapeOp(instruction, operands));
  switch (opcode) {
  case HloOpcode::Constant:
    return share(constantValue(instruction));
  case HloOpcode::Tuple: {
    std::vector<Literal> elements;
    for (const Literal *operand : operands)
      elements.push_back(*operand);
    return share(Literal::tuple(std::move(elements)));
  }
  case HloOpcode::GetTupleElement: {
    // The element itself, kept alive by its tuple: no copy.
    const Literal &element = operands[0]->tupleElements().at(tupleIndex(instruction));
    return ValuePtr(operandValues[0], &element);
  }
  case HloOpcode::OptimizationBarrier:
  case HloOpcode::AddDependency:
    return operandValues[0];
  case HloOpcode::AfterAll:
    return share(Literal(Shape::token()));
  case HloOpcode::Fusion:
    return evaluate(*instruction.fusedComputation(), operandValues);
  case HloOpcode::Call:
    return evaluate(*toApply(instruction), operandValues);
  case HloOpcode::While: {
    const HloComputation *condition = whileCondition(instruction);
    const HloComputation *body = whileBody(instruction);
    ValuePtr state = operandValues[0];
    for (int64_t iteration = 0;; ++iteration) {
      if (evaluate(*condition, {state})->intData().at(0) == 0)
        return state;
      if (iteration >= maxWhileIterations)
        fail(instruction, "while loop ran past " + std::to_string(maxWhileIterations) +
                              " iterations");
      state = evaluate(*body, {state});
    }
  }
  case HloOpcode::Conditional: {
    std::vector<HloComputation *> branches = conditionalBranches(instruction);
    int64_t selector = operands[0]->intData().at(0);
    int64_t branch;
    if (operands[0]->shape().elementType() == PrimitiveType::Pred)
      branch = selector ? 0 : 1;
    else
      branch = selector < 0 || selector >= static_cast<int64_t>(branches.size())
                   ? static_cast<int64_t>(branches.size()) - 1
                   : selector;
    return evaluate(*branches[branch], {operandValues.at(branch + 1)});
  }
  case HloOpcode::Reduce:
    return share(evaluateReduce(instruction, operands, *this));
  case HloOpcode::ReduceWindow:
    return share(evaluateReduceWindow(instruction, operands, *this));
  case HloOpcode::SelectAndScatter:
    return share(evaluateSelectAndScatter(instruction, operands, *this));
  case HloOpcode::Map:
    return share(evaluateMap(instruction, operands, *this));
  case HloOpcode::Gather:
    return share(evaluateGather(instruction, operands));
  case HloOpcode::Scatter:
    return share(evaluateScatter(instruction, operands, *this));
  case HloOpcode::Dot:
    return share(evaluateDot(instruction, operands));
  case HloOpcode::Convolution:
    return share(evaluateConvolution(instruction, operands));
  case HloOpcode::Sort:
    return share(evaluateSort(instruction, operands, *this));
  case HloOpcode::CustomCall:
    return share(evaluateCustomCall(instruction, operands));
  case HloOpcode::TopK:
    return share(evaluateTopK(instruction, operands));
  default:
    fail(instruction, "unsupported by the interpreter: " +
                          std::string(opcodeName(opcode)) + " ('" +
                          instruction.name() + "')");
  }
}

std::string formatInterpreterError(const HloModule &module,
                                   const InterpreterError &error) {
  uint32_t offset = error.instruction ? error.instruction->sourceOffset() : kNoOffset;
  return formatDiagnostic(module.source().get(), offset, Severity::Error,
                          error.what());
}

} // namespace hlo::interp
