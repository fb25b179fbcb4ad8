//===- GemmTileScheduler.cpp - Which output tile a GEMM block computes ----===//
//
// The part of the GEMM emitter (GemmEmitterImpl.h) that maps a tile
// number to its place in the output: (batch, tile row, tile column) and
// whether it exists. One tile a block, in row-major order (splitGrid may
// launch a few blocks past the last); or, for persistent blocks (one an
// SM, each taking tile block, block + grid, ...), grouped eight tile rows
// at a time, column after column in a group, so that the blocks running
// at once share the rows of A and the columns of B they read (as
// Triton's GROUP_M ordering and CUTLASS's swizzled raster do for L2), and
// the loop over a persistent block's tiles that producer and consumers
// both run. In clusters of two, tile numbers 2j and 2j + 1 are vertically
// adjacent tiles (the same columns of B), which the cluster's two blocks
// (ranks 0 and 1) take at the same time: the tile rows are counted up to
// even (a tile past M is computed from zeros and its stores fall outside
// the output), and the order above applies to the pairs.
//
//===----------------------------------------------------------------------===//
#include "emitters/GemmEmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace hlo {
namespace {

/// Tile rows a persistent block's group spans.
constexpr int64_t kGroupRows = 8;

} // namespace

GemmEmitter::BlockPosition GemmEmitter::tilePosition(ImplicitLocOpBuilder &b, Value tile,
                                                     Value thread) const {
  const IndexMath math{b};
  const GemmTiling &t = tiling;
  int64_t cluster = clusterBlocks();
  int64_t tilesM = scheduledTilesM();
  int64_t perBatch = tilesM * t.tilesN;
  BlockPosition position;
  position.thread = thread;
  position.hasTile = math.less(tile, gemm.batchCount() * perBatch);
  SmallVector<int64_t> batchDims(gemm.batchSizes.begin(), gemm.batchSizes.end());
  Value inBatch = tile;
  if (!batchDims.empty()) {
    position.batch = delinearizeIndex(b, arith::DivUIOp::create(b, tile, math.constant(perBatch)),
                                      batchDims);
    inBatch = arith::RemUIOp::create(b, tile, math.constant(perBatch));
  }
  // A cluster's tiles: the cluster's row of tiles (in units of `cluster`
  // tile rows) and its column, then the block's tile row in it.
  if (cluster > 1) {
    // (The grid is whole clusters of consecutive blocks, and tile numbers
    // step by the grid: the tile's place in its pair is the block's rank.)
    position.clusterRank = arith::RemUIOp::create(b, inBatch, math.constant(cluster));
    inBatch = arith::DivUIOp::create(b, inBatch, math.constant(cluster));
  }
  int64_t rowsOfUnits = tilesM / cluster, groupRows = kGroupRows / cluster;
  Value tileRow, tileColumn;
  if (warpSpecialization && warpSpecialization->persistent && rowsOfUnits > groupRows) {
    // Group g holds unit rows g * groupRows on (fewer in the last), its
    // units column by column.
    int64_t perGroup = groupRows * t.tilesN;
    Value groupIndex = arith::DivUIOp::create(b, inBatch, math.constant(perGroup));
    Value firstRow = math.mul(groupIndex, groupRows);
    Value rows = arith::MinUIOp::create(
        b, arith::SubIOp::create(b, math.constant(rowsOfUnits), firstRow),
        math.constant(groupRows));
    Value within = arith::RemUIOp::create(b, inBatch, math.constant(perGroup));
    tileRow = math.add(firstRow, arith::RemUIOp::create(b, within, rows));
    tileColumn = arith::DivUIOp::create(b, within, rows);
  } else {
    SmallVector<Value> rowAndColumn = delinearizeIndex(b, inBatch, {rowsOfUnits, t.tilesN});
    tileRow = rowAndColumn[0];
    tileColumn = rowAndColumn[1];
  }
  // (A tile row past M, counted up to even, keeps hasTile: its stores
  // fall outside the output -- masked, or clipped by the TMA store -- and
  // its TMA stores keep the count of groups the epilogue's waits rely on.)
  if (cluster > 1)
    tileRow = math.add(math.mul(tileRow, cluster), position.clusterRank);
  position.row = math.mul(tileRow, t.blockM);
  position.column = math.mul(tileColumn, t.blockN);
  return position;
}

llvm::Expected<SmallVector<Value>> GemmEmitter::emitBlockTileLoop(
    ImplicitLocOpBuilder &b, Value block, Value thread, SmallVector<Value> values,
    int64_t rounds, const BlockTileBody &body) const {
  const IndexMath math{b};
  values.push_back(math.constant(0));
  llvm::Error failed = llvm::Error::success();
  auto loop = scf::ForOp::create(
      b, block, math.constant(gemm.batchCount() * scheduledTilesM() * tiling.tilesN),
      math.constant(launch.blocks[0]), values,
      [&](OpBuilder &builder, Location, Value tile, ValueRange iterArgs) {
        b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
        Value roundsDone = iterArgs.back();
        Value roundsBefore =
            plantedBug == "persistent-phase-reset" ? math.constant(0) : roundsDone;
        llvm::Expected<SmallVector<Value>> next =
            body(tilePosition(b, tile, thread), iterArgs.drop_back(), roundsBefore);
        SmallVector<Value> yielded(iterArgs);
        if (next) {
          llvm::copy(*next, yielded.begin());
          yielded.back() = math.add(roundsDone, math.constant(rounds));
        } else {
          failed = next.takeError();
        }
        scf::YieldOp::create(b, yielded);
      });
  if (failed)
    return std::move(failed);
  b.setInsertionPointAfter(loop);
  return SmallVector<Value>(loop.getResults().drop_back());
}

} // namespace hlo
