//===- EmitterFactory.cpp - The emitter for a fusion ----------------------===//
#include "emitters/EmitterFactory.h"

#include "emitters/ConcatenateEmitter.h"
#include "emitters/DynamicUpdateSliceEmitter.h"
#include "emitters/GemmEmitter.h"
#include "emitters/LoopFusionEmitter.h"
#include "emitters/NormalizationEmitter.h"
#include "emitters/ReductionEmitter.h"
#include "emitters/ScatterEmitter.h"
#include "emitters/SortEmitter.h"
#include "emitters/TransposeEmitter.h"

namespace hlo {

llvm::Expected<std::unique_ptr<EmitterBase>>
createEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device, const EmitterOptions &options) {
  switch (analysis.kind) {
  case EmitterKind::Loop:
    if (analysis.variant == FusionVariant::InPlaceDynamicUpdateSlice)
      return std::make_unique<DynamicUpdateSliceEmitter>(analysis, fused, device);
    return std::make_unique<LoopFusionEmitter>(analysis, fused, device);
  case EmitterKind::Concatenate:
    return std::make_unique<ConcatenateEmitter>(analysis, fused, device);
  case EmitterKind::Reduction:
    if (std::unique_ptr<ReductionEmitter> emitter =
            createReductionEmitter(analysis, fused, device))
      return emitter;
    break;
  case EmitterKind::Transpose:
    return std::make_unique<TransposeEmitter>(analysis, fused, device);
  case EmitterKind::Scatter:
    return createScatterEmitter(analysis, fused, device);
  case EmitterKind::Sort:
    return createSortEmitter(analysis, fused, device);
  case EmitterKind::BlockLevel:
    return createNormalizationEmitter(analysis, fused, device);
  case EmitterKind::Gemm:
    return createGemmEmitter(analysis, fused, device, options);
  default:
    break;
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unsupported: " + analysis.kindString() +
                                     " fusions need an emitter that is not implemented yet");
}

} // namespace hlo
