//===- EmitterFactory.h - The emitter for a fusion --------------*- C++ -*-===//
//
// Owns the one place where an analysed fusion meets its emitter class:
// loop, in-place dynamic-update-slice, concatenate, the reduction
// variants, transpose, scatter, sort and the block-level normalization
// emitter. Kinds without an emitter (library fusions: cuBLAS, cuDNN,
// custom calls) are reported by kind. A new hero adds one case here; its
// kind and analysis live in analysis/FusionAnalysis.h (issue 30 lists
// what else it still touches).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMITTERFACTORY_H
#define HLO_EMITTERS_EMITTERFACTORY_H

#include "emitters/EmitterBase.h"

#include <memory>
#include <string>

namespace hlo {

/// The emitter for `fused`, or null with `unsupported` saying why.
std::unique_ptr<EmitterBase> createEmitter(const FusionAnalysis &analysis,
                                           const HloComputation &fused,
                                           const GpuDeviceInfo &device,
                                           std::string &unsupported);

} // namespace hlo

#endif // HLO_EMITTERS_EMITTERFACTORY_H
