//===- OpIndexing.h - Indexing maps of single HLO instructions --*- C++ -*-===//
//
// XLA's indexing-analysis rules per op, in both directions: output-to-input (from an
// element of one output to the elements of each operand it reads) and
// input-to-output (from an element of one operand to the output elements
// that read it). Ops without a rule fail with a message naming the op;
// nothing is guessed.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_OPINDEXING_H
#define HLO_ANALYSIS_OPINDEXING_H

#include "analysis/IndexingMap.h"
#include "hlo_parser/HloInstruction.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hlo {

/// One set of maps per operand (output-to-input) or per output
/// (input-to-output); usually one map each.
using IndexingMapSets = std::vector<std::vector<IndexingMap>>;

/// Maps from output `outputIndex` of `instruction` to each operand, or an
/// error naming the op for ops without rules.
[[nodiscard]] llvm::Expected<IndexingMapSets>
computeOutputToInputIndexing(const HloInstruction &instruction, int64_t outputIndex,
                             mlir::MLIRContext *context);

/// Maps from operand `operandIndex` of `instruction` to each output.
[[nodiscard]] llvm::Expected<IndexingMapSets>
computeInputToOutputIndexing(const HloInstruction &instruction, int64_t operandIndex,
                             mlir::MLIRContext *context);

/// The array shape of output `outputIndex` (tuple element, or the shape).
const Shape &outputShape(const HloInstruction &instruction,
                         int64_t outputIndex);
/// Number of array outputs (tuple elements, or 1).
int64_t outputCount(const HloInstruction &instruction);

/// Output-to-input map of a reshape from `inputDims` to `outputDims`
/// (linearize, then delinearize; the simplifier finds the minimal form).
IndexingMap reshapeOutputToInput(const std::vector<int64_t> &inputDims,
                                 const std::vector<int64_t> &outputDims,
                                 mlir::MLIRContext *context);

/// The map from an index of `from` to the index of `to` that holds the
/// same element when both shapes view one buffer (a bitcast): through the
/// physical (layout) order of each. Same element counts required.
IndexingMap bitcastIndexingMap(const Shape &from, const Shape &to,
                               mlir::MLIRContext *context);

} // namespace hlo

#endif // HLO_ANALYSIS_OPINDEXING_H
