//===- ScalarOpEmitter.cpp - Scalar HLO ops as arith/math -----------------===//
#include "emitters/ScalarOpEmitter.h"

#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace hlo {

namespace {

bool isNarrowFloat(PrimitiveType type) {
  // Types with no arithmetic of their own in LLVM: computed in f32.
  return isFloatingPoint(type) && primitiveBitWidth(type) <= 8;
}

Value constantInt(ImplicitLocOpBuilder &b, Type type, int64_t value) {
  return arith::ConstantOp::create(b, IntegerAttr::get(type, value));
}

Value constantFloat(ImplicitLocOpBuilder &b, Type type, double value) {
  return arith::ConstantOp::create(b, FloatAttr::get(type, value));
}

Value toF32(ImplicitLocOpBuilder &b, Value value) {
  return arith::ExtFOp::create(b, b.getF32Type(), value);
}

Value fromF32(ImplicitLocOpBuilder &b, Value value, Type type) {
  return arith::TruncFOp::create(b, type, value);
}

Value select(ImplicitLocOpBuilder &b, Value condition, Value a, Value c) {
  return arith::SelectOp::create(b, condition, a, c);
}

Value cmpi(ImplicitLocOpBuilder &b, arith::CmpIPredicate p, Value x, Value y) {
  return arith::CmpIOp::create(b, p, x, y);
}

Value cmpf(ImplicitLocOpBuilder &b, arith::CmpFPredicate p, Value x, Value y) {
  return arith::CmpFOp::create(b, p, x, y);
}

Value integerDivide(ImplicitLocOpBuilder &b, Value x, Value y, bool isSigned,
                    bool remainder) {
  Type type = x.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value zero = constantInt(b, type, 0);
  Value one = constantInt(b, type, 1);
  Value byZero = cmpi(b, arith::CmpIPredicate::eq, y, zero);
  Value overflow;
  Value guard = byZero;
  if (isSigned && bits > 1) {
    Value minValue = constantInt(b, type, bits == 64 ? INT64_MIN
                                                     : -(int64_t(1) << (bits - 1)));
    Value minusOne = constantInt(b, type, -1);
    overflow = arith::AndIOp::create(b, cmpi(b, arith::CmpIPredicate::eq, x, minValue),
                                     cmpi(b, arith::CmpIPredicate::eq, y, minusOne));
    guard = arith::OrIOp::create(b, byZero, overflow);
  }
  Value safe = select(b, guard, one, y);
  Value result;
  if (remainder) {
    result = isSigned ? Value(arith::RemSIOp::create(b, x, safe))
                      : Value(arith::RemUIOp::create(b, x, safe));
    // x % 0 = x; INT_MIN % -1 = 0.
    if (overflow)
      result = select(b, overflow, zero, result);
    return select(b, byZero, x, result);
  }
  result = isSigned ? Value(arith::DivSIOp::create(b, x, safe))
                    : Value(arith::DivUIOp::create(b, x, safe));
  // x / 0 = -1 (all ones); INT_MIN / -1 = INT_MIN.
  if (overflow)
    result = select(b, overflow, x, result);
  return select(b, byZero, constantInt(b, type, -1), result);
}

Value shift(ImplicitLocOpBuilder &b, HloOpcode opcode, Value x, Value y) {
  Type type = x.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value width = constantInt(b, type, bits);
  Value tooFar = cmpi(b, arith::CmpIPredicate::uge, y, width);
  Value zero = constantInt(b, type, 0);
  Value safe = select(b, tooFar, zero, y);
  switch (opcode) {
  case HloOpcode::ShiftLeft:
    return select(b, tooFar, zero, arith::ShLIOp::create(b, x, safe));
  case HloOpcode::ShiftRightLogical:
    return select(b, tooFar, zero, arith::ShRUIOp::create(b, x, safe));
  default: {
    // Arithmetic: shifting by >= width fills with the sign bit.
    Value clamped = select(b, tooFar, constantInt(b, type, bits - 1), y);
    return arith::ShRSIOp::create(b, x, clamped);
  }
  }
}

arith::CmpFPredicate floatPredicate(ComparisonDirection direction) {
  switch (direction) {
  case ComparisonDirection::Eq: return arith::CmpFPredicate::OEQ;
  case ComparisonDirection::Ne: return arith::CmpFPredicate::UNE;
  case ComparisonDirection::Lt: return arith::CmpFPredicate::OLT;
  case ComparisonDirection::Le: return arith::CmpFPredicate::OLE;
  case ComparisonDirection::Gt: return arith::CmpFPredicate::OGT;
  case ComparisonDirection::Ge: return arith::CmpFPredicate::OGE;
  }
  return arith::CmpFPredicate::OGE;
}

arith::CmpIPredicate intPredicate(ComparisonDirection direction, bool isSigned) {
  switch (direction) {
  case ComparisonDirection::Eq: return arith::CmpIPredicate::eq;
  case ComparisonDirection::Ne: return arith::CmpIPredicate::ne;
  case ComparisonDirection::Lt:
    return isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult;
  case ComparisonDirection::Le:
    return isSigned ? arith::CmpIPredicate::sle : arith::CmpIPredicate::ule;
  case ComparisonDirection::Gt:
    return isSigned ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt;
  case ComparisonDirection::Ge:
    return isSigned ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge;
  }
  return arith::CmpIPredicate::eq;
}

/// Float compare in total order (-NaN < -inf < ... < -0 < +0 < ... < NaN):
/// compare the sign-magnitude bit patterns as two's complement.
Value totalOrderCompare(ImplicitLocOpBuilder &b, ComparisonDirection direction,
                        Value x, Value y) {
  unsigned bits = x.getType().getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  auto key = [&](Value v) {
    Value asInt = arith::BitcastOp::create(b, intType, v);
    Value sign = arith::ShRSIOp::create(b, asInt, constantInt(b, intType, bits - 1));
    Value magnitudeMask = constantInt(
        b, intType, bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1);
    return arith::XOrIOp::create(b, asInt, arith::AndIOp::create(b, sign, magnitudeMask));
  };
  return cmpi(b, intPredicate(direction, true), key(x), key(y));
}

/// Null for an ordering of complex numbers (which HLO does not define).
Value emitCompare(ImplicitLocOpBuilder &b, const HloInstruction &inst, Value x, Value y) {
  PrimitiveType type = inst.operand(0)->shape().elementType();
  auto [direction, comparison] = comparisonOf(inst);
  if (isComplex(type)) {
    if (direction != ComparisonDirection::Eq && direction != ComparisonDirection::Ne)
      return {};
    return direction == ComparisonDirection::Eq ? Value(complex::EqualOp::create(b, x, y))
                                                : Value(complex::NotEqualOp::create(b, x, y));
  }
  if (isFloatingPoint(type)) {
    if (isNarrowFloat(type)) {
      x = toF32(b, x);
      y = toF32(b, y);
    }
    if (comparison == ComparisonType::TotalOrder)
      return totalOrderCompare(b, direction, x, y);
    return cmpf(b, floatPredicate(direction), x, y);
  }
  bool isSigned = isSignedIntegral(type) && comparison != ComparisonType::Unsigned;
  return cmpi(b, intPredicate(direction, isSigned), x, y);
}

/// x^y as XLA's elemental emitter computes it: squaring over the exponent's
/// low 6 bits, unrolled and branch free (no math.ipowi: its helper function
/// is not linked on NVPTX); an exponent negative as a signed value (also
/// for unsigned types) gives 1 for x == 1, +-1 for x == -1 and 0 otherwise.
Value integerPower(ImplicitLocOpBuilder &b, Value x, Value y) {
  Type type = x.getType();
  Value zero = constantInt(b, type, 0), one = constantInt(b, type, 1);
  Value minusOne = constantInt(b, type, -1);
  Value result = one, base = x, exponent = y;
  for (int bit = 0; bit < 6; ++bit) {
    Value odd = cmpi(b, arith::CmpIPredicate::ne,
                     arith::AndIOp::create(b, exponent, one), zero);
    result = select(b, odd, arith::MulIOp::create(b, result, base), result);
    if (bit == 5)
      break;
    base = arith::MulIOp::create(b, base, base);
    exponent = arith::ShRUIOp::create(b, exponent, one);
  }
  Value negative = cmpi(b, arith::CmpIPredicate::slt, y, zero);
  Value oddExponent =
      cmpi(b, arith::CmpIPredicate::ne, arith::AndIOp::create(b, y, one), zero);
  Value forMinusOne = select(b, oddExponent, minusOne, one);
  Value forNegative =
      select(b, cmpi(b, arith::CmpIPredicate::eq, x, one), one,
             select(b, cmpi(b, arith::CmpIPredicate::eq, x, minusOne), forMinusOne, zero));
  return select(b, negative, forNegative, result);
}

/// Unary and binary float math; `x`, `y` already in a computable type.
Value floatMath(ImplicitLocOpBuilder &b, HloOpcode opcode, Value x, Value y) {
  Type type = x.getType();
  switch (opcode) {
  case HloOpcode::Add:
    return arith::AddFOp::create(b, x, y);
  case HloOpcode::Subtract:
    return arith::SubFOp::create(b, x, y);
  case HloOpcode::Multiply:
    return arith::MulFOp::create(b, x, y);
  case HloOpcode::Divide:
    return arith::DivFOp::create(b, x, y);
  case HloOpcode::Remainder:
    return arith::RemFOp::create(b, x, y);
  case HloOpcode::Maximum:
    return arith::MaximumFOp::create(b, x, y);
  case HloOpcode::Minimum:
    return arith::MinimumFOp::create(b, x, y);
  case HloOpcode::Power:
    return math::PowFOp::create(b, x, y);
  case HloOpcode::Atan2:
    return math::Atan2Op::create(b, x, y);
  case HloOpcode::Abs:
    return math::AbsFOp::create(b, x);
  case HloOpcode::Negate:
    return arith::NegFOp::create(b, x);
  case HloOpcode::Exp:
    return math::ExpOp::create(b, x);
  case HloOpcode::Expm1:
    return math::ExpM1Op::create(b, x);
  case HloOpcode::Log:
    return math::LogOp::create(b, x);
  case HloOpcode::Log1p:
    return math::Log1pOp::create(b, x);
  case HloOpcode::Sqrt:
    return math::SqrtOp::create(b, x);
  case HloOpcode::Rsqrt:
    return math::RsqrtOp::create(b, x);
  case HloOpcode::Cbrt:
    return math::CbrtOp::create(b, x);
  case HloOpcode::Tanh:
    return math::TanhOp::create(b, x);
  case HloOpcode::Sin:
    return math::SinOp::create(b, x);
  case HloOpcode::Cos:
    return math::CosOp::create(b, x);
  case HloOpcode::Tan:
    return math::TanOp::create(b, x);
  case HloOpcode::Erf:
    return math::ErfOp::create(b, x);
  case HloOpcode::Sinh:
    return math::SinhOp::create(b, x);
  case HloOpcode::Cosh:
    return math::CoshOp::create(b, x);
  case HloOpcode::Asin:
    return math::AsinOp::create(b, x);
  case HloOpcode::Acos:
    return math::AcosOp::create(b, x);
  case HloOpcode::Atan:
    return math::AtanOp::create(b, x);
  case HloOpcode::Asinh:
    return math::AsinhOp::create(b, x);
  case HloOpcode::Acosh:
    return math::AcoshOp::create(b, x);
  case HloOpcode::Atanh:
    return math::AtanhOp::create(b, x);
  case HloOpcode::Floor:
    return math::FloorOp::create(b, x);
  case HloOpcode::Ceil:
    return math::CeilOp::create(b, x);
  case HloOpcode::RoundNearestAfz:
    return math::RoundOp::create(b, x);
  case HloOpcode::RoundNearestEven:
    return math::RoundEvenOp::create(b, x);
  case HloOpcode::Logistic: {
    // 1 / (1 + exp(-x))
    Value one = constantFloat(b, type, 1.0);
    Value e = math::ExpOp::create(b, arith::NegFOp::create(b, x));
    return arith::DivFOp::create(b, one, arith::AddFOp::create(b, one, e));
  }
  case HloOpcode::Sign: {
    // sign(+-0) = +-0, sign(NaN) = NaN, else +-1.
    Value zero = constantFloat(b, type, 0.0);
    Value one = constantFloat(b, type, 1.0);
    Value keep = cmpf(b, arith::CmpFPredicate::UEQ, x, zero);
    return select(b, keep, x, math::CopySignOp::create(b, one, x));
  }
  default:
    return {};
  }
}

Value complexMath(ImplicitLocOpBuilder &b, HloOpcode opcode, Value x, Value y) {
  switch (opcode) {
  case HloOpcode::Add:
    return complex::AddOp::create(b, x, y);
  case HloOpcode::Subtract:
    return complex::SubOp::create(b, x, y);
  case HloOpcode::Multiply:
    return complex::MulOp::create(b, x, y);
  case HloOpcode::Divide:
    return complex::DivOp::create(b, x, y);
  case HloOpcode::Power:
    return complex::PowOp::create(b, x, y);
  case HloOpcode::Negate:
    return complex::NegOp::create(b, x);
  case HloOpcode::Exp:
    return complex::ExpOp::create(b, x);
  case HloOpcode::Expm1:
    return complex::Expm1Op::create(b, x);
  case HloOpcode::Log:
    return complex::LogOp::create(b, x);
  case HloOpcode::Log1p:
    return complex::Log1pOp::create(b, x);
  case HloOpcode::Sqrt:
    return complex::SqrtOp::create(b, x);
  case HloOpcode::Rsqrt:
    return complex::RsqrtOp::create(b, x);
  case HloOpcode::Tanh:
    return complex::TanhOp::create(b, x);
  case HloOpcode::Sin:
    return complex::SinOp::create(b, x);
  case HloOpcode::Cos:
    return complex::CosOp::create(b, x);
  case HloOpcode::Tan:
    return complex::TanOp::create(b, x);
  case HloOpcode::Sign:
    return complex::SignOp::create(b, x);
  case HloOpcode::Logistic: {
    // 1 / (1 + exp(-x)), as for real types.
    auto type = cast<ComplexType>(x.getType());
    Value one = complex::CreateOp::create(
        b, type, constantFloat(b, type.getElementType(), 1.0),
        constantFloat(b, type.getElementType(), 0.0));
    Value denominator = complex::AddOp::create(
        b, one, complex::ExpOp::create(b, complex::NegOp::create(b, x)));
    return complex::DivOp::create(b, one, denominator);
  }
  default:
    return {};
  }
}

Value integerMath(ImplicitLocOpBuilder &b, HloOpcode opcode, Value x, Value y,
                  bool isSigned, bool isPred) {
  Type type = x.getType();
  switch (opcode) {
  case HloOpcode::Add:
    return isPred ? Value(arith::OrIOp::create(b, x, y))
                  : Value(arith::AddIOp::create(b, x, y));
  case HloOpcode::Subtract:
    return arith::SubIOp::create(b, x, y);
  case HloOpcode::Multiply:
    return isPred ? Value(arith::AndIOp::create(b, x, y))
                  : Value(arith::MulIOp::create(b, x, y));
  case HloOpcode::Divide:
    return integerDivide(b, x, y, isSigned, false);
  case HloOpcode::Remainder:
    return integerDivide(b, x, y, isSigned, true);
  case HloOpcode::Maximum:
    return isSigned ? Value(arith::MaxSIOp::create(b, x, y))
                    : Value(arith::MaxUIOp::create(b, x, y));
  case HloOpcode::Minimum:
    return isSigned ? Value(arith::MinSIOp::create(b, x, y))
                    : Value(arith::MinUIOp::create(b, x, y));
  case HloOpcode::And:
    return arith::AndIOp::create(b, x, y);
  case HloOpcode::Or:
    return arith::OrIOp::create(b, x, y);
  case HloOpcode::Xor:
    return arith::XOrIOp::create(b, x, y);
  case HloOpcode::Not:
    return arith::XOrIOp::create(b, x, constantInt(b, type, -1));
  case HloOpcode::ShiftLeft:
  case HloOpcode::ShiftRightArithmetic:
  case HloOpcode::ShiftRightLogical:
    return shift(b, opcode, x, y);
  case HloOpcode::Power:
    return integerPower(b, x, y);
  case HloOpcode::Negate:
    return arith::SubIOp::create(b, constantInt(b, type, 0), x);
  case HloOpcode::Abs:
    return isSigned ? Value(math::AbsIOp::create(b, x)) : x;
  case HloOpcode::PopulationCount:
    return math::CtPopOp::create(b, x);
  case HloOpcode::Clz:
    return math::CountLeadingZerosOp::create(b, x);
  case HloOpcode::Sign: {
    if (isPred) // sign(true) = 1 = true, sign(false) = 0 = false
      return x;
    Value zero = constantInt(b, type, 0);
    if (!isSigned)
      return arith::ExtUIOp::create(b, type,
                                    cmpi(b, arith::CmpIPredicate::ne, x, zero));
    Value positive = arith::ExtUIOp::create(
        b, type, cmpi(b, arith::CmpIPredicate::sgt, x, zero));
    Value negative = arith::ExtUIOp::create(
        b, type, cmpi(b, arith::CmpIPredicate::slt, x, zero));
    return arith::SubIOp::create(b, positive, negative);
  }
  default:
    return {};
  }
}

/// reduce-precision: round the mantissa to `mantissaBits` (ties to even)
/// and the exponent range to `exponentBits`, as if converting to a float
/// format with those widths and back. NaN stays NaN.
Value reducePrecision(ImplicitLocOpBuilder &b, Value x, int64_t exponentBits,
                      int64_t mantissaBits) {
  Type floatType = x.getType();
  unsigned bits = floatType.getIntOrFloatBitWidth();
  unsigned sourceMantissa = floatType.isF64() ? 52 : floatType.isF32() ? 23
                            : floatType.isBF16() ? 7 : 10;
  unsigned sourceExponent = bits - 1 - sourceMantissa;
  Type intType = b.getIntegerType(bits);
  auto c = [&](uint64_t value) {
    return arith::ConstantOp::create(b, IntegerAttr::get(intType, value));
  };
  Value asInt = arith::BitcastOp::create(b, intType, x);
  Value result = asInt;
  if (mantissaBits < sourceMantissa) {
    // Round to nearest even at the last kept mantissa bit.
    uint64_t dropped = sourceMantissa - mantissaBits;
    Value lastKept = arith::AndIOp::create(
        b, arith::ShRUIOp::create(b, asInt, c(dropped)), c(1));
    Value bias = arith::AddIOp::create(b, c((uint64_t(1) << (dropped - 1)) - 1),
                                       lastKept);
    Value rounded = arith::AddIOp::create(b, asInt, bias);
    uint64_t clearMask = ~((uint64_t(1) << dropped) - 1);
    if (bits < 64)
      clearMask &= (uint64_t(1) << bits) - 1;
    result = arith::AndIOp::create(b, rounded, c(clearMask));
  }
  if (exponentBits < static_cast<int64_t>(sourceExponent)) {
    // Clamp the exponent: overflow -> inf, underflow -> signed zero.
    uint64_t sourceBias = (uint64_t(1) << (sourceExponent - 1)) - 1;
    uint64_t reducedBias = (uint64_t(1) << (exponentBits - 1)) - 1;
    uint64_t maxExponent = sourceBias + reducedBias;
    uint64_t minExponent = sourceBias - reducedBias;
    uint64_t exponentMask = ((uint64_t(1) << sourceExponent) - 1) << sourceMantissa;
    uint64_t signMask = uint64_t(1) << (bits - 1);
    Value exponent = arith::AndIOp::create(b, result, c(exponentMask));
    Value overflow = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, exponent,
                                           c(maxExponent << sourceMantissa));
    Value underflow = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, exponent,
                                            c(minExponent << sourceMantissa));
    Value sign = arith::AndIOp::create(b, result, c(signMask));
    Value infinity = arith::OrIOp::create(b, sign, c(exponentMask));
    result = arith::SelectOp::create(b, overflow, infinity, result);
    result = arith::SelectOp::create(b, underflow, sign, result);
  }
  Value reduced = arith::BitcastOp::create(b, floatType, result);
  Value isNan = arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, isNan, x, reduced);
}

} // namespace

Value emitConstant(ImplicitLocOpBuilder &b, PrimitiveType type, double real,
                   int64_t intValue, double imag) {
  MLIRContext *context = b.getContext();
  Type mlirType = elementType(type, context);
  if (isComplex(type)) {
    Type part = llvm::cast<ComplexType>(mlirType).getElementType();
    return complex::ConstantOp::create(
        b, mlirType,
        b.getArrayAttr({FloatAttr::get(part, real), FloatAttr::get(part, imag)}));
  }
  if (isFloatingPoint(type))
    return constantFloat(b, mlirType, real);
  return constantInt(b, mlirType, intValue);
}

Value emitConvert(ImplicitLocOpBuilder &b, Value value, PrimitiveType from,
                  PrimitiveType to) {
  if (from == to)
    return value;
  MLIRContext *context = b.getContext();
  Type toType = elementType(to, context);
  if (isComplex(to)) {
    Type part = llvm::cast<ComplexType>(toType).getElementType();
    PrimitiveType partType = complexComponentType(to);
    if (isComplex(from)) {
      PrimitiveType fromPart = complexComponentType(from);
      Value re = emitConvert(b, complex::ReOp::create(b, value), fromPart, partType);
      Value im = emitConvert(b, complex::ImOp::create(b, value), fromPart, partType);
      return complex::CreateOp::create(b, toType, re, im);
    }
    Value re = emitConvert(b, value, from, partType);
    return complex::CreateOp::create(b, toType, re, constantFloat(b, part, 0.0));
  }
  if (isComplex(from))
    return emitConvert(b, complex::ReOp::create(b, value), complexComponentType(from),
                       to);
  if (to == PrimitiveType::Pred) {
    if (isFloatingPoint(from)) {
      Value f = isNarrowFloat(from) ? toF32(b, value) : value;
      return cmpf(b, arith::CmpFPredicate::UNE, f,
                  constantFloat(b, f.getType(), 0.0));
    }
    return cmpi(b, arith::CmpIPredicate::ne, value,
                constantInt(b, value.getType(), 0));
  }
  bool fromSigned = isSignedIntegral(from);
  if (isIntegral(from) || from == PrimitiveType::Pred) {
    if (isFloatingPoint(to)) {
      Type target = isNarrowFloat(to) ? Type(b.getF32Type()) : toType;
      Value f = fromSigned ? Value(arith::SIToFPOp::create(b, target, value))
                           : Value(arith::UIToFPOp::create(b, target, value));
      return isNarrowFloat(to) ? fromF32(b, f, toType) : f;
    }
    unsigned fromBits = value.getType().getIntOrFloatBitWidth();
    unsigned toBits = toType.getIntOrFloatBitWidth();
    if (fromBits == toBits)
      return value;
    if (fromBits > toBits)
      return arith::TruncIOp::create(b, toType, value);
    return fromSigned ? Value(arith::ExtSIOp::create(b, toType, value))
                      : Value(arith::ExtUIOp::create(b, toType, value));
  }
  // From a float.
  if (isFloatingPoint(to)) {
    Value f = value;
    if (isNarrowFloat(from))
      f = toF32(b, f);
    Type target = isNarrowFloat(to) ? Type(b.getF32Type()) : toType;
    unsigned fromBits = f.getType().getIntOrFloatBitWidth();
    unsigned toBits = target.getIntOrFloatBitWidth();
    if (f.getType() != target) {
      if (fromBits == toBits) // f16 <-> bf16 go through f32
        f = arith::TruncFOp::create(b, target, toF32(b, f));
      else if (fromBits < toBits)
        f = arith::ExtFOp::create(b, target, f);
      else
        f = arith::TruncFOp::create(b, target, f);
    }
    return isNarrowFloat(to) ? fromF32(b, f, toType) : f;
  }
  // Float -> integer: saturate, NaN -> 0.
  Value f = isNarrowFloat(from) || from == PrimitiveType::F16 ||
                    from == PrimitiveType::BF16
                ? toF32(b, value)
                : value;
  Type floatType = f.getType();
  unsigned bits = toType.getIntOrFloatBitWidth();
  bool toSigned = isSignedIntegral(to);
  double minValue = toSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  double maxBound = toSigned ? std::ldexp(1.0, bits - 1) : std::ldexp(1.0, bits);
  int64_t minInt = toSigned ? (bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1))) : 0;
  int64_t maxInt = toSigned ? (bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1)
                            : (bits == 64 ? -1 : (int64_t(1) << bits) - 1);
  Value converted = toSigned ? Value(arith::FPToSIOp::create(b, toType, f))
                             : Value(arith::FPToUIOp::create(b, toType, f));
  Value tooLow = cmpf(b, arith::CmpFPredicate::OLE, f, constantFloat(b, floatType, minValue));
  Value tooHigh = cmpf(b, arith::CmpFPredicate::OGE, f, constantFloat(b, floatType, maxBound));
  Value isNan = cmpf(b, arith::CmpFPredicate::UNO, f, f);
  Value result = select(b, tooLow, constantInt(b, toType, minInt), converted);
  result = select(b, tooHigh, constantInt(b, toType, maxInt), result);
  return select(b, isNan, constantInt(b, toType, 0), result);
}

namespace {

/// The element, or null for an op or type combination without a lowering.
Value elementwiseValue(ImplicitLocOpBuilder &b, const HloInstruction &inst,
                       ValueRange operands) {
  HloOpcode opcode = inst.opcode();
  PrimitiveType resultType = inst.shape().elementType();
  PrimitiveType operandType = inst.operandCount()
                                  ? inst.operand(0)->shape().elementType()
                                  : resultType;
  MLIRContext *context = b.getContext();
  switch (opcode) {
  case HloOpcode::Convert:
    return emitConvert(b, operands[0], operandType, resultType);
  case HloOpcode::BitcastConvert: {
    Type to = elementType(resultType, context);
    if (primitiveBitWidth(operandType) != primitiveBitWidth(resultType) ||
        isComplex(operandType) || isComplex(resultType))
      return Value();
    return arith::BitcastOp::create(b, to, operands[0]);
  }
  case HloOpcode::Compare:
    return emitCompare(b, inst, operands[0], operands[1]);
  case HloOpcode::ReducePrecision: {
    if (!isFloatingPoint(operandType) || isNarrowFloat(operandType))
      return Value();
    return reducePrecision(b, operands[0], reducedPrecisionOf(inst).exponentBits,
                           reducedPrecisionOf(inst).mantissaBits);
  }
  case HloOpcode::Select:
    return select(b, operands[0], operands[1], operands[2]);
  case HloOpcode::Clamp: {
    // clamp(lo, x, hi) = min(max(x, lo), hi)
    PrimitiveType type = inst.operand(1)->shape().elementType();
    Value lo = operands[0], x = operands[1], hi = operands[2];
    Value upper, result;
    if (isFloatingPoint(type)) {
      bool narrow = isNarrowFloat(type);
      if (narrow) {
        lo = toF32(b, lo);
        x = toF32(b, x);
        hi = toF32(b, hi);
      }
      result = arith::MinimumFOp::create(b, arith::MaximumFOp::create(b, x, lo), hi);
      return narrow ? fromF32(b, result, elementType(type, context)) : result;
    }
    if (isComplex(type))
      return Value();
    bool isSigned = isSignedIntegral(type);
    result = isSigned ? Value(arith::MaxSIOp::create(b, x, lo))
                      : Value(arith::MaxUIOp::create(b, x, lo));
    return isSigned ? Value(arith::MinSIOp::create(b, result, hi))
                    : Value(arith::MinUIOp::create(b, result, hi));
  }
  case HloOpcode::IsFinite: {
    Value x = isNarrowFloat(operandType) ? toF32(b, operands[0]) : operands[0];
    Value magnitude = math::AbsFOp::create(b, x);
    return cmpf(b, arith::CmpFPredicate::ONE, magnitude,
                constantFloat(b, x.getType(),
                              std::numeric_limits<double>::infinity()));
  }
  case HloOpcode::Real:
    return isComplex(operandType) ? Value(complex::ReOp::create(b, operands[0]))
                                  : operands[0];
  case HloOpcode::Imag:
    return isComplex(operandType)
               ? Value(complex::ImOp::create(b, operands[0]))
               : emitConstant(b, resultType, 0.0, 0);
  case HloOpcode::Complex:
    return complex::CreateOp::create(b, elementType(resultType, context),
                                     operands[0], operands[1]);
  default:
    break;
  }
  if (isComplex(operandType)) {
    if (opcode == HloOpcode::Abs)
      return complex::AbsOp::create(b, operands[0]);
    Value result = complexMath(b, opcode, operands[0],
                               operands.size() > 1 ? operands[1] : Value());
    return result;
  }
  if (isFloatingPoint(operandType)) {
    bool narrow = isNarrowFloat(operandType);
    Value x = narrow ? toF32(b, operands[0]) : operands[0];
    Value y = operands.size() > 1 ? (narrow ? toF32(b, operands[1]) : operands[1])
                                  : Value();
    Value result = floatMath(b, opcode, x, y);
    if (!result)
      return Value();
    return narrow ? fromF32(b, result, elementType(resultType, context)) : result;
  }
  if (isIntegral(operandType) || operandType == PrimitiveType::Pred) {
    Value result = integerMath(b, opcode, operands[0],
                               operands.size() > 1 ? operands[1] : Value(),
                               isSignedIntegral(operandType),
                               operandType == PrimitiveType::Pred);
    return result;
  }
  return Value();
}

} // namespace

llvm::Expected<Value> emitElementwise(ImplicitLocOpBuilder &b, const HloInstruction &inst,
                                      ValueRange operands) {
  if (Value value = elementwiseValue(b, inst, operands))
    return value;
  PrimitiveType operandType = inst.operandCount() ? inst.operand(0)->shape().elementType()
                                                  : inst.shape().elementType();
  std::string message =
      inst.opcode() == HloOpcode::Compare && isComplex(operandType)
          ? "unsupported: compare " + std::string(toString(comparisonOf(inst).direction)) +
                " of complex"
          : "unsupported: " + std::string(opcodeName(inst.opcode())) + " of " +
                std::string(primitiveTypeName(operandType));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace hlo
