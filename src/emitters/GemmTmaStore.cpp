//===- GemmTmaStore.cpp - A GEMM's output through shared memory -----------===//
//
// The part of the GEMM emitter (GemmEmitterImpl.h) that writes a
// warp-specialized kernel's output as Hopper's GEMMs do: the consumers
// apply the epilogue in registers, each warp puts a 16-row by 64-column
// chunk of its slab into a swizzled shared buffer with stmatrix, and its
// first lane moves the chunk to the output ([M, N] or [batch, M, N]) with
// one TMA store, which clips it at the output's edges. Each warp has two
// buffers, so that the next chunk's stmatrix overlaps the last chunk's
// store; a buffer is written again only after a wait has seen its store
// read it.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "emitters/GemmEmitterImpl.h"
#include "emitters/TypeConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace hlo {

namespace {
/// A chunk: the TMA box of one warp, 16 rows (a warp's share of a
/// warpgroup's 64) by 64 16-bit columns (one 128-byte swizzled row).
constexpr int64_t kChunkRows = 16, kChunkColumns = 64, kChunkSwizzle = 128;
/// The buffers of a warp.
constexpr int64_t kBuffersPerWarp = 2;

/// `tma_store_wait {pending, read}` where `first` (a warp's first lane,
/// the one that issues its stores).
void waitOnFirstLane(ImplicitLocOpBuilder &b, Value first, int64_t pending, bool read) {
  scf::IfOp::create(b, first, [&](OpBuilder &builder, Location location) {
    xla_gpu::TmaStoreWaitOp::create(builder, location, builder.getI64IntegerAttr(pending),
                                    read ? builder.getUnitAttr() : UnitAttr());
    scf::YieldOp::create(builder, location);
  });
}

} // namespace

bool GemmEmitter::canStoreWithTma() const {
  if (!warpSpecialization || !warpgroups || warpgroups->width % kChunkColumns != 0 ||
      warpgroups->width * warpgroups->groupsN != tiling.blockN ||
      warpgroups->groupsM * 64 != tiling.blockM)
    return false;
  // The dot's own [M, N] indices (converts on the way at most), one
  // output.
  for (const HloInstruction *link = gemm.epilogueChainTop; link != gemm.dot;
       link = link->operand(0))
    if (link->opcode() != HloOpcode::Convert)
      return false;
  // [M, N] or [batch, M, N], row-major (a box of one along the batch).
  int64_t rank = gemm.dot->shape().rank();
  if (fusionOutputs().size() != 1 || gemm.batchSizes.size() > 1 ||
      rank != 2 + static_cast<int64_t>(gemm.batchSizes.size()))
    return false;
  const Shape &shape = *fusionOutputs().front().shape;
  std::vector<int64_t> rowMajor = rank == 2 ? std::vector<int64_t>{1, 0}
                                            : std::vector<int64_t>{2, 1, 0};
  if (shape.rank() != rank || shape.dimension(rank - 2) != gemm.m ||
      shape.dimension(rank - 1) != gemm.n || shape.layoutOrDefault().minorToMajor != rowMajor ||
      (rank == 3 && shape.dimension(0) != gemm.batchSizes.front()))
    return false;
  // 16-bit elements (stmatrix's), rows of whole 16 bytes (a tensor map's
  // strides).
  return (shape.elementType() == PrimitiveType::BF16 ||
          shape.elementType() == PrimitiveType::F16) &&
         gemm.n % 8 == 0;
}

RankedTensorType GemmEmitter::epilogueTileType(MLIRContext *context) const {
  Type element = elementType(fusionOutputs().front().shape->elementType(), context);
  return RankedTensorType::get({kBuffersPerWarp * tiling.warps, kChunkRows, kChunkColumns},
                               element);
}

std::vector<int64_t> GemmEmitter::epilogueBox() const {
  std::vector<int64_t> box = {kChunkColumns, kChunkRows};
  if (!gemm.batchSizes.empty())
    box.push_back(1);
  return box;
}

int64_t GemmEmitter::epilogueTileBytes() const {
  return kBuffersPerWarp * tiling.warps * kChunkRows * kChunkColumns * 2;
}

llvm::Expected<std::pair<Value, Value>> GemmEmitter::storeWarpOutputWithTma(
    ImplicitLocOpBuilder &b, Value output, Value buffers, Value warp, Value lane, Value hasTile,
    ValueRange batch, Value row, Value column,
    const std::function<llvm::Expected<Value>(int64_t)> &value) const {
  const IndexMath math{b};
  auto tileType = cast<RankedTensorType>(buffers.getType());
  int64_t chunks = warpgroups->width / kChunkColumns;
  Value first = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, math.constant(0));
  Value issuer = math.both(first, hasTile);
  // Before a buffer is written again, its last store must have read it:
  // with an even number of chunks a tile, that store is the one before
  // last (the warp's stores alternate buffers across tiles too); with an
  // odd number, it may be the last.
  int64_t pending = chunks % 2 == 0 ? 1 : 0;
  if (plantedBug == "tma-store-early-reuse")
    pending = 2;
  // Lane l names row l % 8 of matrix l / 8 of a stmatrix.x4: the chunk's
  // rows 8 (m % 2) + l % 8, columns 8 (2p + m / 2) onwards for pair p.
  Value laneMatrix = arith::DivUIOp::create(b, lane, math.constant(8));
  Value laneRow = arith::RemUIOp::create(b, lane, math.constant(8));
  Value chunkRow =
      math.add(math.mul(arith::RemUIOp::create(b, laneMatrix, math.constant(2)), 8), laneRow);
  Value matrixColumn = arith::DivUIOp::create(b, laneMatrix, math.constant(2));
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    Value buffer = math.add(math.mul(warp, kBuffersPerWarp), math.constant(chunk % 2));
    waitOnFirstLane(b, first, pending, /*read=*/true);
    // Four stmatrix.x4 a chunk, each of eight consecutive accumulator
    // values: the wgmma D fragment's columns 8i to 8i + 15 (i = 8 chunk +
    // 2p), rows g and g + 8 of the warp's 16, as the four 8 x 8 matrices
    // (i, top), (i, bottom), (i + 1, top), (i + 1, bottom).
    for (int64_t pair = 0; pair < kChunkColumns / 16; ++pair) {
      SmallVector<Value> values;
      for (int64_t e = 0; e < 8; ++e) {
        llvm::Expected<Value> element = value(4 * (8 * chunk + 2 * pair) + e);
        if (!element)
          return element.takeError();
        values.push_back(*element);
      }
      Value packed = vector::FromElementsOp::create(
          b, VectorType::get({8}, tileType.getElementType()), values);
      // The row's 16-byte chunk, XORed with the row's line in the
      // 128-byte swizzle (the buffer starts at a multiple of 1024 bytes).
      Value group = math.add(matrixColumn, math.constant(2 * pair));
      Value swizzled = arith::XOrIOp::create(b, group, laneRow);
      buffers = xla_gpu::StmatrixOp::create(b, tileType, packed, buffers,
                                            ValueRange{buffer, chunkRow, math.mul(swizzled, 8)},
                                            4)
                    .getResult();
    }
    Value zero = math.constant(0);
    // Most minor first: the chunk's first column, its first row, the
    // block's batch.
    SmallVector<Value> coordinates = {math.add(column, math.constant(chunk * kChunkColumns)),
                                      row};
    llvm::append_range(coordinates, batch);
    BodyValues stored =
        emitIf(b, issuer, {output}, [&](ImplicitLocOpBuilder &nested) -> BodyValues {
          return SmallVector<Value>{
              xla_gpu::TmaStoreOp::create(nested, output.getType(), buffers,
                                          ValueRange{buffer, zero, zero}, output, coordinates,
                                          nested.getDenseI64ArrayAttr(epilogueBox()),
                                          nested.getI64IntegerAttr(kChunkSwizzle))
                  .getResult()};
        });
    if (!stored)
      return stored.takeError();
    output = stored->front();
  }
  return std::make_pair(output, buffers);
}

void GemmEmitter::waitForTmaStores(ImplicitLocOpBuilder &b, Value lane) const {
  if (plantedBug == "tma-store-no-final-wait")
    return;
  const IndexMath math{b};
  waitOnFirstLane(b, arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, math.constant(0)),
                  0, /*read=*/false);
}

TensorMapParameter GemmEmitter::outputTensorMap() const {
  // The kernel's parameter after the inputs.
  return {fused.parameterCount(), epilogueBox(), kChunkSwizzle};
}

} // namespace hlo
