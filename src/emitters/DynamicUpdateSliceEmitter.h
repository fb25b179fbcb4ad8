//===- DynamicUpdateSliceEmitter.h - In-place dynamic-update-slice -*- C++ -*-===//
//
// XLA's in-place dynamic-update-slice fusion (shared/notes/xla-reference.md):
// every root is a dynamic-update-slice (or a bitcast of one) of a fusion
// parameter, all updates of one shape, and the output buffer is that
// parameter's buffer (KernelPlan::canReuseInputBuffer; otherwise the loop
// emitter writes every element). The launch is the loop emitter's for the
// update's elements; each thread computes its update elements, the start
// indices clamped into the operand as HLO defines them, and writes only
// those elements: the rest of the buffer is the operand, already there.
// The launch record says which output aliases which parameter; the
// manifest carries it to hlo-run, which gives both one buffer.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_DYNAMICUPDATESLICEEMITTER_H
#define HLO_EMITTERS_DYNAMICUPDATESLICEEMITTER_H

#include "emitters/LoopFusionEmitter.h"

namespace hlo {

class DynamicUpdateSliceEmitter : public LoopFusionEmitter {
public:
  DynamicUpdateSliceEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                            const GpuDeviceInfo &device);

  std::string emitterName() const override { return "kLoop/InPlaceDynamicUpdateSliceFusion"; }
  /// Where a thread writes depends on the start indices at run time.
  std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t rootIndex, mlir::MLIRContext *context) const override {
    return std::nullopt;
  }
  std::vector<int64_t> outputAliases() const override;

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override;
  [[nodiscard]] llvm::Error emitEntryFunction(EmitterContext &context) override;

private:
  /// The dynamic-update-slice behind each output.
  std::vector<const HloInstruction *> updates() const;
};

} // namespace hlo

#endif // HLO_EMITTERS_DYNAMICUPDATESLICEEMITTER_H
