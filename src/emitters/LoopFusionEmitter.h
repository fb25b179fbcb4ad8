//===- LoopFusionEmitter.h - The loop fusion emitter ------------*- C++ -*-===//
//
// The default emitter (XLA's "XLA:GPU Emitters", "Loop emitter"): each thread handles
// `unroll` consecutive output elements; an xla_gpu.loop over the map
//
//   (th_x, bl_x)[vector_index] -> (output index of
//       (bl_x * threads + th_x) * unroll + vector_index)
//
// calls the root subgraph function and inserts the element into the output
// tensors. Launch figures follow shared/notes/xla-reference.md: threads per
// block = min(128, n), unroll = gcd(elements, 4) for large fusions without
// expensive ops. Concatenate fusions beyond the concatenate emitter's
// limits are emitted here, elementally.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_LOOPFUSIONEMITTER_H
#define HLO_EMITTERS_LOOPFUSIONEMITTER_H

#include "emitters/EmitterBase.h"

namespace hlo {

class LoopFusionEmitter : public EmitterBase {
public:
  LoopFusionEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                    const GpuDeviceInfo &device);

  LaunchDimensions launchDimensions() const override { return launch; }
  /// In-place dynamic-update-slice fusions are emitted as loop fusions
  /// (every element written): the manifest says so.
  std::string emitterName() const override { return "kLoop/LoopFusion"; }
  std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t rootIndex, mlir::MLIRContext *context) const override;

  int64_t unrollFactor() const { return unroll; }
  /// (th_x, bl_x)[vector_index] -> index into an output of `dims`, with
  /// its domain (the grid is sized for the largest output).
  IndexingMap outputIndexingForDims(const std::vector<int64_t> &dims,
                                    mlir::MLIRContext *context) const;

protected:
  /// A launch sized for `elements` (the concatenate emitter's largest
  /// operand) instead of the largest output (nullopt).
  LoopFusionEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                    const GpuDeviceInfo &device,
                    std::optional<int64_t> elements);
  [[nodiscard]] llvm::Error emitEntryFunction(EmitterContext &context) override;

private:
  int64_t elements = 1; // the launch is sized for
  int64_t unroll = 1;
  LaunchDimensions launch;
};

} // namespace hlo

#endif // HLO_EMITTERS_LOOPFUSIONEMITTER_H
