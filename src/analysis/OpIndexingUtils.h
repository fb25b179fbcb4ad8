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

// Op families (each in its own file).
bool shapeOpOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                          mlir::MLIRContext *context, IndexingMapSets &maps,
                          std::string &error);
bool shapeOpInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                          mlir::MLIRContext *context, IndexingMapSets &maps,
                          std::string &error);
bool reshapeOutputToInputIndexing(const HloInstruction &inst,
                                  mlir::MLIRContext *context,
                                  IndexingMapSets &maps, std::string &error);
bool reshapeInputToOutputIndexing(const HloInstruction &inst,
                                  mlir::MLIRContext *context,
                                  IndexingMapSets &maps, std::string &error);
bool reductionOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                            mlir::MLIRContext *context, IndexingMapSets &maps,
                            std::string &error);
bool reductionInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                            mlir::MLIRContext *context, IndexingMapSets &maps,
                            std::string &error);
bool dynamicOpOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                            mlir::MLIRContext *context, IndexingMapSets &maps,
                            std::string &error);
bool dynamicOpInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                            mlir::MLIRContext *context, IndexingMapSets &maps,
                            std::string &error);

} // namespace hlo

#endif // HLO_ANALYSIS_OPINDEXINGUTILS_H
