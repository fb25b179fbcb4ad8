//===- GemmEmitter.h - Tensor-core GEMMs (XLA's Triton GEMM fusions) -*- C++ -*-===//
//
// The emitter of kGemm fusions: XLA's Triton GEMM fusions, and any other
// fusion or unfused instruction whose hero is a dot that GemmAnalysis.h
// accepts, computed on tensor cores with xla_gpu.mma_sync (bf16/f16
// m16n8k16, f32 as TF32 m16n8k8 or three of them at HIGH/HIGHEST, f64
// m8n8k4, s8 and 8-bit floats m16n8k32), no Triton involved. The
// operands' producers in the fusion (converts, scales, broadcasts) are
// evaluated where a tile is staged, and the ops after the dot (bias,
// residual, activation, convert, bitcast) on the accumulator before it is
// stored.
//
// A block computes an output tile (GemmTiling.h: XLA's tile and warps
// where its config names them, so that grid and block are XLA's; its own
// 128 x 128 on 8 warps for dots that fill every SM so), stepping along K:
// its threads stage each K tile of both operands in shared memory
// (GemmStaging.cpp: prologue applied, copied along each operand's minor
// dimension, 16 bytes at a time where it runs in whole vectors, zeros past
// its edges), wait at a barrier, and multiply:
//  - on sm_90a, 16-bit floats, where the block's warps are whole
//    warpgroups each owning a 64-row slab of at most 256 columns: each
//    warpgroup runs xla_gpu.wgmma on the tiles, staged K-major in 32-, 64-
//    or 128-byte swizzled rows;
//  - otherwise each warp loads its mma.sync fragments from padded tiles
//    (ldmatrix, .trans for 16-bit operands stored free-dimension minor,
//    which are staged K by rows) and multiplies.
// With several stages (XLA's num_stages; 2 for the emitter's own tiles),
// operands that are fusion parameters are copied with cp.async
// (xla_gpu.async_copy) while earlier K tiles are multiplied. Registers are
// bounded for four blocks an SM (fewer for 3xTF32 and large tiles). Not
// yet: split-k.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_GEMMEMITTER_H
#define HLO_EMITTERS_GEMMEMITTER_H

#include "emitters/EmitterBase.h"
#include "emitters/EmitterOptions.h"

#include <memory>

namespace hlo {

/// The emitter for a kGemm fusion, or why its dot is not one it takes.
[[nodiscard]] llvm::Expected<std::unique_ptr<EmitterBase>>
createGemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                  const GpuDeviceInfo &device, const EmitterOptions &options = {});

} // namespace hlo

#endif // HLO_EMITTERS_GEMMEMITTER_H
