//===- EmitterFactory.h - The emitter for a fusion --------------*- C++ -*-===//
//
// Owns the one place where an analysed fusion meets its emitter class:
// loop, in-place dynamic-update-slice, concatenate, the reduction
// variants, transpose, scatter, sort and the block-level normalization
// emitter. Kinds without an emitter (library fusions: cuBLAS, cuDNN,
// custom calls) are reported by kind. A new hero adds one case here, its
// kind and variants to analysis/FusionKinds.def and its detection to
// analyzeFusion (analysis/FusionAnalysis.cpp); its tiling is its own,
// computed when the emitter is built (emitters/ReductionTiling.h,
// emitters/TransposeTiling.h are the models).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_EMITTERFACTORY_H
#define HLO_EMITTERS_EMITTERFACTORY_H

#include "emitters/EmitterBase.h"
#include "emitters/EmitterOptions.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace hlo {

/// The emitter for `fused`, or an error saying why there is none
/// ("unsupported: ...").
[[nodiscard]] llvm::Expected<std::unique_ptr<EmitterBase>>
createEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device, const EmitterOptions &options = {});

} // namespace hlo

#endif // HLO_EMITTERS_EMITTERFACTORY_H
