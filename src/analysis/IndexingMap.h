//===- IndexingMap.h - Affine maps with a domain ----------------*- C++ -*-===//
//
// Owns IndexingMap (XLA's "Indexing Analysis"): an mlir::AffineMap from the index of one
// tensor to the index of another, plus its domain — inclusive bounds of the
// dimension variables (d), range variables (s) and runtime variables (rt),
// and constraints `expr in [lo, hi]`. The affine map's symbols are the range
// variables followed by the runtime variables. Composition, range-aware
// simplification, removal of unused symbols, evaluation, and the text form
//
//   (d0, d1)[s0]{rt0} -> (s0, d0 + rt0),
//   domain:
//   d0 in [0, 9],
//   ...
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_INDEXINGMAP_H
#define HLO_ANALYSIS_INDEXINGMAP_H

#include "analysis/Interval.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hlo {

struct IndexingVar {
  Interval bounds;
  /// Printed name; empty = the default (d0, s0, rt0, ...).
  std::string name;
};

struct IndexingConstraint {
  mlir::AffineExpr expr;
  Interval range;
};

class IndexingMap {
public:
  /// The undefined map (what an op without indexing rules yields).
  IndexingMap() = default;
  IndexingMap(mlir::AffineMap map, std::vector<IndexingVar> dims,
              std::vector<IndexingVar> rangeVars,
              std::vector<IndexingVar> runtimeVars,
              std::vector<IndexingConstraint> constraints = {});
  /// A map whose dimension variables span `dimSizes` and range variables
  /// span `rangeSizes` (each d_i in [0, size_i - 1]).
  static IndexingMap fromSizes(mlir::AffineMap map,
                               const std::vector<int64_t> &dimSizes,
                               const std::vector<int64_t> &rangeSizes = {});
  /// The identity over a tensor of the given sizes.
  static IndexingMap identity(const std::vector<int64_t> &sizes,
                              mlir::MLIRContext *context);

  bool isUndefined() const { return !affineMap; }
  bool isKnownEmpty() const { return knownEmpty; }
  void markKnownEmpty() { knownEmpty = true; }
  mlir::AffineMap getAffineMap() const { return affineMap; }
  mlir::MLIRContext *getContext() const { return affineMap.getContext(); }

  const std::vector<IndexingVar> &getDimVars() const { return dims; }
  const std::vector<IndexingVar> &getRangeVars() const { return ranges; }
  const std::vector<IndexingVar> &getRuntimeVars() const { return runtime; }
  std::vector<IndexingVar> &mutableDimVars() { return dims; }
  int64_t getDimCount() const { return static_cast<int64_t>(dims.size()); }
  int64_t getRangeVarCount() const { return static_cast<int64_t>(ranges.size()); }
  int64_t getRuntimeVarCount() const {
    return static_cast<int64_t>(runtime.size());
  }
  int64_t getSymbolCount() const { return getRangeVarCount() + getRuntimeVarCount(); }
  /// Bounds of symbol `i` (range variables first, then runtime variables).
  const IndexingVar &getSymbolVar(int64_t i) const {
    return i < getRangeVarCount() ? ranges[i] : runtime[i - getRangeVarCount()];
  }
  const std::vector<IndexingConstraint> &getConstraints() const {
    return constraints;
  }
  /// Adds `expr in range`, intersecting with an existing constraint on the
  /// same expression.
  void addConstraint(mlir::AffineExpr expr, Interval range);

  /// Range-aware simplification of the results and the constraints
  /// (XLA's "Indexing Analysis", "Indexing Map Simplifier"). Returns true if anything changed.
  bool simplify();
  /// Tests install an observer that sees every (before, after) pair that
  /// simplify() produces, to check them for equivalence.
  using SimplifyObserver = void (*)(const IndexingMap &before,
                                    const IndexingMap &after);
  static void setSimplifyObserver(SimplifyObserver observer);
  /// Drops range/runtime variables used neither in the results nor in the
  /// constraints. Returns true if any was dropped.
  bool removeUnusedSymbols();

  /// The results at one point (symbols = range then runtime values).
  std::vector<int64_t> evaluate(const std::vector<int64_t> &dimValues,
                                const std::vector<int64_t> &symbolValues) const;
  /// Whether a point lies in the domain (bounds and constraints).
  bool isInDomain(const std::vector<int64_t> &dimValues,
                  const std::vector<int64_t> &symbolValues) const;

  /// The text form of XLA's "Indexing Analysis" (with "KNOWN EMPTY" /
  /// "UNDEFINED" for those, as XLA's IndexingMap::ToString prints them).
  std::string toString() const;

  /// Same affine map, bounds and constraints (names are ignored).
  bool operator==(const IndexingMap &other) const;
  bool operator!=(const IndexingMap &other) const { return !(*this == other); }

private:
  mlir::AffineMap affineMap;
  std::vector<IndexingVar> dims;
  std::vector<IndexingVar> ranges;
  std::vector<IndexingVar> runtime;
  std::vector<IndexingConstraint> constraints;
  bool knownEmpty = false;
};

/// Hash consistent with operator== (for uniquing in MLIR attributes).
llvm::hash_code hash_value(const IndexingMap &map);

/// `second` after `first`: maps what `first` maps from to what `second` maps
/// to. The result's dimensions are `first`'s; its range (and runtime)
/// variables are `second`'s followed by `first`'s, as in XLA; `second`'s
/// dimension bounds become constraints on `first`'s results. Not
/// simplified. Undefined if either is, or if `first`'s results do not
/// match `second`'s dimensions.
IndexingMap composeIndexingMaps(const IndexingMap &first,
                                const IndexingMap &second);

/// Evaluates an affine expression (floordiv/ceildiv/mod with affine
/// semantics) at a point.
int64_t evaluateAffineExpr(mlir::AffineExpr expr,
                           const std::vector<int64_t> &dimValues,
                           const std::vector<int64_t> &symbolValues);

/// Prints an expression with variable names (MLIR's layout: `d0 * 8 + d1`,
/// `-d1 + 16`, `(d1 - 3) floordiv 7`).
std::string affineExprToString(mlir::AffineExpr expr,
                               const std::vector<std::string> &dimNames,
                               const std::vector<std::string> &symbolNames);

/// Parses the text form printed by toString() (variable names are free;
/// `100d0` juxtaposition and `floorDiv` are accepted), or an error saying
/// what is wrong with the text.
[[nodiscard]] llvm::Expected<IndexingMap>
parseIndexingMap(std::string_view text, mlir::MLIRContext *context);

} // namespace hlo

#endif // HLO_ANALYSIS_INDEXINGMAP_H
