//===- ScatterAnalysis.h - A scatter in canonical form ----------*- C++ -*-===//
//
// Owns the canonical form of a scatter the scatter emitters work on, the
// form XLA's scatter simplification rewrites every scatter into before its
// GPU emitter sees it:
//
//   operand[N-d], indices[slices, k], updates[slices, window...]
//
// with the index vector dimension last and every update window spanning
// all operand dimensions (size 1 where a dimension is inserted). Here the
// form is an indexing view, not a rewrite of the HLO: an update element's
// position splits into its slice (the update's scatter dimensions, in
// order) and its window offset; each operand dimension starts at an index
// column read from the indices (scatter_dims_to_operand_dims), at the
// slice's own position along a batching dimension (the StableHLO batching-dims RFC's
// input_batching_dims: the iota column the simplification would add), or
// at 0. The emitters and the launch figures read only this view.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_SCATTERANALYSIS_H
#define HLO_ANALYSIS_SCATTERANALYSIS_H

#include "hlo_parser/HloInstruction.h"

#include <cstdint>
#include <vector>

namespace hlo {

struct ScatterCanonicalForm {
  /// Where an operand dimension's window starts.
  struct Start {
    enum Kind { Zero, IndexColumn, BatchPosition } kind = Zero;
    /// IndexColumn: the column of the index vector; BatchPosition: the
    /// position among the slice's coordinates.
    int64_t value = 0;
  };

  /// Arrays scattered together (variadic scatter).
  int64_t arrays = 1;
  std::vector<int64_t> operandDims;
  std::vector<int64_t> updateDims;
  /// Update dimensions that enumerate slices, then those inside a window.
  std::vector<int64_t> updateScatterDims;
  std::vector<int64_t> updateWindowDims;
  /// The operand dimension each update window dimension walks.
  std::vector<int64_t> windowOperandDims;
  /// Per operand dimension: the window's extent (1 where inserted or
  /// batching) and where it starts.
  std::vector<int64_t> windowSize;
  std::vector<Start> starts;
  /// The indices: their dims and where the index vector lies (== rank:
  /// an implicit trailing dimension of 1).
  std::vector<int64_t> indicesDims;
  int64_t indexVectorDim = 0;
  int64_t sliceCount = 1;
  int64_t windowElements = 1;

  /// The indices element holding column `column` of the slice whose
  /// coordinates (one per update scatter dimension) are `slice`.
  template <typename T>
  std::vector<T> indicesIndex(const std::vector<T> &slice, T column) const {
    std::vector<T> index;
    size_t s = 0;
    for (int64_t d = 0; d < static_cast<int64_t>(indicesDims.size()); ++d)
      index.push_back(d == indexVectorDim ? column : slice[s++]);
    return index;
  }
};

/// The canonical view of `scatter`.
ScatterCanonicalForm scatterCanonicalForm(const HloInstruction &scatter);

/// The update slices each thread of the distributed-indices scatter walks
/// (consecutive sorted indices, merged in registers while they repeat).
int64_t scatterSlicesPerThread(int64_t slices, int64_t smCount);

} // namespace hlo

#endif // HLO_ANALYSIS_SCATTERANALYSIS_H
