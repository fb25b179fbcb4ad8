//===- NormalizationEmitter.h - Block-level normalization fusions -*- C++ -*-===//
//
// XLA's block-level Triton fusions of the normalization kind (softmax,
// layer norm, RMS norm: reductions of a row broadcast back onto the row),
// emitted by our own MLIR path, no Triton involved. A block computes one
// row (NormalizationAnalysis.h): each cooperative reduction of the row in
// turn — its threads stride over the reduced elements, shuffle within
// warps, combine the warps through shared memory so that every thread holds
// the value — then every output element of the row, reading the reductions
// as values. The rest of the fusion is emitted elementally from a rewrite
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

/// The emitter for a kBlockLevel/NormalizationFusion; null with
/// `unsupported` set when the fusion's rows cannot be found.
std::unique_ptr<EmitterBase> createNormalizationEmitter(const FusionAnalysis &analysis,
                                                        const HloComputation &fused,
                                                        const GpuDeviceInfo &device,
                                                        std::string &unsupported);

} // namespace hlo

#endif // HLO_EMITTERS_NORMALIZATIONEMITTER_H
