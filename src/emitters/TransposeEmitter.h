//===- TransposeEmitter.h - The shared-memory transpose emitter -*- C++ -*-===//
//
// The transpose hero (XLA's "XLA:GPU Emitters", "Transpose emitter"): one block per tile
// of its tiling (emitters/TransposeTiling.h, computed when the emitter is
// built), 128 threads. The entry function
//  1. allocates a shared tile per transposed hero (`allocate_shared`),
//  2. reads the tile in the input's order (consecutive threads read
//     consecutive elements: coalesced), computing each hero's operand
//     through its subgraph and inserting it into the shared tile, and
//     writes the side outputs (roots that are bitcasts of the transpose
//     input) at the same positions,
//  3. `sync_threads`,
//  4. walks the tile in the output's order (coalesced writes), takes each
//     hero's element from its shared tile and runs the epilogue from the
//     hero to its roots.
// Both walks are one xla_gpu.loop whose map gives the global index and the
// shared tile's index; edge tiles are cut by the maps' constraints.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_TRANSPOSEEMITTER_H
#define HLO_EMITTERS_TRANSPOSEEMITTER_H

#include "emitters/EmitterBase.h"
#include "emitters/TransposeTiling.h"

namespace hlo {

class TransposeEmitter : public EmitterBase {
public:
  TransposeEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                   const GpuDeviceInfo &device);

  LaunchDimensions launchDimensions() const override { return launch; }
  /// PackedTranspose when the tile is XLA's packed (swizzled) one.
  std::string emitterName() const override {
    return tiling().swizzled ? "kTranspose/PackedTranspose" : "kTranspose/TransposeFusion";
  }
  int64_t sharedMemoryBytes() const override;
  bool synchronizesThreads() const override { return true; }
  std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t rootIndex, mlir::MLIRContext *context) const override;

  const TransposeTiling &tiling() const { return tilingValue; }

  /// (launch)[iteration, vector element] -> the normalized input index
  /// (read walk) or output index (write walk), then, if `withShared`, the
  /// shared tile's index; constrained to the elements that exist.
  IndexingMap tileWalk(bool input, bool withShared, mlir::MLIRContext *context) const;

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override;
  std::vector<EpilogueSpecification> epilogues() const override;
  [[nodiscard]] llvm::Error emitEntryFunction(EmitterContext &context) override;

private:
  /// The transposed heroes, each once, in root order.
  std::vector<const HloInstruction *> transposedHeroes() const;
  bool isTransposedRoot(size_t rootIndex) const;
  /// (launch)[symbols] -> the index of transposed root `rootIndex`.
  std::optional<IndexingMap> transposedRootIndexing(size_t rootIndex,
                                                    mlir::MLIRContext *context) const;

  /// The shared tile's index of a walk's shared index (the swizzle of a
  /// packed tile).
  llvm::SmallVector<mlir::Value> sharedTileIndex(mlir::ImplicitLocOpBuilder &b,
                                                 mlir::ValueRange walkIndex) const;

  TransposeTiling tilingValue;
  LaunchDimensions launch;
};

} // namespace hlo

#endif // HLO_EMITTERS_TRANSPOSEEMITTER_H
