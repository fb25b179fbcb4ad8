//===- VerifyCallsAndTuples.cpp - Call, control-flow and tuple rules ------===//
//
// Shape rules of the ops that call computations or build tuples: tuple,
// get-tuple-element, call and fusion (parameters against operands, root
// against result), while, conditional and sort (its comparator).
//
//===----------------------------------------------------------------------===//
#include "OpAttributes.h"
#include "VerifierImpl.h"

#include <algorithm>

namespace hlo {

bool InstructionChecker::checkGetTupleElement() {
  if (!expectOperandCount(1))
    return false;
  const Shape &operand = operandShape(0);
  int64_t index = tupleIndex(inst);
  if (!operand.isTuple())
    return fail("operand must be a tuple, not " + operand.toString(false));
  if (index < 0 || index >= operand.tupleSize())
    return fail("index " + std::to_string(index) + " is out of range for " +
                operand.toString(false));
  return expectResult(operand.tupleShapes()[index]);
}

bool InstructionChecker::checkTuple() {
  std::vector<Shape> elements;
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    elements.push_back(operandShape(i));
  return expectResult(Shape::tuple(elements));
}

namespace {

/// Whether two arrays of the same dimensions are stored alike: their
/// minor-to-major orders agree once dimensions of size 1 (which do not
/// move any element) are left out; shapes without a layout, tuples and
/// other shapes agree with anything.
bool sameArrayLayout(const Shape &a, const Shape &b) {
  if (!a.isArray() || !b.isArray() || !a.hasLayout() || !b.hasLayout() ||
      a.dimensions() != b.dimensions())
    return true;
  auto order = [](const Shape &shape) {
    std::vector<int64_t> kept;
    for (int64_t d : shape.layout().minorToMajor)
      if (d >= 0 && d < shape.rank() && shape.dimension(d) != 1)
        kept.push_back(d);
    return kept;
  };
  return order(a) == order(b);
}

} // namespace

bool InstructionChecker::checkCallLike(const HloComputation *computation) {
  if (!isDefined(computation))
    return true;
  if (computation->parameterCount() != inst.operandCount())
    return fail("calls " + computation->name() + ", which takes " +
                std::to_string(computation->parameterCount()) +
                " parameters, with " + std::to_string(inst.operandCount()) +
                " operands");
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    if (!computation->parameter(i)->shape().compatible(operandShape(i)))
      return fail("operand " + std::to_string(i) + " has shape " +
                  operandShape(i).toString(false) + " but parameter " +
                  std::to_string(i) + " of " + computation->name() + " is " +
                  computation->parameter(i)->shape().toString(false));
  // A fusion reads its operands' buffers as its parameters are laid out
  // (XLA's layout-sensitive verifier): a kernel would read a {0,1} operand
  // as {1,0} and compute on transposed data.
  if (inst.opcode() == HloOpcode::Fusion) {
    for (int64_t i = 0; i < inst.operandCount(); ++i)
      if (!sameArrayLayout(computation->parameter(i)->shape(), operandShape(i)))
        return fail("operand " + std::to_string(i) + " is laid out " +
                    operandShape(i).toString(true) + " but parameter " + std::to_string(i) +
                    " of " + computation->name() + " is " +
                    computation->parameter(i)->shape().toString(true) +
                    ": a fusion's operands must have its parameters' layouts");
    if (!sameArrayLayout(computation->root()->shape(), inst.shape()))
      return fail("the fusion is laid out " + inst.shape().toString(true) + " but the root of " +
                  computation->name() + " is " + computation->root()->shape().toString(true));
  }
  return expectResult(computation->root()->shape());
}

bool InstructionChecker::checkWhile() {
  if (!expectOperandCount(1))
    return false;
  const HloComputation *condition = whileCondition(inst);
  const HloComputation *body = whileBody(inst);
  const Shape &init = operandShape(0);
  if (!isDefined(condition) || !isDefined(body))
    return true;
  if (condition->parameterCount() != 1 || body->parameterCount() != 1)
    return fail("the condition and body must take one parameter each");
  if (!condition->parameter(0)->shape().compatible(init) ||
      !body->parameter(0)->shape().compatible(init))
    return fail("the condition and body parameters must have the init "
                "value's shape " + init.toString(false));
  const Shape &predicate = condition->root()->shape();
  if (predicate.isTuple() || predicate.elementType() != PrimitiveType::Pred ||
      predicate.rank() != 0)
    return fail("the condition must return pred[], not " +
                predicate.toString(false));
  if (!body->root()->shape().compatible(init))
    return fail("the body must return the init value's shape " +
                init.toString(false) + ", not " +
                body->root()->shape().toString(false));
  return expectResult(init);
}

bool InstructionChecker::checkConditional() {
  if (inst.operandCount() < 1)
    return fail("expects a branch index or predicate");
  std::vector<HloComputation *> branches = conditionalBranches(inst);
  if (branches.empty() || std::find(branches.begin(), branches.end(),
                                    nullptr) != branches.end())
    return fail("needs branch_computations or true/false_computation");
  if (static_cast<int64_t>(branches.size()) + 1 != inst.operandCount())
    return fail("has " + std::to_string(branches.size()) + " branches but " +
                std::to_string(inst.operandCount() - 1) + " branch operands");
  PrimitiveType selector = operandShape(0).elementType();
  if (selector != PrimitiveType::Pred && selector != PrimitiveType::S32)
    return fail("the branch selector must be pred or s32");
  for (size_t i = 0; i < branches.size(); ++i) {
    const HloComputation *branch = branches[i];
    if (!isDefined(branch))
      continue;
    if (branch->parameterCount() != 1 ||
        !branch->parameter(0)->shape().compatible(operandShape(i + 1)))
      return fail("branch " + branch->name() +
                  " must take one parameter of shape " +
                  operandShape(i + 1).toString(false));
    if (!branch->root()->shape().compatible(inst.shape()))
      return fail("branch " + branch->name() + " returns " +
                  branch->root()->shape().toString(false) +
                  ", not the result shape " + inst.shape().toString(false));
  }
  return true;
}

bool InstructionChecker::checkSort() {
  if (inst.operandCount() < 1 || !expectArrayOperands())
    return fail("sort expects operands");
  const Shape &first = operandShape(0);
  for (int64_t i = 1; i < inst.operandCount(); ++i)
    if (!sameDims(operandShape(i), first))
      return fail("all sort operands must have the same dimensions");
  const auto &dims = inst.dimensions();
  if (dims.size() != 1 || !allInRange(dims, std::max<int64_t>(first.rank(), 1)))
    return fail("dimensions must name the sort dimension");
  const HloComputation *comparator = toApply(inst);
  if (isDefined(comparator) && comparator->parameterCount() != 2 * inst.operandCount())
    return fail("the comparator must take " +
                std::to_string(2 * inst.operandCount()) + " parameters");
  if (inst.operandCount() == 1)
    return expectResult(first);
  std::vector<Shape> results;
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    results.push_back(operandShape(i));
  return expectResult(Shape::tuple(results));
}

} // namespace hlo
