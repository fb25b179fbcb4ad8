//===- GemmTma.cpp - The GEMM emitter's TMA loads and their producer ------===//
//
// The part of the GEMM emitter (GemmEmitterImpl.h) that loads operands with
// TMA on Hopper: which operands can be, their boxes and tensor maps, the
// issue of one stage's loads on its full mbarrier, and the producer
// warpgroup of a warp-specialized kernel, which issues every stage's
// loads as the consumers release the stages (empty mbarriers). In
// clusters of two, each block's producer loads half of B's K tile (half
// its rows, or half its atoms) multicast into both blocks.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "emitters/GemmEmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace hlo {

bool GemmEmitter::canLoadWithTma(int operand) const {
  const HloInstruction *value = gemm.dot->operand(operand);
  const Staging &staged = staging[operand];
  if (!device.features.tma || !warpgroups || value->opcode() != HloOpcode::Parameter ||
      value->users().size() != 1 || gemm.input == GemmInput::TF32)
    return false;
  const Shape &shape = value->shape();
  const std::vector<int64_t> &contracting =
      operand == 0 ? gemm.lhsContracting : gemm.rhsContracting;
  const std::vector<int64_t> &free = operand == 0 ? gemm.lhsFree : gemm.rhsFree;
  const std::vector<int64_t> &batch = operand == 0 ? gemm.lhsBatch : gemm.rhsBatch;
  // One contracting, one free and at most one batch dimension (a box of
  // one along it).
  if (contracting.size() != 1 || free.size() != 1 || batch.size() > 1 ||
      shape.rank() != 2 + static_cast<int64_t>(batch.size()))
    return false;
  std::vector<int64_t> layout = shape.layoutOrDefault().minorToMajor;
  if (layout.size() != static_cast<size_t>(shape.rank()))
    return false;
  // The buffer's rows (its minor-most dimension) 16-byte aligned.
  if ((shape.dimension(layout.front()) * elementBytes) % 16 != 0)
    return false;
  // Rows of K (one box of the whole tile), or, M- or N-minor, rows of M
  // or N (one box an atom of the tile).
  if (staged.layout == TileLayout::SwizzledColumns)
    return layout.front() == free.front() && tiling.blockK <= 256;
  return layout.front() == contracting.front() && staged.layout == TileLayout::SwizzledRows &&
         staged.tileShape.front() == 1 && staged.rows <= 256;
}

bool GemmEmitter::canMulticastB() const {
  const Staging &staged = staging[1];
  if (!warpSpecialization || !staged.tma || tiling.tilesM < 2)
    return false;
  // Halves of whole swizzle patterns: 8 rows of a K-minor B's, or atoms.
  if (staged.layout == TileLayout::SwizzledColumns)
    return staged.tileShape.front() % 2 == 0;
  return staged.rows % 16 == 0;
}

SmallVector<GemmEmitter::TmaDimension> GemmEmitter::tmaDimensions(int operand) const {
  const std::vector<int64_t> &contracting =
      operand == 0 ? gemm.lhsContracting : gemm.rhsContracting;
  const std::vector<int64_t> &batch = operand == 0 ? gemm.lhsBatch : gemm.rhsBatch;
  SmallVector<TmaDimension> dimensions;
  for (int64_t d : gemm.dot->operand(operand)->shape().layoutOrDefault().minorToMajor)
    dimensions.push_back(d == contracting.front()       ? TmaDimension::Contracting
                         : llvm::is_contained(batch, d) ? TmaDimension::Batch
                                                        : TmaDimension::Free);
  return dimensions;
}

std::vector<int64_t> GemmEmitter::tmaBox(int operand) const {
  const Staging &staged = staging[operand];
  bool columns = staged.layout == TileLayout::SwizzledColumns;
  // A K-minor B shared by a cluster: each block loads half its rows.
  int64_t rows = operand == 1 && !columns ? staged.rows / clusterBlocks() : staged.rows;
  std::vector<int64_t> box;
  for (TmaDimension dimension : tmaDimensions(operand))
    box.push_back(dimension == TmaDimension::Batch ? 1
                  : dimension == TmaDimension::Contracting
                      ? (columns ? tiling.blockK : staged.tileShape.back())
                      : (columns ? staged.tileShape.back() : rows));
  return box;
}

std::vector<TensorMapParameter> GemmEmitter::tensorMapParameters() const {
  std::vector<TensorMapParameter> maps;
  for (int operand : {0, 1})
    if (staging[operand].tma)
      maps.push_back({gemm.dot->operand(operand)->parameterNumber(), tmaBox(operand),
                      staging[operand].swizzleBytes});
  // The output, for the epilogue's TMA stores (GemmTmaStore.cpp).
  if (epilogueByTma)
    maps.push_back(outputTensorMap());
  return maps;
}

SmallVector<Value> GemmEmitter::issueTmaLoads(ImplicitLocOpBuilder &b, EmitterContext &context,
                                              const BlockPosition &position,
                                              SmallVector<Value> values, int64_t stage,
                                              Value k0) const {
  const IndexMath math{b};
  int64_t bytes = 0;
  for (int operand : {0, 1})
    if (staging[operand].tma)
      bytes += tiling.blockK * staging[operand].rows * elementBytes;
  values[2] = xla_gpu::MbarrierArriveOp::create(b, values[2].getType(), values[2],
                                                math.constant(stage), Value(),
                                                b.getI64IntegerAttr(bytes))
                  .getResult();
  for (int operand : {0, 1}) {
    const Staging &staged = staging[operand];
    if (!staged.tma)
      continue;
    const HloInstruction *parameter = gemm.dot->operand(operand);
    Value rows = operand == 0 ? position.row : position.column;
    // Most minor first: (K, rows) for a K-minor operand, one box; (N, K)
    // for an N-minor B, one box an atom of the tile's columns.
    bool columns = staged.layout == TileLayout::SwizzledColumns;
    int64_t boxes = columns ? staged.tileShape.front() : 1;
    // B shared by a cluster of two: this block's half of its boxes (N-minor:
    // its atoms from rank * boxes / 2 on) or of its rows (K-minor), each
    // multicast into both blocks.
    int64_t cluster = operand == 1 ? clusterBlocks() : 1;
    int64_t ownBoxes = columns ? boxes / cluster : 1;
    Value firstBox = math.constant(0), firstRow = math.constant(0);
    if (cluster > 1 && columns)
      firstBox = math.mul(position.clusterRank, ownBoxes);
    if (cluster > 1 && !columns)
      firstRow = math.mul(position.clusterRank, staged.rows / cluster);
    for (int64_t own = 0; own < ownBoxes; ++own) {
      Value atom = math.add(firstBox, math.constant(own));
      // In the layout's order (most minor first): the K tile's first
      // column, its rows' (the atom's) first and the block's batch.
      SmallVector<Value> coordinates;
      for (TmaDimension dimension : tmaDimensions(operand))
        coordinates.push_back(
            dimension == TmaDimension::Contracting ? k0
            : dimension == TmaDimension::Batch     ? position.batch.front()
            : columns ? math.add(rows, math.mul(atom, staged.tileShape.back()))
                      : math.add(rows, firstRow));
      SmallVector<Value> at;
      if (columns)
        at = {atom, math.constant(0), math.constant(0)};
      else if (cluster > 1)
        at = {math.constant(0), firstRow, math.constant(0)};
      values[operand] =
          xla_gpu::TmaLoadOp::create(b, values[operand].getType(),
                                     context.parameters[parameter->parameterNumber()],
                                     coordinates, values[operand], at, values[2],
                                     math.constant(stage),
                                     b.getDenseI64ArrayAttr(tmaBox(operand)),
                                     b.getI64IntegerAttr(staged.swizzleBytes),
                                     b.getI64IntegerAttr(cluster > 1 ? (1 << cluster) - 1 : 0))
              .getResult();
    }
  }
  return values;
}

llvm::Expected<SmallVector<Value>>
GemmEmitter::emitTmaProducer(ImplicitLocOpBuilder &b, EmitterContext &context,
                             const BlockPosition &position, Value block,
                             SmallVector<Value> tiles, int64_t rounds) const {
  const IndexMath math{b};
  const WarpSpecialization &specialization = *warpSpecialization;
  if (specialization.producerRegisters)
    xla_gpu::SetMaxRegistersOp::create(b, specialization.producerRegisters, false);
  int64_t full = 2 * stages, empty = full + 1;
  // One output tile's K tiles, at `tile`, after `roundsBefore` rounds of
  // the block's earlier tiles.
  auto loadTile = [&](SmallVector<Value> current, const BlockPosition &tile,
                      Value roundsBefore) -> SmallVector<Value> {
    auto loop = scf::ForOp::create(
        b, math.constant(0), math.constant(rounds), math.constant(1), current,
        [&](OpBuilder &builder, Location, Value round, ValueRange iterArgs) {
          b.setInsertionPoint(builder.getInsertionBlock(), builder.getInsertionPoint());
          SmallVector<Value> stage(iterArgs);
          // Stage s's previous tile (the round before's) was released in
          // its empty barrier's phase of that round: parity (r & 1) ^ 1 for
          // the r-th round of the block. In its first round that is the
          // phase before the first, complete already.
          Value parity = arith::XOrIOp::create(
              b,
              arith::AndIOp::create(b, math.add(roundsBefore, round), math.constant(1)),
              math.constant(1));
          for (int64_t s = 0; s < stages; ++s) {
            if (plantedBug != "ws-no-empty-wait") {
              auto wait = xla_gpu::MbarrierWaitOp::create(
                  b, stage[empty], math.constant(s), parity,
                  ValueRange{stage[2 * s], stage[2 * s + 1]});
              stage[2 * s] = wait.getResult(0);
              stage[2 * s + 1] = wait.getResult(1);
            }
            Value k0 = math.mul(math.add(math.mul(round, stages), math.constant(s)), tiling.blockK);
            SmallVector<Value> issued = issueTmaLoads(
                b, context, tile, {stage[2 * s], stage[2 * s + 1], stage[full]}, s, k0);
            stage[2 * s] = issued[0];
            stage[2 * s + 1] = issued[1];
            stage[full] = issued[2];
          }
          scf::YieldOp::create(b, stage);
        });
    loop->setAttr(xla_gpu::kKeepLoopAttr, b.getUnitAttr());
    b.setInsertionPointAfter(loop);
    return SmallVector<Value>(loop.getResults());
  };
  // The warpgroup's first thread issues; the others have nothing to do.
  Value issuer = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, position.thread,
                                       math.constant(specialization.consumerThreads));
  return emitIf(b, issuer, tiles, [&](ImplicitLocOpBuilder &) -> BodyValues {
    if (!specialization.persistent)
      return loadTile(tiles, position, math.constant(0));
    // Persistent: the block's tiles, as the consumers take them.
    return emitBlockTileLoop(
        b, block, position.thread, tiles, rounds,
        [&](const BlockPosition &tile, ValueRange current,
            Value roundsBefore) -> llvm::Expected<SmallVector<Value>> {
          return loadTile(SmallVector<Value>(current), tile, roundsBefore);
        });
  });
}

} // namespace hlo
