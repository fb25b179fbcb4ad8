//===- WarpgroupMma.h - wgmma over a warpgroup's threads --------*- C++ -*-===//
//
// Owns what the host target's warpgroup-collective matrix multiply
// computes once all 128 threads of a warpgroup have arrived (BlockRunner
// gathers them): PTX's wgmma.mma_async m64nNk16 with both operands in
// shared memory in the canonical K-major, unswizzled layout, and the
// accumulators spread over the threads as the PTX ISA's wgmma D fragment
// says (HloHostWgmmaKind in abi/HostKernelAbi.h). A plain function of the
// operands and the threads' accumulators, so that the layouts are tested
// without a kernel (WarpMatrixOpsTest).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_WARPGROUPMMA_H
#define HLO_RUNTIME_HOST_WARPGROUPMMA_H

#include "host/WarpMatrixOps.h"

#include <array>
#include <cstdint>

namespace hlo::runtime {

constexpr unsigned kThreadsPerWarpgroup = 128;

/// The shared operands of one wgmma (the same for all its threads).
struct WgmmaOperands {
  const void *a = nullptr;
  uint32_t aLeading = 0, aStride = 0;
  const void *b = nullptr;
  uint32_t bLeading = 0, bStride = 0;
  bool operator==(const WgmmaOperands &other) const {
    return a == other.a && aLeading == other.aLeading && aStride == other.aStride &&
           b == other.b && bLeading == other.bLeading && bStride == other.bStride;
  }
};

/// The bytes an operand of `rows` x 16 spans from its start.
int64_t wgmmaOperandBytes(int64_t rows, uint32_t leading, uint32_t stride);

/// D's (row, column) of value `value` of thread `thread` (0 to 127) of the
/// warpgroup's accumulators.
FragmentPosition wgmmaAccumulatorPosition(int thread, int value);

/// D = A * B + D for the warpgroup, a wgmma of `kind` (HloHostWgmmaKind)
/// and width `n`; the error names an unknown kind or width. Each
/// accumulator is written after all operands are read.
Status warpgroupMma(uint32_t kind, uint32_t n, const WgmmaOperands &operands,
                    const std::array<float *, kThreadsPerWarpgroup> &accumulators);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_HOST_WARPGROUPMMA_H
