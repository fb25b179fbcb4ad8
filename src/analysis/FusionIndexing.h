//===- FusionIndexing.h - Indexing maps through a computation ---*- C++ -*-===//
//
// Composes the per-op maps through a fused computation: from an output of
// its root to each of its parameters (output-to-input), or from a parameter
// to each root output (input-to-output). Maps are simplified after every
// composition and deduplicated, so `p0 + transpose(p0)` yields two maps for
// p0 and equal paths yield one (XLA's "Indexing Analysis", "Indexing Maps for Fusion").
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_FUSIONINDEXING_H
#define HLO_ANALYSIS_FUSIONINDEXING_H

#include "analysis/OpIndexing.h"
#include "hlo_parser/HloComputation.h"

#include <map>

namespace hlo {

/// Maps from output `outputIndex` of `computation`'s root (a tuple root's
/// element, or a multi-output op's output) to each parameter, by number.
/// On failure the error says why and `failedAt` (if given) is the
/// instruction of the computation that has no indexing rule.
[[nodiscard]] llvm::Expected<IndexingMapSets>
computeFusionOutputToInputIndexing(const HloComputation &computation,
                                   int64_t outputIndex, mlir::MLIRContext *context,
                                   const HloInstruction **failedAt = nullptr);

/// Maps from output `outputIndex` of the root to each array-valued
/// instruction it reads (through every path), by instruction.
[[nodiscard]] llvm::Expected<std::map<const HloInstruction *, std::vector<IndexingMap>>>
computeFusionOutputToInstructionIndexing(const HloComputation &computation,
                                         int64_t outputIndex, mlir::MLIRContext *context,
                                         const HloInstruction **failedAt = nullptr);

/// Maps from parameter `parameterNumber` to each root output.
[[nodiscard]] llvm::Expected<IndexingMapSets>
computeFusionInputToOutputIndexing(const HloComputation &computation,
                                   int64_t parameterNumber, mlir::MLIRContext *context,
                                   const HloInstruction **failedAt = nullptr);

/// Number of outputs of a computation's root (tuple elements, or 1).
int64_t rootOutputCount(const HloComputation &computation);

/// Adds `map` to `set` unless an equal map is there.
void addUnique(std::vector<IndexingMap> &set, IndexingMap map);

} // namespace hlo

#endif // HLO_ANALYSIS_FUSIONINDEXING_H
