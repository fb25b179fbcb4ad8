//===- IndexingMap.cpp - Affine maps with a domain ------------------------===//
//
// Construction, composition, unused-symbol removal, evaluation and
// equality. Simplification is in IndexingMapSimplifier.cpp, the text form
// in IndexingMapText.cpp.
//
//===----------------------------------------------------------------------===//
#include "analysis/IndexingMap.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Casting.h"

#include <algorithm>

using namespace mlir;

namespace hlo {

IndexingMap::IndexingMap(AffineMap map, std::vector<IndexingVar> dims,
                         std::vector<IndexingVar> rangeVars,
                         std::vector<IndexingVar> runtimeVars,
                         std::vector<IndexingConstraint> constraintList)
    : affineMap(map), dims(std::move(dims)), ranges(std::move(rangeVars)),
      runtime(std::move(runtimeVars)) {
  for (IndexingConstraint &constraint : constraintList)
    addConstraint(constraint.expr, constraint.range);
  for (const auto *list : {&this->dims, &ranges, &runtime})
    for (const IndexingVar &var : *list)
      if (var.bounds.isEmpty())
        knownEmpty = true;
}

IndexingMap IndexingMap::fromSizes(AffineMap map,
                                   const std::vector<int64_t> &dimSizes,
                                   const std::vector<int64_t> &rangeSizes) {
  std::vector<IndexingVar> dims, ranges;
  for (int64_t size : dimSizes)
    dims.push_back({Interval{0, size - 1}, ""});
  for (int64_t size : rangeSizes)
    ranges.push_back({Interval{0, size - 1}, ""});
  return IndexingMap(map, std::move(dims), std::move(ranges), {});
}

IndexingMap IndexingMap::identity(const std::vector<int64_t> &sizes,
                                  MLIRContext *context) {
  return fromSizes(AffineMap::getMultiDimIdentityMap(sizes.size(), context),
                   sizes);
}

void IndexingMap::addConstraint(AffineExpr expr, Interval range) {
  for (IndexingConstraint &constraint : constraints) {
    if (constraint.expr == expr) {
      constraint.range = constraint.range.intersect(range);
      if (constraint.range.isEmpty())
        knownEmpty = true;
      return;
    }
  }
  constraints.push_back({expr, range});
  if (range.isEmpty())
    knownEmpty = true;
}

bool IndexingMap::removeUnusedSymbols() {
  if (isUndefined())
    return false;
  const int64_t symbolCount = getSymbolCount();
  llvm::SmallBitVector used(symbolCount);
  auto markUsed = [&](AffineExpr expr) {
    expr.walk([&](AffineExpr sub) {
      if (auto symbol = llvm::dyn_cast<AffineSymbolExpr>(sub))
        used.set(symbol.getPosition());
    });
  };
  for (AffineExpr result : affineMap.getResults())
    markUsed(result);
  for (const IndexingConstraint &constraint : constraints)
    markUsed(constraint.expr);
  if (used.all())
    return false;
  MLIRContext *context = getContext();
  std::vector<AffineExpr> replacements;
  std::vector<IndexingVar> newRanges, newRuntime;
  int64_t next = 0;
  for (int64_t i = 0; i < symbolCount; ++i) {
    if (!used.test(i)) {
      replacements.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    replacements.push_back(getAffineSymbolExpr(next++, context));
    (i < getRangeVarCount() ? newRanges : newRuntime)
        .push_back(getSymbolVar(i));
  }
  affineMap = affineMap.replaceDimsAndSymbols({}, replacements, getDimCount(),
                                              next);
  // replaceDimsAndSymbols with no dim replacements keeps the dims.
  for (IndexingConstraint &constraint : constraints)
    constraint.expr = constraint.expr.replaceSymbols(replacements);
  ranges = std::move(newRanges);
  runtime = std::move(newRuntime);
  return true;
}

int64_t evaluateAffineExpr(AffineExpr expr, const std::vector<int64_t> &dimValues,
                           const std::vector<int64_t> &symbolValues) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return llvm::cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId:
    return dimValues[llvm::cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbolValues[llvm::cast<AffineSymbolExpr>(expr).getPosition()];
  default:
    break;
  }
  auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = evaluateAffineExpr(binary.getLHS(), dimValues, symbolValues);
  int64_t rhs = evaluateAffineExpr(binary.getRHS(), dimValues, symbolValues);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return floorDiv(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return ceilDiv(lhs, rhs);
  case AffineExprKind::Mod:
    return floorMod(lhs, rhs);
  default:
    return 0;
  }
}

std::vector<int64_t>
IndexingMap::evaluate(const std::vector<int64_t> &dimValues,
                      const std::vector<int64_t> &symbolValues) const {
  std::vector<int64_t> results;
  for (AffineExpr result : affineMap.getResults())
    results.push_back(evaluateAffineExpr(result, dimValues, symbolValues));
  return results;
}

bool IndexingMap::isInDomain(const std::vector<int64_t> &dimValues,
                             const std::vector<int64_t> &symbolValues) const {
  if (knownEmpty)
    return false;
  for (size_t i = 0; i < dims.size(); ++i)
    if (!dims[i].bounds.contains(dimValues[i]))
      return false;
  for (size_t i = 0; i < symbolValues.size(); ++i)
    if (!getSymbolVar(i).bounds.contains(symbolValues[i]))
      return false;
  for (const IndexingConstraint &constraint : constraints)
    if (!constraint.range.contains(
            evaluateAffineExpr(constraint.expr, dimValues, symbolValues)))
      return false;
  return true;
}

static bool sameBounds(const std::vector<IndexingVar> &a,
                       const std::vector<IndexingVar> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].bounds != b[i].bounds)
      return false;
  return true;
}

bool IndexingMap::operator==(const IndexingMap &other) const {
  if (isUndefined() || other.isUndefined())
    return isUndefined() == other.isUndefined();
  if (knownEmpty || other.knownEmpty)
    return knownEmpty == other.knownEmpty;
  if (affineMap != other.affineMap || !sameBounds(dims, other.dims) ||
      !sameBounds(ranges, other.ranges) || !sameBounds(runtime, other.runtime) ||
      constraints.size() != other.constraints.size())
    return false;
  for (const IndexingConstraint &constraint : constraints) {
    bool found = false;
    for (const IndexingConstraint &theirs : other.constraints)
      found |= theirs.expr == constraint.expr && theirs.range == constraint.range;
    if (!found)
      return false;
  }
  return true;
}

llvm::hash_code hash_value(const IndexingMap &map) {
  if (map.isUndefined())
    return llvm::hash_value(0);
  if (map.isKnownEmpty())
    return llvm::hash_value(1);
  llvm::hash_code hash = llvm::hash_value(map.getAffineMap().getAsOpaquePointer());
  auto combineBounds = [&](const std::vector<IndexingVar> &vars) {
    for (const IndexingVar &var : vars)
      hash = llvm::hash_combine(hash, var.bounds.lower, var.bounds.upper);
  };
  combineBounds(map.getDimVars());
  combineBounds(map.getRangeVars());
  combineBounds(map.getRuntimeVars());
  // Constraints form a set: combine their hashes order-independently.
  size_t constraints = 0;
  for (const IndexingConstraint &constraint : map.getConstraints())
    constraints += llvm::hash_combine(constraint.expr.getAsOpaquePointer(),
                                      constraint.range.lower,
                                      constraint.range.upper);
  return llvm::hash_combine(hash, constraints);
}

IndexingMap composeIndexingMaps(const IndexingMap &first,
                                const IndexingMap &second) {
  if (first.isUndefined() || second.isUndefined() ||
      first.getAffineMap().getNumResults() != second.getAffineMap().getNumDims())
    return IndexingMap();
  MLIRContext *context = first.getContext();
  const int64_t r1 = first.getRangeVarCount(), t1 = first.getRuntimeVarCount();
  const int64_t r2 = second.getRangeVarCount(), t2 = second.getRuntimeVarCount();
  const int64_t symbolCount = r1 + r2 + t1 + t2;
  // New symbol order (XLA's): second's ranges, first's ranges, second's
  // runtime, first's runtime.
  std::vector<AffineExpr> firstSymbols, secondSymbols;
  for (int64_t i = 0; i < r1; ++i)
    firstSymbols.push_back(getAffineSymbolExpr(r2 + i, context));
  for (int64_t i = 0; i < t1; ++i)
    firstSymbols.push_back(getAffineSymbolExpr(r1 + r2 + t2 + i, context));
  for (int64_t i = 0; i < r2; ++i)
    secondSymbols.push_back(getAffineSymbolExpr(i, context));
  for (int64_t i = 0; i < t2; ++i)
    secondSymbols.push_back(getAffineSymbolExpr(r1 + r2 + i, context));

  std::vector<AffineExpr> firstResults;
  for (AffineExpr result : first.getAffineMap().getResults())
    firstResults.push_back(result.replaceSymbols(firstSymbols));
  std::vector<AffineExpr> results;
  for (AffineExpr result : second.getAffineMap().getResults())
    results.push_back(result.replaceDimsAndSymbols(firstResults, secondSymbols));

  std::vector<IndexingVar> ranges = second.getRangeVars();
  ranges.insert(ranges.end(), first.getRangeVars().begin(),
                first.getRangeVars().end());
  std::vector<IndexingVar> runtime = second.getRuntimeVars();
  runtime.insert(runtime.end(), first.getRuntimeVars().begin(),
                 first.getRuntimeVars().end());
  IndexingMap composed(
      AffineMap::get(first.getDimCount(), symbolCount, results, context),
      first.getDimVars(), std::move(ranges), std::move(runtime));
  for (const IndexingConstraint &constraint : first.getConstraints())
    composed.addConstraint(constraint.expr.replaceSymbols(firstSymbols),
                           constraint.range);
  for (const IndexingConstraint &constraint : second.getConstraints())
    composed.addConstraint(
        constraint.expr.replaceDimsAndSymbols(firstResults, secondSymbols),
        constraint.range);
  // What `second` accepts becomes a condition on what `first` produces.
  for (size_t i = 0; i < firstResults.size() &&
                     i < second.getDimVars().size();
       ++i)
    composed.addConstraint(firstResults[i], second.getDimVars()[i].bounds);
  if (first.isKnownEmpty() || second.isKnownEmpty())
    composed.markKnownEmpty();
  return composed;
}

} // namespace hlo
