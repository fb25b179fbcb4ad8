//===- ElementwiseOps.cpp - Scalar HLO semantics -------------------------===//
#include "ElementwiseOps.h"

#include "ComplexFormulas.h"

#include "hlo_parser/FloatFormat.h"
#include "hlo_parser/OpAttributes.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <optional>

namespace hlo::interp {
namespace {

using Operands = std::vector<const Literal *>;
using Complex = std::complex<double>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Scalar fromReal(double value) { return Scalar{0, value, 0}; }
Scalar fromComplex(Complex value) { return Scalar{0, value.real(), value.imag()}; }
Scalar fromInt(int64_t value) { return Scalar{value, 0, 0}; }
Complex asComplex(Scalar value) { return {value.re, value.im}; }

int widthOf(PrimitiveType type) {
  return type == PrimitiveType::Pred ? 1 : primitiveBitWidth(type);
}

/// The low `width` bits of an integer value.
uint64_t lowBits(int64_t value, int width) {
  return static_cast<uint64_t>(value) & widthMask(width);
}

/// NaN-propagating max/min with -0 < +0, as the GPU's maximumf/minimumf.
/// XLA's maximum and minimum propagate NaN as the NaN operand itself (its
/// sign and payload: x's if both are), as its CPU and GPU kernels select
/// it; a bitcast of the result shows the difference.
double floatMax(double x, double y) {
  if (std::isnan(x))
    return x;
  if (std::isnan(y))
    return y;
  if (x == y)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
double floatMin(double x, double y) {
  if (std::isnan(x))
    return x;
  if (std::isnan(y))
    return y;
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}

double floatSign(double x) {
  if (std::isnan(x) || x == 0)
    return x;
  return std::copysign(1.0, x);
}

/// logistic as XLA computes it: its logistic expander makes it
/// 1 / (1 + exp(-x)) in the element type, each step rounded to it (bf16:
/// exp rounded, a bf16 add, the reciprocal rounded; up to a few units in
/// the last place from the exact value, which a later cancellation and
/// scale can make large: fuzz seed 207063), and the kernels do the same.
double logisticInSteps(double x, PrimitiveType type) {
  double e = roundToFloatType(std::exp(-x), type);
  double sum = roundToFloatType(1.0 + e, type);
  return roundToFloatType(1.0 / sum, type);
}

Scalar floatUnary(HloOpcode opcode, double x) {
  switch (opcode) {
  case HloOpcode::Abs: return fromReal(std::fabs(x));
  case HloOpcode::Negate: return fromReal(-x);
  case HloOpcode::Ceil: return fromReal(std::ceil(x));
  case HloOpcode::Floor: return fromReal(std::floor(x));
  case HloOpcode::RoundNearestAfz: return fromReal(std::round(x));
  case HloOpcode::RoundNearestEven: return fromReal(std::nearbyint(x));
  case HloOpcode::Sign: return fromReal(floatSign(x));
  case HloOpcode::Sqrt: return fromReal(std::sqrt(x));
  case HloOpcode::Rsqrt: return fromReal(1.0 / std::sqrt(x));
  case HloOpcode::Cbrt: return fromReal(std::cbrt(x));
  case HloOpcode::Exp: return fromReal(std::exp(x));
  case HloOpcode::Expm1: return fromReal(std::expm1(x));
  case HloOpcode::Log: return fromReal(std::log(x));
  case HloOpcode::Log1p: return fromReal(std::log1p(x));
  case HloOpcode::Logistic: return fromReal(1.0 / (1.0 + std::exp(-x)));
  case HloOpcode::Sin: return fromReal(std::sin(x));
  case HloOpcode::Cos: return fromReal(std::cos(x));
  case HloOpcode::Tan: return fromReal(std::tan(x));
  case HloOpcode::Tanh: return fromReal(std::tanh(x));
  case HloOpcode::Sinh: return fromReal(std::sinh(x));
  case HloOpcode::Cosh: return fromReal(std::cosh(x));
  case HloOpcode::Asin: return fromReal(std::asin(x));
  case HloOpcode::Acos: return fromReal(std::acos(x));
  case HloOpcode::Atan: return fromReal(std::atan(x));
  case HloOpcode::Asinh: return fromReal(std::asinh(x));
  case HloOpcode::Acosh: return fromReal(std::acosh(x));
  case HloOpcode::Atanh: return fromReal(std::atanh(x));
  case HloOpcode::Erf: return fromReal(std::erf(x));
  case HloOpcode::IsFinite: return fromInt(std::isfinite(x));
  case HloOpcode::Real: return fromReal(x);
  case HloOpcode::Imag: return fromReal(0.0);
  default: break;
  }
  throw InterpreterError(nullptr, std::string(opcodeName(opcode)) +
                                      " is not defined on floating-point values");
}

/// A complex function of `type`'s elements (c64 in float, c128 in double:
/// ComplexFormulas.h).
Scalar complexUnary(HloOpcode opcode, PrimitiveType type, Complex x) {
  switch (opcode) {
  case HloOpcode::Real: return fromReal(x.real());
  case HloOpcode::Imag: return fromReal(x.imag());
  case HloOpcode::Negate: return fromComplex(-x);
  default: break;
  }
  std::optional<Complex> result;
  if (type == PrimitiveType::C64) {
    std::complex<float> narrow(static_cast<float>(x.real()), static_cast<float>(x.imag()));
    if (auto value = evaluateComplexUnary(opcode, narrow))
      result = Complex(value->real(), value->imag());
  } else {
    result = evaluateComplexUnary(opcode, x);
  }
  if (!result)
    throw InterpreterError(nullptr, std::string(opcodeName(opcode)) +
                                        " is not defined on complex values");
  if (opcode == HloOpcode::Abs)
    return fromReal(result->real());
  return fromComplex(*result);
}

Scalar integerUnary(HloOpcode opcode, PrimitiveType type, int64_t x) {
  int width = widthOf(type);
  bool isSigned = isSignedIntegral(type);
  switch (opcode) {
  case HloOpcode::Negate: return fromInt(wrapInteger(0 - static_cast<uint64_t>(x), type));
  case HloOpcode::Abs:
    return fromInt(isSigned && x < 0 ? wrapInteger(0 - static_cast<uint64_t>(x), type) : x);
  case HloOpcode::Sign:
    if (type == PrimitiveType::Pred || !isSigned)
      return fromInt(x != 0);
    return fromInt((x > 0) - (x < 0));
  case HloOpcode::Not:
    return fromInt(type == PrimitiveType::Pred ? !x : wrapInteger(~x, type));
  case HloOpcode::PopulationCount:
    return fromInt(__builtin_popcountll(lowBits(x, width)));
  case HloOpcode::Clz: {
    uint64_t bits = lowBits(x, width);
    return fromInt(bits == 0 ? width : __builtin_clzll(bits) - (64 - width));
  }
  default: break;
  }
  throw InterpreterError(nullptr, std::string(opcodeName(opcode)) +
                                      " is not defined on integer values");
}

/// x^y as XLA's elemental emitter computes it (checked against XLA's CPU
/// backend): an exponent negative as a signed value of the type's width
/// (also for unsigned types) gives 1 for x == 1, +-1 for x == -1 (all ones)
/// and 0 otherwise; otherwise squaring over the exponent's low 6 bits
/// (exponents of 64 and more wrap), wrapped to the type.
int64_t integerPower(int64_t x, int64_t y, PrimitiveType type) {
  int width = widthOf(type);
  uint64_t mask = widthMask(width);
  uint64_t ux = static_cast<uint64_t>(x) & mask, uy = static_cast<uint64_t>(y) & mask;
  if ((uy >> (width - 1)) & 1) {
    if (ux == 1)
      return 1;
    if (ux == mask)
      return wrapInteger((uy & 1) ? -1 : 1, type);
    return 0;
  }
  uint64_t base = ux, result = 1;
  for (int bit = 0; bit < 6; ++bit) {
    if ((uy >> bit) & 1)
      result *= base;
    base *= base;
  }
  return wrapInteger(static_cast<int64_t>(result), type);
}

Scalar integerBinary(HloOpcode opcode, PrimitiveType type, int64_t x, int64_t y) {
  int width = widthOf(type);
  bool isSigned = isSignedIntegral(type);
  uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  auto wrap = [&](uint64_t value) {
    return fromInt(wrapInteger(static_cast<int64_t>(value), type));
  };
  int64_t minValue = isSigned ? wrapInteger(int64_t(1) << (width - 1), type) : 0;
  switch (opcode) {
  case HloOpcode::Add: return wrap(ux + uy);
  case HloOpcode::Subtract: return wrap(ux - uy);
  case HloOpcode::Multiply: return wrap(ux * uy);
  case HloOpcode::Divide:
    if (y == 0)
      return wrap(~uint64_t(0)); // -1 signed, max unsigned
    if (isSigned)
      return x == minValue && y == -1 ? fromInt(minValue) : fromInt(x / y);
    return wrap(ux / uy);
  case HloOpcode::Remainder:
    if (y == 0)
      return fromInt(x);
    if (isSigned)
      return x == minValue && y == -1 ? fromInt(0) : fromInt(x % y);
    return wrap(ux % uy);
  case HloOpcode::Maximum:
    return fromInt(isSigned ? std::max(x, y) : (ux > uy ? x : y));
  case HloOpcode::Minimum:
    return fromInt(isSigned ? std::min(x, y) : (ux < uy ? x : y));
  case HloOpcode::And: return fromInt(x & y);
  case HloOpcode::Or: return fromInt(x | y);
  case HloOpcode::Xor: return fromInt(x ^ y);
  case HloOpcode::Power: return fromInt(integerPower(x, y, type));
  case HloOpcode::Mulhi: { // the high half of the double-width product
    __int128 product = isSigned ? static_cast<__int128>(x) * y
                                : static_cast<__int128>(lowBits(x, width) * static_cast<unsigned __int128>(lowBits(y, width)));
    return wrap(static_cast<uint64_t>(product >> width));
  }
  case HloOpcode::ShiftLeft: {
    uint64_t amount = lowBits(y, width);
    return amount >= static_cast<uint64_t>(width) ? fromInt(0) : wrap(ux << amount);
  }
  case HloOpcode::ShiftRightLogical: {
    uint64_t amount = lowBits(y, width);
    return amount >= static_cast<uint64_t>(width) ? fromInt(0)
                                                   : wrap(lowBits(x, width) >> amount);
  }
  case HloOpcode::ShiftRightArithmetic: {
    uint64_t amount = lowBits(y, width);
    // Arithmetic shifts read the value as signed, whatever the type.
    int64_t bits = static_cast<int64_t>(lowBits(x, width));
    if (width < 64 && (bits >> (width - 1)) & 1)
      bits |= static_cast<int64_t>(~((uint64_t(1) << width) - 1));
    if (amount >= static_cast<uint64_t>(width))
      return wrap(bits < 0 ? ~uint64_t(0) : 0);
    return wrap(static_cast<uint64_t>(bits >> amount));
  }
  default: break;
  }
  throw InterpreterError(nullptr, std::string(opcodeName(opcode)) +
                                      " is not defined on integer values");
}

Scalar floatBinary(HloOpcode opcode, double x, double y) {
  switch (opcode) {
  case HloOpcode::Add: return fromReal(x + y);
  case HloOpcode::Subtract: return fromReal(x - y);
  case HloOpcode::Multiply: return fromReal(x * y);
  case HloOpcode::Divide: return fromReal(x / y);
  case HloOpcode::Remainder: return fromReal(std::fmod(x, y));
  case HloOpcode::Maximum: return fromReal(floatMax(x, y));
  case HloOpcode::Minimum: return fromReal(floatMin(x, y));
  case HloOpcode::Power: return fromReal(std::pow(x, y));
  case HloOpcode::Atan2: return fromReal(std::atan2(x, y));
  case HloOpcode::Complex: return Scalar{0, x, y};
  default: break;
  }
  throw InterpreterError(nullptr, std::string(opcodeName(opcode)) +
                                      " is not defined on floating-point values");
}

Scalar complexBinary(HloOpcode opcode, PrimitiveType type, Complex x, Complex y) {
  std::optional<Complex> result;
  if (type == PrimitiveType::C64) {
    auto narrow = [](Complex value) {
      return std::complex<float>(static_cast<float>(value.real()), static_cast<float>(value.imag()));
    };
    if (auto value = evaluateComplexBinary(opcode, narrow(x), narrow(y)))
      result = Complex(value->real(), value->imag());
  } else {
    result = evaluateComplexBinary(opcode, x, y);
  }
  if (!result)
    throw InterpreterError(nullptr, std::string(opcodeName(opcode)) +
                                        " is not defined on complex values");
  return fromComplex(*result);
}

/// A key whose signed order is IEEE totalOrder (-NaN < -inf < ... < -0 <
/// +0 < ... < inf < NaN).
int64_t totalOrderKey(double x) {
  int64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits < 0 ? (bits ^ INT64_MAX) : bits;
}

bool compare(ComparisonDirection direction, int ordering) {
  switch (direction) {
  case ComparisonDirection::Eq: return ordering == 0;
  case ComparisonDirection::Ne: return ordering != 0;
  case ComparisonDirection::Lt: return ordering < 0;
  case ComparisonDirection::Le: return ordering <= 0;
  case ComparisonDirection::Gt: return ordering > 0;
  case ComparisonDirection::Ge: return ordering >= 0;
  }
  return false;
}

Scalar evaluateCompare(const HloInstruction &instruction, PrimitiveType type,
                       Scalar x, Scalar y) {
  auto [direction, comparison] = comparisonOf(instruction);
  switch (elementClass(type)) {
  case ElementClass::Pred:
  case ElementClass::Unsigned: {
    uint64_t a = static_cast<uint64_t>(x.i), b = static_cast<uint64_t>(y.i);
    return fromInt(compare(direction, (a > b) - (a < b)));
  }
  case ElementClass::Signed:
    return fromInt(compare(direction, (x.i > y.i) - (x.i < y.i)));
  case ElementClass::Complex: {
    bool equal = x.re == y.re && x.im == y.im;
    if (direction == ComparisonDirection::Eq) return fromInt(equal);
    if (direction == ComparisonDirection::Ne) return fromInt(!equal);
    fail(instruction, "ordered comparison of complex values");
  }
  case ElementClass::Float:
    if (comparison == ComparisonType::TotalOrder) {
      int64_t a = totalOrderKey(x.re), b = totalOrderKey(y.re);
      return fromInt(compare(direction, (a > b) - (a < b)));
    }
    if (std::isnan(x.re) || std::isnan(y.re))
      return fromInt(direction == ComparisonDirection::Ne);
    return fromInt(compare(direction, (x.re > y.re) - (x.re < y.re)));
  }
  return fromInt(0);
}

/// Rounds `mantissa`/`exponent` bits as reduce-precision does on a value
/// of `source` type (XLA's bit-level algorithm, in values): the mantissa to
/// nearest even at the last kept bit of the source's mantissa field -- for
/// the source's subnormals that field sits at its smallest normal exponent
/// -- then, only where `exponentBits` is narrower than the source's,
/// overflow to inf and underflow (below the reduced normal range) to signed
/// zero. With the source's own exponent width nothing is flushed: an f32 or
/// bf16 subnormal through exponent_bits=8 stays (fuzz seed 200402).
double reducePrecision(double x, int64_t exponentBits, int64_t mantissaBits,
                       PrimitiveType source) {
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return x;
  FloatFormat format = floatFormatOf(source);
  double magnitude = std::fabs(x);
  if (mantissaBits < format.mantissaBits) {
    int smallestNormal = 1 - format.bias;
    int exponent = std::max(std::ilogb(magnitude), smallestNormal);
    double quantum = std::ldexp(1.0, exponent - static_cast<int>(mantissaBits));
    magnitude = std::nearbyint(magnitude / quantum) * quantum;
  }
  if (exponentBits < format.exponentBits && magnitude != 0) {
    int reducedBias = (1 << (exponentBits - 1)) - 1;
    int exponent = std::ilogb(magnitude);
    if (exponent > reducedBias)
      magnitude = std::numeric_limits<double>::infinity();
    else if (exponent <= -reducedBias)
      magnitude = 0;
  }
  return std::copysign(magnitude, x);
}

/// Integer arithmetic on same-typed, same-shaped arrays without loading
/// Scalars. False if not applicable.
bool evaluateIntegerFastPath(const HloInstruction &instruction, const Operands &operands,
                             Literal &result) {
  PrimitiveType type = instruction.shape().elementType();
  HloOpcode opcode = instruction.opcode();
  if (!isIntegral(type) || operands.size() != 2 || opcode == HloOpcode::Compare)
    return false;
  for (const Literal *operand : operands)
    if (operand->shape().elementType() != type ||
        operand->intData().size() != result.intData().size())
      return false;
  const std::vector<int64_t> &x = operands[0]->intData(), &y = operands[1]->intData();
  std::vector<int64_t> &out = result.intData();
  // Wrapping with the width decided once (the common ops of long integer
  // chains, e.g. hash-based RNG expansions).
  IntegerWrap wrap(type);
  int width = primitiveBitWidth(type);
  uint64_t mask = widthMask(width);
  auto map = [&](auto f) {
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = wrap(f(static_cast<uint64_t>(x[i]), static_cast<uint64_t>(y[i])));
  };
  switch (opcode) {
  case HloOpcode::Add: map([](uint64_t a, uint64_t b) { return a + b; }); return true;
  case HloOpcode::Subtract: map([](uint64_t a, uint64_t b) { return a - b; }); return true;
  case HloOpcode::Multiply: map([](uint64_t a, uint64_t b) { return a * b; }); return true;
  case HloOpcode::And: map([](uint64_t a, uint64_t b) { return a & b; }); return true;
  case HloOpcode::Or: map([](uint64_t a, uint64_t b) { return a | b; }); return true;
  case HloOpcode::Xor: map([](uint64_t a, uint64_t b) { return a ^ b; }); return true;
  case HloOpcode::ShiftLeft:
    map([&](uint64_t a, uint64_t b) { return (b & mask) >= uint64_t(width) ? 0 : a << (b & mask); });
    return true;
  case HloOpcode::ShiftRightLogical:
    map([&](uint64_t a, uint64_t b) {
      return (b & mask) >= uint64_t(width) ? 0 : (a & mask) >> (b & mask);
    });
    return true;
  default:
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = integerBinary(opcode, type, x[i], y[i]).i;
    return true;
  }
}

/// out[i] = round(f(x[i], y[i])) over whole float arrays.
template <typename F>
void mapFloats(const std::vector<double> &x, const std::vector<double> &y,
               std::vector<double> &out, PrimitiveType type, F f) {
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = roundToFloatType(f(x[i], y[i]), type);
}

/// Real float arithmetic on same-shaped arrays, without per-element
/// dispatch (a 10^7-element fusion is mostly this). False if not applicable.
bool evaluateFloatFastPath(const HloInstruction &instruction, const Operands &operands,
                           Literal &result) {
  PrimitiveType type = instruction.shape().elementType();
  if (!isFloatingPoint(type) || operands.empty() ||
      operands[0]->shape().elementType() != type)
    return false;
  for (const Literal *operand : operands)
    if (operand->realData().size() != result.realData().size())
      return false;
  const std::vector<double> &x = operands[0]->realData();
  std::vector<double> &out = result.realData();
  HloOpcode opcode = instruction.opcode();
  if (operands.size() == 1) {
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = opcode == HloOpcode::Logistic
                   ? logisticInSteps(x[i], type)
                   : roundToFloatType(floatUnary(opcode, x[i]).re, type);
    return true;
  }
  if (operands.size() != 2)
    return false;
  const std::vector<double> &y = operands[1]->realData();
  switch (opcode) {
  case HloOpcode::Add: mapFloats(x, y, out, type, [](double a, double b) { return a + b; }); return true;
  case HloOpcode::Subtract: mapFloats(x, y, out, type, [](double a, double b) { return a - b; }); return true;
  case HloOpcode::Multiply: mapFloats(x, y, out, type, [](double a, double b) { return a * b; }); return true;
  case HloOpcode::Divide: mapFloats(x, y, out, type, [](double a, double b) { return a / b; }); return true;
  case HloOpcode::Maximum: mapFloats(x, y, out, type, floatMax); return true;
  case HloOpcode::Minimum: mapFloats(x, y, out, type, floatMin); return true;
  case HloOpcode::Power:
  case HloOpcode::Remainder:
  case HloOpcode::Atan2:
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = roundToFloatType(floatBinary(opcode, x[i], y[i]).re, type);
    return true;
  default:
    return false;
  }
}

} // namespace

Scalar loadScalar(const Literal &literal, int64_t index) {
  if (!literal.intData().empty())
    return fromInt(literal.intData()[index]);
  if (!literal.imagData().empty())
    return Scalar{0, literal.realData()[index], literal.imagData()[index]};
  return fromReal(literal.realData()[index]);
}

void storeScalar(Literal &literal, int64_t index, Scalar value) {
  if (!literal.intData().empty()) {
    literal.intData()[index] = value.i;
    return;
  }
  literal.realData()[index] = value.re;
  if (!literal.imagData().empty())
    literal.imagData()[index] = value.im;
}

Scalar roundScalar(Scalar value, PrimitiveType type) {
  switch (elementClass(type)) {
  case ElementClass::Float:
    return fromReal(roundToFloatType(value.re, type));
  case ElementClass::Complex:
    return Scalar{0, roundToFloatType(value.re, type), roundToFloatType(value.im, type)};
  default:
    return fromInt(wrapInteger(value.i, type));
  }
}

Scalar evaluateUnary(HloOpcode opcode, PrimitiveType operandType,
                     PrimitiveType resultType, Scalar x) {
  switch (elementClass(operandType)) {
  case ElementClass::Float:
    if (opcode == HloOpcode::Logistic)
      return fromReal(logisticInSteps(x.re, resultType));
    return roundScalar(floatUnary(opcode, x.re), resultType);
  case ElementClass::Complex:
    return roundScalar(complexUnary(opcode, operandType, asComplex(x)), resultType);
  default:
    return integerUnary(opcode, operandType, x.i);
  }
}

Scalar evaluateBinary(HloOpcode opcode, const HloInstruction *instruction,
                      PrimitiveType operandType, PrimitiveType resultType,
                      Scalar x, Scalar y) {
  if (opcode == HloOpcode::Compare)
    return evaluateCompare(*instruction, operandType, x, y);
  switch (elementClass(operandType)) {
  case ElementClass::Float:
    return roundScalar(floatBinary(opcode, x.re, y.re), resultType);
  case ElementClass::Complex:
    return roundScalar(complexBinary(opcode, operandType, asComplex(x), asComplex(y)), resultType);
  case ElementClass::Pred: {
    // pred arithmetic is on 0/1 with the result reduced to a truth value.
    Scalar result = integerBinary(opcode, PrimitiveType::U8, x.i, y.i);
    return fromInt(result.i != 0);
  }
  default:
    return integerBinary(opcode, operandType, x.i, y.i);
  }
}

Scalar convertScalar(Scalar value, PrimitiveType from, PrimitiveType to) {
  ElementClass source = elementClass(from), target = elementClass(to);
  if (source == ElementClass::Float || source == ElementClass::Complex) {
    double x = value.re;
    switch (target) {
    case ElementClass::Float:
      return fromReal(roundToFloatType(x, to));
    case ElementClass::Complex:
      return roundScalar(Scalar{0, x, source == ElementClass::Complex ? value.im : 0}, to);
    case ElementClass::Pred:
      return fromInt(x != 0 || (source == ElementClass::Complex && value.im != 0));
    case ElementClass::Signed:
    case ElementClass::Unsigned: {
      // Saturating, toward zero; NaN -> 0.
      if (std::isnan(x))
        return fromInt(0);
      int width = primitiveBitWidth(to);
      double truncated = std::trunc(x);
      if (target == ElementClass::Signed) {
        double low = -std::ldexp(1.0, width - 1), high = std::ldexp(1.0, width - 1);
        if (truncated <= low)
          return fromInt(wrapInteger(int64_t(1) << (width - 1), to));
        if (truncated >= high)
          return fromInt(width >= 64 ? INT64_MAX : (int64_t(1) << (width - 1)) - 1);
        return fromInt(static_cast<int64_t>(truncated));
      }
      if (truncated <= 0)
        return fromInt(0);
      if (truncated >= std::ldexp(1.0, width))
        return fromInt(wrapInteger(-1, to));
      return fromInt(static_cast<int64_t>(static_cast<uint64_t>(truncated)));
    }
    }
  }
  // Integer or pred source.
  switch (target) {
  case ElementClass::Float:
  case ElementClass::Complex: {
    double x = source == ElementClass::Unsigned
                   ? static_cast<double>(static_cast<uint64_t>(value.i))
                   : static_cast<double>(value.i);
    if (to == PrimitiveType::F32 || to == PrimitiveType::C64)
      x = source == ElementClass::Unsigned
              ? static_cast<float>(static_cast<uint64_t>(value.i))
              : static_cast<float>(value.i);
    return roundScalar(fromReal(x), to);
  }
  default:
    return fromInt(wrapInteger(value.i, to));
  }
}

Scalar clampScalar(PrimitiveType type, Scalar low, Scalar x, Scalar high) {
  Scalar raised = evaluateBinary(HloOpcode::Maximum, nullptr, type, type, x, low);
  return evaluateBinary(HloOpcode::Minimum, nullptr, type, type, raised, high);
}

Literal evaluateElementwise(const HloInstruction &instruction,
                            const std::vector<const Literal *> &operands) {
  const Shape &shape = instruction.shape();
  Literal result(shape);
  int64_t count = result.elementCount();
  PrimitiveType resultType = shape.elementType();
  HloOpcode opcode = instruction.opcode();
  // Scalar operands of select/clamp broadcast.
  auto at = [&](int operand, int64_t i) {
    const Literal &literal = *operands[operand];
    return loadScalar(literal, literal.shape().rank() == 0 ? 0 : i);
  };
  switch (opcode) {
  case HloOpcode::Select:
    if (operands[0]->shape().rank() == shape.rank()) {
      // Same-shaped branches (the common case): copy the chosen element.
      const std::vector<int64_t> &predicate = operands[0]->intData();
      for (int64_t i = 0; i < count; ++i)
        copyElement(result, i, *operands[predicate[i] ? 1 : 2], i);
      return result;
    }
    for (int64_t i = 0; i < count; ++i)
      storeScalar(result, i, at(0, i).i ? at(1, i) : at(2, i));
    return result;
  case HloOpcode::Clamp: {
    PrimitiveType type = operands[1]->shape().elementType();
    for (int64_t i = 0; i < count; ++i)
      storeScalar(result, i, clampScalar(type, at(0, i), at(1, i), at(2, i)));
    return result;
  }
  case HloOpcode::Convert: {
    PrimitiveType from = operands[0]->shape().elementType();
    if (isIntegral(from) && isIntegral(resultType) && operands[0]->intData().size() ==
                                                         result.intData().size()) {
      // Integer to integer: the low bits, sign- or zero-extended.
      const std::vector<int64_t> &x = operands[0]->intData();
      IntegerWrap wrap(resultType);
      for (size_t i = 0; i < x.size(); ++i)
        result.intData()[i] = wrap(static_cast<uint64_t>(x[i]));
      return result;
    }
    for (int64_t i = 0; i < count; ++i)
      storeScalar(result, i, convertScalar(at(0, i), from, resultType));
    return result;
  }
  case HloOpcode::ReducePrecision: {
    int64_t exponentBits = reducedPrecisionOf(instruction).exponentBits;
    int64_t mantissaBits = reducedPrecisionOf(instruction).mantissaBits;
    for (int64_t i = 0; i < count; ++i)
      result.realData()[i] = roundToFloatType(
          reducePrecision(operands[0]->realData()[i], exponentBits, mantissaBits,
                          operands[0]->shape().elementType()),
          resultType);
    return result;
  }
  case HloOpcode::StochasticConvert:
    fail(instruction, "unsupported by the interpreter: stochastic-convert ('" +
                          instruction.name() + "')");
  default:
    break;
  }
  PrimitiveType operandType = operands[0]->shape().elementType();
  try {
    if (evaluateFloatFastPath(instruction, operands, result) ||
        evaluateIntegerFastPath(instruction, operands, result))
      return result;
    if (operands.size() == 1) {
      for (int64_t i = 0; i < count; ++i)
        storeScalar(result, i, evaluateUnary(opcode, operandType, resultType, at(0, i)));
    } else {
      for (int64_t i = 0; i < count; ++i)
        storeScalar(result, i,
                    evaluateBinary(opcode, &instruction, operandType, resultType,
                                   at(0, i), at(1, i)));
    }
  } catch (const InterpreterError &error) {
    if (error.instruction)
      throw;
    fail(instruction, error.what());
  }
  return result;
}

} // namespace hlo::interp
