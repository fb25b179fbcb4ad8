//===- LinearIndex.cpp - Row-major linear indices, folded -----------------===//
#include "pipeline/LinearIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Whether `value` is never negative by how it is made: a non-negative
/// constant, a thread or block id or dimension, a loop counter counting
/// up from a non-negative start, or unsigned arithmetic and sums and
/// products of such values.
bool isNonNegative(Value value, int depth = 0) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isNegative();
  if (depth > 24)
    return false;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    return loop && argument == loop.getInductionVar() &&
           isNonNegative(loop.getLowerBound(), depth + 1) &&
           isNonNegative(loop.getStep(), depth + 1);
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp, arith::DivUIOp,
          arith::RemUIOp>(op))
    return true;
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::RemSIOp, arith::MaxUIOp,
          arith::MinUIOp>(op))
    return isNonNegative(op->getOperand(0), depth + 1) &&
           isNonNegative(op->getOperand(1), depth + 1);
  return false;
}

/// The plain form of the index arithmetic: multiplies and adds, then
/// divisions and remainders by positive constants (unsigned, or signed of
/// a non-negative value) of the values they start from (the symbols).
class AffineIndex {
public:
  explicit AffineIndex(MLIRContext *context) : context(context) {}

  /// Whether every symbol is non-negative: then so is every part of an
  /// expression of them with non-negative constants.
  bool symbolsNonNegative() const {
    return llvm::all_of(values, [](Value value) { return isNonNegative(value); });
  }

  AffineExpr of(Value value, int depth = 0) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)) && !constant.isNegative())
      return getAffineConstantExpr(constant.getSExtValue(), context);
    Operation *op = value.getDefiningOp();
    auto positiveConstant = [&](Value operand) -> std::optional<int64_t> {
      APInt c;
      if (matchPattern(operand, m_ConstantInt(&c)) && c.isStrictlyPositive())
        return c.getSExtValue();
      return std::nullopt;
    };
    if (op && depth < 24) {
      if (auto add = dyn_cast<arith::AddIOp>(op))
        return of(add.getLhs(), depth + 1) + of(add.getRhs(), depth + 1);
      if (auto mul = dyn_cast<arith::MulIOp>(op)) {
        if (std::optional<int64_t> c = positiveConstant(mul.getRhs()))
          return of(mul.getLhs(), depth + 1) * *c;
        if (std::optional<int64_t> c = positiveConstant(mul.getLhs()))
          return of(mul.getRhs(), depth + 1) * *c;
      }
      if (auto div = dyn_cast<arith::DivUIOp>(op))
        if (std::optional<int64_t> c = positiveConstant(div.getRhs()))
          return of(div.getLhs(), depth + 1).floorDiv(*c);
      if (auto rem = dyn_cast<arith::RemUIOp>(op))
        if (std::optional<int64_t> c = positiveConstant(rem.getRhs()))
          return of(rem.getLhs(), depth + 1) % *c;
      if (auto div = dyn_cast<arith::DivSIOp>(op))
        if (std::optional<int64_t> c = positiveConstant(div.getRhs());
            c && isNonNegative(div.getLhs()))
          return of(div.getLhs(), depth + 1).floorDiv(*c);
      if (auto rem = dyn_cast<arith::RemSIOp>(op))
        if (std::optional<int64_t> c = positiveConstant(rem.getRhs());
            c && isNonNegative(rem.getLhs()))
          return of(rem.getLhs(), depth + 1) % *c;
    }
    auto [it, inserted] = symbols.try_emplace(value, symbols.size());
    if (inserted)
      values.push_back(value);
    return getAffineSymbolExpr(it->second, context);
  }

  MLIRContext *context;
  llvm::DenseMap<Value, unsigned> symbols;
  SmallVector<Value> values;
};

/// `(e / a) / b` as `e / (a * b)`, everywhere in `expr`.
AffineExpr mergeNestedDivisions(AffineExpr expr) {
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return expr;
  AffineExpr lhs = mergeNestedDivisions(binary.getLHS());
  AffineExpr rhs = mergeNestedDivisions(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::Mod:
    return lhs % rhs;
  case AffineExprKind::FloorDiv: {
    auto inner = dyn_cast<AffineBinaryOpExpr>(lhs);
    auto outer = dyn_cast<AffineConstantExpr>(rhs);
    if (inner && outer && inner.getKind() == AffineExprKind::FloorDiv)
      if (auto first = dyn_cast<AffineConstantExpr>(inner.getRHS()))
        return inner.getLHS().floorDiv(first.getValue() * outer.getValue());
    return lhs.floorDiv(rhs);
  }
  default:
    return expr;
  }
}

/// Divisions and remainders in `expr`; whether every constant in it is
/// non-negative (so that its divisions are of non-negative values and
/// unsigned arithmetic computes them).
int64_t countDivisions(AffineExpr expr, bool &nonNegative) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    nonNegative &= constant.getValue() >= 0;
    return 0;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return 0;
  int64_t own = expr.getKind() == AffineExprKind::FloorDiv ||
                        expr.getKind() == AffineExprKind::Mod ||
                        expr.getKind() == AffineExprKind::CeilDiv
                    ? 1
                    : 0;
  return own + countDivisions(binary.getLHS(), nonNegative) +
         countDivisions(binary.getRHS(), nonNegative);
}

/// `expr` as unsigned index arithmetic on `symbols`.
Value emit(OpBuilder &b, Location loc, AffineExpr expr, ArrayRef<Value> symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(b, loc, constant.getValue());
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = emit(b, loc, binary.getLHS(), symbols);
  Value rhs = emit(b, loc, binary.getRHS(), symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::FloorDiv:
    return arith::DivUIOp::create(b, loc, lhs, rhs);
  default:
    return arith::RemUIOp::create(b, loc, lhs, rhs);
  }
}

/// Multiplies and adds, minor index last (the plain linearization).
Value plainLinearIndex(OpBuilder &b, Location loc, ValueRange indices, ArrayRef<int64_t> shape) {
  Value linear = indices.front();
  for (size_t d = 1; d < indices.size(); ++d) {
    Value scaled = arith::MulIOp::create(b, loc, linear,
                                         arith::ConstantIndexOp::create(b, loc, shape[d]));
    linear = arith::AddIOp::create(b, loc, scaled, indices[d]);
  }
  return linear;
}

} // namespace

Value linearIndex(OpBuilder &b, Location loc, ValueRange indices, ArrayRef<int64_t> shape) {
  AffineIndex affine(b.getContext());
  AffineExpr linear = getAffineConstantExpr(0, b.getContext());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(indices.size()) - 1; d >= 0; --d) {
    linear = linear + affine.of(indices[d]) * stride;
    stride *= shape[d];
  }
  bool plainNonNegative = true;
  int64_t before = countDivisions(linear, plainNonNegative);
  AffineExpr folded = linear;
  for (int round = 0; round < 3; ++round)
    folded = simplifyAffineExpr(mergeNestedDivisions(folded), 0,
                                static_cast<unsigned>(affine.values.size()));
  bool nonNegative = true;
  int64_t after = countDivisions(folded, nonNegative);
  if (before == 0 || after >= before || !nonNegative || !affine.symbolsNonNegative())
    return plainLinearIndex(b, loc, indices, shape);
  return emit(b, loc, folded, affine.values);
}

} // namespace hlo::pipeline
