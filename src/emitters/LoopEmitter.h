//===- LoopEmitter.h - The loop (elementwise) fusion emitter ----*- C++ -*-===//
//
// The default emitter (seed 004, "Loop emitter"): each thread handles
// `unroll` consecutive output elements; an xla_gpu.loop over the map
//
//   (th_x, bl_x)[vector_index] -> (output index of
//       (bl_x * threads + th_x) * unroll + vector_index)
//
// calls the root subgraph function and inserts the element into the output
// tensors. Launch figures follow shared/notes/xla-reference.md: threads per
// block = min(128, n), unroll = gcd(elements, 4) for large fusions without
// expensive ops.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_LOOPEMITTER_H
#define HLO_EMITTERS_LOOPEMITTER_H

#include "analysis/DeviceInfo.h"
#include "analysis/IndexingMap.h"
#include "emitters/ElementalEmitter.h"

namespace hlo {

struct LaunchDimensions {
  int64_t blocks[3] = {1, 1, 1};
  int64_t threads[3] = {1, 1, 1};
};

class LoopEmitter {
public:
  LoopEmitter(const HloComputation &fused, const GpuDeviceInfo &device);

  const LaunchDimensions &launchDimensions() const { return launch; }
  int64_t unrollFactor() const { return unroll; }
  /// (th_x, bl_x)[vector_index] -> index into an output of `dims`, with
  /// its domain (the grid is sized for the largest output).
  IndexingMap threadIdToOutputIndexing(const std::vector<int64_t> &dims,
                                       mlir::MLIRContext *context) const;

  /// Emits `func.func @name(params..., outputs...) -> outputs` into
  /// `module`; the subgraph functions must have been emitted by `elemental`.
  /// Its ops are at `location` (the fusion's, in the HLO text).
  bool emitEntryFunction(mlir::ModuleOp module, const std::string &name,
                         const PartitionedComputation &partitioned,
                         ElementalEmitter &elemental, mlir::Location location,
                         EmissionError &error);

private:
  /// An output of the fusion: a root, or one output of a multi-output root.
  struct Output {
    const HloInstruction *root;
    int64_t index;
    const Shape *shape;
  };
  const HloComputation &fused;
  std::vector<Output> outputs;
  int64_t elements = 1; // of the largest output
  int64_t unroll = 1;
  LaunchDimensions launch;
};

} // namespace hlo

#endif // HLO_EMITTERS_LOOPEMITTER_H
