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
// both run.
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
  int64_t perBatch = t.tilesM * t.tilesN;
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
  Value tileRow, tileColumn;
  if (warpSpecialization && warpSpecialization->persistent && t.tilesM > kGroupRows) {
    // Group g holds tile rows 8g to 8g + 7 (fewer in the last), its tiles
    // column by column.
    int64_t perGroup = kGroupRows * t.tilesN;
    Value groupIndex = arith::DivUIOp::create(b, inBatch, math.constant(perGroup));
    Value firstRow = math.mul(groupIndex, kGroupRows);
    Value rows = arith::MinUIOp::create(
        b, arith::SubIOp::create(b, math.constant(t.tilesM), firstRow),
        math.constant(kGroupRows));
    Value within = arith::RemUIOp::create(b, inBatch, math.constant(perGroup));
    tileRow = math.add(firstRow, arith::RemUIOp::create(b, within, rows));
    tileColumn = arith::DivUIOp::create(b, within, rows);
  } else {
    SmallVector<Value> rowAndColumn = delinearizeIndex(b, inBatch, {t.tilesM, t.tilesN});
    tileRow = rowAndColumn[0];
    tileColumn = rowAndColumn[1];
  }
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
      b, block, math.constant(gemm.batchCount() * tiling.tilesM * tiling.tilesN),
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
