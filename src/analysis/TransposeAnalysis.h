//===- TransposeAnalysis.h - Shared-memory transpose detection --*- C++ -*-===//
//
// Owns the "tiled transpose" test of the transpose emitter: a transpose
// normalized to its logical form (size-1 dims dropped, dims that stay
// adjacent merged, layouts taken into account) that moves enough data in
// its minor dimension to profit from a shared-memory tile; and whether the
// packed variant (elements under 32 bits, (32v)x(32v) tiles) applies.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_TRANSPOSEANALYSIS_H
#define HLO_ANALYSIS_TRANSPOSEANALYSIS_H

#include "hlo_parser/HloInstruction.h"

#include <optional>
#include <vector>

namespace hlo {

struct TransposeDescription {
  const HloInstruction *instruction = nullptr;
  /// Normalized output dimensions and permutation (output dim i reads
  /// normalized input dim permutation[i]).
  std::vector<int64_t> dimensions;
  std::vector<int64_t> permutation;
  bool packed = false;

  /// Normalized input dimensions.
  std::vector<int64_t> inputDimensions() const;
  bool isEquivalent(const TransposeDescription &other) const {
    return dimensions == other.dimensions && permutation == other.permutation;
  }
};

/// Normalizes a physical transpose: output dims (physical order) and for
/// each output dim the input dim it reads.
void normalizeTranspose(const std::vector<int64_t> &outputDims,
                        const std::vector<int64_t> &permutation,
                        std::vector<int64_t> &normalizedDims,
                        std::vector<int64_t> &normalizedPermutation);

/// The description if `instruction` is a transpose the shared-memory
/// emitter handles.
std::optional<TransposeDescription>
getTiledTransposeDescription(const HloInstruction &instruction);

} // namespace hlo

#endif // HLO_ANALYSIS_TRANSPOSEANALYSIS_H
