//===- IndexingMapSimplifier.cpp - Range-aware simplification -------------===//
//
// MLIR's own AffineExpr simplification cannot use the bounds of the
// variables, so it leaves `floordiv`/`mod` alone. This file rewrites them
// with the bounds (XLA's "Indexing Analysis", "Indexing Map Simplifier"):
//
//  - `e floordiv c` / `e mod c` when e's range lies within one multiple of c;
//  - multiples of c are pulled out of sums: (a*c + b) floordiv c =
//    a + b floordiv c, and (a*c + b) mod c = b mod c;
//  - (g*x + r) floordiv c = x floordiv (c/g) and (g*x + r) mod c =
//    r + (x mod (c/g)) * g, for g dividing c and r in [0, g);
//  - c*(e floordiv c) + e mod c = e (this cancels chained reshapes);
//  - variables whose range is one value become constants;
//
// and simplifies the constraints: offsets, factors and floordivs move into
// the interval, constraints on one variable tighten its bounds, constraints
// that always hold are dropped, and unsatisfiable ones mark the map empty.
//
//===----------------------------------------------------------------------===//
#include "analysis/IndexingMap.h"

#include "llvm/Support/Casting.h"

#include <numeric>

using namespace mlir;

namespace hlo {
namespace {

struct Term {
  int64_t coefficient;
  AffineExpr atom;
};

/// A flattened sum: sum(coefficient * atom) + constant, in source order.
struct Sum {
  std::vector<Term> terms;
  int64_t constant = 0;

  void add(int64_t coefficient, AffineExpr atom) {
    for (Term &term : terms)
      if (term.atom == atom) {
        term.coefficient += coefficient;
        return;
      }
    terms.push_back({coefficient, atom});
  }
};

std::optional<int64_t> constantValue(AffineExpr expr) {
  if (auto constant = llvm::dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  return std::nullopt;
}

/// Rewrites expressions using the bounds of one map's variables.
class ExprSimplifier {
public:
  explicit ExprSimplifier(const IndexingMap &map) : context(map.getContext()) {
    for (const IndexingVar &var : map.getDimVars())
      dimBounds.push_back(var.bounds);
    for (int64_t i = 0; i < map.getSymbolCount(); ++i)
      symbolBounds.push_back(map.getSymbolVar(i).bounds);
  }

  Interval range(AffineExpr expr) const;
  AffineExpr simplify(AffineExpr expr);

  /// Flattens `expr * factor` into `sum`, distributing constant factors.
  void flatten(AffineExpr expr, int64_t factor, Sum &sum) const;
  AffineExpr build(const Sum &sum) const;

private:
  AffineExpr simplifySum(Sum sum);
  AffineExpr simplifyFloorDiv(AffineExpr lhs, int64_t divisor);
  AffineExpr simplifyMod(AffineExpr lhs, int64_t divisor);
  /// For a sum of non-multiples of `divisor`: the largest g dividing
  /// `divisor` such that the terms not divisible by g (and the constant) lie
  /// in [0, g). Splits the sum into those multiples of g (divided by g) and
  /// the remainder.
  bool splitByCommonFactor(const Sum &sum, int64_t divisor, int64_t &factor,
                           Sum &scaledMultiples, Sum &remainder) const;

  MLIRContext *context;
  std::vector<Interval> dimBounds;
  std::vector<Interval> symbolBounds;
};

Interval ExprSimplifier::range(AffineExpr expr) const {
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    int64_t value = llvm::cast<AffineConstantExpr>(expr).getValue();
    return {value, value};
  }
  case AffineExprKind::DimId:
    return dimBounds[llvm::cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbolBounds[llvm::cast<AffineSymbolExpr>(expr).getPosition()];
  default:
    break;
  }
  auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
  Interval lhs = range(binary.getLHS());
  Interval rhs = range(binary.getRHS());
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return rhs.isPoint() ? lhs * rhs.lower : lhs * rhs;
  case AffineExprKind::FloorDiv:
    if (rhs.isPoint() && rhs.lower > 0)
      return {floorDiv(lhs.lower, rhs.lower), floorDiv(lhs.upper, rhs.lower)};
    break;
  case AffineExprKind::CeilDiv:
    if (rhs.isPoint() && rhs.lower > 0)
      return {ceilDiv(lhs.lower, rhs.lower), ceilDiv(lhs.upper, rhs.lower)};
    break;
  case AffineExprKind::Mod:
    if (rhs.isPoint() && rhs.lower > 0) {
      int64_t c = rhs.lower;
      if (floorDiv(lhs.lower, c) == floorDiv(lhs.upper, c))
        return {floorMod(lhs.lower, c), floorMod(lhs.upper, c)};
      return {0, c - 1};
    }
    break;
  default:
    break;
  }
  return {Interval::kMin, Interval::kMax};
}

void ExprSimplifier::flatten(AffineExpr expr, int64_t factor, Sum &sum) const {
  if (std::optional<int64_t> value = constantValue(expr)) {
    sum.constant += factor * *value;
    return;
  }
  if (expr.getKind() == AffineExprKind::Add) {
    auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
    flatten(binary.getLHS(), factor, sum);
    flatten(binary.getRHS(), factor, sum);
    return;
  }
  if (expr.getKind() == AffineExprKind::Mul) {
    auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
    if (std::optional<int64_t> value = constantValue(binary.getRHS())) {
      flatten(binary.getLHS(), factor * *value, sum);
      return;
    }
    if (std::optional<int64_t> value = constantValue(binary.getLHS())) {
      flatten(binary.getRHS(), factor * *value, sum);
      return;
    }
  }
  sum.add(factor, expr);
}

AffineExpr ExprSimplifier::build(const Sum &sum) const {
  AffineExpr result;
  for (const Term &term : sum.terms) {
    if (term.coefficient == 0)
      continue;
    AffineExpr scaled =
        term.coefficient == 1 ? term.atom : term.atom * term.coefficient;
    result = result ? result + scaled : scaled;
  }
  if (!result)
    return getAffineConstantExpr(sum.constant, context);
  return sum.constant ? result + sum.constant : result;
}

AffineExpr ExprSimplifier::simplify(AffineExpr expr) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return expr;
  case AffineExprKind::DimId:
  case AffineExprKind::SymbolId: {
    Interval bounds = range(expr);
    return bounds.isPoint() ? getAffineConstantExpr(bounds.lower, context)
                            : expr;
  }
  default:
    break;
  }
  auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhs = simplify(binary.getLHS());
  AffineExpr rhs = simplify(binary.getRHS());
  std::optional<int64_t> divisor = constantValue(rhs);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
  case AffineExprKind::Mul: {
    AffineExpr combined = expr.getKind() == AffineExprKind::Add ? lhs + rhs
                                                                : lhs * rhs;
    if (combined.getKind() == AffineExprKind::Mul &&
        !constantValue(llvm::cast<AffineBinaryOpExpr>(combined).getRHS()) &&
        !constantValue(llvm::cast<AffineBinaryOpExpr>(combined).getLHS()))
      return combined; // a semi-affine product: nothing to distribute
    Sum sum;
    flatten(combined, 1, sum);
    return simplifySum(std::move(sum));
  }
  case AffineExprKind::FloorDiv:
    if (divisor && *divisor > 0)
      return simplifyFloorDiv(lhs, *divisor);
    return lhs.floorDiv(rhs);
  case AffineExprKind::Mod:
    if (divisor && *divisor > 0)
      return simplifyMod(lhs, *divisor);
    return lhs % rhs;
  case AffineExprKind::CeilDiv: {
    if (divisor && *divisor > 0) {
      Interval bounds = range(lhs);
      if (ceilDiv(bounds.lower, *divisor) == ceilDiv(bounds.upper, *divisor))
        return getAffineConstantExpr(ceilDiv(bounds.lower, *divisor), context);
    }
    return lhs.ceilDiv(rhs);
  }
  default:
    return expr;
  }
}

AffineExpr ExprSimplifier::simplifySum(Sum sum) {
  // c * (e floordiv c) + k * (e mod c) with matching factors is k * e.
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 0; i < sum.terms.size() && !changed; ++i) {
      Term &divTerm = sum.terms[i];
      if (divTerm.coefficient == 0 ||
          divTerm.atom.getKind() != AffineExprKind::FloorDiv)
        continue;
      auto div = llvm::cast<AffineBinaryOpExpr>(divTerm.atom);
      std::optional<int64_t> c = constantValue(div.getRHS());
      if (!c || *c <= 0)
        continue;
      AffineExpr modAtom = div.getLHS() % *c;
      for (size_t j = 0; j < sum.terms.size(); ++j) {
        Term &modTerm = sum.terms[j];
        if (modTerm.atom != modAtom || modTerm.coefficient == 0 ||
            divTerm.coefficient != modTerm.coefficient * *c)
          continue;
        int64_t k = modTerm.coefficient;
        divTerm.coefficient = 0;
        modTerm.coefficient = 0;
        Sum inner;
        flatten(div.getLHS(), k, inner);
        // Put the recovered expression where the first of the pair stood.
        Sum merged;
        size_t at = std::min(i, j);
        for (size_t t = 0; t < sum.terms.size(); ++t) {
          if (t == at)
            for (const Term &term : inner.terms)
              merged.add(term.coefficient, term.atom);
          if (sum.terms[t].coefficient != 0)
            merged.add(sum.terms[t].coefficient, sum.terms[t].atom);
        }
        merged.constant = sum.constant + inner.constant;
        sum = std::move(merged);
        changed = true;
        break;
      }
    }
  }
  return build(sum);
}

bool ExprSimplifier::splitByCommonFactor(const Sum &sum, int64_t divisor,
                                         int64_t &factor,
                                         Sum &scaledMultiples,
                                         Sum &remainder) const {
  std::vector<int64_t> candidates;
  for (const Term &term : sum.terms) {
    int64_t g = std::gcd(std::abs(term.coefficient), divisor);
    if (g > 1 && g < divisor)
      candidates.push_back(g);
  }
  std::sort(candidates.rbegin(), candidates.rend());
  for (int64_t g : candidates) {
    Sum multiples, rest;
    rest.constant = sum.constant;
    for (const Term &term : sum.terms) {
      if (term.coefficient % g == 0)
        multiples.add(term.coefficient / g, term.atom);
      else
        rest.add(term.coefficient, term.atom);
    }
    if (multiples.terms.empty())
      continue;
    Interval restRange = range(build(rest));
    if (restRange.lower >= 0 && restRange.upper < g) {
      factor = g;
      scaledMultiples = std::move(multiples);
      remainder = std::move(rest);
      return true;
    }
  }
  return false;
}

AffineExpr ExprSimplifier::simplifyFloorDiv(AffineExpr lhs, int64_t divisor) {
  if (divisor == 1)
    return lhs;
  Interval bounds = range(lhs);
  if (floorDiv(bounds.lower, divisor) == floorDiv(bounds.upper, divisor))
    return getAffineConstantExpr(floorDiv(bounds.lower, divisor), context);
  // (e floordiv a) floordiv b = e floordiv (a * b).
  if (lhs.getKind() == AffineExprKind::FloorDiv) {
    auto inner = llvm::cast<AffineBinaryOpExpr>(lhs);
    if (std::optional<int64_t> a = constantValue(inner.getRHS()); a && *a > 0)
      return simplifyFloorDiv(inner.getLHS(), *a * divisor);
  }
  Sum sum;
  flatten(lhs, 1, sum);
  // Multiples of the divisor leave the division, in place.
  Sum quotient, rest;
  int64_t firstRest = -1;
  for (const Term &term : sum.terms) {
    if (term.coefficient % divisor == 0) {
      quotient.terms.push_back({term.coefficient / divisor, term.atom});
    } else {
      if (firstRest < 0)
        firstRest = static_cast<int64_t>(quotient.terms.size());
      rest.terms.push_back(term);
    }
  }
  // Only whole multiples of the divisor leave the constant, keeping its
  // sign: (d0 - 1) floordiv 2 stays as written.
  quotient.constant = sum.constant / divisor;
  rest.constant = sum.constant - quotient.constant * divisor;
  AffineExpr restQuotient;
  if (!rest.terms.empty() || rest.constant != 0) {
    Interval restBounds = range(build(rest));
    if (floorDiv(restBounds.lower, divisor) ==
        floorDiv(restBounds.upper, divisor)) {
      quotient.constant += floorDiv(restBounds.lower, divisor);
    } else {
      int64_t g;
      Sum multiples, remainder;
      if (splitByCommonFactor(rest, divisor, g, multiples, remainder))
        restQuotient = simplifyFloorDiv(build(multiples), divisor / g);
      else
        restQuotient = build(rest).floorDiv(divisor);
    }
  }
  if (restQuotient) {
    std::optional<int64_t> value = constantValue(restQuotient);
    if (value)
      quotient.constant += *value;
    else
      quotient.terms.insert(quotient.terms.begin() + std::max<int64_t>(firstRest, 0),
                            Term{1, restQuotient});
  }
  return build(quotient);
}

AffineExpr ExprSimplifier::simplifyMod(AffineExpr lhs, int64_t divisor) {
  if (divisor == 1)
    return getAffineConstantExpr(0, context);
  Interval bounds = range(lhs);
  if (bounds.lower >= 0 && bounds.upper < divisor)
    return lhs;
  if (floorDiv(bounds.lower, divisor) == floorDiv(bounds.upper, divisor))
    return lhs - floorDiv(bounds.lower, divisor) * divisor;
  // (e mod a) mod b = e mod b when b divides a.
  if (lhs.getKind() == AffineExprKind::Mod) {
    auto inner = llvm::cast<AffineBinaryOpExpr>(lhs);
    if (std::optional<int64_t> a = constantValue(inner.getRHS());
        a && *a > 0 && *a % divisor == 0)
      return simplifyMod(inner.getLHS(), divisor);
  }
  Sum sum;
  flatten(lhs, 1, sum);
  Sum rest;
  for (const Term &term : sum.terms)
    if (term.coefficient % divisor != 0)
      rest.terms.push_back(term);
  rest.constant = sum.constant % divisor; // keeps its sign: (d0 - 1) mod 2
  AffineExpr restExpr = build(rest);
  Interval restBounds = range(restExpr);
  if (restBounds.lower >= 0 && restBounds.upper < divisor)
    return restExpr;
  if (floorDiv(restBounds.lower, divisor) == floorDiv(restBounds.upper, divisor))
    return restExpr - floorDiv(restBounds.lower, divisor) * divisor;
  int64_t g;
  Sum multiples, remainder;
  if (splitByCommonFactor(rest, divisor, g, multiples, remainder)) {
    AffineExpr inner = simplifyMod(build(multiples), divisor / g) * g;
    if (remainder.terms.empty() && remainder.constant == 0)
      return inner;
    return build(remainder) + inner;
  }
  return restExpr % divisor;
}

} // namespace

static IndexingMap::SimplifyObserver simplifyObserver = nullptr;

void IndexingMap::setSimplifyObserver(SimplifyObserver observer) {
  simplifyObserver = observer;
}

bool IndexingMap::simplify() {
  if (isUndefined() || knownEmpty)
    return false;
  if (simplifyObserver) {
    IndexingMap before = *this;
    SimplifyObserver observer = simplifyObserver;
    simplifyObserver = nullptr; // the observer may simplify too
    bool changed = simplify();
    simplifyObserver = observer;
    observer(before, *this);
    return changed;
  }
  MLIRContext *context = getContext();
  bool changedAny = false;
  for (int iteration = 0; iteration < 8; ++iteration) {
    bool changed = false;
    // Constraints: move arithmetic into the interval, tighten bounds.
    std::vector<IndexingConstraint> kept;
    for (const IndexingConstraint &original : constraints) {
      ExprSimplifier simplifier(*this);
      AffineExpr expr = simplifier.simplify(original.expr);
      Interval range = original.range;
      bool rewritten = true;
      while (rewritten && !range.isEmpty()) {
        rewritten = false;
        Sum sum;
        simplifier.flatten(expr, 1, sum);
        if (sum.constant != 0) {
          range = {saturate((__int128)range.lower - sum.constant),
                   saturate((__int128)range.upper - sum.constant)};
          sum.constant = 0;
          expr = simplifier.build(sum);
          rewritten = true;
        }
        if (sum.terms.size() == 1 && sum.terms[0].coefficient != 1 &&
            sum.terms[0].coefficient != 0) {
          int64_t k = sum.terms[0].coefficient;
          range = k > 0 ? Interval{ceilDiv(range.lower, k),
                                   floorDiv(range.upper, k)}
                        : Interval{ceilDiv(range.upper, k),
                                   floorDiv(range.lower, k)};
          expr = sum.terms[0].atom;
          rewritten = true;
        }
        if (expr.getKind() == AffineExprKind::FloorDiv) {
          auto div = llvm::cast<AffineBinaryOpExpr>(expr);
          if (std::optional<int64_t> c = constantValue(div.getRHS());
              c && *c > 0) {
            range = {saturate((__int128)range.lower * *c),
                     saturate((__int128)range.upper * *c + *c - 1)};
            expr = div.getLHS();
            rewritten = true;
          }
        }
      }
      if (range.isEmpty()) {
        knownEmpty = true;
        return true;
      }
      if (std::optional<int64_t> value = constantValue(expr)) {
        if (!range.contains(*value)) {
          knownEmpty = true;
          return true;
        }
        changed = true;
        continue;
      }
      IndexingVar *var = nullptr;
      if (auto dim = llvm::dyn_cast<AffineDimExpr>(expr))
        var = &dims[dim.getPosition()];
      else if (auto symbol = llvm::dyn_cast<AffineSymbolExpr>(expr))
        var = symbol.getPosition() < ranges.size()
                  ? &ranges[symbol.getPosition()]
                  : &runtime[symbol.getPosition() - ranges.size()];
      if (var) {
        var->bounds = var->bounds.intersect(range);
        if (var->bounds.isEmpty()) {
          knownEmpty = true;
          return true;
        }
        changed = true;
        continue;
      }
      Interval exprRange = simplifier.range(expr);
      if (range.contains(exprRange)) {
        changed = true; // always satisfied
        continue;
      }
      if (exprRange.intersect(range).isEmpty()) {
        knownEmpty = true;
        return true;
      }
      if (expr != original.expr || range != original.range)
        changed = true;
      bool merged = false;
      for (IndexingConstraint &existing : kept)
        if (existing.expr == expr) {
          existing.range = existing.range.intersect(range);
          merged = changed = true;
          if (existing.range.isEmpty()) {
            knownEmpty = true;
            return true;
          }
        }
      if (!merged)
        kept.push_back({expr, range});
    }
    constraints = std::move(kept);
    // Results, with the (possibly tightened) bounds.
    ExprSimplifier simplifier(*this);
    std::vector<AffineExpr> results;
    for (AffineExpr result : affineMap.getResults())
      results.push_back(simplifier.simplify(result));
    AffineMap simplified = AffineMap::get(affineMap.getNumDims(),
                                          affineMap.getNumSymbols(), results,
                                          context);
    if (simplified != affineMap) {
      affineMap = simplified;
      changed = true;
    }
    changedAny |= changed;
    if (!changed)
      break;
  }
  return changedAny;
}

} // namespace hlo
