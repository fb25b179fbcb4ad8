//===- EmitterFactory.cpp - The emitter for a fusion ----------------------===//
#include "emitters/EmitterFactory.h"

#include "emitters/ConcatenateEmitter.h"
#include "emitters/DynamicUpdateSliceEmitter.h"
#include "emitters/LoopFusionEmitter.h"
#include "emitters/NormalizationEmitter.h"
#include "emitters/ReductionEmitter.h"
#include "emitters/ScatterEmitter.h"
#include "emitters/SortEmitter.h"
#include "emitters/TransposeEmitter.h"

namespace hlo {

std::unique_ptr<EmitterBase> createEmitter(const FusionAnalysis &analysis,
                                           const HloComputation &fused,
                                           const GpuDeviceInfo &device,
                                           std::string &unsupported) {
  switch (analysis.kind) {
  case EmitterKind::Loop:
    if (analysis.variant == FusionVariant::InPlaceDynamicUpdateSlice)
      return std::make_unique<DynamicUpdateSliceEmitter>(analysis, fused, device);
    return std::make_unique<LoopFusionEmitter>(analysis, fused, device);
  case EmitterKind::Concatenate:
    return std::make_unique<ConcatenateEmitter>(analysis, fused, device);
  case EmitterKind::Reduction:
    return createReductionEmitter(analysis, fused, device);
  case EmitterKind::Transpose:
    return std::make_unique<TransposeEmitter>(analysis, fused, device);
  case EmitterKind::Scatter:
    return createScatterEmitter(analysis, fused, device, unsupported);
  case EmitterKind::Sort:
    return createSortEmitter(analysis, fused, device);
  case EmitterKind::BlockLevel:
    return createNormalizationEmitter(analysis, fused, device, unsupported);
  default:
    break;
  }
  unsupported = "unsupported: " + analysis.kindString() +
                " fusions need an emitter that is not implemented yet";
  return nullptr;
}

} // namespace hlo
