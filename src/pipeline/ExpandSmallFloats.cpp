//===- ExpandSmallFloats.cpp - 8-, 6- and 4-bit float conversions --------===//
//
// Owns xla-gpu-expand-small-floats (Passes.td): `arith.extf` from and
// `arith.truncf` to the floats narrower than 16 bits (f8E4M3FN, f8E5M2,
// the FNUZ kinds, f8E3M4, f8E4M3, f8E8M0FNU, f6, f4E2M1FN), and their
// constants (and integer conversions to and from them, through f32), as
// integer code on the bits, for every target. The emitters
// compute every operation on these types in f32, so these conversions are
// the only arithmetic left on them; after this pass they appear only as
// storage (loads, stores, selects, bitcasts), which LLVM's type converter
// maps to integers of their width.
//
// The results match ml_dtypes (and XLA, which ports its routine) bit for
// bit: round to nearest even with the destination's subnormals; overflow
// to inf, to NaN (the "fn"/"fnuz" kinds, f8E8M0FNU) or to the largest
// value (f4E2M1FN); no -0 in the fnuz kinds; f8E8M0FNU rounds a
// significand of 1.5 or more up (and every value between 2^-127 and
// 2^-126, as ml_dtypes rounds f32 subnormals) and has no zero (0 and
// negatives are NaN). The NaN bits are the interpreter's (hlo_parser/FloatFormat): an
// IEEE-like NaN keeps its sign and the top of its payload; f4E2M1FN,
// which has no NaN, gets -0 as XLA gives it.
//
// Upstream arith-expand has f8E8M0FNU/f4E2M1FN patterns, but they round
// ties away from zero and map NaN differently, and cover no other type.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/APFloat.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_EXPANDSMALLFLOATSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {

void addSmallFloatLowering(PassManager &pm) {
  // Arithmetic an emitter left on these types (none should) computed in
  // f32 between conversions, then the conversions themselves. (The pass
  // cannot name f8E4M3B11FNUZ.)
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E3M4",
                            "f8E4M3",   "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  pm.addPass(createExpandSmallFloatsPass());
}

bool isSmallFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType && floatType.getWidth() < 16;
}

namespace {

/// Whether APFloat converts to or from `type` by rules other than XLA's
/// (ml_dtypes'): f8E8M0FNU (zero, negatives, subnormal f32s) and
/// f4E2M1FN (NaN and overflow), so that arith's folders must not.
bool foldsUnlikeXla(Type type) {
  return isa<Float8E8M0FNUType, Float4E2M1FNType>(getElementTypeOrSelf(type));
}

/// What the conversions need to know of a small float type, from its
/// APFloat semantics.
struct SmallFloatFormat {
  unsigned width;         // storage bits
  unsigned mantissaBits;  // explicit significand bits
  int bias;               // exponent bias (of a normal number)
  bool hasInf, hasNaN, isSigned, isE8M0;
  uint64_t largest;       // bits of the largest finite value
  uint64_t infinity;      // bits of +inf (hasInf)
  uint64_t nan;           // bits of the NaN a conversion gives (hasNaN)
  bool nanIsNegativeZero; // fnuz: 0x80 is the one NaN

  explicit SmallFloatFormat(FloatType type) {
    const llvm::fltSemantics &sem = type.getFloatSemantics();
    width = type.getWidth();
    mantissaBits = llvm::APFloat::semanticsPrecision(sem) - 1;
    bias = 1 - llvm::APFloat::semanticsMinExponent(sem);
    hasInf = llvm::APFloat::semanticsHasInf(sem);
    hasNaN = llvm::APFloat::semanticsHasNaN(sem);
    isSigned = llvm::APFloat::semanticsHasSignedRepr(sem);
    isE8M0 = !isSigned;
    if (isE8M0)
      bias = 127;
    largest = llvm::APFloat::getLargest(sem).bitcastToAPInt().getZExtValue();
    infinity = hasInf ? llvm::APFloat::getInf(sem).bitcastToAPInt().getZExtValue() : 0;
    nan = hasNaN ? llvm::APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue() : 0;
    nanIsNegativeZero = hasNaN && isSigned && nan == (uint64_t{1} << (width - 1));
  }
  uint64_t signBit() const { return uint64_t{1} << (width - 1); }
  uint64_t exponentOnes() const { return (uint64_t{1} << (width - 1 - mantissaBits)) - 1; }
  uint64_t mantissaMask() const { return (uint64_t{1} << mantissaBits) - 1; }
};

/// Integer and float ops on scalars or vectors of one shape.
class Builder {
public:
  Builder(OpBuilder &b, Location loc, Type shapeOf) : b(b), loc(loc) {
    if (auto vector = dyn_cast<VectorType>(shapeOf))
      shape = vector;
  }
  Type like(Type element) const {
    return shape ? Type(VectorType(shape).clone(element)) : element;
  }
  Type intType(unsigned bits) const { return like(b.getIntegerType(bits)); }
  Value constant(Type type, uint64_t value) {
    auto element = cast<IntegerType>(getElementTypeOrSelf(type));
    auto attr = b.getIntegerAttr(element, APInt(element.getWidth(), value));
    if (shape)
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(cast<ShapedType>(type), Attribute(attr)));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value floatConstant(Type type, double value) {
    auto element = cast<FloatType>(getElementTypeOrSelf(type));
    auto attr = b.getFloatAttr(element, value);
    if (shape)
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(cast<ShapedType>(type), Attribute(attr)));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value c(Value like, uint64_t value) { return constant(like.getType(), value); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value maxS(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  Value zext(Value x, unsigned bits) {
    Type type = intType(bits);
    return x.getType() == type ? x : Value(arith::ExtUIOp::create(b, loc, type, x));
  }
  Value trunc(Value x, unsigned bits) {
    Type type = intType(bits);
    return x.getType() == type ? x : Value(arith::TruncIOp::create(b, loc, type, x));
  }
  Value bitcast(Value x, Type element) {
    return arith::BitcastOp::create(b, loc, like(element), x);
  }
  /// x rounded to nearest even after dropping its low `shift` bits
  /// (0 < shift < x's width).
  Value roundShiftRight(Value x, Value shift) {
    Value one = c(x, 1);
    Value halfMinusOne = sub(shl(one, sub(shift, one)), one);
    Value odd = andI(shr(x, shift), one);
    return shr(add(add(x, halfMinusOne), odd), shift);
  }

  OpBuilder &b;
  Location loc;

private:
  VectorType shape;
};

/// The f32 bits (i32) of the small float whose bits are `bits` (iN).
Value decodeToF32Bits(Builder &b, Value bits, const SmallFloatFormat &f) {
  using P = arith::CmpIPredicate;
  Value x = b.zext(bits, 32);
  if (f.isE8M0) {
    // A bare biased exponent, f32's own bias; 0 is 2^-127, an f32 subnormal.
    Value result = b.shl(x, b.c(x, 23));
    result = b.select(b.cmp(P::eq, x, b.c(x, 0)), b.c(x, 0x00400000), result);
    return b.select(b.cmp(P::eq, x, b.c(x, 0xff)), b.c(x, 0x7fc00000), result);
  }
  unsigned m = f.mantissaBits;
  Value magnitude = b.andI(x, b.c(x, f.signBit() - 1));
  Value exponent = b.shr(magnitude, b.c(x, m));
  Value mantissa = b.andI(magnitude, b.c(x, f.mantissaMask()));
  // Normal: the fields moved into place and rebiased.
  Value normal = b.add(b.shl(magnitude, b.c(x, 23 - m)),
                       b.c(x, uint64_t(127 - f.bias) << 23));
  // Subnormal (and zero): mantissa * 2^(1 - bias - m), exact in f32.
  Type f32 = b.b.getF32Type();
  Value scaled = arith::MulFOp::create(
      b.b, b.loc, arith::UIToFPOp::create(b.b, b.loc, b.like(f32), mantissa),
      b.floatConstant(b.like(f32), std::ldexp(1.0, 1 - f.bias - int(m))));
  Value subnormal = arith::BitcastOp::create(b.b, b.loc, x.getType(), scaled);
  Value result = b.select(b.cmp(P::eq, exponent, b.c(x, 0)), subnormal, normal);
  if (f.hasInf) { // inf, or a quiet NaN with its payload at the top of f32's
    Value quiet = b.select(b.cmp(P::ne, mantissa, b.c(x, 0)), b.c(x, 0x00400000), b.c(x, 0));
    Value special = b.orI(b.orI(b.c(x, 0x7f800000), b.shl(mantissa, b.c(x, 23 - m))), quiet);
    result = b.select(b.cmp(P::eq, exponent, b.c(x, f.exponentOnes())), special, result);
  }
  else if (f.hasNaN && !f.nanIsNegativeZero) // "fn": only s.1..1.1..1 is NaN
    result = b.select(b.cmp(P::eq, magnitude, b.c(x, f.nan)), b.c(x, 0x7fc00000), result);
  Value sign = b.shl(b.shr(x, b.c(x, f.width - 1)), b.c(x, 31));
  result = b.orI(result, sign);
  if (f.nanIsNegativeZero)
    result = b.select(b.cmp(P::eq, x, b.c(x, f.nan)), b.c(x, 0x7fc00000), result);
  return result;
}

/// The bits (iN) of the small float nearest to the float whose bits are
/// `bits` (i32 of an f32 or i64 of an f64).
Value encodeFromBits(Builder &b, Value bits, const SmallFloatFormat &f) {
  using P = arith::CmpIPredicate;
  unsigned w = getElementTypeOrSelf(bits.getType()).getIntOrFloatBitWidth();
  unsigned sourceMantissa = w == 64 ? 52 : 23;
  uint64_t sourceBias = w == 64 ? 1023 : 127;
  uint64_t sourceInf = w == 64 ? 0x7ff0000000000000ull : 0x7f800000ull;
  Value x = bits;
  Value magnitude = b.andI(x, b.c(x, (uint64_t{1} << (w - 1)) - 1));
  Value negative = b.cmp(P::slt, x, b.c(x, 0));
  Value isNan = b.cmp(P::ugt, magnitude, b.c(x, sourceInf));
  Value isInf = b.cmp(P::eq, magnitude, b.c(x, sourceInf));
  Value exponent = b.shr(magnitude, b.c(x, sourceMantissa));
  auto narrow = [&](Value v) { return b.trunc(v, f.width); };
  Value zeroN = b.constant(b.intType(f.width), 0);

  if (f.isE8M0) {
    // A significand of 1.5 or more rounds up.
    Value rebias = b.c(x, sourceBias - 127);
    Value rounded = b.shr(b.add(magnitude, b.c(x, uint64_t{1} << (sourceMantissa - 1))),
                          b.c(x, sourceMantissa));
    Value biased = b.maxS(b.sub(rounded, rebias), b.c(x, 0));
    // Between 2^-127 and 2^-126 (f32 subnormals), ml_dtypes rounds every
    // value up; below, to 2^-127.
    Value twoToMinus127 = b.c(x, w == 32 ? 0x00400000 : uint64_t(896) << 52);
    Value twoToMinus126 = b.c(x, w == 32 ? 0x00800000 : uint64_t(897) << 52);
    Value belowMinNormal = b.cmp(P::ult, magnitude, twoToMinus126);
    biased = b.select(belowMinNormal,
                      b.select(b.cmp(P::ugt, magnitude, twoToMinus127), b.c(x, 1), b.c(x, 0)),
                      biased);
    Value invalid = b.orI(b.orI(isNan, isInf), b.orI(negative, b.cmp(P::eq, magnitude, b.c(x, 0))));
    invalid = b.orI(invalid, b.cmp(P::uge, biased, b.c(x, 0xff)));
    return b.select(invalid, b.constant(b.intType(8), 0xff), narrow(biased));
  }

  unsigned m = f.mantissaBits;
  uint64_t shift = sourceMantissa - m;
  uint64_t rebias = sourceBias - uint64_t(f.bias);
  // Normal in the destination: round the significand in place (a carry
  // moves into the exponent), then rebias.
  Value normal = b.sub(b.roundShiftRight(magnitude, b.c(x, shift)), b.c(x, rebias << m));
  // Subnormal in the destination (or zero): the significand with its
  // leading one, shifted to the destination's smallest exponent.
  Value isSourceNormal = b.cmp(P::ne, exponent, b.c(x, 0));
  Value significand = b.orI(b.andI(magnitude, b.c(x, (uint64_t{1} << sourceMantissa) - 1)),
                            b.select(isSourceNormal, b.c(x, uint64_t{1} << sourceMantissa),
                                     b.c(x, 0)));
  Value effectiveExponent = b.select(isSourceNormal, exponent, b.c(x, 1));
  // shift + (1 - destination exponent), at most sourceMantissa + 2 (all
  // bits dropped, rounds to 0).
  Value subnormalShift = b.minU(b.sub(b.c(x, shift + rebias + 1), effectiveExponent),
                                b.c(x, sourceMantissa + 2));
  Value subnormal = b.roundShiftRight(significand, subnormalShift);
  Value isSubnormal = b.cmp(P::ule, exponent, b.c(x, rebias));
  Value result = b.select(isSubnormal, subnormal, normal);

  // Past the largest finite value: inf, NaN or the largest (f4E2M1FN).
  uint64_t largestMagnitude = f.largest & (f.signBit() - 1);
  Value overflow = b.orI(b.cmp(P::ugt, result, b.c(x, largestMagnitude)), isInf);
  uint64_t overflowBits = f.hasInf ? f.infinity : f.hasNaN ? f.nan : largestMagnitude;
  Value resultN = narrow(b.select(overflow, b.c(x, overflowBits), result));
  Value signN = b.select(negative, b.constant(b.intType(f.width), f.signBit()), zeroN);
  if (f.nanIsNegativeZero) {
    // One NaN (0x80), no -0: the sign only on nonzero finite results.
    Value keepSign = b.cmp(P::ne, resultN, zeroN);
    Value signed_ = b.orI(resultN, b.select(keepSign, signN, zeroN));
    signed_ = b.select(overflow, b.constant(b.intType(f.width), f.nan), signed_);
    return b.select(isNan, b.constant(b.intType(f.width), f.nan), signed_);
  }
  Value signed_ = b.orI(resultN, signN);
  if (!f.hasNaN) // f4E2M1FN: NaN -> -0 as XLA converts it
    return b.select(isNan, b.constant(b.intType(f.width), f.signBit()), signed_);
  Value nanBits;
  if (f.hasInf) {
    // IEEE-like: the sign and the top of the payload, quiet.
    Value payload = b.trunc(b.shr(b.andI(magnitude, b.c(x, (uint64_t{1} << sourceMantissa) - 1)),
                                  b.c(x, shift)),
                            f.width);
    payload = b.orI(payload, b.constant(b.intType(f.width), uint64_t{1} << (m - 1)));
    nanBits = b.orI(b.orI(signN, b.constant(b.intType(f.width), f.infinity)), payload);
  } else { // "fn": s.1..1.1..1 with the sign
    nanBits = b.orI(signN, b.constant(b.intType(f.width), f.nan));
  }
  return b.select(isNan, nanBits, signed_);
}

/// `value` (any float) as the bits of an f32 or f64: narrower floats are
/// extended to f32 first (exactly).
Value sourceBits(Builder &b, Value value) {
  auto element = cast<FloatType>(getElementTypeOrSelf(value.getType()));
  if (element.isF64())
    return b.bitcast(value, b.b.getI64Type());
  if (!element.isF32())
    value = arith::ExtFOp::create(b.b, b.loc, b.like(b.b.getF32Type()), value);
  return b.bitcast(value, b.b.getI32Type());
}

/// `value` (small floats) extended to f32.
Value smallToF32(Builder &b, Value value) {
  SmallFloatFormat format(cast<FloatType>(getElementTypeOrSelf(value.getType())));
  Value bits = b.bitcast(value, b.b.getIntegerType(format.width));
  return b.bitcast(decodeToF32Bits(b, bits, format), b.b.getF32Type());
}

void expand(arith::ExtFOp extend) {
  OpBuilder ob(extend);
  Builder b(ob, extend.getLoc(), extend.getType());
  auto to = cast<FloatType>(getElementTypeOrSelf(extend.getType()));
  Value result = smallToF32(b, extend.getIn());
  if (to.getWidth() > 32)
    result = arith::ExtFOp::create(ob, extend.getLoc(), extend.getType(), result);
  else if (!to.isF32()) // f16/bf16: rounded once from the exact f32
    result = arith::TruncFOp::create(ob, extend.getLoc(), extend.getType(), result);
  extend.replaceAllUsesWith(result);
  extend.erase();
}

void expand(arith::TruncFOp truncate) {
  OpBuilder ob(truncate);
  Builder b(ob, truncate.getLoc(), truncate.getType());
  auto to = cast<FloatType>(getElementTypeOrSelf(truncate.getType()));
  Value in = truncate.getIn();
  if (isSmallFloat(in.getType())) // between small floats: through the exact f32
    in = smallToF32(b, in);
  Value bits = encodeFromBits(b, sourceBits(b, in), SmallFloatFormat(to));
  truncate.replaceAllUsesWith(b.bitcast(bits, to));
  truncate.erase();
}

/// An integer conversion to or from small floats, which canonicalization
/// makes of `truncf(sitofp x)` and `fptosi(extf x)`, through f32: every
/// small float is exact in f32, and every integer that f32 rounds lies
/// beyond the largest finite small float but f8E8M0FNU's, whose rounding
/// then sees the same f32 the unfolded code computed.
void expandIntConversion(Operation *op) {
  OpBuilder ob(op);
  Location loc = op->getLoc();
  Value in = op->getOperand(0);
  Type resultType = op->getResult(0).getType();
  Type f32 = Builder(ob, loc, resultType).like(ob.getF32Type()); // in's shape too
  Value result;
  Operation *smallConversion; // expanded once `op` is gone
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    Value wide = isa<arith::SIToFPOp>(op) ? arith::SIToFPOp::create(ob, loc, f32, in).getResult()
                                          : arith::UIToFPOp::create(ob, loc, f32, in).getResult();
    smallConversion = arith::TruncFOp::create(ob, loc, resultType, wide);
    result = smallConversion->getResult(0);
  } else {
    smallConversion = arith::ExtFOp::create(ob, loc, f32, in);
    Value wide = smallConversion->getResult(0);
    result = isa<arith::FPToSIOp>(op) ? arith::FPToSIOp::create(ob, loc, resultType, wide).getResult()
                                      : arith::FPToUIOp::create(ob, loc, resultType, wide).getResult();
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  if (auto truncate = dyn_cast<arith::TruncFOp>(smallConversion))
    expand(truncate);
  else
    expand(cast<arith::ExtFOp>(smallConversion));
}

/// A constant of small floats as the integer constant of its bits.
void expandConstant(arith::ConstantOp constant) {
  OpBuilder b(constant);
  Type type = constant.getType();
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  Type intElement = b.getIntegerType(element.getWidth());
  TypedAttr bits;
  if (auto scalar = dyn_cast<FloatAttr>(constant.getValue()))
    bits = b.getIntegerAttr(intElement, scalar.getValue().bitcastToAPInt());
  else
    bits = cast<DenseElementsAttr>(constant.getValue())
               .bitcast(intElement);
  auto integer = arith::ConstantOp::create(b, constant.getLoc(), bits);
  auto cast = arith::BitcastOp::create(b, constant.getLoc(), type, integer);
  constant.replaceAllUsesWith(cast.getResult());
  constant.erase();
}

struct ExpandSmallFloatsPass : impl::ExpandSmallFloatsPassBase<ExpandSmallFloatsPass> {
  using ExpandSmallFloatsPassBase::ExpandSmallFloatsPassBase;
  void runOnOperation() override {
    SmallVector<Operation *> conversions;
    SmallVector<arith::ConstantOp> constants;
    SmallVector<Operation *> intConversions;
    // With constantOperandsOnly: the conversions of values the
    // canonicalizer can fold in one run: constants and arith ops of them
    // (`truncf(extf(c))`). Definitions come before uses in the walk.
    llvm::DenseSet<Value> foldable;
    auto isFoldable = [&](Value value) {
      return foldable.contains(value) || matchPattern(value, m_Constant());
    };
    getOperation().walk([&](Operation *op) {
      if (constantOperandsOnly) {
        // Conversions to and from the types whose APFloat rules differ
        // from XLA's go in every run: a value that is no constant yet may
        // become one (a one-element iota) in the canonicalizer that
        // follows, which would fold it by those rules.
        bool differentRules = llvm::any_of(op->getOperandTypes(), foldsUnlikeXla) ||
                              llvm::any_of(op->getResultTypes(), foldsUnlikeXla);
        bool constantOperands =
            op->getNumOperands() > 0 && llvm::all_of(op->getOperands(), isFoldable);
        if (!differentRules && !constantOperands)
          return;
        if (constantOperands && isa<arith::ArithDialect>(op->getDialect()) &&
            op->getNumResults() == 1)
          foldable.insert(op->getResult(0));
      }
      if (auto extend = dyn_cast<arith::ExtFOp>(op); extend && isSmallFloat(extend.getIn().getType()))
        conversions.push_back(op);
      else if (auto truncate = dyn_cast<arith::TruncFOp>(op); truncate && isSmallFloat(truncate.getType()))
        conversions.push_back(op);
      else if (auto constant = dyn_cast<arith::ConstantOp>(op);
               constant && !constantOperandsOnly && isSmallFloat(constant.getType()))
        constants.push_back(constant);
      else if (isa<arith::SIToFPOp, arith::UIToFPOp>(op) && isSmallFloat(op->getResult(0).getType()))
        intConversions.push_back(op);
      else if (isa<arith::FPToSIOp, arith::FPToUIOp>(op) && isSmallFloat(op->getOperand(0).getType()))
        intConversions.push_back(op);
    });
    for (Operation *op : intConversions)
      expandIntConversion(op);
    for (Operation *op : conversions) {
      if (auto extend = dyn_cast<arith::ExtFOp>(op))
        expand(extend);
      else
        expand(cast<arith::TruncFOp>(op));
    }
    for (arith::ConstantOp constant : constants)
      expandConstant(constant);
  }
};

} // namespace
} // namespace hlo::pipeline
