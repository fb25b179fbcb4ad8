//===- TmaPipelineOps.cpp - mbarrier and TMA ops of xla_gpu ---------------===//
//
// Owns the verifiers and syntax of the ops of Hopper's asynchronous copy
// pipeline (XlaGpuOps.td): mbarrier_init, mbarrier_arrive, mbarrier_wait,
// tma_load, set_max_registers (the register split of the warpgroups on
// either side of such a pipeline), and the epilogue's way out: stmatrix,
// tma_store and tma_store_wait.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;

namespace hlo::xla_gpu {
namespace {

/// A barrier array: one-dimensional, of i64.
LogicalResult verifyBarriers(Operation *op, Value barriers) {
  auto type = cast<ShapedType>(barriers.getType());
  if (type.getRank() != 1 || !type.getElementType().isInteger(64))
    return op->emitOpError("expects a one-dimensional array of i64 mbarriers, not ")
           << barriers.getType();
  return success();
}

/// An op that updates `updated` in place: its new value on tensors, no
/// result on buffers.
LogicalResult verifyUpdate(Operation *op, Value updated, Value result) {
  bool tensors = isa<TensorType>(updated.getType());
  if (tensors != static_cast<bool>(result) || (result && result.getType() != updated.getType()))
    return op->emitOpError("returns the updated value on tensors, nothing on buffers");
  return success();
}

} // namespace

LogicalResult MbarrierInitOp::verify() {
  if (getCount() < 1 || getCount() >= (int64_t(1) << 20))
    return emitOpError("expects 1 to 2^20 - 1 arrivals a phase, not ") << getCount();
  if (failed(verifyBarriers(*this, getBarriers())))
    return failure();
  return verifyUpdate(*this, getBarriers(), getResult());
}

LogicalResult MbarrierArriveOp::verify() {
  if (getTransactionBytes() < 0 || getTransactionBytes() >= (int64_t(1) << 20))
    return emitOpError("expects 0 to 2^20 - 1 transaction bytes, not ")
           << getTransactionBytes();
  if (getInBlock() && getTransactionBytes() != 0)
    return emitOpError("expects no transaction bytes at another block's barrier");
  if (failed(verifyBarriers(*this, getBarriers())))
    return failure();
  return verifyUpdate(*this, getBarriers(), getResult());
}

/// `%barriers[%index], %parity (, %tiles)* {attributes} : barrier type (,
/// tile types)*`.
ParseResult MbarrierWaitOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand barriers, index, parity;
  SmallVector<OpAsmParser::UnresolvedOperand> tiles;
  Type barrierType;
  SmallVector<Type> tileTypes;
  if (parser.parseOperand(barriers) || parser.parseLSquare() || parser.parseOperand(index) ||
      parser.parseRSquare() || parser.parseComma() || parser.parseOperand(parity))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    if (parser.parseOperand(tiles.emplace_back()))
      return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(barrierType))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    if (parser.parseType(tileTypes.emplace_back()))
      return failure();
  }
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.resolveOperand(barriers, barrierType, result.operands) ||
      parser.resolveOperand(index, indexType, result.operands) ||
      parser.resolveOperand(parity, indexType, result.operands) ||
      parser.resolveOperands(tiles, tileTypes, parser.getCurrentLocation(), result.operands))
    return failure();
  result.addTypes(tileTypes);
  return success();
}

void MbarrierWaitOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getBarriers() << '[' << getIndex() << "], " << getParity();
  for (Value tile : getTiles())
    printer << ", " << tile;
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : " << getBarriers().getType();
  for (Type type : getTiles().getTypes())
    printer << ", " << type;
}

LogicalResult MbarrierWaitOp::verify() {
  if (failed(verifyBarriers(*this, getBarriers())))
    return failure();
  if (getTiles().getTypes() != getResultTypes())
    return emitOpError("returns its tiles, of their types");
  return success();
}

int64_t TmaLoadOp::getBoxBytes() {
  auto tile = cast<ShapedType>(getTile().getType());
  int64_t bytes = tile.getElementTypeBitWidth() / 8;
  for (int64_t size : getBox())
    bytes *= size;
  return bytes;
}

namespace {

/// A TMA box between `global` (a kernel buffer passed as a tensor map) and
/// `tile` (from `tileIndices` on, if any): a box and coordinates of the
/// buffer's rank (1 to 5), extents of 1 to 256, a tile of the box's
/// elements (at least, given indices), one element type, and rows of a
/// multiple of 16 bytes (the swizzle's bytes where it swizzles).
LogicalResult verifyTmaBox(Operation *op, Value global, ValueRange coordinates, Value tile,
                           ValueRange tileIndices, ArrayRef<int64_t> box, int64_t swizzle) {
  auto globalType = cast<ShapedType>(global.getType());
  auto tileType = cast<ShapedType>(tile.getType());
  if (box.empty() || box.size() > 5 || box.size() != coordinates.size() ||
      static_cast<int64_t>(box.size()) != globalType.getRank())
    return op->emitOpError("expects a box and coordinates of the global buffer's rank (1 to 5)");
  int64_t elements = 1;
  for (int64_t size : box) {
    if (size < 1 || size > 256)
      return op->emitOpError("expects box extents of 1 to 256, not ") << size;
    elements *= size;
  }
  if (!tileIndices.empty()) {
    if (static_cast<int64_t>(tileIndices.size()) != tileType.getRank())
      return op->emitOpError("expects no tile indices or one per dimension of the tile");
    if (elements > tileType.getNumElements())
      return op->emitOpError("expects a tile of at least the box's ") << elements << " elements";
  } else if (elements != tileType.getNumElements()) {
    return op->emitOpError("expects a tile of the box's ") << elements << " elements";
  }
  if (globalType.getElementType() != tileType.getElementType())
    return op->emitOpError("expects a global buffer and a tile of one element type");
  int64_t rowBytes = box.front() * (tileType.getElementTypeBitWidth() / 8);
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return op->emitOpError("expects a swizzle of 0, 32, 64 or 128 bytes, not ") << swizzle;
  if (rowBytes % 16 != 0 || (swizzle != 0 && rowBytes != swizzle))
    return op->emitOpError("expects box rows of a multiple of 16 bytes, and of the swizzle's "
                           "bytes where it swizzles, not ")
           << rowBytes;
  if (isa<TensorType>(globalType) != isa<TensorType>(tileType))
    return op->emitOpError("expects a global buffer and a tile both tensors or both buffers");
  return success();
}

} // namespace

LogicalResult TmaLoadOp::verify() {
  if (failed(verifyTmaBox(*this, getSource(), getCoordinates(), getTile(), getTileIndices(),
                          getBox(), getSwizzle())) ||
      failed(verifyBarriers(*this, getBarriers())))
    return failure();
  if (getMulticast() < 0 || getMulticast() >= (1 << 16))
    return emitOpError("expects a multicast mask of at most 16 blocks, not ") << getMulticast();
  return verifyUpdate(*this, getTile(), getResult());
}

LogicalResult TmaStoreOp::verify() {
  if (failed(verifyTmaBox(*this, getDestination(), getCoordinates(), getTile(),
                          getTileIndices(), getBox(), getSwizzle())))
    return failure();
  return verifyUpdate(*this, getDestination(), getResult());
}

LogicalResult TmaStoreWaitOp::verify() {
  if (getPending() < 0 || getPending() > 63)
    return emitOpError("expects 0 to 63 groups left pending, not ") << getPending();
  return success();
}

LogicalResult StmatrixOp::verify() {
  auto tile = cast<ShapedType>(getTile().getType());
  if (tile.getRank() < 1 || static_cast<int64_t>(getIndices().size()) != tile.getRank())
    return emitOpError("expects one index per dimension of the tile");
  int64_t count = getCount();
  if (count != 1 && count != 2 && count != 4)
    return emitOpError("expects 1, 2 or 4 matrices, not ") << count;
  auto values = cast<VectorType>(getValues().getType());
  if (tile.getElementType() != values.getElementType())
    return emitOpError("expects values of the tile's element type");
  if (values.getNumElements() != 2 * count)
    return emitOpError("expects two values a matrix, not ") << values.getNumElements();
  if (tile.getShape().back() % 8 != 0)
    return emitOpError("expects rows of a multiple of 16 bytes (aligned row addresses)");
  return verifyUpdate(*this, getTile(), getResult());
}

LogicalResult SetMaxRegistersOp::verify() {
  if (getCount() < 24 || getCount() > 256 || getCount() % 8 != 0)
    return emitOpError("expects a multiple of 8 from 24 to 256 registers, not ") << getCount();
  return success();
}

} // namespace hlo::xla_gpu
