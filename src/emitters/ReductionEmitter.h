//===- ReductionEmitter.h - The reduction emitters --------------*- C++ -*-===//
//
// The reduction heroes (after XLA's reduction emitters, reduction_base): a shared base and
// one subclass per variant (Row/MultiRow/Column/SmallColumnReductionEmitter
// .cpp), each computing its launch figures (emitters/ReductionTiling.h)
// when it is built.
//
// The base emits, per group of disjoint reductions (one grid row each,
// `blockIdx.y`; an scf.index_switch when there are several):
//  1. the per-thread loop (xla_gpu.loop over the variant's thread -> input
//     map): each thread folds its elements into accumulators with the
//     reducer (xla_gpu.pure_call), in the reducer's own types, and writes
//     the side outputs (roots of the reduce input's size) as it goes;
//  2. the variant's cross-thread part: warp shuffles (shuffle_reduce), and
//     where a reduced element spans several warps a shared tile
//     (allocate_shared, sync_threads, predicated_extract, shuffles again);
//  3. the epilogues from each reduce to its roots, written by the threads
//     that own an output element (predicated_insert).
// Reducers are callable functions; heroes' operands and side outputs are
// subgraph calls, so the elemental emitter supplies every value.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_REDUCTIONEMITTER_H
#define HLO_EMITTERS_REDUCTIONEMITTER_H

#include "analysis/ReductionGroups.h"
#include "emitters/EmitterBase.h"
#include "emitters/ReductionTiling.h"

#include "llvm/ADT/MapVector.h"

#include <memory>

namespace hlo {

class ReductionEmitter : public EmitterBase {
public:
  ReductionEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
                   const GpuDeviceInfo &device);

  LaunchDimensions launchDimensions() const override { return launch; }
  int64_t sharedMemoryBytes() const override;
  /// Warp shuffles (unless a row is one thread's), barriers with a
  /// shared tile.
  bool synchronizesThreads() const override {
    return tiling().shuffleDistance >= 1 || !tiling().sharedTile.empty();
  }
  std::optional<IndexingMap>
  threadIdToOutputIndexing(int64_t rootIndex, mlir::MLIRContext *context) const override;
  /// A side output over an operand it is computed from elementwise
  /// (sideOutputSharableParameters), when the fusion is one group: no
  /// other group's blocks read that operand.
  std::vector<int64_t> outputMayReuse() const override;

  const ReductionTiling &tiling() const { return tilingValue; }
  const ReductionGroups &groups() const { return groupsValue; }

  /// (launch)[per-thread symbols, the vector index last] -> an index into
  /// normalizedInputShape(), constrained to the elements that exist.
  virtual IndexingMap threadIdToInputIndexing(mlir::MLIRContext *context) const = 0;
  /// (launch)[output symbols] -> an index into normalizedOutputShape(),
  /// constrained to the threads that write it.
  virtual IndexingMap threadIdToReducedIndexing(mlir::MLIRContext *context) const = 0;
  /// The 3-D normal form of the input; the row variant splits off the
  /// vector: [d0, d1, d2 / v, v].
  virtual std::vector<int64_t> normalizedInputShape() const;
  /// The kept part of the normal form: row {d1}, column {d0, d2}.
  std::vector<int64_t> normalizedOutputShape() const;

protected:
  /// Per-hero values (one per reduced input of a variadic reduce), in
  /// hero order.
  using HeroValues = llvm::MapVector<const HloInstruction *, llvm::SmallVector<mlir::Value>>;

  /// What one group's emission works with.
  struct GroupEmission {
    EmitterContext &context;
    int64_t id;
    std::vector<const HloInstruction *> heroes;
    std::vector<const HloInstruction *> reductionRoots;
    std::vector<const HloInstruction *> sideOutputs;
    /// The heroes' init values (scalars).
    HeroValues inits;
    /// Each thread's partial results: scalars, or vectors of one per
    /// vector element where vectorAccumulators().
    HeroValues accumulators;
    /// The output tensors as written so far.
    llvm::SmallVector<mlir::Value> outputs;
    /// The group's first failure: its steps (shuffles, epilogues) run
    /// inside loop bodies, which return it to their loop; every exit of
    /// emitGroup takes it (takeFailure).
    void fail(llvm::Error failure) {
      if (failed) {
        llvm::consumeError(std::move(failure));
        return;
      }
      llvm::consumeError(std::move(error));
      error = std::move(failure);
      failed = true;
    }
    /// The failure recorded, for the caller (none is left here); an
    /// internal error if the group failed without one.
    [[nodiscard]] llvm::Error takeFailure() {
      failed = false;
      if (error)
        return std::move(error);
      return emissionError(nullptr, "internal error: a reduction group emitted nothing");
    }
    bool failed = false;
    llvm::Error error = llvm::Error::success();
  };

  std::vector<const HloInstruction *> valuesReadByEmitter() const override;
  std::vector<EpilogueSpecification> epilogues() const override;
  [[nodiscard]] llvm::Error emitEntryFunction(EmitterContext &context) override;

  /// Whether each vector element has its own accumulator (the column
  /// variants, whose vector elements belong to different outputs).
  virtual bool vectorAccumulators() const { return false; }
  /// From the per-thread results to the written outputs.
  virtual llvm::SmallVector<mlir::Value> emitCrossThreadReduction(GroupEmission &group) = 0;

  // Helpers for the variants.

  /// shuffle_reduce of every hero's values to `distance`.
  HeroValues shuffleReduce(GroupEmission &group, const HeroValues &values, int64_t distance);
  /// Writes `values` into fresh shared tiles at `writeMap` (its last
  /// symbol picks a vector accumulator's element), waits for the block,
  /// then every thread reads at `readMap` (the init where its constraints
  /// fail), shuffles to `distance` and writes its outputs.
  llvm::SmallVector<mlir::Value> reduceThroughSharedMemory(GroupEmission &group,
                                                           const HeroValues &values,
                                                           const IndexingMap &writeMap,
                                                           const IndexingMap &readMap,
                                                           int64_t distance);
  /// Evaluates the group's epilogues on the heroes' final values and
  /// inserts the roots' elements where threadIdToReducedIndexing() says.
  llvm::SmallVector<mlir::Value> evaluateEpilogues(GroupEmission &group,
                                                   const HeroValues &heroValues,
                                                   mlir::ValueRange outputs,
                                                   mlir::ValueRange symbolValues);

  /// Thread id components: {th floordiv threads[1], th mod threads[1]}.
  std::array<mlir::AffineExpr, 2> threadIds(mlir::MLIRContext *context) const;
  /// The logical block (over tiling().blocks): {major, minor}.
  std::array<mlir::AffineExpr, 2> blockIds(mlir::MLIRContext *context) const;
  /// The block's place among the blocks of its group (x, or y * X + x
  /// when the block count needs grid y).
  mlir::AffineExpr linearBlockId(mlir::MLIRContext *context) const;
  /// Rows of threads[1] threads each, one kept row per thread row, the
  /// row's first thread writing its reduced value (row and multi-row).
  IndexingMap keptRowReducedIndexing(mlir::MLIRContext *context) const;
  /// A map over launch dims with `results`, range variables of
  /// `symbolSizes` and `constraints` (expr, [lower, upper]).
  IndexingMap reductionMap(llvm::ArrayRef<mlir::AffineExpr> results,
                           llvm::ArrayRef<int64_t> symbolSizes,
                           llvm::ArrayRef<std::pair<mlir::AffineExpr, Interval>> constraints,
                           mlir::MLIRContext *context) const;

private:
  /// The outputs as group `id` writes them.
  [[nodiscard]] llvm::Expected<llvm::SmallVector<mlir::Value>>
  emitGroup(EmitterContext &context, int64_t id, llvm::SmallVector<mlir::Value> outputs);
  bool emitPerThreadElements(GroupEmission &group);
  /// (launch)[output symbols] -> the index of reduction root `root`.
  std::optional<IndexingMap> reductionRootIndexing(const HloInstruction *root,
                                                   mlir::MLIRContext *context) const;

  ReductionTiling tilingValue;
  ReductionGroups groupsValue;
  LaunchDimensions launch;
  /// The grid axis of the group: y as XLA's launches, z where the block
  /// count itself needs y.
  int groupAxis = 1;
};

// The variants, one file each.

/// Rows of up to 1024 threads: shuffles, then a shared tile across the
/// warps of a row (RowReductionEmitter.cpp).
class RowReductionEmitter : public ReductionEmitter {
public:
  using ReductionEmitter::ReductionEmitter;
  IndexingMap threadIdToInputIndexing(mlir::MLIRContext *context) const override;
  IndexingMap threadIdToReducedIndexing(mlir::MLIRContext *context) const override;
  std::vector<int64_t> normalizedInputShape() const override;

protected:
  llvm::SmallVector<mlir::Value> emitCrossThreadReduction(GroupEmission &group) override;
};

/// Several short rows per warp: shuffles within a row's lanes only
/// (MultiRowReductionEmitter.cpp).
class MultiRowReductionEmitter : public ReductionEmitter {
public:
  using ReductionEmitter::ReductionEmitter;
  IndexingMap threadIdToInputIndexing(mlir::MLIRContext *context) const override;
  IndexingMap threadIdToReducedIndexing(mlir::MLIRContext *context) const override;

protected:
  llvm::SmallVector<mlir::Value> emitCrossThreadReduction(GroupEmission &group) override;
};

/// 32 warps down the columns, a transposing shared tile, shuffles
/// (ColumnReductionEmitter.cpp).
class ColumnReductionEmitter : public ReductionEmitter {
public:
  using ReductionEmitter::ReductionEmitter;
  IndexingMap threadIdToInputIndexing(mlir::MLIRContext *context) const override;
  IndexingMap threadIdToReducedIndexing(mlir::MLIRContext *context) const override;

protected:
  bool vectorAccumulators() const override { return tiling().vectorSize > 1; }
  llvm::SmallVector<mlir::Value> emitCrossThreadReduction(GroupEmission &group) override;
};

/// Few columns (32 % d2 == 0): the block walks d1 * d2 linearly, then a
/// shared tile of rows x columns (SmallColumnReductionEmitter.cpp).
class SmallColumnReductionEmitter : public ReductionEmitter {
public:
  using ReductionEmitter::ReductionEmitter;
  IndexingMap threadIdToInputIndexing(mlir::MLIRContext *context) const override;
  IndexingMap threadIdToReducedIndexing(mlir::MLIRContext *context) const override;

protected:
  bool vectorAccumulators() const override { return tiling().vectorSize > 1; }
  llvm::SmallVector<mlir::Value> emitCrossThreadReduction(GroupEmission &group) override;
};

/// The emitter of the variant the analysis chose.
std::unique_ptr<ReductionEmitter> createReductionEmitter(const FusionAnalysis &analysis,
                                                         const HloComputation &fused,
                                                         const GpuDeviceInfo &device);

} // namespace hlo

#endif // HLO_EMITTERS_REDUCTIONEMITTER_H
