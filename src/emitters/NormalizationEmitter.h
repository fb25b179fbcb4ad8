//===- NormalizationEmitter.h - Block-level normalization fusions -*- C++ -*-===//
//
// XLA's block-level Triton fusions of the normalization kind (softmax,
// layer norm, RMS norm: reductions of a row broadcast back onto the row),
// emitted by our own MLIR path, no Triton involved. A block computes one
// row (NormalizationAnalysis.h), or several side by side where XLA's tile
// holds several and each gets whole warps, with the warps XLA's
// block_level_fusion_config names: each cooperative reduction of the row in
// turn — its threads walk the reduced elements 16 bytes at a time, shuffle
// within warps, combine the row's warps through shared memory so that every
// thread holds the value — then every output element of the row, reading
// the reductions as values. Up to 32 elements per thread, every pass reads
// the same registers (the row is read from memory once). The rest of the fusion is emitted elementally from a rewrite
// of it in which each cooperative reduce is a broadcast of a scalar
// parameter (the value the block computed).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_NORMALIZATIONEMITTER_H
#define HLO_EMITTERS_NORMALIZATIONEMITTER_H

#include "emitters/EmitterBase.h"

#include <memory>
#include <string>

namespace hlo {

/// The emitter for a kBlockLevel/NormalizationFusion, or an error saying
/// why the fusion's rows cannot be found.
[[nodiscard]] llvm::Expected<std::unique_ptr<EmitterBase>>
createNormalizationEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                           const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_NORMALIZATIONEMITTER_H
