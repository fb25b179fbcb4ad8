//===- GemmEmitterImpl.h - The GEMM emitter's class, privately ---*- C++ -*-===//
//
// The tensor-core GEMM emitter (GemmEmitter.h says what it computes),
// declared for the files that define it and nothing else:
// GemmEmitterSetup.cpp (the choices before emission: tiling, warpgroups,
// staging, stages, launch), GemmEmitter.cpp (the kernel: tiles, K loop,
// products, epilogue), GemmStaging.cpp (how the block copies each
// operand's K tile into shared memory), GemmTma.cpp (the TMA loads, and
// the producer warpgroup that issues them), GemmTmaStore.cpp (the
// epilogue through shared memory and TMA stores) and GemmTileScheduler.cpp
// (which output tile a block computes).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_GEMMEMITTERIMPL_H
#define HLO_EMITTERS_GEMMEMITTERIMPL_H

#include "analysis/GemmAnalysis.h"
#include "dialect/MmaSyncKind.h"
#include "emitters/EmitterBase.h"
#include "emitters/EmitterOptions.h"
#include "emitters/GemmTiling.h"

#include <array>
#include <functional>

namespace hlo {

/// `value` rounded to TF32 as the tensor cores' conversion (cvt.rna) does:
/// to nearest, ties away from zero, in the top 19 bits; NaN and infinity
/// kept. Scalars or vectors alike.
mlir::Value roundToTf32(mlir::ImplicitLocOpBuilder &b, mlir::Value value);
/// `value` as TF32 (its rounding) plus the TF32 rounding of the rest (zero
/// where the rounding is the value: infinities included), for 3xTF32.
std::pair<mlir::Value, mlir::Value> splitTf32(mlir::ImplicitLocOpBuilder &b, mlir::Value value);

/// Index arithmetic at `b`'s insertion point, the GEMM emitter's
/// shorthand: constants, sums, products, unsigned `<` and `and`.
struct IndexMath {
  mlir::ImplicitLocOpBuilder &b;
  mlir::Value constant(int64_t value) const;
  mlir::Value add(mlir::Value x, mlir::Value y) const;
  mlir::Value mul(mlir::Value x, int64_t y) const;
  mlir::Value less(mlir::Value x, int64_t bound) const;
  mlir::Value both(mlir::Value x, mlir::Value y) const;
};

class GemmEmitter : public EmitterBase {
public:
  GemmEmitter(const FusionAnalysis &analysis, const HloComputation &fused,
              const GpuDeviceInfo &device, GemmDescription gemm, const EmitterOptions &options);

  LaunchDimensions launchDimensions() const override { return launch; }
  std::vector<TensorMapParameter> tensorMapParameters() const override;
  std::optional<abi::GemmKernel> gemmKernel() const override;
  int64_t sharedMemoryBytes() const override;
  bool synchronizesThreads() const override { return true; } // barriers, collective mma
  std::optional<IndexingMap> threadIdToOutputIndexing(int64_t,
                                                      mlir::MLIRContext *) const override {
    return std::nullopt;
  }

protected:
  std::vector<const HloInstruction *> valuesReadByEmitter() const override {
    return {gemm.dot->operand(0), gemm.dot->operand(1)};
  }
  std::vector<EpilogueSpecification> epilogues() const override {
    return {{gemm.dot, fused.root()}};
  }
  llvm::Error emitEntryFunction(EmitterContext &context) override;

private:
  /// How an operand's K tile lies in shared memory:
  ///  - Rows: [free rows][K tile + pad], for mma.sync;
  ///  - KRows: [K tile][free rows + pad], for 16-bit operands stored
  ///    free-dimension minor (read by ldmatrix.trans);
  ///  - SwizzledRows: [K tile * 2 / S][free rows][S / 2], rows of S = 32,
  ///    64 or 128 bytes (the largest that divides a K tile's row), each
  ///    row's 16-byte chunks permuted by wgmma's S-byte swizzle, for
  ///    wgmma: a warp's 16-byte stores of eight consecutive chunks of one
  ///    row land in different banks.
  ///  - SwizzledColumns: B stored N-minor, for wgmma's N-major B
  ///    (imm-trans-b, 16-bit): [rows * 2 / S][K tile][S / 2], rows of S
  ///    bytes along N (one a k), chunks swizzled as SwizzledRows' (S that
  ///    of the K tile's rows; a warpgroup's N whole rows of it); or A
  ///    stored M-minor, likewise, for an M-major A (imm-trans-a).
  enum class TileLayout { Rows, KRows, SwizzledRows, SwizzledColumns };
  struct Staging {
    TileLayout layout = TileLayout::Rows;
    /// The tile's free rows.
    int64_t rows = 0;
    /// Whether the block's threads run along K (the operand is stored
    /// K-minor) or along its free rows, how many consecutive elements
    /// along that direction each copies at a time (one vector load), and
    /// whether they are consecutive in the tile too (one vector store).
    bool alongK = true;
    int64_t width = 1;
    bool contiguousInTile = true;
    /// SwizzledRows: S.
    int64_t swizzleBytes = 0;
    /// Whether its vectors go straight from the operand (a fusion
    /// parameter) to the tile with async copies (cp.async; in a
    /// multi-stage K loop), rather than through registers.
    bool async = false;
    /// Whether the copy engine loads the whole K tile instead (a TMA load
    /// from the parameter passed as a tensor map, completing on the
    /// stage's mbarrier; the in-flight wgmma K loop only).
    bool tma = false;
    llvm::SmallVector<int64_t, 4> tileShape;
  };
  Staging stagingOf(int operand) const;
  /// A swizzled tile's element `along` its S-byte row number `line`: the
  /// atom (S / E elements each) and its place in the row after the
  /// swizzle, which XORs its 16-byte chunk with the row's 128-byte line
  /// modulo S / 16 (the tile starts at a multiple of 8 S bytes).
  std::pair<mlir::Value, mlir::Value> swizzledPlace(mlir::ImplicitLocOpBuilder &b,
                                                    const Staging &staging, mlir::Value line,
                                                    mlir::Value along) const;
  /// Whether the K tiles hold 3xTF32's three segments (HIGHEST f32 on
  /// wgmma): [rest | TF32 | TF32] for A, [TF32 | rest | TF32] for B, each
  /// the K tile's width, so that one wgmma over them adds A's rest times
  /// B, A times B's rest, then the TF32 parts' product.
  bool segmentedTf32() const;
  /// `value` of operand `operand` as its three segments' elements.
  std::array<mlir::Value, 3> threeTf32Segments(mlir::ImplicitLocOpBuilder &b, int operand,
                                               mlir::Value value) const;
  /// The tile's indices of element (free row, K index) of the K tile.
  llvm::SmallVector<mlir::Value, 4> tileIndices(mlir::ImplicitLocOpBuilder &b,
                                                const Staging &staging, mlir::Value row,
                                                mlir::Value k) const;

  /// Where the running thread's block is.
  struct BlockPosition {
    llvm::SmallVector<mlir::Value> batch;
    mlir::Value row, column;
    /// False for the blocks past the tiles (a grid split over y and z).
    mlir::Value hasTile;
    mlir::Value thread;
    /// The block's rank in its cluster (clusters of two only).
    mlir::Value clusterRank;
  };
  /// Where tile number `tile` lies (its batch, first row and column, and
  /// whether it exists): row-major, or grouped 8 tile rows at a time for
  /// persistent blocks (GemmTileScheduler.cpp).
  BlockPosition tilePosition(mlir::ImplicitLocOpBuilder &b, mlir::Value tile,
                             mlir::Value thread) const;
  /// A persistent block's loop over its tiles (block, block + grid, ...),
  /// carrying `values` and the K rounds of the tiles before: `body` gets
  /// each tile's position, the values and those rounds, and returns the
  /// values after the tile. The values after the last tile.
  using BlockTileBody = std::function<llvm::Expected<llvm::SmallVector<mlir::Value>>(
      const BlockPosition &, mlir::ValueRange, mlir::Value)>;
  llvm::Expected<llvm::SmallVector<mlir::Value>>
  emitBlockTileLoop(mlir::ImplicitLocOpBuilder &b, mlir::Value block, mlir::Value thread,
                    llvm::SmallVector<mlir::Value> values, int64_t rounds,
                    const BlockTileBody &body) const;
  /// The block's threads copy operand `operand`'s K tile from contraction
  /// index `k0` on into `tile` (zeros past the operand): the tile updated.
  llvm::Expected<mlir::Value> stageOperand(EmitterContext &context, const BlockPosition &block,
                                           int operand, mlir::Value tile, mlir::Value k0) const;

  /// One operand's index, and its element, at (batch indices, free
  /// index, contracting index) (the free and contracting indices row-major
  /// over the operand's free and contracting dimensions).
  llvm::SmallVector<mlir::Value> operandIndex(mlir::ImplicitLocOpBuilder &b, int operand,
                                              mlir::ValueRange batch, mlir::Value free,
                                              mlir::Value contracting) const;
  llvm::Expected<mlir::Value> operandElement(EmitterContext &context, int operand,
                                             mlir::ValueRange batch, mlir::Value free,
                                             mlir::Value contracting) const;
  /// Whether operand `operand`'s vectors can be async copies: it is a
  /// parameter of the fusion, copied 4, 8 or 16 bytes at a time straight
  /// into the tile (no TF32 rounding on the way).
  bool canCopyAsync(int operand) const;

  /// Whether operand `operand`'s K tiles can be TMA loads: a fusion
  /// parameter the dot alone reads, one contracting, one free and at most
  /// one batch dimension, K-minor with its K tile one swizzled row of each
  /// operand row (SwizzledRows of one atom), or free-dimension minor
  /// (SwizzledColumns), with 16-byte row strides; 16-bit or 8-bit floats
  /// on a TMA device.
  bool canLoadWithTma(int operand) const;
  /// What each dimension of operand `operand`'s tensor map is, most minor
  /// first (its layout's order).
  enum class TmaDimension { Contracting, Free, Batch };
  llvm::SmallVector<TmaDimension> tmaDimensions(int operand) const;
  /// The TMA box of operand `operand`, most minor first: the K tile
  /// (K-minor) or an atom of rows (M- or N-minor), the other of them, and
  /// one along a batch dimension.
  std::vector<int64_t> tmaBox(int operand) const;
  /// The issuing thread's TMA loads of the K tile from contraction index
  /// `k0` on into stage `stage`'s tiles `values[0]` (A) and `values[1]`
  /// (B), of the operands staged by TMA, expected on full barrier `stage`
  /// of `values[2]`: the three updated.
  llvm::SmallVector<mlir::Value> issueTmaLoads(mlir::ImplicitLocOpBuilder &b,
                                               EmitterContext &context,
                                               const BlockPosition &position,
                                               llvm::SmallVector<mlir::Value> values,
                                               int64_t stage, mlir::Value k0) const;
  /// Whether a warp-specialized kernel's blocks can pair in clusters of
  /// two sharing B's tiles: B loads by TMA in halves of whole swizzle
  /// patterns (8 rows, or an even number of atoms), and there are two
  /// tile rows or more.
  bool canMulticastB() const;
  /// The blocks a cluster (1 without warp specialization).
  int64_t clusterBlocks() const {
    return warpSpecialization ? warpSpecialization->cluster : 1;
  }
  /// The tile rows the tile scheduler counts: whole clusters of them.
  int64_t scheduledTilesM() const {
    return llvm::alignTo(tiling.tilesM, clusterBlocks());
  }
  /// The producer warpgroup of a warp-specialized kernel: its registers
  /// given back, then its first thread loads K tiles 0 to `rounds` * S - 1
  /// (zeros past K), tile i into stage i % S once the consumers released
  /// the stage's previous tile (its empty barrier's phase); a persistent
  /// block's, for each of its output tiles in turn. `tiles`: the stages'
  /// tiles, then the full and the empty barriers; returned updated.
  llvm::Expected<llvm::SmallVector<mlir::Value>>
  emitTmaProducer(mlir::ImplicitLocOpBuilder &b, EmitterContext &context,
                  const BlockPosition &position, mlir::Value block,
                  llvm::SmallVector<mlir::Value> tiles, int64_t rounds) const;

  /// Whether the consumers can write the output through shared memory
  /// (GemmTmaStore.cpp): warp specialization; the tile whole warpgroups
  /// of whole 64-column chunks, nothing past the block's tile; a 16-bit
  /// [M, N] or [batch, M, N] row-major output with rows of whole 16
  /// bytes, the dot's own indices (no bitcasts on the way).
  bool canStoreWithTma() const;
  /// The epilogue's buffers: two a consumer warp, each a TMA box of 16
  /// rows by 64 columns (128 bytes, swizzled).
  mlir::RankedTensorType epilogueTileType(mlir::MLIRContext *context) const;
  int64_t epilogueTileBytes() const;
  /// The output's TMA box: a chunk, most minor first (and one along the
  /// batch).
  std::vector<int64_t> epilogueBox() const;
  /// The output's tensor map: a chunk's box, the 128-byte swizzle.
  TensorMapParameter outputTensorMap() const;
  /// One warp's output through shared memory: for each 64-column chunk of
  /// its warpgroup's slab, its first lane waits until the store that last
  /// read the chunk's buffer has (`tma_store_wait`), the warp's lanes put
  /// their values (`value(v)`: accumulator value v, in the output's type)
  /// into the buffer by stmatrix, and the first lane TMA-stores the 16 x
  /// 64 box at (`batch`, `row`, `column` + 64 chunk) where the block has
  /// a tile.
  /// The output and the buffers, updated.
  llvm::Expected<std::pair<mlir::Value, mlir::Value>>
  storeWarpOutputWithTma(mlir::ImplicitLocOpBuilder &b, mlir::Value output, mlir::Value buffers,
                         mlir::Value warp, mlir::Value lane, mlir::Value hasTile,
                         mlir::ValueRange batch, mlir::Value row, mlir::Value column,
                         const std::function<llvm::Expected<mlir::Value>(int64_t)> &value) const;
  /// The first lane of each warp waits for all its TMA stores' writes.
  void waitForTmaStores(mlir::ImplicitLocOpBuilder &b, mlir::Value lane) const;

  /// Whether operand `operand` is stored with a contracting dimension
  /// minor-most (K contiguous).
  bool isKMinor(int operand) const;

  /// Where each 32-bit register of a lane's A or B fragment (`values`
  /// values) starts in lane 0's view (row and column offsets in the mma
  /// tile), if every register is one lane's word of an 8 x 8 (16-bit)
  /// matrix row as ldmatrix delivers it: the registers' matrices, in
  /// order; none where ldmatrix does not apply (64-bit elements, rows not
  /// 16-byte aligned).
  std::optional<llvm::SmallVector<xla_gpu::MmaFragmentOffset>>
  ldmatrixRows(xla_gpu::MmaOperand role, int64_t values, const Staging &tile) const;

  /// XLA's output tile as (rows, columns) of the dot, if its config names
  /// one with its warps, one per batch dimension, and the root's
  /// dimensions are the dot's (permuted by bitcasts at most).
  std::optional<std::pair<int64_t, int64_t>> configuredTile(const FusionAnalysis &analysis) const;

  /// Whether the block's warpgroups multiply with wgmma (sm_90a, 16-bit
  /// floats or TF32, whole warpgroups each a 64-row slab of the tile, N up
  /// to 256):
  /// the warpgroups as a grid over the tile and each one's N.
  struct WarpgroupTiling {
    int64_t groupsM = 0, groupsN = 0, width = 0;
  };
  std::optional<WarpgroupTiling> chooseWarpgroupTiling() const;

  /// The GEMM's tuning key (abi/GemmTuning.h): its A, B and result
  /// types, batch, M, N and K, and each operand's minor dimension, e.g.
  /// "bf16,bf16->bf16 m4096 n4096 k4096 a:k b:n".
  std::string tuningKey() const;

  GemmDescription gemm;
  xla_gpu::MmaSyncKind mma;
  GemmTiling tiling;
  /// The K tiles in flight: XLA's num_stages (or 2 for the emitter's own
  /// tiles) where an operand is copied asynchronously and the buffers
  /// fit, else 1.
  int64_t stages = 1;
  std::optional<WarpgroupTiling> warpgroups;
  /// Warp specialization (the in-flight wgmma loop with both operands by
  /// TMA): the tiling's warps consume (multiply and write the output), one
  /// more warpgroup after them produces (issues the TMA loads); a stage
  /// has a full mbarrier (its loads landed) and an empty one (every
  /// consumer warp is done with it: its first lane arrives). Where the block has its SM alone
  /// and two or more consumer warpgroups, setmaxnreg moves registers from
  /// the producer to the consumers.
  struct WarpSpecialization {
    int64_t consumerThreads = 0;
    /// Persistent blocks (the large tile, one block an SM): a grid of at
    /// most the SMs, each block taking tile after tile, the producer
    /// loading the next tile's K tiles while the consumers write the
    /// last's output.
    bool persistent = false;
    /// The setmaxnreg counts; 0: none.
    int64_t producerRegisters = 0, consumerRegisters = 0;
    /// Blocks a thread-block cluster (1 or 2): a cluster's two blocks
    /// compute vertically adjacent tiles (tiles 2j and 2j + 1, the tile
    /// rows counted up to even), each block's producer loads half of B's
    /// K tile multicast into both, and a stage is free once the consumers
    /// of both blocks released it (each arrives at both blocks' empty
    /// barriers).
    int64_t cluster = 1;
  };
  std::optional<WarpSpecialization> warpSpecialization;
  /// The consumers write the output through shared memory and TMA stores
  /// (canStoreWithTma, and the buffers fit).
  bool epilogueByTma = false;
  int64_t elementBytes = 0;
  Staging staging[2];
  LaunchDimensions launch;
  /// EmitterOptions::plantedBug (tests of the checks only).
  std::string plantedBug;
};

} // namespace hlo

#endif // HLO_EMITTERS_GEMMEMITTERIMPL_H
