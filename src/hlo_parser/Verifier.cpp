//===- Verifier.cpp - HLO verifier driver ---------------------------------===//
//
// The verifier entry points (verifyModule, verifyModuleToString), the
// per-opcode dispatch InstructionChecker::check, the result-size check
// every instruction gets (XLA's ValidateShapeSize) and the helpers shared
// by the rule files declared in VerifierImpl.h. The shape rules themselves
// live in VerifyElementwise.cpp, VerifyDataMovement.cpp,
// VerifyReduceAndDot.cpp, VerifyCallsAndTuples.cpp and
// VerifyGatherScatter.cpp.
//
//===----------------------------------------------------------------------===//
#include "Verifier.h"

#include "OpAttributes.h"
#include "Printer.h"
#include "VerifierImpl.h"

#include <algorithm>
#include <set>

namespace hlo {

bool allUnique(const std::vector<int64_t> &values) {
  std::set<int64_t> seen(values.begin(), values.end());
  return seen.size() == values.size();
}

bool isSortedAscending(const std::vector<int64_t> &values) {
  return std::is_sorted(values.begin(), values.end());
}

bool contains(const std::vector<int64_t> &values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

bool allInRange(const std::vector<int64_t> &values, int64_t bound) {
  for (int64_t value : values)
    if (value < 0 || value >= bound)
      return false;
  return true;
}

std::string formatList(const std::vector<int64_t> &values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + std::to_string(values[i]);
  return out + "}";
}

bool InstructionChecker::fail(const std::string &message) {
  diags.error(inst.sourceOffset(), std::string(opcodeName(inst.opcode())) +
                                       " '" + inst.name() + "': " + message);
  return false;
}

bool InstructionChecker::expectResult(const Shape &expected) {
  if (inst.shape().compatible(expected))
    return true;
  return fail("result shape " + inst.shape().toString(false) +
              " does not match the expected " + expected.toString(false));
}

bool InstructionChecker::expectOperandCount(int64_t count) {
  if (inst.operandCount() == count)
    return true;
  return fail("expects " + std::to_string(count) + " operands, but has " +
              std::to_string(inst.operandCount()));
}

bool InstructionChecker::expectArrayOperands() {
  for (int64_t i = 0; i < inst.operandCount(); ++i)
    if (!operandShape(i).isArray())
      return fail("operand " + std::to_string(i) + " must be an array, not " +
                  operandShape(i).toString(false));
  return true;
}

/// A computation whose body is known (not an external declaration).
bool isDefined(const HloComputation *computation) {
  return computation && !computation->isDeclaration();
}

/// True if some dimension is unbounded (`?`): sizes cannot be computed.
bool hasUnbounded(const Shape &shape) {
  return shape.isArray() && shape.elementCount() < 0;
}

/// Narrows a wide intermediate size; false if it does not fit in int64.
bool fitsInt64(__int128 value) {
  return value >= INT64_MIN && value <= INT64_MAX;
}

/// Same dimensions, ignoring unbounded ones.
bool sameDims(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && a[i] != kUnboundedSize && b[i] != kUnboundedSize)
      return false;
  return true;
}

bool sameDims(const Shape &a, const Shape &b) {
  return a.isArray() && b.isArray() && sameDims(a.dimensions(), b.dimensions());
}

namespace {

/// Decimal text of a 128-bit count.
std::string toDecimal(__int128 value) {
  if (value == 0)
    return "0";
  std::string digits;
  for (; value > 0; value /= 10)
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
  return digits;
}

} // namespace

/// XLA's ShapeUtil::ValidateShapeSize: the size of every array in the result
/// must fit in int64 bytes (and so its element count).
bool InstructionChecker::checkShapeSize() {
  std::vector<const Shape *> leaves = {&inst.shape()};
  while (!leaves.empty()) {
    const Shape *shape = leaves.back();
    leaves.pop_back();
    if (shape->isTuple()) {
      for (const Shape &element : shape->tupleShapes())
        leaves.push_back(&element);
      continue;
    }
    if (!shape->isArray() || hasUnbounded(*shape))
      continue;
    // Buffers hold 4-bit elements two per byte, 2-bit ones four and the
    // rest at their natural size (Shape::bufferBytes); a layout asking for
    // another element size is valid HLO this compiler does not store.
    int64_t stored = packedElementBits(shape->elementType());
    if (stored == 0)
      stored = 8 * std::max(primitiveByteWidth(shape->elementType()), 1);
    if (shape->hasLayout() && shape->layout().elementSizeInBits != 0 &&
        shape->layout().elementSizeInBits != stored)
      return fail("unsupported: " + shape->toString(true) + " stores its elements in " +
                  std::to_string(shape->layout().elementSizeInBits) +
                  " bits; hlo-compile stores " + std::string(primitiveTypeName(shape->elementType())) +
                  " in " + std::to_string(stored));
    __int128 bytes = std::max(primitiveByteWidth(shape->elementType()), 1);
    for (int64_t dim : shape->dimensions()) {
      bytes *= dim;
      if (bytes > INT64_MAX)
        break;
    }
    if (bytes > INT64_MAX) {
      __int128 full = std::max(primitiveByteWidth(shape->elementType()), 1);
      for (int64_t dim : shape->dimensions())
        full = full > ((__int128)1 << 100) ? full : full * dim;
      return fail(shape->toString(false) + " is " +
                  (full > ((__int128)1 << 100) ? std::string("over 2^100")
                                               : toDecimal(full)) +
                  " bytes: an array's size must fit in 64 bits (at most 2^63 - 1 bytes)");
    }
  }
  return true;
}

bool InstructionChecker::check() {
  HloOpcode opcode = inst.opcode();
  if (!checkShapeSize())
    return false;
  if (inst.asyncWrappedOpcode())
    return true; // async sugar: the wrapped op's shapes live in the tuple.
  switch (opcode) {
  case HloOpcode::Broadcast:
    return checkBroadcast();
  case HloOpcode::Reshape:
    return checkReshape();
  case HloOpcode::Transpose:
    return checkTranspose();
  case HloOpcode::Slice:
    return checkSlice();
  case HloOpcode::DynamicSlice:
    return checkDynamicSlice();
  case HloOpcode::DynamicUpdateSlice:
    return checkDynamicUpdateSlice();
  case HloOpcode::Pad:
    return checkPad();
  case HloOpcode::Concatenate:
    return checkConcatenate();
  case HloOpcode::Reduce:
    return checkReduce();
  case HloOpcode::ReduceWindow:
    return checkReduceWindow();
  case HloOpcode::Dot:
  case HloOpcode::RaggedDot:
  case HloOpcode::ScaledDot:
    return checkDot();
  case HloOpcode::Gather:
    return checkGather();
  case HloOpcode::Scatter:
    return checkScatter();
  case HloOpcode::Iota:
    return checkIota();
  case HloOpcode::GetTupleElement:
    return checkGetTupleElement();
  case HloOpcode::Tuple:
    return checkTuple();
  case HloOpcode::Call:
    return checkCallLike(toApply(inst));
  case HloOpcode::Fusion:
    return checkCallLike(inst.fusedComputation());
  case HloOpcode::While:
    return checkWhile();
  case HloOpcode::Conditional:
    return checkConditional();
  case HloOpcode::Reverse:
    return checkReverse();
  case HloOpcode::Bitcast:
    return checkBitcast();
  case HloOpcode::Copy:
    if (!expectOperandCount(1))
      return false;
    return expectResult(operandShape(0));
  case HloOpcode::Sort:
    return checkSort();
  case HloOpcode::Map:
    return checkMap();
  case HloOpcode::Convolution:
    return checkConvolution();
  case HloOpcode::ReducePrecision:
    return checkReducePrecision();
  default:
    if (isElementwiseOpcode(opcode))
      return checkElementwise();
    return true;
  }
}

bool verifyModule(const HloModule &module, DiagnosticEngine &diagnostics) {
  // Computations wrapped by async sugar (`call-start(...)`, to_apply={...})
  // have their parameters bound late, by the -update/-done ops, so their
  // shapes are not checked here.
  std::set<const HloComputation *> lateBound;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      if (instruction->asyncWrappedOpcode())
        for (HloComputation *callee : instruction->calledComputations())
          lateBound.insert(callee);
  bool ok = true;
  for (const auto &computation : module.computations()) {
    if (lateBound.count(computation.get()))
      continue;
    for (const auto &instruction : computation->instructions())
      ok &= InstructionChecker(*instruction, diagnostics).check();
  }
  return ok;
}

std::string verifyModuleToString(const HloModule &module) {
  DiagnosticEngine diagnostics(module.source());
  verifyModule(module, diagnostics);
  return diagnostics.rendered();
}

} // namespace hlo
