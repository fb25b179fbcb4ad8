//===- VerifyElementwise.cpp - Elementwise shape rules --------------------===//
//
// Shape rules of the elementwise ops: operand and result element types and
// dimensions of unary, binary and ternary ops (convert, bitcast-convert,
// compare, select, clamp, ...), reduce-precision and map.
//
//===----------------------------------------------------------------------===//
#include "OpAttributes.h"
#include "VerifierImpl.h"

#include <algorithm>

namespace hlo {

namespace {

PrimitiveType unaryResultType(HloOpcode opcode, PrimitiveType operand) {
  switch (opcode) {
  case HloOpcode::IsFinite:
    return PrimitiveType::Pred;
  case HloOpcode::Abs:
  case HloOpcode::Real:
  case HloOpcode::Imag:
    return isComplex(operand) ? complexComponentType(operand) : operand;
  default:
    return operand;
  }
}

/// The element types an elementwise op takes, as HLO's shape inference
/// states them; null where the op takes any type.
const char *requiredElementTypes(HloOpcode opcode, PrimitiveType type) {
  switch (opcode) {
  case HloOpcode::Floor:
  case HloOpcode::Ceil:
  case HloOpcode::RoundNearestAfz:
  case HloOpcode::RoundNearestEven:
  case HloOpcode::IsFinite:
  case HloOpcode::Erf:
    return isFloatingPoint(type) ? nullptr : "floating-point";
  case HloOpcode::Exp:
  case HloOpcode::Expm1:
  case HloOpcode::Log:
  case HloOpcode::Log1p:
  case HloOpcode::Logistic:
  case HloOpcode::Rsqrt:
  case HloOpcode::Sqrt:
  case HloOpcode::Cbrt:
  case HloOpcode::Sin:
  case HloOpcode::Cos:
  case HloOpcode::Tan:
  case HloOpcode::Tanh:
  case HloOpcode::Sinh:
  case HloOpcode::Cosh:
  case HloOpcode::Asin:
  case HloOpcode::Acos:
  case HloOpcode::Atan:
  case HloOpcode::Asinh:
  case HloOpcode::Acosh:
  case HloOpcode::Atanh:
  case HloOpcode::Atan2:
    return isFloatingPoint(type) || isComplex(type) ? nullptr
                                                    : "floating-point or complex";
  case HloOpcode::Clz:
  case HloOpcode::PopulationCount:
  case HloOpcode::ShiftLeft:
  case HloOpcode::ShiftRightArithmetic:
  case HloOpcode::ShiftRightLogical:
    return isIntegral(type) ? nullptr : "integer";
  case HloOpcode::And:
  case HloOpcode::Or:
  case HloOpcode::Xor:
  case HloOpcode::Not:
    return isIntegral(type) || type == PrimitiveType::Pred ? nullptr
                                                           : "pred or integer";
  default:
    return nullptr;
  }
}

} // namespace

bool InstructionChecker::checkElementwise() {
  HloOpcode opcode = inst.opcode();
  if (!expectArrayOperands())
    return false;
  if (inst.operandCount() == 0)
    return fail("expects operands");
  // Operands other than the scalar ones of clamp must match operand 0's dims.
  const Shape &first = operandShape(inst.opcode() == HloOpcode::Clamp ? 1 : 0);
  for (int64_t i = 0; i < inst.operandCount(); ++i) {
    const Shape &operand = operandShape(i);
    bool scalarAllowed = opcode == HloOpcode::Clamp && i != 1;
    if (scalarAllowed && operand.rank() == 0)
      continue;
    if (!sameDims(operand, first))
      return fail("operand " + std::to_string(i) + " has shape " +
                  operand.toString(false) + ", incompatible with " +
                  first.toString(false));
  }
  PrimitiveType resultType = first.elementType();
  if (const char *expected = requiredElementTypes(opcode, resultType))
    return fail(std::string("takes ") + expected + " operands, not " +
                std::string(primitiveTypeName(resultType)));
  switch (opcode) {
  case HloOpcode::Compare:
    resultType = PrimitiveType::Pred;
    if (operandShape(0).elementType() != operandShape(1).elementType())
      return fail("compare operands have different element types");
    break;
  case HloOpcode::Select:
    if (operandShape(0).elementType() != PrimitiveType::Pred)
      return fail("select's first operand must be pred");
    resultType = operandShape(1).elementType();
    if (operandShape(1).elementType() != operandShape(2).elementType())
      return fail("select's branches have different element types");
    return expectResult(Shape(resultType, operandShape(1).dimensions()));
  case HloOpcode::Complex:
    resultType = operandShape(0).elementType() == PrimitiveType::F64
                     ? PrimitiveType::C128
                     : PrimitiveType::C64;
    break;
  case HloOpcode::Convert:
  case HloOpcode::BitcastConvert:
  case HloOpcode::StochasticConvert:
    resultType = inst.shape().elementType();
    break;
  default:
    if (inst.operandCount() == 1)
      resultType = unaryResultType(opcode, resultType);
    for (int64_t i = 1; i < inst.operandCount(); ++i)
      if (operandShape(i).elementType() != operandShape(0).elementType())
        return fail("operands have different element types (" +
                    std::string(primitiveTypeName(operandShape(0).elementType())) +
                    " and " +
                    std::string(primitiveTypeName(operandShape(i).elementType())) +
                    ")");
    break;
  }
  if (opcode == HloOpcode::BitcastConvert) {
    // Different widths add or drop a minor dimension.
    int inBits = primitiveBitWidth(first.elementType());
    int outBits = primitiveBitWidth(resultType);
    if (inBits != outBits) {
      std::vector<int64_t> dims = first.dimensions();
      if (inBits > outBits)
        dims.push_back(inBits / outBits);
      else if (!dims.empty() && dims.back() == outBits / inBits)
        dims.pop_back();
      else
        return fail("bitcast-convert from " + first.toString(false) + " to " +
                    inst.shape().toString(false) +
                    " needs a minor dimension of size " +
                    std::to_string(outBits / std::max(inBits, 1)));
      return expectResult(Shape(resultType, dims));
    }
  }
  const Shape &result = inst.shape();
  if (result.isArray() && result.elementType() == resultType &&
      sameDims(result, first))
    return true;
  return expectResult(Shape(resultType, first.dimensions()));
}

bool InstructionChecker::checkReducePrecision() {
  if (reducedPrecisionOf(inst).exponentBits < 1 || reducedPrecisionOf(inst).mantissaBits < 0)
    return fail("exponent_bits must be >= 1 and mantissa_bits >= 0");
  return checkElementwise();
}

bool InstructionChecker::checkMap() {
  if (!expectArrayOperands())
    return false;
  const HloComputation *mapper = toApply(inst);
  if (isDefined(mapper) && mapper->parameterCount() != inst.operandCount())
    return fail("the mapped computation must take " +
                std::to_string(inst.operandCount()) + " parameters");
  for (int64_t i = 1; i < inst.operandCount(); ++i)
    if (!sameDims(operandShape(i), operandShape(0)))
      return fail("all map operands must have the same dimensions");
  if (inst.operandCount() > 0 &&
      !sameDims(inst.shape(), operandShape(0)))
    return fail("the result must have the operands' dimensions");
  return true;
}

} // namespace hlo
