//===- OpIndexingUtils.h - Helpers for the per-op indexing rules -*- C++ -*-===//
//
// Internal to src/analysis: building indexing maps from result expressions
// and domains, shared by the *Indexing.cpp files.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_OPINDEXINGUTILS_H
#define HLO_ANALYSIS_OPINDEXINGUTILS_H

#include "analysis/OpIndexing.h"

namespace hlo {

inline std::vector<int64_t> dimsOf(const Shape &shape) {
  return shape.dimensions();
}

/// A map over `dimSizes`, with range variables of `rangeSizes` and runtime
/// variables bounded by `runtimeBounds`, to `results`.
IndexingMap makeMap(const std::vector<int64_t> &dimSizes,
                    const std::vector<int64_t> &rangeSizes,
                    const std::vector<Interval> &runtimeBounds,
                    const std::vector<mlir::AffineExpr> &results,
                    mlir::MLIRContext *context);

/// `(d0, ...) -> ()`: every element reads the one scalar.
IndexingMap scalarMap(const std::vector<int64_t> &dimSizes,
                      mlir::MLIRContext *context);

/// `()[s0, ...] -> (s0, ...)` over `targetDims`: a scalar reaches every
/// element. With `sourceDims`, the source keeps its own dims (unused).
IndexingMap allElementsMap(const std::vector<int64_t> &sourceDims,
                           const std::vector<int64_t> &targetDims,
                           mlir::MLIRContext *context);

/// Simplifies and drops unused symbols.
IndexingMap finalize(IndexingMap map);

/// An indexing failure with `message`.
inline llvm::Error indexingError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

// Op families (each in its own file). Each fills `maps`, which the caller
// has sized (one set per operand, or per output), or fails with an error
// naming the instruction it has no rule for.

/// The rules of shape-only and elementwise ops. These cannot fail; false
/// means "no rule for this op" (the maps are untouched) and the caller
/// reports it.
[[nodiscard]] bool shapeOpOutputToInput(const HloInstruction &inst,
                                        int64_t outputIndex,
                                        mlir::MLIRContext *context,
                                        IndexingMapSets &maps);
[[nodiscard]] bool shapeOpInputToOutput(const HloInstruction &inst,
                                        int64_t operandIndex,
                                        mlir::MLIRContext *context,
                                        IndexingMapSets &maps);
[[nodiscard]] llvm::Error
reshapeOutputToInputIndexing(const HloInstruction &inst,
                             mlir::MLIRContext *context, IndexingMapSets &maps);
[[nodiscard]] llvm::Error
reshapeInputToOutputIndexing(const HloInstruction &inst,
                             mlir::MLIRContext *context, IndexingMapSets &maps);
[[nodiscard]] llvm::Error reductionOutputToInput(const HloInstruction &inst,
                                                 int64_t outputIndex,
                                                 mlir::MLIRContext *context,
                                                 IndexingMapSets &maps);
[[nodiscard]] llvm::Error reductionInputToOutput(const HloInstruction &inst,
                                                 int64_t operandIndex,
                                                 mlir::MLIRContext *context,
                                                 IndexingMapSets &maps);
[[nodiscard]] llvm::Error dynamicOpOutputToInput(const HloInstruction &inst,
                                                 int64_t outputIndex,
                                                 mlir::MLIRContext *context,
                                                 IndexingMapSets &maps);
[[nodiscard]] llvm::Error dynamicOpInputToOutput(const HloInstruction &inst,
                                                 int64_t operandIndex,
                                                 mlir::MLIRContext *context,
                                                 IndexingMapSets &maps);

} // namespace hlo

#endif // HLO_ANALYSIS_OPINDEXINGUTILS_H
