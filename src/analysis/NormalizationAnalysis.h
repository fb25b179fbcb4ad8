//===- NormalizationAnalysis.h - Rows of a normalization fusion -*- C++ -*-===//
//
// Owns the structure the block-level normalization emitter works on (XLA's
// Triton softmax / layer-norm fusions): which reductions are "broadcast
// back" into the fusion (their value at one output element is shared by a
// whole row of outputs), and which output dimensions form that row. A
// block computes one row: each such reduction once, cooperatively, then
// every output element of the row from it.
//
// From each output, indexing maps to every instruction it reads: a reduce
// is cooperative when some output dimension does not move its index (a
// broadcast put it back); the row is the output dimensions that move none
// of them. Every path to a cooperative reduce must give the same index,
// depending on neither the row nor on any loop variable (another
// reduction's reduced dimension), so that a row needs exactly one value of
// each. Other reduces (small ones feeding the outputs directly) stay
// elemental loops; with none broadcast back (rows of one element), a row is
// the minor output dimension.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_NORMALIZATIONANALYSIS_H
#define HLO_ANALYSIS_NORMALIZATIONANALYSIS_H

#include "analysis/IndexingMap.h"
#include "hlo_parser/HloComputation.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace hlo {

struct NormalizationRows {
  /// The outputs' dimensions (every output has them).
  std::vector<int64_t> outputDims;
  /// The output dimensions one row spans (ascending), and the others.
  std::vector<int64_t> rowDims;
  std::vector<int64_t> batchDims;
  /// The cooperative reduces in computation order, and for each the map
  /// from an output index to its index (the same for the whole row).
  std::vector<const HloInstruction *> reductions;
  std::vector<IndexingMap> outputToReduction;

  int64_t rowElements() const;
  int64_t rowCount() const;
  /// The reduced elements behind one value of `reduction`.
  static int64_t reducedElements(const HloInstruction &reduction);
};

/// The rows of `computation`, or an "unsupported: ..." error saying why
/// it has none.
[[nodiscard]] llvm::Expected<NormalizationRows>
analyzeNormalizationRows(const HloComputation &computation, mlir::MLIRContext *context);

} // namespace hlo

#endif // HLO_ANALYSIS_NORMALIZATIONANALYSIS_H
