//===- WarpgroupMma.h - wgmma over a warpgroup's threads --------*- C++ -*-===//
//
// Owns what the host target's warpgroup-collective matrix multiply
// computes once all 128 threads of a warpgroup have arrived (BlockRunner
// gathers them): PTX's wgmma.mma_async m64nNk16 (bf16, f16), m64nNk8
// (TF32) and m64nNk32 (e4m3fn and e5m2, alike or mixed) with both operands in
// shared memory in a K-major layout (unswizzled core matrices, or 32-, 64-
// or 128-byte swizzled rows), and the accumulators spread over the threads
// as the PTX ISA's wgmma D fragment says (HloHostWgmmaKind in
// abi/HostKernelAbi.h). A plain function of the operands and the threads'
// accumulators, so that the layouts are tested without a kernel
// (WarpgroupMmaTest).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_HOST_WARPGROUPMMA_H
#define HLO_RUNTIME_HOST_WARPGROUPMMA_H

#include "host/WarpMatrixOps.h"

#include <array>
#include <cstdint>
#include <utility>

namespace hlo::runtime {

constexpr unsigned kThreadsPerWarpgroup = 128;

/// The shared operands of one wgmma (the same for all its threads), in
/// the layout of `swizzle` (HostKernelAbi.h's __hlo_host_wgmma).
struct WgmmaOperands {
  const void *a = nullptr;
  uint32_t aLeading = 0, aStride = 0;
  const void *b = nullptr;
  uint32_t bLeading = 0, bStride = 0;
  uint32_t swizzle = 0;
  /// Address 0 of the swizzle's XOR pattern (the block's shared memory;
  /// null: the addresses as they are).
  const void *sharedBase = nullptr;
  /// B is N-major (HLO_HOST_WGMMA_TRANSPOSE_B): rows of `swizzle` bytes
  /// along N, atoms of them `bLeading` apart along N, 8-k groups
  /// `bStride` apart.
  bool bTransposed = false;
  /// A is M-major (HLO_HOST_WGMMA_TRANSPOSE_A), laid out as an N-major B.
  bool aTransposed = false;
  bool operator==(const WgmmaOperands &other) const {
    return a == other.a && aLeading == other.aLeading && aStride == other.aStride &&
           b == other.b && bLeading == other.bLeading && bStride == other.bStride &&
           swizzle == other.swizzle && bTransposed == other.bTransposed &&
           aTransposed == other.aTransposed;
  }
};

/// Whether `swizzle` is a mode wgmma takes (0, 32, 64 or 128).
bool isWgmmaSwizzle(uint32_t swizzle);

/// The bytes of an operand of `rows` x K from `start` on: [first, last)
/// relative to `start` (a swizzled row's chunks may lie before it).
std::pair<int64_t, int64_t> wgmmaOperandSpan(const void *start, int64_t rows, uint32_t leading,
                                             uint32_t stride, uint32_t swizzle,
                                             const void *sharedBase);

/// The bytes of an N-major B of `n` columns by `depth` k from `start`
/// on, as wgmmaOperandSpan (swizzled layouts only).
std::pair<int64_t, int64_t> wgmmaTransposedSpan(const void *start, int64_t n, int64_t depth,
                                                uint32_t elementBytes, uint32_t leading,
                                                uint32_t stride, uint32_t swizzle,
                                                const void *sharedBase);

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
