//===- ReductionKind.h - Which reduction emitter a fusion needs -*- C++ -*-===//
//
// Owns the choice among the reduction emitters (XLA's figures, from
// ../shared/notes/xla-reference.md) and the element widths it depends on:
// a row reduction whose rows fit in a warp's vectors (d2 a power of two)
// is a multi-row reduction, a column reduction whose rows divide a warp is
// a small-column one. The launch figures of each variant are its
// emitter's (emitters/ReductionTiling.h); the multi-row choice asks for
// the one figure it depends on, the vector size, here.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ANALYSIS_REDUCTIONKIND_H
#define HLO_ANALYSIS_REDUCTIONKIND_H

#include "analysis/DeviceInfo.h"
#include "analysis/ReductionAnalysis.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace hlo {

/// The narrowest element types a fusion reads and writes (XLA's
/// input_output_info), in bits (pred counts as 8); kNoBits when there is
/// none (a fusion without parameters).
struct FusionElementBits {
  static constexpr int64_t kNoBits = std::numeric_limits<int64_t>::max();
  int64_t smallestInput = kNoBits;
  int64_t smallestOutput = kNoBits;
  /// Some reduction hero reads a complex operand (no vectorization).
  bool complexHeroOperand = false;
  /// Bytes of one element of every shared tile the reductions keep (one
  /// tile per reduced value of each distinct hero), and how many tiles:
  /// the tiling keeps the tiles within the block's shared memory.
  int64_t reducedValueBytes = 0;
  int64_t reducedValueCount = 0;
};

/// The threads per block the row-reduction variants fill up to (XLA's).
inline constexpr int64_t kReductionThreadsPerBlock = 256;

/// Kept (row) threads that fill a block of `reducedThreads` threads per
/// row up to kReductionThreadsPerBlock.
int64_t reductionKeptThreads(int64_t keptSize, int64_t reducedThreads);

/// The multi-row variant's vector size, or nullopt if the reduction is not
/// one: a row reduction whose power-of-two rows fit a warp's vectors while
/// the grid still has a block per SM.
std::optional<int64_t> multiRowVectorSize(const ReductionDimensions &dimensions,
                                          const FusionElementBits &bits,
                                          const GpuDeviceInfo &device);

ReductionKind chooseReductionKind(const ReductionDimensions &dimensions,
                                  const FusionElementBits &bits,
                                  const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_ANALYSIS_REDUCTIONKIND_H
