//===- ConcatenateEmitter.h - The concatenate fusion emitter ----*- C++ -*-===//
//
// XLA's concatenate emitter (shared/notes/xla-reference.md): a fusion whose
// one hero is a concatenate of at most 4 operands, under a non-tuple root.
// The launch is the loop emitter's, sized for the largest operand (its
// unroll rule included); the entry function runs one loop per operand over
// that operand's own elements, computes the element through the operand's
// subgraph, moves it to its place along the concatenated dimension and
// runs the epilogue from the concatenate to the root. No thread decides
// between operands per element, unlike the loop emitter's elemental
// concatenate (a chain of scf.if), which stays the fallback.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_CONCATENATEEMITTER_H
#define HLO_EMITTERS_CONCATENATEEMITTER_H

#include "emitters/LoopFusionEmitter.h"

namespace hlo {

class ConcatenateEmitter : public LoopFusionEmitter {
public:
  ConcatenateEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                     const GpuDeviceInfo &device);

  std::string emitterName() const override { return "kConcatenate/ConcatenateFusion"; }
  /// Several maps (one per operand) write the output: not one affine map.
  std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t rootIndex, mlir::MLIRContext *context) const override {
    return std::nullopt;
  }

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override;
  std::vector<EpilogueSpecification> epilogues() const override;
  [[nodiscard]] llvm::Error emitEntryFunction(EmitterContext &context) override;

private:
  const HloInstruction &hero() const { return *analysis().heroes.front(); }
  const HloInstruction &root() const { return *analysis().roots.front(); }
};

} // namespace hlo

#endif // HLO_EMITTERS_CONCATENATEEMITTER_H
