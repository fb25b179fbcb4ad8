//===- GemmEmitter.cpp - Tensor-core GEMMs (XLA's Triton GEMM fusions) ----===//
//
// Owns the GEMM kernel's emission: the block's tile, the K loop (stages,
// cp.async and TMA staging, mma.sync or wgmma products in flight), and the
// epilogue. The choices it follows are made in GemmEmitterSetup.cpp.
//
//===----------------------------------------------------------------------===//
#include "emitters/GemmEmitter.h"

#include "emitters/GemmEmitterImpl.h"

#include "analysis/GemmAnalysis.h"
#include "dialect/KernelContract.h"
#include "dialect/MmaSyncKind.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/GemmTiling.h"
#include "emitters/TypeConversion.h"
#include "hlo_parser/OpAttributes.h"
#include "support/BackendConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>
#include <tuple>

using namespace mlir;

namespace hlo {

std::pair<Value, Value> splitTf32(ImplicitLocOpBuilder &b, Value value) {
  Value big = roundToTf32(b, value);
  Value rest = roundToTf32(b, arith::SubFOp::create(b, value, big));
  Value exact = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, big, value);
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(value.getType()));
  return {big, arith::SelectOp::create(b, exact, zero, rest)};
}

Value roundToTf32(ImplicitLocOpBuilder &b, Value value) {
  // Scalars or vectors (a fragment) alike.
  Type i32 = b.getI32Type();
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    i32 = VectorType::get(vector.getShape(), i32);
  auto constant = [&](uint32_t bits) -> Value {
    TypedAttr attribute = b.getI32IntegerAttr(static_cast<int32_t>(bits));
    if (auto vector = dyn_cast<VectorType>(i32))
      attribute = SplatElementsAttr::get(vector, attribute);
    return arith::ConstantOp::create(b, attribute);
  };
  Value bits = arith::BitcastOp::create(b, i32, value);
  Value rounded = arith::AndIOp::create(b, arith::AddIOp::create(b, bits, constant(0x1000)),
                                        constant(0xffffe000u));
  Value exponent = arith::AndIOp::create(b, bits, constant(0x7f800000u));
  Value special =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, exponent, constant(0x7f800000u));
  return arith::BitcastOp::create(b, value.getType(),
                                  arith::SelectOp::create(b, special, bits, rounded));
}

Value IndexMath::constant(int64_t value) const {
  return arith::ConstantIndexOp::create(b, value);
}
Value IndexMath::add(Value x, Value y) const { return arith::AddIOp::create(b, x, y); }
Value IndexMath::mul(Value x, int64_t y) const {
  return arith::MulIOp::create(b, x, constant(y));
}
Value IndexMath::less(Value x, int64_t bound) const {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, x, constant(bound));
}
Value IndexMath::both(Value x, Value y) const { return arith::AndIOp::create(b, x, y); }

std::optional<SmallVector<xla_gpu::MmaFragmentOffset>>
GemmEmitter::ldmatrixRows(xla_gpu::MmaOperand role, int64_t values,
                          const Staging &tile) const {
  int64_t bits = elementBytes * 8;
  bool transposed = tile.layout == TileLayout::KRows;
  if (tile.layout == TileLayout::SwizzledRows || bits > 32 ||
      (tile.tileShape[1] * elementBytes) % 16 != 0 || (transposed && bits != 16))
    return std::nullopt;
  int64_t perWord = 32 / bits;
  SmallVector<xla_gpu::MmaFragmentOffset> starts;
  for (int64_t v = 0; v < values; v += perWord) {
    xla_gpu::MmaFragmentOffset first = xla_gpu::mmaFragmentOffset(mma, role, v);
    // The word holds consecutive columns of one row; lane t of a group
    // reads word t of the row.
    if (first.perRegister != perWord || first.columnOffset % perWord != 0)
      return std::nullopt;
    for (int64_t w = 1; w < perWord; ++w) {
      xla_gpu::MmaFragmentOffset next = xla_gpu::mmaFragmentOffset(mma, role, v + w);
      if (next.rowOffset != first.rowOffset || next.columnOffset != first.columnOffset + w)
        return std::nullopt;
    }
    starts.push_back(first);
  }
  if (starts.size() != 1 && starts.size() != 2 && starts.size() != 4)
    return std::nullopt;
  return starts;
}

llvm::Error GemmEmitter::emitEntryFunction(EmitterContext &context) {
  ImplicitLocOpBuilder &b = context.b;
  MLIRContext *mlirContext = b.getContext();
  const GemmTiling &t = tiling;
  const IndexMath math{b};

  // The block's tile: (batch, tile row, tile column), the blocks in
  // row-major order over them however splitGrid spread them.
  Value thread = context.threadAndBlockIds[0];
  Value block = context.threadAndBlockIds[1];
  int64_t stride = launch.blocks[0];
  for (size_t axis = 2; axis < context.threadAndBlockIds.size(); ++axis) {
    block = math.add(block, math.mul(context.threadAndBlockIds[axis], stride));
    stride *= launch.blocks[axis - 1];
  }
  // (Persistent blocks take tile after tile: the epilogue and the K loop
  // below read the position's values, reassigned for each.)
  BlockPosition position = tilePosition(b, block, thread);
  SmallVector<Value> batch = position.batch;
  Value blockRow = position.row, blockColumn = position.column;
  Value blockHasTile = position.hasTile;
  SmallVector<Value> warpAndLane = delinearizeIndex(b, thread, {t.warps, 8, 4});
  Value warp = warpAndLane[0], group = warpAndLane[1], inGroup = warpAndLane[2];

  // The warp's mma tiles, as rows and columns of the block's tile: row
  // slots (each an A fragment) and column slots (each a B fragment), and
  // tile j's slots and whether it exists (warp-uniform).
  SmallVector<Value> rowSlots, columnSlots;
  struct WarpTile {
    Value valid;
    int64_t rowSlot, columnSlot;
  };
  SmallVector<WarpTile> warpTiles;
  Value yes = arith::ConstantIntOp::create(b, 1, 1);
  if (t.warpGrid) {
    SmallVector<Value> position = delinearizeIndex(b, warp, {t.warpsM, t.warpsN});
    for (int64_t r = 0; r < t.warpTilesM; ++r)
      rowSlots.push_back(math.mul(math.add(math.mul(position[0], t.warpTilesM), math.constant(r)), mma.m));
    for (int64_t c = 0; c < t.warpTilesN; ++c)
      columnSlots.push_back(math.mul(math.add(math.mul(position[1], t.warpTilesN), math.constant(c)), mma.n));
    for (int64_t j = 0; j < t.tilesPerWarp; ++j)
      warpTiles.push_back({yes, j / t.warpTilesN, j % t.warpTilesN});
  } else {
    for (int64_t j = 0; j < t.tilesPerWarp; ++j) {
      Value index = math.add(warp, math.constant(j * t.warps));
      SmallVector<Value> position = delinearizeIndex(b, index, {t.mmaTilesM, t.mmaTilesN});
      rowSlots.push_back(math.mul(position[0], mma.m));
      columnSlots.push_back(math.mul(position[1], mma.n));
      warpTiles.push_back({math.less(index, t.mmaTilesM * t.mmaTilesN), j, j});
    }
  }

  Type accumulatorElement = mma.input == xla_gpu::MmaInput::F64  ? b.getF64Type()
                            : mma.input == xla_gpu::MmaInput::S8 ? Type(b.getI32Type())
                                                                 : Type(b.getF32Type());
  // A warp's mma.sync accumulators: one vector per mma tile; a
  // warpgroup's: one vector of N / 2.
  int64_t accumulatorCount = warpgroups ? 1 : t.tilesPerWarp;
  auto accumulatorType = VectorType::get(
      {warpgroups ? warpgroups->width / 2 : mma.cValues()}, accumulatorElement);
  // With wgmma: the warpgroup's slab of the tile (rows and columns), and
  // the thread's warp in it.
  Value groupRow, groupColumn, warpInGroup;
  if (warpgroups) {
    SmallVector<Value> slab = delinearizeIndex(
        b, arith::DivUIOp::create(b, warp, math.constant(4)), {warpgroups->groupsM, warpgroups->groupsN});
    groupRow = math.mul(slab[0], 64);
    groupColumn = math.mul(slab[1], warpgroups->width);
    warpInGroup = arith::RemUIOp::create(b, warp, math.constant(4));
  }
  Value zeros = arith::ConstantOp::create(b, b.getZeroAttr(accumulatorType));
  // A's and B's element types (e4m3 and e5m2 may meet).
  Type inputElements[2] = {
      elementType(gemm.dot->operand(0)->shape().elementType(), mlirContext),
      elementType(gemm.dot->operand(1)->shape().elementType(), mlirContext)};
  auto sharedType = [&](int operand) {
    return RankedTensorType::get(staging[operand].tileShape, inputElements[operand]);
  };

  // A lane's fragment of operand 0 (A) or 1 (B) from its shared tile: the
  // mma tile whose rows start at `rowBase`, at step `k0` of the K tile.
  // With ldmatrix where each 32-bit register of the fragment is one row
  // segment of an 8 x 8 (16-bit) matrix, else element by element.
  Value lane = math.add(math.mul(group, 4), inGroup);
  auto loadFragment = [&](int operand, Value shared, Value rowBase, int64_t k0) {
    auto role = operand == 0 ? xla_gpu::MmaOperand::A : xla_gpu::MmaOperand::B;
    int64_t values = operand == 0 ? mma.aValues() : mma.bValues();
    auto fragmentType = VectorType::get({values}, inputElements[operand]);
    const Staging &tile = staging[operand];
    bool transposed = tile.layout == TileLayout::KRows;
    if (std::optional<SmallVector<xla_gpu::MmaFragmentOffset>> matrices =
            ldmatrixRows(role, values, tile)) {
      // Lanes 8i..8i+7 name the rows of matrix i (the lanes past the last
      // matrix repeat the first ones').
      int64_t count = matrices->size();
      Value matrix = arith::RemUIOp::create(
          b, arith::DivUIOp::create(b, lane, math.constant(8)), math.constant(count));
      Value rowOffset = math.constant(matrices->front().rowOffset);
      Value columnOffset = math.constant(matrices->front().columnOffset);
      for (int64_t i = 1; i < count; ++i) {
        Value isMatrix =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, matrix, math.constant(i));
        rowOffset = arith::SelectOp::create(b, isMatrix, math.constant((*matrices)[i].rowOffset),
                                            rowOffset);
        columnOffset = arith::SelectOp::create(
            b, isMatrix, math.constant((*matrices)[i].columnOffset), columnOffset);
      }
      // The lane's row of its matrix: a free row (or, transposed, a K
      // row) of the tile.
      Value laneRow = arith::RemUIOp::create(b, lane, math.constant(8));
      Value row = math.add(rowBase, math.add(laneRow, rowOffset));
      Value column = math.add(math.constant(k0), columnOffset);
      if (transposed) {
        row = math.add(math.constant(k0), math.add(laneRow, columnOffset));
        column = math.add(rowBase, rowOffset);
      }
      return xla_gpu::LdmatrixOp::create(b, fragmentType, shared, ValueRange{row, column},
                                         count, transposed)
          .getResult();
    }
    SmallVector<Value> elements;
    for (int64_t v = 0; v < values; ++v) {
      auto offset = xla_gpu::mmaFragmentOffset(mma, role, v);
      Value row = math.add(rowBase, math.add(group, math.constant(offset.rowOffset)));
      Value column =
          math.add(math.mul(inGroup, offset.perRegister), math.constant(k0 + offset.columnOffset));
      elements.push_back(tensor::ExtractOp::create(
          b, shared, transposed ? ValueRange{column, row} : ValueRange{row, column}));
    }
    return vector::FromElementsOp::create(b, fragmentType, elements).getResult();
  };
  auto mmaSync = [&](Value a, Value bValue, Value c) -> Value {
    return xla_gpu::MmaSyncOp::create(
               b, accumulatorType, a, bValue, c, b.getDenseI64ArrayAttr({mma.m, mma.n, mma.k}),
               mma.input == xla_gpu::MmaInput::TF32 ? b.getUnitAttr() : UnitAttr())
        .getD();
  };
  auto multiply = [&](Value a, Value bValue, Value c) -> Value {
    if (gemm.input != GemmInput::TF32x3)
      return mmaSync(a, bValue, c);
    // a * b ~ aBig * bBig + aBig * bSmall + aSmall * bBig, the small
    // products first.
    auto [aBig, aSmall] = splitTf32(b, a);
    auto [bBig, bSmall] = splitTf32(b, bValue);
    Value sum = mmaSync(aSmall, bBig, c);
    sum = mmaSync(aBig, bSmall, sum);
    return mmaSync(aBig, bBig, sum);
  };

  // wgmma kept in flight across K steps: with three or more stages, one
  // buffer pair is read by the product in flight while the others load.
  bool asyncWgmma = warpgroups && stages >= 3;
  // Multiplies the K tile in `tileA` and `tileB` into the accumulators
  // `results[0..accumulatorCount)`.
  auto multiplyTiles = [&](Value tileA, Value tileB, SmallVector<Value> &results) -> llvm::Error {
    if (warpgroups) {
      // In flight (a pipeline of 3 or more stages): the product is
      // committed as a group, and the wait retires the previous step's,
      // leaving this one in flight while the next tiles load.
      results[0] = xla_gpu::WgmmaOp::create(
          b, accumulatorType, tileA, arith::DivUIOp::create(b, groupRow, math.constant(8)), tileB,
          arith::DivUIOp::create(b, groupColumn, math.constant(8)), results[0],
          staging[0].swizzleBytes, asyncWgmma,
          staging[1].layout == TileLayout::SwizzledColumns,
          staging[0].layout == TileLayout::SwizzledColumns);
      if (asyncWgmma)
        results[0] = xla_gpu::WgmmaWaitOp::create(b, results[0], 1);
      return llvm::Error::success();
    }
    for (int64_t kk = 0; kk < t.blockK; kk += mma.k) {
      if (t.warpGrid) {
        // Each fragment once, for every tile of its row or column.
        SmallVector<Value> aFragments, bFragments;
        for (Value rowBase : rowSlots)
          aFragments.push_back(loadFragment(0, tileA, rowBase, kk));
        for (Value columnBase : columnSlots)
          bFragments.push_back(loadFragment(1, tileB, columnBase, kk));
        for (auto [j, warpTile] : llvm::enumerate(warpTiles))
          results[j] = multiply(aFragments[warpTile.rowSlot], bFragments[warpTile.columnSlot],
                                results[j]);
        continue;
      }
      for (auto [j, warpTile] : llvm::enumerate(warpTiles)) {
        BodyValues stepped =
            emitIf(b, warpTile.valid, {results[j]}, [&](ImplicitLocOpBuilder &) -> BodyValues {
              Value a = loadFragment(0, tileA, rowSlots[warpTile.rowSlot], kk);
              Value bFragment = loadFragment(1, tileB, columnSlots[warpTile.columnSlot], kk);
              return SmallVector<Value>{multiply(a, bFragment, results[j])};
            });
        if (!stepped)
          return stepped.takeError();
        results[j] = stepped->front();
      }
    }
    return llvm::Error::success();
  };

  // The shared tiles: A's and B's of each stage, tiles[2 s + operand].
  // Swizzled tiles start where their swizzle pattern does (8 rows).
  auto alignment = [&](int operand) {
    int64_t bytes = staging[operand].swizzleBytes;
    return bytes ? b.getI64IntegerAttr(8 * bytes) : IntegerAttr();
  };
  SmallVector<Value> tiles;
  for (int64_t s = 0; s < stages; ++s)
    for (int operand : {0, 1})
      tiles.push_back(
          xla_gpu::AllocateSharedOp::create(b, sharedType(operand), alignment(operand)));
  // The epilogue's buffers (GemmTmaStore.cpp), after the stages: the
  // consumers carry them after the tiles and barriers.
  Value epilogueBuffers;
  if (epilogueByTma)
    epilogueBuffers = xla_gpu::AllocateSharedOp::create(b, epilogueTileType(mlirContext),
                                                        b.getI64IntegerAttr(1024));
  // TMA loads: one mbarrier a stage (the last of `tiles` from here on),
  // initialized by thread 0 with one arrival a phase (its expect_tx), and
  // seen by every thread after the barrier that follows.
  bool tma = staging[0].tma || staging[1].tma;
  // With warp specialization, a second array: each stage's empty barrier,
  // one arrival a phase from every consumer warp.
  int64_t fullBarriers = 2 * stages, emptyBarriers = fullBarriers + 1;
  Value isProducer = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, thread, math.constant(0));
  if (tma) {
    SmallVector<Value> barriers;
    SmallVector<int64_t> arrivals = {1};
    // (In a cluster, the consumer warps of every block of it: each
    // block's producer multicasts into all of them.)
    if (warpSpecialization)
      arrivals.push_back(tiling.warps * clusterBlocks());
    for (size_t i = 0; i < arrivals.size(); ++i)
      barriers.push_back(xla_gpu::AllocateSharedOp::create(
          b, RankedTensorType::get({stages}, b.getI64Type()), b.getI64IntegerAttr(8)));
    BodyValues initialized =
        emitIf(b, isProducer, barriers, [&](ImplicitLocOpBuilder &) -> BodyValues {
          SmallVector<Value> updated = barriers;
          for (auto [array, count] : llvm::zip(updated, arrivals))
            for (int64_t s = 0; s < stages; ++s)
              array = xla_gpu::MbarrierInitOp::create(b, array.getType(), array,
                                                      math.constant(s),
                                                      b.getI64IntegerAttr(count))
                          .getResult();
          return updated;
        });
    if (!initialized)
      return initialized.takeError();
    llvm::append_range(tiles, *initialized);
  }
  // Copies K tile `kTile` into stage `s`'s tiles: the block's threads copy
  // the operands without TMA, thread 0 issues the TMA loads.
  auto stageTiles = [&](SmallVector<Value> &current, int64_t s, Value kTile) -> llvm::Error {
    Value k0 = math.mul(kTile, t.blockK);
    for (int operand : {0, 1}) {
      if (staging[operand].tma)
        continue;
      llvm::Expected<Value> staged =
          stageOperand(context, position, operand, current[2 * s + operand], k0);
      if (!staged)
        return staged.takeError();
      current[2 * s + operand] = *staged;
    }
    if (!tma)
      return llvm::Error::success();
    SmallVector<Value> updated = {current[2 * s], current[2 * s + 1], current[fullBarriers]};
    BodyValues issued = emitIf(b, isProducer, updated, [&](ImplicitLocOpBuilder &) -> BodyValues {
      return issueTmaLoads(b, context, position, updated, s, k0);
    });
    if (!issued)
      return issued.takeError();
    current[2 * s] = (*issued)[0];
    current[2 * s + 1] = (*issued)[1];
    current[fullBarriers] = (*issued)[2];
    return llvm::Error::success();
  };
  // Waits for stage `s`'s TMA loads of the phase of parity `parity`.
  auto waitForLoads = [&](SmallVector<Value> &current, int64_t s, Value parity) {
    if (!tma)
      return;
    if (plantedBug == "tma-wrong-parity")
      parity = arith::XOrIOp::create(b, parity, math.constant(1));
    auto wait = xla_gpu::MbarrierWaitOp::create(b, current[fullBarriers], math.constant(s), parity,
                                                ValueRange{current[2 * s], current[2 * s + 1]});
    current[2 * s] = wait.getResult(0);
    current[2 * s + 1] = wait.getResult(1);
  };
  // A consumer warp's release of stage `stage` on its empty barrier, by
  // its first lane once the warp's wgmma.wait_group retired the product
  // that read the stage (a warpgroup's wait completes for all its lanes
  // at once); in a cluster, on every block's barrier (each one's producer
  // multicasts into this block's stage). The barriers, updated.
  Value firstLane = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, math.constant(0));
  auto releaseStage = [&](Value empty, Value stage) -> BodyValues {
    return emitIf(b, firstLane, {empty}, [&](ImplicitLocOpBuilder &) -> BodyValues {
      Value released = xla_gpu::MbarrierArriveOp::create(b, empty.getType(), empty, stage,
                                                         Value(), b.getI64IntegerAttr(0))
                           .getResult();
      if (clusterBlocks() > 1 && plantedBug != "cluster-no-peer-release") {
        Value peer = arith::XOrIOp::create(b, position.clusterRank, math.constant(1));
        released = xla_gpu::MbarrierArriveOp::create(b, empty.getType(), released, stage, peer,
                                                     b.getI64IntegerAttr(0))
                       .getResult();
      }
      return SmallVector<Value>{released};
    });
  };
  // The tiles through a barrier, an async commit or an async wait.
  auto barrier = [&](SmallVector<Value> &current) {
    current = SmallVector<Value>(xla_gpu::SyncThreadsOp::create(b, current).getResults());
  };
  auto commit = [&](SmallVector<Value> &current) {
    current = SmallVector<Value>(xla_gpu::AsyncCommitOp::create(b, current).getResults());
  };
  auto wait = [&](SmallVector<Value> &current, int64_t pending) {
    current = SmallVector<Value>(xla_gpu::AsyncWaitOp::create(b, current, pending).getResults());
  };

  // The K loop. One stage: copy a K tile of each operand into shared
  // memory, wait for the block, multiply out of shared memory, wait again
  // before the next tile overwrites it. S stages (async copies): before
  // the loop, the copies of tiles 0 to S - 2 are issued; step i issues
  // tile i + S - 1's into the buffers step i - 1 read, waits for its own
  // tile's copies (all but the last S - 1 groups) and the block, and
  // multiplies; the loop runs S steps a round, unrolled, so that each
  // step's buffers are fixed.
  llvm::Error failure = llvm::Error::success();
  int64_t kTiles = llvm::divideCeil(gemm.k, t.blockK);
  // In-flight wgmma (S >= 3 stages): tiles 0 to S - 3 are issued before
  // the loop; step i waits for its own tile's copies (all but S - 3
  // groups) and the block -- which also means every warpgroup has retired
  // the product of step i - 2 -- issues tile i + S - 2's copies into the
  // buffers that product read, and multiplies in flight, retiring step
  // i - 1's. One barrier a step. Steps past K multiply the zeros their
  // copies wrote, so that no step is conditional (an in-flight
  // accumulator must not pass through a branch).
  //
  // Warp-specialized (both operands by TMA): the producer warpgroup loads
  // every tile (emitTmaProducer), the consumers' step i waits for its
  // tile's full barrier, multiplies in flight, retiring step i - 1's
  // product, and releases step i - 1's stage on its empty barrier. No
  // barrier of the whole block in the loop.
  int64_t ahead = warpSpecialization ? 0 : asyncWgmma ? stages - 2 : stages - 1;
  int64_t rounds = llvm::divideCeil(kTiles, stages);
  // The mbarriers initialized; in a cluster, every block's, before any
  // block's producer multicasts into them or its consumers arrive there.
  if (tma && clusterBlocks() > 1 && plantedBug != "cluster-no-init-sync")
    tiles = SmallVector<Value>(
        xla_gpu::SyncThreadsOp::create(b, tiles, /*cluster=*/true).getResults());
  else if (tma)
    barrier(tiles);
  if (warpSpecialization) {
    Value consumerThreads = math.constant(warpSpecialization->consumerThreads);
    BodyValues produced = emitIf(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::uge, thread, consumerThreads), tiles,
        [&](ImplicitLocOpBuilder &) -> BodyValues {
          return emitTmaProducer(b, context, position, block, tiles, rounds);
        });
    if (!produced)
      return produced.takeError();
    tiles = std::move(*produced);
  }
  if (stages > 1) {
    for (int64_t s = 0; s < ahead; ++s) {
      if (llvm::Error error = stageTiles(tiles, s, math.constant(s)))
        return error;
      commit(tiles);
    }
  }
  // The K loop and the epilogue (the consumers' part, with warp
  // specialization): the output written.
  // `stagedTiles`: the tiles and barriers; `output`: the output so far.
  // Returns the output written, then the tiles and barriers.
  // (Persistent: the K rounds of the block's earlier tiles, which the
  // mbarriers' phases count on.)
  Value roundsBefore = math.constant(0);
  auto multiplyAndWrite = [&](SmallVector<Value> stagedTiles,
                              Value output) -> llvm::Expected<SmallVector<Value>> {
  SmallVector<Value> inits(accumulatorCount, zeros);
  llvm::append_range(inits, stagedTiles);
  auto loop = scf::ForOp::create(
      b, math.constant(0), math.constant(rounds), math.constant(1), inits,
      [&](OpBuilder &builder, Location, Value round, ValueRange iterArgs) {
        // The body is built with `b`, moved into the loop.
        b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
        SmallVector<Value> results(iterArgs.begin(), iterArgs.begin() + accumulatorCount);
        SmallVector<Value> current(iterArgs.begin() + accumulatorCount, iterArgs.end());
        auto body = [&]() -> llvm::Error {
          if (stages == 1) {
            if (llvm::Error error = stageTiles(current, 0, round))
              return error;
            barrier(current);
            if (llvm::Error error = multiplyTiles(current[0], current[1], results))
              return error;
            barrier(current);
            return llvm::Error::success();
          }
          if (warpSpecialization) {
            // The full barriers' phase: the rounds of this tile and before.
            Value parity = arith::AndIOp::create(b, math.add(roundsBefore, round), math.constant(1));
            for (int64_t step = 0; step < stages; ++step) {
              waitForLoads(current, step, parity);
              if (llvm::Error error =
                      multiplyTiles(current[2 * step], current[2 * step + 1], results))
                return error;
              // Step i - 1's product has retired: its stage is free (in
              // round 0, step 0 has no step before it).
              int64_t released = (step + stages - 1) % stages;
              Value afterFirst = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, round,
                                                       math.constant(0));
              if (plantedBug == "ws-early-release") {
                released = step; // the stage the product in flight reads
                afterFirst = yes;
              }
              auto release = [&]() -> BodyValues {
                return releaseStage(current[emptyBarriers], math.constant(released));
              };
              BodyValues arrived =
                  step == 0 ? emitIf(b, afterFirst, {current[emptyBarriers]},
                                     [&](ImplicitLocOpBuilder &) { return release(); })
                            : release();
              if (!arrived)
                return arrived.takeError();
              current[emptyBarriers] = arrived->front();
            }
            return llvm::Error::success();
          }
          if (asyncWgmma) {
            for (int64_t step = 0; step < stages; ++step) {
              Value kTile = math.add(math.mul(round, stages), math.constant(step));
              wait(current, ahead - 1);
              // Tile i is stage i % S's (i / S)-th load: its phase's
              // parity is the round's.
              waitForLoads(current, step,
                           arith::AndIOp::create(b, round, math.constant(1)).getResult());
              barrier(current);
              int64_t into = (step + ahead) % stages;
              if (plantedBug == "wgmma-copy-early")
                into = (into + 1) % stages; // the buffer the product in flight reads
              if (llvm::Error error =
                      stageTiles(current, into, math.add(kTile, math.constant(ahead))))
                return error;
              commit(current);
              if (llvm::Error error =
                      multiplyTiles(current[2 * step], current[2 * step + 1], results))
                return error;
            }
            return llvm::Error::success();
          }
          for (int64_t step = 0; step < stages; ++step) {
            Value kTile = math.add(math.mul(round, stages), math.constant(step));
            if (llvm::Error error = stageTiles(current, (step + stages - 1) % stages,
                                               math.add(kTile, math.constant(stages - 1))))
              return error;
            commit(current);
            wait(current, stages - 1);
            barrier(current);
            Value tileA = current[2 * step], tileB = current[2 * step + 1];
            if (kTiles % stages == 0) {
              if (llvm::Error error = multiplyTiles(tileA, tileB, results))
                return error;
            } else {
              // The last round's steps past K (uniform in the block).
              BodyValues stepped =
                  emitIf(b, math.less(kTile, kTiles), results, [&](ImplicitLocOpBuilder &) -> BodyValues {
                    SmallVector<Value> inner(results);
                    if (llvm::Error error = multiplyTiles(tileA, tileB, inner))
                      return BodyValues(std::move(error));
                    return inner;
                  });
              if (!stepped)
                return stepped.takeError();
              results = std::move(*stepped);
            }
            barrier(current);
          }
          return llvm::Error::success();
        };
        failure = body();
        llvm::append_range(results, current);
        scf::YieldOp::create(b, results);
      });
  if (failure)
    return std::move(failure);
  // A loop whatever its trip count: unrolled, its tile copies and barriers
  // would only lengthen the code and the registers' lives.
  loop->setAttr(xla_gpu::kKeepLoopAttr, b.getUnitAttr());
  b.setInsertionPointAfter(loop);
  if (stages > 1 && !warpSpecialization) {
    // The copies of the tiles past K are still in flight.
    SmallVector<Value> last(loop.getResults().begin() + accumulatorCount,
                            loop.getResults().end());
    wait(last, 0);
    // And the TMA loads of tiles rounds * S to rounds * S + ahead - 1
    // (stages 0 to ahead - 1, in the phase of the rounds' parity): a
    // block must not exit with loads in flight.
    for (int64_t s = 0; s < ahead && plantedBug != "tma-no-final-wait"; ++s)
      waitForLoads(last, s, math.constant(rounds & 1));
  }
  SmallVector<Value> accumulated(loop.getResults().begin(),
                                 loop.getResults().begin() + accumulatorCount);
  SmallVector<Value> finalTiles(loop.getResults().begin() + accumulatorCount,
                                loop.getResults().end());
  if (asyncWgmma)
    accumulated[0] = xla_gpu::WgmmaWaitOp::create(
        b, accumulated[0], plantedBug == "wgmma-no-final-wait" ? 1 : 0);
  // Every product retired: the last step's stage is free too (the next
  // tile's loads of a persistent block wait for it).
  if (warpSpecialization) {
    BodyValues released = releaseStage(finalTiles[emptyBarriers], math.constant(stages - 1));
    if (!released)
      return released.takeError();
    finalTiles[emptyBarriers] = released->front();
  }

  // The epilogue: each accumulator value inside the dot, converted to its
  // type, through the ops after the dot to the output.
  const HloInstruction *root = fused.root();
  const Subgraph *epilogue = context.partitioned.epilogueFor(gemm.dot, root);
  std::optional<IndexingMap> toRoot;
  if (gemm.epilogueChainTop != gemm.dot) {
    toRoot = heroToRootIndexing(gemm.dot, gemm.epilogueChainTop, mlirContext);
    if (!toRoot)
      return std::move(epilogueWithoutIndexing(gemm.dot, root));
  }
  Type dotElement = elementType(gemm.dot->shape().elementType(), mlirContext);
  SmallVector<int64_t> lhsFreeSizes, rhsFreeSizes;
  for (int64_t d : gemm.lhsFree)
    lhsFreeSizes.push_back(gemm.dot->operand(0)->shape().dimension(d));
  for (int64_t d : gemm.rhsFree)
    rhsFreeSizes.push_back(gemm.dot->operand(1)->shape().dimension(d));
  const Shape &outputShape = *fusionOutputs().front().shape;
  // Accumulator j's value v: its row and column in the block's tile, and
  // whether its mma tile exists (warp-uniform).
  auto accumulatorPosition = [&](int64_t j, int64_t v) -> std::tuple<Value, Value, Value> {
    if (warpgroups) {
      // The PTX ISA's wgmma D fragment: value 4i + r of the thread in
      // group g, place c of its warp w: row 16w + g + 8(r / 2), column
      // 8i + 2c + r % 2.
      int64_t i = v / 4, r = v % 4;
      Value row = math.add(math.add(groupRow, math.mul(warpInGroup, 16)), math.add(group, math.constant(8 * (r / 2))));
      Value column = math.add(groupColumn, math.add(math.mul(inGroup, 2), math.constant(8 * i + r % 2)));
      return {row, column, yes};
    }
    const WarpTile &warpTile = warpTiles[j];
    auto offset = xla_gpu::mmaFragmentOffset(mma, xla_gpu::MmaOperand::C, v);
    Value row = math.add(rowSlots[warpTile.rowSlot], math.add(group, math.constant(offset.rowOffset)));
    Value column = math.add(columnSlots[warpTile.columnSlot],
                       math.add(math.mul(inGroup, offset.perRegister), math.constant(offset.columnOffset)));
    return {row, column, warpTile.valid};
  };
  // Accumulator j's value v through the epilogue: its value (in the
  // output's type; zero outside), where it goes and whether it exists.
  struct EpilogueElement {
    Value value, inBounds;
    SmallVector<Value> rootIndex;
  };
  auto epilogueElement = [&](int64_t j, int64_t v) -> llvm::Expected<EpilogueElement> {
    // Inside this block's tile (an mma tile may reach past a tile
    // smaller than itself, into the next block's) and inside the dot.
    auto [localRow, localColumn, valid] = accumulatorPosition(j, v);
    Value row = math.add(blockRow, localRow), column = math.add(blockColumn, localColumn);
    Value inBounds = math.both(math.both(valid, blockHasTile),
                          math.both(math.less(localRow, t.blockM), math.less(localColumn, t.blockN)));
    inBounds = math.both(inBounds, math.both(math.less(row, gemm.m), math.less(column, gemm.n)));
    // [batch..., lhs free..., rhs free...].
    SmallVector<Value> heroIndex(batch.begin(), batch.end());
    llvm::append_range(heroIndex, delinearizeIndex(b, row, lhsFreeSizes));
    llvm::append_range(heroIndex, delinearizeIndex(b, column, rhsFreeSizes));
    SmallVector<Value> rootIndex = toRoot ? applyIndexing(b, *toRoot, heroIndex) : heroIndex;
    // The value under the condition (the epilogue may read parameters
    // there), the insert predicated: the output's chain of values has
    // no branches (bufferizing 64 branches a thread inside a persistent
    // block's tile loop took forever).
    Type outputElement = cast<RankedTensorType>(output.getType()).getElementType();
    Value placeholder = arith::ConstantOp::create(b, b.getZeroAttr(outputElement));
    BodyValues computed = emitIf(b, inBounds, {placeholder}, [&](ImplicitLocOpBuilder &nested) -> BodyValues {
      Value value = vector::ExtractOp::create(nested, accumulated[j], v);
      if (dotElement != accumulatorElement)
        value = dotElement.getIntOrFloatBitWidth() < accumulatorElement.getIntOrFloatBitWidth()
                    ? Value(arith::TruncFOp::create(nested, dotElement, value))
                    : Value(arith::ExtFOp::create(nested, dotElement, value));
      SmallVector<Value> values = context.elemental.callEpilogue(
          nested, *epilogue, context.parameters, rootIndex, value);
      return SmallVector<Value>{values.front()};
    });
    if (!computed)
      return computed.takeError();
    return EpilogueElement{computed->front(), inBounds, rootIndex};
  };
  if (epilogueByTma) {
    // Through shared memory, a warp's 16 rows at a time (GemmTmaStore.cpp).
    auto stored = storeWarpOutputWithTma(
        b, output, finalTiles.back(), warp, lane, blockHasTile, batch,
        math.add(blockRow, math.add(groupRow, math.mul(warpInGroup, 16))),
        math.add(blockColumn, groupColumn), [&](int64_t v) -> llvm::Expected<Value> {
          llvm::Expected<EpilogueElement> element = epilogueElement(0, v);
          if (!element)
            return element.takeError();
          return element->value;
        });
    if (!stored)
      return stored.takeError();
    output = stored->first;
    finalTiles.back() = stored->second;
  }
  for (int64_t j = 0; j < accumulatorCount && !epilogueByTma; ++j) {
    for (int64_t v = 0; v < accumulatorType.getNumElements(); ++v) {
      llvm::Expected<EpilogueElement> element = epilogueElement(j, v);
      if (!element)
        return element.takeError();
      auto insert = xla_gpu::PredicatedInsertOp::create(
          b, output.getType(), element->inBounds, element->value, output,
          bufferIndices(outputShape, element->rootIndex));
      insert->setAttr(xla_gpu::kKeepUntilBufferizationAttr, b.getUnitAttr());
      output = insert;
    }
  }
  SmallVector<Value> results = {output};
  llvm::append_range(results, finalTiles);
  return results;
  };
  if (!warpSpecialization) {
    llvm::Expected<SmallVector<Value>> written =
        multiplyAndWrite(tiles, context.outputs.front());
    if (!written)
      return written.takeError();
    func::ReturnOp::create(b, ValueRange{written->front()});
    return llvm::Error::success();
  }
  // The consumers, their registers raised first.
  BodyValues consumed = emitIf(
      b,
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread,
                            math.constant(warpSpecialization->consumerThreads)),
      {context.outputs.front()}, [&](ImplicitLocOpBuilder &) -> BodyValues {
        if (warpSpecialization->consumerRegisters)
          xla_gpu::SetMaxRegistersOp::create(b, warpSpecialization->consumerRegisters, true);
        SmallVector<Value> consumerTiles = tiles;
        if (epilogueByTma)
          consumerTiles.push_back(epilogueBuffers);
        if (!warpSpecialization->persistent) {
          llvm::Expected<SmallVector<Value>> written =
              multiplyAndWrite(consumerTiles, context.outputs.front());
          if (!written)
            return written.takeError();
          if (epilogueByTma)
            waitForTmaStores(b, lane);
          return SmallVector<Value>{written->front()};
        }
        // Persistent: the block's tiles (the producer takes the same), the
        // output, tiles and barriers carried from one to the next.
        SmallVector<Value> carried = {context.outputs.front()};
        llvm::append_range(carried, consumerTiles);
        llvm::Expected<SmallVector<Value>> written = emitBlockTileLoop(
            b, block, thread, carried, rounds,
            [&](const BlockPosition &tile, ValueRange current,
                Value earlierRounds) -> llvm::Expected<SmallVector<Value>> {
              position = tile;
              batch = position.batch;
              blockRow = position.row;
              blockColumn = position.column;
              blockHasTile = position.hasTile;
              roundsBefore = earlierRounds;
              return multiplyAndWrite(SmallVector<Value>(current.drop_front()),
                                      current.front());
            });
        if (!written)
          return written.takeError();
        if (epilogueByTma)
          waitForTmaStores(b, lane);
        return SmallVector<Value>{written->front()};
      });
  if (!consumed)
    return consumed.takeError();
  // No block of a cluster exits while another may still multicast into
  // its shared memory or arrive at its barriers.
  if (clusterBlocks() > 1 && plantedBug != "cluster-no-final-sync")
    xla_gpu::SyncThreadsOp::create(b, ValueRange(), /*cluster=*/true);
  func::ReturnOp::create(b, ValueRange{consumed->front()});
  return llvm::Error::success();
}

} // namespace hlo
